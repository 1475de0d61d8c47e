"""Applying moves: drafting, gray-wall tiling, the end of a round and the refill."""

from tessera.kernels.azul.layout import (
    CHANCE_MOVE_BASE,
    DEST_FLOOR,
    FACTORY_SIZE,
    FLOOR_SLOTS,
    LANES_ALL,
    MARKER_BIT,
    NCOLOURS,
    NDESTS,
    P_FLOOR,
    P_LINES,
    P_SCORE,
    P_WALL,
    PHASE_DRAFT,
    PHASE_OVER,
    PHASE_REFILL,
    PHASE_TILING,
    SOURCE_CENTRE,
    STALL_LIMIT,
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
    W_STARTER,
    W_TO_MOVE,
    W_VARIANT,
)
from tessera.kernels.azul.moves import pending_line, player_base, sample_chance, tiling_columns
from tessera.kernels.azul.tiles import count_of, has_marker, one_of, total, without_colour
from tessera.kernels.azul.wall import (
    any_row_can_be_completed,
    colour_column,
    complete_rows,
    end_bonus,
    floor_penalty,
    occupancy,
    placement_points,
)
from tessera.kernels.bits import popcount
from tessera.kernels.jit import njit


@njit(cache=True)
def apply_move(state, move):
    """Play ``move`` (assumed legal) in place."""
    if move >= CHANCE_MOVE_BASE:
        draw_tile(state, move - CHANCE_MOVE_BASE)
    elif move >= TILE_MOVE_BASE:
        player = state[W_TO_MOVE]
        base = player_base(state, player)
        line = pending_line(state, base)
        colour = (state[base + P_LINES] >> (8 * line + 4)) & 0x7
        place_on_wall(state, base, line, colour, move - TILE_MOVE_BASE)
        continue_tiling(state, player)
    else:
        draft(state, move // (NCOLOURS * NDESTS), (move // NDESTS) % NCOLOURS, move % NDESTS)


# ---- drafting ------------------------------------------------------------------------


@njit(cache=True)
def draft(state, source, colour, dest):
    player = state[W_TO_MOVE]
    base = player_base(state, player)
    if source == SOURCE_CENTRE:
        centre = state[W_CENTRE]
        taken = count_of(centre, colour)
        state[W_CENTRE] = without_colour(centre, colour) & ~MARKER_BIT
        if has_marker(centre):
            # The marker goes to the floor first; it is taken even onto a full floor.
            state[base + P_FLOOR] |= MARKER_BIT
    else:
        tiles = state[W_FACTORY + source]
        taken = count_of(tiles, colour)
        state[W_CENTRE] += without_colour(tiles, colour)
        state[W_FACTORY + source] = 0

    overflow = taken
    if dest != DEST_FLOOR:
        lines = state[base + P_LINES]
        shift = 8 * dest
        held = (lines >> shift) & 0xF
        placed = min(taken, dest + 1 - held)
        lines &= ~(0xFF << shift)
        lines |= ((colour << 4) | (held + placed)) << shift
        state[base + P_LINES] = lines
        overflow = taken - placed
    if overflow > 0:
        drop_to_floor(state, base, colour, overflow)

    if table_empty(state):
        start_tiling(state)
    else:
        state[W_TO_MOVE] = (player + 1) % state[W_PLAYERS]


@njit(cache=True)
def drop_to_floor(state, base, colour, n):
    """Put ``n`` tiles on the floor; what finds no free slot goes to the lid."""
    floor = state[base + P_FLOOR]
    used = total(floor) + (1 if has_marker(floor) else 0)
    fits = max(0, min(n, FLOOR_SLOTS - used))
    state[base + P_FLOOR] = floor + fits * one_of(colour)
    state[W_LID] += (n - fits) * one_of(colour)


@njit(cache=True)
def table_empty(state):
    if state[W_CENTRE] & LANES_ALL:
        return False
    for f in range(2 * state[W_PLAYERS] + 1):
        if state[W_FACTORY + f]:
            return False
    return True


# ---- wall-tiling ---------------------------------------------------------------------


@njit(cache=True)
def place_on_wall(state, base, line, colour, column):
    """Move a full line's tile to the wall, score it, and send the rest to the lid."""
    cell = 5 * line + column
    state[base + P_WALL + colour] |= 1 << cell
    state[base + P_SCORE] += placement_points(occupancy(state, base), cell)
    state[W_LID] += line * one_of(colour)
    state[base + P_LINES] &= ~(0xFF << (8 * line))


@njit(cache=True)
def start_tiling(state):
    """Drafting is over: count a stalled round, then tile the walls."""
    state[W_STALLED] = 0 if some_tile_reaches_a_wall(state) else state[W_STALLED] + 1
    if state[W_VARIANT] == VARIANT_GRAY:
        continue_tiling(state, 0)
        return
    for player in range(state[W_PLAYERS]):
        base = player_base(state, player)
        for line in range(5):
            lines = state[base + P_LINES]
            if ((lines >> (8 * line)) & 0xF) == line + 1:
                colour = (lines >> (8 * line + 4)) & 0x7
                place_on_wall(state, base, line, colour, colour_column(line, colour))
    end_round(state)


@njit(cache=True)
def some_tile_reaches_a_wall(state):
    """Will this round's wall-tiling place a tile? Known before it starts.

    A full line places its tile unless (gray wall) it has no open column; a line
    whose open columns an earlier line takes away follows a placement anyway.
    """
    gray = state[W_VARIANT] == VARIANT_GRAY
    for player in range(state[W_PLAYERS]):
        base = player_base(state, player)
        for line in range(5):
            if ((state[base + P_LINES] >> (8 * line)) & 0xF) != line + 1:
                continue
            if not gray or tiling_columns(state, base, line) != 0:
                return True
    return False


@njit(cache=True)
def continue_tiling(state, first_player):
    """Gray wall: tile the lines of players from ``first_player`` on until a choice is due.

    A line with one open column is placed there, one with none goes to the floor;
    a line with two or more stops here as a move of its player.
    """
    for player in range(first_player, state[W_PLAYERS]):
        base = player_base(state, player)
        line = pending_line(state, base)
        while line >= 0:
            columns = tiling_columns(state, base, line)
            colour = (state[base + P_LINES] >> (8 * line + 4)) & 0x7
            open_columns = popcount(columns)
            if open_columns >= 2:
                state[W_PHASE] = PHASE_TILING
                state[W_TO_MOVE] = player
                return
            if open_columns == 1:
                column = 0
                while not (columns >> column) & 1:
                    column += 1
                place_on_wall(state, base, line, colour, column)
            else:
                state[base + P_LINES] &= ~(0xFF << (8 * line))
                drop_to_floor(state, base, colour, line + 1)
            line = pending_line(state, base)
    end_round(state)


# ---- end of round, end of game, refill -----------------------------------------------


@njit(cache=True)
def end_round(state):
    """Floor penalties, then either the end of the game or the refill of the next round."""
    players = state[W_PLAYERS]
    next_starter = state[W_STARTER]
    game_over = False
    for player in range(players):
        base = player_base(state, player)
        floor = state[base + P_FLOOR]
        marker = has_marker(floor)
        penalty = floor_penalty(total(floor) + (1 if marker else 0))
        state[base + P_SCORE] = max(0, state[base + P_SCORE] - penalty)
        state[W_LID] += floor & LANES_ALL
        state[base + P_FLOOR] = 0
        if marker:
            next_starter = player
        if complete_rows(occupancy(state, base)) > 0:
            game_over = True
    state[W_CENTRE] |= MARKER_BIT
    if not game_over:
        game_over = state[W_STALLED] >= STALL_LIMIT or (
            state[W_VARIANT] == VARIANT_GRAY and no_row_can_be_completed(state)
        )
    if game_over:
        finish_game(state)
        return
    state[W_ROUND] += 1
    state[W_STARTER] = next_starter
    state[W_TO_MOVE] = next_starter
    state[W_PHASE] = PHASE_REFILL
    check_refill_done(state)


@njit(cache=True)
def no_row_can_be_completed(state):
    """Gray wall: every row of every wall is blocked, so the game could never end."""
    for player in range(state[W_PLAYERS]):
        if any_row_can_be_completed(state, player_base(state, player)):
            return False
    return True


@njit(cache=True)
def finish_game(state):
    for player in range(state[W_PLAYERS]):
        base = player_base(state, player)
        state[base + P_SCORE] += end_bonus(state, base)
    state[W_PHASE] = PHASE_OVER


@njit(cache=True)
def next_factory(state):
    """The first factory that is not full, or -1."""
    for f in range(2 * state[W_PLAYERS] + 1):
        if total(state[W_FACTORY + f]) < FACTORY_SIZE:
            return f
    return -1


@njit(cache=True)
def draw_tile(state, colour):
    """One chance step of the refill: a tile of ``colour`` goes to the next factory."""
    if total(state[W_BAG]) == 0:
        state[W_BAG] = state[W_LID]
        state[W_LID] = 0
    state[W_BAG] -= one_of(colour)
    factory = next_factory(state)
    state[W_FACTORY + factory] += one_of(colour)
    last_filled = factory == 2 * state[W_PLAYERS] and total(state[W_FACTORY + factory]) == FACTORY_SIZE
    if last_filled or total(state[W_BAG] + state[W_LID]) == 0:
        start_draft(state)


@njit(cache=True)
def random_refill(state, rng):
    """The rest of the refill drawn at random: the same draws as repeated ``sample_chance``."""
    while state[W_PHASE] == PHASE_REFILL:
        draw_tile(state, sample_chance(state, rng) - CHANCE_MOVE_BASE)


@njit(cache=True)
def check_refill_done(state):
    """At the start of a refill: go straight to drafting when no tile is left to draw."""
    if total(state[W_BAG] + state[W_LID]) == 0:
        start_draft(state)


@njit(cache=True)
def start_draft(state):
    """Drafting begins; a refill that left the table empty ends the game (nobody could move)."""
    state[W_PHASE] = PHASE_DRAFT
    if table_empty(state):
        finish_game(state)
