"""Azul for learning programs: stable integer action ids and an observation vector
(docs/rl.md lists every entry).

Action ids are the engine's player move codes (``tessera.kernels.azul.layout``), the same for
every player count and wall: a draft ``source * 30 + colour * 6 + destination``
(source 0-8 a factory, 9 the centre; destination 0-4 a pattern line, 5 the floor)
and, on the gray wall, ``300 + column``. ``NUM_ACTIONS`` ids in all; a game with fewer
factories never uses the ids of the missing ones.

The observation is a float32 vector of ``observation_size(players)`` numbers, written
from one player's side (the observer first, then the others in seat order after it):
counts as plain numbers, walls and flags as 0/1.
"""

from tessera.kernels.azul.layout import (
    MARKER_BIT,
    NCOLOURS,
    P_FLOOR,
    P_LINES,
    P_SCORE,
    P_WALL,
    PHASE_DRAFT,
    PHASE_TILING,
    PLAYER_BASE,
    PLAYER_WORDS,
    TILE_MOVE_BASE,
    VARIANT_GRAY,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_LID,
    W_PHASE,
    W_PLAYERS,
    W_ROUND,
    W_STALLED,
    W_TO_MOVE,
    W_VARIANT,
    factories_for,
)
from tessera.kernels.azul.tiles import total
from tessera.kernels.bits import popcount
from tessera.kernels.common import write_counts
from tessera.kernels.jit import njit

NUM_ACTIONS = TILE_MOVE_BASE + 5
HIDDEN = False  # every player sees everything: observations need no view
MOVES_ARE_ACTIONS = True  # an action id is the engine's move code

# Global entries, in order.
G_ROUND = 0
G_DRAFT = 1  # 1 in the drafting phase
G_TILING = 2  # 1 while a gray-wall player chooses a column
G_GRAY = 3  # 1 on the gray wall
G_STALLED = 4  # rounds in a row without a tile reaching a wall
G_TO_MOVE = 5  # G_TO_MOVE + k: 1 if the k-th player from the observer acts
# then per factory 5 colour counts; the centre's 5 counts and its marker; the bag's and the lid's counts
# Per player, from the observer on:
PL_SCORE = 0
PL_WALL = 1  # PL_WALL + 25 * colour + 5 * row + column: 1 where that colour lies
PL_LINES = PL_WALL + 25 * NCOLOURS  # PL_LINES + 5 * line + colour: the tiles on that line
PL_FLOOR = PL_LINES + 25  # tiles on the floor
PL_MARKER = PL_FLOOR + 1  # 1 if the first-player marker is on the floor
PLAYER_SIZE = PL_MARKER + 1


def global_size(players):
    return G_TO_MOVE + players + NCOLOURS * factories_for(players) + NCOLOURS + 1 + 2 * NCOLOURS


def observation_size(players):
    return global_size(players) + players * PLAYER_SIZE


@njit(cache=True, inline="always")
def action_of_move(state, move):
    return move


@njit(cache=True, inline="always")
def move_of_action(state, action):
    return action


@njit(cache=True)
def observe(state, observer, out):
    """Write what ``observer`` (a player index) sees into ``out`` (all of Azul is public)."""
    players = state[W_PLAYERS]
    nfactories = 2 * players + 1
    for i in range(out.shape[0]):
        out[i] = 0.0
    out[G_ROUND] = state[W_ROUND]
    out[G_DRAFT] = state[W_PHASE] == PHASE_DRAFT
    out[G_TILING] = state[W_PHASE] == PHASE_TILING
    out[G_GRAY] = state[W_VARIANT] == VARIANT_GRAY
    out[G_STALLED] = state[W_STALLED]
    if state[W_PHASE] == PHASE_DRAFT or state[W_PHASE] == PHASE_TILING:
        out[G_TO_MOVE + (state[W_TO_MOVE] - observer) % players] = 1.0
    at = G_TO_MOVE + players
    for f in range(nfactories):
        write_counts(state[W_FACTORY + f], NCOLOURS, out, at)
        at += NCOLOURS
    write_counts(state[W_CENTRE], NCOLOURS, out, at)
    out[at + NCOLOURS] = (state[W_CENTRE] & MARKER_BIT) != 0
    at += NCOLOURS + 1
    write_counts(state[W_BAG], NCOLOURS, out, at)
    write_counts(state[W_LID], NCOLOURS, out, at + NCOLOURS)
    at += 2 * NCOLOURS
    for k in range(players):
        base = PLAYER_BASE + ((observer + k) % players) * PLAYER_WORDS
        out[at + PL_SCORE] = state[base + P_SCORE]
        # two colours' 25 flags to a word, so fewer loops end at an unpredictable count
        for c in range(0, NCOLOURS, 2):
            wall = state[base + P_WALL + c]
            if c + 1 < NCOLOURS:
                wall |= state[base + P_WALL + c + 1] << 25
            while wall:
                low = wall & -wall
                out[at + PL_WALL + 25 * c + popcount(low - 1)] = 1.0
                wall ^= low
        lines = state[base + P_LINES]
        for line in range(5):
            count = (lines >> (8 * line)) & 0xF
            if count:
                out[at + PL_LINES + 5 * line + ((lines >> (8 * line + 4)) & 0x7)] = count
        floor = state[base + P_FLOOR]
        out[at + PL_FLOOR] = total(floor)
        out[at + PL_MARKER] = (floor & MARKER_BIT) != 0
        at += PLAYER_SIZE
