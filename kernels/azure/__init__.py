"""Azure kernels: the common game interface on int64 states (filled in as the rules land)."""
