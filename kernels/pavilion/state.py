"""Creating positions and reading who acts, scores and the result."""

import numpy as np

from tessera.kernels.common import share_win
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.jit import njit
from tessera.kernels.pavilion.layout import (
    GAME_ID,
    NCOLOURS,
    P_SCORE,
    PHASE_OVER,
    PHASE_REFILL,
    SCORE_START,
    STATE_SIZE,
    TILES_PER_COLOUR,
    TOKEN_IN_CENTRE,
    W_BAG,
    W_GAME,
    W_PHASE,
    W_PLAYERS,
    W_ROUND,
    W_STARTER,
    W_TO_MOVE,
    W_TOKEN,
)
from tessera.kernels.pavilion.moves import is_chance_phase, player_base
from tessera.kernels.pavilion.tiles import one_of


@njit(cache=True)
def new_game(players):
    """Round 1 before the first refill: all tiles in the bag, player 1 to start."""
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    state[W_PLAYERS] = players
    state[W_PHASE] = PHASE_REFILL
    state[W_ROUND] = 1
    state[W_STARTER] = 0
    state[W_TO_MOVE] = 0
    state[W_TOKEN] = TOKEN_IN_CENTRE
    for c in range(NCOLOURS):
        state[W_BAG] += TILES_PER_COLOUR * one_of(c)
    for p in range(players):
        state[player_base(p) + P_SCORE] = SCORE_START
    return state


@njit(cache=True)
def to_move(state):
    """The player to act, ``CHANCE`` during a refill, or ``TERMINAL`` when the game is over."""
    phase = state[W_PHASE]
    if is_chance_phase(phase):
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
        out[p] = state[player_base(p) + P_SCORE]


@njit(cache=True)
def payoffs(state, out):
    """The highest scores share the win equally (a tie is a shared victory)."""
    rank = np.empty(state[W_PLAYERS], np.int64)
    scores(state, rank)
    share_win(rank, out)
