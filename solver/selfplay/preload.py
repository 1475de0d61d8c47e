"""Imported once by the fork server that worker processes are forked from
(``workers.worker_context``): the imports and numba's start-up, which every worker
would otherwise pay for itself (about a second of CPU time each).

Nothing parallel runs here: numba's threading layer must first start in the
workers, after the fork (``workers.set_numba_threads``).
"""

import sys

import numpy  # noqa: F401

from tessera.selfplay import chunk  # noqa: F401  (the kernels, agents and records)

try:
    from tessera.kernels.rng import make_rng

    make_rng(0)  # numba's first call starts its compiler and target (from its cache)
    from tessera.selfplay.records import arrow

    arrow()  # pyarrow and its Parquet module, which the workers' records need
    if "distributed" in sys.modules:  # the server of a Dask LocalCluster's workers:
        from distributed.versions import get_versions

        get_versions()  # what each worker reports when it registers (cached)
except Exception:  # a worker that needs it meets the error itself
    pass
