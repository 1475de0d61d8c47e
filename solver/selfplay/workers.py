"""Where chunks run on this machine: in this process, or in a pool of worker processes.

Both are context managers whose ``run(plan, chunks)`` yields (chunk, ``FinishedChunk``)
as chunks finish: the chunk's Parquet file as bytes and its outcomes, so this
process only writes files. Cores are shared out: each of ``K`` workers gets
``cores // K`` numba threads (at least one), so the workers together do not
oversubscribe the machine. Leaving the ``with`` block on an exception (Ctrl-C)
stops the workers, processes and threads alike, at their chunk's next kernel call
(``chunk.STOP``, every ``chunk.SLICE`` games) or next search game; the chunks they
were playing are lost, the finished ones were yielded.

Worker processes (of the pool, and of a Dask LocalCluster) are forked from a fork
server (``worker_context``), started once per process with SIGINT ignored, that has
imported the kernels and started numba (``tessera.selfplay.preload``): a worker is
ready in a fraction of the second a freshly spawned interpreter takes. The server
never runs a parallel kernel, so numba's threads start in each worker, after the
fork (they do not survive one). Where there is no fork server (Windows), workers
are spawned. A pool worker exits by itself when the process that owns the pool is
gone, killed without a chance to stop it (``start_worker``).
"""

import multiprocessing
import os
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from itertools import islice
from multiprocessing import forkserver, get_all_start_methods, get_context

from tessera.cores import available_cores
from tessera.selfplay.chunk import STOP, all_batched, play_chunk_file, stop_with

MAX_POOL_RESTARTS = 3
ORPHANED = 1  # exit status of a worker whose parent is gone (nobody reads it)
PRELOAD = "tessera.selfplay.preload"


def threads_per_worker(workers):
    return max(1, available_cores() // workers)


def set_numba_threads(threads):
    import numba

    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


class InProcess:
    """Chunks in this process, on ``threads`` threads.

    With only cheap agents, each of ``threads`` threads plays whole chunks, one at a
    time: the kernel on that thread alone (``chunk.play_batched`` with one numba
    thread; it releases the GIL), then the chunk's records and Parquet bytes (whose
    encoding releases it too), so the cores play and encode side by side and this
    thread only writes files. Chunks land in the order they finish. With one thread,
    or with search agents (which use numba's threads themselves, and which Ctrl-C
    should stop between moves, not after a whole chunk), chunks are played one after
    another in this thread, the kernel over ``threads`` numba threads.
    """

    AHEAD = 2  # chunks queued per thread, so that none waits for this one

    def __init__(self, threads):
        self.threads = threads
        self.numba_threads = None

    def __enter__(self):
        import numba

        self.numba_threads = numba.get_num_threads()
        set_numba_threads(self.threads)
        return self

    def __exit__(self, *exc_info):
        set_numba_threads(self.numba_threads)
        return False

    def run(self, plan, chunks):
        if self.threads < 2 or not all_batched(plan.agents):
            for chunk in chunks:
                yield chunk, play_chunk_file(plan, chunk)
            return
        # numba's thread count is per thread: each of these runs the kernel on its own.
        pool = ThreadPoolExecutor(self.threads, initializer=set_numba_threads, initargs=(1,))
        queue = iter(chunks)
        running = {}

        def submit(count):
            for chunk in islice(queue, count):
                running[pool.submit(play_chunk_file, plan, chunk)] = chunk

        try:
            submit(self.AHEAD * self.threads)
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    chunk = running.pop(future)
                    submit(1)
                    yield chunk, future.result()
        finally:
            STOP.set()  # chunks still playing give up at their next slice
            pool.shutdown(wait=True, cancel_futures=True)
            STOP.clear()


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


def worker_context(preload=()):
    """The multiprocessing context to start worker processes with: the fork server,
    started here if it is not running yet (it then imports ``preload`` and ``PRELOAD``
    before it forks any worker), or spawn where there is none.

    Starting the server does not wait for its imports: the first worker waits for them,
    so they overlap whatever this process does meanwhile. A server already running
    keeps the modules it was started with (a worker imports what it lacks).
    """
    if "forkserver" not in get_all_start_methods():
        return get_context("spawn")
    context = get_context("forkserver")
    context.set_forkserver_preload([*preload, PRELOAD])
    with sigint_ignored():  # the server and every worker it forks ignore Ctrl-C
        forkserver.ensure_running()
    return context


def start_worker(threads, stop):
    """A pool worker's start: its numba threads, the pool's stop event as ``chunk.STOP``, and
    a watch on the process that owns the pool."""
    set_numba_threads(threads)
    stop_with(stop)
    threading.Thread(target=_exit_with_parent, name="parent-watch", daemon=True).start()


def _exit_with_parent():
    """End this worker as soon as the process that started it has ended.

    A run killed outright (SIGKILL, the out-of-memory killer) cannot stop its pool: its
    workers would wait for work for ever, each holding the fork server's liveness pipe
    open, so the fork server stayed too. The parent's sentinel (a pipe only the parent
    holds open) reaches its end when the parent dies, however it dies; the fork server
    then sees its own pipe end once the last worker is gone, and exits.
    """
    multiprocessing.parent_process().join()
    os._exit(ORPHANED)


class ProcessPool:
    """Chunks spread over ``workers`` processes, forked from the fork server (``worker_context``).

    A worker that dies breaks the pool: the chunks in flight are lost and played
    again in a new pool, up to ``MAX_POOL_RESTARTS`` times in a run.
    """

    def __init__(self, workers, threads):
        self.workers = workers
        self.threads = threads
        self.executor = None
        self.stop = None

    def __enter__(self):
        self.executor = self._new_executor()
        return self

    def __exit__(self, exc_type, *exc_info):
        if exc_type is not None:
            # The workers give up their chunks at their next slice or game (``chunk.STOP``).
            # Terminating them instead can cut a result off in the middle of the pipe,
            # and the executor then waits for the rest of it for ever.
            self.stop.set()
        self.executor.shutdown(wait=True, cancel_futures=True)
        return False

    def _new_executor(self):
        context = worker_context()
        self.stop = context.Event()
        return ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=start_worker, initargs=(self.threads, self.stop)
        )

    def run(self, plan, chunks):
        pending = list(chunks)
        restarts = 0
        while pending:
            with sigint_ignored():  # the workers start with the first submissions
                futures = {self.executor.submit(play_chunk_file, plan, chunk): chunk for chunk in pending}
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
                self.executor.shutdown(wait=True)  # a broken pool stopped its workers
                self.executor = self._new_executor()
