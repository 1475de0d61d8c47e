"""Azure positions and moves as text and JSON; the format is docs/azure-notation.md.
``realm`` reads and writes the layout of the realm, ``phase_checks`` the part of
validation that depends on the phase.

A position is complete (every card known) or one player's view (``view N``):
the observer's own hand, the opponent's known cards and hand size, the hidden
deck's size. The realm words are never written by hand: the position names the
layout and the gifted card, and ``tessera.kernels.azure.realm.write_realm`` builds them.
"""

from tessera.kernels.azure.layout import COLOUR_LETTERS, COLOUR_NAMES
from tessera.notation.azure.document import position_from_json, position_to_json
from tessera.notation.azure.moves import format_move, parse_move
from tessera.notation.azure.phase_checks import _check_bird_draw
from tessera.notation.azure.realm import layout_option
from tessera.notation.azure.text import format_position, parse_position
from tessera.notation.azure.validation import validate
from tessera.notation.azure.words import COLUMNS, NONE, UNKNOWN, cell_name, cell_of_name

__all__ = [
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "COLUMNS",
    "NONE",
    "UNKNOWN",
    "_check_bird_draw",
    "cell_name",
    "cell_of_name",
    "format_move",
    "format_position",
    "layout_option",
    "parse_move",
    "parse_position",
    "position_from_json",
    "position_to_json",
    "validate",
]
