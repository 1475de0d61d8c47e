"""Players' views of Azure positions, and their determinizations (docs/azure.md).

A view (``W_VIEW`` = the observer) is the complete state with the opponent's hand
words holding only the cards the observer can name (``P_KNOWN``) and the hidden
deck's colour words ``HIDDEN``; hand and deck sizes stay exact. Everything else is
public: the realm, the stones, the face-up decks, the beasts, the scores.
"""

from tessera.kernels.arrays import copy_into
from tessera.kernels.azure.layout import (
    CARDS_PER_COLOUR,
    HIDDEN,
    NCOLOURS,
    NOBODY,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    W_DECK,
    W_FACEUP,
    W_VIEW,
)
from tessera.kernels.azure.state import player_base
from tessera.kernels.jit import njit
from tessera.kernels.rng import below


@njit(cache=True)
def view(state, observer, out):
    """What ``observer`` knows of the complete ``state``, written into ``out``."""
    copy_into(out, state)
    out[W_VIEW] = observer
    base = player_base(1 - observer)
    for c in range(NCOLOURS):
        out[base + P_HAND + c] = state[base + P_KNOWN + c]
        out[W_DECK + c] = HIDDEN


@njit(cache=True)
def is_complete(state):
    return state[W_VIEW] == NOBODY


@njit(cache=True)
def unseen_cards(state, observer, c):
    """Cards of colour ``c`` the observer cannot place: the opponent's unknown ones and the deck's."""
    mine = player_base(observer)
    theirs = player_base(1 - observer)
    return CARDS_PER_COLOUR - state[W_FACEUP + c] - state[mine + P_HAND + c] - state[theirs + P_KNOWN + c]


@njit(cache=True)
def determinize(state, observer, rng, out):
    """A complete state consistent with the view ``state`` (of ``observer``), into ``out``.

    The opponent's unknown cards are dealt uniformly from the unseen cards (12 per
    colour less the face-up decks, the observer's hand and the opponent's known
    cards), as a shuffle would; the rest form the hidden deck. A complete state is
    copied.
    """
    copy_into(out, state)
    if state[W_VIEW] == NOBODY:
        return
    observer = state[W_VIEW]
    theirs = player_base(1 - observer)
    total = 0
    unknown = state[theirs + P_HAND_SIZE]
    for c in range(NCOLOURS):
        k = unseen_cards(state, observer, c)
        out[W_DECK + c] = k  # the deck, before the opponent's share is taken
        out[theirs + P_HAND + c] = state[theirs + P_KNOWN + c]
        total += k
        unknown -= state[theirs + P_KNOWN + c]
    for _ in range(unknown):
        k = below(rng, total)
        for c in range(NCOLOURS):
            k -= out[W_DECK + c]
            if k < 0:
                out[W_DECK + c] -= 1
                out[theirs + P_HAND + c] += 1
                break
        total -= 1
    out[W_VIEW] = NOBODY
