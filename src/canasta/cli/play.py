"""`canasta play`: a game in the terminal, seat 0 against (and with) computer players."""

from __future__ import annotations

import argparse
import os
import random
import secrets
import shutil
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from canasta.bots import BOT_NAMES, Bot
from canasta.bots.loading import load_bot
from canasta.cli.action_text import move_sentence, parse_action
from canasta.cli.arguments import seed_number
from canasta.cli.engine_commands import _fail, _rules, _rules_args
from canasta.cli.play_table import (
    Names,
    drawn_text,
    final_scores,
    ordered_moves,
    render_deal_end,
    render_moves,
    render_sheet,
    render_table,
    wrap,
)
from canasta.cli.play_text import COMMAND_WORDS, LANGUAGES, language_from
from canasta.match import bot_move, seat_rngs
from canasta.protocol.errors import ProtocolError
from canasta.rules import Action, Card, Draw, Game, IllegalActionError, InvalidActionError, Pickup, SeatView

HUMAN = 0
DEFAULT_BOT = "normal"
_QUIT = COMMAND_WORDS["quit"]
_HELP = COMMAND_WORDS["help"]
_TABLE = COMMAND_WORDS["table"]
_SCORES = COMMAND_WORDS["scores"]
_MORE = COMMAND_WORDS["more"]


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against computer players",
                       description="You play seat 0 against (and with) computer players: choose a "
                       "numbered move or type one (draw, discard 9C, meld KS KH KD, ...); 'help' lists "
                       "the commands.")
    _rules_args(p)
    p.add_argument("--seed", type=seed_number, help="random seed, 0 or more (default: the OS's randomness)")
    p.add_argument("--bots", default=DEFAULT_BOT, metavar="SPEC",
                   help=f"the computer players (default {DEFAULT_BOT}; known: {', '.join(BOT_NAMES)}; "
                   "or a class of your own, path.py:Class or module:Class)")
    p.add_argument("--partner", metavar="SPEC", help="your partners' bot (default: --bots)")
    p.add_argument("--opponents", metavar="SPEC", help="the opponents' bot (default: --bots)")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="the language of the game: en, ru, es, pt or de (default: the language LC_ALL, "
                   "LC_MESSAGES or LANG names, else en)")
    p.set_defaults(run=run_play)


class PlaySession:
    """A whole game: the human at `HUMAN` types moves on `inp`; bots play the other seats.
    Everything is said in `lang` (one of `LANGUAGES`)."""

    def __init__(self, game: Game, bots: Sequence[Bot | None], rngs: Sequence[random.Random],
                 inp: TextIO, out: TextIO, lang: str = "en") -> None:
        self.game = game
        self.bots = bots
        self.rngs = rngs
        self.inp = inp
        self.out = out
        self.lang = lang
        self.names = Names.for_seat(game.rules, HUMAN, lang)
        self.text = self.names.text
        self.others: list[str] = []  # what the bot now moving did in this turn, said on one line
        self.other_seat: int | None = None
        self.printed = 0  # lines said since the player last typed
        self.more: list[str] = []  # the lines of moves that did not fit on the screen

    @property
    def width(self) -> int:
        """The terminal's width (the COLUMNS variable, or 80 when it cannot be told)."""
        return shutil.get_terminal_size().columns

    def say(self, text: str) -> None:
        text = wrap(text, self.width)
        self.printed += text.count("\n") + 1
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        """A line typed by the player (None at the end of the input)."""
        print(prompt, end="", file=self.out, flush=True)
        line = self.inp.readline()
        self.printed = 0
        return line.strip() if line else None

    def play(self) -> int:
        """Play deals until the game is won or the player quits; returns the exit status (0)."""
        game = self.game
        while True:
            state = game.current
            while not state.is_over:
                if state.to_move == HUMAN:
                    self.say_others()
                    if not self.human_turn():
                        return self.leave()
                else:
                    self.bot_turn()
            self.say_others()
            assert state.result is not None
            self.say(render_deal_end(state.result, len(game.deals), self.names))
            self.say(render_sheet(game.results, game.totals, self.names))
            if game.winner is not None:
                self.say(self._winner_text(game.winner))
                return 0
            answer = self.ask(self.text["continue"])
            if answer is None or answer.lower() in _QUIT:
                return self.leave()
            game.next_deal()

    def leave(self) -> int:
        self.say(self.text["bye"].format(scores=final_scores(self.game.totals, self.names)))
        return 0

    def _winner_text(self, team: int) -> str:
        score = self.game.totals[team]
        if team == self.game.rules.team_of(HUMAN):
            return self.text["winner_you"].format(score=score)
        return self.text["winner"].format(team=self.names.teams[team], score=score)

    def bot_turn(self) -> None:
        """A bot moves; its moves of one turn are said together, on one line (`say_others`)."""
        state = self.game.current
        seat, pile = state.to_move, len(state.pile)
        action = bot_move(self.game, self.bots, self.rngs)
        if seat != self.other_seat:
            self.say_others()
            self.other_seat = seat
        name = "" if self.others else self.names.seats[seat]  # named once, at the start of the line
        text = move_sentence(action, name, self.text).strip()
        if isinstance(action, Pickup):
            text += self.text["pile_size"].format(count=pile)
        self.others.append(text)

    def say_others(self) -> None:
        """Say what the bot that moved last did in its turn."""
        if self.others:
            self.say(self.text["bot_turn"].format(moves=", ".join(self.others)))
        self.others, self.other_seat = [], None

    def human_turn(self) -> bool:
        """Read moves until one is applied (True) or the player quits (False)."""
        view = self.game.current.view(HUMAN)
        moves = ordered_moves(view.legal)
        self.show_turn(view, moves)
        while True:
            line = self.ask(self.text["prompt"])
            if line is None or line.lower() in _QUIT:
                return False
            if line.lower() in _HELP:
                self.say(self.text["help"])
            elif line.lower() in _TABLE:
                self.show_turn(view, moves)
            elif line.lower() in _MORE and self.more:
                self.say("\n".join(self.more))
            elif line.lower() in _SCORES:
                self.say(render_sheet(self.game.results, self.game.totals, self.names))
            elif (action := self._read_action(line, moves)) is not None:
                try:
                    self.game.apply(action, HUMAN)
                except IllegalActionError as exc:
                    self.say(ProtocolError.illegal(exc).message(self.lang))
                    continue
                self._report_draw(action, view.hand)
                return True

    def show_turn(self, view: SeatView, moves: Sequence[Action]) -> None:
        """The table and the moves, on one screen with what was said since the player last typed:
        the moves that would not fit wait for '+'."""
        self.say(render_table(view, len(self.game.deals), self.names))
        menu = render_moves(moves, view, self.lang, self.width).split("\n")
        room = max(3, shutil.get_terminal_size().lines - self.printed - 1)  # the prompt's line
        self.more = menu[room - 1:] if len(menu) > room else []
        self.say("\n".join([*menu[:room - 1], self.text["more"]] if self.more else menu))

    def _read_action(self, line: str, legal: Sequence[Action]) -> Action | None:
        """The move a line names (a number from the list, or typed), or None after saying why not."""
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(self.text["bad_number"].format(number=number, count=len(legal)))
            return None
        try:
            return parse_action(line, self.lang)
        except InvalidActionError as exc:
            self.say(self.text["bad_input"].format(message=exc.message))
            return None

    def _report_draw(self, action: Action, before: Sequence[Card]) -> None:
        after = self.game.current.view(HUMAN).hand
        cards = drawn_text(before, after)
        if isinstance(action, Draw):
            self.say(self.text["drew"].format(cards=cards))
        elif isinstance(action, Pickup):
            self.say(self.text["took"].format(cards=cards) if cards else self.text["took_top"])


def run_play(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    mine = rules.team_of(HUMAN)
    specs = {seat: (args.partner if rules.team_of(seat) == mine else args.opponents) or args.bots
             for seat in range(1, rules.players)}
    try:
        bots: list[Bot | None] = [None, *(load_bot(spec) for spec in specs.values())]
    except ValueError as exc:
        return _fail(str(exc))
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    game = Game(rules, seed=seed)
    game.next_deal()
    lang = args.lang or language_from(os.environ)
    session = PlaySession(game, bots, seat_rngs(f"play/{seed}", rules.players), sys.stdin, sys.stdout, lang)
    others = ", ".join(session.text["other_bot"].format(name=session.names.seats[s],
                                                        bot=session.text.get(f"level_{spec}", spec))
                       for s, spec in specs.items())
    session.say(session.text["start"].format(variant=rules.variant, players=rules.players,
                                        target=rules.target_score, seed=seed, others=others))
    return session.play()
