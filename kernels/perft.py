"""Perft: count move paths of a given depth from a position.

A template (``tessera.kernels.bind``): each game runs its own instance, ``bind.instance(game,
"perft")``, where ``games`` is that game's interface.

A path ends early where chance acts (a refill) or the game is over: such a
position counts as one leaf whatever depth is left. Perft measures move
generation, not the bag.
"""

import numpy as np

from tessera.kernels.arrays import copy_into
from tessera.kernels.bind import kernel, template_games
from tessera.kernels.constants import CHANCE, TERMINAL

games = template_games(__name__)


@kernel
def _stacks(state, depth):
    """Per-ply scratch: one position and one move list per remaining depth."""
    states = np.empty((depth + 1, state.size), np.int64)
    copy_into(states[depth], state)
    return states, np.empty((depth + 1, games.MAX_MOVES), np.int64)


@kernel
def perft(state, depth):
    states, moves = _stacks(state, depth)
    return _perft(states, moves, depth)


@kernel
def perft_divide(state, depth, counts):
    """Perft per root move: ``counts[i]`` for the i-th legal move; returns the move count.

    Only a player's moves are divided: at depth 0, a chance step or the end of the
    game there is nothing to divide, and the count is 0.
    """
    who = games.to_move(state)
    if depth < 1 or who == CHANCE or who == TERMINAL:
        return 0
    states, moves = _stacks(state, depth)
    n = games.legal_moves(state, moves[depth])
    for i in range(n):
        copy_into(states[depth - 1], state)
        games.apply_move(states[depth - 1], moves[depth, i])
        counts[i] = _perft(states, moves, depth - 1)
    return n


@kernel
def _perft(states, moves, depth):
    state = states[depth]
    who = games.to_move(state)
    if depth == 0 or who == CHANCE or who == TERMINAL:
        return 1
    n = games.legal_moves(state, moves[depth])
    if depth == 1:
        return n
    nodes = 0
    for i in range(n):
        copy_into(states[depth - 1], state)
        games.apply_move(states[depth - 1], moves[depth, i])
        nodes += _perft(states, moves, depth - 1)
    return nodes
