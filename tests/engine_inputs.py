"""Runs the README's Python example and the engine's public constructors on plain Python inputs
(lists, tuples, generators, text, wrong types), then checks and applies the actions built so in
positions of every kind; prints one JSON object of what each step returned or raised, with the
engine in use. `tests/test_native.py` runs it under the pure and the compiled engine.

Usage: python tests/engine_inputs.py
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from canasta import native
from canasta.rules import (
    Answer,
    CanastaError,
    Card,
    Discard,
    Game,
    Group,
    Meld,
    Pickup,
    Rank,
    State,
    parse_cards,
    position_to_json,
)
from canasta.rules.actions import describe
from support import make_state

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_example() -> list[str]:
    """What the README's Python example prints."""
    block = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})
    return out.getvalue().splitlines()


def outcome(make: Callable[[], Any]) -> Any:
    """The repr of what `make` returns, or the engine error it raises (any other error escapes)."""
    try:
        value = make()
    except CanastaError as exc:
        return {"error": type(exc).__name__, "code": exc.code, "message": exc.message}
    return value if value is None or isinstance(value, str | bool) else repr(value)


KINGS = parse_cards("KS KH")
#: The public constructors, each on plain inputs (by the source text of the call).
CONSTRUCTORS: dict[str, Callable[[], Any]] = {
    'parse_cards("8S 8H")': lambda: parse_cards("8S 8H"),
    'parse_cards("8s,8h, JK th")': lambda: parse_cards("8s,8h, JK th"),
    'parse_cards(["8S", "8H"])': lambda: parse_cards(["8S", "8H"]),
    'parse_cards(("8S",))': lambda: parse_cards(("8S",)),
    'parse_cards(c for c in ["KS", "2C"])': lambda: parse_cards(c for c in ["KS", "2C"]),
    'parse_cards("")': lambda: parse_cards(""),
    'parse_cards("8S 8X")': lambda: parse_cards("8S 8X"),
    'parse_cards(["8S 8H"])': lambda: parse_cards(["8S 8H"]),
    "parse_cards(8)": lambda: parse_cards(8),
    "parse_cards([8])": lambda: parse_cards([8]),
    "parse_cards(None)": lambda: parse_cards(None),
    'parse_cards(b"8S")': lambda: parse_cards(b"8S"),
    "Group(list)": lambda: Group(list(KINGS)),
    "Group(generator, rank)": lambda: Group((c for c in KINGS), Rank.KING),
    "Group(list) == Group(tuple)": lambda: Group(list(KINGS)) == Group(tuple(KINGS)),
    "hash Group(list) == Group(tuple)": lambda: hash(Group(list(KINGS))) == hash(Group(tuple(KINGS))),
    "Group(list).cards": lambda: Group(list(KINGS)).cards,
    'Group("KS KH")': lambda: Group("KS KH"),  # type: ignore[arg-type]
    'Group(["KS"])': lambda: Group(["KS"]),  # type: ignore[list-item]
    "Group(card)": lambda: Group(KINGS[0]),  # type: ignore[arg-type]
    'Group(list, "K")': lambda: Group(KINGS, "K"),  # type: ignore[arg-type]
    "Pickup(list)": lambda: Pickup(KINGS),
    "Pickup(list, [Group(list)])": lambda: Pickup(KINGS, [Group(parse_cards("5S 5H 5D"))]),
    "Pickup(list) == Pickup(tuple)": lambda: Pickup(KINGS) == Pickup(tuple(KINGS)),
    "Pickup(top_only=True)": lambda: Pickup(top_only=True),
    "Pickup(list).with_": lambda: Pickup(KINGS).with_,
    "Pickup(list, [list])": lambda: Pickup(KINGS, [KINGS]),  # type: ignore[list-item]
    "Pickup(list, [], 1)": lambda: Pickup(KINGS, [], 1),  # type: ignore[arg-type]
    'Pickup("KS KH")': lambda: Pickup("KS KH"),  # type: ignore[arg-type]
    "Meld([Group(list)])": lambda: Meld([Group(KINGS)]),
    "Meld(group generator).melds": lambda: Meld(Group([c]) for c in KINGS).melds,
    "Meld(Group)": lambda: Meld(Group(KINGS)),  # type: ignore[arg-type]
    "Meld([list])": lambda: Meld([KINGS]),  # type: ignore[list-item]
    "Discard(card)": lambda: Discard(KINGS[0]),
    'Discard("KS")': lambda: Discard("KS"),  # type: ignore[arg-type]
    "Answer(True)": lambda: Answer(True),
    "Answer(1)": lambda: Answer(1),  # type: ignore[arg-type]
}


def positions() -> dict[str, tuple[State, list[Any]]]:
    """Positions of the engine's issue list, each with actions built from plain lists."""
    d = Game.new("classic", players=4, seed=3).current
    return {
        "A": (
            make_state(hands=[["KS", "KH", "KD", "KC", "KS", "KH", "7D"], [], [], []]),
            [Meld([Group(parse_cards("KS KH KD KC KS"))]), Meld([Group(parse_cards(["KS", "KH", "KD"]))])],
        ),
        "B": (
            make_state(phase="draw", pile=["6C", "KD"], hands=[["KS", "KH", "2C", "9D", "7S"], [], [], []]),
            [Pickup(parse_cards(["KS", "KH", "2C"])), Pickup(parse_cards("KS KH"))],
        ),
        "C": (
            make_state(
                phase="draw",
                pile=["6C", "KD"],
                hands=[["KS", "KH", "KC", "5S", "5H", "5D", "9D"], [], [], []],
            ),
            [Pickup(parse_cards("KS KH KC"), [Group(parse_cards("5S 5H 5D"))])],
        ),
        "D": (
            d,
            [
                Pickup(parse_cards("8S 8H 8D 8C")),
                Pickup(parse_cards(["8S", "8H"])),
                Discard(Card.parse("8S")),
            ],
        ),
    }


def play(state: State, action: Any) -> Any:
    """`check` of the action, and the position after `apply` on a copy (or the refusal)."""

    def apply() -> str:
        copy = state.clone()
        copy.apply(action)
        return json.dumps(position_to_json(copy))

    return {"check": state.check(action), "apply": outcome(apply)}


def engine() -> dict[str, Any]:
    import canasta.rules.state

    return {
        "native": native.active(),
        "state_module_compiled": str(canasta.rules.state.__file__).endswith(
            tuple(importlib.machinery.EXTENSION_SUFFIXES)
        ),
    }


def main() -> None:
    report: dict[str, Any] = {"readme": readme_example()}
    report["constructors"] = {name: outcome(make) for name, make in CONSTRUCTORS.items()}
    report["positions"] = {
        name: {
            "legal": [describe(a) for a in state.legal_actions()],
            "actions": {describe(a): play(state, a) for a in actions},
        }
        for name, (state, actions) in positions().items()
    }
    json.dump({"engine": engine(), "outputs": report}, sys.stdout)


if __name__ == "__main__":
    main()
