"""The positions a query names: a position or a new game, then its moves played in order.
A search process works them out for each turn it searches (``prepare``).

Chance is drawn as `tessera selfplay` plays a game: from ``ChanceDraws(startSeed)``
whenever it acts, unless the next move of the list names a chance outcome itself
(``draw red``). A game record's start seed and player moves therefore replay its game
exactly.
"""

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from tessera.errors import MoveError, TesseraError
from tessera.games import game_of_position, get_game
from tessera.position import ChanceDraws, Position


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
    try:  # ``new`` checks the options' values
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
    return {
        name: int(value) if game.options[name][0] is int and isinstance(value, float) and value.is_integer() else value
        for name, value in options.items()
    }


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
    draws = ChanceDraws(chance_seed)
    position = _dealt(Position(game, state.copy()), moves, 0, draws)
    line = []
    turns = [Turn(0, position.state, [])]
    for i, text in enumerate(moves):
        where = f"move {i + 1} of {len(moves)}"
        if position.is_view:
            raise QueryError(
                f"{where}: moves cannot be played on a player's view, which hides what the rules need", "moves"
            )
        if position.is_over:
            raise QueryError(f"{where} '{text}': the game is over", "moves")
        try:
            move = position.parse_move(text)
        except MoveError as err:
            raise QueryError(f"{where}: {err}", "moves") from None
        line = [] if position.is_chance else line + [(position.state, move)]
        position = position.play_codes(move)
        if position.is_chance:  # drawn now or by the list: the line restarts
            line = []
        position = _dealt(position, moves, i + 1, draws)
        turns.append(Turn(i + 1, position.state, list(line)))
    return turns


def _dealt(position, moves, next_index, draws):
    """``position`` with its pending chance drawn, unless the next listed move is a chance
    outcome (the list plays chance itself) or the position is a view."""
    if position.is_view or not position.is_chance:
        return position
    if next_index < len(moves):
        try:
            position.parse_move(moves[next_index])
            return position
        except MoveError:
            pass
    return draws.deal(position)


def check_searchable(game, state):
    """Raise QueryError unless a player to move in ``state`` can be searched for."""
    position = Position(game, state)
    if position.is_over:
        raise QueryError("the game is over: there is no move to search", "analyzeTurns")
    if position.is_chance:
        raise QueryError("chance acts in this position: there is no move to choose", "analyzeTurns")
    observer = game.observer(state)
    if observer is not None and position.to_move != observer + 1:
        raise QueryError(
            f"in player {observer + 1}'s view player {position.to_move} acts: its moves depend on cards the view hides",
            "position",
        )


def prepare(source, turn):
    """(game, state, line) of turn ``turn`` of a query's ``source`` (its position or game,
    options, startSeed and moves): every move is checked, so each turn of a query with a
    bad move fails alike. QueryError names the field at fault."""
    game, state = start_position(source)
    turns = play_turns(game, state, source.get("moves", []), source.get("startSeed", 0))
    chosen = turns[turn]
    check_searchable(game, chosen.state)
    return game, chosen.state, chosen.line
