"""What every game offers above its numba kernels.

The kernels (``kernels.games``) do the rules on int64 arrays; a ``Game`` adds the
parts people see: options, notation, rendering. Search, self-play, perft and the
CLI talk to games only through this class and ``kernels.games``.
"""
import json

from solver.errors import OptionError, PositionError


class Game:
    """One game's notation and options. Subclasses fill in the methods."""

    name = ""
    # Options of ``tessera new``: {name: (click type or choices tuple, default, help)}.
    options = {}

    def new(self, seed, **options):
        """A start position (chance already resolved with ``seed``)."""
        raise NotImplementedError

    def parse_position(self, text):
        raise NotImplementedError

    def format_position(self, state):
        raise NotImplementedError

    def position_to_json(self, state):
        raise NotImplementedError

    def position_from_json(self, obj):
        raise NotImplementedError

    def parse_move(self, state, text):
        raise NotImplementedError

    def format_move(self, state, move):
        raise NotImplementedError

    def render(self, state):
        """A rich renderable drawing the position."""
        raise NotImplementedError

    def observer(self, state):
        """Whose view ``state`` is, or None for a complete position."""
        return None

    def view(self, state, observer):
        """What ``observer`` knows of the complete ``state``: a copy, when nothing is hidden."""
        return state.copy()


_GAMES = {}


def register(game):
    _GAMES[game.name] = game
    return game


def registered_games():
    _load_all()
    return dict(_GAMES)


def get_game(name):
    _load_all()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise OptionError(f"unknown game '{name}' (known: {known})") from None


def game_of_position(text):
    """The game a position text or JSON document is written for, and the parsed state."""
    stripped = text.strip()
    if not stripped:
        raise PositionError("position", "empty input")
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise PositionError("json", f"not valid JSON ({err.msg} at line {err.lineno})") from None
        if not isinstance(obj, dict) or "game" not in obj:
            raise PositionError("game", "JSON position needs a 'game' key")
        game = _game_named(obj["game"])
        return game, game.position_from_json(obj)
    game = _game_named(stripped.replace(";", " ").split()[0])
    return game, game.parse_position(stripped)


def _game_named(name):
    _load_all()
    if not isinstance(name, str) or name not in _GAMES:
        known = ", ".join(sorted(_GAMES))
        raise PositionError("game", f"unknown game '{name}' (known: {known})")
    return _GAMES[name]


def _load_all():
    if not _GAMES:
        import solver.games.azul  # noqa: F401  (registers itself)
        import solver.games.azure  # noqa: F401  (registers itself)
        import solver.games.pavilion  # noqa: F401  (registers itself)
