"""Tessera's games for learning programs (the ``rl`` extra; docs/rl.md): a batched numba
environment (``solver.rl.vector``), PettingZoo environments (``solver.rl.aec``) and
OpenSpiel games (``solver.rl.spiel``), all on the same action ids and observations
(``solver.rl.encoding``; one game played by action ids: ``solver.rl.table``)."""
