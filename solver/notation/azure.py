"""Azure positions and moves as text and JSON; the format is docs/azure-notation.md.

Text is read into the JSON form first, so both forms share one builder, and the
builder ends with ``validate``: a position that parses is one the rules can reach
(as far as the documented checks can tell) and formats back to the same array.

A position is complete (every card known) or one player's view (``view N``):
the observer's own hand, the opponent's known cards and hand size, the hidden
deck's size. The realm words are never written by hand: the position names the
layout and the gifted card, and ``tessera.kernels.azure.realm.write_realm`` builds them.
"""
import re
from functools import lru_cache

import numpy as np

import tessera.kernels.azure as azure_kernels
from tessera.kernels.azure.layout import (
    AZURE, BEAST_NAMES, BEAST_ORDER, BLACK, BOON_BASE, BOON_NAMES, CARDS_PER_COLOUR, CELL_COSMOS,
    CELL_KIND, CELL_QI, CELL_WISDOM, CELLS, COLOUR_LETTERS, COLOUR_NAMES, COSMOS_STONES,
    DECK_PER_COLOUR, DRAW_BASE, FAVORED, FIRST_GUARDS, GAME_ID, GIFTED_BASE, GIFTED_NAMES,
    GIFTED_NONE, BOUNTIFUL, GRID, HAND_START, HIDDEN, KIND_MOUNTAIN,
    NCOLOURS, NOBODY, P_GIFTED, P_HAND, P_HAND_SIZE, P_KNOWN, P_SCORE, P_STONES, P_SUPPLY,
    PAIR_BASE, PHASE_BOON, PHASE_DRAW, PHASE_OVER, PHASE_PLACE, PHASE_RETURN, PHASE_RETURN_PAIR,
    PHASE_TAKE, PLACE_NAMES, PLACES, PLAYERS, RETURN_BASE, ROTATIONS, S_ARRANGEMENT, S_CELL, S_COSMOS, S_DOMAIN,
    S_GIFTED, S_MOUNTAIN, S_SERPENTS, S_SIGHT, S_SPACES, S_THRESHOLDS, S_TRACK_END, STATE_SIZE,
    STEP_BEASTS, STEP_BIRD_DRAW, STEP_BIRD_RETURN, STEP_BOON, STEP_END, STEP_RETURN, STEP_SETUP,
    STEP_TAKE, STONES, TAKE_BASE, VERMILLION, W_BIRD_LOSER, W_BLACK_STONE, W_DECK, W_DECK_SIZE,
    W_DRAGON, W_DRAW_FOR, W_DRAWS, W_FACEUP, W_GAME, W_HOLDER, W_PHASE, W_PLACED, W_RETURNS,
    W_STEP, W_TAKES, W_TURN, W_VIEW, W_WINNER, WHITE, WIN_SCORE, cell_field, player_word,
)
from tessera.kernels.azure.moves import can_place
from tessera.kernels.azure.realm import BoardDataError, Layout, check_layout, layout_of, \
    write_realm
from tessera.errors import MoveError, PositionError
from tessera.notation.fields import (
    MAX_NUMBER, check_array, check_game, check_keys, choice, counts_text, json_counts,
    legal_move, letter_counts, letters_text, move_code, move_colour, move_words,
    position_tokens, section_json, shown, text_counts, text_number, text_value, whole_number,
)

GAME = "azure"
NONE = "-"                  # no value: no player, no cell, no cards
UNKNOWN = "?"               # a card the reader of a view cannot name
LARGE_MARK = "*"            # a Cosmos large domain in a layout token
COLUMNS = "abcdefgh"
MASK64 = (1 << 64) - 1
COLOUR_OF_LETTER = {letter: c for c, letter in enumerate(COLOUR_LETTERS)}
BEAST_OF_NAME = {name: c for c, name in enumerate(BEAST_NAMES)}

# Notation phase -> (W_PHASE, W_STEP). The draw phase is two: the starting hands and the
# Bird's draws. A turn waiting for its placement resumes nowhere (STEP_END); a game that
# ended in the middle of a turn keeps the step it stopped at (the ``step`` key).
PHASES = {
    "setup": (PHASE_DRAW, STEP_SETUP),
    "place": (PHASE_PLACE, STEP_END),
    "boon": (PHASE_BOON, STEP_BOON),
    "take": (PHASE_TAKE, STEP_TAKE),
    "return": (PHASE_RETURN, STEP_RETURN),
    "bird-draw": (PHASE_DRAW, STEP_BIRD_DRAW),
    "bird-return": (PHASE_RETURN_PAIR, STEP_BIRD_RETURN),
    "over": (PHASE_OVER, STEP_END),
}
PHASE_OF_WORDS = {words: name for name, words in PHASES.items()}
STEP_NAMES = ("boon", "take", "return", "beasts", "bird-draw", "bird-return", "end", "setup")
MID_TURN = ("boon", "take", "return", "bird-draw", "bird-return")   # a stone was just placed
# Where a turn can stop with a win: the placement's points or cosmos steps (STEP_END, the
# step the turn started at), Bountiful's extra boon, a threshold point (both in the boon
# and take steps), the Dragon's or Tiger's points.
OVER_STEPS = (STEP_END, STEP_BOON, STEP_TAKE, STEP_BEASTS)
OVER_STEP_NAMES = tuple(STEP_NAMES[step] for step in OVER_STEPS[1:])


def phase_name(state):
    """The notation's phase of a state, or None if its phase and step words fit none."""
    if state[W_PHASE] == PHASE_OVER and state[W_STEP] in OVER_STEPS:
        return "over"
    return PHASE_OF_WORDS.get((int(state[W_PHASE]), int(state[W_STEP])))


# JSON keys. Turn keys (the ``TURN_DEFAULTS``) are left out of the text when they hold
# their default; the rest are always written.
JSON_KEYS = ("game", "gifted", "cosmos", "track", "view", "layout", "phase", "turn", "winner",
             "step", "draws", "placed", "takes", "returns", "bird_loser", "faceup", "deck", "players")
TURN_DEFAULTS = {"winner": None, "step": None, "draws": 0, "placed": None, "takes": 0,
                 "returns": 0, "bird_loser": None}
PLAYER_KEYS = ("score", "supply", "stones", "gifted", "beasts", "hand", "known")
PLACE_KEYS = ("domain", "side", "rotation", "large")
TEXT_HEADER_KEYS = ("gifted", "cosmos", "track", "view", "layout", "phase", "turn", "winner",
                    "step", "draws", "placed", "takes", "returns", "bird_loser", "faceup", "deck")
PLAYER_WORD = "player"
YES_NO = ("no", "yes")
LAYOUT_TOKEN = re.compile(r"([AWVB])([12])@(0|90|180|270)(\*?)")
CELL_NAME = re.compile(r"([a-h])([1-8])")


def board_data_error(err):
    """A missing or malformed board file, as a one-line position error."""
    return PositionError("layout", str(err))


# ---- cells and cards -------------------------------------------------------------------

def cell_name(cell):
    """``a1`` is the top-left cell: columns a-h left to right, rows 1-8 top to bottom."""
    row, col = divmod(int(cell), GRID)
    return f"{COLUMNS[col]}{row + 1}"


def cell_of_name(field, name):
    match = CELL_NAME.fullmatch(name) if isinstance(name, str) else None
    if not match:
        raise PositionError(field, f"{shown(name)} is not a cell (a1..h8: column a-h, row 1-8)")
    return GRID * (int(match.group(2)) - 1) + COLUMNS.index(match.group(1))


def _bit(cell):
    return 1 << cell


def _mask(word):
    """A realm mask word as a non-negative Python int (bit 63 included)."""
    return int(word) & MASK64


def _cells(mask):
    mask = _mask(mask)
    return [cell for cell in range(CELLS) if mask >> cell & 1]


def _signed(mask):
    """A non-negative 64-bit mask as the int64 word value."""
    return mask - (1 << 64) if mask >> 63 else mask


def _cards_text(counts, unknown=0):
    if any(not 0 <= n <= NCOLOURS * CARDS_PER_COLOUR for n in list(counts) + [unknown]):
        return f"counts {'/'.join(map(str, counts))}" + (f" and {unknown} unknown" if unknown else "")
    return letters_text(counts, COLOUR_LETTERS) + UNKNOWN * unknown or NONE


def _cards_of_text(field, text, unknown_allowed):
    """(counts by colour, unknown cards) of a card string like ``AAW??``."""
    text = text_value(field, text)
    if text == NONE:
        return [0] * NCOLOURS, 0
    allowed = set(COLOUR_LETTERS) | ({UNKNOWN} if unknown_allowed else set())
    if not text or set(text) - allowed:
        extra = f", {UNKNOWN} for an unknown card" if unknown_allowed else ""
        raise PositionError(field, f"{shown(text)} is not a set of cards (letters"
                                   f" {' '.join(COLOUR_LETTERS)}{extra}, {NONE} for none)")
    counts = letter_counts(field, text, COLOUR_LETTERS, COLOUR_NAMES, CARDS_PER_COLOUR, "cards")
    return counts, text.count(UNKNOWN)


def _player(field, value, alternative=""):
    """A player number 1..2 (JSON int) as the index 0..1."""
    if type(value) is not int or not 1 <= value <= PLAYERS:
        raise PositionError(field, f"expected {alternative}a player, 1 or 2, got {shown(value)}")
    return value - 1


def _player_or_none(field, value):
    return NOBODY if value is None else _player(field, value, "null or ")


def _player_json(index):
    index = int(index)
    return None if index == NOBODY else index + 1


def _player_text(value):
    return NONE if value is None else str(value)


def _text_player(field, token):
    return None if token == NONE else text_number(field, token)


def _words(state, word, n=NCOLOURS):
    return [int(v) for v in state[word:word + n]]


def _pword(state, p, offset, n=1):
    start = player_word(p, offset)
    return [int(v) for v in state[start:start + n]] if n > 1 else int(state[start])


# ---- text form -----------------------------------------------------------------------

def parse_position(text):
    """The state array of a position in text form; raises PositionError."""
    tokens = position_tokens(text, GAME, "an Azure position")
    header, players = _text_sections(tokens)
    return position_from_json(_json_from_text(header, players))


def _text_sections(tokens):
    """The header's {key: value} and each player's, in seat order. ``layout`` takes 4
    tokens; every other key one."""
    header, players = {}, []
    section, prefix, keys = header, "", TEXT_HEADER_KEYS
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key == PLAYER_WORD:
            number = text_number(PLAYER_WORD, tokens[i + 1] if i + 1 < len(tokens) else "")
            if number != len(players) + 1:
                raise PositionError(f"player {number}", f"expected player {len(players) + 1}"
                                                        " next (players come in seat order)")
            if number > PLAYERS:
                raise PositionError(f"player {number}", "Azure has 2 players")
            section, prefix, keys = {}, f"player {number} ", PLAYER_KEYS
            players.append(section)
            i += 2
            continue
        if key not in keys:
            raise PositionError(prefix.strip() or "position", f"unknown key '{key}'")
        if key in section:
            raise PositionError(prefix + key, "given twice")
        width = PLACES if key == "layout" else 1
        values = tokens[i + 1:i + 1 + width]
        if len(values) < width or any(v in keys or v == PLAYER_WORD for v in values):
            raise PositionError(prefix + key, "missing value" if width == 1 else
                                f"expected {PLACES} places ({', '.join(PLACE_NAMES)})")
        section[key] = values if width > 1 else values[0]
        i += 1 + width
    return header, players


def _json_from_text(header, players):
    obj = {"game": GAME, **TURN_DEFAULTS, "track": None, **section_json(header, HEADER_READERS)}
    if obj.get("cosmos") and "track" not in header:
        raise PositionError("track", "missing (a Cosmos position places the Yellow Dragon)")
    if not obj.get("cosmos", True) and "track" in header:
        raise PositionError("track", "no cosmos track without the Cosmos expansion")
    obj["players"] = [section_json(section, PLAYER_READERS, f"player {n} ")
                      for n, section in enumerate(players, 1)]
    return obj


def _text_yes_no(field, token):
    if token not in YES_NO:
        raise PositionError(field, f"expected yes or no, got '{token}'")
    return token == "yes"


def _text_or_none(field, token):
    return None if token == NONE else token


def _text_list(field, token):
    """A ``,``-separated token (stones, beasts) as its list; ``-`` for none."""
    return [] if token == NONE else token.split(",")


def _text_track(field, token):
    if token == "0":
        return 0
    if token[:1] in "+-" and token[1:].isdigit() and token[1:] != "0":
        return int(token)
    raise PositionError(field, f"expected 0, +N (toward player 1) or -N (toward player 2),"
                               f" got '{token}'")


def _track_text(track):
    return f"{track:+d}" if track else "0"


def _layout_json_of_text(tokens):
    layout = {}
    for place, token in zip(PLACE_NAMES, tokens):
        match = LAYOUT_TOKEN.fullmatch(token)
        if not match:
            raise PositionError("layout", f"{place}: '{token}' is not a domain like A1@90"
                                          " (colour letter A W V B, side 1 or 2, @ and a"
                                          " clockwise rotation 0, 90, 180 or 270; * after a"
                                          " Cosmos large domain)")
        letter, side, rotation, large = match.groups()
        layout[place] = {"domain": COLOUR_NAMES[COLOUR_OF_LETTER[letter]], "side": int(side),
                         "rotation": int(rotation), "large": bool(large)}
    return layout


def layout_option(tokens, cosmos):
    """A checked realm ``Layout`` from four layout tokens (``tessera new azure --layout``)."""
    layout = layout_from_json(_layout_json_of_text(tokens), cosmos)
    try:
        check_layout(layout)
    except BoardDataError as err:
        raise board_data_error(err) from None
    except ValueError as err:
        raise PositionError("layout", str(err)) from None
    return layout


def _layout_text(layout):
    return " ".join(f"{COLOUR_LETTERS[COLOUR_NAMES.index(p['domain'])]}{p['side']}"
                    f"@{p['rotation']}{LARGE_MARK if p['large'] else ''}"
                    for p in (layout[name] for name in PLACE_NAMES))


HEADER_READERS = {
    "cosmos": _text_yes_no,
    "track": _text_track,
    **dict.fromkeys(("view", "winner", "bird_loser"), _text_player),
    **dict.fromkeys(("turn", "draws", "takes", "returns"), text_number),
    **dict.fromkeys(("placed", "step"), _text_or_none),
    "layout": lambda field, tokens: _layout_json_of_text(tokens),
    "faceup": lambda field, token: text_counts(field, token, COLOUR_NAMES, COLOUR_LETTERS),
}
PLAYER_READERS = {
    **dict.fromkeys(("score", "supply"), text_number),
    **dict.fromkeys(("stones", "beasts"), _text_list),
    "gifted": _text_or_none,
}


def format_position(state):
    """The canonical text: header, layout, turn, cards, then one line per player."""
    obj = position_to_json(state)
    header = f"{GAME} gifted {obj['gifted']} cosmos {YES_NO[obj['cosmos']]}"
    if obj["cosmos"]:
        header += f" track {_track_text(obj['track'])}"
    header += f" view {_player_text(obj['view'])}"
    turn = f"phase {obj['phase']} turn {obj['turn']}"
    for key, default in TURN_DEFAULTS.items():
        if obj[key] != default:
            turn += f" {key} {NONE if obj[key] is None else obj[key]}"
    lines = [
        header,
        "layout " + _layout_text(obj["layout"]),
        turn,
        "faceup " + counts_text(obj["faceup"], COLOUR_NAMES) + f" deck {obj['deck']}",
    ]
    for number, player in enumerate(obj["players"], 1):
        lines.append(
            f"player {number} score {player['score']} supply {player['supply']}"
            f" stones {','.join(player['stones']) or NONE} gifted {player['gifted'] or NONE}"
            f" beasts {','.join(player['beasts']) or NONE} hand {player['hand']}"
            f" known {player['known']}")
    return "\n".join(lines)


# ---- JSON form -----------------------------------------------------------------------

def position_from_json(obj):
    """The state array of a position in JSON form (a dict); raises PositionError."""
    obj = check_game(obj, GAME, JSON_KEYS)
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    _encode_realm(state, obj)
    view = _player_or_none("view", obj["view"])
    state[W_VIEW] = view
    phase = obj["phase"]
    choice("phase", phase, tuple(PHASES))
    state[W_PHASE], state[W_STEP] = PHASES[phase]
    step = obj["step"]
    if step is not None:
        if phase != "over":
            raise PositionError("step", f"only a game that ended mid-turn names the step it"
                                        f" stopped at, not phase {phase}")
        state[W_STEP] = OVER_STEPS[1:][choice("step", step, OVER_STEP_NAMES)]
    state[W_TURN] = _player("turn", obj["turn"])
    state[W_WINNER] = _player_or_none("winner", obj["winner"])
    state[W_DRAWS] = whole_number("draws", obj["draws"])
    state[W_TAKES] = whole_number("takes", obj["takes"])
    state[W_RETURNS] = whole_number("returns", obj["returns"])
    state[W_BIRD_LOSER] = _player_or_none("bird_loser", obj["bird_loser"])
    placed = obj["placed"]
    state[W_PLACED] = NOBODY if placed is None else cell_of_name("placed", placed)
    state[W_FACEUP:W_FACEUP + NCOLOURS] = json_counts("faceup", obj["faceup"], COLOUR_NAMES,
                                                      CARDS_PER_COLOUR, "cards")
    deck, unknown = _cards_of_text("deck", obj["deck"], unknown_allowed=view != NOBODY)
    if view != NOBODY:
        if any(deck):
            raise PositionError("deck", f"a view does not name the hidden deck's cards: write"
                                        f" one {UNKNOWN} per card")
        state[W_DECK:W_DECK + NCOLOURS] = HIDDEN
    else:
        state[W_DECK:W_DECK + NCOLOURS] = deck
    state[W_DECK_SIZE] = sum(deck) + unknown
    players = obj["players"]
    if not isinstance(players, list):
        raise PositionError("players", f"expected a list of 2 players, got {shown(players)}")
    if len(players) != PLAYERS:
        raise PositionError(f"player {min(len(players) + 1, PLAYERS + 1)}",
                            "missing" if len(players) < PLAYERS else "Azure has 2 players")
    holders = [NOBODY] * NCOLOURS
    for p, player in enumerate(players):
        _encode_player(state, p, player, view, holders)
    state[W_HOLDER:W_HOLDER + NCOLOURS] = holders
    black = _mask(state[S_MOUNTAIN + BLACK])
    state[W_BLACK_STONE] = next((p for p in range(PLAYERS)
                                 if _mask(state[player_word(p, P_STONES)]) >> black & 1), NOBODY)
    _derive_draw_for(state)
    validate(state)
    return state


def _encode_realm(state, obj):
    gifted = choice("gifted", obj["gifted"], GIFTED_NAMES)
    cosmos = obj["cosmos"]
    if type(cosmos) is not bool:
        raise PositionError("cosmos", f"expected true or false, got {shown(cosmos)}")
    layout = layout_from_json(obj["layout"], cosmos)
    state[S_SPACES:] = realm_words(layout, gifted)
    track = obj["track"]
    if not cosmos:
        if track is not None:
            raise PositionError("track", "no cosmos track without the Cosmos expansion")
        return
    if type(track) is not int or abs(track) > MAX_NUMBER:
        raise PositionError("track", f"expected the Yellow Dragon's steps from the middle (+"
                                     f" toward player 1), got {shown(track)}")
    state[W_DRAGON] = track


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
            raise PositionError(field, f"domain: expected {', '.join(COLOUR_NAMES)}; got"
                                       f" {shown(place['domain'])}")
        if place["side"] not in (1, 2) or type(place["side"]) is not int:
            raise PositionError(field, f"side: expected 1 or 2, got {shown(place['side'])}")
        if place["rotation"] not in ROTATIONS or type(place["rotation"]) is not int:
            raise PositionError(field, f"rotation: expected 0, 90, 180 or 270, got"
                                       f" {shown(place['rotation'])}")
        if type(place["large"]) is not bool:
            raise PositionError(field, "large: expected true or false, got"
                                       f" {shown(place['large'])}")
        places.append((COLOUR_NAMES.index(place["domain"]), place["side"],
                       place["rotation"] // 90))
        if place["large"]:
            large.append(p)
    if not cosmos:
        if large:
            raise PositionError("layout", "a large domain without the Cosmos expansion")
        return Layout(tuple(places))
    diagonals = {(0, 3): 0, (1, 2): 1}
    if tuple(large) not in diagonals:
        raise PositionError("layout", "with Cosmos the two large domains lie corner to corner"
                                      " (top-left and bottom-right, or top-right and"
                                      " bottom-left)")
    return Layout(tuple(places), cosmos=True, arrangement=diagonals[tuple(large)])


def _encode_player(state, p, obj, view, holders):
    prefix = f"player {p + 1} "
    obj = check_keys(obj, PLAYER_KEYS, prefix)
    state[player_word(p, P_SCORE)] = whole_number(prefix + "score", obj["score"])
    state[player_word(p, P_SUPPLY)] = whole_number(prefix + "supply", obj["supply"])
    stones = obj["stones"]
    if not isinstance(stones, list):
        raise PositionError(prefix + "stones", f"expected a list of cells, got {shown(stones)}")
    mask = 0
    for name in stones:
        cell = cell_of_name(prefix + "stones", name)
        if mask >> cell & 1:
            raise PositionError(prefix + "stones", f"{name} is listed twice")
        mask |= _bit(cell)
    gifted = obj["gifted"]
    if gifted is None:
        state[player_word(p, P_GIFTED)] = NOBODY
    else:
        cell = cell_of_name(prefix + "gifted", gifted)
        if mask >> cell & 1:
            raise PositionError(prefix + "gifted", f"{gifted} is also listed in the stones (list"
                                                   " the gifted stone under gifted only)")
        state[player_word(p, P_GIFTED)] = cell
        mask |= _bit(cell)
    state[player_word(p, P_STONES)] = _signed(mask)
    beasts = obj["beasts"]
    if not isinstance(beasts, list):
        raise PositionError(prefix + "beasts", f"expected a list of beasts, got {shown(beasts)}")
    for name in beasts:
        if not isinstance(name, str) or name not in BEAST_OF_NAME:
            raise PositionError(prefix + "beasts", f"{shown(name)} is not a beast (expected"
                                                   f" {', '.join(BEAST_NAMES)})")
        colour = BEAST_OF_NAME[name]
        if holders[colour] == p:
            raise PositionError(prefix + "beasts", f"the {name} is listed twice")
        if holders[colour] != NOBODY:
            raise PositionError(prefix + "beasts", f"the {name} is already with player"
                                                   f" {holders[colour] + 1}")
        holders[colour] = p
    hidden = view != NOBODY and view != p
    hand, unknown = _cards_of_text(prefix + "hand", obj["hand"], unknown_allowed=hidden)
    known, _ = _cards_of_text(prefix + "known", obj["known"], unknown_allowed=False)
    start = player_word(p, P_HAND)
    state[start:start + NCOLOURS] = hand
    state[player_word(p, P_HAND_SIZE)] = sum(hand) + unknown
    start = player_word(p, P_KNOWN)
    state[start:start + NCOLOURS] = known


def _derive_draw_for(state):
    """Who receives the draws: in setup the player drawing a starting hand, else the
    Bird's holder (the last player it went to); with the Bird unclaimed, the last to
    draw a starting hand (player 2). The engine keeps the word between draws."""
    phase = phase_name(state)
    bird = int(state[W_HOLDER + VERMILLION])
    if phase == "setup":
        state[W_DRAW_FOR] = 0 if _pword(state, 0, P_HAND_SIZE) < HAND_START[0] else 1
    else:
        state[W_DRAW_FOR] = 1 if bird == NOBODY else bird


def position_to_json(state):
    """The JSON form of a position, as a dict ready for ``json.dumps``."""
    layout = layout_of(state)
    large = layout.large_places()
    view = int(state[W_VIEW])
    cosmos = bool(state[S_COSMOS])
    placed = int(state[W_PLACED])
    phase = phase_name(state) or "?"
    step = int(state[W_STEP])
    if view == NOBODY:
        deck = _cards_text(_words(state, W_DECK))
    else:
        deck = _cards_text([0] * NCOLOURS, int(state[W_DECK_SIZE]))
    return {
        "game": GAME,
        "gifted": GIFTED_NAMES[int(state[S_GIFTED])],
        "cosmos": cosmos,
        "track": int(state[W_DRAGON]) if cosmos else None,
        "view": _player_json(view),
        "layout": {name: {"domain": COLOUR_NAMES[colour], "side": side, "rotation": 90 * turns,
                          "large": p in large}
                   for p, (name, (colour, side, turns)) in enumerate(zip(PLACE_NAMES,
                                                                         layout.places))},
        "phase": phase,
        "turn": int(state[W_TURN]) + 1,
        "winner": _player_json(state[W_WINNER]),
        "step": STEP_NAMES[step] if phase == "over" and step != STEP_END else None,
        "draws": int(state[W_DRAWS]),
        "placed": None if placed == NOBODY else cell_name(placed),
        "takes": int(state[W_TAKES]),
        "returns": int(state[W_RETURNS]),
        "bird_loser": _player_json(state[W_BIRD_LOSER]),
        "faceup": dict(zip(COLOUR_NAMES, _words(state, W_FACEUP))),
        "deck": deck,
        "players": [_player_to_json(state, p, view) for p in range(PLAYERS)],
    }


def _player_to_json(state, p, view):
    stones = _mask(state[player_word(p, P_STONES)])
    gifted = _pword(state, p, P_GIFTED)
    if gifted != NOBODY:
        stones &= ~_bit(gifted)
    hand = _pword(state, p, P_HAND, NCOLOURS)
    unknown = _pword(state, p, P_HAND_SIZE) - sum(hand) if view not in (NOBODY, p) else 0
    return {
        "score": _pword(state, p, P_SCORE),
        "supply": _pword(state, p, P_SUPPLY),
        "stones": [cell_name(cell) for cell in _cells(stones)],
        "gifted": None if gifted == NOBODY else cell_name(gifted),
        "beasts": [BEAST_NAMES[c] for c in range(NCOLOURS) if int(state[W_HOLDER + c]) == p],
        "hand": _cards_text(hand, unknown),
        "known": _cards_text(_pword(state, p, P_KNOWN, NCOLOURS)),
    }


# ---- validation ----------------------------------------------------------------------

def validate(state):
    """Raise PositionError unless ``state`` is a position the rules can reach.

    The checks, in order, are listed in docs/azure-notation.md ("Validation").
    """
    check_array(state, STATE_SIZE, GAME_ID, "Azure")
    _check_realm(state)
    _check_header(state)
    _check_turn_words(state)
    _check_stones(state)
    _check_beasts(state)
    _check_cards(state)
    _check_scores(state)
    _PHASE_CHECKS[int(state[W_PHASE])](state)


def _check_realm(state):
    if not 0 <= state[S_GIFTED] < len(GIFTED_NAMES):
        raise PositionError("gifted", f"unknown gifted card {state[S_GIFTED]}")
    if state[S_COSMOS] not in (0, 1):
        raise PositionError("cosmos", f"the Cosmos word is {state[S_COSMOS]}, not 0 or 1")
    if state[S_ARRANGEMENT] not in (0, 1):
        raise PositionError("layout", f"the arrangement word is {state[S_ARRANGEMENT]}, not 0 or 1")
    expected = realm_words(layout_of(state), int(state[S_GIFTED]))
    if not np.array_equal(expected, state[S_SPACES:]):
        raise PositionError("layout", "the realm words do not match the layout (they are"
                                      " built from the board data)")


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


def _check_header(state):
    if phase_name(state) is None:
        raise PositionError("phase", f"phase word {state[W_PHASE]} with step word"
                                     f" {state[W_STEP]} is no phase of the rules")
    for field, word in (("turn", W_TURN),):
        if state[word] not in (0, 1):
            raise PositionError(field, f"no player {state[word] + 1} in Azure")
    for field, word in (("view", W_VIEW), ("winner", W_WINNER), ("bird_loser", W_BIRD_LOSER)):
        if state[word] not in (NOBODY, 0, 1):
            raise PositionError(field, f"no player {state[word] + 1} in Azure")
    over = state[W_PHASE] == PHASE_OVER
    if over != (state[W_WINNER] != NOBODY):
        raise PositionError("winner", "a winner is named exactly when the game is over")


def _check_turn_words(state):
    """The words of a turn in progress: each is set exactly in the phases that use it."""
    phase = phase_name(state)
    draws, takes, returns = int(state[W_DRAWS]), int(state[W_TAKES]), int(state[W_RETURNS])
    for field, value, top in (("draws", draws, max(HAND_START)), ("takes", takes, CELLS),
                              ("returns", returns, CELLS)):
        if not 0 <= value <= top:
            raise PositionError(field, f"{value} is not 0..{top}")
    if phase == "setup":
        size0, size1 = _pword(state, 0, P_HAND_SIZE), _pword(state, 1, P_HAND_SIZE)
        want = HAND_START[0] - size0 if size0 < HAND_START[0] else HAND_START[1] - size1
        if draws != want:
            raise PositionError("draws", f"the starting hands hold {size0} and {size1} cards,"
                                         f" so {want} draws are left, not {draws}")
    elif phase == "bird-draw":
        if draws not in (1, 2):
            raise PositionError("draws", f"the Bird's taker draws 1 or 2 more cards, not {draws}")
    elif draws:
        raise PositionError("draws", f"draws are pending only in phases setup and bird-draw,"
                                     f" not {phase}")
    if phase == "take" and takes < 1:
        raise PositionError("takes", "phase take needs a card to take (takes 1 or more)")
    if phase not in ("boon", "take", "over") and takes:
        raise PositionError("takes", f"cards of choice are taken only in phase take (pending in"
                                     f" boon), not {phase}")
    if phase == "return" and returns < 1:
        raise PositionError("returns", "phase return needs a card to return (returns 1 or more)")
    if phase not in ("boon", "take", "return", "over") and returns:
        raise PositionError("returns", f"cards of choice are returned only in phase return"
                                       f" (pending in boon and take), not {phase}")
    limit = bin(int(state[S_THRESHOLDS])).count("1")
    for field, value in (("takes", takes), ("returns", returns)):
        if value > limit:
            raise PositionError(field, f"{value} is more than the {limit} thresholds a turn can"
                                       " cross")
    loser = int(state[W_BIRD_LOSER])
    if phase == "bird-return" and loser == NOBODY:
        raise PositionError("bird_loser", "phase bird-return needs the player who lost the Bird")
    if phase not in ("bird-draw", "bird-return") and loser != NOBODY:
        raise PositionError("bird_loser", f"the Bird's loser is pending only in phases bird-draw"
                                          f" and bird-return, not {phase}")
    placed = int(state[W_PLACED])
    if phase in MID_TURN and placed == NOBODY:
        raise PositionError("placed", f"phase {phase} comes after a placement: name the cell of"
                                      " the stone just placed")
    if phase in ("setup", "place") and placed != NOBODY:
        raise PositionError("placed", f"no stone has been placed this turn in phase {phase}")
    if placed != NOBODY:
        if not 0 <= placed < CELLS:
            raise PositionError("placed", f"cell {placed} is off the realm")
        if not _mask(state[player_word(int(state[W_TURN]), P_STONES)]) >> placed & 1:
            raise PositionError("placed", f"{cell_name(placed)} holds no stone of player"
                                          f" {state[W_TURN] + 1}, whose turn it is")
    expected = state.copy()
    _derive_draw_for(expected)
    if state[W_DRAW_FOR] != expected[W_DRAW_FOR]:
        raise PositionError("draws", f"the draw word names player {state[W_DRAW_FOR] + 1}, not"
                                     f" player {expected[W_DRAW_FOR] + 1}")


def _check_stones(state):
    spaces = _mask(state[S_SPACES])
    black = int(state[S_MOUNTAIN + BLACK])
    owner = int(state[W_BLACK_STONE])
    if owner not in (NOBODY, 0, 1):
        raise PositionError("stones", f"no player {owner + 1} in Azure")
    total = STONES + (COSMOS_STONES if state[S_COSMOS] else 0)
    seen = 0
    for p in range(PLAYERS):
        field = f"player {p + 1} stones"
        stones = _mask(state[player_word(p, P_STONES)])
        on_black = stones >> black & 1
        off = stones & ~spaces & ~_bit(black)
        if off:
            cell = _cells(off)[0]
            what = "a mountain" if cell_field(int(state[S_CELL + cell]), CELL_KIND) == \
                KIND_MOUNTAIN else "outside the realm"
            raise PositionError(field, f"a stone on {cell_name(cell)}, {what} (stones go on"
                                       " spaces, and one on the Black mountain)")
        if on_black != (owner == p):
            raise PositionError(field, f"the Black mountain ({cell_name(black)}) holds"
                                       f" {'this' if on_black else 'no'} stone but the word"
                                       " says otherwise")
        if seen & stones:
            raise PositionError(field, f"{cell_name(_cells(seen & stones)[0])} holds a stone of"
                                       " both players")
        seen |= stones
        gifted = _pword(state, p, P_GIFTED)
        gfield = f"player {p + 1} gifted"
        if gifted != NOBODY:
            if state[S_GIFTED] == GIFTED_NONE:
                raise PositionError(gfield, "a gifted stone without the Gifted module")
            if not 0 <= gifted < CELLS or not spaces >> gifted & 1:
                where = cell_name(gifted) if 0 <= gifted < CELLS else str(gifted)
                raise PositionError(gfield, f"{where} is not a space (the gifted stone goes on a"
                                            " space, never on the Black mountain)")
            if not stones >> gifted & 1:
                raise PositionError(gfield, f"{cell_name(gifted)} is not among the stones")
        supply = _pword(state, p, P_SUPPLY)
        common = bin(stones).count("1") - (gifted != NOBODY)
        if supply < 0 or supply + common != total:
            raise PositionError(f"player {p + 1} supply", f"{common} common stones on the realm"
                                                          f" and {supply} in supply, not the"
                                                          f" {total} each player has")


def _guards(state, colour, p):
    """(guards of ``colour``'s mountain for player p, whether p's gifted stone is one)."""
    if colour in (AZURE, WHITE):
        mask = _mask(state[S_SIGHT + int(state[S_MOUNTAIN + colour])])
    elif colour == BLACK:
        mask = _mask(state[S_SERPENTS])
    else:
        mask = _mask(state[S_DOMAIN + VERMILLION])
    stones = _mask(state[player_word(p, P_STONES)]) & mask
    gifted = _pword(state, p, P_GIFTED)
    return bin(stones).count("1"), gifted != NOBODY and bool(stones >> gifted & 1)


def _wins_from(state, colour, challenger, holder):
    """Whether ``challenger`` takes ``colour``'s beast from ``holder`` (NOBODY: unclaimed)."""
    favored = state[S_GIFTED] == FAVORED
    g, gifted = _guards(state, colour, challenger)
    h, h_gifted = _guards(state, colour, 1 - challenger)
    if holder == NOBODY and g < FIRST_GUARDS:
        return False
    return g > h or (favored and g == h and gifted and not h_gifted)


def _check_beasts(state):
    for c in range(NCOLOURS):
        if state[W_HOLDER + c] not in (NOBODY, 0, 1):
            raise PositionError("beasts", f"the {BEAST_NAMES[c]}'s holder word is"
                                          f" {state[W_HOLDER + c]}")
    tortoise = int(state[W_HOLDER + BLACK])
    owner = int(state[W_BLACK_STONE])
    if owner != NOBODY and owner != tortoise:
        raise PositionError("beasts", f"player {owner + 1} has a stone on the Black mountain"
                                      " but not the tortoise")
    if tortoise != NOBODY and owner == NOBODY and _pword(state, tortoise, P_SUPPLY) > 0:
        raise PositionError("beasts", f"player {tortoise + 1} holds the tortoise with stones in"
                                      " supply but none on the Black mountain")
    phase = phase_name(state)
    if phase not in ("setup", "place", "bird-draw", "bird-return"):
        return      # the beasts are checked later in the turn (or the game ended first)
    for colour in BEAST_ORDER:
        holder = int(state[W_HOLDER + colour])
        for challenger in range(PLAYERS):
            if challenger != holder and _wins_from(state, colour, challenger, holder):
                g, _ = _guards(state, colour, challenger)
                h, _ = _guards(state, colour, 1 - challenger)
                now = "is unclaimed" if holder == NOBODY else f"is with player {holder + 1}"
                raise PositionError("beasts", f"the {BEAST_NAMES[colour]} {now} but player"
                                              f" {challenger + 1} guards its mountain with {g}"
                                              f" stones to {h}, so would hold it")


def _check_cards(state):
    view = int(state[W_VIEW])
    faceup = _words(state, W_FACEUP)
    if any(not 0 <= n <= CARDS_PER_COLOUR for n in faceup):
        raise PositionError("faceup", f"face-up counts {faceup} are not 0..{CARDS_PER_COLOUR}")
    deck = _words(state, W_DECK)
    size = int(state[W_DECK_SIZE])
    if view == NOBODY:
        if any(not 0 <= n <= DECK_PER_COLOUR for n in deck):
            raise PositionError("deck", f"the hidden deck holds {_cards_text(deck)}: at most"
                                        f" {DECK_PER_COLOUR} of a colour (it is built with 3 of"
                                        " each)")
        if size != sum(deck):
            raise PositionError("deck", f"deck size word {size}, but it holds {sum(deck)} cards")
    else:
        if any(n != HIDDEN for n in deck):
            raise PositionError("deck", "a view does not name the hidden deck's cards")
        if not 0 <= size <= NCOLOURS * DECK_PER_COLOUR:
            raise PositionError("deck", f"{size} cards in the hidden deck (at most"
                                        f" {NCOLOURS * DECK_PER_COLOUR})")
    for p in range(PLAYERS):
        field = f"player {p + 1} hand"
        hand = _pword(state, p, P_HAND, NCOLOURS)
        known = _pword(state, p, P_KNOWN, NCOLOURS)
        hand_size = _pword(state, p, P_HAND_SIZE)
        if any(n < 0 for n in hand) or any(n < 0 for n in known):
            raise PositionError(field, "a negative card count")
        if any(k > h for k, h in zip(known, hand)):
            raise PositionError(f"player {p + 1} known", f"known cards {_cards_text(known)} are"
                                                          f" not all in the hand"
                                                          f" {_cards_text(hand)}")
        if view in (NOBODY, p):
            if hand_size != sum(hand):
                raise PositionError(field, f"hand size word {hand_size}, but the hand holds"
                                           f" {sum(hand)} cards")
        else:
            if hand != known:
                raise PositionError(field, f"in player {view + 1}'s view the opponent's hand"
                                           " names exactly their known cards")
            if hand_size < sum(hand):
                raise PositionError(field, f"{hand_size} cards, fewer than the"
                                           f" {sum(hand)} known")
    if view == NOBODY:
        _check_complete_cards(state, faceup, deck)
    else:
        _check_view_cards(state, view, faceup, size)


def _check_complete_cards(state, faceup, deck):
    hands = [_pword(state, p, P_HAND, NCOLOURS) for p in range(PLAYERS)]
    totals = [f + d + sum(h[c] for h in hands) for c, (f, d) in enumerate(zip(faceup, deck))]
    wrong = [f"{n} {name}" for name, n in zip(COLOUR_NAMES, totals) if n != CARDS_PER_COLOUR]
    if wrong:
        raise PositionError("cards", f"each colour has {CARDS_PER_COLOUR} cards in all, but"
                                     f" there are {', '.join(wrong)}")
    knowns = [_pword(state, p, P_KNOWN, NCOLOURS) for p in range(PLAYERS)]
    for c in range(NCOLOURS):
        unseen = deck[c] + sum(hands[p][c] - knowns[p][c] for p in range(PLAYERS))
        if unseen > DECK_PER_COLOUR:
            raise PositionError("cards", _unseen_message(c, unseen))


def _unseen_message(c, unseen):
    return (f"{unseen} {COLOUR_NAMES[c]} cards are in the hidden deck or drawn from it"
            f" unseen, at most {DECK_PER_COLOUR} (the deck is built with 3 of a colour and"
            " every card becomes known when it runs out)")


def _check_view_cards(state, view, faceup, deck_size):
    own = _pword(state, view, P_HAND, NCOLOURS)
    own_known = _pword(state, view, P_KNOWN, NCOLOURS)
    other = 1 - view
    other_known = _pword(state, other, P_KNOWN, NCOLOURS)
    unknown = _pword(state, other, P_HAND_SIZE) - sum(other_known)
    rest = [CARDS_PER_COLOUR - f - o - k for f, o, k in zip(faceup, own, other_known)]
    for c, n in enumerate(rest):
        if n < 0:
            raise PositionError("cards", f"{CARDS_PER_COLOUR - n} {COLOUR_NAMES[c]} cards are"
                                         f" seen (face up, in hand, known), but"
                                         f" {CARDS_PER_COLOUR} exist")
    if sum(rest) != unknown + deck_size:
        raise PositionError("cards", f"{sum(rest)} cards are not seen by player {view + 1},"
                                     f" but player {other + 1}'s {unknown} unknown cards and"
                                     f" the deck's {deck_size} make {unknown + deck_size}")
    for c in range(NCOLOURS):
        unseen = rest[c] + own[c] - own_known[c]
        if unseen > DECK_PER_COLOUR:
            raise PositionError("cards", _unseen_message(c, unseen))


def _check_scores(state):
    over = state[W_PHASE] == PHASE_OVER
    for p in range(PLAYERS):
        score = _pword(state, p, P_SCORE)
        if not 0 <= score <= WIN_SCORE:
            raise PositionError(f"player {p + 1} score", f"{score} is not 0..{WIN_SCORE}")
        if score == WIN_SCORE and not over:
            raise PositionError(f"player {p + 1} score", f"{WIN_SCORE} points win at once, but"
                                                         " the game is not over")
    track, end = int(state[W_DRAGON]), int(state[S_TRACK_END])
    if not -end <= track <= end:
        raise PositionError("track", f"the Yellow Dragon is {abs(track)} steps from the middle;"
                                     f" the track ends {end} steps out")
    if end and abs(track) == end and not over:
        raise PositionError("track", "the Yellow Dragon is at the end of the track, but the"
                                     " game is not over")


def _check_setup(state):
    if state[W_TURN] != 0:
        raise PositionError("turn", "player 1 starts, so the setup is in player 1's turn")
    for p in range(PLAYERS):
        if state[player_word(p, P_STONES)] or _pword(state, p, P_SCORE):
            raise PositionError(f"player {p + 1} stones", "stones or points before the starting"
                                                          " hands are drawn")
        if any(_pword(state, p, P_KNOWN, NCOLOURS)):
            raise PositionError(f"player {p + 1} known", "starting cards come from the hidden"
                                                         " deck and are not known")
    if any(int(state[W_HOLDER + c]) != NOBODY for c in range(NCOLOURS)) or state[W_DRAGON]:
        raise PositionError("beasts", "beasts held or the Yellow Dragon moved in setup")
    if _words(state, W_FACEUP) != [CARDS_PER_COLOUR - DECK_PER_COLOUR] * NCOLOURS:
        raise PositionError("faceup", "the face-up decks are untouched in setup")
    sizes = [_pword(state, p, P_HAND_SIZE) for p in range(PLAYERS)]
    if sizes[0] > HAND_START[0] or sizes[1] >= HAND_START[1] or \
            (sizes[1] and sizes[0] < HAND_START[0]):
        raise PositionError("player 1 hand", f"starting hands of {sizes[0]} and {sizes[1]}"
                                             f" cards (player 1 draws {HAND_START[0]}, then"
                                             f" player 2 {HAND_START[1]})")


def _check_place(state):
    """The player to move can place a stone: one who cannot loses at once when their turn
    starts (``tessera.kernels.azure.apply.start_turn``), so their turn never waits for a placement.
    In a view with the mover's hand hidden, only a hand no deal of the unseen cards could
    give them is rejected (docs/azure-notation.md, "Validation")."""
    turn = int(state[W_TURN])
    view = int(state[W_VIEW])
    base = player_word(turn, 0)
    common = state[base + P_SUPPLY] > 0
    gifted = state[S_GIFTED] != GIFTED_NONE and state[base + P_GIFTED] == NOBODY
    if not (common or gifted):
        why = "has none left"
    else:
        hand = _pword(state, turn, P_HAND, NCOLOURS)
        probe = state
        cards = f"the hand {_cards_text(hand)}" if any(hand) else "no cards"
        unknown = _pword(state, turn, P_HAND_SIZE) - sum(hand)
        if view not in (NOBODY, turn) and unknown:
            # The most cards of each colour the hidden hand can hold: a space is paid in
            # one colour, so the mover can place in some deal iff they can with this.
            probe = state.copy()
            own = _pword(state, view, P_HAND, NCOLOURS)
            for c, (up, mine) in enumerate(zip(_words(state, W_FACEUP), own)):
                unseen = CARDS_PER_COLOUR - up - mine - hand[c]
                probe[base + P_HAND + c] = hand[c] + min(unknown, unseen)
            known = f"the known cards {_cards_text(hand)} and " if any(hand) else ""
            cards = f"{known}any {unknown} unknown card{'s' if unknown > 1 else ''}"
        if can_place(probe, turn):
            return
        why = f"can afford no empty space with {cards}"
    raise PositionError("turn", f"player {turn + 1} is to place a stone but {why}; a player who"
                                " cannot place at the start of their turn loses at once, so the"
                                f" game is already over, won by player {2 - turn} (phase over"
                                f" winner {2 - turn})")


def _check_boon(state):
    turn = int(state[W_TURN])
    if state[S_GIFTED] != BOUNTIFUL:
        raise PositionError("phase", "phase boon comes only with the Bountiful gifted card")
    gifted = _pword(state, turn, P_GIFTED)
    placed = int(state[W_PLACED])
    if gifted == NOBODY or placed == gifted:
        raise PositionError("placed", f"player {turn + 1}'s gifted stone is not on the realm"
                                      " beside the common stone just placed")
    (pr, pc), (gr, gc) = divmod(placed, GRID), divmod(gifted, GRID)
    if max(abs(pr - gr), abs(pc - gc)) != 1:
        raise PositionError("placed", f"{cell_name(placed)} is not next to player {turn + 1}'s"
                                      f" gifted stone on {cell_name(gifted)}")
    packed = int(state[S_CELL + placed])
    kinds = sum(cell_field(packed, shift) > 0 for shift in (CELL_QI, CELL_WISDOM, CELL_COSMOS))
    if kinds < 2:
        raise PositionError("phase", f"{cell_name(placed)} shows one kind of symbol, so"
                                     " Bountiful's extra boon needs no choice")


def _check_take(state):
    if not state[S_COSMOS]:
        raise PositionError("phase", "phase take comes only with the Cosmos expansion")
    if sum(1 for n in _words(state, W_FACEUP) if n) < 2:
        raise PositionError("faceup", "fewer than two face-up decks have cards, so the card is"
                                      " taken without a choice")


def _check_return(state):
    if not state[S_COSMOS]:
        raise PositionError("phase", "phase return comes only with the Cosmos expansion")
    _check_return_choice(state, 1 - int(state[W_TURN]), 1, "a card")


def _check_return_choice(state, player, cards, what):
    """The returning player must have a real choice, where the position shows the hand."""
    view = int(state[W_VIEW])
    if view not in (NOBODY, player):
        return
    hand = _pword(state, player, P_HAND, NCOLOURS)
    if sum(hand) <= cards or sum(1 for n in hand if n) < 2:
        raise PositionError(f"player {player + 1} hand",
                            f"returning {what} from {_cards_text(hand)} is no choice (it is"
                            " made without a move)")


def _check_bird_draw(state):
    holder = int(state[W_HOLDER + VERMILLION])
    if holder == NOBODY:
        raise PositionError("beasts", "phase bird-draw, but nobody holds the bird")
    loser = int(state[W_BIRD_LOSER])
    if loser == holder:
        raise PositionError("bird_loser", f"player {holder + 1} holds the bird, so did not"
                                          " lose it")
    if state[W_DECK_SIZE] < 1:
        raise PositionError("deck", "the hidden deck is empty, so there is nothing to draw")


def _check_bird_return(state):
    loser = int(state[W_BIRD_LOSER])
    if int(state[W_HOLDER + VERMILLION]) != 1 - loser:
        raise PositionError("bird_loser", f"player {loser + 1} lost the bird, so player"
                                          f" {2 - loser} holds it")
    _check_return_choice(state, loser, 2, "two cards")


def _check_draw(state):
    if state[W_STEP] == STEP_SETUP:
        _check_setup(state)         # the deck then holds cards: 9 of each colour are face up
    else:
        _check_bird_draw(state)


def _check_over(state):
    winner = int(state[W_WINNER])
    loser = 1 - winner
    end = int(state[S_TRACK_END])
    toward = int(state[W_DRAGON]) * (1 if winner == 0 else -1)
    if _pword(state, loser, P_SCORE) == WIN_SCORE or (end and toward == -end):
        raise PositionError("winner", f"player {loser + 1} reached the end first, so won")
    reached = _pword(state, winner, P_SCORE) == WIN_SCORE or (end and toward == end)
    if not reached and state[W_TURN] != loser:
        raise PositionError("winner", f"player {winner + 1} has not reached the end, and player"
                                      f" {loser + 1} did not fail to place (it is not their"
                                      " turn)")


_PHASE_CHECKS = {
    PHASE_DRAW: _check_draw,
    PHASE_PLACE: _check_place,
    PHASE_BOON: _check_boon,
    PHASE_TAKE: _check_take,
    PHASE_RETURN: _check_return,
    PHASE_RETURN_PAIR: _check_bird_return,
    PHASE_OVER: _check_over,
}


# ---- moves ---------------------------------------------------------------------------

MOVE_FORMS = ("'place c4', 'gifted c4', 'boon wisdom', 'take azure', 'return white',"
              " 'return azure+black' or 'draw vermillion'")


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
        return TAKE_BASE + _move_colour(text, word)
    if verb == "draw":
        return DRAW_BASE + _move_colour(text, word)
    if verb == "return":
        parts = word.split("+")
        if len(parts) == 1:
            return RETURN_BASE + _move_colour(text, word)
        if len(parts) == 2:
            first, second = sorted(_move_colour(text, part) for part in parts)
            return PAIR_BASE + NCOLOURS * first + second
        raise MoveError(text, "return one colour or two joined by '+' ('return azure+black')")
    raise MoveError(text, f"expected {MOVE_FORMS}")


def _move_colour(text, word):
    return move_colour(text, word, COLOUR_NAMES, COLOUR_LETTERS)


def _why_illegal(state):
    phase = phase_name(state)
    turn = int(state[W_TURN]) + 1
    if phase == "over":
        return "the game is over"
    if phase in ("setup", "bird-draw"):
        return f"not a possible draw (phase {phase}: 'draw <colour>' for a colour in the deck)"
    actor = {"return": 3 - turn, "bird-return": int(state[W_BIRD_LOSER]) + 1}.get(phase, turn)
    kind = {"place": "'place <cell>' or 'gifted <cell>' on an affordable empty space",
            "boon": "'boon <qi|wisdom|cosmos>' for a symbol the space shows",
            "take": "'take <colour>' from a face-up deck with cards",
            "return": "'return <colour>' of a card in hand",
            "bird-return": "'return <colour>+<colour>' of two cards in hand"}[phase]
    return f"not legal for player {actor} in phase {phase} ({kind})"
