"""Alpha-beta search and exact solving (docs/search-alphabeta.md).

``search_alphabeta`` deepens one ply at a time until every root move is proven,
the depth limit is reached or time runs out. ``solve`` searches to the horizon at
once and reports the proven value as ``exact``. Both return a ``SearchResult``
with a line for every legal root move, best first.

Two modes (``MODES``): ``"round"`` searches to the end of the round and values
score margins (Azul, Summer Pavilion); ``"game"`` searches to the end of the game
through chance (expectimax) and values win probabilities (Azure). ``mode=None``
takes the game's mode from ``GAME_MODES``.
"""

import math
import time

import numpy as np

from tessera.compiletime import compile_clock
from tessera.errors import OptionError, TesseraError
from tessera.kernels import bind
from tessera.kernels.constants import AZURE, CHANCE, TERMINAL
from tessera.kernels.search import alphabeta_layout as kernel  # the layout and limits; the kernels per game: bind
from tessera.kernels.search import ttable
from tessera.search.loading import kernel_loader
from tessera.search.result import ExactValue, MoveLine, Progress, SearchResult

MAX_PLY = 128  # the longest line searched; a longer one is cut off as at the depth limit
WIN_RATE = {"win": 1.0, "draw": 0.5, "loss": 0.0}

MODES = {"round": kernel.MODE_ROUND, "game": kernel.MODE_GAME}
# The one place where a game's mode is chosen: game id (word 0 of a state) -> mode.
# A game not listed searches to the end of the round.
GAME_MODES = {AZURE: "game"}


def search_kernels(state):
    """``(kernel, args)`` of the kernels an alpha-beta search or a solve of ``state`` calls,
    in the order it loads them: the search and the principal variations."""
    kernels, max_moves = bind.instance(state[0], "alphabeta"), bind.interface(state[0]).MAX_MOVES
    work, table, counters = kernels.new_work(state, 1), ttable.new_table(1), kernel.new_counters()
    limits = kernel.new_limits()
    return [
        (
            kernels.search_root,
            (
                state,
                1,
                work,
                table,
                counters,
                limits,
                np.zeros(max_moves, np.float64),
                np.zeros(max_moves, np.int64),
                np.zeros(max_moves, np.bool_),
            ),
        ),
        (
            kernels.principal_variation,
            (state, 0.0, 1, 1, 1, work, table, counters, limits, np.empty(MAX_PLY, np.int64)),
        ),
    ]


def helper_kernels(state):
    """What a second process compiles while a search compiles ``search_root``
    (``tessera.parallel_compile``): the principal variations, about a fifth of the compile
    and, through the kernels they share with the search, whichever the search has not begun."""
    return search_kernels(np.asarray(state, np.int64))[1:]  # a list: the helper has it from JSON


load_kernels = kernel_loader(search_kernels, helper_kernels)


def search_mode(state: np.ndarray, mode: str | None = None) -> str:
    """``"round"`` or ``"game"``: ``mode`` if given, else the mode of the game of ``state``."""
    if mode is None:
        return GAME_MODES.get(int(state[0]), "round")
    if mode not in MODES:
        raise OptionError(f"unknown search mode '{mode}' (known: {', '.join(MODES)})")
    return mode


def search_alphabeta(
    state: np.ndarray,
    depth: int | None = None,
    time_limit: float | None = None,
    tt_bits: int = 22,
    progress: Progress | None = None,
    node_limit: int | None = None,
    mode: str | None = None,
) -> SearchResult:
    """Iterative deepening alpha-beta; ``depth=None`` searches until proven or out of time.

    ``progress(depth, nodes, seconds)`` is called after each completed iteration.
    The first iteration (depth 1) always completes, whatever the limits. ``mode``:
    ``"round"``, ``"game"`` or None (the game's, ``search_mode``).
    """
    if depth is not None and depth < 1:
        raise OptionError(f"depth must be at least 1, not {depth}")
    search = _Search(state, time_limit, tt_bits, node_limit, progress, mode)
    for d in range(1, min(depth or MAX_PLY, MAX_PLY) + 1):
        if not search.iterate(d) or search.proven:
            break
    return search.result("alphabeta")


def solve(
    state: np.ndarray,
    time_limit: float | None = None,
    tt_bits: int = 22,
    progress: Progress | None = None,
    node_limit: int | None = None,
    mode: str | None = None,
) -> SearchResult:
    """The proven value of ``state`` to the end of the round or game, in ``result.exact``.

    After a depth-1 pass (the answer if the limits run out, with ``exact`` None) the
    search goes straight to the horizon: deepening step by step took twice the nodes
    on the bench's final rounds, whose lines nearly all run to the end of the round.
    ``result.depth`` is then the deepest ply the proof reached. ``mode`` as for
    ``search_alphabeta``; in ``"game"`` mode the value is the win probability.
    """
    search = _Search(state, time_limit, tt_bits, node_limit, progress, mode)
    search.iterate(1)
    if not search.proven:
        search.iterate(kernel.UNLIMITED)
    return search.result("solve")


class _Search:
    """The table, scratch and counters shared by the iterations on one root position."""

    def __init__(self, state, time_limit, tt_bits, node_limit, progress, mode):
        self.mode = search_mode(state, mode)
        self.rules = bind.interface(state[0])
        self.kernels = bind.instance(state[0], "alphabeta")
        self.root = self.rules.to_move(state)
        if self.root < 0:
            raise TesseraError("alpha-beta needs a position with a player to move (not a refill or a finished game)")
        if not self.rules.is_complete(state):
            raise TesseraError("alpha-beta needs a complete position, not a player's view with hidden parts")
        self.state = state
        self.progress = progress
        self.table = ttable.new_table(tt_bits)
        self.work = self.kernels.new_work(state, MAX_PLY)
        self.counters = kernel.new_counters()
        self.nodes_so_far = np.zeros(self.rules.MAX_MOVES, np.int64)
        self.done = None  # the last completed iteration
        with compile_clock() as compiling:  # before the clock: it times the search alone
            load_kernels(state)
        self.compile_seconds = compiling.seconds
        self.start = time.perf_counter()
        deadline = self.start + time_limit if time_limit is not None else math.inf
        self.limits = self._limits(deadline, math.inf if node_limit is None else node_limit)

    def _limits(self, deadline=math.inf, node_limit=math.inf):
        return kernel.new_limits(deadline, node_limit, MODES[self.mode])

    @property
    def proven(self):
        return bool(self.done.proven[: self.done.count].all())

    def iterate(self, depth):
        """One search of every root move to ``depth``; False when the limits cut it short."""
        iteration = _Iteration(depth, self.rules.MAX_MOVES)
        first = self.done is None
        n = self.kernels.search_root(
            self.state,
            depth,
            self.work,
            self.table,
            self.counters,
            self._limits() if first else self.limits,
            iteration.values,
            iteration.nodes,
            iteration.proven,
        )
        if self.counters[kernel.ABORTED]:
            return False
        iteration.count = n
        iteration.depth = min(depth, int(self.counters[kernel.DEEPEST]) + 1)
        self.nodes_so_far += iteration.nodes
        iteration.nodes[:] = self.nodes_so_far
        self.done = iteration
        if self.progress is not None:
            self.progress(iteration.depth, int(self.counters[kernel.NODES]), self.elapsed())
        return True

    def elapsed(self):
        return time.perf_counter() - self.start

    def result(self, algo):
        lines = self._move_lines()
        best = lines[0]
        return SearchResult(
            algo=algo,
            player=int(self.root),
            position_hash=int(self.rules.position_hash(self.state)),
            visits=int(self.counters[kernel.NODES]),
            seconds=self.elapsed(),
            value=best.win_rate,
            margin=best.margin,
            moves=lines,
            exact=best.exact if self.proven else None,
            depth=self.done.depth,
            tt_hit_rate=ttable.hit_rate(self.table),
            mode=self.mode,
            compile_seconds=self.compile_seconds,
        )

    def _move_lines(self):
        """A MoveLine per root move, best first; moves reaching one position share a PV."""
        moves = np.empty(self.rules.MAX_MOVES, np.int64)
        n = self.rules.legal_moves(self.state, moves)
        below = {}
        ranked = []
        for i in range(n):
            child = self.state.copy()
            self.rules.apply_move(child, moves[i])
            value, proven = float(self.done.values[i]), bool(self.done.proven[i])
            key = self.rules.position_hash(child)
            if key not in below:
                below[key] = self._principal_variation(child, value, proven)
            make_line = _game_move_line if self.mode == "game" else _move_line
            line = make_line(
                self.rules, self.state, [int(moves[i])] + below[key], value, proven, int(self.done.nodes[i])
            )
            ranked.append((-value, i, line))
        ranked.sort(key=lambda entry: entry[:2])  # equal values keep the engine's order
        return [line for _, _, line in ranked]

    def _principal_variation(self, child, value, proven):
        """The moves below a root move that keep its value (proven lines ignore the limits)."""
        pv = np.empty(MAX_PLY, np.int64)
        self.counters[kernel.ABORTED] = 0
        limits = self._limits() if proven else self.limits
        length = self.kernels.principal_variation(
            child, value, self.done.search_depth - 1, 1, self.root, self.work, self.table, self.counters, limits, pv
        )
        self.counters[kernel.ABORTED] = 0
        return [int(m) for m in pv[:length]]


class _Iteration:
    """One completed iteration's figures per root move (in engine move order).

    ``search_depth`` is the depth limit; ``depth`` the deepest ply reached (at most
    the limit). ``nodes`` counts the move's subtree over this and all earlier
    iterations.
    """

    def __init__(self, depth, max_moves):
        self.search_depth = depth
        self.depth = depth
        self.count = 0
        self.values = np.zeros(max_moves, np.float64)
        self.nodes = np.zeros(max_moves, np.int64)
        self.proven = np.zeros(max_moves, np.bool_)


def _move_line(rules, state, pv, value, proven, nodes):
    horizon = _horizon(rules, state, pv)
    if horizon == "game":
        margin = float(round(value / kernel.SCALE))  # the tie-break step rounds away
    else:
        margin = value / kernel.SCALE
    exact = None
    if proven and horizon is not None:
        result = None
        if horizon == "game":
            result = "win" if value > 0 else "draw" if value == 0 else "loss"
        exact = ExactValue(margin=margin, horizon=horizon, result=result)
    win_rate = WIN_RATE[exact.result] if exact is not None and exact.result else None
    if exact is not None:
        exact.win_rate = win_rate
    return MoveLine(
        move=pv[0], visits=nodes, win_rate=win_rate, margin=margin, lcb=None, prior=None, pv=pv, exact=exact
    )


def _game_move_line(rules, state, pv, value, proven, nodes):
    """A move line of the "game" mode: ``value`` is the root player's win probability.

    ``win_rate`` is the value (an estimate when not proven; rounded to 12 decimals,
    which drops the floating-point noise of the means); ``margin`` maps it to the
    expected payoff margin 2 p - 1 (+1 a certain win, -1 a certain loss). A
    proven value has horizon "game" and a result when it is certain: "win" at 1,
    "loss" at 0, and "draw" at 0.5 when the line ends in a shared win with no
    chance step on the way (a 0.5 through chance is an even chance, no result).
    """
    value = round(min(1.0, max(0.0, value)), 12)  # 0.9, not 0.9000000000000001
    result = None
    if proven:
        for name, rate in WIN_RATE.items():
            if abs(value - rate) <= kernel.TOLERANCE:
                value, result = rate, name
        if result == "draw" and _horizon(rules, state, pv) != "game":
            result = None
    margin = round(2 * value - 1, 12)
    exact = ExactValue(margin=margin, horizon="game", result=result, win_rate=value) if proven else None
    return MoveLine(move=pv[0], visits=nodes, win_rate=value, margin=margin, lcb=None, prior=None, pv=pv, exact=exact)


def _horizon(rules, state, pv):
    """ "game" or "round" when the line ends where the game is over or chance acts, else None."""
    end = state.copy()
    for move in pv:
        rules.apply_move(end, move)
    who = rules.to_move(end)
    if who == TERMINAL:
        return "game"
    if who == CHANCE:
        return "round"
    return None
