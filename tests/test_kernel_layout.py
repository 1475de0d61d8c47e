"""Templates are never imported as themselves; the layouts they share live in modules of their own.

A template's source (``tessera.kernels.bind.TEMPLATES``) runs once per game as an instance;
imported as itself it gives uncompilable stand-ins. Whatever Python needs of a template's
arrays (columns, codes, ``new_tree``, ``params``) is in its layout module, which the template
imports too, so no module but ``kernels/bind.py`` has a reason to import a template.
"""

import inspect

import numba
import numpy as np
import pytest

from tessera.kernels import bind
from tessera.kernels.search import alphabeta_layout, ismcts_layout, mcts_layout
from tests.import_graph import imported_modules, package_files, repo_files

TEMPLATES = frozenset(bind.TEMPLATES.values())


def template_imports(files):
    """``(file, template)`` of every import of a template among ``files``, ``(path, name)`` pairs."""
    return [
        (str(path), module)
        for path, name in files
        if path.name != "bind.py" or name != bind.__name__
        for module in imported_modules(path.read_text(), name, path.name == "__init__.py", str(path))
        if module in TEMPLATES
    ]


def test_the_scan_finds_every_way_of_importing_a_template():
    sources = {
        "import tessera.kernels.search.mcts": "tessera.x",
        "from tessera.kernels.search import mcts as kernel": "tessera.x",
        "from tessera.kernels.search.ismcts import NODE_BYTES": "tessera.x",
        "from tessera.kernels import perft, games": "tessera.x",
        "from . import playout": "tessera.kernels.x",
        "from .. import alphabeta": "tessera.kernels.search.sub.x",
        "importlib.import_module('tessera.kernels.vecenv')": "x",
    }
    for source, name in sources.items():
        assert set(imported_modules(source, name)) & TEMPLATES, source
    allowed = (
        "from tessera.kernels.search import mcts_layout, tree\nfrom tessera.kernels import bind, selfplay_layout\n"
        "importlib.import_module(bind.TEMPLATES['perft'])"
    )
    assert not set(imported_modules(allowed, "tessera.x")) & TEMPLATES


def test_no_module_of_the_package_imports_a_template_as_itself():
    files = list(package_files())
    assert any(name == "tessera.kernels.search.mcts" for _, name in files)
    assert template_imports(files) == []


@pytest.mark.repo
def test_no_bench_script_or_test_imports_a_template_as_itself():
    files = [*repo_files("bench"), *repo_files("tests")]
    assert any(path.name == "test_kernel_layout.py" for path, _ in files)
    assert template_imports(files) == []


def test_the_kernel_parameters_have_no_defaults():
    """The product's defaults live in the search's options (``tessera.search.mcts``), once."""
    for function in (mcts_layout.params, mcts_layout.new_tree):
        assert all(p.default is inspect.Parameter.empty for p in inspect.signature(function).parameters.values())


def test_the_kernel_parameters_have_one_numba_type_whatever_numbers_make_them():
    """numba compiles a kernel once per argument type: ints, floats and numpy scalars given
    for the same fields make the same type, so a search never compiles its kernels twice."""
    given = [
        (1, 0, 1, 2, 2, 1, 0),
        (1.4, 1.0, 0.0, 3.0, 2.0, 1.5, -0.5),
        (np.float64(1.4), np.int64(2), np.int32(1), np.int64(4), np.float32(2.0), np.int64(1), np.int64(1)),
    ]
    made = [mcts_layout.params(*values) for values in given]
    assert len({numba.typeof(prm) for prm in made}) == 1
    assert made[1] == (1.4, 1, 0, 3, 2.0, 1.5, -0.5) and made[1].chance_width == 3
    assert made[1].policy_temperature == 1.5 and made[1].fpu == -0.5


def test_an_instance_reads_its_layout_from_the_layout_module():
    """The instances compile with the layout module's columns and codes, the ones Python reads."""
    for name in ("VISITS", "FIRST", "COUNT", "MOVE", "WIN", "MARGIN", "CHOSEN_VALUE", "PRIOR", "USED", "SELECT_PUCT"):
        assert getattr(bind.instance("toy", "mcts", "random"), name) == getattr(mcts_layout, name)
    for name in ("VISITS", "AVAIL", "FIRST", "NEXT", "MOVE", "NO_NODE", "PRIOR", "USED"):
        assert getattr(bind.instance("toy", "ismcts", "random"), name) == getattr(ismcts_layout, name)
    for name in ("NODES", "ABORTED", "DEEPEST", "MODE", "MODE_GAME", "SCALE"):
        assert getattr(bind.instance("toy", "alphabeta"), name) == getattr(alphabeta_layout, name)
    # IS-MCTS counts visits where MCTS's shared node_value and backup read them.
    assert ismcts_layout.VISITS == mcts_layout.VISITS
