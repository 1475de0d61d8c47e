"""What a search returns: a root summary and one line per root move.

Every search method (MCTS, alpha-beta, solve) fills the same shape, so the CLI,
the agents and the JSON output treat them alike. Values are from the point of
view of the player to move at the root.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

# What a search calls as it goes, if given: MCTS ``(done, total, seconds)`` per batch (total
# None under a time limit alone), alpha-beta and solve ``(depth, nodes, seconds)`` per iteration.
Progress = Callable[[int, int | None, float], object]


def final_margins(scores):
    """Each player's final score less the best final score of the others: the margin of
    every value here, and of a model's training rows."""
    scores = np.asarray(scores, np.float64)
    margins = np.empty_like(scores)
    for p in range(len(scores)):
        margins[p] = scores[p] - np.delete(scores, p).max()
    return margins


@dataclass
class ExactValue:
    """A proven value: the score margin at the horizon, and the result if the game ends there.

    Alpha-beta's "round" mode (Azul, Summer Pavilion): ``margin`` is the root
    player's score minus the best other score; ``horizon`` is ``"game"`` when the
    game ends within the searched line (then ``result`` is ``"win"``, ``"draw"`` or
    ``"loss"`` and ``win_rate`` 1, 0.5 or 0) or ``"round"`` when the value is to the
    end of the current round (``result`` and ``win_rate`` are None).

    Its "game" mode (Azure: the game searched to its end through chance): ``horizon``
    is ``"game"``, ``win_rate`` the proven win probability (a shared win counting
    half), ``margin`` the expected payoff margin ``2 * win_rate - 1``, and ``result``
    ``"win"`` / ``"loss"`` when the win rate is 1 / 0, ``"draw"`` for a certain
    shared win, else None (the outcome depends on chance).
    """

    margin: float
    horizon: str
    result: str | None = None
    win_rate: float | None = None


@dataclass
class MoveLine:
    move: int  # engine move code
    visits: int  # simulations through it (MCTS) or nodes below it (alpha-beta)
    win_rate: float | None  # mean payoff for the root player, 0..1 (None: not estimated)
    margin: float  # mean (MCTS) or searched (alpha-beta) score margin
    lcb: float | None  # lower 95% confidence bound of win_rate
    prior: float | None  # the move heuristic's prior (None when unused)
    pv: list[int] = field(default_factory=list)  # principal variation, starting with ``move``
    exact: ExactValue | None = None


@dataclass
class SearchResult:
    algo: str
    player: int  # root player to move, 0-based
    position_hash: int
    visits: int  # total simulations (MCTS) or nodes (alpha-beta)
    seconds: float
    value: float | None  # root win rate estimate, 0..1
    margin: float  # root score margin estimate
    moves: list[MoveLine]  # best first
    exact: ExactValue | None = None
    depth: int | None = None  # alpha-beta: the deepest completed iteration
    tt_hit_rate: float | None = None
    tree_nodes: int | None = None  # MCTS: nodes in the tree(s)
    tree_bytes: int | None = None  # MCTS: the memory those nodes take
    compactions: int | None = None  # MCTS: times a full tree was compacted (in all threads)
    threads: int = 1
    reused_visits: int = 0  # MCTS: root visits kept from the previous search
    interrupted: bool = False  # stopped early by Ctrl-C (the figures so far)
    mode: str | None = None  # alpha-beta: "round" (score margins) or "game" (win rates)
    compile_seconds: float = 0.0  # numba compiling the kernels before the search's clock

    @property
    def nodes_per_second(self) -> float:
        return self.visits / self.seconds if self.seconds > 0 else 0.0

    @property
    def best(self) -> MoveLine | None:
        return self.moves[0] if self.moves else None
