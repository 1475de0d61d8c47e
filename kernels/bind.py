"""Per-game instances of the kernels written once for every game.

Search, perft, playouts and self-play batches are written once, as templates that
call the game interface through a module global ``games``. A template is never
compiled as it stands: each game gets its own instance, the template's source run
as the module ``kernels.<game>.bound.<template>`` with ``games`` bound to that
game's interface module (``kernels.<game>.game``). So an Azul search compiles
Azul's kernels and the search, nothing of the other games, and calls the rules
directly, with no dispatch on the game id.

Instances are ordinary modules found by an import hook (installed by
``kernels/__init__.py``), so any process, a pool worker or a Dask worker
unpickling a reference, imports ``tessera.kernels.azul.bound.perft`` like any other module.

numba names a function's cache files after its source file and ``__qualname__``
and keys the entries by signature and bytecode, which are the same in every
instance of a template: ``kernel`` (the decorator templates use instead of
``njit``) puts the game's name in front of the qualname, so every game keeps its
own cache entries and a second process loads them instead of compiling.
"""

import importlib
import importlib.abc
import importlib.util
import sys

from tessera.kernels.constants import GAME_NAMES
from tessera.kernels.interfaces import game_name, interface  # noqa: F401  (given out here too)
from tessera.kernels.search.mcts_layout import ROLLOUTS

# The package the kernels are installed as (``tessera.kernels``): instances live below it.
PACKAGE = __name__.rpartition(".")[0]
_PACKAGE_DEPTH = PACKAGE.count(".") + 1
# Template modules by the short name of their instances.
TEMPLATES = {
    "playout": f"{PACKAGE}.playout",
    "perft": f"{PACKAGE}.perft",
    "selfplay": f"{PACKAGE}.selfplay",
    "mcts": f"{PACKAGE}.search.mcts",
    "ismcts": f"{PACKAGE}.search.ismcts",
    "alphabeta": f"{PACKAGE}.search.alphabeta",
    "vecenv": f"{PACKAGE}.vecenv",
}
_TEMPLATE_SHORT_NAMES = {module: short for short, module in TEMPLATES.items()}
# Templates instantiated per variant as well as per game: a compile-time choice the template
# reads from its module name (``variant(__name__)``), in ``kernels.<game>.bound.<template>_<variant>``.
# numba prunes the branches of the other variants before typing, so an instance compiles
# only its own: a search with greedy rollouts compiles no random playout, and the other way round.
VARIANTS = {"mcts": ROLLOUTS, "ismcts": ROLLOUTS}


def instance(game, template, variant=None):
    """The game's instance of a template (a short name of ``TEMPLATES``, e.g. ``"perft"``);
    a template of ``VARIANTS`` needs the variant too: ``instance(game, "mcts", "greedy")``."""
    if template not in TEMPLATES:
        raise ValueError(f"unknown kernel template {template!r}")
    if variant not in VARIANTS.get(template, (None,)):
        raise ValueError(
            f"unknown variant {variant!r} of kernel template {template!r}"
            f" (known: {', '.join(map(str, VARIANTS.get(template, ('none',))))})"
        )
    suffix = "" if variant is None else f"_{variant}"
    return importlib.import_module(f"{PACKAGE}.{game_name(game)}.bound.{template}{suffix}")


def _instance_name(module_name):
    """``(game, template, variant)`` of an instance's module name (variant None for a template
    without variants), or None for anything else."""
    parts = _below_package(module_name)
    if not (parts is not None and len(parts) == 3 and parts[1] == "bound" and parts[0] in GAME_NAMES.values()):
        return None
    template, _, variant = parts[2].partition("_")
    if template not in TEMPLATES or (variant or None) not in VARIANTS.get(template, (None,)):
        return None
    return parts[0], template, variant or None


def _below_package(module_name):
    """The parts of ``module_name`` below ``PACKAGE`` (``["azul", "bound", "mcts_greedy"]``),
    or None for a module outside it."""
    parts = module_name.split(".")
    if ".".join(parts[:_PACKAGE_DEPTH]) != PACKAGE:
        return None
    return parts[_PACKAGE_DEPTH:]


def _bound_game(module_name):
    """The game of an instance's module name, or None for anything else."""
    name = _instance_name(module_name)
    return None if name is None else name[0]


def variant(module_name):
    """The variant of the instance ``module_name`` (e.g. ``"greedy"``); None in a template."""
    name = _instance_name(module_name)
    return None if name is None else name[2]


def template_games(module_name):
    """What a template calls ``games``: in an instance, its game's interface module; in the
    template itself, the dispatching ``tessera.kernels.games`` (for its Python-level helpers)."""
    game = _bound_game(module_name)
    if game is None:
        return importlib.import_module(f"{PACKAGE}.games")
    return interface(game)


def game_module(module_name, name):
    """The game's own module ``kernels.<game>.<name>`` as seen from ``module_name``: in an
    instance, imported; in the template itself, None (only instances compile)."""
    game = _bound_game(module_name)
    return None if game is None else importlib.import_module(f"{PACKAGE}.{game}.{name}")


def sibling(module_name, template):
    """Another template as seen from ``module_name``: the same game's instance of it in an
    instance (of the same variant, if it has variants), the template itself in a template."""
    name = _instance_name(module_name)
    if name is None:
        return importlib.import_module(TEMPLATES[template])
    game, _, own_variant = name
    return instance(game, template, own_variant if template in VARIANTS else None)


def kernel(function=None, **options):
    """``njit(cache=True, **options)`` (``tessera.kernels.jit``'s) for a template's functions: compiled
    per instance, with the game's name (and the variant's) in the qualname (its own cache
    entries). In the template itself a call fails and names the instance to use."""

    def decorate(function):
        name = _instance_name(function.__module__)
        if name is None:
            return _unbound(function)
        from tessera.kernels.jit import njit

        game, _, own_variant = name
        prefix = game if own_variant is None else f"{game}.{own_variant}"
        function.__qualname__ = f"{prefix}.{function.__qualname__}"
        return njit(cache=True, **options)(function)

    return decorate if function is None else decorate(function)


def _unbound(function):
    short = _TEMPLATE_SHORT_NAMES.get(function.__module__, function.__module__)

    def template_only(*args, **kwargs):
        raise TypeError(
            f"{function.__module__}.{function.__name__} is a template: call it on a game's "
            f"instance, kernels.bind.instance(game, {short!r}{', variant' if short in VARIANTS else ''})"
            f".{function.__name__}"
        )

    template_only.__name__ = function.__name__
    template_only.__doc__ = function.__doc__
    return template_only


class _InstanceFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``kernels.<game>.bound`` (an empty package) and ``kernels.<game>.bound.<template>``."""

    def find_spec(self, fullname, path=None, target=None):
        parts = _below_package(fullname)
        if parts is None or len(parts) < 2 or parts[1] != "bound" or parts[0] not in GAME_NAMES.values():
            return None
        if len(parts) == 2:
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        name = _instance_name(fullname)
        if name is not None:
            origin = importlib.util.find_spec(TEMPLATES[name[1]]).origin
            return importlib.util.spec_from_loader(fullname, self, origin=origin)
        return None

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        name = _instance_name(module.__name__)
        if name is None:
            return  # the package kernels.<game>.bound holds only instances
        template = TEMPLATES[name[1]]
        spec = importlib.util.find_spec(template)
        module.__file__ = spec.origin  # numba puts the cache beside (or named after) the template
        code = compile(spec.loader.get_source(template), spec.origin, "exec")
        exec(code, module.__dict__)


def install():
    """Make instances importable (idempotent)."""
    if not any(isinstance(finder, _InstanceFinder) for finder in sys.meta_path):
        sys.meta_path.append(_InstanceFinder())


def ready(function, *args):
    """Compile ``function`` for the types of ``args``, or load it from numba's cache,
    without running it: what a search does before its clock starts."""
    from numba import typeof

    function.compile(tuple(typeof(arg) for arg in args))
