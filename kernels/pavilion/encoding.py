"""Summer Pavilion for learning programs: stable integer action ids and an observation
vector (docs/rl.md lists every entry).

Action ids, the same for every player count (``NUM_ACTIONS`` in all):
- ``0 .. 69`` a draft: its move code, ``source * 7 + colour`` (source 0-8 a factory, 9 the
  centre; colour 6 the lone wild tile of an all-wild source);
- ``PLACE_ACTION + (space * 6 + colour) * 6 + wild tiles paid`` a placement (space
  ``6 * star + number - 1``, star 6 the centre star), ``PASS_ACTION`` the pass;
- ``TAKE_ACTION + k`` and ``KEEP_ACTION + k`` the bonus tiles taken and the tiles kept
  when passing, ``k`` the index in ``CHOICES`` of their counts per colour (every count
  vector of at most ``CHOICE_MOST`` tiles, fewer tiles first, then colour 0's count
  fastest, as an odometer).

The observation is a float32 vector of ``observation_size(players)`` numbers from one
player's side (the observer first, then the others in seat order after it): counts as
plain numbers, spaces and flags as 0/1.
"""

import numpy as np

from tessera.kernels.common import write_counts
from tessera.kernels.jit import njit
from tessera.kernels.pavilion.layout import (
    CHOICE_BITS,
    DRAFT_COLOURS,
    FACTORIES_BY_PLAYERS,
    KEEP_AT_MOST,
    KEEP_BASE,
    MAX_FACTORIES,
    MAX_REWARD,
    NCOLOURS,
    NSPACES,
    P_CENTRE_COLOURS,
    P_HAND,
    P_KEPT,
    P_SCORE,
    P_SPACES,
    PASS_MOVE,
    PHASE_BONUS,
    PHASE_DRAFT,
    PHASE_KEEP,
    PHASE_PLACE,
    PLACE_BASE,
    PLAYER_BASE,
    PLAYER_WORDS,
    STAR_SPACES,
    TAKE_BASE,
    TOKEN_IN_CENTRE,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_PASSED,
    W_PHASE,
    W_PLAYERS,
    W_REWARD,
    W_ROUND,
    W_SUPPLY,
    W_TO_MOVE,
    W_TOKEN,
    W_TOWER,
    WILD_BY_ROUND,
    factories_for,
)

HIDDEN = False  # every player sees everything: observations need no view
MOVES_ARE_ACTIONS = False  # action ids are not the engine's move codes
CHOICE_MOST = max(KEEP_AT_MOST, MAX_REWARD)


def _choices():
    """Every count vector of at most ``CHOICE_MOST`` tiles as a choice code, in id order."""
    found = []
    for size in range(CHOICE_MOST + 1):

        def grow(colour, left, code):
            if colour == NCOLOURS:
                if left == 0:
                    found.append(code)
                return
            for n in range(left + 1):
                grow(colour + 1, left - n, code + (n << (CHOICE_BITS * colour)))

        grow(0, size, 0)
    return np.array(
        sorted(found, key=lambda code: (sum((code >> (CHOICE_BITS * c)) & 7 for c in range(NCOLOURS)), code)), np.int64
    )


CHOICES = _choices()
PLACE_ACTION = (MAX_FACTORIES + 1) * DRAFT_COLOURS
PASS_ACTION = PLACE_ACTION + NSPACES * NCOLOURS * STAR_SPACES
TAKE_ACTION = PASS_ACTION + 1
KEEP_ACTION = TAKE_ACTION + len(CHOICES)
NUM_ACTIONS = KEEP_ACTION + len(CHOICES)

# Global entries, in order.
G_ROUND = 0
G_PHASE = 1  # G_PHASE + k: 1 in drafting, placing, choosing a bonus, keeping (k = 0..3)
G_WILD = 5  # G_WILD + colour: 1 for this round's wild colour
G_REWARD = G_WILD + NCOLOURS  # tiles a bonus lets the player take now
G_TOKEN_IN_CENTRE = G_REWARD + 1  # 1 while the start-player token is in the centre
G_TO_MOVE = G_TOKEN_IN_CENTRE + 1  # G_TO_MOVE + k: 1 if the k-th player from the observer acts
# then per factory 6 colour counts; the centre's, the supply's, the bag's and the tower's counts
# Per player, from the observer on:
PL_SCORE = 0
PL_SPACES = 1  # PL_SPACES + 6 * star + number - 1: 1 where a tile covers that space
PL_CENTRE_COLOURS = PL_SPACES + NSPACES  # + colour: 1 if that colour is on the centre star
PL_HAND = PL_CENTRE_COLOURS + NCOLOURS  # + colour: tiles beside the board
PL_KEPT = PL_HAND + NCOLOURS  # + colour: tiles kept for the next round
PL_PASSED = PL_KEPT + NCOLOURS  # 1 if the player has passed this round
PL_TOKEN = PL_PASSED + 1  # 1 if the player holds the start-player token
PLAYER_SIZE = PL_TOKEN + 1


def global_size(players):
    return G_TO_MOVE + players + NCOLOURS * (factories_for(players) + 4)


def observation_size(players):
    return global_size(players) + players * PLAYER_SIZE


@njit(cache=True)
def _choice_index(choice):
    for k in range(CHOICES.shape[0]):
        if CHOICES[k] == choice:
            return k
    return -1


@njit(cache=True)
def action_of_move(state, move):
    if move < PLACE_BASE:
        return move
    if move < PASS_MOVE:
        return PLACE_ACTION + move - PLACE_BASE
    if move == PASS_MOVE:
        return PASS_ACTION
    if move < KEEP_BASE:
        return TAKE_ACTION + _choice_index(move - TAKE_BASE)
    return KEEP_ACTION + _choice_index(move - KEEP_BASE)


@njit(cache=True)
def move_of_action(state, action):
    if action < PLACE_ACTION:
        return action
    if action < PASS_ACTION:
        return PLACE_BASE + action - PLACE_ACTION
    if action == PASS_ACTION:
        return PASS_MOVE
    if action < KEEP_ACTION:
        return TAKE_BASE + CHOICES[action - TAKE_ACTION]
    return KEEP_BASE + CHOICES[action - KEEP_ACTION]


@njit(cache=True)
def observe(state, observer, out):
    """Write what ``observer`` (a player index) sees into ``out`` (all of it is public)."""
    players = state[W_PLAYERS]
    for i in range(out.shape[0]):
        out[i] = 0.0
    phase = state[W_PHASE]
    out[G_ROUND] = state[W_ROUND]
    out[G_PHASE] = phase == PHASE_DRAFT
    out[G_PHASE + 1] = phase == PHASE_PLACE
    out[G_PHASE + 2] = phase == PHASE_BONUS
    out[G_PHASE + 3] = phase == PHASE_KEEP
    if 1 <= state[W_ROUND] <= WILD_BY_ROUND.shape[0]:
        out[G_WILD + WILD_BY_ROUND[state[W_ROUND] - 1]] = 1.0
    if phase == PHASE_BONUS:
        out[G_REWARD] = state[W_REWARD]
    out[G_TOKEN_IN_CENTRE] = state[W_TOKEN] == TOKEN_IN_CENTRE
    if phase == PHASE_DRAFT or phase == PHASE_PLACE or phase == PHASE_BONUS or phase == PHASE_KEEP:
        out[G_TO_MOVE + (state[W_TO_MOVE] - observer) % players] = 1.0
    at = G_TO_MOVE + players
    for f in range(FACTORIES_BY_PLAYERS[players]):
        write_counts(state[W_FACTORY + f], NCOLOURS, out, at)
        at += NCOLOURS
    for word in (W_CENTRE, W_SUPPLY, W_BAG, W_TOWER):
        write_counts(state[word], NCOLOURS, out, at)
        at += NCOLOURS
    for k in range(players):
        player = (observer + k) % players
        base = PLAYER_BASE + player * PLAYER_WORDS
        out[at + PL_SCORE] = state[base + P_SCORE]
        spaces = state[base + P_SPACES]
        for s in range(NSPACES):
            if (spaces >> s) & 1:
                out[at + PL_SPACES + s] = 1.0
        for c in range(NCOLOURS):
            if (state[base + P_CENTRE_COLOURS] >> c) & 1:
                out[at + PL_CENTRE_COLOURS + c] = 1.0
        write_counts(state[base + P_HAND], NCOLOURS, out, at + PL_HAND)
        write_counts(state[base + P_KEPT], NCOLOURS, out, at + PL_KEPT)
        out[at + PL_PASSED] = (state[W_PASSED] >> player) & 1
        out[at + PL_TOKEN] = state[W_TOKEN] == player
        at += PLAYER_SIZE
