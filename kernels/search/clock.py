"""The wall clock inside a search's simulations, read seldom enough to cost nothing.

numba's nopython mode has no clock, and object mode (``time.perf_counter`` in an
``objmode`` block) needs the GIL: a thread of a parallel search waited up to Python's
5 ms switch interval for it on every read. ``now`` calls the C library's
``clock_gettime(CLOCK_MONOTONIC)`` directly, the clock behind ``time.perf_counter`` on
Linux, in a few tens of nanoseconds and from any thread. A search still reads it
only about every ``CHECK_SECONDS``, counting simulations between reads from the rate
it measured, so a slow simulation (a long rollout) does not overrun a deadline by much
and fast ones do not pay for the clock.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from tessera.kernels.jit import njit

CHECK_SECONDS = 0.0005     # a deadline is passed by about this much, plus one simulation
FOREVER = np.inf           # a deadline that never comes: an iteration budget alone
CLOCK_MONOTONIC = 1        # Linux's clock id (<time.h>)


@intrinsic
def _monotonic_nanoseconds(typingctx):
    """``clock_gettime(CLOCK_MONOTONIC)`` as nanoseconds, int64."""
    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])           # tv_sec, tv_nsec
        clock_gettime = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, timespec.as_pointer()]), "clock_gettime")
        slot = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [ir.Constant(i32, CLOCK_MONOTONIC), slot])
        seconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 0))
        nanoseconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)
    return types.int64(), codegen


@njit(cache=True)
def now():
    """``time.perf_counter()``, from nopython code on any thread."""
    return _monotonic_nanoseconds() * 1e-9


@njit(cache=True)
def simulations_until_check(done, started, t):
    """Simulations to run before the next read of the clock: about ``CHECK_SECONDS``'
    worth at the rate so far (``done`` simulations since ``started``; ``t`` is now)."""
    if done == 0 or t <= started:
        return 1
    return max(1, int(done * CHECK_SECONDS / (t - started)))
