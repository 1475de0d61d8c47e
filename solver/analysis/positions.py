"""The positions a query names: a position or a new game, then its moves played in order.
A search process works them out for each turn it searches (``prepare``).

Chance is resolved as `tessera selfplay` plays a game: by ``resolve_chance`` with
``chance_rng(startSeed)`` whenever it acts, unless the next move of the
list names a chance outcome itself (``draw red``). A game record's start seed and
player moves therefore replay its game exactly.
"""
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from tessera.kernels import games
from tessera.kernels.rng import chance_rng
from tessera.errors import MoveError, TesseraError
from tessera.games import game_of_position, get_game


class QueryError(TesseraError):
    """A query that cannot run: its answer is ``{"id", "error", "field"}``."""

    def __init__(self, message, field=None):
        self.field = field
        super().__init__(message)


@dataclass
class Turn:
    """The position after the first ``number`` moves, and the player moves that led to it
    since the last chance event (``line``: (position before, move) pairs), for tree reuse."""
    number: int
    state: np.ndarray
    line: list = field(default_factory=list)


def start_position(query):
    """(game, state) of the query's ``position``, or of its ``game``, ``options`` and ``startSeed``."""
    if "position" in query:
        text = query["position"]
        text = text if isinstance(text, str) else _json_text(text)
        try:
            return _parsed(text)
        except TesseraError as err:
            raise QueryError(str(err), "position") from None
    if "game" not in query:
        raise QueryError("a query needs a position or a game", "position")
    try:
        game = get_game(query["game"])
    except TesseraError as err:
        raise QueryError(str(err), "game") from None
    options = query.get("options", {})
    try:           # ``new`` checks the options' values
        game.check_options(options)
        return game, game.new(query.get("startSeed", 0), **_whole_numbers(game, options))
    except TesseraError as err:
        message = str(err)
        if "seed" in options:
            message += "; the game's seed is the query's startSeed"
        raise QueryError(message, "options") from None


def _whole_numbers(game, options):
    """``options`` with a whole-number float (3.0) made an integer where the game's option
    is one, as the query's own integer fields take them."""
    return {name: int(value) if game.options[name][0] is int and isinstance(value, float)
            and value.is_integer() else value for name, value in options.items()}


@lru_cache(maxsize=256)
def _parsed(text):
    """``game_of_position``, kept for the queries of a game that repeat its start position
    with more moves each time. The state is shared: callers copy it before playing."""
    return game_of_position(text)


def _json_text(obj):
    import json
    return json.dumps(obj)


def play_turns(game, state, moves, chance_seed):
    """Every ``Turn`` from 0 (the start) to ``len(moves)``; raises QueryError on a bad move."""
    rng = chance_rng(chance_seed)
    state = state.copy()
    line = []
    line = _resolve_pending_chance(game, state, moves, 0, rng, line)
    turns = [Turn(0, state.copy(), list(line))]
    for i, text in enumerate(moves):
        where = f"move {i + 1} of {len(moves)}"
        if not games.is_complete(state):
            raise QueryError(f"{where}: moves cannot be played on a player's view, which hides "
                             "what the rules need", "moves")
        if games.to_move(state) == games.TERMINAL:
            raise QueryError(f"{where} '{text}': the game is over", "moves")
        try:
            move = game.parse_move(state, text)
        except MoveError as err:
            raise QueryError(f"{where}: {err}", "moves") from None
        if games.to_move(state) == games.CHANCE:
            line = []
        else:
            line.append((state.copy(), int(move)))
        games.apply_move(state, move)
        line = _resolve_pending_chance(game, state, moves, i + 1, rng, line)
        turns.append(Turn(i + 1, state.copy(), list(line)))
    return turns


def _resolve_pending_chance(game, state, moves, next_index, rng, line):
    """Draw chance now unless the next listed move is a chance outcome; the line restarts."""
    if not games.is_complete(state) or games.to_move(state) != games.CHANCE:
        return line
    if next_index < len(moves):
        try:
            game.parse_move(state, moves[next_index])
            return []                   # the list plays chance itself
        except MoveError:
            pass
    games.resolve_chance(state, rng)
    return []


def check_searchable(game, state):
    """Raise QueryError unless a player to move in ``state`` can be searched for."""
    who = games.to_move(state)
    if who == games.TERMINAL:
        raise QueryError("the game is over: there is no move to search", "analyzeTurns")
    if who == games.CHANCE:
        raise QueryError("chance acts in this position: there is no move to choose", "analyzeTurns")
    observer = game.observer(state)
    if observer is not None and who != observer:
        raise QueryError(f"in player {observer + 1}'s view player {who + 1} acts: its moves depend "
                         "on cards the view hides", "position")


def prepare(source, turn):
    """(game, state, line) of turn ``turn`` of a query's ``source`` (its position or game,
    options, startSeed and moves): every move is checked, so each turn of a query with a
    bad move fails alike. QueryError names the field at fault."""
    game, state = start_position(source)
    turns = play_turns(game, state, source.get("moves", []), source.get("startSeed", 0))
    chosen = turns[turn]
    check_searchable(game, chosen.state)
    return game, chosen.state, chosen.line
