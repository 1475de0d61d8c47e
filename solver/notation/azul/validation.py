"""Checking an Azul state array is a position the rules can reach, each failure a
PositionError naming the field; the checks, in order, are listed in
docs/azul-notation.md ("Validation")."""

import tessera.kernels.azul.layout as azul_layout
from tessera.errors import PositionError
from tessera.kernels.azul.layout import (
    COLOUR_BONUS,
    COLOUR_NAMES,
    COLUMN_BONUS,
    FACTORY_SIZE,
    FLOOR_SLOTS,
    GAME_ID,
    LANES_ALL,
    MARKER_BIT,
    MAX_PLAYERS,
    NCOLOURS,
    PHASE_DRAFT,
    PHASE_OVER,
    PHASE_REFILL,
    PHASE_TILING,
    ROW_BONUS,
    STALL_LIMIT,
    STATE_SIZE,
    TILES_PER_COLOUR,
    VARIANT_COLOUR,
    VARIANT_GRAY,
    W_BAG,
    W_CENTRE,
    W_LID,
    W_PHASE,
    W_PLAYERS,
    W_ROUND,
    W_STALLED,
    W_STARTER,
    W_TO_MOVE,
    W_VARIANT,
)
from tessera.notation.azul.words import (
    COLUMN_CELLS,
    LINE_BITS,
    PHASES,
    PRINTED_CELLS,
    ROW_CELLS,
    TILES,
    WALL_CELLS,
    WALL_SIZE,
    factory_words,
    has_marker,
    occupancy,
    read_board,
)
from tessera.notation.fields import check_array, check_unused_words, filling_factory, part_filled_factory

MAX_PLACEMENT_POINTS = 10  # a new tile links at most 5 in its row and 5 in its column


def validate(state):
    """Raise PositionError unless ``state`` is a position the rules can reach.

    The checks, in order, are listed in docs/azul-notation.md ("Validation").
    """
    check_array(state, STATE_SIZE, GAME_ID, "Azul")
    _check_header(state)
    check_unused_words(state, azul_layout)
    _check_table_sets(state)
    boards = [read_board(state, p) for p in range(int(state[W_PLAYERS]))]
    for p, board in enumerate(boards):
        _check_board(state, p, board)
    _check_tile_totals(state, boards)
    _check_marker(state, boards)
    _PHASE_CHECKS[int(state[W_PHASE])](state, boards)
    _check_wall_progress(state, boards)


def _check_header(state):
    players = int(state[W_PLAYERS])
    if not 2 <= players <= MAX_PLAYERS:
        raise PositionError("players", f"Azul has 2 to 4 players, not {players}")
    if state[W_VARIANT] not in (VARIANT_COLOUR, VARIANT_GRAY):
        raise PositionError("wall", f"unknown wall variant {state[W_VARIANT]}")
    if not 0 <= state[W_PHASE] < len(PHASES):
        raise PositionError("phase", f"unknown phase {state[W_PHASE]}")
    if state[W_ROUND] < 1:
        raise PositionError("round", f"rounds count from 1, got {state[W_ROUND]}")
    for field, word in (("turn", W_TO_MOVE), ("starter", W_STARTER)):
        if not 0 <= state[word] < players:
            raise PositionError(field, f"no player {state[word] + 1} in a {players}-player game")
    if state[W_ROUND] == 1 and state[W_STARTER] != 0:
        raise PositionError("starter", "player 1 starts round 1")
    # Counted as a round's drafting ends: in tiling and over the round itself counts.
    this_round_counted = state[W_PHASE] in (PHASE_TILING, PHASE_OVER)
    limit = STALL_LIMIT if this_round_counted else STALL_LIMIT - 1
    if not 0 <= state[W_STALLED] <= min(limit, state[W_ROUND] - 1 + this_round_counted):
        raise PositionError(
            "stalled", f"{state[W_STALLED]} stalled rounds in round {state[W_ROUND]} (the game ends at {STALL_LIMIT})"
        )
    if state[W_PHASE] == PHASE_TILING and state[W_STALLED]:
        # A line to tile places a tile, so this round is not stalled.
        raise PositionError(
            "stalled",
            f"{state[W_STALLED]} stalled rounds in phase tiling (a round with a tile to place is not stalled)",
        )


def _check_table_sets(state):
    _check_tile_set("centre", "the centre", state[W_CENTRE], marker_allowed=True)
    _check_tile_set("bag", "the bag", state[W_BAG], marker_allowed=False)
    _check_tile_set("lid", "the lid", state[W_LID], marker_allowed=False)
    for f, word in enumerate(factory_words(state)):
        _check_tile_set("factories", f"factory {f + 1}", word, marker_allowed=False)
        if TILES.tiles(word) > FACTORY_SIZE:
            raise PositionError(
                "factories", f"factory {f + 1} holds {TILES.tiles(word)} tiles (at most {FACTORY_SIZE})"
            )


def _check_tile_set(field, name, word, marker_allowed):
    word = int(word)
    if word & ~(LANES_ALL | MARKER_BIT):
        raise PositionError(field, f"{name} has bits outside the colour lanes and the marker")
    if has_marker(word) and not marker_allowed:
        raise PositionError(field, f"{name} holds the first-player marker")
    TILES.check_counts(field, name, word)


def _check_board(state, p, board):
    prefix = f"player {p + 1} "
    _check_wall(prefix + "wall", board.walls, int(state[W_VARIANT]))
    _check_lines(prefix + "lines", board)
    _check_tile_set(prefix + "floor", "the floor", board.floor, marker_allowed=True)
    if TILES.tiles(board.floor) > FLOOR_SLOTS:
        # The marker may join a full floor (rulings), so only tiles are counted.
        raise PositionError(prefix + "floor", f"{TILES.tiles(board.floor)} tiles on a floor of {FLOOR_SLOTS} slots")
    _check_score(prefix + "score", board, int(state[W_PHASE]))


def _check_wall(field, walls, variant):
    if any(mask & ~WALL_CELLS for mask in walls):
        raise PositionError(field, "a colour mask has bits outside the 25 cells")
    if sum(mask.bit_count() for mask in walls) != occupancy(walls).bit_count():
        raise PositionError(field, "two colours share a cell")
    for c, mask in enumerate(walls):
        if variant == VARIANT_COLOUR:
            _check_printed_cells(field, c, mask)
        else:
            _check_latin(field, c, mask)


def _check_printed_cells(field, colour, mask):
    misplaced = mask & ~PRINTED_CELLS[colour]
    if misplaced:
        cell = (misplaced & -misplaced).bit_length() - 1
        row, col = divmod(cell, 5)
        printed = COLOUR_NAMES[(col - row) % NCOLOURS]
        raise PositionError(
            field, f"{COLOUR_NAMES[colour]} in row {row + 1} column {col + 1}, where the colour wall has {printed}"
        )


def _check_latin(field, colour, mask):
    for i in range(WALL_SIZE):
        if (mask >> (5 * i) & ROW_CELLS).bit_count() > 1:
            raise PositionError(field, f"{COLOUR_NAMES[colour]} twice in row {i + 1}")
        if (mask >> i & COLUMN_CELLS).bit_count() > 1:
            raise PositionError(field, f"{COLOUR_NAMES[colour]} twice in column {i + 1}")


def _check_lines(field, board):
    if board.lines & ~LINE_BITS:
        raise PositionError(field, "bits outside the five line lanes")
    for i in range(WALL_SIZE):
        count, colour = board.line(i)
        if count > i + 1:
            raise PositionError(field, f"line {i + 1} holds {count} tiles (room for {i + 1})")
        if count == 0 and colour:
            # Canonical arrays only: an empty line formats without its colour.
            raise PositionError(field, f"line {i + 1} is empty but has a colour code")
        if count and colour >= NCOLOURS:
            raise PositionError(field, f"line {i + 1} has unknown colour code {colour}")
        if count and board.walls[colour] >> (5 * i) & ROW_CELLS:
            raise PositionError(
                field, f"line {i + 1} holds {COLOUR_NAMES[colour]}, which row {i + 1} of the wall already has"
            )


def _check_score(field, board, phase):
    """At most 10 points per wall tile, plus the end bonuses once the game is over."""
    if board.score < 0:
        raise PositionError(field, f"{board.score} points (a score never drops below 0)")
    limit = MAX_PLACEMENT_POINTS * board.occupancy().bit_count()
    if phase == PHASE_OVER:
        limit += _end_bonus(board)
    if board.score > limit:
        raise PositionError(
            field, f"{board.score} points from {board.occupancy().bit_count()} wall tiles (at most {limit})"
        )


def _end_bonus(board):
    occupied = board.occupancy()
    columns = sum(occupied >> col & COLUMN_CELLS == COLUMN_CELLS for col in range(WALL_SIZE))
    colours = sum(mask.bit_count() == WALL_SIZE for mask in board.walls)
    return ROW_BONUS * board.complete_rows() + COLUMN_BONUS * columns + COLOUR_BONUS * colours


def _check_tile_totals(state, boards):
    """Every tile is somewhere: bag, lid, factories, centre, lines, floors, walls."""
    totals = [0] * NCOLOURS
    words = [state[W_BAG], state[W_LID], state[W_CENTRE]] + factory_words(state)
    words += [board.floor for board in boards]
    for word in words:
        totals = [t + n for t, n in zip(totals, TILES.counts(word))]
    for board in boards:
        for c in range(NCOLOURS):
            totals[c] += board.walls[c].bit_count()
        for i in range(WALL_SIZE):
            count, colour = board.line(i)
            if count:
                totals[colour] += count
    wrong = [f"{name} {n}" for name, n in zip(COLOUR_NAMES, totals) if n != TILES_PER_COLOUR]
    if wrong:
        raise PositionError("tiles", f"{', '.join(wrong)}; each colour has {TILES_PER_COLOUR} tiles")


def _check_marker(state, boards):
    markers = has_marker(state[W_CENTRE]) + sum(has_marker(b.floor) for b in boards)
    if markers > 1 or (markers == 0 and state[W_PHASE] != PHASE_OVER):
        raise PositionError(
            "marker",
            f"{markers} first-player markers; there must be exactly"
            " one, in the centre or on a floor (at most one once"
            " the game is over)",
        )


def _check_refill(state, boards):
    """Between rounds: factories filling in order, the rest of the table cleared."""
    if TILES.tiles(state[W_CENTRE]):
        raise PositionError("centre", "tiles in the centre before the factories are filled")
    for p, board in enumerate(boards):
        if board.floor:
            raise PositionError(
                f"player {p + 1} floor", "not empty in phase refill (floors are cleared at the end of a round)"
            )
    _check_no_full_lines(boards, "refill")
    counts = [TILES.tiles(word) for word in factory_words(state)]
    if filling_factory(counts, FACTORY_SIZE) is None:
        raise PositionError("factories", "all factories are full, so the refill is over")
    if not TILES.tiles(state[W_BAG]) + TILES.tiles(state[W_LID]):
        raise PositionError("bag", "bag and lid are empty, so the refill is over")
    if state[W_TO_MOVE] != state[W_STARTER]:
        raise PositionError("turn", "in phase refill the player to move is the starter")
    _check_game_goes_on(boards)


def _check_draft(state, boards):
    """Tiles left to take; a part-filled factory only from a refill that ran dry."""
    factories = [TILES.tiles(word) for word in factory_words(state)]
    if not any(factories) and not TILES.tiles(state[W_CENTRE]):
        raise PositionError("factories", "no tiles on the factories or in the centre in phase draft")
    short = part_filled_factory(factories, FACTORY_SIZE)
    if short is not None and any(factories[short + 1 :]):
        raise PositionError("factories", f"factory {short + 1} is part-filled but a later factory has tiles")
    if short is not None and TILES.tiles(state[W_BAG]):
        raise PositionError(
            "factories",
            f"factory {short + 1} is part-filled but the bag"
            " has tiles (a refill stops only when bag and lid"
            " are empty)",
        )
    _check_game_goes_on(boards)


def _check_tiling(state, boards):
    """Gray wall: players tile in seat order; the player to move has a real choice."""
    if state[W_VARIANT] != VARIANT_GRAY:
        raise PositionError("phase", "phase tiling is for the gray wall (the colour wall has no choices)")
    _check_table_empty(state, "tiling")
    tiler = int(state[W_TO_MOVE])
    _check_no_full_lines(boards[:tiler], "tiling", "(earlier players have tiled)")
    board = boards[tiler]
    field = f"player {tiler + 1} lines"
    line = next((i for i in range(WALL_SIZE) if board.line_is_full(i)), None)
    if line is None:
        raise PositionError(field, "no full line to tile in phase tiling")
    columns = _free_columns(board, line).bit_count()
    if columns < 2:
        raise PositionError(field, f"line {line + 1} has {columns} free column(s); a tiling move needs two or more")


def _free_columns(board, line):
    """Gray wall: columns of the line's row open to the line's colour."""
    colour = board.line(line)[1]
    used = board.walls[colour]
    used_columns = (used | used >> 5 | used >> 10 | used >> 15 | used >> 20) & ROW_CELLS
    return ~(board.occupancy() >> (5 * line) | used_columns) & ROW_CELLS


def _gray_walls_blocked(state):
    """The gray-wall ending of docs/azul.md: no row of any wall can be completed."""
    from tessera.kernels.azul.apply import no_row_can_be_completed

    return state[W_VARIANT] == VARIANT_GRAY and no_row_can_be_completed(state)


def _check_over(state, boards):
    """After the last wall-tiling: table, lines and floors cleared, and a reason to end."""
    _check_table_empty(state, "over")
    _check_no_full_lines(boards, "over")
    for p, board in enumerate(boards):
        if board.floor:
            raise PositionError(
                f"player {p + 1} floor", "not empty in phase over (floors are scored at the end of a round)"
            )
    out_of_tiles = not TILES.tiles(state[W_BAG]) + TILES.tiles(state[W_LID])
    stalled_out = state[W_STALLED] == STALL_LIMIT
    if not (
        out_of_tiles or stalled_out or any(board.complete_rows() for board in boards) or _gray_walls_blocked(state)
    ):
        raise PositionError(
            "phase",
            "over, but no wall has a complete row, tiles are left,"
            f" fewer than {STALL_LIMIT} rounds in a row stalled and"
            " some row can still be completed",
        )


_PHASE_CHECKS = {
    PHASE_REFILL: _check_refill,
    PHASE_DRAFT: _check_draft,
    PHASE_TILING: _check_tiling,
    PHASE_OVER: _check_over,
}


def _check_table_empty(state, phase):
    for f, word in enumerate(factory_words(state)):
        if TILES.tiles(word):
            raise PositionError("factories", f"factory {f + 1} has tiles in phase {phase}")
    if TILES.tiles(state[W_CENTRE]):
        raise PositionError("centre", f"tiles in the centre in phase {phase}")


def _check_no_full_lines(boards, phase, why="(full lines are tiled at the end of a round)"):
    for p, board in enumerate(boards):
        for i in range(WALL_SIZE):
            if board.line_is_full(i):
                raise PositionError(f"player {p + 1} lines", f"line {i + 1} is full in phase {phase} {why}")


def _check_game_goes_on(boards):
    """A complete row ends the game at the round's end, so none exists before tiling."""
    for p, board in enumerate(boards):
        if board.complete_rows():
            raise PositionError(f"player {p + 1} wall", "a complete row, but the game went on to another round")


def _check_wall_progress(state, boards):
    """At most five tiles reach a wall per round (one per line); and a round that
    places none is stalled, so the rounds so far are bounded by the wall tiles."""
    round_number = int(state[W_ROUND])
    finished_rounds = round_number
    if state[W_PHASE] in (PHASE_REFILL, PHASE_DRAFT):
        finished_rounds -= 1
    for p, board in enumerate(boards):
        tiles = board.occupancy().bit_count()
        if tiles > WALL_SIZE * finished_rounds:
            raise PositionError(
                f"player {p + 1} wall", f"{tiles} tiles after {finished_rounds} wall-tilings (at most 5 each)"
            )
    wall_tiles = sum(board.occupancy().bit_count() for board in boards)
    # Each round that placed a tile follows at most STALL_LIMIT - 1 stalled ones; the
    # stalled rounds since the last such round are counted in `stalled`, except during
    # a tiling, whose own earlier rounds may end in STALL_LIMIT - 1 stalled ones.
    trailing = STALL_LIMIT if state[W_PHASE] == PHASE_TILING else int(state[W_STALLED])
    limit = STALL_LIMIT * wall_tiles + trailing + round_number - finished_rounds
    if round_number > limit:
        raise PositionError(
            "round",
            f"round {round_number} with {wall_tiles} wall tiles and"
            f" {state[W_STALLED]} stalled rounds (at most round {limit}:"
            f" {STALL_LIMIT} stalled rounds in a row end the game)",
        )
