"""The wall clock inside a search's simulations, read seldom enough to cost nothing.

numba's nopython mode cannot read a clock, so ``now`` steps into object mode for
``time.perf_counter`` (about a microsecond, with the GIL: the parallel searches run
with ``nogil=True`` so their threads can take it). ``Deadline`` checks spread the
reads out: a search reads the clock about every ``CHECK_SECONDS``, however long a
simulation takes, by counting simulations between reads from the rate it measured.
"""
import time

import numpy as np
from numba import njit, objmode

CHECK_SECONDS = 0.0005     # a deadline is missed by about this much at most
FOREVER = np.inf           # a deadline that never comes: an iteration budget alone


@njit(cache=True)
def now():
    """``time.perf_counter()`` from nopython code."""
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def simulations_until_check(done, started, t):
    """Simulations to run before the next read of the clock: about ``CHECK_SECONDS``'
    worth at the rate so far (``done`` simulations since ``started``; ``t`` is now)."""
    if done == 0 or t <= started:
        return 1
    return max(1, int(done * CHECK_SECONDS / (t - started)))
