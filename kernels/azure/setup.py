"""A new Azure game: the realm laid, cards sorted, nothing drawn yet (plain Python).

The starting hands are chance: the state returned waits for the start player's two
draws, then the other player's three (``PHASE_DRAW``); ``tessera.kernels.games.resolve_chance``
with a seeded generator deals them.
"""

import random

import numpy as np

from tessera.kernels.azure.layout import (
    COSMOS_STONES,
    GAME_ID,
    GIFTED_NAMES,
    GIFTED_NONE,
    HAND_START,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_SUPPLY,
    PHASE_DRAW,
    PLAYERS,
    STATE_SIZE,
    STEP_SETUP,
    STONES,
    W_BIRD_LOSER,
    W_BLACK_STONE,
    W_DECK,
    W_DECK_SIZE,
    W_DRAW_FOR,
    W_DRAWS,
    W_FACEUP,
    W_GAME,
    W_HOLDER,
    W_PHASE,
    W_PLACED,
    W_STEP,
    W_TURN,
    W_VIEW,
    W_WINNER,
    player_word,
)
from tessera.kernels.azure.realm import deal_layout, start_cards, write_realm


def new_game(layout, gifted=GIFTED_NONE, boards=None):
    """The state before the starting hands are drawn, on ``layout`` with gifted card ``gifted``."""
    if gifted not in range(len(GIFTED_NAMES)):
        raise ValueError(f"gifted card must be 0..{len(GIFTED_NAMES) - 1}, not {gifted!r}")
    state = np.zeros(STATE_SIZE, np.int64)
    write_realm(state, layout, gifted, boards)
    state[W_GAME] = GAME_ID
    state[W_PHASE] = PHASE_DRAW
    state[W_STEP] = STEP_SETUP
    state[W_TURN] = 0
    state[W_DRAW_FOR] = 0
    state[W_DRAWS] = HAND_START[0]
    for word in (W_WINNER, W_VIEW, W_BIRD_LOSER, W_PLACED, W_BLACK_STONE):
        state[word] = NOBODY
    state[W_HOLDER : W_HOLDER + NCOLOURS] = NOBODY
    faceup, hidden = start_cards()
    state[W_FACEUP : W_FACEUP + NCOLOURS] = faceup
    state[W_DECK : W_DECK + NCOLOURS] = hidden
    state[W_DECK_SIZE] = sum(hidden)
    for p in range(PLAYERS):
        state[player_word(p, P_GIFTED)] = NOBODY
        state[player_word(p, P_SUPPLY)] = STONES + (COSMOS_STONES if layout.cosmos else 0)
    return state


def deal_new_game(seed, cosmos=False, gifted=GIFTED_NONE):
    """A layout dealt from ``seed`` (uniform over the distinct layouts) and its new game."""
    layout = deal_layout(random.Random(seed), cosmos)
    return new_game(layout, gifted)
