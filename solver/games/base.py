"""What every game offers above its numba kernels.

The kernels (``Game.kernels``: the game's interface module, ``tessera.kernels.bind``) do the
rules on int64 arrays; a ``Game`` adds the parts people see: options, notation,
rendering, and its facts as data (``Game.spec``). Search, self-play, perft and the CLI
talk to games only through this class and the game's kernels.
"""

import functools
import importlib

import numpy as np

from tessera.errors import OptionError

MAX_SEED = 2**63 - 1  # the kernels' generator takes a non-negative int64


class Game:
    """One game's options, start positions, notation and drawing.

    A subclass gives its ``spec`` (``tessera.games.spec.GameSpec``) and writes ``undealt``;
    notation and drawing come from ``tessera.notation.<name>`` and ``tessera.render.<name>``,
    imported on first use (they load numba, which help pages and option errors do not need).
    """

    spec = None

    @property
    def name(self):
        return self.spec.name

    @property
    def options(self):
        """Options of ``tessera new``: {name: ``Option`` (click type or choices, default, help)}."""
        return self.spec.options

    def undealt(self, seed, **options):
        """The start before its first chance event, ``options`` checked. Only a set-up
        that draws outside chance events (Azure's realm layout) uses ``seed``."""
        raise NotImplementedError

    def check_options(self, options):
        """OptionError naming the first of ``options`` (names) the game does not have."""
        unknown = [name for name in options if name not in self.options]
        if unknown:
            raise OptionError(
                f"{self.name} has no option '{unknown[0]}' (its options: {', '.join(self.options) or 'none'})"
            )

    def undealt_batch(self, seeds, **options):
        """[len(seeds), state words]: ``undealt`` for each of ``seeds``."""
        return np.tile(self.undealt(0, **options), (len(seeds), 1))

    def option_in(self, state, name):
        """The value of the option ``name`` the position ``state`` is played with (a game
        whose search defaults name ``unlearned_options`` reads those)."""
        raise NotImplementedError(f"{self.name} does not read its option {name!r} from a position")

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
        return self._renderer().render_position(state)

    def who_acts(self, state):
        """One line: who acts and what they do, as `tessera show` says it under its drawing."""
        return self._renderer().who_acts(self.position_to_json(state), state)

    def _renderer(self):
        return importlib.import_module(f"tessera.render.{self.name}")

    @functools.cached_property
    def colour_letters(self):
        """{colour name: its letter}, as the game's notation and the web board write them."""
        layout = importlib.import_module(f"tessera.kernels.{self.name}.layout")
        return dict(zip(layout.COLOUR_NAMES, layout.COLOUR_LETTERS, strict=True))

    def move_fields(self, text):
        """The parts of a canonical move text the web board's clicks map to:
        {"kind": ..., and the move's parts}."""
        raise NotImplementedError

    def board(self, state):
        """What the web board draws beyond the position's JSON, as more keys of the page's
        document: none here (Azure: its realm)."""
        return {}

    def max_actions(self, players):
        """An upper bound on the actions of a game of ``players``, chance's included
        (docs/rl.md derives them)."""
        raise NotImplementedError

    def observer(self, state):
        """Whose view ``state`` is, or None for a complete position."""
        return None

    def view(self, state, observer):
        """What ``observer`` knows of the complete ``state``: a copy, when nothing is hidden."""
        return state.copy()

    def chance_seen_by(self, state):
        """The player who alone sees the chance step ``state`` waits for (a card drawn into
        a hand), or None when every player sees it."""
        return None

    def resample(self, state, observer, rng):
        """A complete state ``observer`` cannot tell from ``state``: what it does not see
        dealt anew from ``rng`` (a ``make_rng`` generator); a copy when nothing is hidden."""
        return state.copy()


def check_seed(seed):
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
