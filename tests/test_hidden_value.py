"""A value with hidden units (``tessera train --hidden N``): a one-layer perceptron beside
the linear weights, fitted by ``fit.fit_hidden``, stored in the model file, and evaluated
by the search's kernels as ``ValueModel.predict`` says."""

import json

import numpy as np
import pytest

import tessera
from tessera.kernels.azul.features import FEATURE_NAMES, N_VALUE_FEATURES, value_features
from tessera.learning import dataset, fit
from tessera.learning.model import ModelError, ValueModel, load_model, weights_hash
from tessera.search.value_model import has_policy, model_weights
from tests.cli_process import tessera as run_tessera
from tests.test_learned_value import cut_outcome
from tests.test_learning import BOUNDARY, tiny_run  # noqa: F401  (a fixture)
from tests.value_models import weights


def hidden_model(units=3, seed=5):
    rng = np.random.default_rng(seed)
    return ValueModel(
        "azul",
        rng.normal(size=N_VALUE_FEATURES) * 0.1,
        rng.normal(size=N_VALUE_FEATURES) * 0.05,
        FEATURE_NAMES,
        [2],
        hidden_weights=rng.normal(size=(units, N_VALUE_FEATURES)) * 0.2,
        hidden_margin=rng.normal(size=units),
        hidden_win=rng.normal(size=units) * 0.1,
    )


def boundary_features():
    state = tessera.Position.parse(BOUNDARY).state
    features = np.zeros((2, N_VALUE_FEATURES))
    for p in range(2):
        value_features(state, p, features[p])
    return state, features


# ---- the kernel -------------------------------------------------------------------------


def test_one_hidden_unit_on_the_score_difference_worked_by_hand(tmp_path):
    """At BOUNDARY the first player leads by 6. A unit relu(score_diff) with weight 2 in the
    margin and 0.5 in the logit, and no linear weights: the leader's margin is 2 x 6 = 12 and
    logit 3, the trailer's unit is off (relu(-6) = 0): margin 0, logit 0."""
    model = ValueModel(
        "azul",
        np.zeros(N_VALUE_FEATURES),
        np.zeros(N_VALUE_FEATURES),
        FEATURE_NAMES,
        [2],
        hidden_weights=weights(score_diff=1.0)[None, :],
        hidden_margin=np.array([2.0]),
        hidden_win=np.array([0.5]),
    )
    model.save(tmp_path / "m.npz")
    state, _ = boundary_features()
    payoff, margin = cut_outcome(state, model_weights(tmp_path / "m.npz", "azul")[0])
    assert margin[:2].tolist() == pytest.approx([12.0, 0.0])
    leader, trailer = 1 / (1 + np.exp(-3.0)), 0.5
    assert payoff[:2].tolist() == pytest.approx([leader / (leader + trailer), trailer / (leader + trailer)])


def test_the_kernels_value_is_the_models_prediction(tmp_path):
    model = hidden_model()
    model.save(tmp_path / "m.npz")
    state, features = boundary_features()
    predicted_margin, chances = load_model(tmp_path / "m.npz").predict(features)
    payoff, margin = cut_outcome(state, model_weights(tmp_path / "m.npz", "azul")[0])
    assert margin[:2] == pytest.approx(predicted_margin, rel=1e-12, abs=1e-9)
    assert payoff[:2] == pytest.approx(chances / chances.sum(), rel=1e-12)
    # Without its units the same file's linear part alone: the units count.
    linear = ValueModel("azul", model.margin_weights, model.win_weights, FEATURE_NAMES, [2])
    linear.save(tmp_path / "linear.npz")
    _, linear_margin = cut_outcome(state, model_weights(tmp_path / "linear.npz", "azul")[0])
    assert not np.allclose(linear_margin[:2], margin[:2])


# ---- the model file ---------------------------------------------------------------------


def test_hidden_units_round_trip_in_the_file_and_its_hash(tmp_path):
    model = hidden_model()
    model.save(tmp_path / "m.npz")
    loaded = load_model(tmp_path / "m.npz", game="azul")
    assert loaded.hidden == 3
    for name in ("hidden_weights", "hidden_margin", "hidden_win"):
        assert np.array_equal(getattr(loaded, name), getattr(model, name))
    assert (
        loaded.hash
        == model.hash
        == weights_hash(
            model.margin_weights, model.win_weights, None, (model.hidden_weights, model.hidden_margin, model.hidden_win)
        )
    )
    assert loaded.hash != weights_hash(model.margin_weights, model.win_weights)
    assert json.loads(str(np.load(tmp_path / "m.npz")["meta"]))["hidden"] == 3
    assert not has_policy(model_weights(tmp_path / "m.npz", "azul")[0])


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda a: {**a, "hidden_win": a["hidden_win"] * 2}, "damaged: its weights do not match"),
        (lambda a: {k: v for k, v in a.items() if k != "hidden_win"}, "hidden units without hidden_win"),
        (lambda a: {**a, "hidden_margin": a["hidden_margin"][:2]}, "hidden units of other shapes"),
    ],
)
def test_bad_hidden_units_are_named_in_one_line(tmp_path, change, message):
    model = hidden_model()
    model.save(tmp_path / "m.npz")
    arrays = change(dict(np.load(tmp_path / "m.npz")))
    if "damaged" not in message:  # a consistent hash: the shape check must speak
        hidden = tuple(arrays.get(name) for name in ("hidden_weights", "hidden_margin", "hidden_win"))
        if all(array is not None for array in hidden):
            arrays["hash"] = np.array(weights_hash(arrays["margin_weights"], arrays["win_weights"], None, hidden))
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ModelError, match=message) as caught:
        load_model(tmp_path / "bad.npz")
    assert "\n" not in str(caught.value)


# ---- the fit ----------------------------------------------------------------------------


def interaction_data(rows=6000, seed=0):
    """Rows of (constant, a, b) whose margin is 4 |a| - b and whose win share is the
    logistic of 2 |a| - 1: |a| is what a linear model cannot see."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 1, rows), rng.normal(0, 1, rows)
    x = np.column_stack([np.ones(rows), a, b])
    return x, 4 * np.abs(a) - b, fit.sigmoid(2 * np.abs(a) - 1), np.arange(rows) // 10


def test_hidden_units_learn_what_the_linear_fit_cannot():
    x, margin, win, games = interaction_data()
    test_x, test_margin, test_win, _ = interaction_data(seed=1)
    linear = fit.fit(x, margin, win, 1.0)
    hidden = fit.fit_hidden(x, margin, win, games, 8, 1.0, seed=3)
    linear_figures = fit.figures(*linear.predict(test_x), test_margin, test_win)
    hidden_figures = fit.figures(*hidden.predict(test_x), test_margin, test_win)
    assert linear_figures["margin_mse"] > 3.0  # the variance of 4|a| is 16(1 - 2/pi)
    assert hidden_figures["margin_mse"] < 0.1 * linear_figures["margin_mse"]
    assert hidden_figures["win_log_loss"] < linear_figures["win_log_loss"] - 0.02


def test_the_fit_follows_its_seed():
    x, margin, win, games = interaction_data(rows=1000)
    first = fit.fit_hidden(x, margin, win, games, 4, 1.0, seed=7)
    again = fit.fit_hidden(x, margin, win, games, 4, 1.0, seed=7)
    other = fit.fit_hidden(x, margin, win, games, 4, 1.0, seed=8)
    assert np.array_equal(first.hidden, again.hidden) and np.array_equal(first.win, again.win)
    assert not np.array_equal(first.hidden, other.hidden)


# ---- tessera train ----------------------------------------------------------------------


@pytest.mark.long  # tessera selfplay, then train
def test_train_with_hidden_units_writes_them_and_their_figures(tiny_run, tmp_path):  # noqa: F811
    out = tmp_path / "hidden.npz"
    done = run_tessera(
        "train", "azul", tiny_run, "--out", out, "--seed", 2, "--validation", 0.34, "--hidden", 4, "--json"
    )
    assert done.returncode == 0, done.stderr
    model = load_model(out, game="azul")
    assert model.hidden == 4 and model.hidden_weights.shape == (4, N_VALUE_FEATURES)
    assert model.settings["hidden"] == 4 and "--hidden 4" in model.settings["command"]
    report = json.loads(done.stdout)
    assert report["hash"] == model.hash and report["validation"] == model.validation
    # The figures are the saved model's own on the validation games.
    data = dataset.load_runs("azul", [tiny_run])
    _, held = data.split(0.34, 2)
    assert model.validation["model"] == pytest.approx(fit.figures(*model.predict(held.features), held.margin, held.win))
