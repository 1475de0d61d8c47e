"""What every game offers above its numba kernels.

The kernels (``Game.kernels``: the game's interface module, ``tessera.kernels.bind``) do the
rules on int64 arrays; a ``Game`` adds the parts people see: options, notation,
rendering. Search, self-play, perft and the CLI talk to games only through this
class and the game's kernels.
"""
import importlib
import json

import numpy as np

from tessera.errors import OptionError, PositionError


MAX_SEED = 2**63 - 1            # the kernels' generator takes a non-negative int64


class Game:
    """One game's options, start positions, notation and drawing.

    A subclass names its game and options and writes ``undealt``; notation and drawing
    come from ``tessera.notation.<name>`` and ``tessera.render.<name>``, imported on
    first use (they load numba, which help pages and option errors do not need).
    """

    name = ""
    # Options of ``tessera new``: {name: (click type or choices tuple, default, help)}.
    options = {}

    def undealt(self, seed, **options):
        """The start before its first chance event, ``options`` checked. Only a set-up
        that draws outside chance events (Azure's realm layout) uses ``seed``."""
        raise NotImplementedError

    def check_options(self, options):
        """OptionError naming the first of ``options`` (names) the game does not have."""
        unknown = [name for name in options if name not in self.options]
        if unknown:
            raise OptionError(f"{self.name} has no option '{unknown[0]}' "
                              f"(its options: {', '.join(self.options) or 'none'})")

    def undealt_batch(self, seeds, **options):
        """[len(seeds), state words]: ``undealt`` for each of ``seeds``."""
        return np.tile(self.undealt(0, **options), (len(seeds), 1))

    def new(self, seed, **options):
        """A start position: ``undealt`` with chance resolved by ``make_rng(seed)``
        (``tessera.selfplay.starts`` deals a batch the same way)."""
        check_seed(seed)
        self.check_options(options)
        from tessera.kernels.rng import make_rng
        state = self.undealt(seed, **options)
        self.kernels().resolve_chance(state, make_rng(seed))
        return state

    def kernels(self):
        """The game's kernels under the names of the game interface (``tessera.kernels.bind``)."""
        from tessera.kernels import bind
        return bind.interface(self.name)

    def notation(self):
        return importlib.import_module(f"tessera.notation.{self.name}")

    def parse_position(self, text):
        return self.notation().parse_position(text)

    def format_position(self, state):
        return self.notation().format_position(state)

    def position_to_json(self, state):
        return self.notation().position_to_json(state)

    def position_from_json(self, obj):
        return self.notation().position_from_json(obj)

    def parse_move(self, state, text):
        return self.notation().parse_move(state, text)

    def format_move(self, state, move):
        return self.notation().format_move(state, move)

    def render(self, state):
        """A rich renderable drawing the position."""
        return importlib.import_module(f"tessera.render.{self.name}").render_position(state)

    def observer(self, state):
        """Whose view ``state`` is, or None for a complete position."""
        return None

    def view(self, state, observer):
        """What ``observer`` knows of the complete ``state``: a copy, when nothing is hidden."""
        return state.copy()


def check_seed(seed):
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")


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


def _json_document(text):
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise PositionError("json", f"not valid JSON ({err.msg} at line {err.lineno})") from None
    except RecursionError:
        raise PositionError("json", "nested too deeply for a position") from None
    except ValueError as err:          # a number of more than 4300 digits
        raise PositionError("json", f"not a position ({err})") from None


def _game_named(name):
    from tessera.notation.fields import shown
    _load_all()
    if not isinstance(name, str) or name not in _GAMES:
        known = ", ".join(sorted(_GAMES))
        raise PositionError("game", f"unknown game {shown(name)} (known: {known})")
    return _GAMES[name]


def _load_all():
    if not _GAMES:
        import tessera.games.azul  # noqa: F401  (registers itself)
        import tessera.games.azure  # noqa: F401  (registers itself)
        import tessera.games.pavilion  # noqa: F401  (registers itself)
