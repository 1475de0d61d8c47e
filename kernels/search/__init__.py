"""Game-independent search kernels: they speak only through ``kernels.games``."""
