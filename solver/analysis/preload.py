"""Imported once by the fork server the search processes are forked from: the search
modules imported and the games of ``tessera analyze --warm`` loaded (from numba's
cache, compiled if need be) and run once, so that a new search process answers its
first query on those games without loading or compiling anything. Other games load
in a search process when a query first needs them (before its clock starts).

The pool names the games in ``WARM_VARIABLE`` of the fork server's environment: a
fork server's preload takes module names only.

Only single-tree searches run here: the threads of a search with several trees must
start in the search processes, after the fork.
"""

import os

from tessera.analysis.pool import WARM_VARIABLE
from tessera.analysis.warmup import warm_up

try:
    warm_up([name for name in os.environ.get(WARM_VARIABLE, "").split(",") if name])
except Exception:  # a search process that needs what failed meets the error itself
    pass
