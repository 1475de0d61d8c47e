"""What every player is: an ``Agent`` chooses a move for whoever acts in a state and may
follow the game; its ``Decision`` carries the move, the search result behind it and the
time it took. The players themselves: ``tessera.agents`` (built from specs) and
``tessera.external`` (a function of your own)."""

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tessera.search.result import SearchResult

if TYPE_CHECKING:
    import numpy as np


@dataclass
class Decision:
    """A move, the search result that chose it (None for an agent that does not search)
    and the seconds the choice took."""

    move: int
    result: SearchResult | None = None
    seconds: float = 0.0


class Agent:
    """A player: ``choose`` a move for whoever acts in ``state``; ``observe`` every move played.

    ``choose`` must not change ``state``. ``observe`` is called for each move of the
    game, the agent's own included, so an agent can follow the game (tree reuse).
    Give each seat its own agent object.
    """

    name = ""
    last_result: SearchResult | None = None  # a searching agent's result of its last ``choose``

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def choose(self, state: "np.ndarray") -> int:
        raise NotImplementedError

    def decide(self, state: "np.ndarray") -> Decision:
        """``choose``, with the search result and the time it took: a ``Decision``."""
        started = time.perf_counter()
        self.last_result = None
        move = self.choose(state)
        return Decision(int(move), self.last_result, time.perf_counter() - started)

    def search_settings(self, state: "np.ndarray") -> dict[str, Any] | None:
        """What this agent's search resolves to in ``state``'s game where its spec leaves it
        to the game (a self-play run records it: docs/selfplay.md); None for an agent that
        does not search with such defaults."""
        return None

    def observe(self, move: int) -> None:
        """Nothing to follow by default."""
