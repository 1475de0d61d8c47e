"""The position editor's check: the page sends the position it builds, in the game's JSON
form (docs/azul-notation.md, docs/pavilion-notation.md, docs/azure-notation.md), with the
fields it leaves to inference ``null``, and gets back an answer (HTTP 200) whether the
position is legal yet or not: ``legal``, the position filled in (``position``) and the
fields ``inferred``; a legal one adds its position document, one not legal yet the
engine's one-line ``reason`` and the one-click ``fixes`` found for it (each a label and
the position to send instead), and for Azure the ``realm`` of its layout when that reads.
A body that is no position's JSON form at all is still a bad request (HTTP 400). The
Azure realm of a layout alone is ``/api/editor/realm``.

The editor may leave out where the unseen tiles are: an Azul position whose ``bag`` or
``lid`` is ``null`` (a Summer Pavilion one whose ``bag`` or ``tower`` is) has them
inferred from the game's fixed number of tiles of each colour (20 in Azul, 22 in Summer
Pavilion) minus the tiles seen on the table and the boards:

- one of the two given: the other holds the rest;
- neither given: the rest is in the bag, except when a display holds 1 to 3 tiles (the
  refill ran out of tiles there, so the bag is empty): then it is in the lid (the tower).

A colour with more tiles seen than the game has is left at 0, and the engine's count
check names it. A complete Azure position has its supplies, beasts, hidden deck and
face-up decks inferred as ``tessera.notation.azure.editing`` says. Everything else is
read as the notation reads it.
"""

from starlette.routing import Route

from tessera.errors import BoardDataError, TesseraError
from tessera.games import get_game
from tessera.notation.azure import editing as azure_editing
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
REFUSED = (TesseraError, BoardDataError)  # what the engine's check raises, one line each
MAX_REASON = 500  # characters of a reason answered, as of an error


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


AZURE_INFERRED = frozenset({"azure"})  # the games whose editor infers in the notation's module


def _inferred_by_notation(position):
    game = position.get("game")
    return isinstance(game, str) and game in AZURE_INFERRED


def infer(position):
    """(``position`` with the fields its game's editor infers filled in, their names)."""
    if not isinstance(position, dict) or not isinstance(position.get("game"), str):
        return position, []
    if _inferred_by_notation(position):
        return azure_editing.infer(position)
    filled = infer_unseen(position)
    return filled, sorted(
        key for key in ("bag", "lid", "tower") if position.get(key) is None and filled.get(key) is not None
    )


def realm(body):
    """{"realm"}: the cells of the Azure realm of ``layout`` (four domains as the text form
    writes them) with ``cosmos`` or not, without stones: what the editor draws while the
    position it builds is not legal yet."""
    layout = inputs.text(body, "layout", "four domains like 'A1@0 W2@90 V1@180 B2@270'")
    cosmos = inputs.flag(body, "cosmos", False)
    start = Position.new("azure", seed=0, layout=layout, cosmos=cosmos)
    return get_game("azure").board(start.state)


def _refusal(position):
    """The engine's one-line refusal of a position's JSON form, or None when it is legal."""
    try:
        Position.parse(position)
    except REFUSED as err:
        return one_line(err)
    return None


def one_line(err):
    line = " ".join(str(err).split())
    return line if len(line) <= MAX_REASON else line[:MAX_REASON] + "..."


def check(body):
    """The answer to the edited position, legal or not yet (the module's docstring); its
    chance generator from seed 0, as a pasted position's."""
    edited = body.get("position")
    if not isinstance(edited, dict):
        raise BadRequest("position must be a position's JSON form (an object)")
    filled, inferred = infer(edited)
    answer = {"position": filled, "inferred": inferred}
    try:
        position = Position.parse(filled)
    except REFUSED as err:
        answer.update(legal=False, reason=one_line(err), fixes=[])
        if _inferred_by_notation(filled):
            answer["fixes"] = azure_editing.fixes(edited, filled, _refusal)
            drawn = azure_editing.realm_state(filled, stones=False)
            if drawn is not None:
                answer.update(get_game(filled["game"]).board(drawn))
        return answer
    return {**documents.document(position, documents.read_rng(None)), **answer, "legal": True}


def routes():
    return [
        Route("/api/editor/position", json_route(check), methods=["POST"]),
        Route("/api/editor/realm", json_route(realm), methods=["POST"]),
    ]
