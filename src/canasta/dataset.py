"""Seeded games of bots as data to learn from: records of the deals and, per decision, the
observation, the legal ids, the id played and the deal's return for the seat that played it.

    from canasta.dataset import DatasetSpec, generate
    spec = DatasetSpec("classic", 4, bots=("hard",), games=100, seed=1)
    for deal in generate(spec):
        deal.record      # canasta-record/1 of the deal (the engine's actions)
        deal.rows        # per decision: (seat, observation, legal ids, id played)
        deal.returns     # per seat, as LearningState.returns()

Deal `i` is dealt as `Game.new(variant, players, seed=deal_seed(spec.seed, i))` deals it, and
each seat's bot is seeded from the dataset's seed, the deal and the seat alone, so a dataset is
the same whoever makes it, in whatever order, and any one deal of it can be made again alone.
The bots play through `canasta.learning.bots.BotPolicy`, so every decision is one of the
learning interface's ids. `write` saves a dataset as `canasta dataset` does (docs/learning.md,
"Data and an imitation baseline"); `load_arrays` reads its arrays back.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta.extras import install_command
from canasta.learning import COMMIT, DISCARD, LearningGame, LearningState
from canasta.learning.actions import ASK, DRAW, NO, PASS, YES
from canasta.learning.bots import BotPolicy
from canasta.learning.game import seeded_deck
from canasta.rules import ALL_CARDS, Action, Answer, Ask, Discard, Draw, Pass
from canasta.rules.game import DealRecord, default_dealer
from canasta.rules.record import Record

DATASET_FORMAT = "canasta-dataset/1"
#: The files of a dataset directory.
META_FILE, RECORDS_FILE, ARRAYS_FILE = "dataset.json", "records.jsonl", "arrays.npz"
#: The arrays of `arrays.npz`, one row per decision.
ARRAYS = ("observations", "masks", "actions", "returns", "seats", "deals")
_SIMPLE: dict[int, Action] = {DRAW: Draw(), PASS: Pass(), ASK: Ask(), YES: Answer(True), NO: Answer(False)}

Row = tuple[int, list[float], list[int], int]


@dataclass(frozen=True)
class DatasetSpec:
    """What to play: the rule set, the bots (one for every seat, or one per seat), how many
    deals, the seed."""

    variant: str
    players: int
    bots: tuple[str, ...] = ("hard",)
    games: int = 100
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    def seat_bots(self) -> tuple[str, ...]:
        """The bot of each seat."""
        if len(self.bots) == 1:
            return self.bots * self.players
        if len(self.bots) != self.players:
            wanted = f"one for every seat or one per seat ({self.players})"
            raise ValueError(f"bots: {wanted}, not {len(self.bots)}")
        return self.bots

    def game(self) -> LearningGame:
        return LearningGame(self.variant, self.players, self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": self.game().rules.to_options(),
            "bots": list(self.seat_bots()),
            "games": self.games,
            "seed": self.seed,
        }


@dataclass
class DealData:
    """One deal of a dataset: its record, its decisions and the seats' returns."""

    index: int
    seed: int
    record: dict[str, Any]
    rows: list[Row]
    returns: list[float]


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal `index` of a dataset with seed `seed` (`Game.new(..., seed=...)`'s)."""
    return random.Random(f"dataset/{seed}/deal/{index}").randrange(2**63)


def engine_action(state: LearningState, action_id: int) -> Action | None:
    """The engine action that playing `action_id` at `state` applies (None: the id only adds to
    a step being formed)."""
    if state.staged:
        if action_id != COMMIT:
            return None
        depth = len(state.staged) + 1
        return next((action for seq, action in state.candidates if len(seq) == depth), None)
    if DISCARD <= action_id < DISCARD + len(ALL_CARDS):
        return Discard(ALL_CARDS[action_id - DISCARD])
    return _SIMPLE.get(action_id)


def play_deal(spec: DatasetSpec, game: LearningGame, index: int) -> DealData:
    """Deal `index` of the dataset, played by its bots."""
    seed = deal_seed(spec.seed, index)
    state = game.new_initial_state(seed=seed)
    bots = spec.seat_bots()
    policies = [
        BotPolicy(bot, random.Random(f"dataset/{spec.seed}/deal/{index}/seat/{s}").randrange(2**63))
        for s, bot in enumerate(bots)
    ]
    rules = game.rules
    dealer, sitting_out = default_dealer(rules, 0)
    record = DealRecord(dealer, seeded_deck(rules, seed, 0), sitting_out=sitting_out)
    rows: list[Row] = []
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        observation = state.observation_tensor(seat)
        action_id = policies[seat](state)
        action = engine_action(state, action_id)
        state.apply_action(action_id)
        rows.append((seat, observation, legal, action_id))
        if action is not None:
            record.actions.append((seat, action))
    return DealData(index, seed, Record(rules, [record]).to_json(), rows, state.returns())


def generate(spec: DatasetSpec, progress: Callable[[int, int], None] | None = None) -> Iterator[DealData]:
    """The dataset's deals in order; `progress(done, total)` after each."""
    game = spec.game()
    spec.seat_bots()
    for index in range(spec.games):
        yield play_deal(spec, game, index)
        if progress:
            progress(index + 1, spec.games)


def write(
    spec: DatasetSpec,
    out: Path,
    records: bool = True,
    arrays: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play the dataset and write it to the directory `out`: `dataset.json` (what it is),
    `records.jsonl` (a canasta-record/1 per deal, one a line) and `arrays.npz` (needs numpy).
    Returns the metadata written."""
    np = _numpy() if arrays else None
    out.mkdir(parents=True, exist_ok=True)
    game = spec.game()
    meta: dict[str, Any] = {
        "format": DATASET_FORMAT,
        **spec.to_json(),
        "observation_size": game.observation.size,
        "num_actions": game.num_distinct_actions,
        "files": ([RECORDS_FILE] if records else []) + ([ARRAYS_FILE] if arrays else []),
    }
    parts: dict[str, list[Any]] = {name: [] for name in ARRAYS}
    decisions = 0
    with (out / RECORDS_FILE).open("w") if records else contextlib.nullcontext() as lines:
        for deal in generate(spec, progress):
            if lines is not None:
                lines.write(json.dumps(deal.record) + "\n")
            decisions += len(deal.rows)
            if np is not None:
                for name, value in deal_arrays(np, game, deal).items():
                    parts[name].append(value)
    meta["decisions"] = decisions
    if np is not None:
        joined = {name: np.concatenate(value) for name, value in parts.items()}
        np.savez_compressed(out / ARRAYS_FILE, **joined)
    (out / META_FILE).write_text(json.dumps(meta, indent=1) + "\n")
    return meta


def deal_arrays(np: Any, game: LearningGame, deal: DealData) -> dict[str, Any]:
    """A deal's decisions as arrays (`ARRAYS`), one row per decision."""
    rows = deal.rows
    masks = np.zeros((len(rows), game.num_distinct_actions), np.uint8)
    for row, (_, _, ids, _) in enumerate(rows):
        masks[row, ids] = 1
    seats = [seat for seat, _, _, _ in rows]
    return {
        "observations": np.asarray([o for _, o, _, _ in rows], np.float32).reshape(len(rows), -1),
        "masks": masks,
        "actions": np.asarray([a for _, _, _, a in rows], np.int32),
        "returns": np.asarray([deal.returns[s] for s in seats], np.float32),
        "seats": np.asarray(seats, np.int8),
        "deals": np.full(len(rows), deal.index, np.int32),
    }


def load_arrays(directory: Path) -> dict[str, Any]:
    """The arrays of a dataset directory (`observations`, `masks`, `actions`, `returns`,
    `seats`, `deals`) and its metadata (`meta`)."""
    np = _numpy()
    meta = json.loads((directory / META_FILE).read_text())
    if meta.get("format") != DATASET_FORMAT:
        raise ValueError(f"{directory / META_FILE}: not a {DATASET_FORMAT} dataset")
    with np.load(directory / ARRAYS_FILE) as data:
        out: dict[str, Any] = {name: data[name] for name in data.files}
    out["meta"] = meta
    return out


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise RuntimeError(f"the dataset's arrays need numpy: {install_command('learning')}") from None
    return numpy
