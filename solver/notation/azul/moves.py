"""Azul move text and move codes, both ways."""

import tessera.kernels.azul as azul_kernels
from tessera.errors import MoveError
from tessera.kernels.azul.layout import (
    CHANCE_MOVE_BASE,
    COLOUR_NAMES,
    DEST_FLOOR,
    MAX_FACTORIES,
    MAX_MOVES,
    NCOLOURS,
    NDESTS,
    PHASE_OVER,
    PHASE_REFILL,
    PHASE_TILING,
    SOURCE_CENTRE,
    TILE_MOVE_BASE,
    W_PHASE,
    W_TO_MOVE,
    draft_move,
    split_draft_move,
)
from tessera.notation.azul.words import PHASES, TILES, WALL_SIZE
from tessera.notation.fields import legal_move, move_code, move_number, move_source, move_words

MOVE_FORMS = "'F3 blue 4', 'C red floor', 'col 2' or 'draw red'"


def format_move(state, move):
    """Canonical text of a move code. ``state`` is part of the Game interface; codes
    do not depend on it."""
    move = move_code(move, "an Azul")
    if 0 <= move < MAX_MOVES:
        source, colour, dest = split_draft_move(move)
        where = "C" if source == SOURCE_CENTRE else f"F{source + 1}"
        to = "floor" if dest == DEST_FLOOR else str(dest + 1)
        return f"{where} {COLOUR_NAMES[colour]} {to}"
    if TILE_MOVE_BASE <= move < TILE_MOVE_BASE + WALL_SIZE:
        return f"col {move - TILE_MOVE_BASE + 1}"
    if CHANCE_MOVE_BASE <= move < CHANCE_MOVE_BASE + NCOLOURS:
        return f"draw {COLOUR_NAMES[move - CHANCE_MOVE_BASE]}"
    raise MoveError(str(move), "not an Azul move code")


def parse_move(state, text):
    """The move code of ``text`` if it is legal in ``state``; raises MoveError."""
    return legal_move(state, text, _move_code(text), azul_kernels, _why_illegal)


def _move_code(text):
    words = move_words(text)
    if len(words) == 2 and words[0] == "draw":
        return CHANCE_MOVE_BASE + TILES.move_colour(text, words[1])
    if len(words) == 2 and words[0] == "col":
        return TILE_MOVE_BASE + move_number(text, words[1], WALL_SIZE, "column") - 1
    if len(words) == 3:
        source = _move_source(text, words[0])
        colour = TILES.move_colour(text, words[1])
        return draft_move(source, colour, _move_destination(text, words[2]))
    raise MoveError(text, f"expected {MOVE_FORMS}")


def _move_source(text, word):
    return move_source(text, word, MAX_FACTORIES, SOURCE_CENTRE, f"'{word}' is not a source (F1..F9 or C)")


def _move_destination(text, word):
    if word == "floor":
        return DEST_FLOOR
    return move_number(text, word, NDESTS - 1, "pattern line") - 1


def _why_illegal(state):
    phase = int(state[W_PHASE])
    if phase == PHASE_OVER:
        return "the game is over"
    if phase == PHASE_REFILL:
        return "not a possible draw (phase refill: 'draw <colour>' for a colour left to draw)"
    kind = "'col <n>'" if phase == PHASE_TILING else "'<source> <colour> <line|floor>'"
    return f"not legal for player {state[W_TO_MOVE] + 1} in phase {PHASES[phase]} ({kind})"
