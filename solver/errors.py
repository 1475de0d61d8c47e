"""User-facing errors: each carries one line that names what is wrong.

``TesseraError``, the base of them all, and the errors the kernels raise are defined in the
kernel layer, below everything that raises or catches them, and given out here."""
from tessera.kernels.boarddata import BoardDataError  # noqa: F401  (given out here)
from tessera.kernels.errors import TesseraError, UnsupportedPlatformError  # noqa: F401


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
