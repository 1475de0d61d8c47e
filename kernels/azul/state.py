"""Creating positions and reading who acts, scores and the result."""

import numpy as np

from tessera.kernels.azul.layout import (
    GAME_ID,
    MARKER_BIT,
    NCOLOURS,
    P_SCORE,
    PHASE_OVER,
    PHASE_REFILL,
    STATE_SIZE,
    TILES_PER_COLOUR,
    W_BAG,
    W_CENTRE,
    W_GAME,
    W_PHASE,
    W_PLAYERS,
    W_ROUND,
    W_STARTER,
    W_TO_MOVE,
    W_VARIANT,
)
from tessera.kernels.azul.moves import player_base
from tessera.kernels.azul.tiles import one_of
from tessera.kernels.azul.wall import complete_rows, occupancy
from tessera.kernels.common import share_win
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.jit import njit

RANK_PER_POINT = 6  # a point of score outranks any number of complete rows (0 to 5)


@njit(cache=True)
def new_game(players, variant):
    """Round 1 before the first refill: all tiles in the bag, player 1 to start."""
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    state[W_PLAYERS] = players
    state[W_VARIANT] = variant
    state[W_PHASE] = PHASE_REFILL
    state[W_ROUND] = 1
    state[W_STARTER] = 0
    state[W_TO_MOVE] = 0
    state[W_CENTRE] = MARKER_BIT
    for c in range(NCOLOURS):
        state[W_BAG] += TILES_PER_COLOUR * one_of(c)
    return state


@njit(cache=True)
def to_move(state):
    """The player to act, ``CHANCE`` during a refill, or ``TERMINAL`` when the game is over."""
    phase = state[W_PHASE]
    if phase == PHASE_REFILL:
        return CHANCE
    if phase == PHASE_OVER:
        return TERMINAL
    return state[W_TO_MOVE]


@njit(cache=True)
def players(state):
    return state[W_PLAYERS]


@njit(cache=True)
def scores(state, out):
    for p in range(state[W_PLAYERS]):
        out[p] = state[player_base(state, p) + P_SCORE]


@njit(cache=True)
def payoffs(state, out):
    """Winners share 1: highest score, then more complete rows; a remaining tie is shared."""
    rank = np.empty(state[W_PLAYERS], np.int64)
    for p in range(rank.shape[0]):
        base = player_base(state, p)
        rank[p] = state[base + P_SCORE] * RANK_PER_POINT + complete_rows(occupancy(state, base))
    share_win(rank, out)
