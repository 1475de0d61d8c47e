"""A move's text split into the fields the board's clicks map to.

The page finds the move a click means by matching these fields (a source and a
colour, then a destination; a star and a space; a cell) against the legal moves, so
the board never builds move text itself. Only the notation's canonical output
(``format_move``) is read here.
"""
from tessera.kernels.azul import layout as azul_layout
from tessera.kernels.azure import layout as azure_layout
from tessera.kernels.pavilion import layout as pavilion_layout


def _letters(layout):
    """{colour name: its letter}, as the game's notation and the board write them."""
    return dict(zip(layout.COLOUR_NAMES, layout.COLOUR_LETTERS, strict=True))


AZUL_COLOURS = _letters(azul_layout)
PAVILION_COLOURS = _letters(pavilion_layout)
AZURE_COLOURS = _letters(azure_layout)


def fields(game, text):
    """{"text": text, "kind": ..., and the move's parts} for a canonical move text."""
    words = text.split()
    parts = {"azul": _azul, "pavilion": _pavilion, "azure": _azure}[game](words)
    return {"text": text, **parts}


def _azul(words):
    if words[0] == "draw":
        return {"kind": "draw", "colour": AZUL_COLOURS[words[1]]}
    if words[0] == "col":
        return {"kind": "col", "column": int(words[1])}
    source, colour, destination = words
    return {"kind": "draft", "source": source, "colour": AZUL_COLOURS[colour],
            "destination": destination}


def _pavilion(words):
    kind = words[0]
    if kind == "draw":
        return {"kind": "draw", "colour": PAVILION_COLOURS[words[1]]}
    if kind in ("take", "keep"):
        return {"kind": kind, "tiles": words[1]}
    if kind == "pass":
        return {"kind": "pass"}
    if kind == "place":
        wild = int(words[-1]) if words[-2] == "wild" else 0
        if words[1] == "centre":
            return {"kind": "place", "star": "C", "space": int(words[2]),
                    "colour": PAVILION_COLOURS[words[3]], "wild": wild}
        letter = PAVILION_COLOURS[words[1]]
        return {"kind": "place", "star": letter, "space": int(words[2]), "colour": letter,
                "wild": wild}
    source, colour = words                  # a draft: F3 red, C wild
    return {"kind": "draft", "source": source,
            "colour": "wild" if colour == "wild" else PAVILION_COLOURS[colour]}


def _azure(words):
    kind = words[0]
    if kind in ("place", "gifted"):
        return {"kind": kind, "cell": words[1]}
    if kind == "boon":
        return {"kind": "boon", "boon": words[1]}
    if kind in ("take", "draw"):
        return {"kind": kind, "colour": AZURE_COLOURS[words[1]]}
    return {"kind": "return", "colours": "".join(AZURE_COLOURS[c] for c in words[1].split("+"))}
