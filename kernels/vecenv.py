"""A batch of games stepped together for learning programs: one call plays one action in
each of N games and writes every game's observation, legal-action mask, rewards and
whether it ended (``tessera.rl.vector`` is the Python face; docs/rl.md).

A template (``tessera.kernels.bind``): each game runs its own instance, ``bind.instance(game,
"vecenv")``, where ``games`` is that game's interface and ``encoding`` its action ids and
observations (``kernels.<game>.encoding``).

Arrays, for N games of one game and option set (row ``i`` is game ``i``):
- ``states`` [N, state words]: the complete positions, always with a player to act;
- ``starts`` [K, state words]: undealt starts; a new game copies ``starts[seed % K]``
  and resolves its chance with ``make_rng(seed)`` (``Game.new``), later chance events
  continuing that generator (``rngs[i]``);
- ``seeders`` [N]: each row's generator of game seeds, ``game_seeds`` [N] the seed of
  the game a row plays now;
- outputs: ``obs`` [N, observation size] float32, the view of the player to act;
  ``masks`` [N, actions] int8, 1 for the legal action ids; ``legal`` [N, MAX_MOVES] int16
  the first ``n_legal[i]`` entries of row ``i`` the same ids as a list; ``to_move`` [N] the player
  to act; ``rewards`` [N, players] float32, at the end of a game ``players * payoff - 1``
  (winners share the payoff 1, so the rewards sum to 0), else 0; ``reward`` [N] the
  reward of the player who made row ``i``'s action; ``terminated`` [N].

A game that ends restarts at once from a new deal: the observation and mask written
for it are the new game's, the rewards and ``terminated`` the finished one's.

Each kernel works on the rows ``lo`` to ``hi`` with the GIL released, so several Python
threads step disjoint row ranges at once (``tessera.rl.vector``'s ``threads``): numba's
``prange`` under its OpenMP layer spin-waits at every call's end, which on a shared
machine made two threads 14 times slower than one (``bench/rl_speed.py``, this machine).
A range kernel marks ``finished[chunk]`` as its last act, still without the GIL, and the
calling thread waits for the other chunks in ``wait_finished``: waiting for the other
thread's return to Python instead cost a wake-up (about 95 µs of a 1.5 ms step).
"""

import numpy as np

from tessera.kernels.arrays import copy_into
from tessera.kernels.atomics import load_acquire, store_release
from tessera.kernels.bind import game_module, kernel, template_games
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import below, mix64, next_u64, reseed

games = template_games(__name__)
encoding = game_module(__name__, "encoding")
view_of = games.view  # numba takes ``games.view(...)`` for ndarray.view


@kernel
def deal(state, starts, seeder, rng):
    """A new game in ``state`` with the next seed of ``seeder``; returns that seed."""
    seed = np.int64(next_u64(seeder) >> np.uint64(1))
    copy_into(state, starts[seed % starts.shape[0]])
    reseed(rng, seed)
    games.resolve_chance(state, rng)
    return seed


@kernel(inline="always")
def write_outputs(state, obs, mask, legal, moves, seen):
    """The observation of whoever acts in ``state``, the legal action ids as a mask and as
    a list (``legal``, in the game's move order); returns that player and the list's length.

    Inlined: as a call, its six array arguments cost a reference count up and down each
    (atomic) per step, about 35 ns of 550."""
    who = games.to_move(state)
    if encoding.HIDDEN:
        view_of(state, who, seen)
        encoding.observe(seen, who, obs)
    else:
        encoding.observe(state, who, obs)
    for a in range(mask.shape[0]):
        mask[a] = 0
    n = games.legal_moves(state, moves)
    for j in range(n):
        action = encoding.action_of_move(state, moves[j])
        mask[action] = 1
        legal[j] = action
    return who, n


@kernel(nogil=True)
def reset_range(
    lo, hi, finished, chunk, seed, states, starts, seeders, rngs, game_seeds, obs, masks, legal, n_legal, to_move
):
    """Rows ``lo`` to ``hi``: seed row ``i``'s seeder from ``(seed, i)`` and deal its first game;
    then ``finished[chunk]`` is 1."""
    moves = np.empty(games.MAX_MOVES, np.int64)
    seen = np.empty(states.shape[1], np.int64)
    for i in range(lo, hi):
        seeders[i] = mix64(mix64(np.uint64(seed)) + np.uint64(i))
        game_seeds[i] = deal(states[i], starts, seeders[i : i + 1], rngs[i : i + 1])
        to_move[i], n_legal[i] = write_outputs(states[i], obs[i], masks[i], legal[i], moves, seen)
    store_release(finished, chunk, 1)


@kernel(nogil=True)
def step_range(
    lo,
    hi,
    finished,
    chunk,
    actions,
    states,
    starts,
    seeders,
    rngs,
    game_seeds,
    obs,
    masks,
    legal,
    n_legal,
    to_move,
    rewards,
    reward,
    terminated,
):
    """Rows ``lo`` to ``hi``: play ``actions[i]`` in game ``i`` (legal: checked by ``first_illegal``);
    then ``finished[chunk]`` is 1."""
    moves = np.empty(games.MAX_MOVES, np.int64)
    seen = np.empty(states.shape[1], np.int64)
    payoffs = np.empty(rewards.shape[1], np.float64)
    players = rewards.shape[1]
    for i in range(lo, hi):
        state = states[i]
        mover = to_move[i]
        games.apply_move(state, encoding.move_of_action(state, actions[i]))
        if games.to_move(state) == CHANCE:
            games.resolve_chance(state, rngs[i : i + 1])
        if games.to_move(state) == TERMINAL:
            games.payoffs(state, payoffs)
            for p in range(players):
                rewards[i, p] = players * payoffs[p] - 1.0
            terminated[i] = True
            game_seeds[i] = deal(state, starts, seeders[i : i + 1], rngs[i : i + 1])
        else:
            for p in range(players):
                rewards[i, p] = 0.0
            terminated[i] = False
        reward[i] = rewards[i, mover]
        to_move[i], n_legal[i] = write_outputs(state, obs[i], masks[i], legal[i], moves, seen)
    store_release(finished, chunk, 1)


# control[word]: what the main thread asks of the chunk servers (``serve_chunk``)
BATCH = 0  # the batch's sequence number: a new value is a new batch to play
OP = 1  # OP_STEP or OP_RESET
SEED = 2  # OP_RESET's seed
CONTROL_WORDS = 3
OP_STEP = 0
OP_RESET = 1
STOP = -1  # BATCH: the servers return


@kernel
def publish(control, batch, op, seed):
    """Hand the servers batch number ``batch`` (``STOP``: stop them): the arguments are
    written before the number, which a server reads first (``load_acquire``)."""
    control[OP] = op
    control[SEED] = seed
    store_release(control, BATCH, batch)


@kernel(nogil=True)
def play_chunk(
    op,
    seed,
    lo,
    hi,
    finished,
    chunk,
    actions,
    states,
    starts,
    seeders,
    rngs,
    game_seeds,
    obs,
    masks,
    legal,
    n_legal,
    to_move,
    rewards,
    reward,
    terminated,
):
    """Rows ``lo`` to ``hi`` of a batch: ``OP_STEP`` (``step_range`` of ``actions``) or
    ``OP_RESET`` (``reset_range`` with ``seed``); then ``finished[chunk]`` is 1."""
    if op == OP_RESET:
        reset_range(
            lo,
            hi,
            finished,
            chunk,
            seed,
            states,
            starts,
            seeders,
            rngs,
            game_seeds,
            obs,
            masks,
            legal,
            n_legal,
            to_move,
        )
    else:
        step_range(
            lo,
            hi,
            finished,
            chunk,
            actions,
            states,
            starts,
            seeders,
            rngs,
            game_seeds,
            obs,
            masks,
            legal,
            n_legal,
            to_move,
            rewards,
            reward,
            terminated,
        )


@kernel(nogil=True)
def serve_chunk(
    control,
    done,
    spins,
    lo,
    hi,
    finished,
    chunk,
    actions,
    states,
    starts,
    seeders,
    rngs,
    game_seeds,
    obs,
    masks,
    legal,
    n_legal,
    to_move,
    rewards,
    reward,
    terminated,
):
    """A chunk server's loop, on a thread of its own: plays rows ``lo`` to ``hi`` of every batch
    after ``done`` (``publish``, ``play_chunk``). Spinning, it starts a batch within a
    fraction of a microsecond; it returns the last batch played when ``spins`` reads pass
    without a new one (its thread then sleeps until woken), or ``STOP``."""
    left = spins
    while True:
        batch = load_acquire(control, BATCH)
        if batch == STOP:
            return STOP
        if batch == done:
            left -= 1
            if left <= 0:
                return done
            continue
        play_chunk(
            control[OP],
            control[SEED],
            lo,
            hi,
            finished,
            chunk,
            actions,
            states,
            starts,
            seeders,
            rngs,
            game_seeds,
            obs,
            masks,
            legal,
            n_legal,
            to_move,
            rewards,
            reward,
            terminated,
        )
        done = batch
        left = spins


@kernel(nogil=True)
def wait_finished(finished, spins):
    """Whether every chunk's ``finished`` became 1 within ``spins`` reads: the other threads'
    chunks end about when this thread's own does, so the wait is short (a chunk that
    failed never marks it: the caller then looks for the server's error, and spins again)."""
    for chunk in range(finished.shape[0]):
        while load_acquire(finished, chunk) == 0:
            spins -= 1
            if spins <= 0:
                return False
    return True


@kernel
def first_illegal(actions, masks):
    """The first row whose action is not a legal id of its mask, or -1."""
    for i in range(actions.shape[0]):
        if not (0 <= actions[i] < masks.shape[1] and masks[i, actions[i]]):
            return i
    return -1


@kernel(nogil=True)
def random_actions_range(lo, hi, legal, n_legal, rngs, out):
    """A uniformly random legal action id of each row ``lo`` to ``hi``, drawn with ``rngs[i]``."""
    for i in range(lo, hi):
        out[i] = legal[i, below(rngs[i : i + 1], n_legal[i])]
