"""azure_evaluation.py: the logistic fit it ranks Azure's evaluation with, and its
positions (the winner's prediction from player 1's side).

    python -m pytest -n 0 bench/experiments
"""

import numpy as np
from azure_evaluation import FEATURES, fit_logistic, report, scores, self_play_positions


def test_the_fit_recovers_the_weights_of_a_logistic_model():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20_000, 2))
    truth = np.array([1.5, -0.5, 0.25])  # two weights and the bias
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-(x @ truth[:2] + truth[2])))).astype(float)
    w = fit_logistic(x, y)
    assert np.allclose(w, truth, atol=0.08)
    assert scores(x, y, w)["log_loss"] < scores(x, y, np.zeros(3))["log_loss"]


def test_positions_are_described_from_player_1s_side_and_split_by_seed():
    rows = self_play_positions(4, "greedy", seed=10)
    assert {r[4] for r in rows} == {10, 11, 12, 13}
    for features, _evaluation, stage, won, _ in rows:
        assert len(features) == len(FEATURES) and stage in (0, 1, 2) and won in (0.0, 1.0)
        assert features[FEATURES.index("to_move")] in (1, -1)
    out = report(rows)
    assert out["positions"]["train"] + out["positions"]["test"] == len(rows)
    for entry in out["predictors"].values():
        assert 0 <= entry["test"]["accuracy"] <= 1
