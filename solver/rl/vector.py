"""N games stepped by one numba call, in the manner of a Gymnasium vector environment
(docs/rl.md): ``TesseraVectorEnv("azul", 1024, seed=7).step(actions)``.

The kernels are ``kernels.vecenv``'s instance for the game. Observations are those of the
player to act; ``info["action_mask"]`` marks the legal action ids; a finished game starts
again at once from a new seeded deal (Gymnasium's same-step autoreset, without the final
observation).
"""
from concurrent.futures import ThreadPoolExecutor

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from solver.errors import OptionError
from solver.games import get_game
from solver.games.base import check_seed
from solver.rl.encoding import Encoding

AZURE_LAYOUTS = 64      # Azure realms dealt for a batch when no layout is given
# Reads of the chunks' ``finished`` marks before waiting for their threads instead (a
# fraction of a second): a chunk a little late is caught spinning, one that failed is not
# waited for forever.
SPINS = 1 << 26


class TesseraVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``game`` with ``options`` (those of ``tessera new``).

    ``threads`` > 1 steps the rows in that many chunks at once, each on a thread of its own
    (the kernels release the GIL; kernels/vecenv.py says why not ``prange``). ``copy=False``
    returns the environment's own arrays, overwritten by the next step (no copying).
    Every game's seed is ``info["game_seed"]``: a game starts as ``starts[seed % K]`` dealt
    by ``make_rng(seed)``, that is ``Position.new(game, seed)`` for Azul and Summer
    Pavilion; Azure's K starts are realms dealt from the env's seed (or the ``layout`` option).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game, num_envs, seed=0, threads=1, copy=True, **options):
        from kernels import bind
        if type(num_envs) is not int or num_envs < 1:
            raise OptionError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if type(threads) is not int or not 1 <= threads <= num_envs:
            raise OptionError(f"threads must be from 1 to num_envs ({num_envs}), not {threads!r}")
        check_seed(seed)                # before Azure's realms are dealt from it
        self.encoding = Encoding(game, **options)
        self.kernels = bind.instance(game, "vecenv")
        self.num_envs, self.threads, self.copy = num_envs, threads, copy
        self.players = self.encoding.players
        self.starts = _starts(game, seed, options)
        size = self.starts.shape[1]
        self.states = np.zeros((num_envs, size), np.int64)
        self.seeders = np.zeros(num_envs, np.uint64)
        self.rngs = np.zeros(num_envs, np.uint64)
        self.game_seeds = np.zeros(num_envs, np.int64)
        self.obs = np.zeros((num_envs, self.encoding.observation_size), np.float32)
        self.masks = np.zeros((num_envs, self.encoding.num_actions), np.int8)
        self.legal = np.zeros((num_envs, self.kernels.games.MAX_MOVES), np.int16)
        self.n_legal = np.zeros(num_envs, np.int64)
        self.to_move = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, self.players), np.float32)
        self.reward = np.zeros(num_envs, np.float32)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.truncated = np.zeros(num_envs, np.bool_)
        self.single_observation_space = gymnasium.spaces.Box(
            -np.inf, np.inf, (self.encoding.observation_size,), np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(self.encoding.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(
            np.full(num_envs, self.encoding.num_actions))
        self._seed = seed
        self._dealt = False
        self._closed = False
        bounds = [num_envs * k // threads for k in range(threads + 1)]
        self._chunks = list(zip(bounds[:-1], bounds[1:]))
        self._pool = ThreadPoolExecutor(threads - 1) if threads > 1 else None
        self._finished = np.zeros(threads, np.int64)    # a chunk's kernel sets its slot last
        self._returning = []                            # the pool's calls of the last chunked step

    def reset(self, *, seed=None, options=None):
        """Deal every row a new game; rows' game seeds come from ``seed`` (or the env's)."""
        self._check_open()
        if seed is not None:
            check_seed(seed)
            self._seed = seed
        self._dealt = True
        self._by_chunks(self.kernels.reset_range, self._seed, self.states, self.starts, self.seeders,
                        self.rngs, self.game_seeds, self.obs, self.masks, self.legal, self.n_legal,
                        self.to_move)
        self.rewards[:] = 0
        self.reward[:] = 0
        self.terminated[:] = False
        return self._out(self.obs), self._info()

    def step(self, actions):
        """Play ``actions[i]`` (an action id) in game ``i``; ValueError if one is not legal there."""
        self._check_open()
        if not self._dealt:
            raise RuntimeError("call reset() before step()")
        actions = np.ascontiguousarray(actions, np.int64)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"need {self.num_envs} actions, got shape {actions.shape}")
        k = self.kernels
        bad = k.first_illegal(actions, self.masks)
        if bad >= 0:
            raise ValueError(f"action {actions[bad]} is not legal in game {bad}")
        self._by_chunks(k.step_range, actions, self.states, self.starts, self.seeders, self.rngs,
                        self.game_seeds, self.obs, self.masks, self.legal, self.n_legal, self.to_move,
                        self.rewards, self.reward, self.terminated)
        out = self._out
        return (out(self.obs), out(self.reward), out(self.terminated), out(self.truncated),
                self._info())

    def random_actions(self, rngs):
        """A uniformly random legal action id per row, drawn with ``rngs`` (uint64 [num_envs],
        advanced): what a random player does, without leaving numba."""
        if not (isinstance(rngs, np.ndarray) and rngs.dtype == np.uint64
                and rngs.shape == (self.num_envs,)):
            # numba would run past a short array, and advance a copy of any other
            raise ValueError(f"rngs must be a uint64 array of shape ({self.num_envs},), not "
                             f"{getattr(rngs, 'dtype', type(rngs).__name__)} "
                             f"{getattr(rngs, 'shape', '')}")
        out = np.empty(self.num_envs, np.int64)
        # one thread: about 10 ns a row, less than handing a chunk to another thread costs
        self.kernels.random_actions_range(0, self.num_envs, self.legal, self.n_legal, rngs, out)
        return out

    def _by_chunks(self, kernel, *arrays):
        """``kernel(lo, hi, finished, chunk, *arrays)`` for each chunk of rows: the first ones
        on the pool's threads, the last on this one, which then waits (``wait_finished``)
        until every chunk has marked ``finished``. The pool's calls may still be returning
        to Python: their results are checked before the next call hands them work."""
        for job in self._returning:
            job.result()
        finished = self._finished
        finished[:] = 0
        *others, (lo, hi) = self._chunks
        self._returning = [self._pool.submit(kernel, a, b, finished, k, *arrays)
                           for k, (a, b) in enumerate(others)]
        kernel(lo, hi, finished, len(others), *arrays)
        if others and not self.kernels.wait_finished(finished, SPINS):
            for job in self._returning:         # slow, or failed: its error is raised here
                job.result()

    def close(self, **kwargs):
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _check_open(self):
        if self._closed:
            raise gymnasium.error.ClosedEnvironmentError("the environment is closed")

    def positions(self):
        """The games as ``Position`` objects (for looking at them; slow)."""
        from solver.position import Position
        return [Position.from_state(state) for state in self.states]

    def _out(self, array):
        return array.copy() if self.copy else array

    def _info(self):
        out = self._out
        return {"action_mask": out(self.masks), "to_move": out(self.to_move),
                "rewards": out(self.rewards), "game_seed": out(self.game_seeds)}


def _starts(game, seed, options):
    """[K, state words]: the undealt starts new games copy (one but for Azure's realms)."""
    chosen = get_game(game)
    if game == "azure" and options.get("layout") is None:
        return np.ascontiguousarray(chosen.undealt_batch(
            [seed * AZURE_LAYOUTS + k for k in range(AZURE_LAYOUTS)], **options), np.int64)
    return np.ascontiguousarray(chosen.undealt(0, **options)[None, :], np.int64)
