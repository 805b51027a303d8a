"""An imitation baseline in numpy alone: a small network that plays the learning interface's ids
as the bots of a dataset (`canasta dataset`) played them, and a bot that plays it.

The network is one hidden layer: the observation tensor, each number divided by the largest
seen in training, a ReLU layer of `hidden` units, then a score per id; the legal ids' scores
make a softmax, and training lowers the cross-entropy of the id played (Adam, minibatches) on
the decisions with more than one legal id. Decisions of the last tenth of the deals are held
out to measure how often the network picks the bots' id.

    python -m canasta.imitation DATASET_DIR --out weights.npz   # train (see --help)

`ImitationBot` plays a model at a table as any bot does (`canasta tournament --bots
canasta.imitation:ImitationBot,random`): from its seat's view it deals the cards it cannot see
at random (they change nothing it observes or may do), forms its move id by id, each the legal
id the network scores highest, and returns the engine action those ids make. Made without
arguments it loads the weights shipped with the package (`WEIGHTS`: trained on `hard` in
classic for 4 players; docs/learning.md gives the data, the command and its strength). Needs
numpy (`pip install 'canasta[learning]'`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from canasta.dataset import engine_action, load_arrays
from canasta.learning import LearningGame, LearningState
from canasta.learning.game import STATE_FORMAT
from canasta.rules import Action, position_to_json, resample
from canasta.rules.view import SeatView

#: The weights shipped with the package.
WEIGHTS = Path(__file__).resolve().parent / "data" / "imitation-classic-4.npz"
MODEL_FORMAT = "canasta-imitation/1"
#: What a model keeps of its dataset's description.
SOURCE = ("variant", "players", "options", "bots", "games", "seed")

Array = np.ndarray[Any, np.dtype[np.float32]]


class Model:
    """The network: `scale` (per input), `w1`, `b1`, `w2`, `b2`; `meta` says for which game."""

    def __init__(self, params: dict[str, Array], meta: dict[str, Any]) -> None:
        self.params = params
        self.meta = meta

    @classmethod
    def new(cls, meta: dict[str, Any], scale: Array, hidden: int, seed: int) -> Model:
        rng = np.random.default_rng(seed)
        inputs, outputs = int(meta["observation_size"]), int(meta["num_actions"])
        params = {
            "scale": scale.astype(np.float32),
            "w1": (rng.standard_normal((inputs, hidden)) * np.sqrt(2 / inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal((hidden, outputs)) * np.sqrt(1 / hidden)).astype(np.float32),
            "b2": np.zeros(outputs, np.float32),
        }
        return cls(params, {**meta, "hidden": hidden})

    def scores(self, observations: Array) -> Array:
        """The network's score of every id (rows: observations)."""
        p = self.params
        hidden = np.maximum(observations * p["scale"] @ p["w1"] + p["b1"], 0)
        out: Array = hidden @ p["w2"] + p["b2"]
        return out

    def choose(self, observation: Sequence[float], legal: Sequence[int]) -> int:
        """The legal id the network scores highest."""
        scores = self.scores(np.asarray(observation, np.float32)[None, :])[0]
        ids = np.asarray(legal)
        return int(ids[int(np.argmax(scores[ids]))])

    def save(self, path: Path) -> None:
        """Write the model (`canasta-imitation/1`: the weights as float16, the metadata as JSON)."""
        arrays = {name: value.astype(np.float16) for name, value in self.params.items()}
        meta = json.dumps({"format": MODEL_FORMAT, **self.meta})
        np.savez_compressed(path, meta=np.asarray(meta), **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> Model:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            if meta.pop("format", None) != MODEL_FORMAT:
                raise ValueError(f"{path}: not a {MODEL_FORMAT} model")
            params = {name: data[name].astype(np.float32) for name in ("scale", "w1", "b1", "w2", "b2")}
        return cls(params, meta)

    def game(self) -> LearningGame:
        """The learning game the model plays."""
        return LearningGame(self.meta["variant"], self.meta["players"], self.meta["options"])


def train(
    data: dict[str, Any],
    hidden: int = 64,
    epochs: int = 10,
    batch: int = 256,
    rate: float = 1e-3,
    seed: int = 0,
    progress: Callable[[int, float, float], None] | None = None,
) -> Model:
    """A model trained on a dataset's arrays (`canasta.dataset.load_arrays`); `progress(epoch,
    training loss, held-out accuracy)` after each epoch. `meta["accuracy"]` is the held-out
    share of decisions (with a choice) where the model picks the id played."""
    masks = data["masks"]
    choice = masks.sum(axis=1) > 1
    deals = data["deals"]
    held = deals >= np.quantile(deals, 0.9) if deals.max() > 0 else np.zeros(len(deals), bool)
    x, m, y = data["observations"], masks.astype(bool), data["actions"].astype(np.int64)
    fit, test = choice & ~held, choice & held
    scale = 1.0 / np.maximum(np.abs(x).max(axis=0), 1.0)
    meta = {key: data["meta"][key] for key in SOURCE if key in data["meta"]}
    meta.update(observation_size=x.shape[1], num_actions=m.shape[1], trained_decisions=int(fit.sum()))
    model = Model.new(meta, scale, hidden, seed)
    adam = _Adam(model.params, rate)
    rng = np.random.default_rng(seed)
    rows = np.flatnonzero(fit)
    for epoch in range(1, epochs + 1):
        rng.shuffle(rows)
        losses = []
        for start in range(0, len(rows), batch):
            pick = rows[start : start + batch]
            loss, grads = _loss(model, x[pick], m[pick], y[pick])
            adam.step(grads)
            losses.append(loss)
        accuracy = _accuracy(model, x[test], m[test], y[test])
        model.meta.update(epochs=epoch, accuracy=round(accuracy, 4), held_out_decisions=int(test.sum()))
        if progress:
            progress(epoch, float(np.mean(losses)) if losses else 0.0, accuracy)
    return model


def _loss(model: Model, x: Array, mask: Any, y: Any) -> tuple[float, dict[str, Array]]:
    """The mean cross-entropy of the ids played among the legal ids, and its gradients."""
    p = model.params
    inputs = x * p["scale"]
    pre = inputs @ p["w1"] + p["b1"]
    hidden = np.maximum(pre, 0)
    scores = hidden @ p["w2"] + p["b2"]
    scores = np.where(mask, scores, -1e9)
    scores -= scores.max(axis=1, keepdims=True)
    probs = np.exp(scores)
    probs /= probs.sum(axis=1, keepdims=True)
    n = len(y)
    loss = float(-np.log(probs[np.arange(n), y] + 1e-12).mean())
    d_scores = probs
    d_scores[np.arange(n), y] -= 1
    d_scores /= n
    d_hidden = (d_scores @ p["w2"].T) * (pre > 0)
    grads = {
        "w2": hidden.T @ d_scores,
        "b2": d_scores.sum(axis=0),
        "w1": inputs.T @ d_hidden,
        "b1": d_hidden.sum(axis=0),
    }
    return loss, grads


def _accuracy(model: Model, x: Array, mask: Any, y: Any) -> float:
    if not len(y):
        return 0.0
    scores = np.where(mask, model.scores(x), -np.inf)
    return float((scores.argmax(axis=1) == y).mean())


class _Adam:
    """Adam on the trained parameters (all but `scale`)."""

    def __init__(self, params: dict[str, Array], rate: float) -> None:
        self.params, self.rate, self.t = params, rate, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items() if k != "scale"}
        self.v = {k: np.zeros_like(v) for k, v in params.items() if k != "scale"}

    def step(self, grads: dict[str, Array]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            m_hat = self.m[k] / (1 - b1**self.t)
            v_hat = self.v[k] / (1 - b2**self.t)
            self.params[k] -= (self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


class ImitationBot:
    """A model as a bot (see the module docstring); `ImitationBot()` plays `WEIGHTS`."""

    name = "imitation"

    def __init__(self, weights: Path | str | Model | None = None) -> None:
        self.model = weights if isinstance(weights, Model) else Model.load(Path(weights or WEIGHTS))
        self.game = self.model.game()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        rules = self.game.rules
        if view.rules != rules:
            raise ValueError(
                f"this model plays {rules.variant} for {rules.players} players with options "
                f"{rules.to_options()}, not {view.rules.variant} for {view.rules.players} players"
            )
        seat = view.seat
        if seat is None or seat != view.to_move:
            raise ValueError("a bot chooses only for the seat to move")
        state = self.state_at(view, rng)
        while True:
            action_id = self.model.choose(state.observation_tensor(seat), state.legal_actions())
            action = engine_action(state, action_id)
            if action is not None:
                return action
            state.apply_action(action_id)

    def state_at(self, view: SeatView, rng: random.Random) -> LearningState:
        """A learning state the view's seat cannot tell from the real one (no step formed)."""
        position = position_to_json(resample(view, rng))
        obj = {"format": STATE_FORMAT, **self.game.options_json(), "position": position}
        return self.game.state_from_json(obj)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m canasta.imitation",
        description="Train the imitation baseline on a dataset written by `canasta dataset`.",
    )
    parser.add_argument("dataset", type=Path, help="the dataset's directory")
    parser.add_argument("--out", type=Path, required=True, help="the model file to write (.npz)")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    parser.add_argument("--epochs", type=int, default=10, help="passes over the data (default 10)")
    parser.add_argument("--batch", type=int, default=256, help="decisions per step (default 256)")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate (default 0.001)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the weights and the order (default 0)")
    args = parser.parse_args(argv)
    for name in ("hidden", "epochs", "batch"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    try:
        data = load_arrays(args.dataset)
    except (OSError, ValueError, KeyError) as exc:
        print(f"canasta.imitation: cannot read the dataset: {exc}", file=sys.stderr)
        return 1
    start = time.perf_counter()

    def report(epoch: int, loss: float, accuracy: float) -> None:
        print(f"epoch {epoch}: loss {loss:.4f}, held-out accuracy {accuracy:.4f} "
              f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)

    model = train(data, args.hidden, args.epochs, args.batch, args.rate, args.seed, report)
    model.save(args.out)
    print(json.dumps({key: value for key, value in model.meta.items() if key != "options"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
