"""Azul: what a draft or a gray wall's tiling choice does (docs/web.md, "Why a move").

A draft: the tiles taken, where they go (the pattern line, the floor, the lid), the
floor penalty it adds, the first-player token. When it fills its line, the tile that
line puts on the wall at the round's end: its points on the wall as it will be then
(the current wall and the lines above that are full already, tiled first), and the row,
column and colour it brings nearer to their end-of-game bonuses. On the gray wall the
column is chosen at the tiling, so the points are the most any legal column gives.
A tiling choice (``col N``): the tile's points and bonus progress in that column.
"""

from tessera.explain import signed, term
from tessera.games import get_game
from tessera.kernels.azul.layout import (
    COLOUR_BONUS,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COLUMN_BONUS,
    FLOOR_PENALTY,
    FLOOR_SLOTS,
    ROW_BONUS,
)

SIZE = 5  # rows and columns of the wall
MARKER = "1"  # the first-player token in the notation
NAME = dict(zip(COLOUR_LETTERS, COLOUR_NAMES))


def breakdown(before, move, after):
    fields = get_game(before.game).move_fields(move)
    doc = before.to_json()
    board = doc["boards"][before.to_move - 1]
    found = _tiling(doc, board, fields["column"] - 1) if fields["kind"] == "col" else _draft(doc, board, fields)
    later = after.to_json()
    change = after.scores[before.to_move - 1] - before.scores[before.to_move - 1]
    if found["kind"] == "draft" and (later["round"] != doc["round"] or after.is_over):
        found["terms"].append(term("score_now", change, f"ends the round: score {signed(change)} now"))
    return found


def _draft(doc, board, fields):
    colour, source = fields["colour"], fields["source"]
    tiles = doc["centre"] if source == "C" else doc["factories"][int(source[1:]) - 1]
    taken = tiles.count(colour)
    token = source == "C" and MARKER in doc["centre"]
    out = {"kind": "draft", "source": source, "colour": NAME[colour], "taken": taken, "first_player_token": token}
    terms = [term("taken", taken, f"takes {taken} {NAME[colour]}")]
    overflow = taken
    if fields["destination"] != "floor":
        row = int(fields["destination"]) - 1
        held = _tiles(board["lines"][row])
        placed = min(taken, row + 1 - held)
        overflow = taken - placed
        completes = held + placed == row + 1
        out["line"] = {
            "row": row + 1,
            "placed": placed,
            "filled": held + placed,
            "size": row + 1,
            "completes": completes,
        }
        terms.append(
            term(
                "line",
                placed,
                f"{placed} to line {row + 1} " + ("(full)" if completes else f"({held + placed}/{row + 1})"),
            )
        )
        if completes:
            wall = _wall_at_tiling(doc, board, row)
            out["wall"] = _placement(doc, wall, row, colour, None)
            terms += _wall_terms(out["wall"])
    floor_before = _floor_slots(board["floor"])
    marker_slot = 1 if token else 0
    free = max(0, FLOOR_SLOTS - floor_before - marker_slot)
    to_floor = min(overflow, free)
    floor_after = floor_before + marker_slot + to_floor
    penalty = FLOOR_PENALTY[min(floor_after, FLOOR_SLOTS)] - FLOOR_PENALTY[min(floor_before, FLOOR_SLOTS)]
    out.update(to_floor=to_floor, to_lid=overflow - to_floor, floor_penalty=penalty)
    if token:
        terms.append(term("first_player_token", True, "takes the first-player token"))
    if to_floor:
        terms.append(term("to_floor", to_floor, f"{to_floor} to the floor"))
    if overflow - to_floor:
        terms.append(term("to_lid", overflow - to_floor, f"{overflow - to_floor} to the lid (floor full)"))
    if penalty:
        terms.append(term("floor_penalty", -penalty, f"floor {signed(-penalty)} at round end"))
    return {**out, "terms": terms}


def _tiling(doc, board, column):
    row = next(r for r, line in enumerate(board["lines"]) if _tiles(line) == r + 1)
    colour = board["lines"][row][0]
    wall = [list(line) for line in board["wall"]]
    placement = _placement(doc, wall, row, colour, column)
    return {"kind": "tiling", "colour": NAME[colour], "wall": placement, "terms": _wall_terms(placement)}


def _wall_at_tiling(doc, board, row):
    """The wall as the tile of line ``row`` finds it: the full lines above it tiled first
    (on the colour wall; the gray wall's columns are not chosen yet)."""
    wall = [list(line) for line in board["wall"]]
    if doc["wall"] == "colour":
        for above in range(row):
            line = board["lines"][above]
            if _tiles(line) == above + 1:
                wall[above][_colour_column(line[0], above)] = line[0]
    return wall


def _placement(doc, wall, row, colour, column):
    """The tile of ``colour`` going on ``wall`` in ``row``: its column (None on the gray
    wall when the tiling chooses it: the best legal column is scored), points and
    bonus progress."""
    if column is None and doc["wall"] == "colour":
        column = _colour_column(colour, row)
    columns = (
        [column]
        if column is not None
        else [
            c
            for c in range(SIZE)
            if wall[row][c] == "." and colour not in wall[row] and all(wall[r][c] != colour for r in range(SIZE))
        ]
    )
    if not columns:  # no legal column: the whole line goes to the floor
        return {"row": row + 1, "column": None, "points": 0, "placed": False}
    best = max(columns, key=lambda c: _points(wall, row, c))
    placed = [line[:] for line in wall]
    placed[row][best] = colour
    row_tiles = sum(cell != "." for cell in placed[row])
    column_tiles = sum(placed[r][best] != "." for r in range(SIZE))
    colour_tiles = sum(line.count(colour) for line in placed)
    return {
        "row": row + 1,
        "column": best + 1 if column is not None else None,
        "points": _points(wall, row, best),
        "placed": True,
        "row_tiles": row_tiles,
        "column_tiles": column_tiles,
        "colour_tiles": colour_tiles,
        "row_bonus": ROW_BONUS if row_tiles == SIZE else 0,
        "column_bonus": COLUMN_BONUS if column_tiles == SIZE else 0,
        "colour_bonus": COLOUR_BONUS if colour_tiles == SIZE else 0,
        "colour": NAME[colour],
    }


def _wall_terms(placement):
    if not placement["placed"]:
        return [term("wall", 0, "no legal column: the line goes to the floor")]
    where = f"column {placement['column']}" if placement["column"] else "the best column"
    points = placement["points"]
    terms = [
        term("wall", points, f"wall {signed(points)} at round end ({where})"),
        term(
            "progress",
            True,
            f"row {placement['row_tiles']}/5, column {placement['column_tiles']}/5, "
            f"{placement['colour']} {placement['colour_tiles']}/5",
        ),
    ]
    for name, what in (("row_bonus", "row"), ("column_bonus", "column"), ("colour_bonus", "colour")):
        if placement[name]:
            terms.append(term(name, placement[name], f"completes its {what}: {signed(placement[name])} at game end"))
    return terms


def _points(wall, row, column):
    """A tile's points at (row, column): the tiles linked in its row and in its column,
    counting itself in each (1 for a lone tile)."""

    def run(cells):
        index = cells.index(None)
        left = index
        while left > 0 and cells[left - 1] != ".":
            left -= 1
        right = index
        while right < SIZE - 1 and cells[right + 1] != ".":
            right += 1
        return right - left + 1

    across = run([None if c == column else wall[row][c] for c in range(SIZE)])
    down = run([None if r == row else wall[r][column] for r in range(SIZE)])
    if across > 1 and down > 1:
        return across + down
    return max(across, down)


def _colour_column(colour, row):
    return (COLOUR_LETTERS.index(colour) + row) % SIZE


def _tiles(line):
    return sum(cell != "." for cell in line)


def _floor_slots(floor):
    """Occupied floor slots: its tiles and the token (``-``: none)."""
    return 0 if floor == "-" else len(floor)
