"""`canasta play` on an 80×24 terminal: at every decision, what the others just did, the table and
the choices fit on one screen, in each language, lines broken between words."""

from __future__ import annotations

import io
import re

import pytest

from canasta.bots import make_bot
from canasta.cli.play import PlaySession
from canasta.cli.play_text import LANGUAGES, TEXTS
from canasta.match import seat_rngs
from canasta.rules import Game, RuleSet

COLUMNS, LINES = 80, 24


def whole_deal(variant: str, players: int, seed: int, lang: str, monkeypatch: pytest.MonkeyPatch,
               columns: int = COLUMNS) -> str:
    """The output of one deal against `hard` on a terminal `columns` wide, the player always
    choosing the first listed move."""
    monkeypatch.setenv("COLUMNS", str(columns))
    game = Game(RuleSet.preset(variant, players), seed=seed)
    game.next_deal()
    out = io.StringIO()
    bots = [None, *(make_bot("hard") for _ in range(players - 1))]
    moves = io.StringIO("1\n" * 400 + "quit\n")
    session = PlaySession(game, bots, seat_rngs(f"screen/{seed}", players), moves, out, lang)
    session.play()
    text = out.getvalue()
    return text[:text.index(TEXTS[lang]["continue"])]


def screens(text: str, prompt: str) -> list[list[str]]:
    """What is printed from one prompt to the next, the next one included, as lines."""
    parts = text.split(prompt)
    return [(part + prompt).split("\n") for part in parts[1:-1]]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [("classic", 4, 5), ("classic", 4, 11), ("modern-american", 4, 3), ("classic", 6, 1)],
)
def test_every_decision_fits_an_80_by_24_terminal(variant: str, players: int, seed: int, lang: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    text = whole_deal(variant, players, seed, lang, monkeypatch)
    prompt = TEXTS[lang]["prompt"]
    shown = screens(text, prompt)
    assert len(shown) >= 8  # a whole deal: several turns of the player's
    for lines in shown:
        assert len(lines) <= LINES, "\n".join(lines)
        assert all(len(line) <= COLUMNS for line in lines), "\n".join(lines)
        words = re.findall(r"\S+", "\n".join(lines))
        assert words  # every screen shows the table and the moves
    # each screen after others moved starts with what they did, then the table and the moves
    title = TEXTS[lang]["title"].split("{")[0]
    assert any(lines[0].startswith(TEXTS[lang]["seat"].split("{")[0]) and any(title in x for x in lines)
               for lines in shown)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lines_break_between_words(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    narrow = whole_deal("classic", 4, 5, lang, monkeypatch)
    wide = whole_deal("classic", 4, 5, lang, monkeypatch, columns=1000)
    assert narrow != wide and narrow.split() == wide.split()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_fits_the_screen(lang: str) -> None:
    lines = TEXTS[lang]["help"].split("\n")
    assert len(lines) < LINES and max(map(len, lines)) <= COLUMNS


def test_moves_that_do_not_fit_wait_for_plus(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal 12 lines high the list is cut: '+' shows the rest, whose numbers still play."""
    monkeypatch.setenv("COLUMNS", str(COLUMNS))
    monkeypatch.setenv("LINES", "12")
    game = Game(RuleSet.preset("classic", 4), seed=5)
    game.next_deal()
    out = io.StringIO()
    session = PlaySession(game, [None, *(make_bot("hard") for _ in range(3))], seat_rngs("more", 4),
                          io.StringIO("1\n+\n13\n"), out, "en")
    assert session.human_turn() and session.human_turn()
    text = out.getvalue()
    first, plus, after = text.split(TEXTS["en"]["prompt"])[1:4]
    assert len(first.split("\n")) <= 12 and TEXTS["en"]["more"] in first and "13) 5C" not in first
    assert "13) 5C" in plus
    assert game.current.pile[-1].code == "5C" and not after
