"""Argument types of the command line: whole numbers and seconds within a stated range.

A value out of range is refused by argparse with the range in the message, before any work.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from `low` to `high` (no upper bound when `high` is None)."""
    wanted = f"a whole number from {low} to {high}" if high is not None else f"a whole number, {low} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: give {wanted}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text} is out of range: give {wanted}")
        return value

    return parse


def seconds(low: float, high: float) -> Callable[[str], float]:
    """A number of seconds from `low` to `high`."""
    wanted = f"a number of seconds from {low:g} to {high:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number: give {wanted}") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is out of range: give {wanted}")
        return value

    return parse


#: Random seeds: a negative seed would repeat the deck of its absolute value.
seed_number = whole(0)
