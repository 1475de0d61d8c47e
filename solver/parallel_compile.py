"""A second process compiling part of a command's kernels while the command compiles the rest.

numba compiles in one thread (under a lock of its own), so a cold first search keeps one
core busy for 15 to 20 s. Another process can compile into the same cache: with
``helped(plan, ...)`` around a command's compile, the command's first compile event
starts a helper process that compiles the kernels of ``plan(...)`` (``(kernel, args)``
pairs: kernels the command reaches late, so that the two start far apart). The two then
share the work kernel by kernel:

- a lock file per kernel, held by the process compiling it (``tessera.kernels.jit.compile_guard``
  around every compile): the other process, reaching that kernel, waits for it and then
  loads it from the cache instead of compiling it too;
- the helper skips a kernel of its plan that the command is compiling and goes on to the
  next one.

A process holds locks only along its stack of compiles in progress, each kernel's lock
while typing the kernels it calls, so a wait could only close a cycle through kernels
that call each other, which the kernels do not (a kernel calling itself is compiled in
one process). On a warm cache nothing compiles and no helper starts. The helper is
left out where it would only compete for a core: on one core, in a pool's worker
process (the pool's other workers use the other cores), without POSIX file locks, or
with ``TESSERA_COMPILE_HELPER=0``, and where numba's patches are off
(``tessera.kernels.patches``: the kernel locks need ``tessera.kernels.jit``'s guarded compiles).
"""

import contextlib
import functools
import importlib
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile

from numba.core import event, sigutils

from tessera.cores import available_cores
from tessera.kernels import bind, jit, patches

try:
    import fcntl
except ImportError:  # no POSIX file locks (Windows): no helper
    fcntl = None  # type: ignore[assignment]  # None where the module is missing

OFF_SWITCH = "TESSERA_COMPILE_HELPER"
# A killed process is gone at once; a wait past this would be a stuck kernel, not a slow exit.
KILLED_SECONDS = 30


def helper_wanted():
    return (
        fcntl is not None
        and os.environ.get(OFF_SWITCH) != "0"
        and multiprocessing.parent_process() is None
        and available_cores() > 1
        and patches.numba_patches()
    )


def once_per_process(load):
    """``load(state, *options)`` (a search's ``load_kernels``), run only the first time for
    each game and options in a process: kernels once loaded stay loaded, and a short
    search should not pay again for the helper's folder and for typing every argument
    (about 3 ms a search, more than the whole budget of a 2-ms one)."""
    loaded = set()

    @functools.wraps(load)
    def load_once(state, *options):
        key = (int(state[0]), *options)
        if key not in loaded:
            load(state, *options)
            loaded.add(key)

    return load_once


@contextlib.contextmanager
def helped(plan, *args):
    """Within the block, a helper process compiles ``plan(*args)`` (``plan`` a module-level
    function, its arguments JSON values) once the block's first compile starts."""
    if not helper_wanted():
        yield
        return
    with tempfile.TemporaryDirectory(prefix="tessera-compile-") as folder:
        starter = _HelperStarter(folder, f"{plan.__module__}:{plan.__name__}", json.dumps(args))
        jit.compile_guard = KernelLocks(folder).compiling
        try:
            with event.install_listener("numba:compile", starter):
                yield
        finally:
            jit.compile_guard = None
            starter.stop()


class KernelLocks:
    """A lock file per kernel in ``folder``, held by the process compiling that kernel."""

    def __init__(self, folder):
        self.folder = folder
        self.held = set()  # the kernels this process is compiling

    def path(self, dispatcher):
        function = dispatcher.py_func
        return os.path.join(self.folder, f"{function.__module__}.{function.__qualname__}.lock")

    @contextlib.contextmanager
    def compiling(self, dispatcher, signature):
        """Hold the kernel's lock (waiting while the other process holds it) unless this
        process holds it already or has the signature compiled."""
        path = self.path(dispatcher)
        if path in self.held or tuple(sigutils.normalize_signature(signature)[0]) in dispatcher.overloads:
            yield
            return
        descriptor = os.open(path, os.O_CREAT | os.O_RDWR)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            self.held.add(path)
            yield
        finally:
            self.held.discard(path)
            os.close(descriptor)  # after the compile, so the kernel is in the cache

    def busy(self, dispatcher):
        """Whether the other process is compiling the kernel now."""
        descriptor = os.open(self.path(dispatcher), os.O_CREAT | os.O_RDWR)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(descriptor)


class _HelperStarter(event.Listener):
    """Starts the helper process on the first compile event."""

    def __init__(self, folder, plan, args):
        self.arguments = [folder, plan, args]
        self.started = False
        self.helper = None

    def on_start(self, ev):
        if self.started:
            return
        self.started = True
        code = (
            "import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
            "from tessera.parallel_compile import run_helper; run_helper(*sys.argv[2:])"
        )
        try:
            self.helper = subprocess.Popen(
                [sys.executable, "-c", code, json.dumps(sys.path), *self.arguments],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:  # no interpreter to start: the command compiles alone
            pass

    def on_end(self, ev):
        pass

    def stop(self):
        if self.helper is not None:
            # Whatever it still compiles, the command has compiled itself by now.
            self.helper.kill()
            self.helper.wait(KILLED_SECONDS)


def run_helper(folder, plan, args):
    """The helper process: compile the plan's kernels in order, skipping any the command is
    compiling now."""
    locks = KernelLocks(folder)
    jit.compile_guard = locks.compiling
    module, _, name = plan.partition(":")
    for kernel, kernel_args in getattr(importlib.import_module(module), name)(*json.loads(args)):
        if not locks.busy(kernel):
            bind.ready(kernel, *kernel_args)
