"""Legal moves and chance outcomes of an Azul position."""
from numba import njit

from kernels.azul.layout import (
    CHANCE_MOVE_BASE, DEST_FLOOR, NCOLOURS, NDESTS, P_LINES, P_WALL, PHASE_DRAFT, PHASE_REFILL,
    PHASE_TILING, PLAYER_BASE, PLAYER_WORDS, SOURCE_CENTRE, TILE_MOVE_BASE, W_BAG, W_CENTRE,
    W_FACTORY, W_LID, W_PHASE, W_PLAYERS, W_TO_MOVE,
)
from kernels.azul.tiles import count_of, total
from kernels.azul.wall import free_columns, occupancy, row_has_colour


@njit(cache=True, inline="always")
def player_base(state, player):
    return PLAYER_BASE + player * PLAYER_WORDS


@njit(cache=True)
def destinations(state, base, colour):
    """6-bit mask of where ``colour`` may go: lines 0-4 (bits 0-4) and the floor (bit 5)."""
    lines = state[base + P_LINES]
    wall = state[base + P_WALL + colour]
    mask = 1 << DEST_FLOOR
    for i in range(5):
        line = (lines >> (8 * i)) & 0xFF
        count = line & 0xF
        if count <= i and (count == 0 or (line >> 4) == colour) and not row_has_colour(wall, i):
            mask |= 1 << i
    return mask


@njit(cache=True)
def pending_line(state, base):
    """The topmost full pattern line of a player, or -1."""
    lines = state[base + P_LINES]
    for i in range(5):
        if ((lines >> (8 * i)) & 0xF) == i + 1:
            return i
    return -1


@njit(cache=True)
def tiling_columns(state, base, line):
    """Gray wall: the 5-bit mask of columns open to the tile of a full line."""
    colour = (state[base + P_LINES] >> (8 * line + 4)) & 0x7
    return free_columns(occupancy(state, base), state[base + P_WALL + colour], line)


@njit(cache=True)
def draw_pool(state):
    """The tiles the next draw comes from: the bag, or the lid when the bag is empty."""
    bag = state[W_BAG]
    if total(bag) == 0:
        return state[W_LID]
    return bag


@njit(cache=True, inline="always")
def source_moves(tiles, source, dest_masks, moves, n):
    """Append the moves taking from one source; return the new count."""
    for c in range(NCOLOURS):
        if count_of(tiles, c) == 0:
            continue
        dests = (dest_masks >> (NDESTS * c)) & 0x3F
        for d in range(NDESTS):
            if (dests >> d) & 1:
                moves[n] = (source * NCOLOURS + c) * NDESTS + d
                n += 1
    return n


@njit(cache=True)
def draft_moves(state, moves):
    base = player_base(state, state[W_TO_MOVE])
    dest_masks = 0                      # 6 bits per colour
    for c in range(NCOLOURS):
        dest_masks |= destinations(state, base, c) << (NDESTS * c)
    n = 0
    for f in range(2 * state[W_PLAYERS] + 1):
        n = source_moves(state[W_FACTORY + f], f, dest_masks, moves, n)
    return source_moves(state[W_CENTRE], SOURCE_CENTRE, dest_masks, moves, n)


@njit(cache=True)
def legal_moves(state, moves):
    """Write the moves of whoever acts (a player, or chance) into ``moves``; return the count."""
    phase = state[W_PHASE]
    if phase == PHASE_DRAFT:
        return draft_moves(state, moves)
    if phase == PHASE_TILING:
        base = player_base(state, state[W_TO_MOVE])
        columns = tiling_columns(state, base, pending_line(state, base))
        n = 0
        for col in range(5):
            if (columns >> col) & 1:
                moves[n] = TILE_MOVE_BASE + col
                n += 1
        return n
    if phase == PHASE_REFILL:
        pool = draw_pool(state)
        n = 0
        for c in range(NCOLOURS):
            if count_of(pool, c) > 0:
                moves[n] = CHANCE_MOVE_BASE + c
                n += 1
        return n
    return 0


@njit(cache=True)
def chance_outcomes(state, moves, probs):
    """The chance moves with their probabilities; 0 when a player acts."""
    if state[W_PHASE] != PHASE_REFILL:
        return 0
    pool = draw_pool(state)
    size = total(pool)
    n = 0
    for c in range(NCOLOURS):
        k = count_of(pool, c)
        if k > 0:
            moves[n] = CHANCE_MOVE_BASE + c
            probs[n] = k / size
            n += 1
    return n
