"""One line of `tessera analyze`'s input as a control action or a search query.

The line must be a JSON object that ``query.schema.json`` accepts; then its position,
moves and turns are played out here, so a bad query is answered at once with
``{"id", "error", "field"}`` and never reaches a search process. Fields a query gives
but its search does not use are named in warnings (``{"id", "warning", "field"}``).
"""
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Optional

import jsonschema

from solver.analysis.positions import QueryError, check_searchable, play_turns, start_position
from solver.errors import TesseraError
from solver.search.mcts import MctsOptions
from solver.search.report import mcts_settings

DEFAULT_VISITS = 10_000         # as `tessera best` without --iterations or --time
QUERY_SCHEMA = json.loads(resources.files("solver.analysis").joinpath("query.schema.json")
                          .read_text(encoding="utf-8"))
_VALIDATOR = jsonschema.Draft202012Validator(QUERY_SCHEMA)
MCTS_ONLY = ("maxVisits", "threads", "seed", "value", "select", "rollout", "exploration",
             "reportDuringSearchEvery")
ACTION_FIELDS = {"terminate": ("id", "action", "terminateId"),
                 "query_version": ("id", "action"), "clear_cache": ("id", "action")}


@dataclass
class Control:
    id: str
    action: str
    terminate_id: Optional[str] = None
    warnings: list = field(default_factory=list)


@dataclass
class SearchQuery:
    """A search of one or more turns; ``error_turns`` are turns that cannot be searched."""
    id: str
    game: object
    algo: str
    turns: list                         # Turn, in the order asked
    settings: dict                      # the answer's settings (docs/best.schema.json)
    mcts: Optional[MctsOptions]         # algo mcts
    report_every: Optional[float]
    top_moves: Optional[int]
    warnings: list = field(default_factory=list)        # (field, message)
    error_turns: list = field(default_factory=list)     # (turn number, QueryError)


def parse_query(line):
    """A ``Control`` or ``SearchQuery``; raises ``LineError`` (which knows the id, if any)."""
    try:
        query = json.loads(line)
    except json.JSONDecodeError as err:
        raise LineError(None, QueryError(f"not valid JSON ({err.msg} at column {err.colno})")) from None
    if not isinstance(query, dict):
        raise LineError(None, QueryError("a query is a JSON object"))
    query_id = query.get("id") if isinstance(query.get("id"), str) else None
    try:
        _check_schema(query)
        if "action" in query:
            return _control(query)
        return _search_query(query)
    except QueryError as err:
        raise LineError(query_id, err) from None


class LineError(Exception):
    def __init__(self, query_id, error):
        self.query_id = query_id
        self.error = error
        super().__init__(str(error))


def _check_schema(query):
    for name in query:
        if name not in QUERY_SCHEMA["properties"]:
            raise QueryError(f"unknown field '{name}'", name)
    error = jsonschema.exceptions.best_match(_VALIDATOR.iter_errors(query))
    if error is None:
        return
    path = [str(part) for part in error.absolute_path]
    if error.validator == "required":
        path = [error.message.split("'")[1]]
    name = path[0] if path else None
    where = ".".join(path)
    raise QueryError(f"{where}: {error.message}" if where else error.message, name)


def _control(query):
    action = query["action"]
    if action == "terminate" and "terminateId" not in query:
        raise QueryError("terminate needs terminateId, the id of the query to stop", "terminateId")
    unused = [name for name in query if name not in ACTION_FIELDS[action]]
    return Control(query["id"], action, query.get("terminateId"),
                   [(name, f"{name} is not used by the action {action}") for name in unused])


def _search_query(query):
    game, state = start_position(query)
    warnings = _unused_fields(query)
    moves = query.get("moves", [])
    turns = play_turns(game, state, moves, query.get("startSeed", 0))
    asked = query.get("analyzeTurns", [len(moves)])
    for number in asked:
        if number > len(moves):
            raise QueryError(f"turn {number} is beyond the {len(moves)} moves given", "analyzeTurns")
    chosen, error_turns = [], []
    for number in asked:
        turn = turns[number]
        try:
            check_searchable(game, turn.state)
            chosen.append(turn)
        except QueryError as err:
            error_turns.append((number, err))
    algo = query.get("algo", "mcts")
    complete = all(game.observer(turn.state) is None for turn in turns)
    if algo == "mcts" and not complete and "reportDuringSearchEvery" in query:
        warnings.append(("reportDuringSearchEvery", "information-set MCTS on a view gives only its "
                         "final answer"))
    mcts, settings = _search_settings(query, algo)
    return SearchQuery(query["id"], game, algo, chosen, settings, mcts,
                       query.get("reportDuringSearchEvery") if complete else None,
                       query.get("topMoves"), warnings, error_turns)


def _unused_fields(query):
    algo = query.get("algo", "mcts")
    unused = []
    if algo != "mcts":
        unused += [(name, f"{name} is an MCTS field; algo {algo} does not use it")
                   for name in MCTS_ONLY if name in query]
    if "depth" in query and algo != "alphabeta":
        unused.append(("depth", f"depth is an alpha-beta field; algo {algo} does not use it"))
    if "position" in query:
        unused += [(name, f"{name} is for a new game; this query gives a position")
                   for name in ("game", "options") if name in query]
    if "terminateId" in query:
        unused.append(("terminateId", "terminateId is for the action terminate"))
    return unused


def _search_settings(query, algo):
    """(MctsOptions or None, the answer's settings) of the query's budget and options."""
    time_limit = query.get("maxTime")
    if algo != "mcts":
        settings = {"time": time_limit}
        if algo == "alphabeta":
            settings["depth"] = query.get("depth")
        return None, settings
    visits = query.get("maxVisits")
    if visits is None and time_limit is None:
        visits = DEFAULT_VISITS
    defaults = MctsOptions()
    options = MctsOptions(iterations=visits, time_limit=time_limit,
                          threads=query.get("threads", defaults.threads),
                          seed=query.get("seed", defaults.seed),
                          value=query.get("value", defaults.value),
                          select=query.get("select", defaults.select),
                          rollout=query.get("rollout", defaults.rollout),
                          exploration=query.get("exploration", defaults.exploration))
    try:
        options.check()
    except TesseraError as err:
        raise QueryError(str(err)) from None
    return options, mcts_settings(options)
