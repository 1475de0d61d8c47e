"""Summer Pavilion's state words as notation values and back: tile sets and a player's
seven stars."""

from tessera.errors import PositionError
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    NCOLOURS,
    NSTARS,
    STAR_MASK,
    STAR_SPACES,
    TILES_PER_COLOUR,
)
from tessera.notation.fields import TileLanes, list_of, shown, text_value

GAME = "pavilion"
PHASES = ("refill", "draft", "place", "bonus", "keep", "resupply", "over")
TILES = TileLanes(COLOUR_NAMES, COLOUR_LETTERS, TILES_PER_COLOUR)
NO_TILES = "-"
EMPTY_SPACE = "."


def tile_set_word(field, text):
    """A tile set like ``PPGO`` (``-`` for none) as a byte-lane word."""
    text = text_value(field, text)
    if text == NO_TILES:
        return 0
    if not text or set(text) - set(COLOUR_LETTERS):
        raise PositionError(
            field, f"{shown(text)} is not a tile set (letters {' '.join(COLOUR_LETTERS)}, {NO_TILES} for none)"
        )
    return TILES.letters_word(field, text)


def tile_set_text(word):
    return TILES.letters_text(word) or NO_TILES


def stars_words(field, stars):
    """(covered-space mask, centre colour mask) from the seven star strings."""
    stars = list_of(field, stars, NSTARS, "stars (the outer stars in colour order, then the centre star)")
    spaces = colours = 0
    for star, cells in enumerate(stars):
        name = star_name(star)
        if len(cells) != STAR_SPACES:
            raise PositionError(field, f"the {name} star {shown(cells)} needs {STAR_SPACES} spaces")
        for i, cell in enumerate(cells):
            if cell == EMPTY_SPACE:
                continue
            if star != CENTRE_STAR and cell != COLOUR_LETTERS[star]:
                raise PositionError(
                    field,
                    f"the {name} star space {i + 1}: {shown(cell)} is not '{COLOUR_LETTERS[star]}' or '{EMPTY_SPACE}'",
                )
            if star == CENTRE_STAR:
                if cell not in TILES.of_letter:
                    raise PositionError(
                        field, f"the centre star space {i + 1}: {shown(cell)} is not a colour letter or '{EMPTY_SPACE}'"
                    )
                if colours >> TILES.of_letter[cell] & 1:
                    raise PositionError(
                        field, f"the centre star holds {cell} twice (its six tiles are six different colours)"
                    )
                colours |= 1 << TILES.of_letter[cell]
            spaces |= 1 << (STAR_SPACES * star + i)
    return spaces, colours


def stars_text(spaces, colours):
    """Outer stars as their letter on covered spaces; the centre star's colours in colour
    order on its covered spaces (the engine does not keep which space holds which)."""
    stars = []
    for star in range(NCOLOURS):
        cells = spaces >> (STAR_SPACES * star) & STAR_MASK
        stars.append("".join(COLOUR_LETTERS[star] if cells >> i & 1 else EMPTY_SPACE for i in range(STAR_SPACES)))
    letters = iter([COLOUR_LETTERS[c] for c in range(NCOLOURS) if colours >> c & 1])
    cells = spaces >> (STAR_SPACES * CENTRE_STAR) & STAR_MASK
    stars.append("".join(next(letters, "?") if cells >> i & 1 else EMPTY_SPACE for i in range(STAR_SPACES)))
    return stars


def star_name(star):
    return "centre" if star == CENTRE_STAR else COLOUR_NAMES[star]
