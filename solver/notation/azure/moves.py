"""Azure move text and move codes, both ways."""

import tessera.kernels.azure as azure_kernels
from tessera.errors import MoveError
from tessera.kernels.azure.layout import (
    BOON_BASE,
    BOON_NAMES,
    CELLS,
    COLOUR_NAMES,
    DRAW_BASE,
    GIFTED_BASE,
    GRID,
    NCOLOURS,
    PAIR_BASE,
    RETURN_BASE,
    TAKE_BASE,
    W_BIRD_LOSER,
    W_TURN,
)
from tessera.notation.azure.words import CELL_NAME, COLOURS, COLUMNS, cell_name, phase_name
from tessera.notation.fields import legal_move, move_code, move_words

MOVE_FORMS = (
    "'place c4', 'gifted c4', 'boon wisdom', 'take azure', 'return white', 'return azure+black' or 'draw vermillion'"
)


def format_move(state, move):
    """Canonical text of a move code. ``state`` is part of the Game interface; codes do
    not depend on it."""
    move = move_code(move, "an Azure")
    if 0 <= move < CELLS:
        return f"place {cell_name(move)}"
    if GIFTED_BASE <= move < GIFTED_BASE + CELLS:
        return f"gifted {cell_name(move - GIFTED_BASE)}"
    if BOON_BASE <= move < BOON_BASE + len(BOON_NAMES):
        return f"boon {BOON_NAMES[move - BOON_BASE]}"
    if TAKE_BASE <= move < TAKE_BASE + NCOLOURS:
        return f"take {COLOUR_NAMES[move - TAKE_BASE]}"
    if RETURN_BASE <= move < RETURN_BASE + NCOLOURS:
        return f"return {COLOUR_NAMES[move - RETURN_BASE]}"
    if PAIR_BASE <= move < PAIR_BASE + NCOLOURS * NCOLOURS:
        first, second = divmod(move - PAIR_BASE, NCOLOURS)
        if first <= second:
            return f"return {COLOUR_NAMES[first]}+{COLOUR_NAMES[second]}"
    if DRAW_BASE <= move < DRAW_BASE + NCOLOURS:
        return f"draw {COLOUR_NAMES[move - DRAW_BASE]}"
    raise MoveError(str(move), "not an Azure move code")


def parse_move(state, text):
    """The move code of ``text`` if it is legal in ``state``; raises MoveError."""
    return legal_move(state, text, _move_code(text), azure_kernels, _why_illegal)


def _move_code(text):
    words = move_words(text)
    if len(words) != 2:
        raise MoveError(text, f"expected {MOVE_FORMS}")
    verb, word = words
    if verb in ("place", "gifted"):
        match = CELL_NAME.fullmatch(word)
        if not match:
            raise MoveError(text, f"'{word}' is not a cell (a1..h8: column a-h, row 1-8)")
        cell = GRID * (int(match.group(2)) - 1) + COLUMNS.index(match.group(1))
        return cell + (GIFTED_BASE if verb == "gifted" else 0)
    if verb == "boon":
        if word not in BOON_NAMES:
            raise MoveError(text, f"'{word}' is not a boon ({', '.join(BOON_NAMES)})")
        return BOON_BASE + BOON_NAMES.index(word)
    if verb == "take":
        return TAKE_BASE + COLOURS.move_colour(text, word)
    if verb == "draw":
        return DRAW_BASE + COLOURS.move_colour(text, word)
    if verb == "return":
        parts = word.split("+")
        if len(parts) == 1:
            return RETURN_BASE + COLOURS.move_colour(text, word)
        if len(parts) == 2:
            first, second = sorted(COLOURS.move_colour(text, part) for part in parts)
            return PAIR_BASE + NCOLOURS * first + second
        raise MoveError(text, "return one colour or two joined by '+' ('return azure+black')")
    raise MoveError(text, f"expected {MOVE_FORMS}")


def _why_illegal(state):
    phase = phase_name(state)
    turn = int(state[W_TURN]) + 1
    if phase == "over":
        return "the game is over"
    if phase in ("setup", "bird-draw"):
        return f"not a possible draw (phase {phase}: 'draw <colour>' for a colour in the deck)"
    actor = {"return": 3 - turn, "bird-return": int(state[W_BIRD_LOSER]) + 1}.get(phase, turn)
    kind = {
        "place": "'place <cell>' or 'gifted <cell>' on an affordable empty space",
        "boon": "'boon <qi|wisdom|cosmos>' for a symbol the space shows",
        "take": "'take <colour>' from a face-up deck with cards",
        "return": "'return <colour>' of a card in hand",
        "bird-return": "'return <colour>+<colour>' of two cards in hand",
    }[phase]
    return f"not legal for player {actor} in phase {phase} ({kind})"
