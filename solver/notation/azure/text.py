"""Azure positions in text form, read through the JSON form (``document``)."""

from tessera.errors import PositionError
from tessera.kernels.azure.layout import COLOUR_LETTERS, COLOUR_NAMES, PLACE_NAMES, PLACES, PLAYERS
from tessera.notation.azure.document import PLAYER_KEYS, TURN_DEFAULTS, position_from_json, position_to_json
from tessera.notation.azure.realm import layout_json_of_text, layout_text
from tessera.notation.azure.words import GAME, NONE, player_text, text_player
from tessera.notation.fields import counts_text, position_tokens, section_json, text_counts, text_number

TEXT_HEADER_KEYS = (
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
)
PLAYER_WORD = "player"
YES_NO = ("no", "yes")


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
                raise PositionError(
                    f"player {number}", f"expected player {len(players) + 1} next (players come in seat order)"
                )
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
        values = tokens[i + 1 : i + 1 + width]
        if len(values) < width or any(v in keys or v == PLAYER_WORD for v in values):
            raise PositionError(
                prefix + key, "missing value" if width == 1 else f"expected {PLACES} places ({', '.join(PLACE_NAMES)})"
            )
        section[key] = values if width > 1 else values[0]
        i += 1 + width
    return header, players


def _json_from_text(header, players):
    obj = {"game": GAME, **TURN_DEFAULTS, "track": None, **section_json(header, HEADER_READERS)}
    if obj.get("cosmos") and "track" not in header:
        raise PositionError("track", "missing (a Cosmos position places the Yellow Dragon)")
    if not obj.get("cosmos", True) and "track" in header:
        raise PositionError("track", "no cosmos track without the Cosmos expansion")
    obj["players"] = [section_json(section, PLAYER_READERS, f"player {n} ") for n, section in enumerate(players, 1)]
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
    raise PositionError(field, f"expected 0, +N (toward player 1) or -N (toward player 2), got '{token}'")


def _track_text(track):
    return f"{track:+d}" if track else "0"


HEADER_READERS = {
    "cosmos": _text_yes_no,
    "track": _text_track,
    **dict.fromkeys(("view", "winner", "bird_loser"), text_player),
    **dict.fromkeys(("turn", "draws", "takes", "returns"), text_number),
    **dict.fromkeys(("placed", "step"), _text_or_none),
    "layout": lambda field, tokens: layout_json_of_text(tokens),
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
    header += f" view {player_text(obj['view'])}"
    turn = f"phase {obj['phase']} turn {obj['turn']}"
    for key, default in TURN_DEFAULTS.items():
        if obj[key] != default:
            turn += f" {key} {NONE if obj[key] is None else obj[key]}"
    lines = [
        header,
        "layout " + layout_text(obj["layout"]),
        turn,
        "faceup " + counts_text(obj["faceup"], COLOUR_NAMES) + f" deck {obj['deck']}",
    ]
    for number, player in enumerate(obj["players"], 1):
        lines.append(
            f"player {number} score {player['score']} supply {player['supply']}"
            f" stones {','.join(player['stones']) or NONE} gifted {player['gifted'] or NONE}"
            f" beasts {','.join(player['beasts']) or NONE} hand {player['hand']}"
            f" known {player['known']}"
        )
    return "\n".join(lines)
