"""Numba kernels: the rules of each game, and search, perft, playouts and self-play
written once for every game and instantiated per game (``tessera.kernels.bind``)."""

import sys

from tessera.kernels.errors import UnsupportedPlatformError

# The search's clock (``tessera.kernels.search.clock``) calls the C library's clock_gettime
# with the monotonic clock's id, known for these; anywhere else, refuse here rather than
# fail in the clock's codegen or read a wrong clock.
SUPPORTED_PLATFORMS = ("linux", "darwin")
if sys.platform not in SUPPORTED_PLATFORMS:
    if sys.platform == "win32":
        raise UnsupportedPlatformError(
            "Tessera runs on Linux and macOS; Windows is not supported (its search clock "
            "calls clock_gettime, which Windows' C library lacks)"
        )
    raise UnsupportedPlatformError(
        f"Tessera runs on Linux and macOS; {sys.platform} is not supported (its search clock "
        "calls clock_gettime with an id known only for those)"
    )

from tessera.kernels import bind  # noqa: E402  (after the platform check)

bind.install()
