"""Azul positions and moves as text and JSON; the format is docs/azul-notation.md.

Text is read into the JSON form first, so both forms share one builder, and the
builder ends with ``validate``: a position that parses is one the rules can reach
(as far as the documented checks can tell) and formats back to the same array.
"""
from typing import NamedTuple

import numpy as np

import tessera.kernels.azul as azul_kernels
import tessera.kernels.azul.layout as azul_layout
from tessera.kernels.azul.layout import (
    CHANCE_MOVE_BASE, COLOUR_BONUS, COLOUR_LETTERS, COLOUR_NAMES, COLUMN_BONUS, DEST_FLOOR,
    FACTORY_SIZE, FLOOR_SLOTS, GAME_ID, LANE_BITS, LANE_MASK, LANES_ALL, LINE_COLOUR_SHIFT,
    LINE_COUNT_MASK, MARKER_BIT, MAX_FACTORIES, MAX_MOVES, MAX_PLAYERS, NCOLOURS, NDESTS,
    P_FLOOR, P_LINES, P_SCORE, P_WALL, PHASE_DRAFT, PHASE_OVER, PHASE_REFILL, PHASE_TILING,
    ROW_BONUS, SOURCE_CENTRE, STALL_LIMIT, STATE_SIZE, TILE_MOVE_BASE,
    TILES_PER_COLOUR, VARIANT_COLOUR, VARIANT_GRAY, W_BAG, W_CENTRE, W_FACTORY, W_GAME, W_LID,
    W_PHASE, W_PLAYERS, W_ROUND, W_STALLED, W_STARTER, W_TO_MOVE, W_VARIANT, draft_move,
    factories_for,
    player_word, split_draft_move, wall_column,
)
from tessera.errors import MoveError, PositionError
from tessera.notation.fields import (
    check_array, check_game, check_keys, check_unused_words, counts_text, json_counts,
    legal_move, letter_counts, letters_text, list_of, move_code, move_colour, move_number,
    move_words, player_boards, position_tokens, shown, slash_list, text_counts, text_json,
    text_number, text_sections, text_value, whole_number,
)

GAME = "azul"
VARIANTS = ("colour", "gray")
PHASES = ("refill", "draft", "tiling", "over")
COLOUR_OF_LETTER = {letter: c for c, letter in enumerate(COLOUR_LETTERS)}
MARKER = "1"
NO_TILES = "-"
EMPTY_CELL = "."
FILLED_CELL = "x"                 # colour wall only: whatever colour is printed there
WALL_SIZE = 5
MAX_PLACEMENT_POINTS = 10         # a new tile links at most 5 in its row and 5 in its column

JSON_KEYS = ("game", "players", "wall", "round", "phase", "turn", "starter", "stalled",
             "factories", "centre", "bag", "lid", "boards")
OPTIONAL_KEYS = ("stalled",)      # 0 when left out; text output leaves out a 0
HEADER_KEYS = JSON_KEYS[1:-1]     # the text header: everything but game and boards
NUMBER_KEYS = ("players", "round", "turn", "starter", "stalled")
COUNT_KEYS = ("bag", "lid")
BOARD_KEYS = ("score", "wall", "lines", "floor")
HEADER_READERS = {
    **dict.fromkeys(NUMBER_KEYS, text_number),
    **dict.fromkeys(COUNT_KEYS, lambda field, token: text_counts(field, token, COLOUR_NAMES,
                                                                 COLOUR_LETTERS)),
}
BOARD_READERS = {"score": text_number, "wall": slash_list, "lines": slash_list}

ROW_CELLS = 0x1F
COLUMN_CELLS = 0x108421           # column 0: bits 0, 5, 10, 15, 20
WALL_CELLS = (1 << 25) - 1
LINE_BITS = sum(0x7F << (LANE_BITS * i) for i in range(WALL_SIZE))
# The cells where the colour wall prints each colour.
PRINTED_CELLS = tuple(sum(1 << (5 * r + wall_column(c, r)) for r in range(WALL_SIZE))
                      for c in range(NCOLOURS))


# ---- text form -----------------------------------------------------------------------

def parse_position(text):
    """The state array of a position in text form; raises PositionError."""
    tokens = position_tokens(text, GAME, "an Azul position")
    header, boards = text_sections(tokens, HEADER_KEYS, BOARD_KEYS)
    return position_from_json(text_json(GAME, header, boards, HEADER_READERS, BOARD_READERS))


def format_position(state):
    """The canonical text of a position: a header line, the table, one line per player."""
    obj = position_to_json(state)
    keys = ("players", "wall", "round", "phase", "turn", "starter", "stalled")
    header = " ".join(f"{key} {obj[key]}" for key in keys
                      if not (key in OPTIONAL_KEYS and obj[key] == 0))
    lines = [
        f"{GAME} {header}",
        "factories " + " ".join(obj["factories"]),
        f"centre {obj['centre']}",
        "bag " + counts_text(obj["bag"], COLOUR_NAMES),
        "lid " + counts_text(obj["lid"], COLOUR_NAMES),
    ]
    for number, board in enumerate(obj["boards"], 1):
        lines.append(f"player {number} score {board['score']} wall {'/'.join(board['wall'])}"
                     f" lines {'/'.join(board['lines'])} floor {board['floor']}")
    return "\n".join(lines)


# ---- JSON form -----------------------------------------------------------------------

def position_from_json(obj):
    """The state array of a position in JSON form (a dict); raises PositionError."""
    obj = check_game(obj, GAME, JSON_KEYS)
    players = whole_number("players", obj["players"])
    if not 2 <= players <= MAX_PLAYERS:
        raise PositionError("players", f"Azul has 2 to 4 players, not {players}")
    variant = _choice("wall", obj["wall"], VARIANTS)
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    state[W_PLAYERS] = players
    state[W_VARIANT] = variant
    state[W_PHASE] = _choice("phase", obj["phase"], PHASES)
    state[W_ROUND] = whole_number("round", obj["round"])
    state[W_TO_MOVE] = whole_number("turn", obj["turn"]) - 1
    state[W_STARTER] = whole_number("starter", obj["starter"]) - 1
    state[W_STALLED] = whole_number("stalled", obj.get("stalled", 0))
    factories = list_of("factories", obj["factories"], factories_for(players),
                         f"factories (a {players}-player game has {factories_for(players)})")
    for f, text in enumerate(factories):
        state[W_FACTORY + f] = _tile_set_word("factories", text)
    state[W_CENTRE] = _tile_set_word("centre", obj["centre"])
    state[W_BAG] = _counts_word("bag", obj["bag"])
    state[W_LID] = _counts_word("lid", obj["lid"])
    for p, board in enumerate(player_boards(obj["boards"], players)):
        _encode_board(state, p, board, variant)
    validate(state)
    return state


def position_to_json(state):
    """The JSON form of a position, as a dict ready for ``json.dumps``."""
    players = int(state[W_PLAYERS])
    return {
        "game": GAME,
        "players": players,
        "wall": VARIANTS[int(state[W_VARIANT])],
        "round": int(state[W_ROUND]),
        "phase": PHASES[int(state[W_PHASE])],
        "turn": int(state[W_TO_MOVE]) + 1,
        "starter": int(state[W_STARTER]) + 1,
        "stalled": int(state[W_STALLED]),
        "factories": [_tile_set_text(state[W_FACTORY + f]) for f in range(factories_for(players))],
        "centre": _tile_set_text(state[W_CENTRE]),
        "bag": _counts_json(state[W_BAG]),
        "lid": _counts_json(state[W_LID]),
        "boards": [_board_json(_read_board(state, p)) for p in range(players)],
    }


def _board_json(board):
    return {
        "score": board.score,
        "wall": _wall_rows(board.walls),
        "lines": [_line_text(board, i) for i in range(WALL_SIZE)],
        "floor": _tile_set_text(board.floor),
    }


def _choice(field, value, names):
    if value not in names:
        raise PositionError(field, f"expected {' or '.join(names)}, got {shown(value)}")
    return names.index(value)


def _encode_board(state, p, board, variant):
    prefix = f"player {p + 1} "
    board = check_keys(board, BOARD_KEYS, prefix)
    state[player_word(p, P_SCORE)] = whole_number(prefix + "score", board["score"])
    masks = _wall_masks(prefix + "wall", board["wall"], variant)
    for c in range(NCOLOURS):
        state[player_word(p, P_WALL + c)] = masks[c]
    state[player_word(p, P_LINES)] = _lines_word(prefix + "lines", board["lines"])
    state[player_word(p, P_FLOOR)] = _tile_set_word(prefix + "floor", board["floor"])


# ---- field codecs --------------------------------------------------------------------

def _tile_set_word(field, text):
    """A tile set like ``1BBR`` (``-`` for none) as a byte-lane word."""
    text = text_value(field, text)
    if text == NO_TILES:
        return 0
    unknown = set(text) - set(COLOUR_LETTERS + MARKER)
    if not text or unknown:
        raise PositionError(field, f"{shown(text)} is not a tile set (letters"
                                   f" {' '.join(COLOUR_LETTERS)}, {MARKER} for the marker,"
                                   f" {NO_TILES} for none)")
    if text.count(MARKER) > 1:
        raise PositionError(field, f"{shown(text)} has the marker twice")
    # At most TILES_PER_COLOUR also keeps each count inside its byte lane.
    counts = letter_counts(field, text, COLOUR_LETTERS, COLOUR_NAMES, TILES_PER_COLOUR, "tiles")
    return (MARKER_BIT if MARKER in text else 0) + _lanes_word(counts)


def _tile_set_text(word):
    word = int(word)
    text = MARKER if word & MARKER_BIT else ""
    text += letters_text(_lane_counts(word), COLOUR_LETTERS)
    return text or NO_TILES


def _counts_word(field, counts):
    return _lanes_word(json_counts(field, counts, COLOUR_NAMES, TILES_PER_COLOUR, "tiles"))


def _counts_json(word):
    return dict(zip(COLOUR_NAMES, _lane_counts(word)))


def _wall_masks(field, rows, variant):
    """Five colour masks from five rows of cells."""
    rows = list_of(field, rows, WALL_SIZE, "rows")
    masks = [0] * NCOLOURS
    for r, row in enumerate(rows):
        if len(row) != WALL_SIZE:
            raise PositionError(field, f"row {r + 1} {shown(row)} needs 5 cells")
        for col, cell in enumerate(row):
            colour = _wall_cell_colour(field, cell, r, col, variant)
            if colour is not None:
                masks[colour] |= 1 << (5 * r + col)
    return masks


def _wall_cell_colour(field, cell, row, col, variant):
    if cell == EMPTY_CELL:
        return None
    if cell == FILLED_CELL and variant == VARIANT_COLOUR:
        return (col - row) % NCOLOURS
    if cell in COLOUR_OF_LETTER:
        return COLOUR_OF_LETTER[cell]
    allowed = "a colour letter or '.'" + (" or 'x'" if variant == VARIANT_COLOUR else "")
    raise PositionError(field, f"row {row + 1} column {col + 1}: {shown(cell)} is not {allowed}")


def _wall_rows(walls):
    cells = [EMPTY_CELL] * (WALL_SIZE * WALL_SIZE)
    for c, mask in enumerate(walls):
        for cell in range(WALL_SIZE * WALL_SIZE):
            if mask >> cell & 1:
                cells[cell] = COLOUR_LETTERS[c]
    return ["".join(cells[5 * r:5 * r + 5]) for r in range(WALL_SIZE)]


def _lines_word(field, groups):
    groups = list_of(field, groups, WALL_SIZE, "lines")
    return sum(_line_lane(field, i, group) << (LANE_BITS * i) for i, group in enumerate(groups))


def _line_lane(field, line, group):
    """One pattern line: tiles of one colour, then '.' padding (optional), or '-'."""
    if group == NO_TILES:
        return 0
    tiles = group.rstrip(EMPTY_CELL)
    if not group or set(tiles) - set(COLOUR_LETTERS) or len(set(tiles)) > 1:
        raise PositionError(field, f"line {line + 1} {shown(group)} is not tiles of one colour"
                                   " then '.'")
    if len(group) > line + 1:
        raise PositionError(field, f"line {line + 1} has room for {line + 1}, got {shown(group)}")
    if not tiles:
        return 0
    return len(tiles) | COLOUR_OF_LETTER[tiles[0]] << LINE_COLOUR_SHIFT


def _line_text(board, line):
    count, colour = board.line(line)
    return COLOUR_LETTERS[colour] * count + EMPTY_CELL * (line + 1 - count)


def _lane_counts(word):
    return [int(word) >> (LANE_BITS * c) & LANE_MASK for c in range(NCOLOURS)]


def _lanes_word(counts):
    return sum(count << (LANE_BITS * c) for c, count in enumerate(counts))


def _tiles(word):
    return sum(_lane_counts(word))


def _has_marker(word):
    return bool(int(word) & MARKER_BIT)


class _Board(NamedTuple):
    """One player's words, as Python ints."""
    walls: tuple
    lines: int
    floor: int
    score: int

    def line(self, i):
        """(count, colour) of pattern line ``i``."""
        lane = self.lines >> (LANE_BITS * i) & LANE_MASK
        return lane & LINE_COUNT_MASK, lane >> LINE_COLOUR_SHIFT

    def line_is_full(self, i):
        return self.line(i)[0] == i + 1

    def occupancy(self):
        return _occupancy(self.walls)

    def complete_rows(self):
        occupied = self.occupancy()
        return sum(occupied >> (5 * r) & ROW_CELLS == ROW_CELLS for r in range(WALL_SIZE))


def _occupancy(walls):
    return walls[0] | walls[1] | walls[2] | walls[3] | walls[4]


def _factory_words(state):
    return [state[W_FACTORY + f] for f in range(factories_for(int(state[W_PLAYERS])))]


def _read_board(state, p):
    return _Board(
        walls=tuple(int(state[player_word(p, P_WALL + c)]) for c in range(NCOLOURS)),
        lines=int(state[player_word(p, P_LINES)]),
        floor=int(state[player_word(p, P_FLOOR)]),
        score=int(state[player_word(p, P_SCORE)]),
    )


# ---- validation ----------------------------------------------------------------------

def validate(state):
    """Raise PositionError unless ``state`` is a position the rules can reach.

    The checks, in order, are listed in docs/azul-notation.md ("Validation").
    """
    check_array(state, STATE_SIZE, GAME_ID, "Azul")
    _check_header(state)
    check_unused_words(state, azul_layout)
    _check_table_sets(state)
    boards = [_read_board(state, p) for p in range(int(state[W_PLAYERS]))]
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
        raise PositionError("stalled", f"{state[W_STALLED]} stalled rounds in round"
                                       f" {state[W_ROUND]} (the game ends at {STALL_LIMIT})")
    if state[W_PHASE] == PHASE_TILING and state[W_STALLED]:
        # A line to tile places a tile, so this round is not stalled.
        raise PositionError("stalled", f"{state[W_STALLED]} stalled rounds in phase tiling"
                                       " (a round with a tile to place is not stalled)")


def _check_table_sets(state):
    _check_tile_set("centre", "the centre", state[W_CENTRE], marker_allowed=True)
    _check_tile_set("bag", "the bag", state[W_BAG], marker_allowed=False)
    _check_tile_set("lid", "the lid", state[W_LID], marker_allowed=False)
    for f, word in enumerate(_factory_words(state)):
        _check_tile_set("factories", f"factory {f + 1}", word, marker_allowed=False)
        if _tiles(word) > FACTORY_SIZE:
            raise PositionError("factories", f"factory {f + 1} holds {_tiles(word)} tiles"
                                             f" (at most {FACTORY_SIZE})")


def _check_tile_set(field, name, word, marker_allowed):
    word = int(word)
    if word & ~(LANES_ALL | MARKER_BIT):
        raise PositionError(field, f"{name} has bits outside the colour lanes and the marker")
    if _has_marker(word) and not marker_allowed:
        raise PositionError(field, f"{name} holds the first-player marker")
    for name_of_colour, count in zip(COLOUR_NAMES, _lane_counts(word)):
        if count > TILES_PER_COLOUR:
            raise PositionError(field, f"{name} holds {count} {name_of_colour} tiles (20 exist)")


def _check_board(state, p, board):
    prefix = f"player {p + 1} "
    _check_wall(prefix + "wall", board.walls, int(state[W_VARIANT]))
    _check_lines(prefix + "lines", board)
    _check_tile_set(prefix + "floor", "the floor", board.floor, marker_allowed=True)
    if _tiles(board.floor) > FLOOR_SLOTS:
        # The marker may join a full floor (rulings), so only tiles are counted.
        raise PositionError(prefix + "floor", f"{_tiles(board.floor)} tiles on a floor of"
                                              f" {FLOOR_SLOTS} slots")
    _check_score(prefix + "score", board, int(state[W_PHASE]))


def _check_wall(field, walls, variant):
    if any(mask & ~WALL_CELLS for mask in walls):
        raise PositionError(field, "a colour mask has bits outside the 25 cells")
    if sum(mask.bit_count() for mask in walls) != _occupancy(walls).bit_count():
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
        raise PositionError(field, f"{COLOUR_NAMES[colour]} in row {row + 1} column {col + 1},"
                                   f" where the colour wall has {printed}")


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
            raise PositionError(field, f"line {i + 1} holds {COLOUR_NAMES[colour]}, which"
                                       f" row {i + 1} of the wall already has")


def _check_score(field, board, phase):
    """At most 10 points per wall tile, plus the end bonuses once the game is over."""
    if board.score < 0:
        raise PositionError(field, f"{board.score} points (a score never drops below 0)")
    limit = MAX_PLACEMENT_POINTS * board.occupancy().bit_count()
    if phase == PHASE_OVER:
        limit += _end_bonus(board)
    if board.score > limit:
        raise PositionError(field, f"{board.score} points from {board.occupancy().bit_count()}"
                                   f" wall tiles (at most {limit})")


def _end_bonus(board):
    occupied = board.occupancy()
    columns = sum(occupied >> col & COLUMN_CELLS == COLUMN_CELLS for col in range(WALL_SIZE))
    colours = sum(mask.bit_count() == WALL_SIZE for mask in board.walls)
    return (ROW_BONUS * board.complete_rows() + COLUMN_BONUS * columns
            + COLOUR_BONUS * colours)


def _check_tile_totals(state, boards):
    """Every tile is somewhere: bag, lid, factories, centre, lines, floors, walls."""
    totals = [0] * NCOLOURS
    words = [state[W_BAG], state[W_LID], state[W_CENTRE]] + _factory_words(state)
    words += [board.floor for board in boards]
    for word in words:
        totals = [t + n for t, n in zip(totals, _lane_counts(word))]
    for board in boards:
        for c in range(NCOLOURS):
            totals[c] += board.walls[c].bit_count()
        for i in range(WALL_SIZE):
            count, colour = board.line(i)
            if count:
                totals[colour] += count
    wrong = [f"{name} {n}" for name, n in zip(COLOUR_NAMES, totals) if n != TILES_PER_COLOUR]
    if wrong:
        raise PositionError("tiles", f"{', '.join(wrong)}; each colour has"
                                     f" {TILES_PER_COLOUR} tiles")


def _check_marker(state, boards):
    markers = _has_marker(state[W_CENTRE]) + sum(_has_marker(b.floor) for b in boards)
    if markers > 1 or (markers == 0 and state[W_PHASE] != PHASE_OVER):
        raise PositionError("marker", f"{markers} first-player markers; there must be exactly"
                                      " one, in the centre or on a floor (at most one once"
                                      " the game is over)")


def _check_refill(state, boards):
    """Between rounds: factories filling in order, the rest of the table cleared."""
    if _tiles(state[W_CENTRE]):
        raise PositionError("centre", "tiles in the centre before the factories are filled")
    for p, board in enumerate(boards):
        if board.floor:
            raise PositionError(f"player {p + 1} floor", "not empty in phase refill (floors"
                                                         " are cleared at the end of a round)")
    _check_no_full_lines(boards, "refill")
    counts = [_tiles(word) for word in _factory_words(state)]
    filling = next((f for f, n in enumerate(counts) if n < FACTORY_SIZE), None)
    if filling is None:
        raise PositionError("factories", "all factories are full, so the refill is over")
    if any(counts[filling + 1:]):
        raise PositionError("factories", f"factory {filling + 1} is not full but a later one"
                                         " has tiles (factories fill in order)")
    if not _tiles(state[W_BAG]) + _tiles(state[W_LID]):
        raise PositionError("bag", "bag and lid are empty, so the refill is over")
    if state[W_TO_MOVE] != state[W_STARTER]:
        raise PositionError("turn", "in phase refill the player to move is the starter")
    _check_game_goes_on(boards)


def _check_draft(state, boards):
    """Tiles left to take; a part-filled factory only from a refill that ran dry."""
    factories = [_tiles(word) for word in _factory_words(state)]
    if not any(factories) and not _tiles(state[W_CENTRE]):
        raise PositionError("factories", "no tiles on the factories or in the centre in phase"
                                         " draft")
    short = [f for f, n in enumerate(factories) if 0 < n < FACTORY_SIZE]
    if len(short) > 1:
        raise PositionError("factories", f"factories {short[0] + 1} and {short[1] + 1} are"
                                         " part-filled (only a refill's last factory can be)")
    if short and any(factories[short[0] + 1:]):
        raise PositionError("factories", f"factory {short[0] + 1} is part-filled but a later"
                                         " factory has tiles")
    if short and _tiles(state[W_BAG]):
        raise PositionError("factories", f"factory {short[0] + 1} is part-filled but the bag"
                                         " has tiles (a refill stops only when bag and lid"
                                         " are empty)")
    _check_game_goes_on(boards)


def _check_tiling(state, boards):
    """Gray wall: players tile in seat order; the player to move has a real choice."""
    if state[W_VARIANT] != VARIANT_GRAY:
        raise PositionError("phase", "phase tiling is for the gray wall (the colour wall has"
                                     " no choices)")
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
        raise PositionError(field, f"line {line + 1} has {columns} free column(s); a tiling move"
                                   " needs two or more")


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
            raise PositionError(f"player {p + 1} floor", "not empty in phase over (floors are"
                                                         " scored at the end of a round)")
    out_of_tiles = not _tiles(state[W_BAG]) + _tiles(state[W_LID])
    stalled_out = state[W_STALLED] == STALL_LIMIT
    if not (out_of_tiles or stalled_out or any(board.complete_rows() for board in boards)
            or _gray_walls_blocked(state)):
        raise PositionError("phase", "over, but no wall has a complete row, tiles are left,"
                                     f" fewer than {STALL_LIMIT} rounds in a row stalled and"
                                     " some row can still be completed")


_PHASE_CHECKS = {
    PHASE_REFILL: _check_refill,
    PHASE_DRAFT: _check_draft,
    PHASE_TILING: _check_tiling,
    PHASE_OVER: _check_over,
}


def _check_table_empty(state, phase):
    for f, word in enumerate(_factory_words(state)):
        if _tiles(word):
            raise PositionError("factories", f"factory {f + 1} has tiles in phase {phase}")
    if _tiles(state[W_CENTRE]):
        raise PositionError("centre", f"tiles in the centre in phase {phase}")


def _check_no_full_lines(boards, phase, why="(full lines are tiled at the end of a round)"):
    for p, board in enumerate(boards):
        for i in range(WALL_SIZE):
            if board.line_is_full(i):
                raise PositionError(f"player {p + 1} lines", f"line {i + 1} is full in phase"
                                                             f" {phase} {why}")


def _check_game_goes_on(boards):
    """A complete row ends the game at the round's end, so none exists before tiling."""
    for p, board in enumerate(boards):
        if board.complete_rows():
            raise PositionError(f"player {p + 1} wall", "a complete row, but the game went on"
                                                        " to another round")


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
            raise PositionError(f"player {p + 1} wall", f"{tiles} tiles after {finished_rounds}"
                                                        " wall-tilings (at most 5 each)")
    wall_tiles = sum(board.occupancy().bit_count() for board in boards)
    # Each round that placed a tile follows at most STALL_LIMIT - 1 stalled ones; the
    # stalled rounds since the last such round are counted in `stalled`, except during
    # a tiling, whose own earlier rounds may end in STALL_LIMIT - 1 stalled ones.
    trailing = STALL_LIMIT if state[W_PHASE] == PHASE_TILING else int(state[W_STALLED])
    limit = STALL_LIMIT * wall_tiles + trailing + round_number - finished_rounds
    if round_number > limit:
        raise PositionError("round", f"round {round_number} with {wall_tiles} wall tiles and"
                                     f" {state[W_STALLED]} stalled rounds (at most round {limit}:"
                                     f" {STALL_LIMIT} stalled rounds in a row end the game)")


# ---- moves ---------------------------------------------------------------------------

MOVE_FORMS = "'F3 blue 4', 'C red floor', 'col 2' or 'draw red'"


def format_move(state, move):
    """Canonical text of a move code. ``state`` is part of the Game interface; codes
    do not depend on it."""
    move = move_code(move, "an Azul")
    if 0 <= move < MAX_MOVES:
        source, colour, dest = split_draft_move(move)
        where = "C" if source == SOURCE_CENTRE else f"F{source + 1}"
        to = "floor" if dest == DEST_FLOOR else str(dest + 1)
        return f"{where} {COLOUR_NAMES[colour]} {to}"
    if TILE_MOVE_BASE <= move < TILE_MOVE_BASE + WALL_SIZE:
        return f"col {move - TILE_MOVE_BASE + 1}"
    if CHANCE_MOVE_BASE <= move < CHANCE_MOVE_BASE + NCOLOURS:
        return f"draw {COLOUR_NAMES[move - CHANCE_MOVE_BASE]}"
    raise MoveError(str(move), "not an Azul move code")


def parse_move(state, text):
    """The move code of ``text`` if it is legal in ``state``; raises MoveError."""
    return legal_move(state, text, _move_code(text), azul_kernels, _why_illegal)


def _move_code(text):
    words = move_words(text)
    if len(words) == 2 and words[0] == "draw":
        return CHANCE_MOVE_BASE + _move_colour(text, words[1])
    if len(words) == 2 and words[0] == "col":
        return TILE_MOVE_BASE + move_number(text, words[1], WALL_SIZE, "column") - 1
    if len(words) == 3:
        source = _move_source(text, words[0])
        return draft_move(source, _move_colour(text, words[1]), _move_destination(text, words[2]))
    raise MoveError(text, f"expected {MOVE_FORMS}")


def _move_source(text, word):
    if word == "c":
        return SOURCE_CENTRE
    if word.startswith("f"):
        return move_number(text, word[1:], MAX_FACTORIES, "factory") - 1
    raise MoveError(text, f"'{word}' is not a source (F1..F9 or C)")


def _move_colour(text, word):
    return move_colour(text, word, COLOUR_NAMES, COLOUR_LETTERS)


def _move_destination(text, word):
    if word == "floor":
        return DEST_FLOOR
    return move_number(text, word, NDESTS - 1, "pattern line") - 1


def _why_illegal(state):
    phase = int(state[W_PHASE])
    if phase == PHASE_OVER:
        return "the game is over"
    if phase == PHASE_REFILL:
        return "not a possible draw (phase refill: 'draw <colour>' for a colour left to draw)"
    kind = "'col <n>'" if phase == PHASE_TILING else "'<source> <colour> <line|floor>'"
    return f"not legal for player {state[W_TO_MOVE] + 1} in phase {PHASES[phase]} ({kind})"
