"""Game-independent search kernels: templates written against the game interface
(``tessera.kernels.games``) and instantiated per game (``tessera.kernels.bind``)."""
