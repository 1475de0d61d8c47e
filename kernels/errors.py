"""The errors the kernel layer raises to the user, defined here, below everything that
raises or catches them (``tessera.errors`` gives them to the layers above)."""


class TesseraError(Exception):
    """Bad input from the user. The CLI prints ``str(err)`` on one line and exits 2."""


class UnsupportedPlatformError(TesseraError, ImportError):
    """Tessera imported on a system its kernels cannot run on (``tessera.kernels`` refuses
    at import); the console prints its one line and exits 1."""

    unsupported_platform = True  # the console's mark: it cannot import this class there
