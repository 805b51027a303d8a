"""`canasta review`: the costly decisions of one seat in a recorded deal (see `canasta.review`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from canasta.cli.action_text import action_text
from canasta.cli.arguments import seed_number, whole
from canasta.cli.engine_commands import _fail, format_table, read_record
from canasta.protocol.review_texts import LANGUAGES, reason_text
from canasta.review import ITERATIONS, ReviewError, review_deal
from canasta.rules.errors import InvalidActionError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="where a seat lost points in a recorded deal, and what was better",
        description="Review one seat's decisions in a finished deal of a record: at each decision the "
        "search player, seeing only what that seat saw, values the move made and the best "
        "alternatives on the same sampled worlds, and lists the decisions where an alternative was "
        "clearly better, with the points it was worth and why.",
    )
    p.add_argument("file", help="the record (canasta-record/1, JSON); '-' reads standard input")
    p.add_argument("--seat", type=int, required=True, help="the seat whose decisions are reviewed")
    p.add_argument("--deal", type=whole(0), default=0, help="the deal's number in the record (default 0)")
    p.add_argument(
        "--iterations", type=whole(1, 100_000), default=ITERATIONS,
        help=f"continuations per decision, 1 to 100000 (default {ITERATIONS})",
    )
    p.add_argument("--seed", type=seed_number, default=0, help="seed of the sampled worlds (default 0)")
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the reasons (default en)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument("--progress", action="store_true", help="report each decision reviewed on stderr")
    p.set_defaults(run=run_review)


def run_review(args: argparse.Namespace) -> int:
    def progress(done: int, total: int) -> None:
        print(f"\rreviewed {done}/{total} decisions", end="\n" if done == total else "", file=sys.stderr)

    try:
        record = read_record(args.file)
        review = review_deal(
            record, args.seat, args.deal, args.iterations, args.seed, progress if args.progress else None
        )
    except (InvalidActionError, ReviewError) as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(review.to_json(args.lang), ensure_ascii=False))
        return 0
    print(f"seat {review.seat}, deal {review.deal}: {review.decisions} decisions weighed, "
          f"{review.iterations} continuations each")
    if review.costly:
        rows = [
            [str(c.index), action_text(c.played, args.lang), action_text(c.better, args.lang),
             f"{c.points:+.0f}", f"{c.bound:+.0f}", reason_text(c.reason, c.params, args.lang)]
            for c in review.costly
        ]
        print(format_table(["move", "played", "better", "points", "at least", "why"], rows))
    print(review.summary(args.lang))
    return 0
