"""Hand features of an Azul move for a learned policy (docs/learning.md, "Move priors").

``move_features(state, moves, n, out)`` writes ``N_POLICY_FEATURES`` float64 values for each
of the ``n`` moves of the player to move, one row a move. A policy is a weight vector over
them: a move's logit is the weights dotted with its row, and MCTS's PUCT priors are the
softmax of the logits over the position's moves (``tessera.kernels.search.mcts``), the
weights passed in as an array.

The features read the move off the position without playing it, with the move heuristic's
own helpers (``heuristic``: ``tile_worth``, ``tiles_taken``, ``move_value``; ``wall``), so
the heuristic is one of them and a policy can start from it. Nothing allocates.

A draft move (tiles of one colour from a source to a pattern line or the floor) sets every
feature; a gray-wall tiling move (the column of a full line's tile) sets ``heuristic``,
``placement_points``, ``bonus_tiles`` and ``tile_move``, the others 0.
"""

from tessera.kernels.azul.heuristic import (
    PARTIAL,
    floor_slots_used,
    move_value,
    tile_worth,
    tiles_taken,
)
from tessera.kernels.azul.layout import (
    DEST_FLOOR,
    FLOOR_SLOTS,
    NCOLOURS,
    NDESTS,
    P_LINES,
    P_WALL,
    SOURCE_CENTRE,
    TILE_MOVE_BASE,
    VARIANT_GRAY,
    W_CENTRE,
    W_FACTORY,
    W_PLAYERS,
    W_TO_MOVE,
    W_VARIANT,
)
from tessera.kernels.azul.moves import pending_line, player_base
from tessera.kernels.azul.tiles import count_of, total
from tessera.kernels.azul.wall import (
    COLUMN_MASK,
    ROW_MASK,
    best_open_cell,
    colour_column,
    floor_penalty,
    occupancy,
    placement_points,
)
from tessera.kernels.bits import popcount
from tessera.kernels.jit import njit

POLICY_FEATURE_NAMES = (
    "heuristic",  # the move heuristic (heuristic.move_heuristic), in its units
    "line_gain",  # what the move adds to its line: the heuristic's gain, in points
    "floor_cost",  # the points the tiles (and the marker) it drops on the floor cost
    "floor_tiles",  # tiles, and the marker, that go to the floor
    "marker",  # 1 when it takes the first-player marker
    "tiles_taken",  # tiles of the colour it takes
    "completes_line",  # 1 when its line is full after it (a wall tile this round)
    "line_size",  # the line's size (0 for the floor)
    "line_fill",  # the share of its line filled after it (0 for the floor)
    "line_held",  # tiles the line held before it (continuing a started line)
    "line_missing",  # tiles the line still lacks after it (0 for the floor)
    "colour_elsewhere",  # tiles of the colour left in the other sources
    "finishable",  # 1 when the line still lacks tiles and the other sources hold as many
    "to_floor_only",  # 1 when every tile goes to the floor
    "placement_points",  # the points the line's wall tile scores where it goes
    "bonus_tiles",  # wall tiles already in that cell's row, column and colour
    "denies",  # most tiles it takes that another player's started line of the colour could hold
    "from_centre",  # 1 when it takes from the centre
    "leftover_to_centre",  # the factory's other tiles, which go to the centre
    "tile_move",  # 1 for a gray-wall tiling move (a column choice)
)
N_POLICY_FEATURES = len(POLICY_FEATURE_NAMES)

HEURISTIC = 0
LINE_GAIN = 1
FLOOR_COST = 2
FLOOR_TILES = 3
MARKER = 4
TILES_TAKEN = 5
COMPLETES_LINE = 6
LINE_SIZE = 7
LINE_FILL = 8
LINE_HELD = 9
LINE_MISSING = 10
COLOUR_ELSEWHERE = 11
FINISHABLE = 12
TO_FLOOR_ONLY = 13
PLACEMENT_POINTS = 14
BONUS_TILES = 15
DENIES = 16
FROM_CENTRE = 17
LEFTOVER_TO_CENTRE = 18
TILE_MOVE = 19


@njit(cache=True)
def move_features(state, moves, n, out):
    """``out[i, :]``: the features of ``moves[i]`` for i < n (``out``: float64
    [at least n, N_POLICY_FEATURES]), for the player to move."""
    player = state[W_TO_MOVE]
    base = player_base(state, player)
    occ = occupancy(state, base)
    used = floor_slots_used(state, base)
    lines = state[base + P_LINES]
    floor_now = floor_penalty(used)
    for i in range(n):
        move = moves[i]
        for k in range(N_POLICY_FEATURES):
            out[i, k] = 0.0
        out[i, HEURISTIC] = move_value(state, base, occ, used, move)
        if move >= TILE_MOVE_BASE:
            cell = 5 * pending_line(state, base) + (move - TILE_MOVE_BASE)
            out[i, PLACEMENT_POINTS] = placement_points(occ | (1 << cell), cell)
            out[i, BONUS_TILES] = bonus_tiles(state, base, occ, cell)
            out[i, TILE_MOVE] = 1.0
            continue
        source = move // (NCOLOURS * NDESTS)
        colour = (move // NDESTS) % NCOLOURS
        dest = move % NDESTS
        taken, marker = tiles_taken(state, source, colour)
        to_floor = taken + marker
        out[i, MARKER] = marker
        out[i, TILES_TAKEN] = taken
        out[i, FROM_CENTRE] = 1.0 if source == SOURCE_CENTRE else 0.0
        if source != SOURCE_CENTRE:
            out[i, LEFTOVER_TO_CENTRE] = total(state[W_FACTORY + source]) - taken
        out[i, DENIES] = denied(state, player, colour, taken)
        elsewhere = on_table(state, colour) - taken
        out[i, COLOUR_ELSEWHERE] = elsewhere
        if dest == DEST_FLOOR:
            out[i, TO_FLOOR_ONLY] = 1.0
        else:
            size = dest + 1
            held = (lines >> (8 * dest)) & 0xF
            placed = min(taken, size - held)
            to_floor -= placed
            worth = tile_worth(state, base, occ, dest, colour)
            share = PARTIAL / size
            complete = held + placed == size
            out[i, LINE_GAIN] = worth * (1.0 - share * held if complete else share * placed)
            out[i, COMPLETES_LINE] = 1.0 if complete else 0.0
            out[i, LINE_SIZE] = size
            out[i, LINE_FILL] = (held + placed) / size
            out[i, LINE_HELD] = held
            missing = size - held - placed
            out[i, LINE_MISSING] = missing
            out[i, FINISHABLE] = 1.0 if 0 < missing <= elsewhere else 0.0
            cell = wall_cell(state, base, occ, dest, colour)
            if cell >= 0:
                out[i, PLACEMENT_POINTS] = placement_points(occ | (1 << cell), cell)
                out[i, BONUS_TILES] = bonus_tiles(state, base, occ, cell)
        out[i, FLOOR_TILES] = to_floor
        out[i, FLOOR_COST] = floor_penalty(min(FLOOR_SLOTS, used + to_floor)) - floor_now


@njit(cache=True, inline="always")
def wall_cell(state, base, occ, line, colour):
    """The wall cell a full ``line`` of ``colour`` tiles: the colour wall's fixed one, on the
    gray wall the open cell that scores most (``tile_worth``'s); -1 when none is open."""
    if state[W_VARIANT] != VARIANT_GRAY:
        return 5 * line + colour_column(line, colour)
    best, cell = best_open_cell(occ, state[base + P_WALL + colour], line)
    return cell if best >= 0 else -1


@njit(cache=True, inline="always")
def bonus_tiles(state, base, occ, cell):
    """The wall tiles already in ``cell``'s row and column, and of the colour that goes there
    (colour wall; on the gray wall the row's and column's only)."""
    row = cell // 5
    col = cell % 5
    count = popcount((occ >> (5 * row)) & ROW_MASK) + popcount(occ & (COLUMN_MASK << col))
    if state[W_VARIANT] != VARIANT_GRAY:
        colour = (col - row) % 5
        count += popcount(state[base + P_WALL + colour])
    return count


@njit(cache=True, inline="always")
def on_table(state, colour):
    """The tiles of ``colour`` in the factories and the centre."""
    count = count_of(state[W_CENTRE], colour)
    for f in range(2 * state[W_PLAYERS] + 1):
        count += count_of(state[W_FACTORY + f], colour)
    return count


@njit(cache=True, inline="always")
def denied(state, player, colour, taken):
    """The most of ``taken`` tiles of ``colour`` that another player's started pattern line
    of that colour has room for: what the move keeps from them."""
    most = 0
    for other in range(state[W_PLAYERS]):
        if other == player:
            continue
        lines = state[player_base(state, other) + P_LINES]
        for line in range(5):
            held = (lines >> (8 * line)) & 0xF
            if held > 0 and held <= line and (lines >> (8 * line + 4)) & 0x7 == colour:
                most = max(most, min(taken, line + 1 - held))
    return most
