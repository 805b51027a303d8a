"""`canasta dataset`: seeded deals of bots as records and as arrays to learn from (`canasta.dataset`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from canasta.cli.arguments import seed_number, whole
from canasta.cli.engine_commands import _fail, _rules, _rules_args
from canasta.cli.tournament import Progress, bad_spec, split_specs
from canasta.dataset import DatasetSpec, write
from canasta.rules.errors import InvalidActionError

MAX_GAMES = 1_000_000


def register(sub: Any) -> None:
    p = sub.add_parser(
        "dataset",
        help="write seeded deals of bots as records and arrays to learn from",
        description="Play deals of the chosen bots through the learning interface and write them to a "
        "directory: dataset.json (what was played), records.jsonl (a canasta-record/1 per deal, one a "
        "line) and arrays.npz (per decision: the observation, the legal ids as a mask, the id played, "
        "the seat, the deal and its return for that seat; needs numpy). A seed gives the same dataset.",
    )
    _rules_args(p)
    p.add_argument("--bots", default="hard", metavar="BOT[,...]",
                   help="one bot spec for every seat or one per seat, e.g. hard or hard,easy,hard,easy "
                   "(default hard)")
    p.add_argument("--games", type=whole(1, MAX_GAMES), default=100,
                   help=f"deals to play, 1 to {MAX_GAMES} (default 100)")
    p.add_argument("--seed", type=seed_number, default=0, help="random seed, 0 or more (default 0)")
    p.add_argument("--out", type=Path, required=True, help="the directory to write (made if missing)")
    p.add_argument("--records-only", action="store_true", help="write the records, not the arrays")
    p.add_argument("--arrays-only", action="store_true", help="write the arrays, not the records")
    p.set_defaults(run=run_dataset)


def run_dataset(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except InvalidActionError as exc:
        return _fail(exc.message)
    if args.records_only and args.arrays_only:
        return _fail("--records-only and --arrays-only exclude each other")
    specs = split_specs(args.bots)
    refusal = bad_spec(specs)
    if refusal:
        return _fail(refusal)
    if len(specs) not in (1, rules.players):
        wanted = f"one bot spec for every seat or one per seat ({rules.players})"
        return _fail(f"--bots: {wanted}, not {len(specs)}")
    if args.out.exists() and not args.out.is_dir():
        return _fail(f"--out: {args.out} exists and is not a directory")
    spec = DatasetSpec(rules.variant, rules.players, tuple(specs), args.games, args.seed, rules.to_options())
    progress = Progress(sys.stderr, "dataset", "deals")
    try:
        meta = write(spec, args.out, not args.arrays_only, not args.records_only, progress)
    except RuntimeError as exc:
        return _fail(str(exc))
    finally:
        progress.close()
    print(json.dumps(meta))
    return 0
