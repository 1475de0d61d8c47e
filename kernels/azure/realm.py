"""The Azure realm: board data, layouts, and the realm words of a state (plain Python).

Board data comes from files, never from tables typed here:

- the eight regular domain sides from ``azure-domains.json``, packaged in
  ``kernels/data/`` (a file of the same shape named by ``$TESSERA_AZURE_DOMAINS``
  replaces it);
- the Cosmos large domains and cosmos track from ``azure-cosmos-standin.json``,
  packaged beside it: a STAND-IN (the printed boards are not known here), replaced
  by a file of the same shape named by ``$TESSERA_AZURE_COSMOS``.

A ``Layout`` names what lies at each of the four places (top-left, top-right,
bottom-left, bottom-right): a domain colour, its side (1 or 2) and its clockwise
quarter turns; with Cosmos, two places diagonally opposite hold the large domains
(``arrangement`` 0: top-left and bottom-right, 1: top-right and bottom-left).
``write_realm`` turns a layout into the realm words of a state (kernels/azure/layout.py):
per-cell symbols and the line-of-sight masks the kernels count bonds and guards with.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from tessera.kernels.azure.layout import (
    CARDS_PER_COLOUR,
    CELL_COSMOS,
    CELL_COST,
    CELL_DOMAIN,
    CELL_KIND,
    CELL_QI,
    CELL_QI_COLOUR,
    CELL_SERPENT,
    CELL_WISDOM,
    CELLS,
    COLOUR_NAMES,
    DECK_PER_COLOUR,
    FIELD_MASK,
    GRID,
    KIND_MOUNTAIN,
    KIND_NONE,
    KIND_SPACE,
    NCOLOURS,
    PLACES,
    S_ARRANGEMENT,
    S_CELL,
    S_COSMOS,
    S_DIAGONAL,
    S_DOMAIN,
    S_GIFTED,
    S_MOUNTAIN,
    S_MOUNTAINS,
    S_PLACE,
    S_SERPENTS,
    S_SIGHT,
    S_SPACES,
    S_THRESHOLDS,
    S_TRACK_END,
    place_code,
)
from tessera.kernels.boarddata import BoardDataError, board_json

DOMAINS_ENV = "TESSERA_AZURE_DOMAINS"
COSMOS_ENV = "TESSERA_AZURE_COSMOS"
DOMAINS_FILE = "azure-domains.json"
COSMOS_FILE = "azure-cosmos-standin.json"
MOUNTAIN = "M"
SIDES = (1, 2)
REGULAR_SIZE = 3
BASE_LAYOUTS = 6 * 8**4  # 24,576: up to turning the whole realm (the azure domain top-left)

# Where each place's domain starts (row, col): the base realm, and Cosmos by arrangement
# (large domains 4x4 corner to corner, the regular ones between them).
BASE_ORIGINS = ((0, 0), (0, 3), (3, 0), (3, 3))
COSMOS_ORIGINS = (((0, 0), (1, 4), (4, 1), (4, 4)), ((1, 1), (0, 4), (4, 0), (4, 4)))
LARGE_PLACES = ((0, 3), (1, 2))  # by arrangement


@dataclass(frozen=True)
class Space:
    qi: int
    qi_colour: int  # -1 when there is no qi symbol
    wisdom: int
    cosmos: int
    serpent: bool

    @property
    def cost(self):
        return self.qi + self.wisdom + self.cosmos


@dataclass(frozen=True)
class Side:
    """One printed domain side: its colour and a square grid of Space or None (the mountain)."""

    colour: int
    cells: tuple


@dataclass(frozen=True)
class CosmosBoards:
    large: tuple  # large[board][side - 1]: a Side
    track_spaces: int
    thresholds: tuple  # steps k: a threshold between k and k + 1 from the middle
    standin: bool
    source: str

    @property
    def track_end(self):
        return self.track_spaces // 2


@dataclass(frozen=True)
class Layout:
    """What lies at each place: (colour, side, quarter turns); Cosmos large domains by arrangement."""

    places: tuple
    cosmos: bool = False
    arrangement: int = 0

    def large_places(self):
        return LARGE_PLACES[self.arrangement] if self.cosmos else ()


# ---- data files ----------------------------------------------------------------------


def _colour(name, where):
    if name not in COLOUR_NAMES:
        raise BoardDataError(f"{where}: unknown colour {name!r}")
    return COLOUR_NAMES.index(name)


def _count(value, where, top):
    if type(value) is not int or not 0 <= value <= top:
        raise BoardDataError(f"{where}: expected a whole number 0..{top}, not {value!r}")
    return value


def _space(cell, where):
    if cell == MOUNTAIN:
        return None
    if not isinstance(cell, dict):
        raise BoardDataError(f"{where}: a cell is 'M' or an object, not {cell!r}")
    qi = _count(cell.get("qi", 0), f"{where} qi", 3)
    colour = cell.get("qi_color")
    qi_colour = _colour(colour, f"{where} qi_color") if qi else -1
    if qi and colour is None:
        raise BoardDataError(f"{where}: qi symbols need a qi_color")
    space = Space(
        qi,
        qi_colour,
        _count(cell.get("wisdom", 0), f"{where} wisdom", 9),
        _count(cell.get("cosmos", 0), f"{where} cosmos", 3),
        bool(cell.get("serpent", False)),
    )
    if space.cost > FIELD_MASK:
        raise BoardDataError(f"{where}: a cost above {FIELD_MASK}")
    return space


def _side(colour, rows, size, where):
    if (
        not isinstance(rows, list)
        or len(rows) != size
        or any(not isinstance(row, list) or len(row) != size for row in rows)
    ):
        raise BoardDataError(f"{where}: expected {size}x{size} cells")
    cells = tuple(
        tuple(_space(cell, f"{where} row {r} col {c}") for c, cell in enumerate(row)) for r, row in enumerate(rows)
    )
    if sum(cell is None for row in cells for cell in row) != 1:
        raise BoardDataError(f"{where}: a domain has exactly one mountain")
    return Side(colour, cells)


@cache
def load_domains():
    """The regular sides: ``{colour: (side 1, side 2)}``."""
    data, source = board_json(DOMAINS_FILE, "Azure board data", DOMAINS_ENV)
    name = Path(source).name
    try:
        domains = data["domains"]
        found = {_colour(colour_name, f"{name}: domains"): sides for colour_name, sides in domains.items()}
    except (KeyError, AttributeError, TypeError):
        raise BoardDataError(f"{name}: expected a 'domains' object") from None
    if sorted(found) != list(range(NCOLOURS)):
        raise BoardDataError(f"{name}: expected one domain of each colour")
    sides = {}
    for colour, pair in found.items():
        if not isinstance(pair, list) or len(pair) != len(SIDES):
            raise BoardDataError(f"{name}: {COLOUR_NAMES[colour]}: expected two sides")
        sides[colour] = tuple(
            _side(colour, rows, REGULAR_SIZE, f"{name}: {COLOUR_NAMES[colour]} side {s}")
            for s, rows in zip(SIDES, pair)
        )
    return sides


@cache
def load_cosmos():
    """The Cosmos boards: ``$TESSERA_AZURE_COSMOS``, else the packaged stand-in."""
    data, source = board_json(COSMOS_FILE, "Azure Cosmos board data", COSMOS_ENV)
    name = Path(source).name
    try:
        boards = data["large_domains"]
        track = data["track"]
        spaces, thresholds = track["spaces"], track["thresholds"]
    except (KeyError, TypeError):
        raise BoardDataError(f"{name}: expected 'large_domains' and 'track' with 'spaces' and 'thresholds'") from None
    if not isinstance(boards, list) or len(boards) != 2 or any(not isinstance(b, list) or len(b) != 2 for b in boards):
        raise BoardDataError(f"{name}: expected two large domains of two sides each")
    large = []
    for b, board in enumerate(boards):
        sides = []
        for s, side in enumerate(board):
            where = f"{name}: large domain {b + 1} side {s + 1}"
            if not isinstance(side, dict):
                raise BoardDataError(f"{where}: expected an object with 'color' and 'cells'")
            rows = side.get("cells")
            size = len(rows) if isinstance(rows, list) else 0
            if not REGULAR_SIZE < size <= GRID // 2:
                raise BoardDataError(f"{where}: a large domain is 4x4")
            sides.append(_side(_colour(side.get("color"), where), rows, size, where))
        large.append(tuple(sides))
    if {side.colour for side in large[0]} & {side.colour for side in large[1]}:
        raise BoardDataError(f"{name}: the two large domains must not share a colour")
    if type(spaces) is not int or spaces < 3 or spaces % 2 == 0:
        raise BoardDataError(f"{name}: the track needs an odd number of spaces (at least 3)")
    end = spaces // 2
    if not isinstance(thresholds, list) or any(type(k) is not int or not 0 < k < end for k in thresholds):
        raise BoardDataError(f"{name}: thresholds are steps 1..{end - 1} from the middle")
    return CosmosBoards(tuple(large), spaces, tuple(sorted(set(thresholds))), bool(data.get("standin", False)), source)


# ---- layouts -------------------------------------------------------------------------


def base_layout(index):
    """Base layout ``index`` of the 24,576 (the azure domain top-left, realm turns counted once)."""
    if not 0 <= index < BASE_LAYOUTS:
        raise ValueError(f"layout index {index} is not in 0..{BASE_LAYOUTS - 1}")
    order, rest = divmod(index, 8**4)
    others = [c for c in range(NCOLOURS) if c != 0]
    perms = [(a, b, c) for a in others for b in others for c in others if len({a, b, c}) == 3]
    colours = (0,) + perms[order]
    places = []
    for colour in colours:
        rest, code = divmod(rest, 8)
        places.append((colour, 1 + code // 4, code % 4))
    return Layout(tuple(places))


def deal_layout(rng, cosmos=False, boards=None):
    """A layout dealt with ``rng`` (a ``random.Random``): uniform over the distinct layouts."""
    if not cosmos:
        return base_layout(rng.randrange(BASE_LAYOUTS))
    boards = boards or load_cosmos()
    arrangement = rng.randrange(2)
    large = [rng.choice(board) for board in boards.large]
    rng.shuffle(large)
    regular = [c for c in range(NCOLOURS) if c not in {side.colour for side in large}]
    rng.shuffle(regular)
    places = [None] * PLACES
    for place, side in zip(LARGE_PLACES[arrangement], large):
        places[place] = (side.colour, _side_number(boards, side), rng.randrange(4))
    for place, colour in zip((p for p in range(PLACES) if places[p] is None), regular):
        places[place] = (colour, rng.choice(SIDES), rng.randrange(4))
    return Layout(tuple(places), cosmos=True, arrangement=arrangement)


def _side_number(boards, side):
    for board in boards.large:
        if side in board:
            return 1 + board.index(side)
    raise BoardDataError("not a large domain side")


def check_layout(layout, boards=None):
    """Raise ValueError naming what is wrong with ``layout``; return the Side at each place."""
    if len(layout.places) != PLACES:
        raise ValueError(f"a layout names {PLACES} places")
    colours = [colour for colour, _, _ in layout.places]
    if sorted(colours) != list(range(NCOLOURS)):
        raise ValueError("a layout uses each domain colour once")
    sides = []
    large = layout.large_places()
    boards = boards or (load_cosmos() if layout.cosmos else None)
    for place, (colour, side, turns) in enumerate(layout.places):
        if side not in SIDES:
            raise ValueError(f"domain side must be 1 or 2, not {side!r}")
        if turns not in range(4):
            raise ValueError(f"quarter turns must be 0..3, not {turns!r}")
        if place in large:
            found = [s for board in boards.large for s in board if s.colour == colour]
            if not found:
                raise ValueError(f"no large domain is {COLOUR_NAMES[colour]}")
            board = next(b for b in boards.large if found[0] in b)
            if board[side - 1].colour != colour:
                raise ValueError(
                    f"the large {COLOUR_NAMES[colour]} domain is side {1 + board.index(found[0])}, not {side}"
                )
            sides.append(board[side - 1])
        else:
            sides.append(load_domains()[colour][side - 1])
    if layout.cosmos:
        large_boards = [next(i for i, b in enumerate(boards.large) if sides[p] in b) for p in large]
        if sorted(large_boards) != [0, 1]:
            raise ValueError("the two large places hold the two large domains")
    return sides


def rotated(cells, turns):
    """The grid turned clockwise ``turns`` quarter turns."""
    for _ in range(turns):
        n = len(cells)
        cells = tuple(tuple(cells[n - 1 - c][r] for c in range(n)) for r in range(n))
    return cells


# ---- realm words ---------------------------------------------------------------------


def write_realm(state, layout, gifted, boards=None):
    """Write the realm words of ``state`` for ``layout`` and the gifted card (``GIFTED_*``)."""
    boards = boards or (load_cosmos() if layout.cosmos else None)
    sides = check_layout(layout, boards)
    origins = COSMOS_ORIGINS[layout.arrangement] if layout.cosmos else BASE_ORIGINS
    kind = np.full(CELLS, KIND_NONE, np.int64)
    state[S_CELL : S_CELL + CELLS] = 0
    state[S_SPACES] = state[S_MOUNTAINS] = state[S_SERPENTS] = 0
    state[S_DOMAIN : S_DOMAIN + NCOLOURS] = 0
    large = layout.large_places()
    for place, ((colour, side, turns), printed) in enumerate(zip(layout.places, sides)):
        state[S_PLACE + place] = place_code(colour, side, turns, int(place in large))
        top, left = origins[place]
        for r, row in enumerate(rotated(printed.cells, turns)):
            for c, space in enumerate(row):
                cell = GRID * (top + r) + left + c
                bit = _bit(cell)
                if space is None:
                    kind[cell] = KIND_MOUNTAIN
                    state[S_CELL + cell] = (KIND_MOUNTAIN << CELL_KIND) | (colour << CELL_DOMAIN)
                    state[S_MOUNTAINS] |= bit
                    state[S_MOUNTAIN + colour] = cell
                    continue
                kind[cell] = KIND_SPACE
                state[S_CELL + cell] = _packed(space, colour)
                state[S_SPACES] |= bit
                state[S_DOMAIN + colour] |= bit
                if space.serpent:
                    state[S_SERPENTS] |= bit
    for cell in range(CELLS):
        state[S_SIGHT + cell] = _rays(kind, cell, ((0, 1), (0, -1), (1, 0), (-1, 0)))
        state[S_DIAGONAL + cell] = _rays(kind, cell, ((1, 1), (1, -1), (-1, 1), (-1, -1)))
    state[S_GIFTED] = gifted
    state[S_COSMOS] = int(layout.cosmos)
    state[S_ARRANGEMENT] = layout.arrangement if layout.cosmos else 0
    state[S_TRACK_END] = boards.track_end if layout.cosmos else 0
    state[S_THRESHOLDS] = sum(1 << k for k in boards.thresholds) if layout.cosmos else 0


def layout_of(state):
    """The Layout named by a state's realm words."""
    from tessera.kernels.azure.layout import split_place_code

    places = []
    for place in range(PLACES):
        colour, side, turns, _ = split_place_code(int(state[S_PLACE + place]))
        places.append((colour, side, turns))
    return Layout(tuple(places), cosmos=bool(state[S_COSMOS]), arrangement=int(state[S_ARRANGEMENT]))


def _bit(cell):
    """The int64 mask of one cell (cell 63 is the sign bit)."""
    return np.int64(np.uint64(1) << np.uint64(cell))


def _packed(space, colour):
    return (
        (KIND_SPACE << CELL_KIND)
        | (colour << CELL_DOMAIN)
        | (space.qi << CELL_QI)
        | (max(space.qi_colour, 0) << CELL_QI_COLOUR)
        | (space.wisdom << CELL_WISDOM)
        | (space.cosmos << CELL_COSMOS)
        | (int(space.serpent) << CELL_SERPENT)
        | (space.cost << CELL_COST)
    )


def _rays(kind, cell, directions):
    """Cells seen from ``cell`` along ``directions``: each ray stops after the first mountain."""
    mask = np.int64(0)
    row, col = divmod(cell, GRID)
    for dr, dc in directions:
        r, c = row + dr, col + dc
        while 0 <= r < GRID and 0 <= c < GRID:
            mask |= _bit(GRID * r + c)
            if kind[GRID * r + c] == KIND_MOUNTAIN:
                break
            r, c = r + dr, c + dc
    return mask


def start_cards():
    """(face-up decks, hidden deck) by colour at setup."""
    hidden = [DECK_PER_COLOUR] * NCOLOURS
    return [CARDS_PER_COLOUR - n for n in hidden], hidden
