"""Hidden high card: the rules, on complete states (every dealt card known).

Only ``to_move``, ``players`` and the acting player's own ``legal_moves`` also
read a player's view; everything else needs a determinization first.
"""

import numpy as np

from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.jit import njit
from tessera.kernels.rng import below
from tessera.kernels.toy.layout import (
    BET,
    CALL,
    DEAL_BASE,
    GAME_ID,
    NO_CARD,
    PASS,
    PHASE_BET,
    PHASE_DEAL,
    PHASE_OVER,
    PHASE_REPLY,
    PLAYERS,
    RAISE,
    STATE_SIZE,
    W_CARDS,
    W_GAME,
    W_HAND,
    W_PHASE,
    W_REPLY,
    W_SCORE,
    W_STAKE,
)


@njit(cache=True)
def new_game(cards, reply):
    """Before the deal: ``cards`` cards (2..MAX_CARDS); ``reply`` lets player 2 answer a bet."""
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    state[W_CARDS] = cards
    state[W_REPLY] = 1 if reply else 0
    state[W_PHASE] = PHASE_DEAL
    return state


@njit(cache=True)
def to_move(state):
    phase = state[W_PHASE]
    if phase == PHASE_DEAL:
        return CHANCE
    if phase == PHASE_BET:
        return 0
    if phase == PHASE_REPLY:
        return 1
    return TERMINAL


@njit(cache=True)
def players(state):
    return PLAYERS


@njit(cache=True)
def can_raise(state):
    """Player 2 may raise only holding a card in the upper half."""
    return state[W_HAND + 1] > state[W_CARDS] // 2


@njit(cache=True)
def legal_moves(state, moves):
    """The moves of whoever acts (a player, or chance) into ``moves``; the count."""
    phase = state[W_PHASE]
    if phase == PHASE_BET:
        moves[0] = PASS
        moves[1] = BET
        return 2
    if phase == PHASE_REPLY:
        moves[0] = CALL
        if can_raise(state):
            moves[1] = RAISE
            return 2
        return 1
    if phase == PHASE_DEAL:
        return undealt_cards(state, moves, DEAL_BASE)
    return 0


@njit(cache=True)
def undealt_cards(state, out, offset):
    """``offset + c`` for every card ``c`` in no hand, ascending; the count."""
    n = 0
    for card in range(1, state[W_CARDS] + 1):
        if state[W_HAND] != card and state[W_HAND + 1] != card:
            out[n] = offset + card
            n += 1
    return n


@njit(cache=True)
def chance_outcomes(state, moves, probs):
    """The deal of the next card: every undealt card alike; 0 when a player acts."""
    if state[W_PHASE] != PHASE_DEAL:
        return 0
    n = undealt_cards(state, moves, DEAL_BASE)
    for i in range(n):
        probs[i] = 1.0 / n
    return n


@njit(cache=True)
def sample_chance(state, rng):
    """One undealt card, uniformly, as a deal move."""
    k = below(rng, state[W_CARDS] - dealt(state))
    for card in range(1, state[W_CARDS] + 1):
        if state[W_HAND] != card and state[W_HAND + 1] != card:
            if k == 0:
                return DEAL_BASE + card
            k -= 1
    return -1


@njit(cache=True)
def dealt(state):
    n = 0
    for p in range(PLAYERS):
        if state[W_HAND + p] != NO_CARD:
            n += 1
    return n


@njit(cache=True)
def resolve_chance(state, rng):
    while state[W_PHASE] == PHASE_DEAL:
        apply_move(state, sample_chance(state, rng))


@njit(cache=True)
def random_move(state, rng, moves):
    return moves[below(rng, legal_moves(state, moves))]


@njit(cache=True)
def apply_move(state, move):
    if move >= DEAL_BASE:
        seat = 0 if state[W_HAND] == NO_CARD else 1
        state[W_HAND + seat] = move - DEAL_BASE
        if seat == 1:
            state[W_PHASE] = PHASE_BET
    elif move == PASS:
        state[W_PHASE] = PHASE_OVER
    elif move == BET:
        state[W_STAKE] = 1
        if state[W_REPLY]:
            state[W_PHASE] = PHASE_REPLY
        else:
            showdown(state)
    elif move == RAISE:
        state[W_STAKE] = 2
        showdown(state)
    else:
        showdown(state)


@njit(cache=True)
def showdown(state):
    """The higher card scores the stake."""
    winner = 0 if state[W_HAND] > state[W_HAND + 1] else 1
    state[W_SCORE + winner] = state[W_STAKE]
    state[W_PHASE] = PHASE_OVER


@njit(cache=True)
def scores(state, out):
    for p in range(PLAYERS):
        out[p] = state[W_SCORE + p]


@njit(cache=True)
def payoffs(state, out):
    """1 to the higher score; a pass (0 to 0) is a draw, 0.5 each."""
    a = state[W_SCORE]
    b = state[W_SCORE + 1]
    out[0] = 1.0 if a > b else (0.5 if a == b else 0.0)
    out[1] = 1.0 - out[0]


@njit(cache=True)
def evaluate(state, out):
    """The points won so far: nothing is won before the end."""
    scores(state, out)


@njit(cache=True)
def move_heuristic(state, move):
    """Bets and raises are worth how far the mover's card is above the middle card."""
    if move == BET or move == RAISE:
        card = state[W_HAND + to_move(state)]
        return card - (state[W_CARDS] + 1) / 2.0
    return 0.0
