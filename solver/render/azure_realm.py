"""An Azure realm's cells for the web board to draw, read from the position's realm words
(which the engine fills from the board data for the layout) as ``tessera show`` reads them."""

from tessera.kernels.azure.layout import (
    BEAST_NAMES,
    BLACK,
    CELL_COSMOS,
    CELL_COST,
    CELL_DOMAIN,
    CELL_KIND,
    CELL_QI,
    CELL_QI_COLOUR,
    CELL_SERPENT,
    CELL_WISDOM,
    COLOUR_LETTERS,
    GRID,
    KIND_MOUNTAIN,
    KIND_NONE,
    P_GIFTED,
    P_STONES,
    PLAYERS,
    S_CELL,
    S_COSMOS,
    S_THRESHOLDS,
    S_TRACK_END,
    W_BLACK_STONE,
    W_HOLDER,
    cell_field,
    player_word,
)
from tessera.notation.azure import cell_name


def realm(state):
    """{"size", "cells": [...], "track": {...} or None}: every cell of the realm's grid
    that is a space or a mountain, with its symbols, cost and stone or beast."""
    size = GRID if state[S_COSMOS] else 6
    cells = []
    for row in range(size):
        for col in range(size):
            cell = GRID * row + col
            packed = int(state[S_CELL + cell])
            kind = cell_field(packed, CELL_KIND)
            if kind == KIND_NONE:
                continue
            colour = cell_field(packed, CELL_DOMAIN)
            entry = {"cell": cell_name(cell), "row": row, "col": col, "domain": COLOUR_LETTERS[colour]}
            if kind == KIND_MOUNTAIN:
                holder = int(state[W_HOLDER + colour])
                entry.update(
                    kind="mountain",
                    beast=BEAST_NAMES[colour],
                    holder=holder + 1 if holder >= 0 else None,
                    stone=(int(state[W_BLACK_STONE]) + 1 if colour == BLACK and state[W_BLACK_STONE] >= 0 else None),
                )
            else:
                qi = cell_field(packed, CELL_QI)
                qi_colour = COLOUR_LETTERS[cell_field(packed, CELL_QI_COLOUR)] if qi else None
                entry.update(
                    kind="space",
                    qi=qi,
                    qi_colour=qi_colour,
                    wisdom=cell_field(packed, CELL_WISDOM),
                    cosmos=cell_field(packed, CELL_COSMOS),
                    serpent=bool(cell_field(packed, CELL_SERPENT)),
                    cost=cell_field(packed, CELL_COST),
                    stone=_stone(state, cell),
                )
            cells.append(entry)
    return {"size": size, "cells": cells, "track": _track(state)}


def _stone(state, cell):
    for p in range(PLAYERS):
        if int(state[player_word(p, P_STONES)]) >> cell & 1:
            return {"player": p + 1, "gifted": int(state[player_word(p, P_GIFTED)]) == cell}
    return None


def _track(state):
    """The cosmos track, and whether its boards are the packaged stand-in (docs/azure.md)."""
    if not state[S_COSMOS]:
        return None
    from tessera.kernels.azure.realm import load_cosmos

    end = int(state[S_TRACK_END])
    thresholds = int(state[S_THRESHOLDS])
    return {
        "end": end,
        "thresholds": [k for k in range(1, end + 1) if thresholds >> k & 1],
        "standin": bool(load_cosmos().standin),
    }
