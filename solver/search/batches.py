"""What MCTS and IS-MCTS share in Python: the budget loop over numba batches, and confidence bounds.

Simulations run in numba in batches; between batches Python checks the clock,
reports progress and lets Ctrl-C through.
"""
import math
import time

Z95 = 1.96
FIRST_BATCH = 64
BATCH_SECONDS = 0.1        # aim of each numba call, so the clock is checked often


def run_batches(run, iterations, time_limit, progress=None):
    """Call ``run(step)`` until ``iterations`` simulations are done or ``time_limit`` seconds pass.

    Either limit may be None (not both). ``progress(done, iterations, seconds)``
    is called after every batch. Ctrl-C ends the loop early: a numba batch runs to
    its end before Python sees the signal, so the tree holds whole simulations.
    Returns ``(seconds, interrupted)``.
    """
    done, batch = 0, FIRST_BATCH
    started = time.perf_counter()
    try:
        while iterations is None or done < iterations:
            step = batch if iterations is None else min(batch, iterations - done)
            t0 = time.perf_counter()
            run(step)
            done += step
            elapsed = time.perf_counter() - started
            if progress is not None:
                progress(done, iterations, elapsed)
            if time_limit is not None and elapsed >= time_limit:
                break
            batch = _next_batch(step, time.perf_counter() - t0)
    except KeyboardInterrupt:
        return time.perf_counter() - started, True
    return time.perf_counter() - started, False


def lower_bound(rate, n):
    """Normal-approximation lower 95% bound of a mean payoff in 0..1."""
    if not n:
        return None
    return max(0.0, rate - Z95 * math.sqrt(max(rate * (1 - rate), 0.0) / n))


def _next_batch(step, seconds):
    """Grow or shrink the batch so one numba call takes about BATCH_SECONDS."""
    if seconds <= 0:
        return step * 4
    return max(1, min(int(step * BATCH_SECONDS / seconds), step * 4))
