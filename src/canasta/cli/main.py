"""Entry point of the `canasta` command: sub-commands and their error handling."""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence

from canasta import __version__
from canasta.cli import (
    backup_command,
    bot_command,
    dataset_command,
    engine_commands,
    play,
    review_command,
    serve_command,
    tournament,
)
from canasta.match import BotError

DEBUG_HELP = "on an internal error, print its traceback"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="canasta", description="Canasta: rules engine, bots, table.")
    parser.add_argument("--version", action="version", version=f"canasta {__version__}")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", required=True)
    engine_commands.register(sub)
    tournament.register(sub)
    play.register(sub)
    serve_command.register(sub)
    backup_command.register(sub)
    bot_command.register(sub)
    review_command.register(sub)
    dataset_command.register(sub)
    for command in sub.choices.values():  # `canasta COMMAND --debug` too
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        print("canasta: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except BotError as exc:  # the bot's defect, not canasta's: its traceback is the bot writer's
        print(f"canasta: {exc.message}", file=sys.stderr)
        if exc.trace:
            print(exc.trace, end="", file=sys.stderr)
        return 1
    except Exception as exc:  # a last guard: one clear line (the traceback with --debug)
        if args.debug:
            traceback.print_exc()
        hint = "" if args.debug else " (--debug shows where)"
        print(f"canasta: internal error: {type(exc).__name__}: {exc}{hint}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
