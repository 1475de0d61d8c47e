"""Self-play at scale: batches of seeded games, written to Parquet chunk by chunk.

- ``plan``: a run's parameters (``run.json``) and what game ``i`` of it is;
  ``seeds`` and ``seating`` say how game ``i`` is dealt and seated;
- ``chunk``: plays one chunk of games (cheap agents batched in numba, search
  agents one game at a time through ``tessera.agents``), from the start positions
  ``starts`` deals a batch at a time;
- ``records``: the Parquet records of the chunks, written atomically and checked
  when read against their SHA-256 in the run's manifest (``checksums``); ``files``:
  writing a run's files whole or not at all, and the one line a failed write gives;
- ``workers`` and ``cluster``: where chunks run (this process, a local process
  pool, or a Dask cluster); ``preload``: what the fork server that worker processes
  are forked from imports once for all of them;
- ``runner``: a run from start or resume to the last chunk, with progress and Ctrl-C;
- ``stats``, ``report`` and ``plots``: the statistics of the records, as text,
  JSON and PNG.

docs/selfplay.md describes the command and the numbers.
"""
