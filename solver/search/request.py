"""One search request, and the one way to run it, for every front end.

``tessera best``, ``Position.best`` and ``tessera.best``, the agents and the analysis
engine's jobs each describe a search as a ``SearchRequest`` (the options of
``tessera.search.options``, in their units: memory in MB) and run it here: ``run_search``
for one search, ``searcher_for`` for the front ends that keep a tree between searches
(agents, the analysis engine). This is the one place that picks MCTS or information-set
MCTS (by whether the position is complete) and fills in the default budget.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tessera.errors import OptionError
from tessera.search.options import ALGOS, DEFAULT_VISITS, MCTS, MODEL_BUILTIN, MODEL_NONE, SOLVE, default
from tessera.search.result import Progress, SearchResult

if TYPE_CHECKING:
    import numpy as np

    from tessera.search.ismcts import Ismcts
    from tessera.search.mcts import Mcts, MctsOptions


@dataclass
class SearchRequest:
    algo: str = default("algo")
    visits: int | None = None  # MCTS simulations, all threads together
    time: float | None = None  # seconds
    depth: int | None = None  # alpha-beta plies
    threads: int = default("threads")
    seed: int = default("seed")
    value: str | None = None  # None: the game's own
    select: str = default("select")
    rollout: str = default("rollout")
    exploration: float | None = None  # None: the game's own
    fpu: float = default("fpu")
    width: int = default("width")  # the chance width
    memory: float = default("memory")  # MB for the trees of all threads together
    model: str | None = None  # a value model file, "builtin" or "none"; None: the game's own
    policy_temperature: float | None = None  # of a model's policy priors; None: the game's own

    def __post_init__(self) -> None:
        if self.model is not None and str(self.model).lower() in (MODEL_NONE, MODEL_BUILTIN):
            self.model = str(self.model).lower()

    def check_algo(self) -> None:
        if self.algo not in ALGOS:
            raise OptionError(f"unknown algo '{self.algo}' (known: {', '.join(ALGOS)})")

    @property
    def visit_budget(self) -> int | None:
        """The simulations MCTS runs: ``visits``, or the default when no budget is given."""
        return DEFAULT_VISITS if self.visits is None and self.time is None else self.visits

    def mcts_options(self) -> "MctsOptions":
        """The ``MctsOptions`` of this request (not yet checked: a searcher checks them)."""
        from tessera.search.mcts import MB, MctsOptions

        return MctsOptions(
            iterations=self.visit_budget,
            time_limit=self.time,
            threads=self.threads,
            seed=self.seed,
            value=self.value,
            select=self.select,
            rollout=self.rollout,
            exploration=self.exploration,
            fpu=self.fpu,
            chance_width=self.width,
            memory=int(self.memory * MB),
            model=self.model,
            policy_temperature=self.policy_temperature,
        )

    def settings(self) -> dict[str, Any]:
        """The ``settings`` of the search's document (docs/best.schema.json), without what
        depends on the position (``for_position`` adds it)."""
        if self.algo == MCTS:
            return {
                "iterations": self.visit_budget,
                "time": self.time,
                "threads": self.threads,
                "seed": self.seed,
                "value": self.value,
                "select": self.select,
                "rollout": self.rollout,
                "exploration": self.exploration,
                "memory": float(self.memory),
                "model": self.model,
                "policy_temperature": self.policy_temperature,
            }
        if self.algo == SOLVE:
            return {"time": self.time}
        return {"depth": self.depth, "time": self.time}


def for_position(settings: dict[str, Any], algo: str, state: "np.ndarray") -> dict[str, Any]:
    """``settings`` of a search of ``state`` with what depends on its game and position:
    MCTS's rollout, value model, exploration and value where they were left to the game and its
    player count, and the model's path (or ``builtin``) and hash (a built-in model is the
    game's for its player count; no model: neither), with the temperature of its policy's
    priors when it has a policy; or alpha-beta's mode (round or game)."""
    if algo == MCTS:
        from tessera.search.mcts import policy_temperature, position_settings

        rollout, model, exploration, value = position_settings(
            state,
            settings["rollout"],
            settings["model"],
            settings["exploration"],
            settings["value"],
            settings["time"],
            settings["iterations"],
        )
        settings = {**settings, "rollout": rollout, "exploration": exploration, "value": value}
        temperature = policy_temperature(
            state, model, settings.pop("policy_temperature"), settings["time"], settings["iterations"]
        )
        del settings["model"]
        if model == MODEL_NONE:
            return settings
        from tessera.search.value_model import model_for_position

        settings = {**settings, "model": model, "model_hash": model_for_position(model, state)[1]}
        if temperature is not None:
            settings["policy_temperature"] = temperature
        return settings
    from tessera.search.alphabeta import search_mode

    return {**settings, "mode": search_mode(state)}


def searcher_class(state: "np.ndarray") -> "type[Mcts] | type[Ismcts]":
    """What searches ``state``: ``Mcts``, which keeps its tree for the next search, on a
    complete position; ``Ismcts`` (information-set MCTS) on a player's view."""
    from tessera.kernels import games

    if games.is_complete(state):
        from tessera.search.mcts import Mcts

        return Mcts
    from tessera.search.ismcts import Ismcts

    return Ismcts


def searcher_for(options: "MctsOptions", state: "np.ndarray") -> "Mcts | Ismcts":
    """A searcher (``searcher_class``) for ``state`` with ``MctsOptions`` ``options``;
    OptionError for options out of range."""
    return searcher_class(state)(options)


def run_search(
    state: "np.ndarray", request: SearchRequest, progress: Progress | None = None
) -> tuple[SearchResult, dict[str, Any]]:
    """(``SearchResult``, the document's settings) of ``request`` on ``state``.

    ``progress`` is called as the search goes: MCTS ``(done, total, seconds)`` per batch,
    alpha-beta and solve ``(depth, nodes, seconds)`` per iteration."""
    request.check_algo()
    if request.algo == MCTS:
        result = searcher_for(request.mcts_options(), state).search(state, progress)
    elif request.algo == SOLVE:
        from tessera.search.alphabeta import solve

        result = solve(state, time_limit=request.time, progress=progress)
    else:
        from tessera.search.alphabeta import search_alphabeta

        result = search_alphabeta(state, depth=request.depth, time_limit=request.time, progress=progress)
    return result, for_position(request.settings(), request.algo, state)


def least_memory_mb() -> int:
    """The fewest whole MB the tree of a one-thread search may have, MCTS or
    information-set MCTS (``MctsOptions.check`` refuses less)."""
    from tessera.search import ismcts, mcts

    node_bytes = max(mcts.kernel.NODE_BYTES, ismcts.kernel.NODE_BYTES)
    return -(-mcts.MIN_NODES * node_bytes // mcts.MB)
