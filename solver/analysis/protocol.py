"""One line of `tessera analyze`'s input as a control action or a search query.

The line must be a JSON object that ``query.schema.json`` accepts, with turns within
its moves; such a bad query is answered at once with ``{"id", "error", "field"}``. The
position and moves are worked out by the search process that takes a turn
(``positions.prepare``): parsing a position costs more than a small search (an Azure
realm is written in Python), so the engine's one process only reads JSON. Fields a
query gives but its search does not use are named in warnings
(``{"id", "warning", "field"}``).

Whatever its bytes, a line is answered: ``jsonline`` reads it (UTF-8, nesting, finite
numbers), the schema bounds every number, and a whole-number float where the schema
asks for an integer (JSON Schema counts 2.0 as one) is used as that integer. An error
shows at most a short prefix of a bad value.
"""

import json
import os
from dataclasses import dataclass, field
from importlib import resources

import jsonschema

from tessera.analysis import jsonline
from tessera.analysis.positions import QueryError
from tessera.errors import TesseraError
from tessera.search.mcts import MB, MctsOptions
from tessera.search.options import MCTS, MCTS_OPTIONS, OPTIONS, aliases
from tessera.search.request import SearchRequest

QUERY_SCHEMA = json.loads(resources.files("tessera.analysis").joinpath("query.schema.json").read_text(encoding="utf-8"))
_VALIDATOR = jsonschema.Draft202012Validator(QUERY_SCHEMA)
SEARCH_FIELDS = aliases("analyze")  # field: the search option it sets
MCTS_ONLY = (*aliases("analyze", MCTS_OPTIONS), "reportDuringSearchEvery")
SOURCE_FIELDS = ("position", "game", "options", "startSeed", "moves")
MAX_MEMORY_MB = QUERY_SCHEMA["properties"]["memory"]["maximum"]
# Which query field an error of ``MctsOptions.check`` is about, by its first word (its
# name of the option: ``MctsOptions`` says iterations for visits, chance for the width).
OPTION_FIELDS = {
    {"visits": "iterations", "width": "chance", "policy_temperature": "policy"}.get(
        option.name, option.name
    ): option.analyze
    for option in OPTIONS
    if option.analyze and not option.choices
}
ACTION_FIELDS = {
    "terminate": ("id", "action", "terminateId"),
    "query_version": ("id", "action"),
    "clear_cache": ("id", "action"),
}


@dataclass
class Control:
    id: str
    action: str
    terminate_id: str | None = None
    warnings: list = field(default_factory=list)


@dataclass
class SearchQuery:
    """A search of one or more turns of the position that ``source`` names."""

    id: str
    source: dict  # position or game, options, startSeed; moves
    algo: str
    turns: list  # turn numbers, in the order asked
    settings: dict  # the answer's settings (docs/best.schema.json)
    mcts: MctsOptions | None  # algo mcts
    report_every: float | None
    top_moves: int | None
    warnings: list = field(default_factory=list)  # (field, message)

    @property
    def start_key(self):
        """The start the moves are played from, as text: queries of one game share it."""
        return json.dumps({name: value for name, value in self.source.items() if name != "moves"}, sort_keys=True)


def parse_query(line):
    """A ``Control`` or ``SearchQuery`` of ``line`` (bytes, or text); raises ``LineError``
    (which knows the id, if any)."""
    try:
        query = jsonline.load(line)
    except jsonline.BadLine as err:
        raise LineError(err.query_id, QueryError(str(err))) from None
    if not isinstance(query, dict):
        raise LineError(None, QueryError("a query is a JSON object"))
    query_id = query.get("id")
    if (
        not isinstance(query_id, str)
        or len(query_id) > QUERY_SCHEMA["properties"]["id"]["maxLength"]
        or jsonline.check_values(query_id)
    ):
        query_id = None
    try:
        _check_values(query)
        _check_schema(query)
        query = _whole_numbers(query)
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


def _check_values(query):
    """Numbers out of every range (NaN, infinities, huge integers), lone surrogates."""
    found = jsonline.check_values(query)
    if found is not None:
        path, message = found
        raise QueryError(f"{_where(path)}: {message}" if path else message, _field_name(path[0]) if path else None)


def _check_schema(query):
    for name in query:
        if name not in QUERY_SCHEMA["properties"]:
            raise QueryError(f"unknown field {jsonline.shorten(name)}", _field_name(name))
    error = jsonschema.exceptions.best_match(_VALIDATOR.iter_errors(query))
    if error is None:
        return
    path = list(error.absolute_path)
    message = _schema_message(error)
    if error.validator == "required":
        path = [*path, error.message.split("'")[1]]
    name = _field_name(path[0]) if path else None
    raise QueryError(f"{_where(path)}: {message}" if path else message, name)


def _schema_message(error):
    """jsonschema's message with the bad value shortened (it starts with its repr)."""
    message = error.message
    shown = repr(error.instance)
    if message.startswith(shown):
        message = jsonline.shorten(error.instance) + message[len(shown) :]
    return jsonline.shorten_text(message) if len(message) > 2 * jsonline.SHOWN_CHARS else message


def _where(path):
    return ".".join(jsonline.shorten_text(str(part)) for part in path)


def _field_name(name):
    return name if len(name) <= jsonline.SHOWN_CHARS else jsonline.shorten_text(name)


def _whole_numbers(query):
    """``query`` with every whole-number float where the schema means an integer (a
    count, a turn, a seed) made that integer."""
    whole = dict(query)
    for name, value in query.items():
        schema = QUERY_SCHEMA["properties"][name]
        if schema.get("type") == "integer" and isinstance(value, float):
            whole[name] = int(value)
        elif schema.get("items", {}).get("type") == "integer":
            whole[name] = [int(item) if isinstance(item, float) else item for item in value]
    return whole


def _control(query):
    action = query["action"]
    if action == "terminate" and "terminateId" not in query:
        raise QueryError("terminate needs terminateId, the id of the query to stop", "terminateId")
    unused = [name for name in query if name not in ACTION_FIELDS[action]]
    return Control(
        query["id"],
        action,
        query.get("terminateId"),
        [(name, f"{name} is not used by the action {action}") for name in unused],
    )


def _search_query(query):
    if "position" not in query and "game" not in query:
        raise QueryError("a query needs a position or a game", "position")
    moves = query.get("moves", [])
    turns = query.get("analyzeTurns", [len(moves)])
    for number in turns:
        if number > len(moves):
            raise QueryError(f"turn {number} is beyond the {len(moves)} moves given", "analyzeTurns")
    algo = query.get("algo", "mcts")
    mcts, settings = _search_settings(query, algo)
    source = {name: query[name] for name in SOURCE_FIELDS if name in query}
    return SearchQuery(
        query["id"],
        source,
        algo,
        turns,
        settings,
        mcts,
        query.get("reportDuringSearchEvery"),
        query.get("topMoves"),
        _unused_fields(query),
    )


def _unused_fields(query):
    algo = query.get("algo", "mcts")
    unused = []
    if algo != "mcts":
        unused += [
            (name, f"{name} is an MCTS field; algo {algo} does not use it") for name in MCTS_ONLY if name in query
        ]
    if "depth" in query and algo != "alphabeta":
        unused.append(("depth", f"depth is an alpha-beta field; algo {algo} does not use it"))
    if "position" in query:
        unused += [
            (name, f"{name} is for a new game; this query gives a position")
            for name in ("game", "options")
            if name in query
        ]
    if "terminateId" in query:
        unused.append(("terminateId", "terminateId is for the action terminate"))
    return unused


def _search_settings(query, algo):
    """(MctsOptions or None, the answer's settings) of the query's budget and options."""
    request = SearchRequest(
        **{SEARCH_FIELDS[name].name: value for name, value in query.items() if name in SEARCH_FIELDS}
    )
    if algo != MCTS:
        return None, request.settings()
    options = request.mcts_options()
    if options.memory > machine_memory():
        raise QueryError(
            f"memory: {options.memory / MB:g} MB is more than this machine's {machine_memory() // MB:,} MB", "memory"
        )
    try:
        options.check()
    except TesseraError as err:
        raise QueryError(str(err), OPTION_FIELDS.get(str(err).split()[0])) from None
    return options, request.settings()


def machine_memory():
    """Bytes of memory a search may ask for: the machine's, at most ``MAX_MEMORY_MB``."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        physical = MAX_MEMORY_MB * MB
    return min(physical, MAX_MEMORY_MB * MB)
