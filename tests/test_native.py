"""The compiled engine (`canasta compile`): used when current, ignored when stale, same play."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

from canasta import native

# Plays seeded random deals of every configuration and prints a digest of every legal-move list,
# every chosen move and every result, plus whether the compiled modules were in use.
DIGEST = """
import hashlib, json, random
from canasta import native
from canasta.rules import RuleSet, State, legal_actions, make_deck
from canasta.rules.actions import describe
from canasta.rules.game import default_dealer
from canasta.rules.ruleset import CONFIGURATIONS
digest = hashlib.sha256()
for variant, players, options in CONFIGURATIONS:
    rules = RuleSet.preset(variant, players, options)
    rng = random.Random(7)
    for i in range(100):
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        dealer, out = default_dealer(rules, i)
        state = State.deal(rules, deck, dealer, None, out)
        while not state.is_over:
            moves = legal_actions(state)
            digest.update("|".join(describe(m) for m in moves).encode())
            state.apply(rng.choice(moves))
        digest.update(repr(state.result).encode())
print(json.dumps({"native": native.active(), "digest": digest.hexdigest()}))
"""


def _play(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "CANASTA_PURE"}
    if pure:
        env["CANASTA_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", DIGEST], env=env, capture_output=True, text=True, check=True, timeout=600
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_engine_is_built_and_in_use() -> None:
    if os.environ.get("CANASTA_PURE"):  # asked for the pure engine
        assert not native.active()
        return
    assert native.current(), "no current compiled engine: run scripts/setup (or `canasta compile`)"
    assert native.active()
    import canasta.rules.legal
    import canasta.rules.state

    for module in (canasta.rules.legal, canasta.rules.state):
        assert str(module.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_pure_and_compiled_engines_play_identically() -> None:
    pure, compiled = _play(pure=True), _play(pure=False)
    assert pure["native"] is False
    assert compiled["native"] is native.current()
    assert pure["digest"] == compiled["digest"]


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
