"""Seconds numba spends compiling, from its event API (``numba.core.event``).

A ``CompileClock`` listens to numba's compile events while installed
(``compile_clock``). Loading a kernel from numba's cache is no compile event, so on
a warm cache the clock reads 0. Compiling a function compiles the functions it calls
inside its own event: ``own`` keeps each function's seconds less those of the
functions compiled within it, ``in_events`` the outermost events' total. ``seconds``
is the wall time of the ``with`` block once anything compiled in it: around a
command's loading of its kernels, the compiles and also the waits for kernels a helper
process compiled meanwhile (``tessera.parallel_compile``), some of which fall between
events.
"""

import time
from contextlib import contextmanager

from numba.core import event


class CompileClock(event.Listener):
    def __init__(self):
        self.seconds = 0.0
        self.in_events = 0.0
        self.own = {}  # "module.function" -> seconds compiling it, callees excluded
        self._open = []  # [started, seconds of callees compiled meanwhile, name]

    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        self._open.append([time.perf_counter(), 0.0, f"{function.__module__}.{function.__name__}"])

    def on_end(self, ev):
        started, callees, name = self._open.pop()
        spent = time.perf_counter() - started
        self.own[name] = self.own.get(name, 0.0) + spent - callees
        if self._open:
            self._open[-1][1] += spent
        else:
            self.in_events += spent

    def heaviest(self, count):
        """The ``count`` functions with the most own compile seconds, most first."""
        return sorted(self.own.items(), key=lambda item: -item[1])[:count]


@contextmanager
def compile_clock():
    """A ``CompileClock`` counting the compiles made inside the ``with`` block."""
    clock, started = CompileClock(), time.perf_counter()
    with event.install_listener("numba:compile", clock):
        yield clock
    if clock.in_events > 0:
        clock.seconds = time.perf_counter() - started
