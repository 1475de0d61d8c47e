"""Greedy Summer Pavilion games between two weight sets of the evaluation: the duel the
weights were tuned by (bench/experiments/pavilion_tune.py), and a test checks."""

import numpy as np
from numba import njit

from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.pavilion import apply_move, legal_moves, new_game, sample_chance, scores, to_move
from tessera.kernels.pavilion.heuristic import move_heuristic_with
from tessera.kernels.pavilion.layout import MAX_MOVES
from tessera.kernels.rng import make_rng


@njit  # not cached: numba's cache would not notice edits to the heuristic it calls
def greedy_game(weights, seed):
    """One 2-player game, seat p moving to the legal move of highest
    ``move_heuristic_with(state, move, weights[p])`` (the first on a tie); the final scores."""
    state = new_game(2)
    rng = make_rng(seed)
    moves = np.empty(MAX_MOVES, np.int64)
    while True:
        who = to_move(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            apply_move(state, sample_chance(state, rng))
            continue
        n = legal_moves(state, moves)
        pick = moves[0]
        best = move_heuristic_with(state, pick, weights[who])
        for i in range(1, n):
            h = move_heuristic_with(state, moves[i], weights[who])
            if h > best:
                best = h
                pick = moves[i]
        apply_move(state, pick)
    out = np.zeros(2, np.int64)
    scores(state, out)
    return out


@njit  # not cached, as above
def duel(candidate, current, games, seed):
    """(the candidate's payoff sum, its total margin) over ``games`` deals (seeds ``seed``,
    ``seed + 1``, ...) played from both seats."""
    weights = np.empty((2, candidate.shape[0]), np.float64)
    won = 0.0
    margin = 0.0
    for i in range(games):
        for seat in range(2):
            weights[seat] = candidate
            weights[1 - seat] = current
            s = greedy_game(weights, seed + i)
            diff = s[seat] - s[1 - seat]
            won += 1.0 if diff > 0 else (0.5 if diff == 0 else 0.0)
            margin += diff
    return won, margin
