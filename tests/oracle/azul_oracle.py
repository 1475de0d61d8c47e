"""An independent, slow, plain-Python reading of the Azul rules: a test oracle.

Written from the rule texts (``shared/seeds/azul-*.txt``), ``shared/rulings.md`` and
``docs/azul.md`` only; the numba kernels are deliberately not consulted (apart from
``kernels/azul/layout.py``, which fixes the state array and the move codes, so that
``from_array`` / ``to_array`` and the move numbers agree with the engine).

Representation (clarity over speed):

- a tile set (bag, lid, factory, centre) is a list of 5 counts, indexed by colour
  (0 blue, 1 yellow, 2 red, 3 black, 4 white); the first-player marker in the centre
  is the flag ``State.centre_marker``;
- a wall is a 5x5 grid of colour-or-None (``wall[row][col]``);
- a pattern line is a tuple ``(colour, count)`` (colour is None when count is 0);
- a floor is a list of items in slot order, each a colour or ``MARKER``. It holds at
  most 7 items, except that the marker is still taken when the floor is already full
  (rulings); it then sits in an eighth place that costs nothing.

The turn model is that of docs/azul.md: phases refill (chance, one tile per move),
draft, tiling (gray wall only, only real column choices are moves) and over.

Choices of this oracle where docs/azul.md does not say (see ``OPEN_POINTS``) are the
only places where the oracle follows a convention rather than a rule.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from tessera.kernels.azul import layout as L

NCOL = 5
MARKER = "M"
COLOUR_VARIANT = L.VARIANT_COLOUR
GRAY_VARIANT = L.VARIANT_GRAY

REFILL, DRAFT, TILING, OVER = L.PHASE_REFILL, L.PHASE_DRAFT, L.PHASE_TILING, L.PHASE_OVER
CHANCE = -1
TERMINAL = -2

# Rule texts: floor spaces cost -1 -1 -2 -2 -2 -3 -3 (7 spaces).
FLOOR_SLOT_COST = (1, 1, 2, 2, 2, 3, 3)
FLOOR_SPACES = 7
TILES_PER_COLOUR = 20
FACTORY_TILES = 4
ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS = 2, 7, 10
STALL_LIMIT = 5  # docs/azul.md: five stalled rounds in a row end the game

# Conventions the oracle had to pick because docs/azul.md leaves them open (the kernels
# agree with all of them as of this writing).
OPEN_POINTS = (
    "at the end of every round the floors are cleared (tiles to the lid) and the marker "
    "goes back to the centre, also in the round that ends the game",
    "a normal game end does not advance the round counter or change the starter; an "
    "empty-table end happens in the next round's refill, so round and starter are already "
    "those of the new round",
    "game over on an empty table adds the end bonuses (docs: 'scored as usual')",
    "W_TO_MOVE is read only in draft and tiling; in refill and over it is not compared",
    "floor order is not part of a position (the layout stores counts only)",
)


# Tests may set this to a collections.Counter to learn which rare rules were exercised.
EVENTS = None


def _note(event: str) -> None:
    if EVENTS is not None:
        EVENTS[event] += 1


def factories_for(players: int) -> int:
    return {2: 5, 3: 7, 4: 9}[players]


def colour_wall_column(colour: int, row: int) -> int:
    """docs/azul.md: colour c of row r sits at column (c + r) mod 5."""
    return (colour + row) % NCOL


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------
@dataclass
class Board:
    wall: list  # 5 rows of 5 cells, colour or None
    lines: list  # 5 tuples (colour or None, count); line i holds i + 1
    floor: list  # items (colour or MARKER) in slot order
    score: int = 0

    @staticmethod
    def empty() -> Board:
        return Board([[None] * NCOL for _ in range(5)], [(None, 0)] * 5, [], 0)

    def copy(self) -> Board:
        return Board([row[:] for row in self.wall], list(self.lines), list(self.floor), self.score)

    def complete_rows(self) -> int:
        return sum(all(cell is not None for cell in row) for row in self.wall)

    def complete_columns(self) -> int:
        return sum(all(self.wall[r][c] is not None for r in range(5)) for c in range(NCOL))

    def complete_colours(self) -> int:
        return sum(sum(cell == colour for row in self.wall for cell in row) == 5 for colour in range(NCOL))

    def floor_tiles(self) -> int:
        return sum(1 for item in self.floor if item != MARKER)

    def has_marker(self) -> bool:
        return MARKER in self.floor


@dataclass
class State:
    players: int
    variant: int
    phase: int
    actor: int  # player acting in draft / tiling; CHANCE in refill; TERMINAL when over
    round: int
    starter: int
    stalled: int  # rounds in a row whose wall-tiling placed no tile
    factories: list  # factories_for(players) lists of 5 counts
    centre: list  # 5 counts
    centre_marker: bool
    bag: list
    lid: list
    boards: list

    def copy(self) -> State:
        return State(
            self.players,
            self.variant,
            self.phase,
            self.actor,
            self.round,
            self.starter,
            self.stalled,
            [f[:] for f in self.factories],
            self.centre[:],
            self.centre_marker,
            self.bag[:],
            self.lid[:],
            [b.copy() for b in self.boards],
        )

    def table_empty(self) -> bool:
        """No tile on any factory or in the centre (the marker does not count)."""
        return sum(self.centre) == 0 and all(sum(f) == 0 for f in self.factories)

    def total_tiles(self) -> int:
        n = sum(self.bag) + sum(self.lid) + sum(self.centre) + sum(sum(f) for f in self.factories)
        for b in self.boards:
            n += sum(cell is not None for row in b.wall for cell in row)
            n += sum(count for _, count in b.lines)
            n += b.floor_tiles()
        return n


def new_game(players: int, variant: int = COLOUR_VARIANT) -> State:
    """Round 1 before its refill: 100 tiles in the bag, marker in the centre, player 1 starts."""
    if players not in (2, 3, 4):
        raise ValueError("Azul is for 2 to 4 players")
    return State(
        players,
        variant,
        REFILL,
        CHANCE,
        1,
        0,
        0,
        [[0] * NCOL for _ in range(factories_for(players))],
        [0] * NCOL,
        True,
        [TILES_PER_COLOUR] * NCOL,
        [0] * NCOL,
        [Board.empty() for _ in range(players)],
    )


# ---------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------
def to_move(s: State) -> int:
    if s.phase == OVER:
        return TERMINAL
    if s.phase == REFILL:
        return CHANCE
    return s.actor


def draft_move(source: int, colour: int, dest: int) -> int:
    return source * NCOL * 6 + colour * 6 + dest


def split_draft(move: int):
    return move // 30, (move // 6) % NCOL, move % 6


def line_accepts(board: Board, line: int, colour: int) -> bool:
    """Not full, empty or already this colour, and the wall row lacks the colour."""
    held, count = board.lines[line]
    if count >= line + 1:
        return False
    if count > 0 and held != colour:
        return False
    return colour not in board.wall[line]


def legal_columns(s: State, board: Board, row: int, colour: int) -> list:
    """Columns where a full line's tile may go on the wall."""
    if colour in board.wall[row]:
        return []
    if s.variant == COLOUR_VARIANT:
        col = colour_wall_column(colour, row)
        return [col] if board.wall[row][col] is None else []
    return [
        col
        for col in range(NCOL)
        if board.wall[row][col] is None and all(board.wall[r][col] != colour for r in range(5))
    ]


def pending_line(s: State) -> int | None:
    """In the tiling phase: the actor's topmost full line (the one the column is for)."""
    board = s.boards[s.actor]
    for row in range(5):
        if board.lines[row][1] == row + 1:
            return row
    return None


def chance_probabilities(s: State) -> dict:
    """{chance move: probability}: the colour of the next tile drawn."""
    if s.phase != REFILL:
        return {}
    source = s.bag if sum(s.bag) > 0 else s.lid  # an empty bag is refilled from the lid first
    total = sum(source)
    return {L.CHANCE_MOVE_BASE + c: source[c] / total for c in range(NCOL) if source[c] > 0}


def legal_moves(s: State) -> set:
    if s.phase == OVER:
        return set()
    if s.phase == REFILL:
        return set(chance_probabilities(s))
    if s.phase == TILING:
        row = pending_line(s)
        colour = s.boards[s.actor].lines[row][0]
        return {L.TILE_MOVE_BASE + col for col in legal_columns(s, s.boards[s.actor], row, colour)}
    board = s.boards[s.actor]
    moves = set()
    sources = [(f, tiles) for f, tiles in enumerate(s.factories)] + [(L.SOURCE_CENTRE, s.centre)]
    for source, tiles in sources:
        for colour in range(NCOL):
            if tiles[colour] == 0:
                continue
            for line in range(5):
                if line_accepts(board, line, colour):
                    moves.add(draft_move(source, colour, line))
            moves.add(draft_move(source, colour, L.DEST_FLOOR))
    return moves


def wall_points(wall: list, row: int, col: int) -> int:
    """Points for a tile just placed at (row, col): linked tiles in row plus in column."""

    def run(dr, dc):
        n, r, c = 0, row + dr, col + dc
        while 0 <= r < 5 and 0 <= c < 5 and wall[r][c] is not None:
            n, r, c = n + 1, r + dr, c + dc
        return n

    horizontal = 1 + run(0, -1) + run(0, 1)
    vertical = 1 + run(-1, 0) + run(1, 0)
    if horizontal == 1 and vertical == 1:
        return 1
    return (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)


def floor_penalty(board: Board) -> int:
    """Every occupied floor space costs its printed value; the marker counts as a tile."""
    return sum(FLOOR_SLOT_COST[: min(len(board.floor), FLOOR_SPACES)])


def end_bonus(board: Board) -> int:
    return (
        ROW_BONUS * board.complete_rows()
        + COLUMN_BONUS * board.complete_columns()
        + COLOUR_BONUS * board.complete_colours()
    )


def final_scores(s: State) -> list:
    return [b.score for b in s.boards]


def payoffs(s: State) -> list:
    """Winners (most points, then most complete rows) share 1.0; others get 0."""
    if s.phase != OVER:
        raise ValueError("payoffs of a game that is not over")
    keys = [(b.score, b.complete_rows()) for b in s.boards]
    best = max(keys)
    winners = [p for p, k in enumerate(keys) if k == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(s.players)]


# ---------------------------------------------------------------------------
# Playing moves
# ---------------------------------------------------------------------------
def apply(s: State, move: int, check: bool = True) -> State:
    """The position after ``move`` (a new state; ``s`` is unchanged)."""
    if check and move not in legal_moves(s):
        raise ValueError(f"illegal move {move}")
    t = s.copy()
    if t.phase == REFILL:
        _draw(t, move - L.CHANCE_MOVE_BASE)
    elif t.phase == DRAFT:
        _draft(t, move)
    else:
        _choose_column(t, move - L.TILE_MOVE_BASE)
    return t


def _to_floor(s: State, board: Board, colour: int, n: int) -> None:
    """n tiles of a colour onto the floor; those beyond the seventh space go to the lid."""
    for _ in range(n):
        if len(board.floor) < FLOOR_SPACES:
            board.floor.append(colour)
        else:
            _note("floor overflow to lid")
            s.lid[colour] += 1


def _draw(s: State, colour: int) -> None:
    if sum(s.bag) == 0:  # empty bag at a draw: the lid goes in first
        _note("lid into bag")
        s.bag, s.lid = s.lid, [0] * NCOL
    assert s.bag[colour] > 0
    s.bag[colour] -= 1
    target = next(f for f in s.factories if sum(f) < FACTORY_TILES)
    target[colour] += 1
    _refill_progress(s)


def _refill_progress(s: State) -> None:
    """End the refill when every factory holds 4, or when bag and lid are both empty."""
    if all(sum(f) == FACTORY_TILES for f in s.factories):
        _start_draft(s)
    elif sum(s.bag) == 0 and sum(s.lid) == 0:
        if s.table_empty():  # ruling: nothing to take, the game ends
            _note("game over on an empty table")
            _game_over(s)
        else:
            _note("refill stopped short")
            _start_draft(s)


def _start_draft(s: State) -> None:
    s.phase = DRAFT
    s.actor = s.starter


def _draft(s: State, move: int) -> None:
    source, colour, dest = split_draft(move)
    board = s.boards[s.actor]
    if source == L.SOURCE_CENTRE:
        taken = s.centre[colour]
        s.centre[colour] = 0
        if s.centre_marker:  # first from the centre: the marker, before the tiles
            s.centre_marker = False
            if len(board.floor) >= FLOOR_SPACES:
                _note("marker onto a full floor")
            board.floor.append(MARKER)  # takes a space if one is free, else costs nothing
    else:
        factory = s.factories[source]
        taken = factory[colour]
        for c in range(NCOL):
            if c != colour:
                s.centre[c] += factory[c]
        s.factories[source] = [0] * NCOL
    if dest != L.DEST_FLOOR:
        _, count = board.lines[dest]
        placed = min(taken, dest + 1 - count)
        board.lines[dest] = (colour, count + placed)
        taken -= placed
    _to_floor(s, board, colour, taken)
    if s.table_empty():
        s.stalled = 0 if _tiling_will_place(s) else s.stalled + 1
        s.phase = TILING
        s.actor = 0
        _tile_onwards(s)
    else:
        s.actor = (s.actor + 1) % s.players


def _tiling_will_place(s: State) -> bool:
    """Some full line has a legal column now, so this round's tiling places a tile."""
    return any(
        count == row + 1 and legal_columns(s, board, row, colour)
        for board in s.boards
        for row, (colour, count) in enumerate(board.lines)
    )


def _place(s: State, board: Board, row: int, col: int) -> None:
    colour, count = board.lines[row]
    board.wall[row][col] = colour
    board.score += wall_points(board.wall, row, col)
    s.lid[colour] += count - 1
    board.lines[row] = (None, 0)


def _tile_onwards(s: State) -> None:
    """Wall-tiling in seat order, lines top to bottom, from the actor on; stops at a choice."""
    for p in range(s.actor, s.players):
        board = s.boards[p]
        for row in range(5):
            colour, count = board.lines[row]
            if count < row + 1:
                continue
            columns = legal_columns(s, board, row, colour)
            if not columns:  # no legal column: the whole line to the floor
                _note("full line with no legal column")
                board.lines[row] = (None, 0)
                _to_floor(s, board, colour, count)
            elif len(columns) == 1:  # forced column: no move
                if s.variant == GRAY_VARIANT:
                    _note("gray forced column")
                _place(s, board, row, columns[0])
            else:  # a real choice: the player's move
                _note("gray column choice")
                s.phase = TILING
                s.actor = p
                return
    _end_of_round(s)


def _choose_column(s: State, col: int) -> None:
    board = s.boards[s.actor]
    _place(s, board, pending_line(s), col)
    _tile_onwards(s)


def _end_of_round(s: State) -> None:
    holder = None
    for p, board in enumerate(s.boards):
        if board.has_marker():
            holder = p
        if board.score < floor_penalty(board):
            _note("score clamped at 0")
        board.score = max(0, board.score - floor_penalty(board))
        for item in board.floor:
            if item != MARKER:
                s.lid[item] += 1
        board.floor = []
    if holder is not None:
        s.centre_marker = True
    if s.stalled >= STALL_LIMIT:
        _note("stalled game ends")
    if any(b.complete_rows() > 0 for b in s.boards) or s.stalled >= STALL_LIMIT or _gray_walls_blocked(s):
        _game_over(s)
        return
    s.round += 1
    if holder is not None:  # untouched centre: the same player starts again
        s.starter = holder
    else:
        _note("untouched centre")
    s.phase = REFILL
    s.actor = CHANCE
    _refill_progress(s)


def row_completable(wall, row) -> bool:
    """Can this gray-wall row still be filled (each colour once per row and column)?"""
    empty = [c for c in range(5) if wall[row][c] is None]
    missing = [x for x in range(5) if x not in wall[row]]
    column_has = [{wall[r][c] for r in range(5)} for c in range(5)]
    return any(
        all(colour not in column_has[c] for c, colour in zip(empty, perm)) for perm in itertools.permutations(missing)
    )


def _gray_walls_blocked(s: State) -> bool:
    """docs/azul.md: a gray-wall game ends when no row of any wall can be completed."""
    blocked = s.variant == GRAY_VARIANT and not any(row_completable(b.wall, r) for b in s.boards for r in range(5))
    if blocked:
        _note("gray deadlock: no row can ever be completed")
    return blocked


def _game_over(s: State) -> None:
    for board in s.boards:
        board.score += end_bonus(board)
    s.phase = OVER
    s.actor = TERMINAL


# ---------------------------------------------------------------------------
# Canonical form and the kernel array
# ---------------------------------------------------------------------------
class BoardCanon(NamedTuple):
    wall: tuple  # 5 rows of 5 colour-or-None
    lines: tuple  # 5 (colour or None, count)
    floor: tuple  # (5 colour counts, marker held)
    score: int


class Canon(NamedTuple):
    players: int
    variant: int
    phase: int
    to_move: int
    round: int
    starter: int
    stalled: int
    factories: tuple
    centre: tuple  # (5 counts, marker present)
    bag: tuple
    lid: tuple
    boards: tuple


def to_canonical(s: State) -> Canon:
    boards = tuple(
        BoardCanon(
            tuple(map(tuple, b.wall)),
            tuple((colour if count else None, count) for colour, count in b.lines),
            (tuple(b.floor.count(c) for c in range(NCOL)), MARKER in b.floor),
            b.score,
        )
        for b in s.boards
    )
    return Canon(
        s.players,
        s.variant,
        s.phase,
        to_move(s),
        s.round,
        s.starter,
        s.stalled,
        tuple(map(tuple, s.factories)),
        (tuple(s.centre), s.centre_marker),
        tuple(s.bag),
        tuple(s.lid),
        boards,
    )


def canon_diff(a: Canon, b: Canon) -> list:
    """Human-readable list of the fields where two canonical forms differ."""
    out = []
    for name in Canon._fields:
        x, y = getattr(a, name), getattr(b, name)
        if name == "boards":
            for p, (bx, by) in enumerate(zip(x, y)):
                for field in BoardCanon._fields:
                    fx, fy = getattr(bx, field), getattr(by, field)
                    if fx != fy:
                        out.append(f"player {p} {field}: {fx} != {fy}")
        elif x != y:
            out.append(f"{name}: {x} != {y}")
    return out


class DecodeError(ValueError):
    """A state array that breaks the layout's encoding."""


_MARKER_BIT = L.MARKER_BIT
_TILE_SET_LIMIT = L.MARKER_BIT << 1


def _tile_set(word: int, what, marker_ok: bool):
    """(5 colour counts, marker) of a tile-set word: byte lane c holds colour c's count."""
    if not 0 <= word < _TILE_SET_LIMIT:
        raise DecodeError(f"{what}: stray high bits in {word:#x}")
    marker = word >= _MARKER_BIT
    if marker and not marker_ok:
        raise DecodeError(f"{what}: marker bit where no marker may be")
    return list(word.to_bytes(6, "little")[:NCOL]), marker


def from_array(state) -> State:
    """Decode a kernel state array (layout.py) into the oracle's representation."""
    w = np.asarray(state).tolist()
    if len(w) != L.STATE_SIZE:
        raise DecodeError(f"state has {len(w)} words, expected {L.STATE_SIZE}")
    if w[L.W_GAME] != L.GAME_ID:
        raise DecodeError(f"game id {w[L.W_GAME]}")
    players = w[L.W_PLAYERS]
    if players not in (2, 3, 4):
        raise DecodeError(f"players {players}")
    if w[L.W_VARIANT] not in (COLOUR_VARIANT, GRAY_VARIANT):
        raise DecodeError(f"variant {w[L.W_VARIANT]}")
    phase = w[L.W_PHASE]
    if phase not in (REFILL, DRAFT, TILING, OVER):
        raise DecodeError(f"phase {phase}")
    actor = {REFILL: CHANCE, OVER: TERMINAL}.get(phase, w[L.W_TO_MOVE])
    if phase in (DRAFT, TILING) and not 0 <= actor < players:
        raise DecodeError(f"to-move {actor} in phase {phase}")
    nf = factories_for(players)
    factories = []
    for f in range(L.MAX_FACTORIES):
        counts, _ = _tile_set(w[L.W_FACTORY + f], "factory", False)
        if f < nf:
            factories.append(counts)
        elif any(counts):
            raise DecodeError(f"factory {f + 1} is not in a {players}-player game but holds tiles")
    centre, centre_marker = _tile_set(w[L.W_CENTRE], "centre", True)
    bag, _ = _tile_set(w[L.W_BAG], "bag", False)
    lid, _ = _tile_set(w[L.W_LID], "lid", False)
    boards = []
    for p in range(players):
        base = L.PLAYER_BASE + p * L.PLAYER_WORDS
        wall = [[None] * NCOL for _ in range(5)]
        for colour in range(NCOL):
            mask = w[base + L.P_WALL + colour]
            if not 0 <= mask < 1 << 25:
                raise DecodeError(f"player {p} wall mask of colour {colour}: {mask:#x}")
            while mask:
                low = mask & -mask
                row, col = divmod(low.bit_length() - 1, 5)
                if wall[row][col] is not None:
                    raise DecodeError(f"player {p} wall cell {row},{col} holds two colours")
                wall[row][col] = colour
                mask ^= low
        word = w[base + L.P_LINES]
        if not 0 <= word < 1 << 40:
            raise DecodeError(f"player {p} lines word {word:#x}")
        lines = []
        for i, lane in enumerate(word.to_bytes(5, "little")):
            count = lane & 0xF  # LINE_COUNT_MASK
            colour = lane >> 4  # LINE_COLOUR_SHIFT
            if count > i + 1 or (count and colour >= NCOL):
                raise DecodeError(f"player {p} line {i + 1} lane {lane:#x}")
            lines.append((colour, count) if count else (None, 0))
        counts, marker = _tile_set(w[base + L.P_FLOOR], "floor", True)
        if sum(counts) > FLOOR_SPACES:
            raise DecodeError(f"player {p} floor holds {sum(counts)} tiles")
        floor = [MARKER] if marker else []
        for c in range(NCOL):
            floor += [c] * counts[c]
        boards.append(Board(wall, lines, floor, w[base + L.P_SCORE]))
    return State(
        players,
        w[L.W_VARIANT],
        phase,
        actor,
        w[L.W_ROUND],
        w[L.W_STARTER],
        w[L.W_STALLED],
        factories,
        centre,
        centre_marker,
        bag,
        lid,
        boards,
    )


def to_array(s: State, to_move_word: int | None = None) -> np.ndarray:
    """Encode an oracle state as a kernel array (for building test positions)."""
    a = np.zeros(L.STATE_SIZE, dtype=np.int64)

    def tile_word(counts, marker=False):
        return sum(n << (L.LANE_BITS * c) for c, n in enumerate(counts)) | (L.MARKER_BIT if marker else 0)

    a[L.W_GAME] = L.GAME_ID
    a[L.W_PLAYERS] = s.players
    a[L.W_VARIANT] = s.variant
    a[L.W_PHASE] = s.phase
    a[L.W_TO_MOVE] = s.actor if to_move_word is None else to_move_word
    a[L.W_ROUND] = s.round
    a[L.W_STARTER] = s.starter
    a[L.W_STALLED] = s.stalled
    a[L.W_CENTRE] = tile_word(s.centre, s.centre_marker)
    a[L.W_BAG] = tile_word(s.bag)
    a[L.W_LID] = tile_word(s.lid)
    for f, tiles in enumerate(s.factories):
        a[L.W_FACTORY + f] = tile_word(tiles)
    for p, b in enumerate(s.boards):
        base = L.PLAYER_BASE + p * L.PLAYER_WORDS
        for colour in range(NCOL):
            a[base + L.P_WALL + colour] = sum(
                1 << (5 * r + c) for r in range(5) for c in range(5) if b.wall[r][c] == colour
            )
        a[base + L.P_LINES] = sum(
            ((colour or 0) << L.LINE_COLOUR_SHIFT | count) << (L.LANE_BITS * i)
            for i, (colour, count) in enumerate(b.lines)
        )
        counts = [0] * NCOL
        for item in b.floor:
            if item != MARKER:
                counts[item] += 1
        a[base + L.P_FLOOR] = tile_word(counts, b.has_marker())
        a[base + L.P_SCORE] = b.score
    return a
