"""Azure positions in JSON form: the one builder of a state array (text is read into this
form first), and the JSON a state formats to."""

import numpy as np

from tessera.errors import PositionError
from tessera.kernels.azure.layout import (
    BEAST_NAMES,
    BLACK,
    CARDS_PER_COLOUR,
    COLOUR_NAMES,
    GAME_ID,
    GIFTED_NAMES,
    HIDDEN,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    P_SCORE,
    P_STONES,
    P_SUPPLY,
    PLACE_NAMES,
    PLAYERS,
    S_COSMOS,
    S_GIFTED,
    S_MOUNTAIN,
    S_SPACES,
    STATE_SIZE,
    STEP_END,
    W_BIRD_LOSER,
    W_BLACK_STONE,
    W_DECK,
    W_DECK_SIZE,
    W_DRAGON,
    W_DRAWS,
    W_FACEUP,
    W_GAME,
    W_HOLDER,
    W_PHASE,
    W_PLACED,
    W_RETURNS,
    W_STEP,
    W_TAKES,
    W_TURN,
    W_VIEW,
    W_WINNER,
    player_word,
)
from tessera.kernels.azure.realm import layout_of
from tessera.notation.azure.realm import layout_from_json, realm_words
from tessera.notation.azure.validation import derive_draw_for, validate
from tessera.notation.azure.words import (
    BEAST_OF_NAME,
    GAME,
    OVER_STEP_NAMES,
    OVER_STEPS,
    PHASES,
    STEP_NAMES,
    UNKNOWN,
    cards_of_text,
    cards_text,
    cell_bit,
    cell_name,
    cell_of_name,
    cells_of,
    phase_name,
    player_index,
    player_json,
    player_or_none,
    player_words,
    realm_mask,
    signed_word,
    words_at,
)
from tessera.notation.fields import MAX_NUMBER, check_game, check_keys, choice, json_counts, shown, whole_number

# JSON keys. Turn keys (the ``TURN_DEFAULTS``) are left out of the text when they hold
# their default; the rest are always written.
JSON_KEYS = (
    "game",
    "gifted",
    "cosmos",
    "track",
    "view",
    "layout",
    "phase",
    "turn",
    "winner",
    "step",
    "draws",
    "placed",
    "takes",
    "returns",
    "bird_loser",
    "faceup",
    "deck",
    "players",
)
TURN_DEFAULTS = {"winner": None, "step": None, "draws": 0, "placed": None, "takes": 0, "returns": 0, "bird_loser": None}
PLAYER_KEYS = ("score", "supply", "stones", "gifted", "beasts", "hand", "known")


def position_from_json(obj):
    """The state array of a position in JSON form (a dict); raises PositionError."""
    obj = check_game(obj, GAME, JSON_KEYS)
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    _encode_realm(state, obj)
    view = player_or_none("view", obj["view"])
    state[W_VIEW] = view
    phase = obj["phase"]
    choice("phase", phase, tuple(PHASES))
    state[W_PHASE], state[W_STEP] = PHASES[phase]
    step = obj["step"]
    if step is not None:
        if phase != "over":
            raise PositionError(
                "step", f"only a game that ended mid-turn names the step it stopped at, not phase {phase}"
            )
        state[W_STEP] = OVER_STEPS[1:][choice("step", step, OVER_STEP_NAMES)]
    state[W_TURN] = player_index("turn", obj["turn"])
    state[W_WINNER] = player_or_none("winner", obj["winner"])
    state[W_DRAWS] = whole_number("draws", obj["draws"])
    state[W_TAKES] = whole_number("takes", obj["takes"])
    state[W_RETURNS] = whole_number("returns", obj["returns"])
    state[W_BIRD_LOSER] = player_or_none("bird_loser", obj["bird_loser"])
    placed = obj["placed"]
    state[W_PLACED] = NOBODY if placed is None else cell_of_name("placed", placed)
    state[W_FACEUP : W_FACEUP + NCOLOURS] = json_counts(
        "faceup", obj["faceup"], COLOUR_NAMES, CARDS_PER_COLOUR, "cards"
    )
    deck, unknown = cards_of_text("deck", obj["deck"], unknown_allowed=view != NOBODY)
    if view != NOBODY:
        if any(deck):
            raise PositionError("deck", f"a view does not name the hidden deck's cards: write one {UNKNOWN} per card")
        state[W_DECK : W_DECK + NCOLOURS] = HIDDEN
    else:
        state[W_DECK : W_DECK + NCOLOURS] = deck
    state[W_DECK_SIZE] = sum(deck) + unknown
    players = obj["players"]
    if not isinstance(players, list):
        raise PositionError("players", f"expected a list of 2 players, got {shown(players)}")
    if len(players) != PLAYERS:
        raise PositionError(
            f"player {min(len(players) + 1, PLAYERS + 1)}",
            "missing" if len(players) < PLAYERS else "Azure has 2 players",
        )
    holders = [NOBODY] * NCOLOURS
    for p, player in enumerate(players):
        _encode_player(state, p, player, view, holders)
    state[W_HOLDER : W_HOLDER + NCOLOURS] = holders
    black = realm_mask(state[S_MOUNTAIN + BLACK])
    state[W_BLACK_STONE] = next(
        (p for p in range(PLAYERS) if realm_mask(state[player_word(p, P_STONES)]) >> black & 1), NOBODY
    )
    derive_draw_for(state)
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
        raise PositionError(
            "track", f"expected the Yellow Dragon's steps from the middle (+ toward player 1), got {shown(track)}"
        )
    state[W_DRAGON] = track


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
        mask |= cell_bit(cell)
    gifted = obj["gifted"]
    if gifted is None:
        state[player_word(p, P_GIFTED)] = NOBODY
    else:
        cell = cell_of_name(prefix + "gifted", gifted)
        if mask >> cell & 1:
            raise PositionError(
                prefix + "gifted", f"{gifted} is also listed in the stones (list the gifted stone under gifted only)"
            )
        state[player_word(p, P_GIFTED)] = cell
        mask |= cell_bit(cell)
    state[player_word(p, P_STONES)] = signed_word(mask)
    beasts = obj["beasts"]
    if not isinstance(beasts, list):
        raise PositionError(prefix + "beasts", f"expected a list of beasts, got {shown(beasts)}")
    for name in beasts:
        if not isinstance(name, str) or name not in BEAST_OF_NAME:
            raise PositionError(prefix + "beasts", f"{shown(name)} is not a beast (expected {', '.join(BEAST_NAMES)})")
        colour = BEAST_OF_NAME[name]
        if holders[colour] == p:
            raise PositionError(prefix + "beasts", f"the {name} is listed twice")
        if holders[colour] != NOBODY:
            raise PositionError(prefix + "beasts", f"the {name} is already with player {holders[colour] + 1}")
        holders[colour] = p
    hidden = view != NOBODY and view != p
    hand, unknown = cards_of_text(prefix + "hand", obj["hand"], unknown_allowed=hidden)
    known, _ = cards_of_text(prefix + "known", obj["known"], unknown_allowed=False)
    start = player_word(p, P_HAND)
    state[start : start + NCOLOURS] = hand
    state[player_word(p, P_HAND_SIZE)] = sum(hand) + unknown
    start = player_word(p, P_KNOWN)
    state[start : start + NCOLOURS] = known


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
        deck = cards_text(words_at(state, W_DECK))
    else:
        deck = cards_text([0] * NCOLOURS, int(state[W_DECK_SIZE]))
    return {
        "game": GAME,
        "gifted": GIFTED_NAMES[int(state[S_GIFTED])],
        "cosmos": cosmos,
        "track": int(state[W_DRAGON]) if cosmos else None,
        "view": player_json(view),
        "layout": {
            name: {"domain": COLOUR_NAMES[colour], "side": side, "rotation": 90 * turns, "large": p in large}
            for p, (name, (colour, side, turns)) in enumerate(zip(PLACE_NAMES, layout.places))
        },
        "phase": phase,
        "turn": int(state[W_TURN]) + 1,
        "winner": player_json(state[W_WINNER]),
        "step": STEP_NAMES[step] if phase == "over" and step != STEP_END else None,
        "draws": int(state[W_DRAWS]),
        "placed": None if placed == NOBODY else cell_name(placed),
        "takes": int(state[W_TAKES]),
        "returns": int(state[W_RETURNS]),
        "bird_loser": player_json(state[W_BIRD_LOSER]),
        "faceup": dict(zip(COLOUR_NAMES, words_at(state, W_FACEUP))),
        "deck": deck,
        "players": [_player_to_json(state, p, view) for p in range(PLAYERS)],
    }


def _player_to_json(state, p, view):
    stones = realm_mask(state[player_word(p, P_STONES)])
    gifted = player_words(state, p, P_GIFTED)
    if gifted != NOBODY:
        stones &= ~cell_bit(gifted)
    hand = player_words(state, p, P_HAND, NCOLOURS)
    unknown = player_words(state, p, P_HAND_SIZE) - sum(hand) if view not in (NOBODY, p) else 0
    return {
        "score": player_words(state, p, P_SCORE),
        "supply": player_words(state, p, P_SUPPLY),
        "stones": [cell_name(cell) for cell in cells_of(stones)],
        "gifted": None if gifted == NOBODY else cell_name(gifted),
        "beasts": [BEAST_NAMES[c] for c in range(NCOLOURS) if int(state[W_HOLDER + c]) == p],
        "hand": cards_text(hand, unknown),
        "known": cards_text(player_words(state, p, P_KNOWN, NCOLOURS)),
    }
