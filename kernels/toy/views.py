"""Hidden high card: players' views and their determinizations.

A player sees their own card; the other card stays hidden until the showdown
shows both (after a pass it is never shown). A view is the state with the
unseen card replaced by ``HIDDEN``; the deck (``W_CARDS``) and every move are
public, so the hidden card can be any card in no known hand.
"""

import numpy as np

from tessera.kernels.arrays import copy_into
from tessera.kernels.jit import njit
from tessera.kernels.rng import below
from tessera.kernels.toy.layout import HIDDEN, MAX_CARDS, NO_CARD, PHASE_OVER, PLAYERS, W_HAND, W_PHASE, W_STAKE
from tessera.kernels.toy.rules import undealt_cards


@njit(cache=True)
def view(state, observer, out):
    """What ``observer`` knows of the complete ``state``, written into ``out``."""
    copy_into(out, state)
    shown = state[W_PHASE] == PHASE_OVER and state[W_STAKE] > 0
    for p in range(PLAYERS):
        if p != observer and state[W_HAND + p] != NO_CARD and not shown:
            out[W_HAND + p] = HIDDEN


@njit(cache=True)
def is_complete(state):
    for p in range(PLAYERS):
        if state[W_HAND + p] == HIDDEN:
            return False
    return True


@njit(cache=True)
def determinize(state, observer, rng, out):
    """Deal every hidden card uniformly from the cards in no known hand.

    The view marks what is hidden, so the toy needs no ``observer``; no move
    tells anything about a card (a raise is followed by the showdown), so every
    such deal is as likely as any other.
    """
    copy_into(out, state)
    unseen = np.empty(MAX_CARDS, np.int64)
    n = undealt_cards(state, unseen, 0)
    for p in range(PLAYERS):
        if state[W_HAND + p] == HIDDEN:
            k = below(rng, n)
            out[W_HAND + p] = unseen[k]
            n -= 1
            unseen[k] = unseen[n]
