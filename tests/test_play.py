"""`canasta play`: the terminal game, its table, typed actions and messages."""

from __future__ import annotations

import io
import random

import pytest

from canasta.bots import BOT_NAMES, make_bot
from canasta.cli.action_text import action_text, parse_action, parse_groups
from canasta.cli.main import main
from canasta.cli.play import PlaySession
from canasta.cli.play_table import (
    Names,
    final_scores,
    hand_text,
    ordered_moves,
    render_deal_end,
    render_table,
)
from canasta.cli.play_text import PART_NAMES, RUSSIAN, RUSSIAN_PART_NAMES, TEXT, language_from
from canasta.match import seat_rngs
from canasta.rules import (
    Answer,
    Ask,
    Card,
    DealResult,
    Discard,
    Draw,
    Game,
    Group,
    Meld,
    Pass,
    Pickup,
    Rank,
    RuleSet,
    ScoreBreakdown,
    State,
    parse_cards,
    position_from_json,
)
from canasta.rules.actions import describe
from canasta.rules.errors import IllegalActionError, InvalidActionError


def flat(text: str) -> str:
    """`text` with its line breaks (the terminal's width decides them) and runs of spaces as one space."""
    return " ".join(text.split())


PRESETS = [("classic", 2), ("classic", 3), ("classic", 4), ("classic", 5), ("classic", 6),
           ("modern-american", 4), ("online", 2), ("mendelev", 4)]


def session(variant: str = "classic", players: int = 4, seed: int = 1,
            options: dict[str, int] | None = None, lang: str = "en") -> tuple[PlaySession, io.StringIO]:
    """A game against random bots; the test sets `play.inp`. Returns the session and its output."""
    game = Game(RuleSet.preset(variant, players, options), seed=seed)
    game.next_deal()
    bots = [None, *(make_bot("random") for _ in range(players - 1))]
    out = io.StringIO()
    return PlaySession(game, bots, seat_rngs("test", players), io.StringIO(), out, lang), out


# -- whole deals and games -----------------------------------------------------------------------


class Typist(io.StringIO):
    """Input that types `line` at every prompt (then `quit` once the first deal is over, if
    `one_deal`), with a limit so that a session that never ends fails instead of hanging."""

    def __init__(self, play: PlaySession, line: str = "1", one_deal: bool = False) -> None:
        super().__init__()
        self.play, self.line, self.one_deal, self.count = play, line, one_deal, 0

    def readline(self, size: int | None = -1) -> str:
        self.count += 1
        assert self.count < 20_000, "the session does not end"
        if self.one_deal and self.play.game.current.is_over:
            return "quit\n"
        return self.line + "\n"


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_choosing_move_1_plays_a_deal_to_its_end(variant: str, players: int) -> None:
    play, out = session(variant, players)
    play.inp = Typist(play, one_deal=True)
    assert play.play() == 0
    text = out.getvalue()
    assert play.game.current.is_over and len(play.game.deals) == 1
    assert "Deal 1 is over: " in text and TEXT["sheet"] in text and PART_NAMES["total"] in text
    assert "Illegal move" not in text and "Cannot read" not in text
    assert flat(text).endswith(TEXT["bye"].format(scores=final_scores(play.game.totals, play.names)))


@pytest.mark.parametrize("spec", BOT_NAMES[1:4])
def test_a_deal_against_each_heuristic_level(spec: str) -> None:
    play, out = session()
    play.bots = [None, *(make_bot(spec) for _ in range(3))]
    play.inp = Typist(play, one_deal=True)
    assert play.play() == 0
    assert play.game.current.is_over and "Deal 1 is over: " in out.getvalue()


def test_a_whole_game_to_the_target() -> None:
    play, out = session(options={"target_score": 1500}, seed=2)
    play.inp = Typist(play)
    assert play.play() == 0
    game = play.game
    assert game.is_over and game.winner is not None
    text = out.getvalue()
    assert f"Deal {len(game.deals)} is over" in text
    last = text.rstrip().splitlines()[-1]
    assert str(game.totals[game.winner]) in last and "wins the game" in last


def test_typed_actions_are_played() -> None:
    play, out = session()
    hand = play.game.current.view(0).hand
    play.inp = io.StringIO(f"draw\ndiscard {hand[-1].code.lower()}\nquit\n")
    play.play()
    actions = play.game.deals[0].actions
    assert actions[:2] == [(0, Draw()), (0, Discard(hand[-1]))]
    assert actions[2][0] == 1  # then the bots played
    text = out.getvalue()
    assert TEXT["drew"].split("{")[0] in text
    assert "Seat 1 draws from the stock, " in text or "Seat 1 takes the pile with" in text


def test_refused_and_unreadable_moves_are_explained_and_change_nothing() -> None:
    play, out = session()
    card = play.game.current.view(0).hand[0]
    with pytest.raises(IllegalActionError) as refused:
        play.game.current.clone().apply(Discard(card), 0)
    message = refused.value.message
    assert message.startswith(f"discard {card.code}: ")
    moves = len(play.game.current.view(0).legal)
    play.inp = io.StringIO(f"discard {card.code}\nmeld XX YY\n{moves + 1}\nfly away\nhelp\nquit\n")
    assert play.play() == 0
    text = out.getvalue()
    assert "Draw a card or take the pile first." in text and message not in text
    assert TEXT["bad_input"].format(message="unknown card 'XX'") in text
    assert TEXT["bad_number"].format(number=moves + 1, count=moves) in text
    assert TEXT["bad_input"].format(message=TEXT["unknown_verb"].format(verb="fly")) in text
    assert TEXT["help"] in text
    assert play.game.deals[0].actions == []


def test_end_of_input_leaves_the_game() -> None:
    play, out = session()
    play.inp = io.StringIO("")
    assert play.play() == 0
    assert "Game left. Final scores: Your team (seats 0, 2) 0, Team 1 (seats 1, 3) 0." in out.getvalue()


def test_cli_play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("table\nscores\nquit\n"))
    code = main(["play", "--seed", "4", "--bots", "random", "--partner", "random"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out.startswith("classic, 4 players, to 5000 (seed 4). You are seat 0; Seat 1 plays random, ")
    assert out.count("=== Deal 1 ·") == 2
    assert TEXT["sheet"] in out


def test_cli_play_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--opponents", "nosuchbot"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "unknown bot" in err and len(err.splitlines()) == 1


# -- Russian --------------------------------------------------------------------------------------


def test_russian_has_every_text_with_the_same_fields() -> None:
    def fields(text: str) -> set[str]:
        return {f.split("}")[0].split("!")[0].split(":")[0] for f in text.split("{")[1:]}

    assert set(RUSSIAN) == set(TEXT) and set(RUSSIAN_PART_NAMES) == set(PART_NAMES)
    for key, english in TEXT.items():
        assert fields(RUSSIAN[key]) == fields(english), key


def test_a_russian_game_speaks_russian() -> None:
    play, out = session(lang="ru")
    play.inp = Typist(play, one_deal=True)
    assert play.play() == 0
    text = out.getvalue()
    assert "Сдача 1 окончена: " in text and "Ваши ходы (" in text and RUSSIAN["sheet"] in text
    assert RUSSIAN_PART_NAMES["total"] in text and "Ваши карты (" in text and "Прикуп" in text
    assert flat(text).endswith(RUSSIAN["bye"].format(scores=final_scores(play.game.totals, play.names)))
    for key in ("moves", "prompt", "hands", "sheet", "your_team", "continue"):
        assert TEXT[key].split("{")[0] not in text, key
    for word in ("draw", "discard ", "meld ", "pickup", "Deal ", "Seat ", "Your "):
        assert word not in text, word


def test_a_refused_move_is_explained_in_russian() -> None:
    play, out = session(lang="ru")
    card = play.game.current.view(0).hand[0]
    moves = len(play.game.current.view(0).legal)
    play.inp = io.StringIO(f"сбросить {card.code}\nвыложить XX\n{moves + 1}\nлететь\nпомощь\nвыход\n")
    assert play.play() == 0
    text = out.getvalue()
    assert "Сначала возьмите карту из прикупа или сброс." in text
    assert "Не удалось прочитать ход: неизвестная карта «XX»" in text
    assert f"Хода с номером {moves + 1} нет; выберите от 1 до {moves}." in text
    assert "Не удалось прочитать ход: неизвестный ход «лететь» (наберите «помощь»)" in text
    assert RUSSIAN["help"] in text
    assert flat(text).endswith("Игра покинута. Итоговый счёт: Ваша команда (места 0, 2) 0, "
                               "Команда 1 (места 1, 3) 0.")
    assert play.game.deals[0].actions == []


def test_russian_moves_are_typed_and_shown() -> None:
    play, out = session(lang="ru")
    hand = play.game.current.view(0).hand
    play.inp = io.StringIO(f"взять карту\nсбросить {hand[-1].code}\nвыход\n")
    play.play()
    assert play.game.deals[0].actions[:2] == [(0, Draw()), (0, Discard(hand[-1]))]
    text = out.getvalue()
    assert "  1) взять карту" in text and "Вы взяли " in text
    assert "Место 1 берёт карту из прикупа, " in text or "Место 1 берёт сброс" in text


@pytest.mark.parametrize(
    ("environ", "lang"),
    [({}, "en"), ({"LANG": "ru_RU.UTF-8"}, "ru"), ({"LANG": "C.UTF-8"}, "en"),
     ({"LC_ALL": "en_US.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"), ({"LC_ALL": "ru_UA.UTF-8", "LANG": "C"}, "ru"),
     ({"LC_ALL": "", "LC_MESSAGES": "ru_RU", "LANG": "en_GB"}, "ru")],
)
def test_the_language_comes_from_the_locale(environ: dict[str, str], lang: str) -> None:
    assert language_from(environ) == lang


def test_cli_play_in_russian(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("стол\nсчёт\nвыход\n"))
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(["play", "--seed", "4", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert flat(out).startswith("classic, игроков: 4, игра до 5000 (начальное число 4). "
                                "Вы — место 0; Место 1: компьютер «случайный», ")
    assert out.count("=== Сдача 1 ·") == 2 and "Счёт\n" in out and "Игра покинута." in out
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "4", "--bots", "random", "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("classic, 4 players, to 5000 (seed 4).")


def table_position() -> State:
    """Deal 3 of a game: team 0 has opened with a mixed canasta, the pile is frozen."""
    return position_from_json({
        "format": "canasta-position/1", "variant": "classic", "players": 4, "scores": [1600, 0],
        "dealer": 3, "turn": 0, "phase": "draw",
        "hands": [["KS", "KH", "9D", "JK"], ["5C", "5D"], ["4C"], ["6H", "6S", "7C"]],
        "stock": ["5S", "QD"],
        "pile": ["6C", "2C", "8D"],
        "melds": [[["7S", "7H", "7D", "7C", "7S", "7H", "2D"]], [["AS", "AH", "AD"]]],
        "red_threes": [["3H"], []],
    })


# -- the table ------------------------------------------------------------------------------------


def test_hand_groups_wild_cards_then_ranks() -> None:
    assert hand_text(parse_cards(["JK", "2C", "AS", "AH", "KD", "3S"])) == "JK 2C | AS AH | KD | 3S"


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        ("en", ["=== Deal 3 · classic, 4 players · game to 5000 ===",
                "Stock 2 · Pile 3, top 8D, FROZEN",
                "Your team (seats 0, 2) 1600, opened: 7 mixed canasta (7) · bonus threes 3H",
                "Team 1 (seats 1, 3) 0, opened: A [AS AH AD]",
                "Hands: You 4 · Seat 1 2 · Seat 2 (partner) 1 · Seat 3 3",
                "Your hand (4): JK | KS KH | 9D"]),
        ("ru", ["=== Сдача 3 · classic, игроков: 4 · игра до 5000 ===",
                "Прикуп 2 · Сброс 3, сверху 8D, ЗАМОРОЖЕН",
                "Ваша команда (места 0, 2) 1600, открылись: 7 смешанная канаста (7) · бонусные тройки 3H",
                "Команда 1 (места 1, 3) 0, открылись: A [AS AH AD]",
                "На руках: Вы 4 · Место 1 2 · Место 2 (партнёр) 1 · Место 3 3",
                "Ваши карты (4): JK | KS KH | 9D"]),
    ],
)
def test_table_shows_what_the_seat_may_know(lang: str, lines: list[str]) -> None:
    state = table_position()
    text = render_table(state.view(0), 3, Names.for_seat(state.rules, 0, lang))
    for line in lines:
        assert line in text
    assert "5C" not in text and "QD" not in text  # nobody else's hand, nor the stock


def test_moves_are_listed_taking_first_then_melds_then_discards_in_hand_order() -> None:
    legal = [Discard(Card.parse("4C")), Ask(), Meld((Group(tuple(parse_cards(["KS", "KH", "KD"]))),)),
             Discard(Card.parse("AS")), Draw()]
    assert ordered_moves(legal) == [legal[4], legal[2], legal[3], legal[0], legal[1]]


def test_deal_end_breakdown_leaves_out_empty_parts() -> None:
    result = DealResult("went_out", 2, False, (ScoreBreakdown(cards=300, canastas=500, going_out=100,
                                                              hand=-20),
                                               ScoreBreakdown(cards=120, hand=-85)))
    text = render_deal_end(result, 4, Names.for_seat(RuleSet.preset("classic", 4), 0))
    lines = text.splitlines()
    assert lines[0] == "Deal 4 is over: Seat 2 (partner) went out."
    assert [line.split()[0] for line in lines[3:]] == ["cards", "canastas", "going", "cards", "deal"]
    assert lines[-1].split()[-2:] == ["+880", "+35"]


# -- typed actions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_listed_move_reads_back_from_its_text(lang: str) -> None:
    rng = random.Random(5)
    for variant, players in PRESETS:
        game = Game.new(variant, players, seed=rng.randrange(1000))
        state = game.current
        while not state.is_over:
            legal = state.legal_actions()
            for action in legal:
                text = action_text(action, lang)
                assert parse_action(text) == action, text
                assert lang == "ru" or text == describe(action)
            game.apply(rng.choice(legal))


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("DRAW", Draw()),
        ("pass", Pass()),
        ("answer no", Answer(False)),
        ("yes", Answer(True)),
        ("discard th", Discard(Card.parse("10H"))),
        ("meld KS KH KD, 7s 7h 2c", Meld((Group(tuple(parse_cards(["KS", "KH", "KD"]))),
                                          Group(tuple(parse_cards(["7S", "7H", "2C"])))))),
        ("meld k:2c", Meld((Group((Card.parse("2C"),), Rank.KING),))),
        ("meld wild:[JK 2C 2D]", Meld((Group(tuple(parse_cards(["JK", "2C", "2D"])), Rank.WILD),))),
        ("pickup", Pickup()),
        ("pickup KS KH + QS QH QD top", Pickup(tuple(parse_cards(["KS", "KH"])),
                                                (Group(tuple(parse_cards(["QS", "QH", "QD"]))),), True)),
        ("pickup with [] + [QS QH QD]", Pickup((), (Group(tuple(parse_cards(["QS", "QH", "QD"]))),))),
        ('{"type": "discard", "card": "9C"}', Discard(Card.parse("9C"))),
    ],
)
def test_typed_forms(text: str, action: object) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", TEXT["empty"]),
        ("discard", TEXT["one_card"]),
        ("discard 9C 9D", TEXT["one_card"]),
        ("meld", TEXT["no_groups"]),
        ("draw 9C", TEXT["extra_words"].format(verb="draw")),
        ("answer maybe", TEXT["answer_word"]),
        ("{not json", TEXT["bad_json"].format(message="Expecting property name enclosed in double quotes")),
        ("meld KS KX", "unknown card 'KX'"),
        ("meld X:[2C]", "unknown meld rank 'X'"),
    ],
)
def test_unreadable_forms(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    assert info.value.message == message


def test_groups_split_on_brackets_and_separators() -> None:
    assert [len(g.cards) for g in parse_groups("[KS KH KD] [7S 7H 2C] | 5S 5H 5D + 4S 4H 4D")] == [3, 3, 3, 3]
