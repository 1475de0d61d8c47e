"""What the MCTS and information-set MCTS searchers share: checked options, a generator
per thread, a search's course (kernels loaded before the clock, the threads' batches to
the budget) and the lines of its result."""

import time

import numpy as np

from tessera.compiletime import compile_clock
from tessera.errors import TesseraError
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import STREAM_STRIDE, make_rng
from tessera.search.batches import lower_bound, run_batches, run_threads
from tessera.search.result import MoveLine


def thread_rngs(seed, threads):
    """One generator for each thread of a search seeded ``seed``: thread t draws stream t
    (``STREAM_STRIDE``)."""
    return np.stack([make_rng(seed * STREAM_STRIDE + t) for t in range(threads)])


class TreeSearch:
    """A searcher of ``MctsOptions``: ``search(state, progress)`` ranks the moves of ``state``."""

    keeps_tree = False  # whether a search of the same position continues the last
    chance_message = "chance acts in this position: there is no move to choose"

    def __init__(self, options):
        options.check()
        self.options = options
        self.rngs = thread_rngs(options.seed, options.threads)

    def _player(self, rules, state):
        """The player to move in ``state``; an error where no player moves."""
        player = rules.to_move(state)
        if player == TERMINAL:
            raise TesseraError("the game is over: there is no move to search")
        if player == CHANCE:
            raise TesseraError(self.chance_message)
        return player

    def _run(self, load, begin, progress):
        """The result of a search: ``load()`` its kernels before the clock starts, then
        ``begin()`` (on the clock) gives ``(run_thread, before_batch, finish)``: each batch
        calls ``before_batch()`` then ``run_thread(t, remaining, deadline)`` on every
        thread (the simulations it ran), and ``finish(seconds)`` makes the result."""
        with compile_clock() as compiling:
            load()
        started = time.perf_counter()
        run_thread, before_batch, finish = begin()
        threads = self.options.threads
        done = np.zeros(threads, np.int64)

        def run(remaining, deadline):
            before_batch()
            if threads == 1:
                done[0] = run_thread(0, remaining[0], deadline)
                return done
            return run_threads(run_thread, threads, remaining, deadline, done)

        seconds, interrupted = run_batches(
            run, threads, self.options.iterations, self.options.time_limit, started, progress
        )
        result = finish(seconds)
        result.interrupted = interrupted
        result.compile_seconds = compiling.seconds
        return result


def move_line(move, visits, wins, margins, prior, pv):
    """The line of a root move from its visits and the sums of its payoffs and margins."""
    win_rate = wins / visits if visits else None
    return MoveLine(
        move=move,
        visits=visits,
        win_rate=win_rate,
        margin=margins / visits if visits else 0.0,
        lcb=lower_bound(win_rate, visits),
        prior=prior,
        pv=pv,
    )


def ranked(lines):
    """``lines`` best first: by visits, then by win rate."""
    lines.sort(key=lambda line: (-line.visits, -(line.win_rate or 0.0)))
    return lines
