"""The command line (FORMATS.md "`canasta replay FILE`", README "The command line").

Test ids: CLI01-CLI19. Most run `canasta.cli.main.main(argv)` in-process; CLI17-CLI19 run the
real program to check exit statuses and standard streams.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from canasta import native
from canasta.cli.main import main
from canasta.rules import Game, Record, RuleSet, make_deck, position_to_json

PRESETS = [
    ("classic", 2), ("classic", 3), ("classic", 4), ("classic", 5), ("classic", 6),
    ("modern-american", 4), ("online", 2), ("online", 4), ("mendelev", 4),
]
ROOT = Path(__file__).resolve().parent.parent
CANASTA = ROOT / ".venv" / "bin" / "canasta"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process; (exit status, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, obj: Any, name: str = "input.json") -> str:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(path)


def deal_record(variant: str = "classic", players: int = 4, seed: int = 1) -> dict[str, Any]:
    game = Game.new(variant, players, seed=seed)
    return Record.of_game(game).to_json()


def assert_malformed(code: int, out: str, err: str, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming the problem, no traceback."""
    assert code == 2, (out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("canasta: ")
    assert "Traceback" not in err
    assert "internal error" not in err, err
    for fragment in fragments:
        assert fragment.lower() in lines[0].lower(), (fragment, lines[0])


# -- canasta deal -------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_CLI01_deal_prints_one_deal_without_actions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str, players: int
) -> None:
    code, out, err = run(capsys, "deal", "--variant", variant, "--players", str(players),
                         "--seed", "7")
    assert (code, err) == (0, "")
    assert out.count("\n") == 1
    record = json.loads(out)
    assert record["format"] == "canasta-record/1"
    assert (record["variant"], record["players"], record["options"]) == (variant, players, {})
    (deal,) = record["deals"]
    assert deal["actions"] == []
    rules = RuleSet.preset(variant, players)
    assert Counter(deal["deck"]) == Counter(c.code for c in make_deck(rules.decks, rules.jokers))
    if players == 5:
        assert deal["sitting_out"] in (0, 2, 4)
    else:
        assert deal["dealer"] == players - 1  # so that seat 0 plays first
    code, out, err = run(capsys, "replay", write(tmp_path, out))
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["ok"] is True
    assert result["deals"] == [{"ended": False}]
    assert result["totals"] == [0] * rules.teams
    assert result["position"]["phase"] == "draw"
    if players != 5:
        assert result["position"]["turn"] == 0


def test_CLI02_deal_is_deterministic_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "deal", "--variant", "classic", "--players", "4", "--seed", "42")
    again = run(capsys, "deal", "--variant", "classic", "--players", "4", "--seed", "42")
    other = run(capsys, "deal", "--variant", "classic", "--players", "4", "--seed", "43")
    assert first == again
    assert first[0] == other[0] == 0
    assert json.loads(first[1])["deals"][0]["deck"] != json.loads(other[1])["deals"][0]["deck"]


def test_CLI03_deal_with_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "deal", "--variant", "classic", "--players", "4", "--seed", "1",
                       "--option", "target_score=2500", "--option", "pile_take_by_layoff=false")
    assert code == 0
    record = json.loads(out)
    assert record["options"] == {"target_score": 2500, "pile_take_by_layoff": False}
    code, out, _ = run(capsys, "replay", write(tmp_path, record))
    assert code == 0
    assert json.loads(out)["position"]["options"] == record["options"]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--players", "7"], "7"),
        (["--variant", "online", "--players", "3"], "3"),
        (["--option", "no_such_option=1"], "no_such_option"),
        (["--option", "freeze_scope=sometimes"], "freeze_scope"),
        (["--option", "target_score"], "target_score"),
    ],
)
def test_CLI04_deal_with_bad_rules_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    assert_malformed(*run(capsys, "deal", "--seed", "1", *argv), fragment)


def test_CLI05_unknown_variant_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["deal", "--variant", "rummy"])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "rummy" in err
    assert "Traceback" not in err


# -- canasta replay -----------------------------------------------------------------------------


def _played(variant: str, players: int, seed: int, steps: int) -> Game:
    game = Game.new(variant, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.current.is_over:
            break
        game.apply(rng.choice(game.current.legal_actions()))
    return game


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_CLI06_replay_of_a_played_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str, players: int
) -> None:
    game = _played(variant, players, seed=players, steps=10_000)
    assert game.current.is_over
    code, out, err = run(capsys, "replay", write(tmp_path, Record.of_game(game).to_json()))
    assert (code, err) == (0, "")
    assert out.endswith("\n") and out.count("\n") == 1
    result = json.loads(out)
    assert result["ok"] is True and "error" not in result
    assert result["position"] == position_to_json(game.current)
    (deal,) = result["deals"]
    assert deal["ended"] is True
    assert deal["reason"] == game.current.result.reason
    assert deal["went_out"] == game.current.result.went_out
    assert [s["total"] for s in deal["scores"]] == [s.total for s in game.current.result.scores]
    assert result["totals"] == game.totals
    assert result["game_over"] is game.is_over
    assert result["winner"] == game.winner


def test_CLI07_replay_stops_at_an_illegal_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = deal_record(seed=5)
    game = Game.new("classic", 4, seed=5)
    game.apply(game.current.legal_actions()[0], 0)  # a draw
    before = position_to_json(game.current)
    absent = next(c for c in ("JK", "2C", "AS", "KS", "QS", "5H")
                  if c not in before["hands"][0])
    record["deals"][0]["actions"] = [
        {"seat": 0, "type": "draw"},
        {"seat": 0, "type": "discard", "card": absent},
        {"seat": 1, "type": "draw"},
    ]
    code, out, err = run(capsys, "replay", write(tmp_path, record))
    assert (code, err) == (1, "")
    result = json.loads(out)
    assert result["ok"] is False
    error = result["error"]
    assert set(error) == {"deal", "action", "code", "message"}
    assert (error["deal"], error["action"]) == (0, 1)
    assert error["code"] == "card_not_in_hand"
    assert isinstance(error["message"], str) and absent in error["message"]
    assert result["position"] == before  # the state before the illegal action
    assert result["deals"] == [{"ended": False}]
    assert result["totals"] == [0, 0]
    assert result["game_over"] is False and result["winner"] is None


@pytest.mark.parametrize(
    ("actions", "index", "code"),
    [
        ([{"seat": 1, "type": "draw"}], 0, "not_your_turn"),
        ([{"seat": 0, "type": "discard", "card": "KS"}], 0, "wrong_phase"),
        ([{"seat": 0, "type": "draw"}, {"seat": 0, "type": "draw"}], 1, "wrong_phase"),
        ([{"seat": 0, "type": "answer", "yes": True}], 0, None),
    ],
)
def test_CLI08_illegal_actions_give_ok_false_and_exit_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, actions: list[Any], index: int,
    code: str | None,
) -> None:
    record = deal_record(seed=9)
    record["deals"][0]["actions"] = actions
    status, out, err = run(capsys, "replay", write(tmp_path, record))
    assert (status, err) == (1, "")
    result = json.loads(out)
    assert result["ok"] is False
    assert (result["error"]["deal"], result["error"]["action"]) == (0, index)
    if code is not None:
        assert result["error"]["code"] == code
    assert result["error"]["message"]
    # the reported position is the one before the illegal action
    game = Game.new("classic", 4, seed=9)
    for a in actions[:index]:
        game.apply(game.current.legal_actions()[0], a["seat"])
    assert result["position"] == position_to_json(game.current)


def test_CLI09_action_after_the_deal_ended(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    game = _played("classic", 4, seed=3, steps=10_000)
    record = Record.of_game(game).to_json()
    n = len(record["deals"][0]["actions"])
    record["deals"][0]["actions"].append({"seat": 0, "type": "draw"})
    code, out, _ = run(capsys, "replay", write(tmp_path, record))
    assert code == 1
    result = json.loads(out)
    assert result["error"]["action"] == n
    assert result["deals"][0]["ended"] is True
    assert result["totals"] == game.totals


def test_CLI10_next_deal_before_the_deal_is_over(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    record = deal_record(seed=2)
    record["deals"].append({"dealer": 0, "deck": record["deals"][0]["deck"], "actions": []})
    code, out, _ = run(capsys, "replay", write(tmp_path, record))
    assert code == 1
    result = json.loads(out)
    assert result["ok"] is False
    assert result["error"]["deal"] == 1
    assert result["error"]["action"] is None
    assert result["deals"] == [{"ended": False}]


def test_CLI11_position_file_replays_as_one_deal(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    game = _played("classic", 4, seed=11, steps=37)
    position = position_to_json(game.current)
    code, out, err = run(capsys, "replay", write(tmp_path, position))
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["ok"] is True
    assert result["deals"] == [{"ended": game.current.is_over}]
    assert result["position"] == position
    # the documented fields alone are enough
    small = {k: position[k] for k in ("format", "variant", "players", "scores", "dealer", "turn",
                                      "phase", "hands", "stock", "pile", "melds", "red_threes")}
    code, out, _ = run(capsys, "replay", write(tmp_path, small, "small.json"))
    assert code == 0
    assert json.loads(out)["position"]["hands"] == position["hands"]


def test_CLI11_record_deal_from_a_position_with_actions(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    start = _played("classic", 3, seed=12, steps=20)
    position = position_to_json(start.current)
    game = _played("classic", 3, seed=12, steps=30)
    actions = Record.of_game(game).to_json()["deals"][0]["actions"][20:]
    assert len(actions) == 10
    record = {"format": "canasta-record/1", "variant": "classic", "players": 3,
              "deals": [{"position": position, "actions": actions}]}
    code, out, _ = run(capsys, "replay", write(tmp_path, record))
    assert code == 0
    assert json.loads(out)["position"] == position_to_json(game.current)


def test_CLI12_ended_position_file_reports_its_scores(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    game = _played("online", 2, seed=4, steps=10_000)
    position = position_to_json(game.current)
    assert position["phase"] == "ended"
    code, out, _ = run(capsys, "replay", write(tmp_path, position))
    assert code == 0
    result = json.loads(out)
    assert result["deals"][0]["ended"] is True
    assert result["deals"][0]["reason"] == game.current.result.reason
    assert result["totals"] == game.totals


def test_CLI13_replay_from_standard_input(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(deal_record(seed=8))))
    code, out, _ = run(capsys, "replay", "-")
    assert code == 0
    assert json.loads(out)["ok"] is True


def _malformed_cases() -> list[Any]:
    record = deal_record(seed=1)
    deck = record["deals"][0]["deck"]
    position = position_to_json(Game.new("classic", 4, seed=1).current)

    def rec(**deal: Any) -> dict[str, Any]:
        return {**record, "deals": [{**record["deals"][0], **deal}]}

    def with_action(action: Any) -> dict[str, Any]:
        return rec(actions=[action])

    too_many = {**position, "hands": [[*position["hands"][0], "JK", "JK", "JK", "JK", "JK"],
                                      *position["hands"][1:]]}
    cases = [
        ("not-json", "{format: canasta", ["not JSON"]),
        ("empty", "", ["not JSON"]),
        ("array", [1, 2], []),
        ("no-format", {k: v for k, v in record.items() if k != "format"}, ["format"]),
        ("bad-format", {**record, "format": "pgn"}, ["format"]),
        ("unknown-card-deck", rec(deck=["ZZ", *deck[1:]]), ["ZZ", "deal 0"]),
        ("unknown-card-action", with_action({"seat": 0, "type": "discard", "card": "11H"}),
         ["11H", "action 0"]),
        ("unknown-action", with_action({"seat": 0, "type": "shuffle"}), ["shuffle", "action 0"]),
        ("action-without-seat", with_action({"type": "draw"}), ["seat", "action 0"]),
        ("discard-without-card", with_action({"seat": 0, "type": "discard"}), ["card"]),
        ("action-without-type", with_action({"seat": 0}), ["type"]),
        ("answer-without-yes", with_action({"seat": 1, "type": "answer"}), ["yes"]),
        ("meld-without-melds", with_action({"seat": 0, "type": "meld"}), ["melds"]),
        ("pickup-without-with", with_action({"seat": 0, "type": "pickup"}), ["with"]),
        ("record-without-deals", {k: v for k, v in record.items() if k != "deals"}, ["deals"]),
        ("deal-without-deck", {**record, "deals": [{"dealer": 3, "actions": []}]}, ["deck"]),
        ("seat-string", with_action({"seat": "0", "type": "draw"}), ["seat"]),
        ("seat-too-big", with_action({"seat": 4, "type": "draw"}), ["seat"]),
        ("yes-string", with_action({"seat": 1, "type": "answer", "yes": "yes"}), ["yes"]),
        ("card-number", with_action({"seat": 0, "type": "discard", "card": 10}), ["card"]),
        ("melds-string", with_action({"seat": 0, "type": "meld", "melds": "KS KH KD"}), ["melds"]),
        ("actions-object", rec(actions={"0": {"seat": 0, "type": "draw"}}), ["actions"]),
        ("deals-object", {**record, "deals": {"0": record["deals"][0]}}, ["deals"]),
        ("deal-string", {**record, "deals": ["deal"]}, ["deal 0"]),
        ("deck-string", rec(deck=" ".join(deck)), ["deck"]),
        ("dealer-string", rec(dealer="3"), ["dealer"]),
        ("dealer-too-big", rec(dealer=4), ["dealer"]),
        ("players-string", {**record, "players": "4"}, ["4"]),
        ("options-list", {**record, "options": ["target_score"]}, ["options"]),
        ("unknown-variant", {**record, "variant": "rummy"}, ["rummy"]),
        ("missing-variant", {k: v for k, v in record.items() if k != "variant"}, ["variant"]),
        ("unknown-option", {**record, "options": {"no_such_option": True}}, ["no_such_option"]),
        ("bad-option-value", {**record, "options": {"target_score": "lots"}}, ["target_score"]),
        ("deck-short", rec(deck=deck[:-1]), ["deal 0", "107"]),
        ("deck-long", rec(deck=[*deck, "KS"]), ["deal 0", "109"]),
        ("deck-wrong-cards", rec(deck=[c for c in deck if c != "JK"] + ["KS"] * 4),
         ["deal 0", "JK"]),
        ("deck-162-for-4", rec(deck=[c.code for c in make_deck(3, 6)]), ["deal 0", "162"]),
        ("position-too-many-copies", too_many, ["JK"]),
        ("position-in-record-too-many", rec(position=too_many), ["JK"]),
        ("position-unknown-card", {**position, "stock": ["KX", *position["stock"]]}, ["KX"]),
        ("position-bad-phase", {**position, "phase": "discard"}, ["phase"]),
        ("position-missing-hands", {k: v for k, v in position.items() if k != "hands"},
         ["hands"]),
        ("position-unknown-variant", {**position, "variant": "gin"}, ["gin"]),
    ]
    return [pytest.param(obj, fragments, id=name) for name, obj, fragments in cases]


@pytest.mark.parametrize(("obj", "fragments"), _malformed_cases())
def test_CLI14_malformed_files_fail_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, obj: Any, fragments: list[str]
) -> None:
    path = write(tmp_path, obj)
    assert_malformed(*run(capsys, "replay", path), *fragments)


def test_CLI15_unreadable_files_fail_in_one_line(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    assert_malformed(*run(capsys, "replay", str(tmp_path / "missing.json")), "missing.json")
    assert_malformed(*run(capsys, "replay", str(tmp_path)))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00{")
    assert_malformed(*run(capsys, "replay", str(binary)), "binary.json")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert_malformed(*run(capsys, "replay", str(deep)))


# -- canasta selfplay ---------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_CLI16_selfplay_prints_one_json_line(capsys: pytest.CaptureFixture[str], variant: str,
                                            players: int) -> None:
    argv = ["selfplay", "--variant", variant, "--players", str(players), "--deals", "5",
            "--seed", "1"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out.count("\n") == 1
    result = json.loads(out)
    assert {"deals", "decisions", "seconds", "deals_per_second", "decisions_per_second"} <= set(
        result
    )
    assert result["deals"] == 5
    assert result["engine"] == ("compiled" if native.active() else "python")
    assert isinstance(result["decisions"], int) and result["decisions"] > 5 * 4
    assert result["seconds"] >= 0
    for key in ("deals_per_second", "decisions_per_second"):
        assert result[key] is None or result[key] > 0
    # the same seed plays the same moves
    assert json.loads(run(capsys, *argv)[1])["decisions"] == result["decisions"]


# -- the real program ---------------------------------------------------------------------------


def _program() -> list[str]:
    if CANASTA.exists():
        return [str(CANASTA)]
    return [sys.executable, "-m", "canasta.cli.main"]


def _exec(argv: list[str], stdin: str | None = None, module: bool = False) -> Any:
    program = [sys.executable, "-m", "canasta.cli.main"] if module else _program()
    env = {**os.environ, "PYTHONWARNINGS": ""}
    return subprocess.run([*program, *argv], input=stdin, capture_output=True, text=True,
                          timeout=60, env=env, check=False)


def test_CLI17_program_deal_then_replay_exits_0(tmp_path: Path) -> None:
    dealt = _exec(["deal", "--variant", "mendelev", "--players", "4", "--seed", "5"])
    assert dealt.returncode == 0, dealt.stderr
    assert dealt.stderr == ""
    replayed = _exec(["replay", "-"], stdin=dealt.stdout, module=True)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["ok"] is True
    again = _exec(["deal", "--variant", "mendelev", "--players", "4", "--seed", "5"], module=True)
    assert again.stdout == dealt.stdout


def test_CLI18_program_illegal_action_exits_1(tmp_path: Path) -> None:
    record = deal_record(seed=6)
    record["deals"][0]["actions"] = [{"seat": 2, "type": "draw"}]
    done = _exec(["replay", write(tmp_path, record)])
    assert done.returncode == 1
    assert done.stderr == ""
    result = json.loads(done.stdout)
    assert result["ok"] is False
    assert result["error"]["code"] == "not_your_turn"


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        json.dumps({"format": "canasta-record/1", "variant": "classic", "players": 4}),
        json.dumps({"format": "canasta-record/1", "variant": "classic", "players": 4,
                    "deals": [{"dealer": 3, "deck": ["AS"], "actions": []}]}),
    ],
    ids=["not-json", "no-deals", "short-deck"],
)
def test_CLI19_program_malformed_exits_2(tmp_path: Path, content: str) -> None:
    done = _exec(["replay", write(tmp_path, content)])
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_CLI19_program_selfplay_and_missing_file() -> None:
    done = _exec(["selfplay", "--variant", "online", "--players", "2", "--deals", "5", "--seed",
                  "1"], module=True)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1
    assert json.loads(done.stdout)["deals"] == 5
    missing = _exec(["replay", "/nonexistent/record.json"])
    assert missing.returncode == 2
    assert len(missing.stderr.splitlines()) == 1
