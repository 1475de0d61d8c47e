"""What every game offers above its numba kernels.

The kernels (``Game.kernels``: the game's interface module, ``tessera.kernels.bind``) do the
rules on int64 arrays; a ``Game`` adds the parts people see: options, notation,
rendering, and its facts as data (``Game.spec``). Search, self-play, perft and the CLI
talk to games only through this class and the game's kernels.
"""

import functools
import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Protocol, cast

import numpy as np

from tessera.errors import OptionError
from tessera.games.spec import GameSpec, Option

MAX_SEED = 2**63 - 1  # the kernels' generator takes a non-negative int64


class Notation(Protocol):
    """A game's notation module (``tessera.notation.<name>``), as ``Game`` calls it; its
    other names (``validate``, the colours' names and letters) are there too, untyped."""

    def parse_position(self, text: str) -> np.ndarray: ...

    def format_position(self, state: np.ndarray) -> str: ...

    def position_to_json(self, state: np.ndarray) -> dict[str, Any]: ...

    def position_from_json(self, obj: dict[str, Any]) -> np.ndarray: ...

    def parse_move(self, state: np.ndarray, text: str) -> int: ...

    def format_move(self, state: np.ndarray, move: int) -> str: ...

    def __getattr__(self, name: str) -> Any: ...


class Game:
    """One game's options, start positions, notation and drawing.

    A subclass gives its ``spec`` (``tessera.games.spec.GameSpec``) and writes ``undealt``;
    notation and drawing come from ``tessera.notation.<name>`` and ``tessera.render.<name>``,
    imported on first use (they load numba, which help pages and option errors do not need).
    """

    spec: GameSpec  # each subclass's own

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def options(self) -> dict[str, Option]:
        """Options of ``tessera new``: {name: ``Option`` (click type or choices, default, help)}."""
        return self.spec.options

    def undealt(self, seed: int, **options: Any) -> np.ndarray:
        """The start before its first chance event, ``options`` checked. Only a set-up
        that draws outside chance events (Azure's realm layout) uses ``seed``."""
        raise NotImplementedError

    def check_options(self, options: dict[str, Any]) -> None:
        """OptionError naming the first of ``options`` (names) the game does not have."""
        unknown = [name for name in options if name not in self.options]
        if unknown:
            raise OptionError(
                f"{self.name} has no option '{unknown[0]}' (its options: {', '.join(self.options) or 'none'})"
            )

    def undealt_batch(self, seeds: Sequence[int], **options: Any) -> np.ndarray:
        """[len(seeds), state words]: ``undealt`` for each of ``seeds``."""
        return np.tile(self.undealt(0, **options), (len(seeds), 1))

    def option_in(self, state: np.ndarray, name: str) -> Any:
        """The value of the option ``name`` the position ``state`` is played with (a game
        whose search defaults name ``unlearned_options`` reads those)."""
        raise NotImplementedError(f"{self.name} does not read its option {name!r} from a position")

    def new(self, seed: int, **options: Any) -> np.ndarray:
        """A start position: ``undealt`` with chance resolved by ``make_rng(seed)``
        (``tessera.selfplay.starts`` deals a batch the same way)."""
        check_seed(seed)
        self.check_options(options)
        from tessera.kernels.rng import make_rng

        state = self.undealt(seed, **options)
        self.kernels().resolve_chance(state, make_rng(seed))
        return state

    def kernels(self) -> ModuleType:
        """The game's kernels under the names of the game interface (``tessera.kernels.bind``)."""
        from tessera.kernels import bind

        return cast(ModuleType, bind.interface(self.name))

    def notation(self) -> Notation:
        return cast(Notation, importlib.import_module(f"tessera.notation.{self.name}"))

    def parse_position(self, text: str) -> np.ndarray:
        return self.notation().parse_position(text)

    def format_position(self, state: np.ndarray) -> str:
        return self.notation().format_position(state)

    def position_to_json(self, state: np.ndarray) -> dict[str, Any]:
        return self.notation().position_to_json(state)

    def position_from_json(self, obj: dict[str, Any]) -> np.ndarray:
        return self.notation().position_from_json(obj)

    def parse_move(self, state: np.ndarray, text: str) -> int:
        return self.notation().parse_move(state, text)

    def format_move(self, state: np.ndarray, move: int) -> str:
        return self.notation().format_move(state, move)

    def render(self, state: np.ndarray) -> Any:
        """A rich renderable drawing the position."""
        return self._renderer().render_position(state)

    def who_acts(self, state: np.ndarray) -> str:
        """One line: who acts and what they do, as `tessera show` says it under its drawing."""
        line: str = self._renderer().who_acts(self.position_to_json(state), state)
        return line

    def _renderer(self) -> ModuleType:
        return importlib.import_module(f"tessera.render.{self.name}")

    @functools.cached_property
    def colour_letters(self) -> dict[str, str]:
        """{colour name: its letter}, as the game's notation and the web board write them."""
        layout = importlib.import_module(f"tessera.kernels.{self.name}.layout")
        return dict(zip(layout.COLOUR_NAMES, layout.COLOUR_LETTERS, strict=True))

    def move_fields(self, text: str) -> dict[str, Any]:
        """The parts of a canonical move text the web board's clicks map to:
        {"kind": ..., and the move's parts}."""
        raise NotImplementedError

    def board(self, state: np.ndarray) -> dict[str, Any]:
        """What the web board draws beyond the position's JSON, as more keys of the page's
        document: none here (Azure: its realm)."""
        return {}

    def max_actions(self, players: int) -> int:
        """An upper bound on the actions of a game of ``players``, chance's included
        (docs/rl.md derives them)."""
        raise NotImplementedError

    def observer(self, state: np.ndarray) -> int | None:
        """Whose view ``state`` is, or None for a complete position."""
        return None

    def view(self, state: np.ndarray, observer: int) -> np.ndarray:
        """What ``observer`` knows of the complete ``state``: a copy, when nothing is hidden."""
        copy: np.ndarray = state.copy()  # numpy types copy() by typing.Self, Any to mypy at Python 3.10
        return copy

    def chance_seen_by(self, state: np.ndarray) -> int | None:
        """The player who alone sees the chance step ``state`` waits for (a card drawn into
        a hand), or None when every player sees it."""
        return None

    def resample(self, state: np.ndarray, observer: int, rng: np.ndarray) -> np.ndarray:
        """A complete state ``observer`` cannot tell from ``state``: what it does not see
        dealt anew from ``rng`` (a ``make_rng`` generator); a copy when nothing is hidden."""
        copy: np.ndarray = state.copy()  # numpy types copy() by typing.Self, Any to mypy at Python 3.10
        return copy


def check_seed(seed: object) -> None:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
