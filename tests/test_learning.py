"""A value model learned from self-play: Azul's features, the round-boundary rows of replayed
records, the fits, the model file and `tessera train` (docs/learning.md)."""

import json
import shutil

import numpy as np
import pytest

import tessera
from tessera.kernels.azul.features import FEATURE_NAMES, N_VALUE_FEATURES, value_features, value_of
from tessera.kernels.azul.layout import P_LINES, W_ROUND, player_word
from tessera.learning import dataset, fit
from tessera.learning.model import ModelError, ValueModel, load_model, weights_hash
from tessera.search.result import final_margins
from tessera.selfplay.records import read_records
from tessera.selfplay.rundir import load_plan
from tests.cli_process import tessera as run_tessera

# Round 2 is about to be dealt; player 2 took the marker, so starts it. Player 1 has blue
# and yellow side by side in the top row and two reds waiting on line 3; player 2 one red.
BOUNDARY = """azul players 2 wall colour round 2 phase refill turn 2 starter 2
factories - - - - -
centre 1
bag 19/19/17/20/20
lid 0/0/0/0/0
player 1 score 10 wall BY.../...../...../...../..... lines -/-/RR/-/- floor -
player 2 score 4 wall ..R../...../...../...../..... lines -/-/-/-/- floor -"""


def features(position, player):
    out = np.full(N_VALUE_FEATURES, np.nan)
    value_features(position.state, player, out)
    return dict(zip(FEATURE_NAMES, out))


def test_features_of_a_hand_written_position_are_worked_out_by_hand():
    first = features(tessera.Position.parse(BOUNDARY), 0)
    # Row bonus 2 * 2/5, columns 2 * 7/5, colours 2 * 10/5; the red line's tile would
    # score 1 at 2/3 of its fill. Player 2: 2/5 + 7/5 + 10/5.
    own_prospects = 0.8 + 2.8 + 4.0 + 2 / 3
    # Empty cells: next to the blue-yellow pair 3 points (cell 3 of row 1), below each 2;
    # the other 20 cells 1. Player 2: beside and below its red 2 (three cells), 21 cells 1.
    own_adjacency, other_adjacency = (3 + 2 + 2 + 20) / 23, (2 + 2 + 2 + 21) / 24
    expected = {
        "score_diff": 6,
        "own_score": 10,
        "round_end_score_diff": 6,
        "own_round_end_score": 10,
        "prospects_diff": own_prospects - 3.8,
        "own_prospects": own_prospects,
        "wall_tiles_diff": 1,
        "own_wall_tiles": 2,
        "rows_of_four_diff": 0,
        "own_rows_of_four": 0,
        "fullest_row_diff": 1,
        "own_fullest_row": 2,
        "bonus_progress_diff": 1.68 - 0.76,
        "own_bonus_progress": 2 * 0.16 + 2 * 7 * 0.04 + 2 * 10 * 0.04,
        "adjacency_diff": own_adjacency - other_adjacency,
        "own_adjacency": own_adjacency,
        "line_tiles_diff": 2,
        "own_line_tiles": 2,
        "floor_slots_diff": 0,
        "own_floor_slots": 0,
        "constant": 1,
        "round": 2,
        "progress": 0.5,
        "starts_next": 0,
        "players_2": 1,
        "players_3": 0,
        "players_4": 0,
        "gray_wall": 0,
        "score_diff_x_progress": 3,
        "round_end_score_diff_x_progress": 3,
    }
    assert set(expected) == set(FEATURE_NAMES)
    assert first == pytest.approx(expected)
    second = features(tessera.Position.parse(BOUNDARY), 1)
    assert second["score_diff"] == -6 and second["own_score"] == 4 and second["starts_next"] == 1
    assert second["adjacency_diff"] == pytest.approx(-first["adjacency_diff"])


def test_three_players_compare_with_the_best_other_board_and_full_lines_count():
    text = BOUNDARY.replace("players 2", "players 3").replace("factories - - - - -", "factories - - - - - - -")
    text = text.replace("17/20/20", "17/20/19")
    text += "\nplayer 3 score 7 wall ....W/...../...../...../..... lines -/-/-/-/- floor -"
    middle = features(tessera.Position.parse(text), 2)
    assert middle["score_diff"] == 7 - 10 and middle["wall_tiles_diff"] == -1
    assert middle["players_3"] == 1 and middle["players_2"] == 0
    assert features(tessera.Position.parse(text), 0)["score_diff"] == 10 - 7
    # A full line scores at the round's end: the round-end score runs ahead of the score.
    # (A full line in a refill breaks the rules; as a bare state it serves the arithmetic.)
    state = tessera.Position.parse(BOUNDARY).state
    state[player_word(0, P_LINES)] += 1 << 16  # line 3: a third red tile
    full = features(tessera.Position.from_state(state), 0)
    assert full["round_end_score_diff"] == 11 - 4 and full["score_diff"] == 6
    assert full["round_end_score_diff_x_progress"] == 7 * 0.5


def test_a_model_value_is_the_dot_product_of_its_weights_and_the_features():
    position = tessera.Position.parse(BOUNDARY)
    weights = np.arange(N_VALUE_FEATURES, dtype=np.float64)
    scratch = np.empty(N_VALUE_FEATURES)
    expected = weights @ np.array(list(features(position, 0).values()))
    assert value_of(position.state, 0, weights, scratch) == pytest.approx(expected)


# ---- the dataset ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("learning") / "run"
    done = run_tessera(
        "selfplay",
        "azul",
        "--games",
        6,
        "--agents",
        "greedy,random",
        "--seed",
        3,
        "--workers",
        1,
        "--out",
        out,
        "--no-plots",
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    return out


def test_the_rows_are_each_players_view_of_each_round_boundary_labelled_with_the_result(tiny_run):
    plan = load_plan(tiny_run)
    records = read_records(tiny_run).to_pylist()
    data = dataset.load_runs("azul", [tiny_run])
    assert data.games == len(records) == 6
    kernel_columns = list(FEATURE_NAMES)
    for index, record in enumerate(records):
        boundaries, final = dataset.boundary_positions("azul", plan.options, record["seed"], record["moves"])
        rounds = int(final.state[W_ROUND])
        assert len(boundaries) == rounds - 1 >= 1  # every round but the last ends in one
        assert all(b.is_chance and int(b.state[W_ROUND]) == r for r, b in enumerate(boundaries, 2))
        rows = data.game == index
        assert rows.sum() == 2 * len(boundaries)
        scores, payoffs = record["scores"], record["payoffs"]
        margin = [scores[0] - scores[1], scores[1] - scores[0]]
        assert data.margin[rows].tolist() == margin * len(boundaries)
        assert data.win[rows].tolist() == payoffs * len(boundaries)
        last = data.features[rows][-2]
        assert last[kernel_columns.index("own_score")] == boundaries[-1].scores[0]
        assert last[kernel_columns.index("round")] == rounds


def test_the_split_keeps_each_game_on_one_side_and_follows_its_seed(tiny_run):
    data = dataset.load_runs("azul", [tiny_run])
    training, held = data.split(0.34, seed=5)
    assert not set(training.game) & set(held.game)
    assert len(set(held.game)) == 2 and training.rows + held.rows == data.rows
    again = data.split(0.34, seed=5)[1]
    assert np.array_equal(again.game, held.game)
    assert any(not np.array_equal(data.split(0.34, seed=s)[1].game, held.game) for s in range(6, 12))


def test_final_margins_are_over_the_best_other_player():
    assert final_margins([30, 41, 12]).tolist() == [-11, 11, -29]


# ---- the fits ---------------------------------------------------------------------------


def synthetic(rows=4000, seed=0):
    rng = np.random.default_rng(seed)
    x = np.column_stack(
        [
            rng.normal(3, 5, rows),
            np.ones(rows),
            rng.normal(-2, 0.1, rows),
            np.zeros(rows),
            rng.integers(0, 2, rows).astype(float),
        ]
    )
    weights = np.array([0.7, -1.5, 4.0, 0.0, 2.0])
    return x, weights


def test_ridge_regression_recovers_known_weights_on_raw_features():
    x, weights = synthetic()
    y = x @ weights + np.random.default_rng(1).normal(0, 0.01, len(x))
    assert fit.ridge_regression(x, y, 1e-9) == pytest.approx(weights, abs=0.02)
    shrunk = fit.ridge_regression(x, y, 1e6)
    assert abs(shrunk[0]) < 0.1 and shrunk[3] == 0


def test_logistic_regression_recovers_known_weights_from_win_shares():
    x, weights = synthetic()
    weights = weights / 4
    shares = fit.sigmoid(x @ weights)
    assert fit.logistic_regression(x, shares, 1e-9) == pytest.approx(weights, abs=1e-4)
    wins = (np.random.default_rng(2).random(len(x)) < shares).astype(float)
    assert fit.logistic_regression(x, wins, 1.0) == pytest.approx(weights, abs=0.35)


def test_the_validation_figures_put_a_true_model_ahead_of_the_baselines():
    x, weights = synthetic(seed=3)
    margin = x @ weights
    win = fit.sigmoid(margin / 4)
    data = dataset.Dataset("azul", x, margin, win, np.arange(len(x)), np.full(len(x), 2), len(x))
    model = fit.fit(x, margin, win, 1e-6)
    report = fit.evaluate(model, fit.baselines(data, (1, 0), 1e-6), data)
    assert (
        report["model"]["margin_mse"]
        < 1e-6
        < report["score_difference"]["margin_mse"]
        < report["constant"]["margin_mse"]
    )
    assert report["model"]["win_brier"] < report["score_difference"]["win_brier"] < report["constant"]["win_brier"]
    assert report["constant"]["margin_mse"] == pytest.approx(margin.var())


# ---- the model file ---------------------------------------------------------------------


def a_model():
    rng = np.random.default_rng(4)
    return ValueModel(
        "azul",
        rng.normal(size=N_VALUE_FEATURES),
        rng.normal(size=N_VALUE_FEATURES),
        FEATURE_NAMES,
        [2],
        {"seed": 1},
        {"games": 3},
        {"model": {"margin_mse": 1.5}},
    )


def test_a_model_file_round_trips_with_its_hash(tmp_path):
    model = a_model()
    model.save(tmp_path / "m.npz")
    loaded = load_model(tmp_path / "m.npz", game="azul")
    assert np.array_equal(loaded.margin_weights, model.margin_weights)
    assert np.array_equal(loaded.win_weights, model.win_weights)
    assert loaded.hash == model.hash == weights_hash(model.margin_weights, model.win_weights)
    assert (loaded.players, loaded.settings, loaded.data, loaded.validation) == (
        [2],
        {"seed": 1},
        {"games": 3},
        {"model": {"margin_mse": 1.5}},
    )
    other = a_model()
    other.win_weights[0] += 1e-12
    assert other.hash != model.hash


def test_bad_model_files_are_named_in_one_line(tmp_path):
    with pytest.raises(ModelError, match="no such file"):
        load_model(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(ModelError, match="not a value model file"):
        load_model(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(ModelError, match="not a value model file \\(no margin_weights"):
        load_model(tmp_path / "other.npz")
    a_model().save(tmp_path / "m.npz")
    with pytest.raises(ModelError, match="a model of azul, not pavilion"):
        load_model(tmp_path / "m.npz", game="pavilion")
    arrays = dict(np.load(tmp_path / "m.npz"))
    arrays["margin_weights"] = arrays["margin_weights"] + 1
    np.savez(tmp_path / "tampered.npz", **arrays)
    with pytest.raises(ModelError, match="damaged"):
        load_model(tmp_path / "tampered.npz")
    short = ValueModel("azul", np.zeros(3), np.zeros(3), FEATURE_NAMES[:3], [2])
    short.save(tmp_path / "short.npz")
    with pytest.raises(ModelError, match="other features"):
        load_model(tmp_path / "short.npz")
    for bad in (tmp_path / "junk.npz", tmp_path / "tampered.npz"):
        with pytest.raises(ModelError) as caught:
            load_model(bad)
        assert "\n" not in str(caught.value)


# ---- tessera train ----------------------------------------------------------------------


@pytest.mark.long  # tessera selfplay, then train
def test_train_end_to_end_writes_a_model_and_prints_its_figures(tiny_run, tmp_path):
    out = tmp_path / "value.npz"
    done = run_tessera("train", "azul", tiny_run, "--out", out, "--seed", 2, "--validation", 0.34, "--no-progress")
    assert done.returncode == 0, done.stderr
    data = dataset.load_runs("azul", [tiny_run])
    assert f"data: 6 games, {data.rows} rows" in done.stdout
    for label in ("model", "score difference only", "constant", "margin MSE", "win log-loss"):
        assert label in done.stdout
    model = load_model(out, game="azul")
    assert f"sha256 {model.hash}" in done.stdout
    assert model.players == [2] and model.data["games"] == 6
    assert model.settings["seed"] == 2 and model.settings["validation"] == 0.34
    assert set(model.validation) == {"model", "score_difference", "constant"}
    assert model.validation["constant"]["win_log_loss"] == pytest.approx(np.log(2))

    again = run_tessera(
        "train", "azul", tiny_run, "--out", tmp_path / "again.npz", "--seed", 2, "--validation", 0.34, "--json"
    )
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["hash"] == model.hash and report["validation"] == model.validation


@pytest.mark.parametrize(
    "args, message",
    [
        (["chess", "{run}"], "no value features for 'chess'"),
        (["azul", "{tmp}/nowhere"], "no self-play run in"),
        (["azul", "{other}"], "is a run of pavilion, not azul"),
        (["azul", "{run}", "--validation", "1.5"], "--validation is a share between 0 and 1"),
        (["azul", "{run}", "--ridge", "-1"], "--ridge is 0 or more"),
        (["azul", "{run}", "--ridge", "inf"], "--ridge is 0 or more"),
        (["azul", "{run}", "--validation", "0.99"], "too few to keep a validation share"),
        (["azul", "{run}", "--hidden", "-1"], "--hidden is a count of units from 0 to 256"),
        (["azul", "{run}", "--hidden", "257"], "--hidden is a count of units from 0 to 256"),
    ],
)
def test_train_refuses_bad_input_in_one_line(tiny_run, tmp_path, args, message):
    other = tmp_path / "other"
    shutil.copytree(tiny_run, other)
    plan = json.loads((other / "run.json").read_text())
    (other / "run.json").write_text(json.dumps({**plan, "game": "pavilion"}))
    filled = [a.format(run=tiny_run, tmp=tmp_path, other=other) for a in args]
    out = tmp_path / "m.npz"
    done = run_tessera("train", *filled, "--out", out)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not out.exists()


def test_train_refuses_an_output_it_cannot_write(tiny_run, tmp_path):
    done = run_tessera("train", "azul", tiny_run, "--out", tmp_path / "no" / "dir" / "m.npz")
    assert done.returncode == 2 and done.stderr.startswith("error: cannot write the model")
    assert len(done.stderr.strip().splitlines()) == 1
