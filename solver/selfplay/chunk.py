"""Play one chunk of a run: its games as arrays, its records, its Parquet file.

Games whose seats are all cheap agents (random, greedy) are played together by
the numba kernel ``tessera.kernels.selfplay.play_batch``, over as many threads as numba
has, from start positions dealt in numba too (``starts``); the others are played
one at a time by ``tessera.agents.play_game``. Both start from ``Game.new(game
seed)``, draw chance from ``game seed ^ CHANCE_SALT`` and seed each seat's agent
alike, so a game is the same whichever plays it. With ``plan.record_search`` the
search results behind the moves of the games played one at a time go into the
records (``searchstats``); the kernel's games have none.

A chunk goes through two steps: ``play_chunk_games`` (the numba part: starts,
kernel, moves gathered into flat arrays) and ``finish`` (the Parquet file's bytes
and the outcomes, built column by column from those arrays). A worker does both
and sends back the bytes and a few small arrays (``FinishedChunk``); the process
that owns the run only writes the bytes to disk.
"""

import threading
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from tessera.agents import GreedyAgent, RandomAgent, parse_agent, play_game
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels import selfplay_layout as kernel  # the agent kinds; the kernels per game: bind
from tessera.kernels.rng import CHANCE_SALT
from tessera.selfplay import records
from tessera.selfplay.searchstats import SearchStats
from tessera.selfplay.starts import one_thread, start_positions
from tessera.selfplay.stats import Outcomes

BATCHED_KINDS = {RandomAgent: kernel.RANDOM, GreedyAgent: kernel.GREEDY}
NOT_BATCHED = -1
FIRST_MAX_PLIES = 256  # doubled for the games that need more, up to
MAX_PLIES = 1 << 16  # this: a longer game is a bug in the game's kernel
SLICE = 256  # games per kernel call: how soon a chunk notices ``STOP``

# Set when the run stops (Ctrl-C): every chunk this process is playing gives up at its
# next slice or search game (``Stopped``) instead of playing to its end. A pool worker's
# is the pool's multiprocessing event (``workers.start_worker``).
STOP = threading.Event()


class Stopped(Exception):
    """A chunk given up because ``STOP`` was set."""


def stop_with(event):
    """Make ``event`` (a pool's multiprocessing event) this worker process's ``STOP``."""
    global STOP
    STOP = event


# What ``play_batched`` returns: ``lengths`` [games]; ``moves`` and ``movers`` flat, game
# after game; ``scores`` and ``payoffs`` [games, seats]; ``search`` the moves'
# ``SearchStats`` when the plan records them (``_play_mixed``), else None.
Played = namedtuple("Played", ["lengths", "moves", "movers", "scores", "payoffs", "search"], defaults=(None,))
KERNEL_FIELDS = Played._fields[:-1]  # all but search


@dataclass
class FinishedChunk:
    """A played chunk as it travels back from a worker: its Parquet file and its outcomes."""

    data: bytes
    outcomes: Outcomes


def play_chunk(plan, chunk):
    """The records of chunk ``chunk`` of ``plan``, as a pyarrow table."""
    return records.chunk_table(play_chunk_games(plan, chunk), plan.agents)


def play_chunk_file(plan, chunk):
    """Chunk ``chunk`` of ``plan`` played and encoded: a ``FinishedChunk``."""
    return finish(plan, play_chunk_games(plan, chunk))


def finish(plan, games):
    """The ``FinishedChunk`` of ``games`` (a ``records.ChunkGames``)."""
    return FinishedChunk(records.encode(records.chunk_table(games, plan.agents)), games.outcomes())


def batched_kinds(plan):
    """The kernel's kind of each of the plan's agents, ``NOT_BATCHED`` for a search agent."""
    return np.array([_batched_kind(spec) for spec in plan.agents], np.int8)


def all_batched(specs):
    """True when every agent of ``specs`` plays in the kernel (random, greedy)."""
    return all(_batched_kind(spec) != NOT_BATCHED for spec in specs)


def play_chunk_games(plan, chunk):
    """The games of chunk ``chunk`` of ``plan``, as a ``records.ChunkGames``."""
    games = plan.chunk_games(chunk)
    indices = np.arange(games.start, games.stop, dtype=np.int64)
    seeds = plan.game_seeds(indices)
    lineups = plan.lineups(indices)
    seat_seeds = plan.agent_seeds(seeds)
    kinds = batched_kinds(plan)[lineups]
    batched = (kinds != NOT_BATCHED).all(axis=1)
    if batched.all():
        played = _play_in_slices(plan, seeds, seat_seeds, kinds)
        if plan.record_search:
            played = played._replace(search=SearchStats.unsearched(len(played.moves)))
    else:
        played = _play_mixed(plan, seeds, lineups, seat_seeds, kinds, batched)
    return records.ChunkGames(
        game=indices,
        seed=seeds,
        lineups=lineups,
        agent_seeds=seat_seeds,
        lengths=played.lengths,
        moves=played.moves,
        movers=played.movers,
        scores=played.scores,
        payoffs=played.payoffs,
        search=played.search,
    )


def _play_in_slices(plan, seeds, seat_seeds, kinds):
    """Cheap games in kernel calls of ``SLICE`` games, ``STOP`` checked before each."""
    parts = []
    for at in range(0, len(seeds), SLICE):
        if STOP.is_set():
            raise Stopped
        part = slice(at, at + SLICE)
        starts = start_positions(plan.game, plan.options, seeds[part])
        parts.append(play_batched(starts, seeds[part] ^ CHANCE_SALT, seat_seeds[part], kinds[part]))
    return Played(*(np.concatenate([getattr(part, name) for part in parts]) for name in KERNEL_FIELDS))


def _play_mixed(plan, seeds, lineups, seat_seeds, kinds, batched):
    """A chunk with search agents: its cheap games batched, the others one by one."""
    games = len(seeds)
    moves, movers, searches = [None] * games, [None] * games, [None] * games
    lengths = np.zeros(games, np.int64)
    scores = np.zeros((games, plan.seats), np.int64)
    payoffs = np.zeros((games, plan.seats), np.float64)
    rows = np.flatnonzero(batched)
    if len(rows):
        starts = start_positions(plan.game, plan.options, seeds[rows])
        played = play_batched(starts, seeds[rows] ^ CHANCE_SALT, seat_seeds[rows], kinds[rows])
        ends = np.cumsum(played.lengths)
        for row, g in enumerate(rows):
            moves[g] = played.moves[ends[row] - played.lengths[row] : ends[row]]
            movers[g] = played.movers[ends[row] - played.lengths[row] : ends[row]]
            searches[g] = SearchStats.unsearched(int(played.lengths[row]))
        lengths[rows], scores[rows], payoffs[rows] = played.lengths, played.scores, played.payoffs
    game = get_game(plan.game)
    for g in np.flatnonzero(~batched):
        if STOP.is_set():
            raise Stopped
        agents = [parse_agent(plan.agents[a], seed=int(seat_seeds[g, s])) for s, a in enumerate(lineups[g])]
        results = []
        record = play_game(
            game,
            plan.options,
            agents,
            int(seeds[g]),
            on_move=(lambda event, results=results: results.append(event.decision.result))
            if plan.record_search
            else None,
        )
        searches[g] = SearchStats.of_results(results, plan.record_search)
        moves[g] = np.array([move for _, move in record.moves], np.int64)
        movers[g] = np.array([who for who, _ in record.moves], np.int8)
        lengths[g] = len(record.moves)
        scores[g], payoffs[g] = record.scores, record.payoffs
    return Played(
        lengths,
        np.concatenate(moves).astype(np.int64, copy=False),
        np.concatenate(movers).astype(np.int8, copy=False),
        scores,
        payoffs,
        SearchStats.concatenate(searches) if plan.record_search else None,
    )


def _batched_kind(spec):
    return BATCHED_KINDS.get(type(parse_agent(spec)), NOT_BATCHED)


def play_batched(starts, chance_seeds, agent_seeds, kinds, serial=None):
    """Play the games with the kernel: a ``Played``, the moves of all games in flat arrays.

    A game longer than the plies allowed is played again with twice as many; it
    replays identically, as everything it draws comes from its own seeds. ``serial``:
    play on this thread alone (``play_serial``) or over numba's threads (``play_batch``);
    by default serial when this thread runs numba on one thread. The games are the same.
    """
    games, seats = kinds.shape
    lengths = np.zeros(games, np.int64)
    scores = np.zeros((games, seats), np.int64)
    payoffs = np.zeros((games, seats), np.float64)
    moves, movers = [None] * games, [None] * games  # only for games replayed with room
    if games == 0:
        return Played(lengths, np.zeros(0, np.int64), np.zeros(0, np.int8), scores, payoffs)
    kernels = bind.instance(starts[0, 0], "selfplay")  # the starts are of one game
    play = kernels.play_serial if (one_thread() if serial is None else serial) else kernels.play_batch
    pending = np.arange(games)
    max_plies = FIRST_MAX_PLIES
    first = None
    while len(pending):
        if max_plies > MAX_PLIES:
            raise RuntimeError(
                f"{len(pending)} games did not end within {MAX_PLIES} player "
                f"moves (chance seeds {chance_seeds[pending][:5].tolist()})"
            )
        n = len(pending)
        plies = np.empty((n, max_plies), np.int64)
        who = np.empty((n, max_plies), np.int8)
        made = np.zeros(n, np.int64)
        out_scores = np.zeros((n, seats), np.int64)
        out_payoffs = np.zeros((n, seats), np.float64)
        play(
            np.ascontiguousarray(starts[pending]),
            np.ascontiguousarray(chance_seeds[pending]),
            np.ascontiguousarray(agent_seeds[pending]),
            np.ascontiguousarray(kinds[pending]),
            plies,
            who,
            made,
            out_scores,
            out_payoffs,
        )
        done = made != kernel.OVERFLOW
        lengths[pending[done]] = made[done]
        scores[pending[done]] = out_scores[done]
        payoffs[pending[done]] = out_payoffs[done]
        if first is None:
            first = (plies, who, done)
        else:
            for row in np.flatnonzero(done):
                moves[pending[row]] = plies[row, : made[row]]
                movers[pending[row]] = who[row, : made[row]]
        pending = pending[~done]
        max_plies *= 2
    plies, who, done = first
    if done.all():  # every game fitted the first time: gather them at once
        total = int(lengths.sum())
        flat_moves, flat_movers = np.empty(total, np.int64), np.empty(total, np.int8)
        kernels.gather_moves(plies, who, lengths, flat_moves, flat_movers)
        return Played(lengths, flat_moves, flat_movers, scores, payoffs)
    for row in np.flatnonzero(done):
        moves[row], movers[row] = plies[row, : lengths[row]], who[row, : lengths[row]]
    return Played(lengths, np.concatenate(moves), np.concatenate(movers), scores, payoffs)


def warm_up(plan):
    """Compile (or load from numba's cache) what the plan's chunks will run, here, once:
    workers started afterwards on this machine load it from the cache. A search agent
    chooses one move of the start position for that (its budget for one move)."""
    start = get_game(plan.game).new(0, **plan.options)
    kinds = [_batched_kind(spec) for spec in plan.agents]
    if any(kind != NOT_BATCHED for kind in kinds):
        cheap = np.full((1, plan.seats), kernel.RANDOM, np.int8)
        for serial in (False, True):  # over numba's threads, and on one thread
            start_positions(plan.game, plan.options, np.zeros(1, np.int64), serial=serial)
            play_batched(
                start[None, :], np.zeros(1, np.int64), np.zeros((1, plan.seats), np.int64), cheap, serial=serial
            )
    for spec, kind in zip(plan.agents, kinds):
        if kind == NOT_BATCHED:
            parse_agent(spec).choose(start.copy())
