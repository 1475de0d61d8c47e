"""The registry of games: one ``Game`` per name, the Python face of its kernels."""
from tessera.games.base import Game, registered_games, get_game, game_of_position  # noqa: F401
