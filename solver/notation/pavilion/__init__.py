"""Summer Pavilion positions and moves as text and JSON; the format is
docs/pavilion-notation.md."""

from tessera.kernels.pavilion.layout import COLOUR_LETTERS, COLOUR_NAMES
from tessera.notation.pavilion.document import position_from_json, position_to_json
from tessera.notation.pavilion.moves import format_move, parse_move
from tessera.notation.pavilion.text import format_position, parse_position
from tessera.notation.pavilion.validation import validate
from tessera.notation.pavilion.words import NO_TILES

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
