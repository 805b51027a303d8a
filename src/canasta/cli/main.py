"""Entry point of the `canasta` command: sub-commands and their error handling."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from canasta.cli import (
    backup_command,
    bot_command,
    engine_commands,
    play,
    review_command,
    serve_command,
    tournament,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="canasta", description="Canasta: rules engine, bots, table.")
    sub = parser.add_subparsers(dest="command", required=True)
    engine_commands.register(sub)
    tournament.register(sub)
    play.register(sub)
    serve_command.register(sub)
    backup_command.register(sub)
    bot_command.register(sub)
    review_command.register(sub)
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
    except Exception as exc:  # a last guard: one clear line, never a traceback
        print(f"canasta: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
