"""Game-independent search kernels: templates written against the game interface
(``kernels.games``) and instantiated per game (``kernels.bind``)."""
