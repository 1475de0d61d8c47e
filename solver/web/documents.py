"""What the page gets for a position: its text and JSON, who acts, the legal moves with
their fields (``moves``), what the game's board draws beyond its JSON (``Game.board``: the
Azure realm), each player's view in a game of hidden information, and the chance
generator to go on with.

Chance is dealt as `tessera selfplay` and `tessera analyze` deal it: a new game from
seed S starts ``ChanceDraws(S)``, which draws every chance step after it. Its state goes
to the page with each position and comes back with the next move, so the same seed and
player moves give the same game here, in `tessera analyze` (``startSeed`` S) and in a
self-play record.
"""

from tessera.errors import TesseraError
from tessera.games import get_game
from tessera.games.base import check_seed
from tessera.position import ChanceDraws, Position
from tessera.web.moves import fields


class BadRequest(TesseraError):
    """Input the page sent that the API cannot take: HTTP 400 with its one-line message."""


def new_game(game, seed, options):
    """(start position, its chance draws) of a new game, as `tessera new GAME --seed`."""
    check_seed(seed)  # before the seed meets the generator below
    if not isinstance(game, str):
        raise BadRequest("game must be a game's name")
    if not isinstance(options, dict):
        raise BadRequest("options must be an object of option names and values")
    return Position.new(game, seed=seed, **options), ChanceDraws(seed)


def read_position(text):
    """A position from its text, JSON text or JSON object; PositionError when it is bad."""
    if not isinstance(text, (str, dict)) or not text:
        raise BadRequest("position must be a position's text or JSON")
    return Position.parse(text)


def read_rng(value):
    """The chance draws the page sent back (the generator's state, decimal), or seed 0's."""
    if value is None:
        return ChanceDraws(0)
    try:
        if isinstance(value, (bool, float)):  # int() would turn it into another generator
            raise TypeError(value)
        return ChanceDraws.resume(int(value))
    except (TypeError, ValueError, OverflowError):
        raise BadRequest(f"rng must be a generator state as the API sent it, not {value!r}") from None


def play(position, move, rng, deal):
    """(the position after ``move``, whether chance was dealt after it): with ``deal``,
    chance that follows is drawn from the draws ``rng`` (which move on) until a player acts.
    A move from a player's view is played in a position that player cannot tell from it
    (``completed``), so a shared view plays on."""
    after = completed(position, rng).play(move)
    return deal_chance(after, rng) if deal else (after, False)


def completed(position, rng):
    """``position`` when complete; from a player's view, a complete position that player
    cannot tell from it: the cards they do not see dealt from ``rng`` (which moves on), as
    the information-set search deals them (docs/hidden-information.md)."""
    if not position.is_view:
        return position
    observer = position.to_json()["view"] - 1
    return Position.from_state(get_game(position.game).resample(position.state, observer, rng._rng))


def deal_chance(position, rng):
    """(the position with its pending chance drawn from ``rng``, whether any was)."""
    if not position.is_chance:
        return position, False
    if position.is_view:  # the cards chance draws from are hidden in it
        raise BadRequest("deal needs a complete position; this is a player's view")
    return rng.deal(position), True


def document(position, rng=None):
    """The page's description of ``position`` (see the module's docstring)."""
    game = get_game(position.game)
    doc = {
        "game": game.name,
        "text": position.text(),
        "json": position.to_json(),
        "status": status(position),
        "players": position.players,
        "to_move": position.to_move,
        "is_chance": position.is_chance,
        "is_over": position.is_over,
        "is_view": position.is_view,
        "scores": position.scores,
        "hash": position.hash,
        "moves": _moves(position),
        "rng": None if rng is None else str(rng.state),
    }
    doc.update(game.board(position.state))
    if game.spec.hidden and not position.is_view:
        doc["views"] = {str(p): position.view(p).to_json() for p in range(1, position.players + 1)}
    return doc


def _moves(position):
    if position.is_view and position.to_move is not None and position.to_json().get("view") != position.to_move:
        return []  # the other player's moves depend on hidden cards
    if position.is_chance:
        return [dict(fields(position.game, text), probability=p) for text, p in position.chance_outcomes()]
    return [fields(position.game, text) for text in position.legal_moves]


def status(position):
    """One line: who acts and what they do, as `tessera show` says it."""
    return get_game(position.game).who_acts(position.state)
