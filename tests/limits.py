"""How long a test waits on a child process, and how it ends one that overruns.

Every child a test starts has a timeout of its own (tests/README.md, "Hangs"; checked by
tests/test_child_timeouts.py), so that a hung child fails its test instead of blocking
the run: pytest-timeout's signal cannot reliably interrupt every blocking wait.
"""

import os
import queue
import signal
import subprocess
import threading

# Seconds for a child that may compile numba kernels in an empty cache before it answers:
# any `tessera` command, any Python that imports the kernels, an analysis engine's first
# answer (every game, with --warm all) on a slow, busy machine.
COLD_START_SECONDS = 600
# Seconds for a child that compiles nothing: a shell tool, a command that only reads files.
CHILD_SECONDS = 120
# Seconds for a child told to stop (Ctrl-C, SIGTERM, its stdin closed) to exit.
EXIT_SECONDS = 60
# Seconds for a killed child to be reaped.
KILL_SECONDS = 10


def kill(process, group=False):
    """SIGKILL to the ``subprocess.Popen`` ``process`` (to its whole process group with
    ``group``, for a child started with ``start_new_session``), then reap it, waiting at
    most KILL_SECONDS. Nothing happens to a child that has exited already."""
    if process.poll() is None:
        try:
            if group:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        except ProcessLookupError:  # exited in between
            pass
    process.wait(timeout=KILL_SECONDS)


def wait_or_kill(process, timeout, group=False):
    """``process.wait(timeout=timeout)``; a child still running then is killed and reaped
    (``kill``) before the ``subprocess.TimeoutExpired`` propagates."""
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(process, group)
        raise


def communicate_or_kill(process, timeout, group=False, **options):
    """``process.communicate(timeout=timeout, **options)``; a child still running then is
    killed and reaped (``kill``) before the ``subprocess.TimeoutExpired`` propagates."""
    try:
        return process.communicate(timeout=timeout, **options)
    except subprocess.TimeoutExpired:
        kill(process, group)
        raise


def line_queue(stream):
    """A queue of the lines of ``stream`` (a child's stdout), then None at its end, filled
    by a daemon thread: read it with ``get(timeout=...)``, which never blocks for good as
    ``stream.readline()`` can."""
    lines = queue.Queue()

    def read():
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines
