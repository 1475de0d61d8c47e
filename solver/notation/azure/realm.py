"""Azure's realm in notation: the layout of its four domains in text (``A1@90``) and JSON,
and the realm words the board data builds from a layout."""

import re
from functools import lru_cache

import numpy as np

from tessera.errors import PositionError
from tessera.kernels.azure.layout import COLOUR_LETTERS, COLOUR_NAMES, PLACE_NAMES, ROTATIONS, S_SPACES, STATE_SIZE
from tessera.kernels.azure.realm import BoardDataError, Layout, check_layout, write_realm
from tessera.notation.azure.words import COLOURS, LARGE_MARK
from tessera.notation.fields import check_keys, shown

PLACE_KEYS = ("domain", "side", "rotation", "large")
LAYOUT_TOKEN = re.compile(r"([AWVB])([12])@(0|90|180|270)(\*?)")


def board_data_error(err):
    """A missing or malformed board file, as a one-line position error."""
    return PositionError("layout", str(err))


def layout_json_of_text(tokens):
    layout = {}
    for place, token in zip(PLACE_NAMES, tokens):
        match = LAYOUT_TOKEN.fullmatch(token)
        if not match:
            raise PositionError(
                "layout",
                f"{place}: '{token}' is not a domain like A1@90"
                " (colour letter A W V B, side 1 or 2, @ and a"
                " clockwise rotation 0, 90, 180 or 270; * after a"
                " Cosmos large domain)",
            )
        letter, side, rotation, large = match.groups()
        layout[place] = {
            "domain": COLOUR_NAMES[COLOURS.of_letter[letter]],
            "side": int(side),
            "rotation": int(rotation),
            "large": bool(large),
        }
    return layout


def layout_option(tokens, cosmos):
    """A checked realm ``Layout`` from four layout tokens (``tessera new azure --layout``)."""
    layout = layout_from_json(layout_json_of_text(tokens), cosmos)
    try:
        check_layout(layout)
    except BoardDataError as err:
        raise board_data_error(err) from None
    except ValueError as err:
        raise PositionError("layout", str(err)) from None
    return layout


def layout_text(layout):
    return " ".join(
        f"{COLOUR_LETTERS[COLOUR_NAMES.index(p['domain'])]}{p['side']}"
        f"@{p['rotation']}{LARGE_MARK if p['large'] else ''}"
        for p in (layout[name] for name in PLACE_NAMES)
    )


def layout_from_json(layout, cosmos):
    """A realm ``Layout`` from the JSON ``layout`` object; raises PositionError."""
    if not isinstance(layout, dict):
        raise PositionError("layout", f"expected an object with {', '.join(PLACE_NAMES)}")
    layout = check_keys(layout, PLACE_NAMES, "layout ")
    places, large = [], []
    for p, name in enumerate(PLACE_NAMES):
        place = layout[name]
        field = f"layout {name}"
        place = check_keys(place, PLACE_KEYS, field + " ")
        if place["domain"] not in COLOUR_NAMES:
            raise PositionError(field, f"domain: expected {', '.join(COLOUR_NAMES)}; got {shown(place['domain'])}")
        if place["side"] not in (1, 2) or type(place["side"]) is not int:
            raise PositionError(field, f"side: expected 1 or 2, got {shown(place['side'])}")
        if place["rotation"] not in ROTATIONS or type(place["rotation"]) is not int:
            raise PositionError(field, f"rotation: expected 0, 90, 180 or 270, got {shown(place['rotation'])}")
        if type(place["large"]) is not bool:
            raise PositionError(field, f"large: expected true or false, got {shown(place['large'])}")
        places.append((COLOUR_NAMES.index(place["domain"]), place["side"], place["rotation"] // 90))
        if place["large"]:
            large.append(p)
    if not cosmos:
        if large:
            raise PositionError("layout", "a large domain without the Cosmos expansion")
        return Layout(tuple(places))
    diagonals = {(0, 3): 0, (1, 2): 1}
    if tuple(large) not in diagonals:
        raise PositionError(
            "layout",
            "with Cosmos the two large domains lie corner to corner"
            " (top-left and bottom-right, or top-right and"
            " bottom-left)",
        )
    return Layout(tuple(places), cosmos=True, arrangement=diagonals[tuple(large)])


@lru_cache(maxsize=256)
def _realm_words(layout, gifted):
    state = np.zeros(STATE_SIZE, np.int64)
    try:
        write_realm(state, layout, gifted)
    except BoardDataError as err:
        raise board_data_error(err) from None
    except ValueError as err:
        raise PositionError("layout", str(err)) from None
    words = state[S_SPACES:]
    words.flags.writeable = False
    return words


def realm_words(layout, gifted):
    """The realm words (``S_SPACES`` on) of a layout and gifted card, from the board data;
    raises PositionError for a layout the data does not allow."""
    return _realm_words(layout, gifted)
