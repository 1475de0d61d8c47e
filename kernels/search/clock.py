"""The wall clock inside a search's simulations, read seldom enough to cost nothing.

numba's nopython mode has no clock, and object mode (``time.perf_counter`` in an
``objmode`` block) needs the GIL: a thread of a parallel search waited up to Python's
5 ms switch interval for it on every read. ``now`` calls the C library's
``clock_gettime`` directly, on the clock behind ``time.perf_counter``, in a few tens of
nanoseconds and from any thread. A search still reads it only about every
``CHECK_SECONDS``, counting simulations between reads from the rate it measured, so a
slow simulation (a long rollout) does not overrun a deadline by much and fast ones do not
pay for the clock.
"""

import sys
import time

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from tessera.kernels.jit import njit

CHECK_SECONDS = 0.0005  # a deadline is passed by about this much, plus one simulation
FOREVER = np.inf  # a deadline that never comes: an iteration budget alone

# The clock behind time.perf_counter (and time.monotonic), by its name in the system's
# <time.h>: deadlines are set in Python with perf_counter and checked here, so the two
# must be one clock.
# - Linux: CLOCK_MONOTONIC (1).
# - macOS: CLOCK_UPTIME_RAW (8). CPython reads mach_absolute_time() there, which Apple
#   documents as equal to CLOCK_UPTIME_RAW (it stops while the machine sleeps); macOS's
#   CLOCK_MONOTONIC (6) keeps counting in sleep, so after a sleep it would be ahead of
#   perf_counter and put every deadline in the past.
# Other systems are refused when tessera.kernels is imported. The id, taken from the
# time module (which has it from <time.h>), is compiled into the kernels as a constant;
# that is safe in numba's cache, whose entries are keyed by the target machine: code
# compiled on one system is never loaded on another.
CLOCK_NAMES = {"linux": "CLOCK_MONOTONIC", "darwin": "CLOCK_UPTIME_RAW"}
CLOCK_ID = getattr(time, CLOCK_NAMES[sys.platform])


@intrinsic
def _monotonic_nanoseconds(typingctx):
    """``clock_gettime(CLOCK_ID)`` as nanoseconds, int64; -1 if the call fails.

    ``struct timespec`` is two 64-bit fields (``tv_sec``, ``tv_nsec``) on the 64-bit
    systems numba runs on; ``clockid_t`` is a 32-bit int on both systems."""

    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])  # tv_sec, tv_nsec
        clock_gettime = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, timespec.as_pointer()]), "clock_gettime"
        )
        slot = cgutils.alloca_once(builder, timespec)
        failed = builder.icmp_signed(
            "!=", builder.call(clock_gettime, [ir.Constant(i32, CLOCK_ID), slot]), ir.Constant(i32, 0)
        )
        seconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 0))
        nanoseconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 1))
        read = builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)
        return builder.select(failed, ir.Constant(i64, -1), read)

    return types.int64(), codegen


@njit(cache=True)
def now():
    """``time.perf_counter()``, from nopython code on any thread. Should the clock ever fail
    to read, infinity: every deadline has passed, so a timed search stops at its next check
    instead of running on unbounded."""
    nanoseconds = _monotonic_nanoseconds()
    if nanoseconds < 0:
        return np.inf
    return nanoseconds * 1e-9


@njit(cache=True)
def simulations_until_check(done, started, t):
    """Simulations to run before the next read of the clock: about ``CHECK_SECONDS``'
    worth at the rate so far (``done`` simulations since ``started``; ``t`` is now)."""
    if done == 0 or t <= started:
        return 1
    return max(1, int(done * CHECK_SECONDS / (t - started)))
