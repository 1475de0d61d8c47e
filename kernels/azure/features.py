"""Hand features of an Azure position for a learned value (docs/learning.md).

``value_features(state, player, out)`` writes ``N_VALUE_FEATURES`` float64 values that
describe a complete position (a determinization: both hands are read) from ``player``'s
side. A value model is a weight vector over them, so the search evaluates it with this
kernel and the model's weights passed in as an array: ``players_value_features(state,
out)``, the same for both players at once, mirrors one side into the other.

Azure has no rounds: its chance (the hidden deck's draws) comes seldom and marks nothing.
Its boundary is the start of a turn (``starts_turn``: a player is to place a stone), and
round rollouts stop after ``ROUND_TURNS`` turns (docs/learning.md, "Azure's boundary").

Azure is a 2-player zero-sum race, so a quantity of the players enters only as the
player's less the opponent's (a player's own level would get no weight: the other
player's row has the same with the opposite label). The vector has two parts:

- ``PLAYER_FEATURE_NAMES``, differences of the players' quantities: score, cards, stones,
  bonds toward the open spaces, the open spaces they can place on now, whether they can
  place at all (a player who cannot loses), the points of wisdom within reach and the
  best of them, the gifted stone still to place, the colours held;
- quantities of the whole position: a constant 1, who places next, the Yellow Dragon's
  steps toward the player (Cosmos), the guard leads on the mountains weighted by what
  their beasts are worth, how far the game is (stones on the realm, the Tortoise's on
  the Black mountain included, over its spaces), the
  score and card differences times that, and each score's square share of the 25 that
  win (the race is not linear near its end).
"""

from numba.cpython.unsafe.numbers import trailing_zeros

from tessera.kernels.azure.beasts import guard_mask
from tessera.kernels.azure.bits import count
from tessera.kernels.azure.heuristic import BEAST_WORTH
from tessera.kernels.azure.layout import (
    CELL_COST,
    CELL_DOMAIN,
    CELL_WISDOM,
    NCOLOURS,
    P_HAND,
    P_HAND_SIZE,
    P_SCORE,
    P_STONES,
    P_SUPPLY,
    PHASE_PLACE,
    S_CELL,
    S_COSMOS,
    S_GIFTED,
    S_SPACES,
    W_DRAGON,
    W_PHASE,
    W_TURN,
    WIN_SCORE,
)
from tessera.kernels.azure.moves import GIFTED_EXTRA, bonds, empty_spaces, field, stones_left
from tessera.kernels.azure.state import player_base
from tessera.kernels.jit import njit

# Turns a round rollout plays before it stops and the value scores the position (the
# search's ``ROUND_TURNS``; chosen by matches, results/strength).
ROUND_TURNS = 4
# A guard lead counts up to this many stones each way (more takes the beast no sooner).
GUARD_LEAD_CAP = 2

PLAYER_FEATURE_NAMES = (
    "score",  # points so far
    "cards",  # cards in hand
    "supply",  # common stones not on the realm
    "bonds",  # bonds toward the open spaces, summed: what they save there
    "placeable",  # open spaces the player could place a stone on now
    "stuck",  # 1 when there is none: on their turn they would lose
    "wisdom_in_reach",  # wisdom symbols on those spaces, summed
    "best_wisdom",  # the most wisdom symbols on one of them
    "gifted_left",  # 1 while the gifted stone is still to place (Gifted module)
    "colours",  # colours of card in hand
)
PLAYER_FEATURES = len(PLAYER_FEATURE_NAMES)
TABLE_FEATURE_NAMES = (
    "constant",
    "places_next",
    "dragon_toward",
    "guard_leads",
    "progress",
    "score_diff_x_progress",
    "cards_diff_x_progress",
    "own_score_share_sq",
    "other_score_share_sq",
)
FEATURE_NAMES = tuple(name + "_diff" for name in PLAYER_FEATURE_NAMES) + TABLE_FEATURE_NAMES
N_VALUE_FEATURES = len(FEATURE_NAMES)

TABLE_AT = PLAYER_FEATURES
SCORE, CARDS = 0, 1
# The features the two sides of a position share (the rest are opposite, but for the two
# score shares, which swap): ``players_value_features`` mirrors one side into the other.
CONSTANT, PROGRESS = TABLE_AT, TABLE_AT + 4
OWN_SHARE, OTHER_SHARE = TABLE_AT + 7, TABLE_AT + 8


@njit(cache=True)
def starts_turn(state):
    """True when a player is to place a stone: Azure's boundary, where round rollouts stop
    once they have played their turns and where the dataset takes its positions."""
    return state[W_PHASE] == PHASE_PLACE


@njit(cache=True)
def add_player(state, player, empty, out, sign):
    """``out[:PLAYER_FEATURES] += sign *`` ``player``'s quantities (``empty``: the open spaces)."""
    base = player_base(player)
    card = state[S_GIFTED]
    common, gifted = stones_left(state, base)
    extra = GIFTED_EXTRA[card]
    bond_total = 0
    placeable = 0
    wisdom = 0
    best = 0
    cells = empty
    while cells != 0:
        cell = trailing_zeros(cells)
        cells &= cells - 1
        bond = bonds(state, base, cell, card)
        bond_total += bond
        packed = state[S_CELL + cell]
        held = state[base + P_HAND + field(packed, CELL_DOMAIN)]
        cost = field(packed, CELL_COST) - bond  # a common stone's price (below 0: 0)
        if (common and cost <= held) or (gifted and cost + extra <= held):
            placeable += 1
            points = field(packed, CELL_WISDOM)
            wisdom += points
            best = max(best, points)
    colours = 0
    for colour in range(NCOLOURS):
        if state[base + P_HAND + colour] > 0:
            colours += 1
    out[0] += sign * state[base + P_SCORE]
    out[1] += sign * state[base + P_HAND_SIZE]
    out[2] += sign * state[base + P_SUPPLY]
    out[3] += sign * bond_total
    out[4] += sign * placeable
    out[5] += sign * (1.0 if placeable == 0 else 0.0)
    out[6] += sign * wisdom
    out[7] += sign * best
    out[8] += sign * (1.0 if gifted else 0.0)
    out[9] += sign * colours


@njit(cache=True)
def guard_leads(state, player):
    """The guard lead of ``player`` on each mountain, capped at ``GUARD_LEAD_CAP`` stones
    each way, times what its beast is worth (``BEAST_WORTH``), summed; a full lead counts
    the whole worth."""
    own = state[player_base(player) + P_STONES]
    other = state[player_base(1 - player) + P_STONES]
    total = 0.0
    for colour in range(NCOLOURS):
        mask = guard_mask(state, colour)
        lead = count(own & mask) - count(other & mask)
        lead = max(-GUARD_LEAD_CAP, min(GUARD_LEAD_CAP, lead))
        total += BEAST_WORTH[colour] * lead / GUARD_LEAD_CAP
    return total


@njit(cache=True)
def value_features(state, player, out):
    """``out[:N_VALUE_FEATURES]``: the features of ``state`` seen from ``player`` (the module
    docstring lists them; ``FEATURE_NAMES`` names them in order)."""
    empty = empty_spaces(state)
    out[:PLAYER_FEATURES] = 0.0
    add_player(state, player, empty, out, 1.0)
    add_player(state, 1 - player, empty, out, -1.0)
    stones = count(state[player_base(0) + P_STONES] | state[player_base(1) + P_STONES])
    progress = stones / max(1, count(state[S_SPACES]))
    dragon = float(state[W_DRAGON]) if state[S_COSMOS] else 0.0
    t = TABLE_AT
    out[t] = 1.0
    out[t + 1] = 1.0 if state[W_TURN] == player else -1.0
    out[t + 2] = dragon if player == 0 else -dragon
    out[t + 3] = guard_leads(state, player)
    out[t + 4] = progress
    out[t + 5] = out[SCORE] * progress
    out[t + 6] = out[CARDS] * progress
    out[t + 7] = (state[player_base(player) + P_SCORE] / WIN_SCORE) ** 2
    out[t + 8] = (state[player_base(1 - player) + P_SCORE] / WIN_SCORE) ** 2


@njit(cache=True)
def players_value_features(state, out):
    """``out[p, :N_VALUE_FEATURES]``: ``value_features(state, p, ...)`` for both players, the
    second side mirrored from the first (exactly: every opposite feature is a difference or
    a sign, whose negation rounds alike)."""
    value_features(state, 0, out[0])
    for i in range(N_VALUE_FEATURES):
        out[1, i] = -out[0, i]
    out[1, CONSTANT] = out[0, CONSTANT]
    out[1, PROGRESS] = out[0, PROGRESS]
    out[1, OWN_SHARE] = out[0, OTHER_SHARE]
    out[1, OTHER_SHARE] = out[0, OWN_SHARE]
