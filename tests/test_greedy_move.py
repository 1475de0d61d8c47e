"""A game's own ``best_heuristic_move`` (greedy rollouts ask it once a position) picks
what scoring each legal move with ``move_heuristic`` picks, the first of equals, on
every position of seeded random games of every variant of the games that have one."""
import numpy as np
import pytest

from kernels import bind, games
from tests.random_games import VARIANTS, random_game, variant_id

WITH_OWN_PICK = [v for v in VARIANTS if hasattr(bind.interface(v[0]), "best_heuristic_move")]


def test_the_games_that_share_work_between_moves_have_their_own_pick():
    assert {game for game, _ in WITH_OWN_PICK} == {"pavilion", "azure"}


@pytest.mark.parametrize("variant", WITH_OWN_PICK, ids=variant_id)
def test_the_own_pick_is_the_first_best_by_the_move_heuristic(variant):
    game, options = variant
    rules = bind.interface(game)
    moves = np.empty(games.MAX_MOVES, np.int64)
    positions = 0
    for seed in range(6):
        for state in random_game(game, options, seed):
            if games.to_move(state) < 0:
                continue                      # chance or the end
            n = rules.legal_moves(state, moves)
            values = [rules.move_heuristic(state, move) for move in moves[:n]]
            assert rules.best_heuristic_move(state, moves, n) == moves[int(np.argmax(values))]
            positions += 1
    assert positions > 100
