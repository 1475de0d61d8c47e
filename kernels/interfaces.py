"""Each game's interface module (``tessera.kernels.<game>.game``: its kernels under the
names ``tessera.kernels.games`` lists), found by the game's id or name."""

import importlib

from tessera.kernels.constants import GAME_NAMES

PACKAGE = __name__.rpartition(".")[0]


def game_name(game):
    """``game`` (a game id, e.g. ``state[0]``, or a name) as a name: ``"azul"``."""
    if isinstance(game, str):
        if game not in GAME_NAMES.values():
            raise ValueError(f"unknown game {game!r}")
        return game
    try:
        return GAME_NAMES[int(game)]
    except KeyError:
        raise ValueError(f"unknown game id {game!r}") from None


def interface(game):
    """The game's interface module (``tessera.kernels.<game>.game``): its kernels under the
    interface names."""
    return importlib.import_module(f"{PACKAGE}.{game_name(game)}.game")
