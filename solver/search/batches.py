"""What MCTS and IS-MCTS share in Python: the budget loop over numba slices of time, and
confidence bounds.

Simulations run in numba in slices of about ``SLICE_SECONDS`` each; between slices
Python reports progress and lets Ctrl-C through. The kernels read the clock
themselves (``kernels.search.clock``), so a time budget ends inside a slice, on
every thread at the same moment, and no thread waits for a slower one's batch.
"""
import math
import time

import numba
import numpy as np

from kernels.search.clock import FOREVER

Z95 = 1.96
SLICE_SECONDS = 0.1        # one numba call, so progress and Ctrl-C are seen this often
# Time kept back from a time budget for what follows the simulations (summing the trees'
# root statistics and building the result's lines, 1-2 ms), so the whole search keeps its
# budget; at most this share of a short budget.
RESULT_SECONDS = 0.003
RESULT_SHARE = 0.2
UNLIMITED = 2**62


def run_batches(run, threads, iterations, time_limit, started, progress=None):
    """Call ``run(remaining, deadline)`` until every thread has run ``iterations``
    simulations or the time budget from ``started`` (a ``time.perf_counter()``) is spent.

    ``remaining``: per thread, simulations still to run; ``run`` returns, per thread,
    how many it ran. Either limit may be None (not both). ``progress(done,
    iterations, seconds)`` is called after every slice, ``done`` per thread. Ctrl-C
    ends the loop: a numba slice runs to its end before Python sees the signal, so the
    tree holds whole simulations.
    Returns ``(seconds, interrupted)``.
    """
    remaining = np.full(threads, UNLIMITED if iterations is None else iterations, np.int64)
    end = FOREVER if time_limit is None else started + time_limit - kept_back(time_limit)
    try:
        while remaining.max() > 0:
            remaining -= run(remaining, min(end, time.perf_counter() + SLICE_SECONDS))
            now = time.perf_counter()
            if progress is not None:
                done = UNLIMITED - remaining.min() if iterations is None else iterations - remaining.max()
                progress(int(done), iterations, now - started)
            if now >= end:
                break
    except KeyboardInterrupt:
        return time.perf_counter() - started, True
    return time.perf_counter() - started, False


def kept_back(time_limit):
    """Seconds a search of ``time_limit`` keeps back for its result: its simulations stop
    this much before the limit, so a search that used its time reports a little less."""
    return min(RESULT_SECONDS, RESULT_SHARE * time_limit)


def waves(trees, deadline):
    """``(first, end, deadline)`` of each wave of trees a parallel search runs: at most as
    many trees as numba has threads at once, each wave with its share of the time to
    ``deadline``. In one parallel loop, a thread's later trees would start at the
    deadline its first one ran to."""
    width = min(numba.get_num_threads(), trees)
    count = -(-trees // width)
    start = time.perf_counter()
    for wave in range(count):
        yield (wave * width, min(trees, (wave + 1) * width),
               start + (deadline - start) * (wave + 1) / count)


def start_threads():
    """Start numba's thread pool (once per process; later calls return at once), so a
    first parallel search does not start it on its clock."""
    numba.get_num_threads()


def lower_bound(rate, n):
    """Normal-approximation lower 95% bound of a mean payoff in 0..1."""
    if not n:
        return None
    return max(0.0, rate - Z95 * math.sqrt(max(rate * (1 - rate), 0.0) / n))
