"""The terminal (`canasta play`, `canasta bot`) in every language: every message key exists in
every language with the same fields and no English left, the moves are shown and typed back in
each, the commands are understood, and a whole deal speaks the player's language."""

from __future__ import annotations

import io
import random
import string
from collections.abc import Mapping

import pytest

from canasta.bots import make_bot
from canasta.cli.action_text import action_text, parse_action
from canasta.cli.bot_command import NEEDS_EXTRA
from canasta.cli.play import PlaySession
from canasta.cli.play_languages import COMMANDS, TOP_ONLY, VERBS
from canasta.cli.play_table import final_scores
from canasta.cli.play_text import COMMAND_WORDS, LANGUAGES, PART_TEXTS, TEXTS, language_from
from canasta.match import seat_rngs
from canasta.protocol.errors import LANGUAGES as SERVER_LANGUAGES
from canasta.remote.texts import TEXTS as BOT_TEXTS
from canasta.rules import Answer, Card, Discard, Draw, Game, RuleSet
from canasta.rules.actions import describe

OTHERS = tuple(lang for lang in LANGUAGES if lang != "en")
#: Texts made only of fields and punctuation, the same in every language.
NO_WORDS = {"{name} {count}", "{rank} [{cards}]", "{rank} {kind} ({count})", "{size}: {cards}",
            "{team} {score}, {status}: {melds}", "{ask} ({cost})", "{number}) {action}", "{moves}."}
#: Words that are the same in English and a language (checked per language).
SAME_WORD = {"sheet_total": {"es", "pt"}, "level_normal": {"es"}, "canastas": {"es"},
             "team": {"de"}, "team_score": {"de"}}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def complete(tables: Mapping[str, Mapping[str, str]], where: str) -> None:
    english = tables["en"]
    for lang in LANGUAGES:
        assert set(tables[lang]) == set(english), (where, lang, set(english) ^ set(tables[lang]))
        for key, text in english.items():
            assert fields(tables[lang][key]) == fields(text), (where, lang, key)
            if lang != "en" and text not in NO_WORDS:
                assert tables[lang][key] != text or lang in SAME_WORD.get(key, ()), (where, lang, key)


def test_the_terminal_speaks_every_language_the_server_does() -> None:
    assert set(LANGUAGES) == set(SERVER_LANGUAGES)


def test_every_message_key_exists_in_every_language() -> None:
    complete(TEXTS, "canasta play")
    complete(PART_TEXTS, "score parts")
    complete(BOT_TEXTS, "canasta bot")
    complete({lang: {"needs_extra": text} for lang, text in NEEDS_EXTRA.items()}, "canasta bot's library")
    english_forms = {"draw", "pickup with", "meld", "discard", "ask", "answer", "answer yes", "answer no",
                     "yes", "no", "pass"}
    for lang in ("es", "pt", "de"):
        assert {english for _, english in VERBS[lang]} == english_forms, lang
        assert set(COMMANDS[lang]) == set(COMMAND_WORDS) and all(COMMANDS[lang].values()), lang
        assert TOP_ONLY[lang][0] != "(top card only)"


def test_the_help_names_the_moves_of_its_language() -> None:
    for lang in ("es", "pt", "de"):
        for own, _ in VERBS[lang][:1]:
            assert f"  {own} " in TEXTS[lang]["help"], lang
        for words in COMMANDS[lang].values():
            if words[0] not in ("más", "mais", "mehr"):
                assert f"'{words[0]}'" in TEXTS[lang]["help"] + TEXTS[lang]["prompt"], (lang, words[0])


@pytest.mark.parametrize(
    ("environ", "lang"),
    [({"LANG": "es_AR.UTF-8"}, "es"), ({"LANG": "pt_BR.UTF-8"}, "pt"), ({"LC_ALL": "de_DE.UTF-8"}, "de"),
     ({"LANG": "it_IT.UTF-8"}, "en"), ({"LC_MESSAGES": "es_ES", "LANG": "ru_RU"}, "es")],
)
def test_the_language_comes_from_the_locale(environ: dict[str, str], lang: str) -> None:
    assert language_from(environ) == lang


@pytest.mark.parametrize("lang", OTHERS)
def test_every_listed_move_reads_back_in_its_language(lang: str) -> None:
    rng = random.Random(8)
    for variant, players in [("classic", 4), ("mendelev", 4), ("modern-american", 4)]:
        game = Game.new(variant, players, seed=rng.randrange(1000))
        state = game.current
        while not state.is_over:
            for action in state.legal_actions():
                text = action_text(action, lang)
                assert parse_action(text) == action, text
                assert text.split()[0] != describe(action).split()[0], text  # the verb is translated
            game.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("text", "action"),
    [("robar", Draw()), ("responder si", Answer(True)), ("descartar 9c", Discard(Card.parse("9C"))),
     ("comprar", Draw()), ("nao", Answer(False)), ("Ziehen", Draw()),
     ("ablegen 10H", Discard(Card.parse("10H"))), ("antworten nein", Answer(False)), ("ja", Answer(True))],
)
def test_typed_moves_in_any_language(text: str, action: object) -> None:
    assert parse_action(text) == action


#: Words of the English texts that must not show in a game in another language.
ENGLISH = ("Deal ", "Seat ", "Your ", "draw ", "discard ", "meld ", "pickup", "Stock", "Hands:")


@pytest.mark.parametrize("lang", ("es", "pt", "de"))
def test_a_whole_deal_speaks_the_players_language(lang: str) -> None:
    game = Game(RuleSet.preset("classic", 4), seed=3)
    game.next_deal()
    out = io.StringIO()
    play = PlaySession(game, [None, *(make_bot("normal") for _ in range(3))], seat_rngs("lang", 4),
                       io.StringIO(), out, lang)

    lines = ["xyz", COMMANDS[lang]["help"][0], COMMANDS[lang]["table"][0], COMMANDS[lang]["scores"][0]]

    class Typist(io.StringIO):
        """A wrong word, help, the table and the scores, then the first listed move at every
        prompt; quit once the deal is over."""

        def readline(self, size: int | None = -1) -> str:
            if game.current.is_over:
                return COMMANDS[lang]["quit"][0] + "\n"
            return (lines.pop(0) if lines else "1") + "\n"

    play.inp = Typist()
    assert play.play() == 0
    text = out.getvalue()
    texts = TEXTS[lang]
    for key in ("moves", "prompt", "hands", "sheet", "continue", "deal_over", "your_hand", "title"):
        assert texts[key].split("{")[0] in text, key
    assert texts["help"] in text and texts["unknown_verb"].format(verb="xyz") in text
    assert " ".join(text.split()).endswith(" ".join(texts["bye"].format(
        scores=final_scores(game.totals, play.names)).split()))
    for word in ENGLISH:
        assert word not in text.replace(texts["help"], ""), word  # the help names the English forms
