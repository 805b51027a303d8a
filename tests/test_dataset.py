"""canasta.dataset and `canasta dataset`: a seed gives the same data, each deal can be made
again alone, the arrays agree with the engine (the observation the seat had, the mask its
legal ids, the id played among them, the return its team's score) and the records replay to
the same deals; the imitation baseline (canasta.imitation) trains, saves, loads and plays
legal moves, the shipped weights included."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from canasta.cli.main import main
from canasta.dataset import DatasetSpec, deal_seed, generate, load_arrays, play_deal, write
from canasta.imitation import WEIGHTS, ImitationBot, Model, train
from canasta.learning import POINTS_SCALE
from canasta.match import play_deal as play_engine_deal
from canasta.match import seat_rngs
from canasta.rules import Game, RuleSet
from canasta.rules.record import Record, replay

CONFIGURATIONS = [
    ("classic", 4, ("easy",)),
    ("classic", 5, ("easy",)),
    ("online", 2, ("hard", "random")),
    ("modern-american", 4, ("easy", "hard", "easy", "hard")),
]


@pytest.mark.parametrize(("variant", "players", "bots"), CONFIGURATIONS)
def test_the_arrays_agree_with_the_engine(variant: str, players: int, bots: tuple[str, ...]) -> None:
    spec = DatasetSpec(variant, players, bots, games=2, seed=4)
    game = spec.game()
    for deal in generate(spec):
        state = game.new_initial_state(seed=deal_seed(spec.seed, deal.index))
        for seat, observation, legal, action_id in deal.rows:
            assert seat == state.current_player()
            assert observation == state.observation_tensor(seat)
            assert legal == state.legal_actions()
            assert action_id in legal
            state.apply_action(action_id)
        assert state.is_terminal() and deal.returns == state.returns()
        summary, _ = replay(Record.from_json(deal.record))
        (result,) = summary["deals"]
        teams = [part["total"] / POINTS_SCALE for part in result["scores"]]
        assert deal.returns == [teams[s % game.rules.teams] for s in range(players)]


def test_a_seed_gives_the_same_dataset_and_a_deal_can_be_made_alone(tmp_path: Path) -> None:
    spec = DatasetSpec("classic", 4, ("easy",), games=3, seed=9)
    first, second = write(spec, tmp_path / "a"), write(spec, tmp_path / "b")
    assert first == second and first["decisions"] > 0
    for name in ("records.jsonl", "dataset.json"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    a, b = load_arrays(tmp_path / "a"), load_arrays(tmp_path / "b")
    for name in ("observations", "masks", "actions", "returns", "seats", "deals"):
        assert np.array_equal(a[name], b[name])
    assert len(a["actions"]) == first["decisions"]
    rows = np.arange(len(a["actions"]))
    assert a["masks"][rows, a["actions"]].all()  # the id played is always in the mask
    alone = play_deal(spec, spec.game(), 2)
    records = (tmp_path / "a" / "records.jsonl").read_text().splitlines()
    assert json.loads(records[2]) == alone.record
    assert np.array_equal(a["actions"][a["deals"] == 2], [row[3] for row in alone.rows])
    other = write(DatasetSpec("classic", 4, ("easy",), games=3, seed=10), tmp_path / "c")
    assert (tmp_path / "c" / "records.jsonl").read_text() != records[0] and other["games"] == 3


def test_the_command_writes_a_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "data"
    code = main(["dataset", "--players", "2", "--bots", "easy,random", "--games", "2", "--seed", "3",
                 "--out", str(out)])
    stdout, stderr = capsys.readouterr()
    meta = json.loads(stdout)
    assert code == 0 and "dataset: 2/2 deals" in stderr
    assert meta == json.loads((out / "dataset.json").read_text())
    assert meta["bots"] == ["easy", "random"] and meta["players"] == 2
    assert len((out / "records.jsonl").read_text().splitlines()) == 2
    assert len(load_arrays(out)["actions"]) == meta["decisions"]
    code = main(["dataset", "--games", "1", "--records-only", "--out", str(tmp_path / "records")])
    capsys.readouterr()
    assert code == 0 and sorted(p.name for p in (tmp_path / "records").iterdir()) == [
        "dataset.json", "records.jsonl"]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--bots", "easy,hard"], "one per seat (4), not 2"),
        (["--bots", "nosuchbot"], "unknown bot"),
        (["--records-only", "--arrays-only"], "exclude each other"),
        (["--variant", "modern-american", "--players", "2"], "modern"),
    ],
)
def test_command_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    code = main(["dataset", "--games", "1", "--out", str(tmp_path / "x"), *argv])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and fragment in err.lower()
    assert not (tmp_path / "x").exists()


def test_a_file_in_the_way_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "x").write_text("")
    assert main(["dataset", "--games", "1", "--out", str(tmp_path / "x")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_a_model_trains_saves_loads_and_plays_legal_moves(tmp_path: Path) -> None:
    write(DatasetSpec("online", 2, ("hard",), games=4, seed=2), tmp_path / "data")
    data = load_arrays(tmp_path / "data")
    epochs: list[tuple[int, float, float]] = []
    model = train(data, hidden=8, epochs=2, seed=1, progress=lambda *e: epochs.append(e))
    assert [e[0] for e in epochs] == [1, 2] and all(np.isfinite(e[1]) for e in epochs)
    assert model.meta["variant"] == "online" and model.meta["trained_decisions"] > 0
    model.save(tmp_path / "model.npz")
    loaded = Model.load(tmp_path / "model.npz")
    assert loaded.meta == model.meta
    for name, value in model.params.items():  # stored as float16
        assert np.allclose(loaded.params[name], value, rtol=1e-2, atol=1e-3)
    bot = ImitationBot(tmp_path / "model.npz")
    rules = RuleSet.preset("online", 2)
    for seed in range(2):
        game = Game.new("online", 2, seed=seed)
        play_engine_deal(game, [bot, bot], seat_rngs(f"imitation/{seed}", 2))  # applies only legal moves
        assert game.current.is_over
    with pytest.raises(ValueError, match="plays online for 2 players"):
        bot.choose(Game.new("classic", 4, seed=1).current.view(0), random.Random(1))
    assert rules == bot.game.rules


def test_the_shipped_baseline_plays_classic_for_four() -> None:
    bot = ImitationBot()
    assert ImitationBot(WEIGHTS).model.meta == bot.model.meta
    assert (bot.model.meta["variant"], bot.model.meta["players"]) == ("classic", 4)
    game = Game.new("classic", 4, seed=3)
    play_engine_deal(game, [bot] * 4, seat_rngs("shipped", 4))
    assert game.current.is_over and game.current.result is not None


def test_without_numpy_the_arrays_name_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` fails
    assert main(["dataset", "--games", "1", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "need numpy" in err and "learning" in err
    assert main(["dataset", "--games", "1", "--records-only", "--out", str(tmp_path / "y")]) == 0
