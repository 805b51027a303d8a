"""Fit the search's evaluation weights (`canasta.bots.evaluation.WEIGHTS`) to self-play data.

Usage: .venv/bin/python benchmarks/tune_evaluation.py [--deals N] [--seed S] [--every K]

For classic and Modern American (4 players), N seeded deals are played by `hard` for every
seat; every K-th decision the features of team 0 (`evaluation.features`) are recorded with the
deal's final score difference of that team. The rows go to
`benchmarks/data/evaluation_<variant>.csv`; the weights that fit them best (least squares, a
little ridge) are printed as the `WEIGHTS` entry to store, with the fit's R² and that of the
score-now feature alone.
"""

from __future__ import annotations

import argparse
import csv
import random
from pathlib import Path

from canasta.bots.evaluation import FEATURES, features
from canasta.bots.heuristic import decide
from canasta.bots.skill import HARD
from canasta.rules.cards import make_deck
from canasta.rules.ruleset import RuleSet
from canasta.rules.state import State

DATA = Path(__file__).resolve().parent / "data"
RIDGE = 1e-3


def selfplay_rows(variant: str, deals: int, seed: int, every: int) -> list[list[float]]:
    """Rows of features followed by the final score difference of team 0."""
    rules = RuleSet.preset(variant, 4)
    rng = random.Random(seed)
    rows: list[list[float]] = []
    for i in range(deals):
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        state = State.deal(rules, deck, i % 4)
        seen: list[list[float]] = []
        step = rng.randrange(every)
        while not state.is_over:
            if step % every == 0:
                seen.append(features(state, 0))
            state.apply(decide(state.mover(), HARD, rng))
            step += 1
        assert state.result is not None
        scores = [s.total for s in state.result.scores]
        final = scores[0] - sum(scores[1:]) / (len(scores) - 1)
        rows.extend([*f, final] for f in seen)
    return rows


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """The solution of a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                factor = m[r][col] / m[col][col]
                m[r] = [x - factor * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(rows: list[list[float]]) -> list[float]:
    """Least-squares weights (no intercept: the features are differences between teams)."""
    k = len(FEATURES)
    scale = [max(1e-9, max(abs(r[j]) for r in rows)) for j in range(k)]
    xs = [[r[j] / scale[j] for j in range(k)] for r in rows]
    ys = [r[k] for r in rows]
    ridge = RIDGE * len(xs)
    ata = [[sum(x[i] * x[j] for x in xs) + (ridge if i == j else 0.0) for j in range(k)] for i in range(k)]
    aty = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(k)]
    return [w / s for w, s in zip(solve(ata, aty), scale, strict=True)]


def r_squared(rows: list[list[float]], weights: list[float]) -> float:
    k = len(FEATURES)
    ys = [r[k] for r in rows]
    mean = sum(ys) / len(ys)
    guesses = [sum(w * x for w, x in zip(weights, r[:k], strict=True)) for r in rows]
    residual = sum((y - g) ** 2 for y, g in zip(ys, guesses, strict=True))
    return 1 - residual / sum((y - mean) ** 2 for y in ys)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--every", type=int, default=7, help="record every K-th decision")
    args = parser.parse_args()
    DATA.mkdir(exist_ok=True)
    for variant in ("classic", "modern-american"):
        rows = selfplay_rows(variant, args.deals, args.seed, args.every)
        with (DATA / f"evaluation_{variant}.csv").open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow([*FEATURES, "final"])
            out.writerows([f"{x:g}" for x in row] for row in rows)
        weights = fit(rows)
        alone = [1.0] + [0.0] * (len(FEATURES) - 1)
        fitted, plain = r_squared(rows, weights), r_squared(rows, alone)
        print(f"# {variant}: {len(rows)} rows, R² {fitted:.3f} (score now alone {plain:.3f})")
        print(f'    "{variant}": ({", ".join(f"{w:.4g}" for w in weights)}),')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
