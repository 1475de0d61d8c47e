"""Tessera: a game-tree search engine and solver for Azul, Azul: Summer Pavilion and Azure.

The public API, in the games' own notation::

    import tessera

    start = tessera.Position.new("azul", seed=1)
    after = start.play("F1 blue 1")
    print(tessera.best(after, visits=2000)["moves"][0]["move"])

- ``Position``: positions and moves by their text; ``.best()``, ``.solve()``, ``.view()``.
- ``best(position, ...)`` and ``solve(position, ...)``: the same searches for a position
  or its text.
- ``parse_agent``, ``ExternalAgent``, ``play_game``, ``get_game``: players and games.
- ``TesseraError`` and its kinds: every error a user's input can cause, and
  ``MissingExtra``: an optional library not installed (the extra to install is named).

The names load on first use, so ``import tessera`` costs nothing until they are used
(the command line and the kernels' worker processes import this package first).
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> the module that defines it.
_EXPORTS = {
    "Position": "tessera.position",
    "ChanceDraws": "tessera.position",
    "Agent": "tessera.agents",
    "Decision": "tessera.agents",
    "GameRecord": "tessera.agents",
    "MoveEvent": "tessera.agents",
    "parse_agent": "tessera.agents",
    "play_game": "tessera.agents",
    "ExternalAgent": "tessera.external",
    "AgentError": "tessera.external",
    "Game": "tessera.games",
    "get_game": "tessera.games",
    "TesseraError": "tessera.errors",
    "PositionError": "tessera.errors",
    "MoveError": "tessera.errors",
    "OptionError": "tessera.errors",
    "MissingExtra": "tessera.errors",
}

__all__ = ["__version__", "best", "solve", *_EXPORTS]

if TYPE_CHECKING:
    # The lazy exports above, named for type checkers ("X as X" marks a re-export).
    from tessera.agents import Agent as Agent
    from tessera.agents import Decision as Decision
    from tessera.agents import GameRecord as GameRecord
    from tessera.agents import MoveEvent as MoveEvent
    from tessera.agents import parse_agent as parse_agent
    from tessera.agents import play_game as play_game
    from tessera.errors import MissingExtra as MissingExtra
    from tessera.errors import MoveError as MoveError
    from tessera.errors import OptionError as OptionError
    from tessera.errors import PositionError as PositionError
    from tessera.errors import TesseraError as TesseraError
    from tessera.external import AgentError as AgentError
    from tessera.external import ExternalAgent as ExternalAgent
    from tessera.games import Game as Game
    from tessera.games import get_game as get_game
    from tessera.position import ChanceDraws as ChanceDraws
    from tessera.position import Position as Position


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tessera' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def _position(position: "Position | str | dict[str, Any]") -> "Position":
    from tessera.position import Position

    return position if isinstance(position, Position) else Position.parse(position)


def best(position: "Position | str | dict[str, Any]", **search: Any) -> dict[str, Any]:
    """Rank the moves of ``position`` (a ``Position``, or its text or JSON) by a search:
    the document of ``tessera best --json`` as a dict. ``search`` takes the keywords of
    ``Position.best`` (``visits``, ``time``, ``algo``, ``threads``, ``seed``, ...)."""
    return _position(position).best(**search)


def solve(position: "Position | str | dict[str, Any]", time: "float | None" = None) -> dict[str, Any]:
    """The exact value and best moves of ``position``: the document of
    ``tessera solve --json`` as a dict (``time`` in seconds bounds it)."""
    return _position(position).solve(time=time)
