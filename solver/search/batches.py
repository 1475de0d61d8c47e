"""What MCTS and IS-MCTS share in Python: the budget loop over numba slices of time, and
confidence bounds.

Simulations run in numba in slices of about ``SLICE_SECONDS`` each; between slices
Python reports progress and lets Ctrl-C through. The kernels read the clock
themselves (``kernels.search.clock``), so a time budget ends inside a slice, on
every thread at the same moment, and no thread waits for a slower one's batch.
"""
import math
import signal
import threading
import time
from contextlib import contextmanager

import numpy as np

from kernels.search.clock import FOREVER

Z95 = 1.96
SLICE_SECONDS = 0.1        # one numba call, so progress and Ctrl-C are seen this often
# Time kept back from a time budget for what follows the simulations (summing the trees'
# root statistics and building the result's lines), so the whole search keeps its budget.
RESULT_SECONDS = 0.003
UNLIMITED = 2**62


def run_batches(run, threads, iterations, time_limit, started, progress=None):
    """Call ``run(remaining, deadline)`` until every thread has run ``iterations``
    simulations or the time budget from ``started`` (a ``time.perf_counter()``) is spent.

    ``remaining``: per thread, simulations still to run; ``run`` returns, per thread,
    how many it ran. Either limit may be None (not both). ``progress(done,
    iterations, seconds)`` is called after every slice, ``done`` per thread. Ctrl-C
    ends the loop after the running slice, so the tree holds whole simulations.
    Returns ``(seconds, interrupted)``.
    """
    remaining = np.full(threads, UNLIMITED if iterations is None else iterations, np.int64)
    end = FOREVER if time_limit is None else started + time_limit - RESULT_SECONDS
    with _ctrl_c_flag() as interrupted:
        try:
            while remaining.max() > 0 and not interrupted:
                remaining -= run(remaining, min(end, time.perf_counter() + SLICE_SECONDS))
                now = time.perf_counter()
                if progress is not None:
                    done = UNLIMITED - remaining.min() if iterations is None else iterations - remaining.max()
                    progress(int(done), iterations, now - started)
                if now >= end:
                    break
        except KeyboardInterrupt:
            interrupted.append(True)
    return time.perf_counter() - started, bool(interrupted)


@contextmanager
def _ctrl_c_flag():
    """A list that gets an item when Ctrl-C is pressed, instead of KeyboardInterrupt being
    raised in the middle of a slice (the kernels' clock reads run Python code). Only the
    main thread can take the signal; elsewhere Ctrl-C is not this loop's to catch."""
    pressed = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(True))
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def lower_bound(rate, n):
    """Normal-approximation lower 95% bound of a mean payoff in 0..1."""
    if not n:
        return None
    return max(0.0, rate - Z95 * math.sqrt(max(rate * (1 - rate), 0.0) / n))
