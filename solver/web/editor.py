"""The position editor's check: the page sends the position it builds, in the game's JSON
form (docs/azul-notation.md, docs/pavilion-notation.md, docs/azure-notation.md), and gets
back the position document or the engine's one-line error (HTTP 400); and the Azure realm
of a layout, drawn while the position is not legal yet.

The editor may leave out where the unseen tiles are: an Azul position whose ``bag`` or
``lid`` is ``null`` (a Summer Pavilion one whose ``bag`` or ``tower`` is) has them
inferred from the game's fixed number of tiles of each colour (20 in Azul, 22 in Summer
Pavilion) minus the tiles seen on the table and the boards:

- one of the two given: the other holds the rest;
- neither given: the rest is in the bag, except when a display holds 1 to 3 tiles (the
  refill ran out of tiles there, so the bag is empty): then it is in the lid (the tower).

A complete Azure position whose ``faceup`` is ``null`` has in each face-up deck the 12
cards of the colour that are not in the hidden deck or a hand.

A colour with more tiles (cards) seen than the game has is left at 0, and the engine's
count check names it. Everything else is read as the notation reads it.
"""

from starlette.routing import Route

from tessera.games import get_game
from tessera.position import Position
from tessera.web import documents, inputs
from tessera.web.documents import BadRequest
from tessera.web.http import json_route

# game: (tiles of each colour, colour names in notation order, the bag's partner field)
UNSEEN = {
    "azul": (20, ("blue", "yellow", "red", "black", "white"), "lid"),
    "pavilion": (22, ("purple", "green", "orange", "yellow", "blue", "red"), "tower"),
}
AZUL_LETTERS = "BYRKW"
PAVILION_LETTERS = "PGOYBR"
PAVILION_STAR_LETTERS = "PGOYBR"  # the outer stars, in the notation's order


def infer_unseen(position):
    """``position`` (a JSON form object) with a missing bag and lid (tower) filled in as
    the module's docstring says; other input comes back as it was, for the engine to judge."""
    if not isinstance(position, dict) or not isinstance(position.get("game"), str) or position["game"] not in UNSEEN:
        return position
    total, names, partner = UNSEEN[position["game"]]
    given_bag, given_partner = position.get("bag"), position.get(partner)
    if given_bag is not None and given_partner is not None:
        return position
    seen = _seen_tiles(position)
    if seen is None:  # malformed: the engine names what is wrong
        return position
    rest = {name: total - seen.get(name, 0) for name in names}
    if given_bag is not None or given_partner is not None:
        given, missing = ("bag", partner) if given_bag is not None else (partner, "bag")
        if not _counts(position[given], names):
            return position
        filled = {missing: {n: max(0, rest[n] - position[given][n]) for n in names}}
    else:
        into = partner if _refill_ran_out(position) else "bag"
        other = partner if into == "bag" else "bag"
        filled = {into: {n: max(0, rest[n]) for n in names}, other: dict.fromkeys(names, 0)}
    return {**position, **filled}


def _counts(value, names):
    return isinstance(value, dict) and all(type(value.get(n)) is int for n in names)


def _refill_ran_out(position):
    """A display holds 1 to 3 tiles: the refill ran out of tiles there."""
    factories = position.get("factories")
    return isinstance(factories, list) and any(isinstance(f, str) and 0 < len(f.strip("-")) < 4 for f in factories)


def _seen_tiles(position):
    """{colour name: tiles seen} on the table and the boards, or None when malformed."""
    try:
        return SEEN_TILES[position["game"]](position)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def _tally(letters, alphabet, names, into):
    for letter in letters:
        if letter in alphabet:
            name = names[alphabet.index(letter)]
            into[name] = into.get(name, 0) + 1


def _azul_seen(position):
    names = UNSEEN["azul"][1]
    seen = {}
    for tiles in [*position["factories"], position["centre"]]:
        _tally(tiles, AZUL_LETTERS, names, seen)
    for board in position["boards"]:
        for tiles in [*board["lines"], board["floor"]]:
            _tally(tiles, AZUL_LETTERS, names, seen)
        for row, cells in enumerate(board["wall"]):
            for column, cell in enumerate(cells):
                # "x" on the colour wall is the colour printed there: (colour + row) mod 5.
                letter = AZUL_LETTERS[(column - row) % 5] if cell == "x" else cell
                _tally(letter, AZUL_LETTERS, names, seen)
    return seen


def _pavilion_seen(position):
    names = UNSEEN["pavilion"][1]
    seen = {}
    for tiles in [*position["factories"], position["centre"], position["supply"]]:
        _tally(tiles, PAVILION_LETTERS, names, seen)
    for board in position["boards"]:
        for tiles in [board["hand"], board["kept"], *board["stars"]]:
            _tally(tiles, PAVILION_LETTERS, names, seen)
    return seen


# game: the reader of the tiles seen in its position's JSON form
SEEN_TILES = {"azul": _azul_seen, "pavilion": _pavilion_seen}

AZURE_LETTERS = "AWVB"
AZURE_NAMES = ("azure", "white", "vermillion", "black")
AZURE_CARDS = 12  # of each colour
FACEUP_INFERRED = frozenset({"azure"})  # the games whose face-up decks the editor infers


def infer_faceup(position):
    """An Azure position (complete, JSON form) whose ``faceup`` is ``null``: each colour's
    face-up deck holds the cards of the colour not in the hidden deck or a hand."""
    if (
        not isinstance(position, dict)
        or not isinstance(position.get("game"), str)
        or position["game"] not in FACEUP_INFERRED
        or position.get("faceup") is not None
        or position.get("view") is not None
    ):
        return position
    try:
        seen = {}
        for cards in [position["deck"], *(player["hand"] for player in position["players"])]:
            _tally(cards, AZURE_LETTERS, AZURE_NAMES, seen)
    except (KeyError, TypeError, AttributeError):
        return position
    return {**position, "faceup": {name: max(0, AZURE_CARDS - seen.get(name, 0)) for name in AZURE_NAMES}}


def realm(body):
    """{"realm"}: the cells of the Azure realm of ``layout`` (four domains as the text form
    writes them) with ``cosmos`` or not, without stones: what the editor draws while the
    position it builds is not legal yet."""
    layout = inputs.text(body, "layout", "four domains like 'A1@0 W2@90 V1@180 B2@270'")
    cosmos = inputs.flag(body, "cosmos", False)
    start = Position.new("azure", seed=0, layout=layout, cosmos=cosmos)
    return get_game("azure").board(start.state)


def check(body):
    """The document of the edited position (its chance generator from seed 0, as a
    pasted position's), with ``inferred``: the count fields filled in by inference."""
    edited = body.get("position")
    if not isinstance(edited, dict):
        raise BadRequest("position must be a position's JSON form (an object)")
    filled = infer_faceup(infer_unseen(edited))
    inferred = sorted(
        key for key in ("bag", "lid", "tower", "faceup") if edited.get(key) is None and filled.get(key) is not None
    )
    position = Position.parse(filled)
    return {**documents.document(position, documents.read_rng(None)), "inferred": inferred}


def routes():
    return [
        Route("/api/editor/position", json_route(check), methods=["POST"]),
        Route("/api/editor/realm", json_route(realm), methods=["POST"]),
    ]
