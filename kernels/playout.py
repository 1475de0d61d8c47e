"""Random playouts: whole games with uniform moves and chance drawn by probability."""
import numpy as np
from numba import njit, prange

from kernels import games
from kernels.constants import CHANCE, TERMINAL
from kernels.rng import below, make_rng


@njit(cache=True)
def random_playout(state, rng, moves, probs):
    """Play ``state`` to the end in place; return the number of player moves made."""
    made = 0
    while True:
        who = games.to_move(state)
        if who == TERMINAL:
            return made
        if who == CHANCE:
            move = games.sample_chance(state, rng, moves, probs)
        else:
            move = moves[below(rng, games.legal_moves(state, moves))]
            made += 1
        games.apply_move(state, move)


@njit(cache=True)
def resolve_chance(state, rng):
    """Sample chance moves until a player (or nobody) acts."""
    moves = np.empty(games.MAX_MOVES, np.int64)
    probs = np.empty(games.MAX_MOVES, np.float64)
    while games.to_move(state) == CHANCE:
        games.apply_move(state, games.sample_chance(state, rng, moves, probs))


@njit(cache=True)
def playouts(start, seed, n_games, final_scores):
    """Play ``n_games`` random games from ``start`` on one thread; game ``i`` uses seed ``(seed, i)``.

    Writes each game's scores into ``final_scores[i]``; returns the total player moves.
    """
    moves = np.empty(games.MAX_MOVES, np.int64)
    probs = np.empty(games.MAX_MOVES, np.float64)
    state = np.empty_like(start)
    total = 0
    for i in range(n_games):
        state[:] = start
        rng = make_rng(seed * 1000003 + i)
        total += random_playout(state, rng, moves, probs)
        games.scores(state, final_scores[i])
    return total


@njit(cache=True, parallel=True)
def playouts_parallel(start, seed, n_games, final_scores, made):
    """As ``playouts``, spread over threads; game ``i`` gives the same result as there."""
    for i in prange(n_games):
        moves = np.empty(games.MAX_MOVES, np.int64)
        probs = np.empty(games.MAX_MOVES, np.float64)
        state = start.copy()
        rng = make_rng(seed * 1000003 + i)
        made[i] = random_playout(state, rng, moves, probs)
        games.scores(state, final_scores[i])
