"""An Azul position drawn with rich: a header, the table, then one board per player.

Drawn from the JSON form of the position, so the drawing never reads the bit layout.
Filled cells are capital letters and empty ones lower case or dots, so the board
still reads right without colour.
"""

from rich.console import Group
from rich.text import Text

from tessera.kernels.azul.layout import (
    COLOUR_LETTERS,
    FACTORY_SIZE,
    FLOOR_PENALTY,
    FLOOR_SLOTS,
    wall_column,
)
from tessera.notation.azul import NO_TILES, position_to_json
from tessera.render.common import Palette, board_panel, factories, result, tabletop

MARKER = "1"
TILES = Palette(
    {
        "B": "bold white on blue",
        "Y": "bold black on yellow",
        "R": "bold white on red",
        "K": "bold white on grey23",
        "W": "bold black on white",
        MARKER: "bold black on bright_cyan",
    },
    NO_TILES,
)
# Empty cells of the colour wall show the colour printed there, faintly.
PRINTED_STYLES = {"B": "blue", "Y": "yellow", "R": "red", "K": "grey50", "W": "white"}
# PRINTED_LETTERS[row][column]: the colour the colour wall prints there.
PRINTED_LETTERS = [{wall_column(c, row): letter for c, letter in enumerate(COLOUR_LETTERS)} for row in range(5)]
EMPTY_SLOT = "·"
SLOT_PENALTIES = [FLOOR_PENALTY[i] - FLOOR_PENALTY[i + 1] for i in range(FLOOR_SLOTS)]


def render_position(state):
    obj = position_to_json(state)
    title = Text(f"Azul · {obj['players']} players · {obj['wall']} wall · round {obj['round']}", style="bold")
    return tabletop(title, who_acts(obj, state), _table(obj), [_board(obj, p) for p in range(obj["players"])])


# ---- who acts ------------------------------------------------------------------------


def who_acts(obj, state):
    """One line: who acts and what they do (under the drawing's title; the web board's status)."""
    phase, player = obj["phase"], obj["turn"]
    if phase == "refill":
        filling = next(
            f for f, tiles in enumerate(obj["factories"], 1) if TILES.count(tiles) - tiles.count(MARKER) < FACTORY_SIZE
        )
        return f"refill: chance draws a tile for factory {filling}"
    if phase == "draft":
        return f"draft: player {player} to move"
    if phase == "tiling":
        lines = obj["boards"][player - 1]["lines"]
        line = next(i for i, tiles in enumerate(lines, 1) if "." not in tiles)
        return f"tiling: player {player} picks the column for line {line}"
    return "game over: " + result(state, obj["players"])


# ---- the table -----------------------------------------------------------------------


def _table(obj):
    return Group(
        factories(TILES, obj["factories"]),
        Text.assemble(("Centre  ", "bold"), TILES.row(obj["centre"])),
        Text.assemble(
            ("Bag ", "bold"),
            TILES.total(COLOUR_LETTERS, obj["bag"]),
            ("   Lid ", "bold"),
            TILES.total(COLOUR_LETTERS, obj["lid"]),
        ),
    )


# ---- a player's board ----------------------------------------------------------------


def _board(obj, p):
    board = obj["boards"][p]
    colour_wall = obj["wall"] == "colour"
    rows = [
        _pattern_line(board["lines"][i]) + Text(" │ ", style="dim") + _wall_row(board["wall"][i], i, colour_wall)
        for i in range(5)
    ]
    acting = obj["phase"] in ("draft", "tiling") and obj["turn"] == p + 1
    return board_panel(Group(*rows, Text(), *_floor(board["floor"])), p + 1, board["score"], acting)


def _pattern_line(line):
    """Tiles sit at the right, next to the wall, as on the board."""
    tiles = line.rstrip(".")
    cells = [Text(EMPTY_SLOT, style="dim")] * (len(line) - len(tiles)) + [TILES.tile(t) for t in tiles]
    return Text("  " * (5 - len(line))) + Text(" ").join(cells)


def _wall_row(row, r, colour_wall):
    cells = []
    for col, cell in enumerate(row):
        if cell != ".":
            cells.append(TILES.tile(cell))
        elif colour_wall:
            printed = PRINTED_LETTERS[r][col]
            cells.append(Text(printed.lower(), style=f"dim {PRINTED_STYLES[printed]}"))
        else:
            cells.append(Text(".", style="dim"))
    return Text(" ").join(cells)


def _floor(floor):
    """The floor slots over their penalties; an eighth item (the marker taken onto a
    full floor) goes past the last slot and costs nothing."""
    items = [] if floor == NO_TILES else list(floor)
    lost = FLOOR_PENALTY[min(len(items), FLOOR_SLOTS)]
    cells = [
        TILES.tile(items[i]) if i < len(items) else Text(EMPTY_SLOT, style="dim")
        for i in range(max(FLOOR_SLOTS, len(items)))
    ]
    return (
        Text(f"Floor {-lost}" if lost else "Floor", style="bold"),
        Text(" ").join(Text(" ") + cell for cell in cells),
        Text(" ".join(f"{penalty:>2}" for penalty in SLOT_PENALTIES), style="dim"),
    )
