"""The search processes of `tessera analyze`, each behind its own pipe.

Alpha-beta and the solver hold the GIL while they run (only MCTS's ``run_tree`` releases
it), so threads in one process would take turns; separate processes search side by side.
Each process has its own pipe, so a process that is killed (to stop an alpha-beta
search, which has no stop hook) takes only its own half-written message with it.
Processes are forked from a fork server that has imported the search and loaded the
kernels of the games to warm (``preload``), so a new one is ready at once; where there
is none they are spawned. They end with the engine, killed or not (``lifetime``).
"""

import os
from multiprocessing import get_all_start_methods, get_context

from tessera.analysis.worker import serve

PRELOAD = "tessera.analysis.preload"
WARM_VARIABLE = "TESSERA_ANALYZE_WARM"  # read by ``preload`` in the fork server
NO_JOB = -1


def _context(warm):
    if "forkserver" in get_all_start_methods():
        os.environ[WARM_VARIABLE] = ",".join(warm)  # the fork server starts with it
        context = get_context("forkserver")
        context.set_forkserver_preload([PRELOAD])
        return context
    return get_context("spawn")


class SearchProcess:
    """One search process: ``send`` a message, ``conn`` to read its answers."""

    def __init__(self, context, index):
        self.index = index
        self.stop_serial = context.Value("q", NO_JOB, lock=False)
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=serve, args=(child, self.stop_serial), name=f"tessera-analyze-{index}", daemon=True
        )
        self.process.start()
        child.close()
        self.job = None  # the Job it runs, or None when idle
        self.alive = True  # False once it ended while the engine stops
        self.kill_reason = None  # the answer of its job when it is killed to stop it
        self.trees = []  # keys of its kept trees, oldest first

    def send(self, message):
        self.conn.send(message)

    def stop_job(self):
        if self.job is not None:
            self.stop_serial.value = self.job.serial

    def kill(self):
        self.process.kill()
        self.process.join()
        self.conn.close()

    def close(self, timeout):
        """Let the process end (its pipe closes), killing it after ``timeout`` seconds."""
        self.conn.close()
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class Pool:
    def __init__(self, size, warm=()):
        """``size`` search processes; ``warm``: names of the games loaded before any query."""
        self.context = _context(warm)
        self.processes = [SearchProcess(self.context, i) for i in range(size)]

    def replace(self, process):
        """Kill ``process`` and start a fresh one in its place (its kept trees are lost)."""
        process.kill()
        fresh = SearchProcess(self.context, process.index)
        self.processes[process.index] = fresh
        return fresh

    def close(self, timeout=5.0):
        for process in self.processes:
            process.close(timeout)
