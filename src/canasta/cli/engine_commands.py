"""`canasta replay`, `canasta deal`, `canasta demo`, `canasta selfplay` and `canasta compile`."""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
import time
from collections.abc import Callable
from typing import Any

from canasta import native
from canasta.cli.action_text import move_sentence
from canasta.cli.arguments import seed_number, whole
from canasta.cli.play_text import TEXTS
from canasta.rules import Action, RuleSet, State, legal_actions, make_deck
from canasta.rules.deal import shuffle
from canasta.rules.errors import InvalidActionError
from canasta.rules.game import Game, default_dealer
from canasta.rules.record import RECORD_FORMAT, Record, replay
from canasta.rules.ruleset import VARIANTS

#: What `canasta replay` exits with (its `--help` lists them).
REPLAY_STATUSES = """exit status:
  0  every action was legal (the result is printed)
  1  an action was illegal (the result up to it is printed, with "error")
  2  the input is malformed (one line on standard error, nothing printed)"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="replay a canasta-record/1 (or a position) and print the result",
        description="Replay a record or a position and print one JSON object: each deal's result, "
        "the totals and the position reached (docs/formats.md).",
        epilog=REPLAY_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="the record or position file (JSON); '-' reads standard input")
    p.set_defaults(run=run_replay)

    p = sub.add_parser("deal", help="print a new record with one freshly shuffled deal",
                       description="Print a canasta-record/1 with one freshly shuffled deal and no "
                       "actions; the dealer is the last seat, so seat 0 plays first.")
    _rules_args(p)
    p.add_argument("--seed", type=seed_number,
                   help="shuffle from this seed, 0 or more (default: the OS's randomness)")
    p.set_defaults(run=run_deal)

    p = sub.add_parser("demo", help="play a game of random legal moves and print each deal's result",
                       description="Random players play a game: each deal's end and scores, then the "
                       "totals; --moves prints every move as well.")
    _rules_args(p)
    p.add_argument("--deals", type=whole(1, 1000), default=5, help="stop after this many deals, 1 to 1000 "
                   "(default 5)")
    p.add_argument("--seed", type=seed_number, help="random seed, 0 or more (default: the OS's randomness)")
    p.add_argument("--moves", action="store_true", help="print every move too")
    p.set_defaults(run=run_demo)

    p = sub.add_parser("selfplay", help="play random legal moves and report the engine's speed",
                       description="Play deals of uniformly random legal moves, each checked by the "
                       "server's validator, and print one JSON line with the engine's speed.")
    _rules_args(p)
    p.add_argument("--deals", type=whole(1, 10**7), default=1000,
                   help="number of deals, 1 to 10000000 (default 1000)")
    p.add_argument("--seed", type=seed_number, default=0, help="random seed, 0 or more (default 0)")
    p.set_defaults(run=run_selfplay)

    p = sub.add_parser("compile", help="compile the engine's hot modules with mypyc (faster, same rules)",
                       description="Compile the engine's hot modules with mypyc into canasta/_native; "
                       "they are used only while they match the sources (CANASTA_PURE=1 turns them off).")
    p.add_argument("--if-stale", action="store_true", help="only when no current build exists")
    p.add_argument("--status", action="store_true", help="only tell whether a current build exists")
    p.set_defaults(run=run_compile)


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="classic", choices=VARIANTS, help="rule set (default classic)")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="a house option, e.g. --option target_score=2500 (repeatable)",
    )


def _rules(args: argparse.Namespace) -> RuleSet:
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise InvalidActionError(f"--option {item!r}: expected KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return RuleSet.preset(args.variant, args.players, options)


def _fail(message: str) -> int:
    print(f"canasta: {message}", file=sys.stderr)
    return 2


def read_record(name: str) -> Record:
    """The record (or position) in file `name` ('-': standard input); an `InvalidActionError`
    says what is wrong with it, naming the file."""
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        raise InvalidActionError(f"{name}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidActionError(f"{name}: not a UTF-8 text file") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidActionError(
            f"{name}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise InvalidActionError(f"{name}: not JSON: nested too deeply") from None
    try:
        return Record.from_json(obj)
    except InvalidActionError as exc:
        raise InvalidActionError(f"{name}: {exc.message}", exc.code) from None


def run_replay(args: argparse.Namespace) -> int:
    try:
        out, _ = replay(read_record(args.file))
    except InvalidActionError as exc:
        return _fail(exc.message)
    print(json.dumps(out))
    return 0 if out["ok"] else 1


def run_deal(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    rng: random.Random = random.Random(args.seed) if args.seed is not None else secrets.SystemRandom()
    deck = make_deck(rules.decks, rules.jokers)
    rng.shuffle(deck)
    dealer, sitting_out = default_dealer(rules, 0)
    deal: dict[str, Any] = {"dealer": dealer}
    if sitting_out is not None:
        deal["sitting_out"] = sitting_out
    deal["deck"] = [c.code for c in deck]
    deal["actions"] = []
    record = {
        "format": RECORD_FORMAT,
        "variant": rules.variant,
        "players": rules.players,
        "options": rules.to_options(),
        "deals": [deal],
    }
    print(json.dumps(record))
    return 0


def run_demo(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    print(f"{rules.variant}, {rules.players} players, to {rules.target_score} (seed {seed})")
    header = ["deal", "end", *(f"team {t}" for t in range(rules.teams))]
    rows: list[list[str]] = []
    while not game.is_over and len(game.deals) < args.deals:
        state = game.next_deal()
        while not state.is_over:
            seat = state.to_move
            action = rng.choice(legal_actions(state))
            game.apply(action)
            if args.moves:
                print(f"{len(game.deals)}. {move_sentence(action, f'seat {seat}', TEXTS['en'])}")
        result = state.result
        assert result is not None
        how = f"seat {result.went_out} out" if result.went_out is not None else "stock out"
        rows.append([str(len(game.deals)), how, *(f"{p.total:+d}" for p in result.scores)])
    rows.append(["total", "", *(str(t) for t in game.totals)])
    print(format_table(header, rows))
    if game.winner is not None:
        print(f"team {game.winner} wins")
    return 0


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain text table with right-aligned columns."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def selfplay(
    rules: RuleSet,
    deals: int,
    seed: int,
    progress: bool = False,
    lister: Callable[[State], list[Action]] = legal_actions,
) -> dict[str, Any]:
    """Play `deals` deals of uniformly random legal moves, each applied as listed
    (`State.apply_listed`).

    `lister` lists the moves to choose from (a benchmark passes `legal_actions` with a timer)."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    try:
        for i in range(deals):
            deck = make_deck(rules.decks, rules.jokers)
            shuffle(rng, deck)
            dealer, sitting_out = default_dealer(rules, i)
            state = State.deal(rules, deck, dealer, None, sitting_out)
            while not state.is_over:
                state.apply_listed(rng.choice(lister(state)))
                decisions += 1
            if progress and (i + 1) % max(1, deals // 20) == 0:
                print(f"\r{i + 1}/{deals} deals", end="", file=sys.stderr, flush=True)
    finally:  # the progress line ends, also when Ctrl-C cuts it short
        if progress:
            print(file=sys.stderr)
    seconds = time.perf_counter() - start
    return {
        "deals": deals,
        "decisions": decisions,
        "seconds": round(seconds, 4),
        "deals_per_second": round(deals / seconds, 1) if seconds else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds else None,
        "engine": "compiled" if native.active() else "python",
    }


def run_selfplay(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    result = selfplay(rules, args.deals, args.seed, progress=sys.stderr.isatty())
    print(json.dumps({"variant": rules.variant, "players": rules.players, **result}))
    return 0


def run_compile(args: argparse.Namespace) -> int:
    if args.status or (args.if_stale and native.current()):
        state = "current" if native.current() else "absent or out of date (pure Python in use)"
        print(f"compiled engine: {state}")
        return 0
    modules = ", ".join(native.COMPILED)
    print(f"compiling the engine's hot modules with mypyc ({modules}) ...", file=sys.stderr, flush=True)
    try:
        native.build()
    except (RuntimeError, OSError) as exc:
        return _fail(f"the compiled engine was not built (pure Python stays in use): {exc}")
    print("compiled engine: built")
    return 0
