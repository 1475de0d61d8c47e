"""Who acts, scores and the result of an Azure position; the card and point primitives.

Cards move between three kinds of pile: a hand (``P_HAND``, with its known part
``P_KNOWN`` and its size ``P_HAND_SIZE``), the face-up decks (``W_FACEUP``) and the
hidden deck (``W_DECK``, its size ``W_DECK_SIZE``). Every move of cards goes through
the helpers here, so the known counts stay right (docs/azure.md, hidden information):
a card taken face up is known, a card drawn from the hidden deck is not, and a card
paid or returned is a known one of its colour while the hand has any.
"""

from tessera.kernels.azure.layout import (
    DECK_PER_COLOUR,
    NCOLOURS,
    NOBODY,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    P_SCORE,
    PHASE_BOON,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_RETURN,
    PHASE_RETURN_PAIR,
    PHASE_TAKE,
    PLAYER_BASE,
    PLAYER_WORDS,
    PLAYERS,
    W_BIRD_LOSER,
    W_DECK,
    W_DECK_SIZE,
    W_FACEUP,
    W_PHASE,
    W_TURN,
    W_WINNER,
    WIN_SCORE,
)
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.jit import njit


@njit(cache=True)
def player_base(player):
    return PLAYER_BASE + player * PLAYER_WORDS


@njit(cache=True)
def to_move(state):
    """The player to act, ``CHANCE`` while cards are drawn, ``TERMINAL`` once the game is over."""
    phase = state[W_PHASE]
    if phase == PHASE_PLACE or phase == PHASE_BOON or phase == PHASE_TAKE:
        return state[W_TURN]
    if phase == PHASE_DRAW:
        return CHANCE
    if phase == PHASE_RETURN:
        return 1 - state[W_TURN]
    if phase == PHASE_RETURN_PAIR:
        return state[W_BIRD_LOSER]
    return TERMINAL


@njit(cache=True)
def players(state):
    return PLAYERS


@njit(cache=True)
def scores(state, out):
    for p in range(PLAYERS):
        out[p] = state[player_base(p) + P_SCORE]


@njit(cache=True)
def payoffs(state, out):
    """1 to the winner, 0 to the loser (0.5 each before the end: there are no draws)."""
    winner = state[W_WINNER]
    for p in range(PLAYERS):
        out[p] = 0.5 if winner == NOBODY else (1.0 if p == winner else 0.0)


# ---- points --------------------------------------------------------------------------


@njit(cache=True)
def win(state, player):
    state[W_WINNER] = player
    state[W_PHASE] = PHASE_OVER


@njit(cache=True)
def gain_points(state, player, points):
    """Score ``points``; reaching 25 wins at once (returns True: nothing else happens)."""
    word = player_base(player) + P_SCORE
    score = state[word] + points
    if score >= WIN_SCORE:
        state[word] = WIN_SCORE
        win(state, player)
        return True
    state[word] = score
    return False


@njit(cache=True)
def lose_points(state, player, points):
    word = player_base(player) + P_SCORE
    state[word] = max(0, state[word] - points)


# ---- cards ---------------------------------------------------------------------------


@njit(cache=True)
def give_back(state, base, colour, k):
    """``k`` cards of ``colour`` from the hand at ``base`` to their face-up deck (known ones first)."""
    state[base + P_HAND + colour] -= k
    state[base + P_HAND_SIZE] -= k
    known = state[base + P_KNOWN + colour]
    state[base + P_KNOWN + colour] = known - min(known, k)
    state[W_FACEUP + colour] += k


@njit(cache=True)
def take_faceup(state, base, colour, k):
    """Up to ``k`` cards of ``colour`` from its face-up deck into the hand (known cards)."""
    k = min(k, state[W_FACEUP + colour])
    state[W_FACEUP + colour] -= k
    state[base + P_HAND + colour] += k
    state[base + P_KNOWN + colour] += k
    state[base + P_HAND_SIZE] += k


@njit(cache=True)
def deck_ran_out(state):
    """The hidden deck is empty: every hand is known, and a new deck is made of up to three
    cards of each colour from the face-up decks (nothing if they are empty too)."""
    for p in range(PLAYERS):
        base = player_base(p)
        for c in range(NCOLOURS):
            state[base + P_KNOWN + c] = state[base + P_HAND + c]
    size = 0
    for c in range(NCOLOURS):
        k = min(DECK_PER_COLOUR, state[W_FACEUP + c])
        state[W_FACEUP + c] -= k
        state[W_DECK + c] += k
        size += k
    state[W_DECK_SIZE] = size


@njit(cache=True)
def draw_card(state, player, colour):
    """The card ``colour`` from the hidden deck into ``player``'s hand (not known)."""
    base = player_base(player)
    state[W_DECK + colour] -= 1
    state[W_DECK_SIZE] -= 1
    state[base + P_HAND + colour] += 1
    state[base + P_HAND_SIZE] += 1
    if state[W_DECK_SIZE] == 0:
        deck_ran_out(state)
