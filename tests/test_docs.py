"""The reference pages hold to the code: docs/rules.md to `RuleSet`, docs/formats.md to the
parsers, `replay` and the error codes, and every link between the README and docs/ resolves."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from canasta.protocol.errors import ErrorCode
from canasta.protocol.refusal_texts import EN as REFUSALS
from canasta.rules import (
    InvalidActionError,
    Record,
    RuleSet,
    action_from_json,
    action_to_json,
    position_from_json,
    replay,
    ruleset,
)
from canasta.rules.refusal import Code
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FORMATS = (DOCS / "formats.md").read_text(encoding="utf-8")
RULES = (DOCS / "rules.md").read_text(encoding="utf-8")
RULES_SOURCE = ROOT / "src" / "canasta" / "rules"
FIXED = ("variant", "players")  # fields chosen on their own, not options

CONFIGS = {configuration_label(v, p, o): RuleSet.preset(v, p, o) for v, p, o in CONFIGURATIONS}


def section(text: str, heading: str) -> str:
    """The text under a Markdown heading, up to the next heading of any level."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#)", text + "\n#", re.M | re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def table_codes(text: str) -> set[str]:
    """The codes in the first column of a table: rows `| \\`code\\` | ...`."""
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))


def raised_codes() -> dict[str, set[str]]:
    """The literal codes given to each error class where the engine raises it."""
    found: dict[str, set[str]] = {"IllegalActionError": set(), "InvalidActionError": set()}
    for path in RULES_SOURCE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in found:
                args = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "code")]
                if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                    found[node.func.id].add(args[0].value)
    return found


def test_every_engine_error_code_is_documented() -> None:
    raised = raised_codes()
    assert not raised["IllegalActionError"], "the rules refuse only by a code of the closed set"
    illegal = {code.value for code in Code} | {key.split(".")[0] for key in REFUSALS}
    invalid = raised["InvalidActionError"] | {InvalidActionError.code}
    assert len(illegal) > 20 and len(invalid) > 10
    illegal_doc = table_codes(section(FORMATS, "Illegal actions (`IllegalActionError`)"))
    invalid_doc = table_codes(section(FORMATS, "Malformed input (`InvalidActionError`)"))
    assert illegal <= illegal_doc, f"undocumented: {sorted(illegal - illegal_doc)}"
    assert invalid <= invalid_doc, f"undocumented: {sorted(invalid - invalid_doc)}"
    source = "\n".join(p.read_text(encoding="utf-8") for p in RULES_SOURCE.glob("*.py"))
    stale = {c for c in illegal_doc | invalid_doc if f'"{c}"' not in source}
    assert not stale, f"documented but never raised: {sorted(stale)}"


def test_every_wire_error_code_is_documented() -> None:
    listed = set(re.findall(r"`([a-z_]+)`", section(FORMATS, "Wire errors")))
    wire = {c.value for c in ErrorCode}
    assert listed == wire
    assert wire <= table_codes(section((DOCS / "protocol.md").read_text(encoding="utf-8"), "Error codes"))


# -- docs/rules.md: the options table ----------------------------------------------------------


def shown(key: str, value: Any) -> str:
    """A value as the options table writes it: text bare, lists and numbers as JSON."""
    if key == "initial_meld_table":
        rows = list(value)
        return ", ".join([f"below {rows[1][0]}: {rows[0][1]}", *(f"{t}: {m}" for t, m in rows[1:])])
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str):
        return value
    if isinstance(value, frozenset | set):
        return json.dumps(sorted(m.value if isinstance(m, Enum) else m for m in value))
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def option_rows() -> dict[str, list[str]]:
    rows = {}
    for line in section(RULES, "Options").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| `") and len(cells) == 5:
            rows[cells[0].strip("`")] = cells[1:]
    return rows


OPTIONS = option_rows()


def test_every_ruleset_field_has_its_row() -> None:
    fields = {f.name for f in dataclasses.fields(RuleSet) if f.compare}
    assert set(OPTIONS) == fields - set(FIXED)
    for key in FIXED:
        assert f"`{key}`" in section(RULES, "Options")


def expected_values(key: str, base: str, elsewhere: str) -> dict[str, str]:
    """Each configuration's value as the row states it (the most specific label wins)."""
    stated: dict[str, tuple[int, str]] = {label: (0, base) for label in CONFIGS}
    if elsewhere == "—":
        return {label: value for label, (_, value) in stated.items()}
    entries = re.findall(r"\s*([^;`]+?): `([^`]*)`(?:;|$)", elsewhere)
    assert "; ".join(f"{labels}: `{value}`" for labels, value in entries) == elsewhere, key
    for labels, value in entries:
        for label in labels.split(", "):
            matched = [c for c in CONFIGS if c == label or CONFIGS[c].variant == label]
            assert matched, f"{key}: unknown preset {label!r}"
            specific = 2 if label in CONFIGS else 1
            for config in matched:
                if stated[config][0] <= specific:
                    stated[config] = (specific, value)
    return {label: value for label, (_, value) in stated.items()}


@pytest.mark.parametrize("key", sorted(OPTIONS))
def test_option_row_states_every_preset(key: str) -> None:
    _, base, elsewhere, meaning = OPTIONS[key]
    assert meaning and base.startswith("`") and base.endswith("`"), key
    expected = expected_values(key, base.strip("`"), elsewhere)
    actual = {label: shown(key, getattr(rules, key)) for label, rules in CONFIGS.items()}
    assert actual == expected


def declared_values(key: str) -> set[str]:
    """The values the code declares for a choice or list option: its enum or literal type, or
    the table `canasta.rules.ruleset` checks options against."""
    kind = typing.get_type_hints(RuleSet)[key]
    if typing.get_origin(kind) in (frozenset, set):
        (kind,) = typing.get_args(kind)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return {m.value for m in kind}
    if typing.get_origin(kind) is typing.Literal:
        return set(typing.get_args(kind))
    tables = (getattr(ruleset, "_CHOICES", {}), getattr(ruleset, "_SETS", {}))
    return next(set(table[key]) for table in tables if key in table)


CHOICES = sorted(k for k, row in OPTIONS.items() if re.match(r"(one|list) of `[a-z0-9_]+`", row[0]))


@pytest.mark.parametrize("key", CHOICES)
def test_option_values_are_accepted(key: str) -> None:
    listed = re.findall(r"`([^`]+)`", OPTIONS[key][0])
    assert set(listed) == declared_values(key)
    single = OPTIONS[key][0].startswith("one of")
    for config, rules in CONFIGS.items():
        current = shown(key, getattr(rules, key))
        assert (current in listed) if single else set(json.loads(current)) <= set(listed), (key, config)
    for value in listed:
        option = value if single else [value]
        rules = RuleSet.preset("classic", 4, {key: option})
        assert shown(key, getattr(rules, key)) == (value if single else json.dumps([value]))
    with pytest.raises(InvalidActionError):
        RuleSet.preset("classic", 4, {key: "no_such_value" if single else ["no_such_value"]})


@pytest.mark.parametrize("key", sorted(ruleset.OPTION_RANGES))
def test_numeric_option_rows_state_the_range_the_rule_set_checks(key: str) -> None:
    low, high = ruleset.OPTION_RANGES[key]
    assert f"from {low} to {high}" in OPTIONS[key][0], key
    refusal = f"option {key}: expected a whole number from {low} to {high}"
    for outside in (low - 1, high + 1):
        value: Any = outside
        if key == "red3_values":
            value = [outside]
        elif key == "initial_meld_table":
            value = [[0, 50], [outside, 90]]
        with pytest.raises(InvalidActionError, match=refusal):
            RuleSet.preset("classic", 6 if key == "teams" else 4, {key: value})


# -- docs/formats.md: the JSON examples ----------------------------------------------------------


def json_examples() -> list[Any]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", FORMATS, re.S)]


def test_json_examples_parse_and_replay_as_shown() -> None:
    examples = json_examples()
    kinds = {"actions": 0, "position": 0, "record": 0, "output": 0}
    source: Any = None
    for example in examples:
        if isinstance(example, list):
            for obj in example:
                action, seat = action_from_json(obj)
                assert action_to_json(action, seat) == obj
            kinds["actions"] += 1
        elif example.get("format") == "canasta-position/1":
            position_from_json(example)
            source, kinds["position"] = example, kinds["position"] + 1
        elif example.get("format") == "canasta-record/1":
            Record.from_json(example)
            source, kinds["record"] = example, kinds["record"] + 1
        else:
            assert "ok" in example and source is not None, f"an example of no known kind: {example}"
            out, _ = replay(Record.from_json(source))
            assert out.pop("position")["format"] == "canasta-position/1"
            assert out == example, "a replay example of docs/formats.md differs from `replay`"
            kinds["output"] += 1
    assert kinds == {"actions": 1, "position": 1, "record": 2, "output": 3}


# -- links -------------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_readme_and_docs_resolve() -> None:
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    readme_targets = set()
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+\.md(?:#[^)\s]*)?)\)", page.read_text(encoding="utf-8")):
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve()
            assert linked.is_file() and linked.is_relative_to(ROOT), f"{page.name}: {target}"
            if anchor:
                headings = re.findall(r"^#+ (.*)$", linked.read_text(encoding="utf-8"), re.M)
                assert anchor in {slug(h) for h in headings}, f"{page.name}: {target}"
            if page.name == "README.md":
                readme_targets.add(linked.name)
    assert {"formats.md", "rules.md", "protocol.md", "bots.md"} <= readme_targets
