"""N games stepped by one numba call, in the manner of a Gymnasium vector environment
(docs/rl.md): ``TesseraVectorEnv("azul", 1024, seed=7).step(actions)``.

The kernels are ``tessera.kernels.vecenv``'s instance for the game. Observations are those of the
player to act; ``info["action_mask"]`` marks the legal action ids; a finished game starts
again at once from a new seeded deal (Gymnasium's same-step autoreset, without the final
observation).
"""

import threading
import weakref
from typing import TYPE_CHECKING

import numpy as np

from tessera.errors import OptionError, require_extra
from tessera.games import get_game
from tessera.games.base import check_seed
from tessera.rl.encoding import Encoding

# The 'rl' extra's Gymnasium: the environment is its VectorEnv.
if TYPE_CHECKING:  # the same module, where a type checker finds its classes
    import gymnasium
else:
    gymnasium = require_extra("gymnasium", "rl", "tessera.rl.vector (the batched environment)")

SETUPS_DEALT = 64  # set-ups dealt for a batch (Azure's realms) when no option names one
# Reads of the chunks' ``finished`` marks between looks for a failed chunk server.
SPINS = 1 << 24
# Reads a chunk server makes of its control word, waiting for the next batch, before it
# sleeps (about a millisecond): a loop that steps again within that finds it awake, one
# that computes longer between steps spends that much CPU a step on it.
SERVER_SPINS = 1 << 20


class TesseraVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``game`` with ``options`` (those of ``tessera new``).

    ``threads`` > 1 steps the rows in that many chunks at once, each on a thread of its own
    (the kernels release the GIL; kernels/vecenv.py says why not ``prange``). ``copy=False``
    returns the environment's own arrays, overwritten by the next step (no copying).
    Every game's seed is ``info["game_seed"]``: a game starts as ``starts[seed % K]`` dealt
    by ``make_rng(seed)``, that is ``Position.new(game, seed)`` for Azul and Summer
    Pavilion; Azure's K starts are realms dealt from the env's seed (or the ``layout`` option).
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, game, num_envs, seed=0, threads=1, copy=True, **options):
        from tessera.kernels import bind

        if type(num_envs) is not int or num_envs < 1:
            raise OptionError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if type(threads) is not int or not 1 <= threads <= num_envs:
            raise OptionError(f"threads must be from 1 to num_envs ({num_envs}), not {threads!r}")
        check_seed(seed)  # before Azure's realms are dealt from it
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
            -np.inf, np.inf, (self.encoding.observation_size,), np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.encoding.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(np.full(num_envs, self.encoding.num_actions))
        self._seed = seed
        self._dealt = False
        self._closed = False
        bounds = [num_envs * k // threads for k in range(threads + 1)]
        *served, self._own_chunk = zip(bounds[:-1], bounds[1:])
        self._actions = np.zeros(num_envs, np.int64)
        self._finished = np.zeros(threads, np.int64)  # a chunk's kernel sets its slot last
        # What ``play_chunk`` (and ``serve_chunk``) take after the chunk's rows.
        self._arrays = (
            self._actions,
            self.states,
            self.starts,
            self.seeders,
            self.rngs,
            self.game_seeds,
            self.obs,
            self.masks,
            self.legal,
            self.n_legal,
            self.to_move,
            self.rewards,
            self.reward,
            self.terminated,
        )
        self._servers = _ChunkServers(self.kernels, served, self._finished, self._arrays) if served else None
        if self._servers is not None:
            weakref.finalize(self, self._servers.stop)

    def reset(self, *, seed=None, options=None):
        """Deal every row a new game; rows' game seeds come from ``seed`` (or the env's)."""
        self._check_open()
        if seed is not None:
            check_seed(seed)
            self._seed = seed
        self._dealt = True
        self._play(self.kernels.OP_RESET, self._seed)
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
        self._actions[:] = actions
        self._play(k.OP_STEP)
        out = self._out
        return (out(self.obs), out(self.reward), out(self.terminated), out(self.truncated), self._info())

    def random_actions(self, rngs):
        """A uniformly random legal action id per row, drawn with ``rngs`` (uint64 [num_envs],
        advanced): what a random player does, without leaving numba."""
        if not (isinstance(rngs, np.ndarray) and rngs.dtype == np.uint64 and rngs.shape == (self.num_envs,)):
            # numba would run past a short array, and advance a copy of any other
            raise ValueError(
                f"rngs must be a uint64 array of shape ({self.num_envs},), not "
                f"{getattr(rngs, 'dtype', type(rngs).__name__)} "
                f"{getattr(rngs, 'shape', '')}"
            )
        out = np.empty(self.num_envs, np.int64)
        # one thread: about 10 ns a row, less than handing a chunk to another thread costs
        self.kernels.random_actions_range(0, self.num_envs, self.legal, self.n_legal, rngs, out)
        return out

    def _play(self, op, seed=0):
        """A step (``OP_STEP``, of ``self._actions``) or a reset of every row: the first chunks
        by the chunk servers, the last on this thread, which then waits (``wait_finished``)
        until every chunk has marked ``finished``."""
        k, finished, (lo, hi) = self.kernels, self._finished, self._own_chunk
        finished[:] = 0
        if self._servers is not None:
            self._servers.play(op, seed)
        k.play_chunk(op, seed, lo, hi, finished, finished.size - 1, *self._arrays)
        if self._servers is not None:
            while not k.wait_finished(finished, SPINS):
                self._servers.check()  # a slow chunk is waited for, a failed one raises

    def close(self, **kwargs):
        self._closed = True
        if self._servers is not None:
            self._servers.stop()

    def _check_open(self):
        if self._closed:
            raise gymnasium.error.ClosedEnvironmentError("the environment is closed")

    def positions(self):
        """The games as ``Position`` objects (for looking at them; slow)."""
        from tessera.position import Position

        return [Position.from_state(state) for state in self.states]

    def _out(self, array):
        return array.copy() if self.copy else array

    def _info(self):
        out = self._out
        return {
            "action_mask": out(self.masks),
            "to_move": out(self.to_move),
            "rewards": out(self.rewards),
            "game_seed": out(self.game_seeds),
        }


def _starts(game, seed, options):
    """[K, state words]: the undealt starts new games copy (one but for Azure's realms)."""
    chosen = get_game(game)
    setup = chosen.spec.seeded_setup
    if setup is not None and options.get(setup.option) is None:
        return np.ascontiguousarray(
            chosen.undealt_batch([seed * SETUPS_DEALT + k for k in range(SETUPS_DEALT)], **options), np.int64
        )
    return np.ascontiguousarray(chosen.undealt(0, **options)[None, :], np.int64)


class _ChunkServers:
    """One thread per chunk of rows but the last, each in ``serve_chunk`` while batches come
    (spinning between them, so a step starts on every core at once, with no thread to
    wake: handing each step to a pool thread cost about 40 µs to submit and 50 µs more
    before the thread ran, of a 1 ms step on two cores), asleep when none came for a while.
    Holds no reference to its environment, so one that is collected stops them."""

    def __init__(self, kernels, chunks, finished, arrays):
        self.kernels = kernels
        self.control = np.zeros(kernels.CONTROL_WORDS, np.int64)
        self.batch = 0
        self.woken = threading.Condition()
        self.sleeping = [False] * len(chunks)
        self.errors = []
        self.threads = [
            threading.Thread(
                target=self._serve, args=(k, lo, hi, finished, arrays), name=f"tessera-vecenv-chunk-{k}", daemon=True
            )
            for k, (lo, hi) in enumerate(chunks)
        ]
        for thread in self.threads:
            thread.start()

    def play(self, op, seed):
        """Start batch ``op`` on every server's chunk (``finished`` cleared before)."""
        self.check()
        self.batch += 1
        self.kernels.publish(self.control, self.batch, op, seed)
        if any(self.sleeping):  # read after the batch is out: a server not yet asleep sees it
            with self.woken:
                self.woken.notify_all()

    def check(self):
        if self.errors:
            raise self.errors[0]

    def stop(self):
        if self.batch != self.kernels.STOP:
            self.batch = self.kernels.STOP
            self.kernels.publish(self.control, self.kernels.STOP, 0, 0)
            with self.woken:
                self.woken.notify_all()
            for thread in self.threads:
                thread.join()

    def _serve(self, chunk, lo, hi, finished, arrays):
        k, control, done = self.kernels, self.control, 0
        try:
            while True:
                done = k.serve_chunk(control, done, SERVER_SPINS, lo, hi, finished, chunk, *arrays)
                if done == k.STOP:
                    return
                with self.woken:
                    self.sleeping[chunk] = True
                    while control[k.BATCH] == done:
                        self.woken.wait()
                    self.sleeping[chunk] = False
        except BaseException as error:  # raised in the caller's next step (``check``)
            self.errors.append(error)
