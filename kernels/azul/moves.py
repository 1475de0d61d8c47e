"""Legal moves and chance outcomes of an Azul position."""

from tessera.kernels.azul.layout import (
    CHANCE_MOVE_BASE,
    DEST_FLOOR,
    LANES_ALL,
    LANES_ONE,
    NCOLOURS,
    NDESTS,
    P_LINES,
    P_WALL,
    PHASE_DRAFT,
    PHASE_REFILL,
    PHASE_TILING,
    PLAYER_BASE,
    PLAYER_WORDS,
    SOURCE_CENTRE,
    TILE_MOVE_BASE,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_LID,
    W_PHASE,
    W_PLAYERS,
    W_TO_MOVE,
)
from tessera.kernels.azul.tiles import count_of, total
from tessera.kernels.azul.wall import COLUMN_MASK, free_columns, occupancy
from tessera.kernels.bits import popcount
from tessera.kernels.common import draw_moves, draw_outcomes, sample_draw
from tessera.kernels.jit import njit
from tessera.kernels.rng import below


@njit(cache=True, inline="always")
def player_base(state, player):
    return PLAYER_BASE + player * PLAYER_WORDS


@njit(cache=True, inline="always")
def destination_masks(state, base):
    """Where each colour may go: 6 bits per colour, lines 0-4 then the floor (bit 5).

    Built as a 5x5 bit matrix (bit 5*line + colour) of what each line accepts, less
    the colours already on that wall row, then read out per colour. Inlined: as a call it
    cost an atomic reference count up and down on ``state`` per move listing.
    """
    lines = state[base + P_LINES]
    accepts = 0
    for i in range(5):
        line = (lines >> (8 * i)) & 0xFF
        count = line & 0xF
        if count == 0:
            accepts |= 0x1F << (5 * i)
        elif count <= i:
            accepts |= 1 << (5 * i + (line >> 4))
    on_wall_rows = 0
    for c in range(NCOLOURS):
        wall = state[base + P_WALL + c]
        folded = wall | (wall >> 1) | (wall >> 2) | (wall >> 3) | (wall >> 4)
        on_wall_rows |= (folded & COLUMN_MASK) << c
    accepts &= ~on_wall_rows
    masks = 0
    for c in range(NCOLOURS):
        # Gather bits c, c+5, ..., c+20 into bits 0-4: the multiplier puts bit 5k at 20+k.
        lines_for_c = ((((accepts >> c) & COLUMN_MASK) * 0x111110) >> 20) & 0x1F
        masks |= (lines_for_c | (1 << DEST_FLOOR)) << (NDESTS * c)
    return masks


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
def colour_bits(tiles):
    """Bit ``c`` set for each colour ``c`` that ``tiles`` holds: the product moves the lane
    flag at bit ``8c`` to bit ``32 + c`` (and no two of its terms share a bit)."""
    return ((present(tiles) * 0x102040810) >> 32) & 0x1F


@njit(cache=True, inline="always")
def held_colours(state, nfactories):
    """Bit ``NCOLOURS * s + c`` set when source ``s`` holds colour ``c``: the factories in
    order, then the centre as source ``nfactories``. Its bits from the lowest are the draft
    moves' groups in the order ``draft_moves`` lists them."""
    held = colour_bits(state[W_CENTRE]) << (NCOLOURS * nfactories)
    for f in range(nfactories):
        held |= colour_bits(state[W_FACTORY + f]) << (NCOLOURS * f)
    return held


@njit(cache=True, inline="always")
def group_source(k, nfactories):
    """``(source, colour)`` of bit ``k`` of ``held_colours``: the source's index in a move
    (the centre's is ``SOURCE_CENTRE``) and the colour."""
    s = k // NCOLOURS
    return (SOURCE_CENTRE if s == nfactories else s), k - NCOLOURS * s


@njit(cache=True)
def draft_moves(state, moves):
    """Sources in order, colours in order, destinations in order.

    Only the colours a source holds (bit ``5 * source + colour`` of ``held``) are visited,
    and within one every destination is written, the count advancing past the legal ones:
    which tiles and lines allow is random, so branches on it would mispredict. The writes
    stay below ``MAX_MOVES``: none passes the count of legal moves."""
    base = player_base(state, state[W_TO_MOVE])
    dest_masks = destination_masks(state, base)
    nfactories = 2 * state[W_PLAYERS] + 1
    held = held_colours(state, nfactories)
    n = 0
    while held:
        source, c = group_source(lowest_bit_index(held), nfactories)
        held &= held - 1
        first = (source * NCOLOURS + c) * NDESTS
        dests = dest_masks >> (NDESTS * c)
        for d in range(NDESTS):
            moves[n] = first + d
            n += (dests >> d) & 1
    return n


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
        return draw_moves(draw_pool(state), NCOLOURS, CHANCE_MOVE_BASE, moves)
    return 0


@njit(cache=True)
def chance_outcomes(state, moves, probs):
    """The chance moves with their probabilities; 0 when a player acts."""
    if state[W_PHASE] != PHASE_REFILL:
        return 0
    pool = draw_pool(state)
    return draw_outcomes(pool, total(pool), NCOLOURS, CHANCE_MOVE_BASE, moves, probs)


@njit(cache=True)
def random_draft_move(state, rng):
    """A uniformly random draft move, found by counting instead of listing every move.

    With ``S_c`` sources holding colour ``c`` and ``D_c`` destinations for it, the
    moves are the ``sum S_c * D_c`` triples; index ``k`` picks one of them.
    """
    base = player_base(state, state[W_TO_MOVE])
    dest_masks = destination_masks(state, base)
    nfactories = 2 * state[W_PLAYERS] + 1
    sources_with = present(state[W_CENTRE])  # per colour lane: sources holding it
    for f in range(nfactories):
        sources_with += present(state[W_FACTORY + f])
    n = 0
    for c in range(NCOLOURS):
        n += count_of(sources_with, c) * popcount((dest_masks >> (NDESTS * c)) & 0x3F)
    k = below(rng, n)
    for c in range(NCOLOURS):
        dests = (dest_masks >> (NDESTS * c)) & 0x3F
        ndests = popcount(dests)
        here = count_of(sources_with, c) * ndests
        if k >= here:
            k -= here
            continue
        for s in range(nfactories + 1):
            tiles = state[W_CENTRE] if s == nfactories else state[W_FACTORY + s]
            if count_of(tiles, c) == 0:
                continue
            if k >= ndests:
                k -= ndests
                continue
            for _ in range(k):
                dests &= dests - 1
            source = SOURCE_CENTRE if s == nfactories else s
            return (source * NCOLOURS + c) * NDESTS + lowest_bit_index(dests)
    return -1


@njit(cache=True, inline="always")
def present(tiles):
    """1 in each colour lane that holds a tile (lanes hold at most 31)."""
    t = tiles & LANES_ALL
    return (t | (t >> 1) | (t >> 2) | (t >> 3) | (t >> 4)) & LANES_ONE


@njit(cache=True, inline="always")
def lowest_bit_index(x):
    return popcount((x & -x) - 1)


@njit(cache=True)
def random_move(state, rng, moves):
    """A uniformly random legal move of the player to act."""
    if state[W_PHASE] == PHASE_DRAFT:
        return random_draft_move(state, rng)
    return moves[below(rng, legal_moves(state, moves))]


@njit(cache=True)
def sample_chance(state, rng):
    """The next tile drawn: colour ``c`` with probability count / total of the pool."""
    pool = draw_pool(state)
    return sample_draw(pool, total(pool), NCOLOURS, CHANCE_MOVE_BASE, rng)
