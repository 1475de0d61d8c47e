"""Azul positions and moves as text and JSON; the format is docs/azul-notation.md."""

from tessera.kernels.azul.layout import COLOUR_LETTERS, COLOUR_NAMES
from tessera.notation.azul.document import position_from_json, position_to_json
from tessera.notation.azul.moves import format_move, parse_move
from tessera.notation.azul.text import format_position, parse_position
from tessera.notation.azul.validation import validate
from tessera.notation.azul.words import NO_TILES

__all__ = [
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "NO_TILES",
    "format_move",
    "format_position",
    "parse_move",
    "parse_position",
    "position_from_json",
    "position_to_json",
    "validate",
]
