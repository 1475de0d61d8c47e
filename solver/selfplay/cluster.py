"""Chunks as tasks on a Dask cluster: an existing scheduler, or a LocalCluster started here.

Each chunk is one task, seeded from (seed, chunk) like everywhere else, so where
it runs changes nothing in its records. A task returns its records to this
process, which writes them: the workers need no shared disk. When a worker is
lost, the scheduler gives its tasks to another worker (up to Dask's
``distributed.scheduler.allowed-failures``): the lost chunk is played again.

Numba threads: a task sets its worker's numba thread count to the host's cores
divided by the Dask threads all workers on that host run, so the workers of a
host do not oversubscribe it; a task that shares its process with other task
threads uses one (``play_chunk_on_worker``). Before the first chunk, every worker process
warms the plan's kernels (``chunk.warm_up``, one task per worker, waited for): a worker on
this machine loads them from numba's cache, which the runner has just filled; a worker on
another machine compiles them once and caches them there, and no chunk's time includes
a compile.
"""

import logging
import uuid
import warnings

from tessera.cores import available_cores
from tessera.errors import TesseraError, require_extra
from tessera.selfplay.chunk import STOP, play_chunk_file, warm_up
from tessera.selfplay.workers import set_numba_threads, sigint_ignored, worker_context

LOCAL = "local"
CONNECT_TIMEOUT = "10s"
# Coarse tasks need none of Dask's fine-grained monitoring, which idles at about a fifth
# of a core for a LocalCluster of two workers; with these it is about a twentieth.
QUIET_LOCAL_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
}


def play_chunk_on_worker(plan, chunk, dask_threads_by_host, shared_process):
    """``play_chunk_file`` as a Dask task, with this worker's share of its host's cores.

    A task that shares its process with other task threads (a worker with several
    threads, or the workers of a threads LocalCluster: ``shared_process``) plays on one
    numba thread: not every numba threading layer may be entered from two threads at
    once (workqueue aborts the process), and its siblings use the other cores.
    """
    from distributed import get_worker
    from distributed.comm import get_address_host

    worker = get_worker()
    if shared_process or worker.state.nthreads > 1:
        set_numba_threads(1)
    else:
        sharing = dask_threads_by_host.get(get_address_host(worker.address), 1)
        set_numba_threads(available_cores() // max(1, sharing))
    return play_chunk_file(plan, chunk)


class DaskCluster:
    """``address``: a scheduler's address, or ``local`` for a LocalCluster of ``workers``
    single-threaded workers: worker processes, or with ``processes`` False worker threads
    of this process (enough for chunks that run in the kernel, which releases the GIL;
    they need no processes to start, and their results no pickling between processes)."""

    def __init__(self, address, workers, processes=True):
        self.address = address
        self.workers = workers
        self.processes = processes
        self.cluster = None
        self.client = None
        self.config = None
        self.futures = []

    def __enter__(self):
        require_extra("distributed", "cluster", "self-play on a Dask cluster")  # dask with it
        config = dict(QUIET_LOCAL_CLUSTER)
        if self.address == LOCAL and self.processes:
            # First, so that the fork server's imports overlap this process's own.
            config["distributed.worker.multiprocessing-method"] = worker_context(
                preload=["distributed"]
            ).get_start_method()
        import dask
        from distributed import Client, LocalCluster

        if self.address == LOCAL:
            # Kept while the cluster lives: a nanny restarting a lost worker reads it again.
            self.config = dask.config.set(config)
            try:
                with sigint_ignored(), warnings.catch_warnings():
                    # The scheduler's HTTP endpoint takes another port when 8787 is taken.
                    warnings.filterwarnings("ignore", "Port .* is already in use")
                    self.cluster = LocalCluster(
                        n_workers=self.workers,
                        threads_per_worker=1,
                        processes=self.processes,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,
                    )
                    self.client = Client(self.cluster)
            except BaseException:
                if self.cluster is not None:
                    self.cluster.close()
                self.config.__exit__(None, None, None)
                raise
        else:
            try:
                self.client = Client(self.address, timeout=CONNECT_TIMEOUT)
            except (OSError, ValueError, TypeError) as err:
                raise TesseraError(f"cannot reach the Dask scheduler at '{self.address}': {err}") from None
        return self

    def __exit__(self, exc_type, *exc_info):
        if exc_type is not None and self.futures:
            STOP.set()  # tasks playing in this process's threads give up at once
            self.client.cancel(self.futures)
        self.futures = []
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        STOP.clear()
        if self.config is not None:
            self.config.__exit__(None, None, None)
        return False

    def dask_threads_by_host(self):
        from distributed.comm import get_address_host

        by_host = {}
        for address, info in self.client.scheduler_info(n_workers=-1)["workers"].items():
            host = get_address_host(address)
            by_host[host] = by_host.get(host, 0) + info["nthreads"]
        return by_host

    def warm_workers(self, plan, run_id):
        """``warm_up(plan)`` on every worker, before any chunk is submitted."""
        workers = list(self.client.scheduler_info(n_workers=-1)["workers"])
        self.futures = [
            self.client.submit(
                warm_up,
                plan,
                workers=[address],
                allow_other_workers=False,
                pure=False,
                key=f"tessera-warm-{i}-{run_id}",
            )
            for i, address in enumerate(workers)
        ]
        self.client.gather(self.futures)
        self.futures = []

    def run(self, plan, chunks):
        from distributed import as_completed

        by_host = self.dask_threads_by_host()
        run_id = uuid.uuid4().hex[:8]
        shared_process = self.address == LOCAL and not self.processes
        if not shared_process:  # worker threads of this process share its warm kernels
            self.warm_workers(plan, run_id)
        self.futures = [
            self.client.submit(
                play_chunk_on_worker,
                plan,
                chunk,
                by_host,
                shared_process,
                pure=False,
                key=f"tessera-chunk-{chunk}-{run_id}",
            )
            for chunk in chunks
        ]
        keys = {future.key: chunk for future, chunk in zip(self.futures, chunks)}
        for future in as_completed(self.futures):
            chunk = keys[future.key]
            finished = future.result()
            future.release()
            yield chunk, finished
