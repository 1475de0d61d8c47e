"""User-facing errors: each carries one line that names what is wrong."""


class TesseraError(Exception):
    """Bad input from the user. The CLI prints ``str(err)`` on one line and exits 2."""


class PositionError(TesseraError):
    """A position that does not parse or breaks a rule; names the offending field."""

    def __init__(self, field, message):
        self.field = field
        super().__init__(f"bad position: {field}: {message}")


class MoveError(TesseraError):
    """A move that does not parse or is not legal in the position."""

    def __init__(self, text, message):
        self.text = text
        super().__init__(f"bad move '{text}': {message}")


class OptionError(TesseraError):
    """A command option with a value the game does not accept."""


class UnsupportedPlatformError(TesseraError, ImportError):
    """Tessera imported on a system its kernels cannot run on (``tessera.kernels`` refuses
    at import); the console prints its one line and exits 1."""
