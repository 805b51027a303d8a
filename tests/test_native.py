"""The compiled engine (`canasta compile`): used when current, ignored when stale, same play."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from canasta import native

# Plays seeded random deals of every configuration and prints a digest of every legal-move list,
# every chosen move and every result, then a few deals of the `hard` level (whose modules are
# compiled too) with every move it chose, plus whether the compiled modules were in use.
DIGEST = """
import hashlib, json, random
from canasta import native
from canasta.rules import RuleSet, State, legal_actions, make_deck
from canasta.rules.actions import describe
from canasta.bots.heuristic import decide
from canasta.bots.skill import HARD
from canasta.rules.game import default_dealer
from canasta.rules.ruleset import CONFIGURATIONS
digest = hashlib.sha256()
for variant, players, options in CONFIGURATIONS:
    rules = RuleSet.preset(variant, players, options)
    rng = random.Random(7)
    for i in range(103):  # 100 deals of random moves, then 3 of `hard`
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        dealer, out = default_dealer(rules, i)
        state = State.deal(rules, deck, dealer, None, out)
        while not state.is_over:
            if i < 100:
                moves = legal_actions(state)
                digest.update("|".join(describe(m) for m in moves).encode())
                move = rng.choice(moves)
            else:
                move = decide(state.mover(), HARD, rng)
                digest.update(describe(move).encode())
            state.apply(move)
        digest.update(repr(state.result).encode())
print(json.dumps({"native": native.active(), "digest": digest.hexdigest()}))
"""

# The same for the learning interface: seeded random ids, every legal list, tensor and text.
LEARNING_DIGEST = """
import hashlib, importlib.machinery, json, random
from canasta import native
from canasta.learning import LearningGame, game
from canasta.rules.ruleset import CONFIGURATIONS
digest = hashlib.sha256()
for variant, players, options in CONFIGURATIONS:
    learning = LearningGame(variant, players, options)
    rng = random.Random(3)
    for i in range(4):
        state = learning.new_initial_state(seed=i)
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            digest.update(repr((legal, state.observation_tensor(seat))).encode())
            digest.update(state.information_state_string(seat).encode())
            state.apply_action(rng.choice(legal))
        digest.update(repr(state.returns()).encode())
compiled = game.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
print(json.dumps({"native": native.active(), "compiled": compiled, "digest": digest.hexdigest()}))
"""

INPUTS = Path(__file__).resolve().parent / "engine_inputs.py"
NO_BUILD = "no current compiled engine: run scripts/setup (or `canasta compile`)"


def _run(args: list[str], pure: bool) -> dict[str, Any]:
    """The JSON that a Python program prints, under the pure or the compiled engine."""
    env = {k: v for k, v in os.environ.items() if k != "CANASTA_PURE"}
    if pure:
        env["CANASTA_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_compiled_engine_is_built_and_in_use() -> None:
    if os.environ.get("CANASTA_PURE"):  # asked for the pure engine
        assert not native.active() and native.engine_line() == "pure Python (CANASTA_PURE is set)"
        return
    assert native.current(), "no current compiled engine: run scripts/setup (or `canasta compile`)"
    assert native.active() and native.engine_line() == "compiled (mypyc)"
    import canasta.bots.heuristic
    import canasta.rules.legal
    import canasta.rules.state

    for module in (canasta.rules.legal, canasta.rules.state, canasta.bots.heuristic):
        assert str(module.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_pure_and_compiled_engines_play_identically() -> None:
    pure, compiled = _run(["-c", DIGEST], pure=True), _run(["-c", DIGEST], pure=False)
    assert pure["native"] is False
    assert compiled["native"] is True, NO_BUILD  # never a comparison of the pure engine with itself
    assert pure["digest"] == compiled["digest"]


def test_pure_and_compiled_learning_interfaces_play_identically() -> None:
    pure, compiled = _run(["-c", LEARNING_DIGEST], pure=True), _run(["-c", LEARNING_DIGEST], pure=False)
    assert (pure["native"], pure["compiled"]) == (False, False)
    assert (compiled["native"], compiled["compiled"]) == (True, True), NO_BUILD
    assert pure["digest"] == compiled["digest"]


def test_pure_and_compiled_engines_accept_the_same_inputs() -> None:
    """The README's example and the public constructors on plain inputs (lists, text, wrong
    types), and actions built so checked and applied, give the same under both engines."""
    pure, compiled = _run([str(INPUTS)], pure=True), _run([str(INPUTS)], pure=False)
    assert pure["engine"] == {"native": False, "state_module_compiled": False}
    assert compiled["engine"] == {"native": True, "state_module_compiled": True}, NO_BUILD
    assert compiled["outputs"] == pure["outputs"]
    out = pure["outputs"]
    assert out["readme"][0] == "0 draw"
    made = out["constructors"]
    eights = "[Card('8S'), Card('8H')]"
    assert made['parse_cards("8S 8H")'] == made['parse_cards(["8S", "8H"])'] == eights
    assert made['parse_cards("8s,8h, JK th")'] == "[Card('8S'), Card('8H'), Card('JK'), Card('10H')]"
    assert made['parse_cards("")'] == "[]"
    assert made["Group(list).cards"] == made["Pickup(list).with_"] == "(Card('KS'), Card('KH'))"
    assert made["Pickup(list) == Pickup(tuple)"] is made["hash Group(list) == Group(tuple)"] is True
    refused = [name for name, value in made.items() if isinstance(value, dict)]
    assert refused == [
        'parse_cards("8S 8X")',
        'parse_cards(["8S 8H"])',
        "parse_cards(8)",
        "parse_cards([8])",
        "parse_cards(None)",
        'parse_cards(b"8S")',
        'Group("KS KH")',
        'Group(["KS"])',
        "Group(card)",
        'Group(list, "K")',
        "Pickup(list, [list])",
        "Pickup(list, [], 1)",
        'Pickup("KS KH")',
        "Meld(Group)",
        "Meld([list])",
        'Discard("KS")',
        "Answer(1)",
    ]
    assert {made[name]["error"] for name in refused} == {"InvalidActionError"}
    assert "parse_cards" in made['Group(["KS"])']["message"]
    legal = {
        name: {a: r["check"] is None for a, r in p["actions"].items()} for name, p in out["positions"].items()
    }
    assert legal == {
        "A": {"meld [KS KH KD KC KS]": True, "meld [KS KH KD]": False},
        "B": {"pickup with [KS KH 2C]": True, "pickup with [KS KH]": False},
        "C": {"pickup with [KS KH KC] + [5S 5H 5D]": True},
        "D": {"pickup with [8S 8H 8D 8C]": True, "pickup with [8S 8H]": False, "discard 8S": False},
    }
    for name, position in out["positions"].items():  # apply agrees with check
        for action, result in position["actions"].items():
            assert isinstance(result["apply"], str) is (result["check"] is None), (name, action)


def test_a_stale_or_foreign_build_is_ignored(tmp_path: Path) -> None:
    manifest = {"tag": native._tag(), "sources": native.source_digest(), "modules": {}}
    (tmp_path / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert native.current(tmp_path)
    for key, value in (("sources", "0" * 64), ("tag", "cpython-299-other.so")):
        (tmp_path / native.MANIFEST).write_text(json.dumps({**manifest, key: value}), encoding="utf-8")
        assert not native.current(tmp_path)
    (tmp_path / native.MANIFEST).write_text("not json", encoding="utf-8")
    assert not native.current(tmp_path)
    assert not native.current(tmp_path / "missing")
