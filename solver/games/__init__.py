"""The registry of games: one ``Game`` per name, the Python face of its kernels, each with
its facts as data (``Game.spec``, a ``tessera.games.spec.GameSpec``)."""

import json
from typing import Any

import numpy as np

from tessera.errors import OptionError, PositionError
from tessera.games.azul import AZUL
from tessera.games.azure import AZURE
from tessera.games.base import Game as Game  # re-exported ("X as X")
from tessera.games.pavilion import PAVILION

# Every game, in the order lists of games show them.
GAMES: tuple[Game, ...] = (AZUL, AZURE, PAVILION)
_BY_NAME = {game.name: game for game in GAMES}
_BY_ID = {game.spec.id: game for game in GAMES}


def registered_games() -> dict[str, Game]:
    """{name: Game} of every game."""
    return dict(_BY_NAME)


def get_game(name: str) -> Game:
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise OptionError(f"unknown game '{name}' (known: {known})") from None


def game_with_id(game_id: int) -> Game | None:
    """The game whose states have ``game_id`` in word 0, or None."""
    return _BY_ID.get(game_id)


def game_of_position(text: str) -> tuple[Game, np.ndarray]:
    """The game a position text or JSON document is written for, and the parsed state."""
    from tessera.notation.fields import position_text

    stripped = position_text(text).strip()
    if stripped.startswith("{"):
        obj = _json_document(stripped)
        if not isinstance(obj, dict) or "game" not in obj:
            raise PositionError("game", "JSON position needs a 'game' key")
        game = _game_named(obj["game"])
        return game, game.position_from_json(obj)
    words = stripped.replace(";", " ").split()
    if not words:
        raise PositionError("position", "empty input")
    game = _game_named(words[0])
    return game, game.parse_position(stripped)


def _json_document(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise PositionError("json", f"not valid JSON ({err.msg} at line {err.lineno})") from None
    except RecursionError:
        raise PositionError("json", "nested too deeply for a position") from None
    except ValueError as err:  # a number of more than 4300 digits
        raise PositionError("json", f"not a position ({err})") from None


def _game_named(name: object) -> Game:
    from tessera.notation.fields import shown

    if not isinstance(name, str) or name not in _BY_NAME:
        known = ", ".join(sorted(_BY_NAME))
        raise PositionError("game", f"unknown game {shown(name)} (known: {known})")
    return _BY_NAME[name]
