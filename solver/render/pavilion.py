"""A Summer Pavilion position drawn with rich: a header, the table, then one board per player.

Drawn from the JSON form of the position, so the drawing never reads the bit layout.
A star is a row of its six spaces: a covered space shows its tile's letter, an empty
one its number (the tiles it costs), so the board still reads right without colour.
The centre star shows ``*`` on covered spaces and lists its colours after them (the
engine does not keep which space holds which colour).
"""

from rich.console import Group
from rich.text import Text

from tessera.kernels.pavilion.layout import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    FACTORY_SIZE,
    KEEP_AT_MOST,
    ROUNDS,
    SUPPLY_SIZE,
)
from tessera.notation.pavilion import NO_TILES, position_to_json
from tessera.render.common import Palette, board_panel, factories, result, tabletop

TILES = Palette(
    {
        "P": "bold white on purple",
        "G": "bold black on green",
        "O": "bold black on dark_orange",
        "Y": "bold black on yellow",
        "B": "bold white on blue",
        "R": "bold white on red",
    },
    NO_TILES,
)
CENTRE_COVERED = "*"


def render_position(state):
    obj = position_to_json(state)
    title = Text.assemble(
        (f"Azul: Summer Pavilion · {obj['players']} players · round {obj['round']} of {ROUNDS} · wild ", "bold"),
        TILES.tile(_letter(obj["wild"])),
        (f" {obj['wild']}", "bold"),
    )
    return tabletop(title, who_acts(obj, state), _table(obj), [_board(obj, p) for p in range(obj["players"])])


# ---- who acts ------------------------------------------------------------------------


def who_acts(obj, state):
    """One line: who acts and what they do (under the drawing's title; the web board's status)."""
    phase, player = obj["phase"], obj["turn"]
    if phase == "refill":
        filling = next((f for f, tiles in enumerate(obj["factories"], 1) if TILES.count(tiles) < FACTORY_SIZE), None)
        target = f"factory {filling}" if filling else "the supply"
        return f"refill: chance draws a tile for {target}"
    if phase == "resupply":
        return f"resupply: chance draws a tile for the supply (up to {SUPPLY_SIZE})"
    if phase == "draft":
        return f"draft: player {player} to move"
    if phase == "place":
        return f"place: player {player} places a tile or passes"
    if phase == "bonus":
        return f"bonus: player {player} takes {obj['reward']} tiles from the supply"
    if phase == "keep":
        return f"keep: player {player} keeps up to {KEEP_AT_MOST} tiles"
    return "game over: " + result(state, obj["players"])


# ---- the table -----------------------------------------------------------------------


def _table(obj):
    centre = Text.assemble(("Centre  ", "bold"), TILES.row(obj["centre"]))
    if obj["token"] is None:
        centre += Text("  + start-player token", style="dim")
    return Group(
        factories(TILES, obj["factories"]),
        centre,
        Text.assemble(("Supply  ", "bold"), TILES.row(obj["supply"])),
        Text.assemble(
            ("Bag ", "bold"),
            TILES.total(COLOUR_LETTERS, obj["bag"]),
            ("   Tower ", "bold"),
            TILES.total(COLOUR_LETTERS, obj["tower"]),
        ),
    )


def _letter(colour_name):
    return COLOUR_LETTERS[COLOUR_NAMES.index(colour_name)]


# ---- a player's board ----------------------------------------------------------------


def _board(obj, p):
    board = obj["boards"][p]
    number = p + 1
    acting = obj["phase"] in ("draft", "place", "bonus", "keep") and obj["turn"] == number
    marks = [
        mark
        for mark, on in (
            ("start-player token", obj["token"] == number),
            ("passed", number in obj["passed"] and obj["phase"] != "over"),
        )
        if on
    ]
    stars = [_outer_star(letter, cells) for letter, cells in zip(COLOUR_LETTERS, board["stars"])]
    stars.append(_centre_star(board["stars"][-1]))
    return board_panel(
        Group(
            *stars,
            Text(),
            Text.assemble(("Hand ", "bold"), TILES.row(board["hand"])),
            Text.assemble(("Kept ", "bold"), TILES.row(board["kept"])),
            Text(", ".join(marks), style="dim"),
        ),
        number,
        board["score"],
        acting,
    )


def _outer_star(letter, cells):
    spaces = [TILES.tile(cell) if cell != "." else Text(str(k), style="dim") for k, cell in enumerate(cells, 1)]
    return Text.assemble((f"{letter} ", "bold"), Text(" ").join(spaces))


def _centre_star(cells):
    spaces = [
        Text(CENTRE_COVERED, style="bold") if cell != "." else Text(str(k), style="dim")
        for k, cell in enumerate(cells, 1)
    ]
    colours = [TILES.tile(cell) for cell in cells if cell != "."]
    return Text.assemble(("C ", "bold"), Text(" ").join(spaces), "  ", Text("").join(colours))
