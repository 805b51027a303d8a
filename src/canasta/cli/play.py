"""`canasta play`: a game in the terminal, seat 0 against (and with) computer players."""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from canasta.bots import BOT_NAMES, Bot, make_bot
from canasta.cli.action_text import parse_action
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
)
from canasta.cli.play_text import TEXT
from canasta.match import bot_move, seat_rngs
from canasta.rules import Action, Card, Draw, Game, IllegalActionError, InvalidActionError, Pickup
from canasta.rules.actions import describe

HUMAN = 0
DEFAULT_BOT = "normal"
_QUIT = ("quit", "q", "exit")


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against computer players")
    _rules_args(p)
    p.add_argument("--seed", type=int, help="random seed (default: the OS's randomness)")
    p.add_argument("--bots", default=DEFAULT_BOT, metavar="SPEC",
                   help=f"the computer players (default {DEFAULT_BOT}; known: {', '.join(BOT_NAMES)})")
    p.add_argument("--partner", metavar="SPEC", help="your partners' bot (default: --bots)")
    p.add_argument("--opponents", metavar="SPEC", help="the opponents' bot (default: --bots)")
    p.set_defaults(run=run_play)


class PlaySession:
    """A whole game: the human at `HUMAN` types moves on `inp`; bots play the other seats."""

    def __init__(self, game: Game, bots: Sequence[Bot | None], rngs: Sequence[random.Random],
                 inp: TextIO, out: TextIO) -> None:
        self.game = game
        self.bots = bots
        self.rngs = rngs
        self.inp = inp
        self.out = out
        self.names = Names.for_seat(game.rules, HUMAN)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        """A line typed by the player (None at the end of the input)."""
        print(prompt, end="", file=self.out, flush=True)
        line = self.inp.readline()
        return line.strip() if line else None

    def play(self) -> int:
        """Play deals until the game is won or the player quits; returns the exit status (0)."""
        game = self.game
        while True:
            state = game.current
            while not state.is_over:
                if state.to_move == HUMAN:
                    if not self.human_turn():
                        return self.leave()
                else:
                    self.bot_turn()
            assert state.result is not None
            self.say(render_deal_end(state.result, len(game.deals), self.names))
            self.say(render_sheet(game.results, game.totals, self.names))
            if game.winner is not None:
                self.say(self._winner_text(game.winner))
                return 0
            answer = self.ask(TEXT["continue"])
            if answer is None or answer.lower() in _QUIT:
                return self.leave()
            game.next_deal()

    def leave(self) -> int:
        self.say(TEXT["bye"].format(scores=final_scores(self.game.totals, self.names)))
        return 0

    def _winner_text(self, team: int) -> str:
        score = self.game.totals[team]
        if team == self.game.rules.team_of(HUMAN):
            return TEXT["winner_you"].format(score=score)
        return TEXT["winner"].format(team=self.names.teams[team], score=score)

    def bot_turn(self) -> None:
        state = self.game.current
        seat, pile = state.to_move, len(state.pile)
        action = bot_move(self.game, self.bots, self.rngs)
        name = self.names.seats[seat]
        if isinstance(action, Pickup):
            self.say(TEXT["bot_took"].format(name=name, action=describe(action), count=pile))
        else:
            self.say(TEXT["bot_move"].format(name=name, action=describe(action)))

    def human_turn(self) -> bool:
        """Read moves until one is applied (True) or the player quits (False)."""
        view = self.game.current.view(HUMAN)
        moves = ordered_moves(view.legal)
        self.say("")
        self.say(render_table(view, len(self.game.deals), self.names))
        self.say(render_moves(moves))
        while True:
            line = self.ask(TEXT["prompt"])
            if line is None or line.lower() in _QUIT:
                return False
            if line.lower() in ("help", "h", "?"):
                self.say(TEXT["help"])
            elif line.lower() in ("table", "t"):
                self.say(render_table(view, len(self.game.deals), self.names))
                self.say(render_moves(moves))
            elif line.lower() in ("scores", "s"):
                self.say(render_sheet(self.game.results, self.game.totals, self.names))
            elif (action := self._read_action(line, moves)) is not None:
                try:
                    self.game.apply(action, HUMAN)
                except IllegalActionError as exc:
                    self.say(TEXT["refused"].format(message=exc.message))
                    continue
                self._report_draw(action, view.hand)
                return True

    def _read_action(self, line: str, legal: Sequence[Action]) -> Action | None:
        """The move a line names (a number from the list, or typed), or None after saying why not."""
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(TEXT["bad_number"].format(number=number, count=len(legal)))
            return None
        try:
            return parse_action(line)
        except InvalidActionError as exc:
            self.say(TEXT["bad_input"].format(message=exc.message))
            return None

    def _report_draw(self, action: Action, before: Sequence[Card]) -> None:
        after = self.game.current.view(HUMAN).hand
        if isinstance(action, Draw):
            self.say(TEXT["drew"].format(cards=drawn_text(before, after)))
        elif isinstance(action, Pickup):
            self.say(TEXT["took"].format(cards=drawn_text(before, after)))


def run_play(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    mine = rules.team_of(HUMAN)
    specs = {seat: (args.partner if rules.team_of(seat) == mine else args.opponents) or args.bots
             for seat in range(1, rules.players)}
    try:
        bots: list[Bot | None] = [None, *(make_bot(spec) for spec in specs.values())]
    except ValueError as exc:
        return _fail(str(exc))
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    game = Game(rules, seed=seed)
    game.next_deal()
    session = PlaySession(game, bots, seat_rngs(f"play/{seed}", rules.players), sys.stdin, sys.stdout)
    others = ", ".join(TEXT["other_bot"].format(name=session.names.seats[s], bot=spec)
                       for s, spec in specs.items())
    session.say(TEXT["start"].format(variant=rules.variant, players=rules.players,
                                     target=rules.target_score, seed=seed, others=others))
    return session.play()
