"""Tessera's games for learning programs (the ``rl`` extra; docs/rl.md): a batched numba
environment (``tessera.rl.vector``), PettingZoo environments (``tessera.rl.aec``) and
OpenSpiel games (``tessera.rl.spiel``), all on the same action ids and observations
(``tessera.rl.encoding``; one game played by action ids: ``tessera.rl.table``)."""
