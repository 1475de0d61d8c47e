"""The exact check (tessera.strength.exact, bench/exact_check.py): its positions end the
game this round, and its losses add up."""

import numpy as np
import pytest

from tessera.kernels import bind
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import make_rng
from tessera.position import Position
from tessera.strength.exact import check, game_must_end, select_positions


@pytest.fixture(scope="module")
def positions():
    chosen, _ = select_positions(3, seed=0, max_tiles=10)
    return chosen


def test_the_positions_are_in_the_last_round_whatever_is_played(positions):
    assert [p["kind"] for p in positions] == ["random", "random", "greedy"]
    rules = bind.interface(positions[0]["state"][0])
    moves = np.empty(rules.MAX_MOVES, np.int64)
    for position in positions:
        assert game_must_end(position["state"])
        for playout in range(20):  # random play to the end of the round: it ends the game
            state, rng = position["state"].copy(), make_rng(playout)
            while rules.to_move(state) not in (CHANCE, TERMINAL):
                rules.apply_move(state, rules.random_move(state, rng, moves))
            assert rules.to_move(state) == TERMINAL
    assert not game_must_end(Position.new("azul", seed=1).state)


def test_the_chosen_move_is_legal_and_its_loss_is_measured_from_the_best(positions):
    for position in positions:
        row = check(position, iterations=300)
        legal = Position.parse(row["position"]).legal_moves
        assert row["chosen"] in legal and sorted(row["margins"]) == sorted(legal)
        best = max(row["margins"].values())
        assert row["best_margin"] == best
        assert row["best_moves"] == [move for move, margin in row["margins"].items() if margin == best]
        assert row["loss"] == best - row["margins"][row["chosen"]] >= 0
