"""``tessera warmup``: compile every kernel a command may use, per game, into numba's cache.

Kernels compile on first use and numba caches them (``NUMBA_CACHE_DIR``, else beside
the sources). A container image or a cluster worker that runs this once starts every
later command, search and self-play batch from the cache. A game's steps: its rules
(what ``moves``, ``play`` and ``view`` call), perft, MCTS (on any number of
trees), IS-MCTS on players' views (games with hidden information), alpha-beta and
the exact solver, self-play batches of random and greedy agents, the random playouts
``tessera bench`` times and, where the ``rl`` extra is installed, the action and
observation encodings of the RL adapters and the batched environment.
"""

import importlib.util
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import numpy as np

from tessera.games import get_game, registered_games


@dataclass
class Warmed:
    game: str
    compile_seconds: float  # 0 when everything came from the cache
    seconds: float


def steps(game):
    """(description, function) of every step warming ``game`` (a ``Game``)."""
    from tessera.search import alphabeta, ismcts, mcts

    state = game.new(0)
    view = game.view(state, int(game.kernels().to_move(state)))
    listed = [("rules", lambda: _rules(game, state)), ("perft", lambda: _perft(state))]
    for rollout in mcts.ROLLOUTS:  # each rollout has kernels of its own
        listed.append((f"MCTS, {rollout} rollouts", partial(mcts.load_kernels, state, rollout)))
    if not game.kernels().is_complete(view):
        for rollout in ismcts.ROLLOUTS:
            listed.append((f"IS-MCTS, {rollout} rollouts", partial(ismcts.load_kernels, view, rollout)))
    listed += [
        ("alpha-beta and solve", lambda: alphabeta.load_kernels(state)),
        ("self-play batches", lambda: _selfplay(game)),
        ("bench playouts", lambda: _playouts(state)),
    ]
    if importlib.util.find_spec("gymnasium") is not None:  # the 'rl' extra
        listed.append(("RL encodings and batched environment", lambda: _reinforcement_learning(game)))
    return listed


def warm(names, progress=None):
    """Warm each game of ``names`` (every game when empty), in order; a ``Warmed`` each.

    ``progress(description, done, total)`` is called before each step and at the end.
    An unknown name raises OptionError before anything compiles.
    """
    import time

    from tessera.compiletime import compile_clock  # imports numba

    games = [get_game(name) for name in names] or [registered_games()[name] for name in sorted(registered_games())]
    plans = [(game, steps(game)) for game in games]
    total = sum(len(listed) for _, listed in plans)
    done, warmed = 0, []
    for game, listed in plans:
        started = time.perf_counter()
        with compile_clock() as compiling:
            for description, step in listed:
                if progress is not None:
                    progress(f"{game.name}: {description}", done, total)
                step()
                done += 1
        warmed.append(Warmed(game.name, compiling.seconds, time.perf_counter() - started))
    if progress is not None:
        progress("done", done, total)
    return warmed


def _rules(game, state):
    """Each function of the game interface once, on its start and a refill."""
    from tessera.kernels.rng import make_rng

    rules = game.kernels()
    moves = np.empty(rules.MAX_MOVES, np.int64)
    probabilities = np.empty(rules.MAX_MOVES, np.float64)
    undealt = game.undealt(0)
    rules.chance_outcomes(undealt, moves, probabilities)
    rules.sample_chance(undealt, make_rng(0))
    count = rules.legal_moves(state, moves)
    rules.random_move(state, make_rng(0), moves)
    rules.move_heuristic(state, moves[0])
    child = state.copy()
    rules.apply_move(child, moves[count - 1])
    seats = rules.players(state)
    rules.scores(child, np.zeros(seats, np.int64))
    rules.payoffs(child, np.zeros(seats, np.float64))
    rules.evaluate(child, np.zeros(seats, np.float64))
    rules.position_hash(child)
    view = np.empty_like(state)
    rules.view(state, 0, view)
    rules.is_complete(view)
    rules.determinize(view, 0, make_rng(0), child)


def _perft(state):
    from tessera.kernels import bind

    kernels = bind.instance(state[0], "perft")
    bind.ready(kernels.perft, state, 1)
    bind.ready(kernels.perft_divide, state, 1, np.zeros(1, np.int64))


def _selfplay(game):
    """The batched kernels of random and greedy agents, dealing and playing (``chunk.warm_up``)."""
    from tessera.selfplay.chunk import warm_up
    from tessera.selfplay.plan import make_plan

    warm_up(make_plan(game, {}, ["random", "greedy"], 1, 0))


def _playouts(state):
    """The random games ``tessera bench`` plays from a position."""
    from tessera.kernels import bind

    bind.instance(state[0], "playout").playouts(state, 0, 1, np.zeros((1, 4), np.int64))


def _reinforcement_learning(game):
    """The encodings of the RL adapters on a dealt start, and the batched environment's
    kernels: a reset and a step of random actions, on two threads."""
    from tessera.rl.encoding import Encoding
    from tessera.rl.vector import TesseraVectorEnv

    encoding = Encoding(game.name)
    state = game.new(0)
    moves = np.empty(game.kernels().MAX_MOVES, np.int64)
    count = game.kernels().legal_moves(state, moves)
    encoding.move_of_action(state, encoding.action_of_move(state, int(moves[count - 1])))
    encoding.observation(state, 0)
    env = TesseraVectorEnv(game.name, 2, threads=2)
    try:
        env.reset(seed=0)
        env.step(env.random_actions(np.arange(2, dtype=np.uint64)))
    finally:
        env.close()


def compiled_ahead():
    """Whether the kernels load from those the package ships compiled here
    (``tessera.kernels.prebuilt``: a second or two), rather than compile (minutes)."""
    from tessera.kernels import prebuilt

    return prebuilt.usable_build() is not None


@contextmanager
def scipy_hidden():
    """Keep numba from importing scipy while a command runs.

    On its first compile or cache load numba imports scipy only to see whether BLAS
    is there (about 0.6 s, a third of a warm start); the kernels use no linear
    algebra. scipy is importable again afterwards. One of the patches
    ``tessera.kernels.patches`` lists: where they are off, numba imports scipy.
    """
    from tessera.kernels import patches

    if "scipy" in sys.modules or not patches.interpreter_patches():
        yield
        return
    sys.modules["scipy"] = None  # makes `import scipy...` raise ImportError
    try:
        yield
    finally:
        if "scipy" in sys.modules and sys.modules["scipy"] is None:
            del sys.modules["scipy"]


def load_shared_kernels(until=lambda: False):
    """Load from numba's cache, or compile, the kernels every search shares, stopping early
    once ``until()`` is true (a command reading its position from a pipe does this while
    the writer still runs)."""
    from tessera.kernels.shared import prepare

    prepare(until=until)
