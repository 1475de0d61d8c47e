"""A game's own ``move_heuristics`` (MCTS's priors and greedy rollouts call it once a
position) gives each move exactly its ``move_heuristic``, on every position of seeded
random games of every variant of the games that have one."""

import numpy as np
import pytest

from tessera.kernels import bind, games
from tests.random_games import VARIANTS, random_game, variant_id

SCORING_TOGETHER = [v for v in VARIANTS if hasattr(bind.interface(v[0]), "move_heuristics")]


def test_the_games_that_share_work_between_moves_score_them_together():
    assert {game for game, _ in SCORING_TOGETHER} == {"azul", "pavilion", "azure"}


@pytest.mark.parametrize("variant", SCORING_TOGETHER, ids=variant_id)
def test_scoring_together_gives_each_move_its_own_heuristic(variant):
    game, options = variant
    rules = bind.interface(game)
    moves = np.empty(games.MAX_MOVES, np.int64)
    out = np.full(games.MAX_MOVES, np.nan)
    positions = 0
    for seed in range(6):
        for state in random_game(game, options, seed):
            if games.to_move(state) < 0:
                continue  # chance or the end
            n = rules.legal_moves(state, moves)
            rules.move_heuristics(state, moves, n, out)
            assert out[:n].tolist() == [rules.move_heuristic(state, move) for move in moves[:n]]
            positions += 1
    assert positions > 100
