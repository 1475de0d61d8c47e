"""A cheap score of one Azul move, read off the position without playing it.

Used for PUCT priors and greedy rollouts. A pattern line is worth the wall tile it
will become: the points that tile scores where it goes, plus its share of the row,
column and colour bonuses it counts toward. A full line earns all of that; a line
still filling earns ``PARTIAL`` of it in proportion to its tiles, since it may not be
finished this round and blocks its row until it is. A move is worth what it adds to
its line, less what its tiles (and the marker) cost on the floor, in units of ``SCALE``
points.
"""

import numpy as np

from tessera.kernels.azul.layout import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    DEST_FLOOR,
    FLOOR_SLOTS,
    NCOLOURS,
    NDESTS,
    P_FLOOR,
    P_LINES,
    P_WALL,
    PHASE_DRAFT,
    ROW_BONUS,
    SOURCE_CENTRE,
    TILE_MOVE_BASE,
    VARIANT_GRAY,
    W_CENTRE,
    W_FACTORY,
    W_PHASE,
    W_PLAYERS,
    W_TO_MOVE,
    W_VARIANT,
)
from tessera.kernels.azul.moves import (
    destination_masks,
    group_source,
    held_colours,
    lowest_bit_index,
    pending_line,
    player_base,
    tiling_columns,
)
from tessera.kernels.azul.tiles import count_of, has_marker, total
from tessera.kernels.azul.wall import best_open_cell, colour_column, floor_penalty, occupancy, placement_points
from tessera.kernels.jit import njit

# Each wall tile is one fifth of its row's, its column's and its colour's bonus.
BONUS_SHARE = (ROW_BONUS + COLUMN_BONUS + COLOUR_BONUS) / 5.0
PARTIAL = 0.5
# PUCT's priors are a softmax of the heuristic at temperature 2 (kernels/search/mcts.py).
# Whole points make them too sharp: a 0.2-s search then spends too few visits off the
# heuristic's first choice. Half points give the priors of temperature 4 while the other
# games keep 2 (results/strength/README.md, "Azul's move heuristic"). Greedy rollouts
# only compare values: they play the same at any scale.
SCALE = 0.5


@njit(cache=True, inline="always")
def tile_worth(state, base, occ, line, colour):
    """What the tile of a full ``line`` of ``colour`` is worth on a wall whose filled cells
    are ``occ``: its points where it goes (on the gray wall the best open column; none
    open: nothing) and its bonus share."""
    if state[W_VARIANT] != VARIANT_GRAY:
        cell = 5 * line + colour_column(line, colour)
        return placement_points(occ | (1 << cell), cell) + BONUS_SHARE
    best, _ = best_open_cell(occ, state[base + P_WALL + colour], line)
    return 0.0 if best < 0 else best + BONUS_SHARE


@njit(cache=True)
def move_heuristic(state, move):
    base = player_base(state, state[W_TO_MOVE])
    return move_value(state, base, occupancy(state, base), floor_slots_used(state, base), move)


@njit(cache=True)
def move_heuristics(state, moves, n, out):
    """``out[i]``: ``move_heuristic(state, moves[i])`` for i < n, in one call a position
    (MCTS's priors and greedy rollouts). The player's wall and floor are read once; the
    moves of one source and colour (next to each other in the list) take their tiles
    once; each line's tile worth is found once a colour, the moves of that colour from
    other sources sharing it (the worth is a move's dearest part)."""
    base = player_base(state, state[W_TO_MOVE])
    occ = occupancy(state, base)
    used = floor_slots_used(state, base)
    # Read once: writes to ``out`` might alias ``state`` for all the compiler knows.
    lines = state[base + P_LINES]
    floor_now = floor_penalty(used)
    worths = np.empty(NCOLOURS * DEST_FLOOR)  # lines are the destinations below the floor
    known = 0  # bit ``key``: worths[key] is filled
    i = 0
    while i < n:
        move = moves[i]
        if move >= TILE_MOVE_BASE:
            out[i] = move_value(state, base, occ, used, move)
            i += 1
            continue
        group = move // NDESTS
        colour = group % NCOLOURS
        taken, marker = tiles_taken(state, group // NCOLOURS, colour)
        while i < n and moves[i] // NDESTS == group:
            dest = moves[i] % NDESTS
            worth = 0.0
            if dest != DEST_FLOOR:
                key = NCOLOURS * dest + colour
                if not (known >> key) & 1:
                    worths[key] = tile_worth(state, base, occ, dest, colour)
                    known |= 1 << key
                worth = worths[key]
            out[i] = draft_value(lines, used, floor_now, taken, marker, dest, worth)
            i += 1


@njit(cache=True)
def best_heuristic_move(state, scratch):
    """The legal move of the highest ``move_heuristic``, the first of equals in
    ``legal_moves``' order (a greedy rollout's move), found without listing the moves: the
    moves are visited in the list's order from the masks the list is made from, each
    valued as ``move_heuristics`` values it, so the choice is the list's, bit for bit.
    ``scratch``: float64 room for the lines' tile worths (``NCOLOURS * DEST_FLOOR``)."""
    base = player_base(state, state[W_TO_MOVE])
    occ = occupancy(state, base)
    used = floor_slots_used(state, base)
    best = -np.inf
    pick = -1
    if state[W_PHASE] != PHASE_DRAFT:  # a gray-wall tiling: the open columns
        columns = tiling_columns(state, base, pending_line(state, base))
        for column in range(5):
            if (columns >> column) & 1:
                value = move_value(state, base, occ, used, TILE_MOVE_BASE + column)
                if value > best:
                    best = value
                    pick = TILE_MOVE_BASE + column
        return pick
    lines = state[base + P_LINES]
    floor_now = floor_penalty(used)
    dest_masks = destination_masks(state, base)
    nfactories = 2 * state[W_PLAYERS] + 1
    held = held_colours(state, nfactories)
    worths = scratch  # of every line a draft move can fill
    line_worths(state, base, occ, held, dest_masks, worths)
    while held:
        source, colour = group_source(lowest_bit_index(held), nfactories)
        held &= held - 1
        group = (source * NCOLOURS + colour) * NDESTS
        taken, marker = tiles_taken(state, source, colour)
        dests = dest_masks >> (NDESTS * colour)
        for dest in range(NDESTS):
            if (dests >> dest) & 1:
                worth = 0.0 if dest == DEST_FLOOR else worths[NCOLOURS * dest + colour]
                value = draft_value(lines, used, floor_now, taken, marker, dest, worth)
                if value > best:
                    best = value
                    pick = group + dest
    return pick


@njit(cache=True)
def line_worths(state, base, occ, held, dest_masks, worths):
    """``worths[NCOLOURS * line + colour]``: the ``tile_worth`` of ``line`` for each colour
    some source holds (``held``, as ``held_colours``) and each line its destinations
    (``dest_masks``) allow: every line a draft move can fill; the other entries are left."""
    colours = 0
    while held:
        colours |= held & 0x1F
        held >>= NCOLOURS
    for colour in range(NCOLOURS):
        if (colours >> colour) & 1:
            dests = dest_masks >> (NDESTS * colour)
            for line in range(DEST_FLOOR):
                if (dests >> line) & 1:
                    worths[NCOLOURS * line + colour] = tile_worth(state, base, occ, line, colour)


@njit(cache=True, inline="always")
def floor_slots_used(state, base):
    floor = state[base + P_FLOOR]
    return total(floor) + (1 if has_marker(floor) else 0)


@njit(cache=True, inline="always")
def move_value(state, base, occ, used, move):
    if move >= TILE_MOVE_BASE:
        # Gray-wall column: the points the tile scores there.
        line = pending_line(state, base)
        cell = 5 * line + (move - TILE_MOVE_BASE)
        return SCALE * placement_points(occ | (1 << cell), cell)
    colour = (move // NDESTS) % NCOLOURS
    dest = move % NDESTS
    taken, marker = tiles_taken(state, move // (NCOLOURS * NDESTS), colour)
    worth = 0.0 if dest == DEST_FLOOR else tile_worth(state, base, occ, dest, colour)
    return draft_value(state[base + P_LINES], used, floor_penalty(used), taken, marker, dest, worth)


@njit(cache=True, inline="always")
def tiles_taken(state, source, colour):
    """The tiles of ``colour`` at ``source``, and 1 if the first-player marker comes with them."""
    tiles = state[W_CENTRE] if source == SOURCE_CENTRE else state[W_FACTORY + source]
    return count_of(tiles, colour), 1 if source == SOURCE_CENTRE and has_marker(tiles) else 0


@njit(cache=True, inline="always")
def draft_value(lines, used, floor_now, taken, marker, dest, worth):
    """A draft move's value: ``taken`` tiles (and ``marker``) to ``dest``, whose line becomes
    a tile of ``worth`` (unused for the floor), with the pattern ``lines`` and ``used``
    floor slots costing ``floor_now``."""
    to_floor = taken + marker
    gain = 0.0
    if dest != DEST_FLOOR:
        size = dest + 1
        held = (lines >> (8 * dest)) & 0xF
        placed = min(taken, size - held)
        to_floor -= placed
        share = PARTIAL / size
        gain = worth * (1.0 - share * held if held + placed == size else share * placed)
    lost = floor_penalty(min(FLOOR_SLOTS, used + to_floor)) - floor_now
    return SCALE * (gain - lost)
