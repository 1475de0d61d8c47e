"""A Summer Pavilion position drawn with rich: a header, the table, then one board per player.

Drawn from the JSON form of the position, so the drawing never reads the bit layout.
A star is a row of its six spaces: a covered space shows its tile's letter, an empty
one its number (the tiles it costs), so the board still reads right without colour.
The centre star shows ``*`` on covered spaces and lists its colours after them (the
engine does not keep which space holds which colour).
"""
import numpy as np
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from kernels.games import payoffs
from kernels.pavilion.layout import (
    COLOUR_LETTERS, COLOUR_NAMES, FACTORY_SIZE, KEEP_AT_MOST, ROUNDS, SUPPLY_SIZE,
)
from solver.notation.pavilion import NO_TILES, position_to_json

TILE_STYLES = {
    "P": "bold white on purple",
    "G": "bold black on green",
    "O": "bold black on dark_orange",
    "Y": "bold black on yellow",
    "B": "bold white on blue",
    "R": "bold white on red",
}
CENTRE_COVERED = "*"
BOARD_WIDTH = 25                # three boards fit in 80 columns


def render_position(state):
    obj = position_to_json(state)
    return Group(
        _header(obj, state),
        Text(),
        _table(obj),
        Text(),
        Columns([_board(obj, p) for p in range(obj["players"])], padding=(0, 1)),
    )


# ---- header --------------------------------------------------------------------------

def _header(obj, state):
    return Group(
        Text.assemble((f"Azul: Summer Pavilion · {obj['players']} players · round"
                       f" {obj['round']} of {ROUNDS} · wild ", "bold"),
                      _tile(_letter(obj["wild"])), (f" {obj['wild']}", "bold")),
        Text(_who_acts(obj, state)),
    )


def _who_acts(obj, state):
    phase, player = obj["phase"], obj["turn"]
    if phase == "refill":
        filling = next((f for f, tiles in enumerate(obj["factories"], 1)
                        if _count(tiles) < FACTORY_SIZE), None)
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
    return "game over: " + _result(obj, state)


def _result(obj, state):
    shares = np.zeros(obj["players"], np.float64)
    payoffs(state, shares)
    winners = [str(p) for p, share in enumerate(shares, 1) if share > 0]
    if len(winners) == 1:
        return f"player {winners[0]} wins"
    return f"players {' and '.join(winners)} share the win"


# ---- the table -----------------------------------------------------------------------

def _table(obj):
    factories = [Text.assemble((f"{f} ", "dim"), _tiles(tiles))
                 for f, tiles in enumerate(obj["factories"], 1)]
    centre = Text.assemble(("Centre  ", "bold"), _tiles(obj["centre"]))
    if obj["token"] is None:
        centre += Text("  + start-player token", style="dim")
    return Group(
        Text("Factories", style="bold"),
        Columns(factories, padding=(0, 3)),
        centre,
        Text.assemble(("Supply  ", "bold"), _tiles(obj["supply"])),
        Text.assemble(("Bag ", "bold"), _counts(obj["bag"]), ("   Tower ", "bold"),
                      _counts(obj["tower"])),
    )


def _letter(colour_name):
    return COLOUR_LETTERS[COLOUR_NAMES.index(colour_name)]


def _tiles(tiles):
    if tiles == NO_TILES:
        return Text(NO_TILES, style="dim")
    return Text(" ").join(_tile(letter) for letter in tiles)


def _tile(letter):
    return Text(letter, style=TILE_STYLES[letter])


def _count(tiles):
    return 0 if tiles == NO_TILES else len(tiles)


def _counts(counts):
    text = Text(f"{sum(counts.values())}:")
    for letter, n in zip(COLOUR_LETTERS, counts.values()):
        text += Text(" ") + _tile(letter) + Text(str(n))
    return text


# ---- a player's board ----------------------------------------------------------------

def _board(obj, p):
    board = obj["boards"][p]
    number = p + 1
    acting = obj["phase"] in ("draft", "place", "bonus", "keep") and obj["turn"] == number
    title = f"{'▶ ' if acting else ''}Player {number} · {board['score']} pts"
    marks = [mark for mark, on in (("start-player token", obj["token"] == number),
                                   ("passed", number in obj["passed"] and obj["phase"] != "over"))
             if on]
    stars = [_outer_star(letter, cells) for letter, cells in zip(COLOUR_LETTERS, board["stars"])]
    stars.append(_centre_star(board["stars"][-1]))
    return Panel(Group(*stars, Text(),
                       Text.assemble(("Hand ", "bold"), _tiles(board["hand"])),
                       Text.assemble(("Kept ", "bold"), _tiles(board["kept"])),
                       Text(", ".join(marks), style="dim")),
                 title=title, width=BOARD_WIDTH, border_style="bold" if acting else "dim")


def _outer_star(letter, cells):
    spaces = [_tile(cell) if cell != "." else Text(str(k), style="dim")
              for k, cell in enumerate(cells, 1)]
    return Text.assemble((f"{letter} ", "bold"), Text(" ").join(spaces))


def _centre_star(cells):
    spaces = [Text(CENTRE_COVERED, style="bold") if cell != "." else Text(str(k), style="dim")
              for k, cell in enumerate(cells, 1)]
    colours = [_tile(cell) for cell in cells if cell != "."]
    return Text.assemble(("C ", "bold"), Text(" ").join(spaces), "  ", Text("").join(colours))
