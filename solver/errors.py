"""User-facing errors: each carries one line that names what is wrong.

``TesseraError``, the base of them all, and the errors the kernels raise are defined in the
kernel layer, below everything that raises or catches them, and given out here.
``require_extra`` imports an optional library, or names the extra that installs it."""

import importlib
from types import ModuleType

# Given out here ("X as X" marks a re-export).
from tessera.kernels.boarddata import BoardDataError as BoardDataError
from tessera.kernels.errors import TesseraError as TesseraError
from tessera.kernels.errors import UnsupportedPlatformError as UnsupportedPlatformError


class PositionError(TesseraError):
    """A position that does not parse or breaks a rule; names the offending field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"bad position: {field}: {message}")


class MoveError(TesseraError):
    """A move that does not parse or is not legal in the position."""

    def __init__(self, text: str, message: str) -> None:
        self.text = text
        super().__init__(f"bad move '{text}': {message}")


class OptionError(TesseraError):
    """A command option with a value the game does not accept."""


# The distribution's name on the package index (``tessera`` there is another project).
DISTRIBUTION = "tessera-games"


class MissingExtra(TesseraError, ImportError):
    """An optional library that is not installed: the one line names the extra that installs
    it and the command. An ImportError too, as a failed import is (``pytest.importorskip``)."""

    def __init__(self, what: str, extra: str) -> None:
        self.extra = extra
        super().__init__(f'{what} needs the {extra!r} extra: pip install "{DISTRIBUTION}[{extra}]"')


def require_extra(module: str, extra: str, what: str) -> ModuleType:
    """The module ``module`` of an optional library (pyproject.toml's extras), imported.
    When it, or a library it needs, is not installed: ``MissingExtra``, saying that ``what``
    (a command, or what the caller is doing) needs ``extra``. The core install has none of
    these libraries, so every such import goes through here, where it is needed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        raise MissingExtra(what, extra) from missing
