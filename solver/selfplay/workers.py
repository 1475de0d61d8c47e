"""Where chunks run on this machine: in this process, or in a pool of worker processes.

Both are context managers whose ``run(plan, chunks)`` yields (chunk, records) as
chunks finish. Cores are shared out: each of ``K`` workers gets ``cores // K``
numba threads (at least one), so the workers together do not oversubscribe the
machine. Leaving the ``with`` block on an exception (Ctrl-C) stops the workers at
once; the chunks they were playing are lost, the finished ones were yielded.
"""
import os
import signal
from contextlib import contextmanager
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from solver.selfplay.chunk import play_chunk

MAX_POOL_RESTARTS = 3


def available_cores():
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def threads_per_worker(workers):
    return max(1, available_cores() // workers)


def set_numba_threads(threads):
    import numba
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


class InProcess:
    """Chunks one after another in this process, the kernel over ``threads`` threads."""

    def __init__(self, threads):
        self.threads = threads

    def __enter__(self):
        set_numba_threads(self.threads)
        return self

    def __exit__(self, *exc_info):
        return False

    def run(self, plan, chunks):
        for chunk in chunks:
            yield chunk, play_chunk(plan, chunk)


@contextmanager
def sigint_ignored():
    """Ctrl-C ignored while worker processes start here: they keep ignoring it.

    A terminal sends Ctrl-C to the whole process group; only this process should
    act on it (and stop the workers), not every worker with a traceback. An ignored
    signal stays ignored in a child, through exec too, and Python and asyncio then
    install no handler of their own.
    """
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class ProcessPool:
    """Chunks spread over ``workers`` processes (spawned: numba's threads do not survive a fork).

    A worker that dies breaks the pool: the chunks in flight are lost and played
    again in a new pool, up to ``MAX_POOL_RESTARTS`` times in a run.
    """

    def __init__(self, workers, threads):
        self.workers = workers
        self.threads = threads
        self.executor = None

    def __enter__(self):
        self.executor = self._new_executor()
        return self

    def __exit__(self, exc_type, *exc_info):
        self._stop(kill=exc_type is not None)
        return False

    def _new_executor(self):
        return ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                   initializer=set_numba_threads, initargs=(self.threads,))

    def _stop(self, kill):
        if kill:
            # Python 3.14 has executor.terminate_workers(); until then, its process table.
            for process in list(self.executor._processes.values()):
                process.terminate()
        self.executor.shutdown(wait=True, cancel_futures=True)

    def run(self, plan, chunks):
        pending = list(chunks)
        restarts = 0
        while pending:
            with sigint_ignored():      # the workers start with the first submissions
                futures = {self.executor.submit(play_chunk, plan, chunk): chunk
                           for chunk in pending}
            broken = False
            for future in as_completed(futures):
                if isinstance(future.exception(), BrokenProcessPool):
                    broken = True
                    continue
                chunk = futures[future]
                pending.remove(chunk)
                yield chunk, future.result()
            if broken:
                restarts += 1
                if restarts > MAX_POOL_RESTARTS:
                    raise RuntimeError(f"worker processes died {restarts} times; stopping")
                self._stop(kill=True)
                self.executor = self._new_executor()
