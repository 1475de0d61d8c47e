"""Random playouts: whole games with uniform moves and chance drawn by probability.

A template (``tessera.kernels.bind``): each game runs its own instance, ``bind.instance(game,
"playout")``, where ``games`` is that game's interface.
"""

import numpy as np
from numba import prange

from tessera.kernels.arrays import copy_into
from tessera.kernels.bind import kernel, template_games
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import STREAM_STRIDE, make_rng

games = template_games(__name__)


@kernel
def random_playout(state, rng, moves):
    """Play ``state`` to the end in place; return the number of player moves made."""
    made = 0
    while True:
        who = games.to_move(state)
        if who == TERMINAL:
            return made
        if who == CHANCE:
            games.resolve_chance(state, rng)
        else:
            games.apply_move(state, games.random_move(state, rng, moves))
            made += 1


@kernel
def playouts(start, seed, n_games, final_scores):
    """Play ``n_games`` random games from ``start`` on one thread; game ``i`` uses seed ``(seed, i)``.

    Writes each game's scores into ``final_scores[i]``; returns the total player moves.
    """
    moves = np.empty(games.MAX_MOVES, np.int64)
    state = np.empty_like(start)
    total = 0
    for i in range(n_games):
        copy_into(state, start)
        rng = make_rng(seed * STREAM_STRIDE + i)
        total += random_playout(state, rng, moves)
        games.scores(state, final_scores[i])
    return total


@kernel(parallel=True)
def playouts_parallel(start, seed, n_games, final_scores, made):
    """As ``playouts``, spread over threads; game ``i`` gives the same result as there."""
    for i in prange(n_games):
        moves = np.empty(games.MAX_MOVES, np.int64)
        state = start.copy()
        rng = make_rng(seed * STREAM_STRIDE + i)
        made[i] = random_playout(state, rng, moves)
        games.scores(state, final_scores[i])
