"""What MCTS and IS-MCTS share in Python: the budget loop over numba slices of time, and
confidence bounds.

Simulations run in numba in slices of about ``SLICE_SECONDS`` each; between slices
Python reports progress and lets Ctrl-C through. The kernels read the clock
themselves (``tessera.kernels.search.clock``), so a time budget ends inside a slice, on
every thread at the same moment, and no thread waits for a slower one's batch.
Several threads run as Python threads (``run_threads``).
"""

import math
import time
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

from tessera.kernels.search.clock import FOREVER

Z95 = 1.96
SLICE_SECONDS = 0.1  # one numba call, so progress and Ctrl-C are seen this often
# Time kept back from a time budget for what follows the simulations (summing the trees'
# root statistics and building the result's lines, 1-2 ms), so the whole search keeps its
# budget; at most this share of a short budget.
RESULT_SECONDS = 0.003
RESULT_SHARE = 0.2
UNLIMITED = 2**62


def run_batches(run, threads, iterations, time_limit, started, progress=None):
    """Call ``run(remaining, deadline)`` until the threads have run ``iterations``
    simulations in all or the time budget from ``started`` (a ``time.perf_counter()``) is
    spent.

    ``iterations`` is the whole search's budget, not each thread's (as KataGo's and
    Leela's visit limits are): the threads share it out (``shares``), so a budget costs
    the same work on any thread count and more threads finish it sooner.
    ``remaining``: per thread, simulations still to run; ``run`` returns, per thread,
    how many it ran. Either limit may be None (not both). ``progress(done,
    iterations, seconds)`` is called after every slice, ``done`` of all threads. Ctrl-C
    ends the loop: a numba slice runs to its end before Python sees the signal, so the
    tree holds whole simulations.
    Returns ``(seconds, interrupted)``.
    """
    remaining = np.full(threads, UNLIMITED, np.int64) if iterations is None else shares(iterations, threads)
    budget = remaining.copy()
    end = FOREVER if time_limit is None else started + time_limit - kept_back(time_limit)
    try:
        while remaining.max() > 0:
            remaining -= run(remaining, min(end, time.perf_counter() + SLICE_SECONDS))
            now = time.perf_counter()
            if progress is not None:
                progress(int((budget - remaining).sum()), iterations, now - started)
            if now >= end:
                break
    except KeyboardInterrupt:
        return time.perf_counter() - started, True
    return time.perf_counter() - started, False


def shares(iterations, threads):
    """``iterations`` split over ``threads`` as evenly as it goes, the first threads taking
    one more: ``shares(7, 2)`` is ``[4, 3]``."""
    return np.array([iterations // threads + (t < iterations % threads) for t in range(threads)], np.int64)


def kept_back(time_limit):
    """Seconds a search of ``time_limit`` keeps back for its result: its simulations stop
    this much before the limit, so a search that used its time reports a little less."""
    return min(RESULT_SECONDS, RESULT_SHARE * time_limit)


def run_threads(run_thread, threads, remaining, deadline, done):
    """``done[t] = run_thread(t, remaining[t], deadline)`` for each of ``threads`` threads,
    each a Python thread (the kernels release the GIL): MCTS's threads search one tree,
    IS-MCTS's a tree each. Every thread runs to the same deadline, more threads than cores
    included (the system shares the cores out). Threads rather than numba's ``prange``:
    its parallel loop cost seconds of compiling in every first parallel search.
    """
    futures = [_thread_pool(threads).submit(run_thread, t, remaining[t], deadline) for t in range(threads)]
    try:
        wait(futures)
    except KeyboardInterrupt:
        wait(futures)  # each ends within its slice, so the tree holds whole simulations
        raise
    for t, future in enumerate(futures):
        done[t] = future.result()
    return done


_pool, _pool_size = None, 0


def _thread_pool(threads):
    """The process's pool of search threads, with at least ``threads`` threads."""
    global _pool, _pool_size
    if _pool_size < threads:
        if _pool is not None:
            _pool.shutdown()
        _pool, _pool_size = ThreadPoolExecutor(threads, thread_name_prefix="tessera-search"), threads
    return _pool


def lower_bound(rate, n):
    """Normal-approximation lower 95% bound of a mean payoff in 0..1."""
    if not n:
        return None
    return max(0.0, rate - Z95 * math.sqrt(max(rate * (1 - rate), 0.0) / n))
