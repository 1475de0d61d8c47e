"""Summer Pavilion move text and move codes, both ways."""

import tessera.kernels.pavilion as pavilion_kernels
from tessera.errors import MoveError
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    CHANCE_BASE,
    CHOICE_MASK,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    KEEP_AT_MOST,
    KEEP_BASE,
    LONE_WILD,
    MAX_FACTORIES,
    MAX_REWARD,
    NCOLOURS,
    PASS_MOVE,
    PHASE_BONUS,
    PHASE_DRAFT,
    PHASE_KEEP,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_RESUPPLY,
    PLACE_BASE,
    SOURCE_CENTRE,
    STAR_SPACES,
    TAKE_BASE,
    W_PHASE,
    W_REWARD,
    W_TO_MOVE,
    choice_code,
    choice_counts,
    draft_move,
    place_move,
    split_draft_move,
    split_place_move,
)
from tessera.notation.fields import legal_move, letters_text, move_code, move_number, move_source, move_words
from tessera.notation.pavilion.words import NO_TILES, PHASES, TILES, star_name

CENTRE_WORD = "centre"
WILD_WORD = "wild"

MOVE_FORMS = (
    "'F3 red', 'C wild', 'place red 3 wild 1', 'place centre 4 blue', 'pass', 'take BBY', 'keep PPG' or 'draw red'"
)


def format_move(state, move):
    """Canonical text of a move code. ``state`` is part of the Game interface; codes do
    not depend on it."""
    move = move_code(move, "a Summer Pavilion")
    if 0 <= move < PLACE_BASE:
        source, colour = split_draft_move(move)
        if source <= SOURCE_CENTRE and colour <= LONE_WILD:
            where = "C" if source == SOURCE_CENTRE else f"F{source + 1}"
            return f"{where} {WILD_WORD if colour == LONE_WILD else COLOUR_NAMES[colour]}"
    if PLACE_BASE <= move < PASS_MOVE:
        star, number, colour, wilds = split_place_move(move)
        # An outer star takes its own colour: a code with another names no move.
        if star == CENTRE_STAR or colour == star:
            text = f"place {star_name(star)} {number}"
            if star == CENTRE_STAR:
                text += f" {COLOUR_NAMES[colour]}"
            return text + (f" wild {wilds}" if wilds else "")
    if move == PASS_MOVE:
        return "pass"
    if CHANCE_BASE <= move < CHANCE_BASE + NCOLOURS:
        return f"draw {COLOUR_NAMES[move - CHANCE_BASE]}"
    if TAKE_BASE <= move < 2 * KEEP_BASE:
        word, base = ("keep", KEEP_BASE) if move >= KEEP_BASE else ("take", TAKE_BASE)
        counts = choice_counts(move - base)
        # A bonus takes 1 to MAX_REWARD tiles; a pass keeps 0 to KEEP_AT_MOST.
        smallest, largest = (0, KEEP_AT_MOST) if word == "keep" else (1, MAX_REWARD)
        if smallest <= sum(counts) <= largest:
            return f"{word} " + (letters_text(counts, COLOUR_LETTERS) or NO_TILES)
    raise MoveError(str(move), "not a Summer Pavilion move code")


def parse_move(state, text):
    """The move code of ``text`` if it is legal in ``state``; raises MoveError."""
    return legal_move(state, text, _move_code(state, text), pavilion_kernels, _why_illegal)


def _move_code(state, text):
    words = move_words(text)
    if words == ["pass"]:
        return PASS_MOVE
    if len(words) == 2 and words[0] == "draw":
        return CHANCE_BASE + TILES.move_colour(text, words[1])
    if len(words) == 2 and words[0] in ("take", "keep"):
        base = TAKE_BASE if words[0] == "take" else KEEP_BASE
        return base + choice_code(_move_tiles(text, words[1]))
    if words and words[0] == "place":
        return _place_code(state, text, words[1:])
    if len(words) == 2:
        return draft_move(
            move_source(text, words[0], MAX_FACTORIES, SOURCE_CENTRE, f"expected {MOVE_FORMS}"),
            _draft_colour(text, words[1]),
        )
    raise MoveError(text, f"expected {MOVE_FORMS}")


def _place_code(state, text, words):
    """``<star> <number> [<colour>] [wild <n>]``; the colour is named on the centre star only."""
    wilds = 0
    if len(words) >= 2 and words[-2] == WILD_WORD:
        wilds = move_number(text, words[-1], STAR_SPACES - 1, "count of wild tiles", lowest=0)
        words = words[:-2]
    if len(words) not in (2, 3):
        raise MoveError(
            text, "expected 'place <star> <space> [wild <n>]' or 'place centre <space> <colour> [wild <n>]'"
        )
    star = CENTRE_STAR if words[0] == CENTRE_WORD else TILES.move_colour(text, words[0])
    number = move_number(text, words[1], STAR_SPACES, "space")
    if star == CENTRE_STAR and len(words) == 3:
        colour = TILES.move_colour(text, words[2])
    elif star != CENTRE_STAR and len(words) == 2:
        colour = star
    else:
        raise MoveError(text, "name the colour for the centre star only ('place centre 4 blue')")
    return place_move(star, number, colour, wilds)


def _draft_colour(text, word):
    return LONE_WILD if word == WILD_WORD else TILES.move_colour(text, word)


def _move_tiles(text, word):
    if word == NO_TILES:
        return [0] * NCOLOURS
    letters = word.upper()
    if set(letters) - set(COLOUR_LETTERS):
        raise MoveError(text, f"'{word}' is not tiles (letters {' '.join(COLOUR_LETTERS)}, {NO_TILES} for none)")
    counts = [letters.count(letter) for letter in COLOUR_LETTERS]
    if max(counts) > CHOICE_MASK:
        raise MoveError(text, f"'{word}' has too many tiles of one colour")
    return counts


def _why_illegal(state):
    phase = int(state[W_PHASE])
    if phase == PHASE_OVER:
        return "the game is over"
    if phase in (PHASE_REFILL, PHASE_RESUPPLY):
        return f"not a possible draw (phase {PHASES[phase]}: 'draw <colour>' for a colour left)"
    kind = {
        PHASE_DRAFT: "'<source> <colour>' or '<source> wild'",
        PHASE_PLACE: "'place ...' or 'pass'",
        PHASE_BONUS: f"'take <{state[W_REWARD]} supply tiles>'",
        PHASE_KEEP: f"'keep <at most {KEEP_AT_MOST} of your tiles>'",
    }[phase]
    return f"not legal for player {state[W_TO_MOVE] + 1} in phase {PHASES[phase]} ({kind})"
