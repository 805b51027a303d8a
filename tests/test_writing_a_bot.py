"""docs/writing-a-bot.md holds: its bot, written only from the guide, plays a tournament."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from canasta.bots.loading import is_external, load_bot
from canasta.cli.main import main
from canasta.rules import Game


def test_the_guide_bot_plays_a_tournament(guide_bot: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["tournament", "--bots", f"{guide_bot}:GreedyBot,random", "--deals", "4", "--seed", "3", "--json"]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    names = [r["bot"] for r in report["results"]]
    assert names == [f"{guide_bot}:GreedyBot", "random"]
    assert all(r["decisions"] > 0 for r in report["results"])


def test_a_class_named_by_module(guide_bot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(guide_bot.parent))
    assert is_external("userbots.greedy:GreedyBot") and not is_external("search:time=0.5")
    pkg = guide_bot.parent / "userbots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "greedy.py").write_text(guide_bot.read_text())
    bot = load_bot("userbots.greedy:GreedyBot")
    assert bot.name == "greedy"
    game = Game.new("classic", 4, seed=1)
    state = game.current
    move = bot.choose(state.view(state.to_move), random.Random(0))
    assert move in state.legal_actions()


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("nosuch.py:Bot", "no file nosuch.py"),
        ("{bot}:Nope", "has no class Nope"),
        ("{bot}:random", "has no class random"),
        ("{bot}:1x", "after the colon comes a class name"),
        ("no_such_package.mod:Bot", "no module no_such_package here"),
    ],
)
def test_bad_own_bot_specs_are_refused_clearly(
    guide_bot: Path, spec: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["tournament", "--bots", spec.format(bot=guide_bot) + ",random", "--deals", "2"])
    assert code == 2
    assert says in capsys.readouterr().err
