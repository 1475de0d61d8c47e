"""Hand features of an Azul position for a learned value (docs/learning.md).

``value_features(state, player, out)`` writes ``N_VALUE_FEATURES`` float64 values that
describe the position from ``player``'s side. A value model is a weight vector over them
(its prediction a dot product), so the search can evaluate a learned model with this same
kernel and the model's weights passed in as an array: ``players_value_features(state,
out)``, the same for every player at once, computes each board's quantities once.

The vector has three parts:

- ``PLAYER_FEATURES`` quantities of each board (score, the round-end score, wall tiles,
  ...), first as the player's value less the best value among the other players (each
  quantity's best separately), then as the player's own value;
- quantities of the whole table: a constant 1, the round, how far the fullest row of any
  wall is (the game ends when a row is complete), whether the player starts the next
  round, the player count one-hot and the wall variant;
- the score and round-end score differences times the game's progress, so a linear model
  can weigh a lead more as the end comes nearer.

Every quantity reuses the rules' own helpers (``evaluate``, ``wall``); nothing allocates.
"""

from tessera.kernels.azul.evaluate import prospects, round_end_score
from tessera.kernels.azul.layout import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    MARKER_BIT,
    NCOLOURS,
    P_FLOOR,
    P_LINES,
    P_SCORE,
    P_WALL,
    PHASE_REFILL,
    ROW_BONUS,
    VARIANT_GRAY,
    W_PHASE,
    W_PLAYERS,
    W_ROUND,
    W_STARTER,
    W_VARIANT,
)
from tessera.kernels.azul.moves import player_base
from tessera.kernels.azul.tiles import has_marker, total
from tessera.kernels.azul.wall import COLUMN_MASK, ROW_MASK, occupancy, placement_points
from tessera.kernels.bits import popcount
from tessera.kernels.common import own_less_best_other
from tessera.kernels.jit import njit

# One board's quantities (``player_feature``), in this order.
PLAYER_FEATURE_NAMES = (
    "score",  # points so far
    "round_end_score",  # evaluate.round_end_score: the score if the round ended now
    "prospects",  # evaluate.prospects: end bonuses and unfinished lines, pro rata
    "wall_tiles",  # tiles on the wall
    "rows_of_four",  # wall rows one tile short of complete
    "fullest_row",  # tiles in the wall's fullest row
    "bonus_progress",  # each row, column and colour bonus times its share squared
    "adjacency",  # mean points a tile would score on the wall's empty cells
    "line_tiles",  # tiles waiting on the pattern lines
    "floor_slots",  # occupied floor slots, the marker included
)
PLAYER_FEATURES = len(PLAYER_FEATURE_NAMES)
TABLE_FEATURE_NAMES = (
    "constant",
    "round",
    "progress",
    "starts_next",
    "players_2",
    "players_3",
    "players_4",
    "gray_wall",
    "score_diff_x_progress",
    "round_end_score_diff_x_progress",
)
FEATURE_NAMES = (
    tuple(name + "_diff" for name in PLAYER_FEATURE_NAMES)
    + tuple("own_" + name for name in PLAYER_FEATURE_NAMES)
    + TABLE_FEATURE_NAMES
)
N_VALUE_FEATURES = len(FEATURE_NAMES)

DIFF_AT = 0  # out[DIFF_AT + k]: own less best other, quantity k
OWN_AT = PLAYER_FEATURES  # out[OWN_AT + k]: own, quantity k
TABLE_AT = 2 * PLAYER_FEATURES  # the table's quantities
SCORE, ROUND_END_SCORE = 0, 1
# The fullest row has 4 tiles at most before the game ends: progress runs from 0 to 1.
FULL_PROGRESS = 4.0


@njit(cache=True)
def bonus_progress(state, base, occ):
    """Each end bonus (row, column, colour) times the square of its share of tiles: a bonus
    near completion counts much more than one barely started (``prospects`` counts them
    linearly)."""
    points = 0.0
    for k in range(5):
        row = popcount((occ >> (5 * k)) & ROW_MASK) / 5.0
        column = popcount(occ & (COLUMN_MASK << k)) / 5.0
        points += ROW_BONUS * row * row + COLUMN_BONUS * column * column
    for colour in range(NCOLOURS):
        share = popcount(state[base + P_WALL + colour]) / 5.0
        points += COLOUR_BONUS * share * share
    return points


@njit(cache=True)
def adjacency(occ):
    """The mean of what a tile would score on each empty cell of the wall (0 when full):
    how well the wall's tiles are placed to score the next ones."""
    points = 0
    empty = 0
    for cell in range(25):
        if not (occ >> cell) & 1:
            points += placement_points(occ | (1 << cell), cell)
            empty += 1
    return points / empty if empty else 0.0


@njit(cache=True)
def fullest_row(occ):
    most = 0
    for row in range(5):
        most = max(most, popcount((occ >> (5 * row)) & ROW_MASK))
    return most


@njit(cache=True)
def player_feature(state, player, k):
    """Quantity ``k`` of ``PLAYER_FEATURE_NAMES`` for ``player``'s board."""
    base = player_base(state, player)
    occ = occupancy(state, base)
    if k == 0:
        return float(state[base + P_SCORE])
    if k == 1:
        return float(round_end_score(state, player))
    if k == 2:
        return prospects(state, player)
    if k == 3:
        return float(popcount(occ))
    if k == 4:
        rows = 0
        for row in range(5):
            if popcount((occ >> (5 * row)) & ROW_MASK) == 4:
                rows += 1
        return float(rows)
    if k == 5:
        return float(fullest_row(occ))
    if k == 6:
        return bonus_progress(state, base, occ)
    if k == 7:
        return adjacency(occ)
    if k == 8:
        lines = state[base + P_LINES]
        tiles = 0
        for line in range(5):
            tiles += (lines >> (8 * line)) & 0xF
        return float(tiles)
    floor = state[base + P_FLOOR]
    return float(total(floor) + (1 if has_marker(floor) else 0))


@njit(cache=True)
def next_starter(state):
    """Who starts the next round: whoever holds the marker on their floor; in a refill, the
    round's starter; -1 while the marker is still in the centre."""
    players = state[W_PLAYERS]
    for p in range(players):
        if state[player_base(state, p) + P_FLOOR] & MARKER_BIT:
            return p
    if state[W_PHASE] == PHASE_REFILL:
        return state[W_STARTER]
    return -1


@njit(cache=True)
def value_features(state, player, out):
    """``out[:N_VALUE_FEATURES]``: the features of ``state`` seen from ``player`` (the module
    docstring lists them; ``FEATURE_NAMES`` names them in order)."""
    players = state[W_PLAYERS]
    for k in range(PLAYER_FEATURES):
        own = player_feature(state, player, k)
        best_other = -1e300
        for p in range(players):
            if p != player:
                best_other = max(best_other, player_feature(state, p, k))
        out[DIFF_AT + k] = own - best_other
        out[OWN_AT + k] = own
    table_features(state, player, out)


@njit(cache=True)
def players_value_features(state, out):
    """``out[p, :N_VALUE_FEATURES]``: ``value_features(state, p, ...)`` for every player p, each
    board's quantities computed once (a search scores every player at each cut)."""
    players = state[W_PLAYERS]
    for p in range(players):
        for k in range(PLAYER_FEATURES):
            out[p, OWN_AT + k] = player_feature(state, p, k)
    own_less_best_other(out, players, PLAYER_FEATURES)  # DIFF_AT 0, OWN_AT after
    for p in range(players):
        table_features(state, p, out[p])


@njit(cache=True)
def table_features(state, player, out):
    """The table's part of ``out`` (from ``TABLE_AT``), its board parts written already."""
    players = state[W_PLAYERS]
    most_full = 0
    for p in range(players):
        most_full = max(most_full, fullest_row(occupancy(state, player_base(state, p))))
    progress = most_full / FULL_PROGRESS
    t = TABLE_AT
    out[t] = 1.0
    out[t + 1] = float(state[W_ROUND])
    out[t + 2] = progress
    out[t + 3] = 1.0 if next_starter(state) == player else 0.0
    out[t + 4] = 1.0 if players == 2 else 0.0
    out[t + 5] = 1.0 if players == 3 else 0.0
    out[t + 6] = 1.0 if players == 4 else 0.0
    out[t + 7] = 1.0 if state[W_VARIANT] == VARIANT_GRAY else 0.0
    out[t + 8] = out[DIFF_AT + SCORE] * progress
    out[t + 9] = out[DIFF_AT + ROUND_END_SCORE] * progress


@njit(cache=True)
def value_of(state, player, weights, features):
    """A linear model's value of ``state`` for ``player``: ``weights`` dotted with its
    features (``features``: scratch of ``N_VALUE_FEATURES``, so nothing allocates)."""
    value_features(state, player, features)
    value = 0.0
    for i in range(features.shape[0]):
        value += weights[i] * features[i]
    return value
