"""`tessera analyze`: a long-running engine that reads JSON queries on stdin and writes
JSON answers on stdout (docs/analyze.md).

- ``lines`` and ``jsonline``: input lines of bounded size, read as JSON whatever their
  bytes (nesting, numbers, text checked);
- ``protocol``: a query line checked against ``query.schema.json``, its position and turns;
- ``positions``: the positions a query's moves lead to;
- ``searching``: one turn's search in a worker, with partial answers and stopping;
- ``worker`` and ``pool``: the search processes (``preload`` and ``warmup``: what their
  fork server loads and runs first; ``lifetime``: they end when the engine does);
- ``engine``: the loop that reads, dispatches and writes;
- ``client``: a driver of the process for Python programs, the tests and the bench.
"""
