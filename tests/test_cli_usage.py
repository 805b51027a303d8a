"""The command line without traps: bots' defects reported as theirs, bots found in the current
directory, counts refused with their range, clear messages for bad options, and help texts."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import canasta
from canasta.cli.main import build_parser, main
from canasta.cli.play_text import TEXTS
from canasta.cli.tournament import Progress
from canasta.extras import install_command

BROKEN = '''
class Broken:
    name = "broken"

    def choose(self, view, rng):
        return self.think(view)

    def think(self, view):
        raise RuntimeError("boom")


class Wordy:
    name = "wordy"

    def choose(self, view, rng):
        return "draw"
'''


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The message argparse refuses `argv` with (exit status 2)."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err.splitlines()[-1]


@pytest.fixture
def in_bot_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The current directory holds `mybots.py` (not on sys.path otherwise), as a bot writer's would."""
    (tmp_path / "mybots.py").write_text(BROKEN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    yield tmp_path
    for name in ("mybots", "cwdbots", "cwdbots.quick"):  # imported from a directory now gone
        sys.modules.pop(name, None)


@pytest.mark.parametrize("command", ["tournament", "tournament --jobs 2", "play"])
def test_a_bot_that_raises_is_named_with_its_seat_and_traceback(
    in_bot_directory: Path, command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if command.startswith("tournament"):  # with --jobs 2, raised in another process
        argv = [*command.split(), "--bots", "mybots:Broken,random", "--deals", "2"]
    else:
        argv = ["play", "--bots", "random", "--opponents", "mybots:Broken", "--seed", "1"]
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))
    code, _, err = run(capsys, *argv)
    assert code == 1
    first = err.splitlines()[0]
    assert first.startswith("canasta: bot 'broken' at seat ") and first.endswith(" raised RuntimeError: boom")
    assert "internal error" not in err
    trace = err[err.index("Traceback"):]
    assert 'mybots.py", line 9, in think' in trace and "canasta/match.py" not in trace


def test_a_bot_that_returns_no_action_is_named(in_bot_directory: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tournament", "--bots", "random,mybots:Wordy", "--deals", "2")
    assert code == 1
    assert err.startswith("canasta: bot 'wordy' at seat ")
    assert "returned 'draw', which is not an action" in err and "Traceback" not in err


def test_a_module_in_the_current_directory_is_found(in_bot_directory: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (in_bot_directory / "cwdbots").mkdir()
    (in_bot_directory / "cwdbots" / "__init__.py").write_text("")
    (in_bot_directory / "cwdbots" / "quick.py").write_text(
        "from canasta.bots import RandomBot\n\nclass Quick(RandomBot):\n    name = 'quick'\n")
    argv = ["tournament", "--bots", "cwdbots.quick:Quick,random", "--deals", "2", "--json"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert [r["bot"] for r in json.loads(out)["results"]] == ["cwdbots.quick:Quick", "random"]
    code, _, err = run(capsys, "tournament", "--bots", "nosuchmodule:Bot,random", "--deals", "2")
    assert code == 2 and f"no module nosuchmodule here (in {in_bot_directory})" in err


def test_an_internal_error_shows_its_traceback_with_debug(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise KeyError("inner")

    monkeypatch.setattr("canasta.cli.engine_commands.replay", broken)
    record = json.dumps({"format": "canasta-record/1", "variant": "classic", "players": 4, "deals": []})
    monkeypatch.setattr("sys.stdin", io.StringIO(record))
    code, _, err = run(capsys, "replay", "-")
    assert code == 2 and err == "canasta: internal error: KeyError: 'inner' (--debug shows where)\n"
    for argv in (["--debug", "replay", "-"], ["replay", "-", "--debug"]):
        monkeypatch.setattr("sys.stdin", io.StringIO(record))
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.startswith("Traceback") and "in broken" in err
        assert err.endswith("canasta: internal error: KeyError: 'inner'\n")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["tournament", "--bots", "hard,random", "--deals", "99999999999999999999"],
         "--deals: 99999999999999999999 is out of range: give a whole number from 0 to 1000000"),
        (["tournament", "--bots", "hard,random", "--games", "-1"], "--games: -1 is out of range"),
        (["tournament", "--bots", "hard,random", "--jobs", "0"], "--jobs: 0 is out of range: give a whole "
         "number from 1 to 256"),
        (["tournament", "--bots", "hard,random", "--max-game-deals", "1e9"], "'1e9' is not a whole number"),
        (["selfplay", "--deals", "0"], "--deals: 0 is out of range: give a whole number from 1 to 10000000"),
        (["demo", "--deals", "0"], "--deals: 0 is out of range: give a whole number from 1 to 1000"),
        (["demo", "--deals", "-1"], "--deals: -1 is out of range"),
        (["deal", "--seed", "-1"], "--seed: -1 is out of range: give a whole number, 0 or more"),
        (["play", "--seed", "-1"], "--seed: -1 is out of range"),
        (["serve", "--bot-delay", "-5"],
         "--bot-delay: -5 is out of range: give a number of seconds from 0 to 60"),
        (["serve", "--bot-delay", "nan"], "--bot-delay: nan is out of range"),
        (["bot", "http://127.0.0.1/t/A", "--bot", "hard", "--seat", "-1"], "--seat: -1 is out of range"),
    ],
)
def test_counts_are_refused_with_their_range(capsys: pytest.CaptureFixture[str], argv: list[str],
                                             says: str) -> None:
    assert says in refused(capsys, *argv)


def test_a_malformed_search_option_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tournament", "--bots", "search:iterations=abc,hard", "--deals", "2")
    assert (code, out) == (2, "")
    assert err == "canasta: --bots: search option iterations=abc: expected a whole number\n"


def test_the_same_bot_twice_gets_two_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--bots", "random,random", "--deals", "2", "--json")
    assert code == 0
    report = json.loads(out)
    assert [r["bot"] for r in report["results"]] == ["random #1", "random #2"]
    assert report["pairs"][0]["bots"] == ["random #1", "random #2"]
    code, out, _ = run(capsys, "tournament", "--bots", "random,random", "--deals", "2")
    assert ", 1 job)" in out.splitlines()[0] and "random #2" in out


def test_an_interrupted_bar_ends_its_line() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    progress = Progress(stream)
    progress(3, 10)
    progress.close()
    assert stream.getvalue().endswith(" s\n")
    progress(10, 10)
    progress.close()
    assert stream.getvalue().endswith(" s\n") and not stream.getvalue().endswith("\n\n")


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_every_subcommand_describes_itself(name: str) -> None:
    parser = subcommands()[name]
    assert parser.description and len(parser.description) > 40
    text = parser.format_help()
    assert "%%" not in text and "--debug" in text


def test_replay_help_lists_its_exit_statuses() -> None:
    text = subcommands()["replay"].format_help()
    assert "exit status:" in text
    for status in ("0  every action was legal", "1  an action was illegal", "2  the input is malformed"):
        assert status in text


def test_tournament_help_says_95_percent_once() -> None:
    assert "95% confidence interval" in " ".join(subcommands()["tournament"].format_help().split())


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"canasta {canasta.__version__}\n"
    assert canasta.__version__.count(".") == 2


def test_demo_prints_results_and_with_moves_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--deals", "1", "--seed", "3")
    assert code == 0 and "team 0" in out and "discards" not in out
    code, moves, _ = run(capsys, "demo", "--deals", "1", "--seed", "3", "--moves")
    header, table = out.split("\n", 1)
    assert code == 0 and moves.startswith(header + "\n1. seat 0 ") and moves.endswith(table)
    assert moves.count("\n1. seat ") > 20 and " discards " in moves


def test_the_terminal_game_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert "{count} cards" not in TEXTS["en"]["pile_size"]
    assert TEXTS["en"]["took_top"] and TEXTS["ru"]["took_top"]
    assert "зерно" not in TEXTS["ru"]["start"]


def test_missing_extras_name_a_command_for_this_installation() -> None:
    command = install_command("server")
    root = Path(__file__).resolve().parent.parent
    if Path(sys.prefix).resolve() == (root / ".venv").resolve():  # the checkout's own environment
        assert command == f"{root / 'scripts' / 'setup'} server"
    else:
        assert command in (f"pip install -e '{root}[server]'", "pip install 'canasta[server]'")


def test_serve_refuses_a_bad_limit_before_touching_the_disk(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "new" / "canasta.db"
    code, out, err = run(capsys, "serve", "--db", str(db), "--limit", "foo=1")
    assert (code, out) == (2, "")
    assert err.startswith("canasta serve: ") and "foo" in err and "creating" not in err
    assert len(err.splitlines()) == 1 and not db.parent.exists()
