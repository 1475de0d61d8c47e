"""Tessera's games for learning programs (the ``rl`` extra; docs/rl.md): a batched numba
environment (``solver.rl.vector``), PettingZoo environments (``solver.rl.pettingzoo``) and
OpenSpiel games (``solver.rl.openspiel``), all on the same action ids and observations
(``solver.rl.encoding``)."""
