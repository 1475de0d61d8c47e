"""An external player at a seat of ``play_game`` or `tessera selfplay`: a Python
function from a ``Position`` (the view of the player to move) to a move.

The function returns the move's text (or its engine code); anything else, an illegal
move or an exception inside it ends the game with an ``AgentError`` naming the player.
In `tessera selfplay` the spec ``python:module=M,function=F`` (or ``file=PATH.py``
instead of ``module``) seats it; each worker process imports it there.
"""

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from tessera.errors import MoveError, OptionError, TesseraError
from tessera.players import Agent

if TYPE_CHECKING:
    import numpy as np

    from tessera.position import Position


class AgentError(TesseraError):
    """An external player that failed: it raised, or returned no legal move."""


class ExternalAgent(Agent):
    name = "python"

    def __init__(self, function: "Callable[[Position], str | int]", spec: "str | None" = None) -> None:
        super().__init__(spec or f"python:{getattr(function, '__qualname__', repr(function))}")
        self.function = function

    def choose(self, state: "np.ndarray") -> int:
        from tessera.position import Position

        position = Position.from_state(state)
        try:
            answer = self.function(position)
        except TesseraError:
            raise
        except Exception as err:
            raise AgentError(f"player {self.spec} raised {type(err).__name__}: {err}") from err
        if isinstance(answer, str):
            try:
                return position.parse_move(answer)
            except MoveError as err:
                raise AgentError(f"player {self.spec} returned an illegal move: {err}") from None
        if isinstance(answer, int) and not isinstance(answer, bool):
            if answer in _legal_codes(state):
                return answer
            raise AgentError(f"player {self.spec} returned the move code {answer}, not legal here")
        raise AgentError(f"player {self.spec} returned {answer!r}, not a move")


def _legal_codes(state: "np.ndarray") -> set[int]:
    import numpy as np

    from tessera.kernels import games

    codes = np.empty(games.MAX_MOVES, np.int64)
    return set(codes[: games.legal_moves(state, codes)].tolist())


def external_agent(spec: str, settings: dict[str, str]) -> ExternalAgent:
    """The agent of ``python:module=M,function=F`` or ``python:file=PATH,function=F``."""
    unknown = set(settings) - {"module", "file", "function"}
    if unknown:
        raise OptionError(f"unknown key '{sorted(unknown)[0]}' (known: module, file, function)")
    if ("module" in settings) == ("file" in settings) or "function" not in settings:
        raise OptionError("python needs function=F and one of module=M or file=PATH")
    if "module" in settings:
        try:
            namespace = importlib.import_module(settings["module"])
        except ImportError as err:
            raise OptionError(f"cannot import {settings['module']}: {err}") from None
    else:
        namespace = _load_file(str(Path(settings["file"]).resolve()))
    function = getattr(namespace, settings["function"], None)
    if not callable(function):
        raise OptionError(
            f"{settings['function']} is not a function of {settings.get('module') or settings.get('file')}"
        )
    return ExternalAgent(function, spec)


@cache
def _load_file(name: str) -> ModuleType:
    """The module of the file ``name``, loaded once per process (self-play builds the
    agents of every game from their specs)."""
    path = Path(name)
    if not path.is_file():
        raise OptionError(f"no file {path}")
    spec = importlib.util.spec_from_file_location(f"tessera_player_{path.stem}", path)
    if spec is None or spec.loader is None:  # a suffix no importer reads, such as .txt
        raise OptionError(f"cannot load {path}: not a Python module (a .py file)")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as err:
        raise OptionError(f"cannot load {path}: {type(err).__name__}: {err}") from None
    return module
