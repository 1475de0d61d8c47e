"""A cheap score of one Azul move, read off the position without playing it.

Used for PUCT priors and greedy rollouts: tiles that go onto a pattern line are
good, a line they complete is better, and every tile (or the marker) that lands
on the floor costs what its floor slot costs.
"""
from kernels.azul.layout import (
    DEST_FLOOR, FLOOR_SLOTS, NCOLOURS, NDESTS, P_FLOOR, P_LINES, SOURCE_CENTRE, TILE_MOVE_BASE,
    W_CENTRE, W_FACTORY, W_TO_MOVE,
)
from kernels.azul.moves import pending_line, player_base
from kernels.azul.tiles import count_of, has_marker, total
from kernels.azul.wall import floor_penalty, occupancy, placement_points
from kernels.jit import njit

COMPLETE_LINE_BONUS = 2.0


@njit(cache=True)
def move_heuristic(state, move):
    base = player_base(state, state[W_TO_MOVE])
    if move >= TILE_MOVE_BASE:
        # Gray-wall column: the points the tile scores there.
        line = pending_line(state, base)
        cell = 5 * line + (move - TILE_MOVE_BASE)
        return float(placement_points(occupancy(state, base) | (1 << cell), cell))
    source = move // (NCOLOURS * NDESTS)
    colour = (move // NDESTS) % NCOLOURS
    dest = move % NDESTS
    tiles = state[W_CENTRE] if source == SOURCE_CENTRE else state[W_FACTORY + source]
    taken = count_of(tiles, colour)
    floor = state[base + P_FLOOR]
    used = total(floor) + (1 if has_marker(floor) else 0)
    to_floor = taken
    gain = 0.0
    if source == SOURCE_CENTRE and has_marker(state[W_CENTRE]):
        to_floor += 1
    if dest != DEST_FLOOR:
        held = (state[base + P_LINES] >> (8 * dest)) & 0xF
        placed = min(taken, dest + 1 - held)
        to_floor -= placed
        gain += placed
        if held + placed == dest + 1:
            gain += COMPLETE_LINE_BONUS
    lost = floor_penalty(min(FLOOR_SLOTS, used + to_floor)) - floor_penalty(used)
    return gain - lost
