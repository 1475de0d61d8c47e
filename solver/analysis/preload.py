"""Imported once by the fork server the search processes are forked from: the kernels
loaded (from numba's cache) and run once on every game, so that a new search process
answers its first query without loading or compiling anything.

Only single-threaded kernels run here: numba's threading layer must start in the
search processes, after the fork (a search with ``threads > 1`` starts it).
"""
from solver.analysis.warmup import warm_up

try:
    warm_up()
except Exception:       # a search process that needs what failed meets the error itself
    pass
