"""Templates are never imported as themselves; the layouts they share live in modules of their own.

A template's source (``tessera.kernels.bind.TEMPLATES``) runs once per game as an instance;
imported as itself it gives uncompilable stand-ins. Whatever Python needs of a template's
arrays (columns, codes, ``new_tree``, ``params``) is in its layout module, which the template
imports too, so no module but ``kernels/bind.py`` has a reason to import a template.
"""
import ast
import inspect
from pathlib import Path

import pytest

import tessera
from tessera.kernels import bind
from tessera.kernels.search import alphabeta_layout, ismcts_layout, mcts_layout

PACKAGES = {"tessera": Path(tessera.__file__).parent, "tessera.kernels": Path(bind.__file__).parent}
REPO = Path(__file__).resolve().parent.parent
TEMPLATES = frozenset(bind.TEMPLATES.values())


def module_name(path, root, package):
    """The dotted name of the module at ``path`` below ``root``, the folder of ``package``."""
    parts = [*path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts] if package else parts)


def imported_modules(source, name, is_package=False, filename="<source>"):
    """Every module the source of the module ``name`` imports, by static import statement or
    by ``import_module`` of a literal name: for ``from a import b``, both ``a`` and ``a.b``
    (``b`` may be a module)."""
    package = name if is_package else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
              == "import_module" and node.args and isinstance(node.args[0], ast.Constant)):
            found.append(node.args[0].value)
    return found


def template_imports(files):
    """``(file, template)`` of every import of a template among ``files``, ``(path, name)`` pairs."""
    return [(str(path), module) for path, name in files if path.name != "bind.py" or name != bind.__name__
            for module in imported_modules(path.read_text(), name, path.name == "__init__.py", str(path))
            if module in TEMPLATES]


def package_files():
    kernels = PACKAGES["tessera.kernels"]
    for package, root in PACKAGES.items():
        for path in sorted(root.rglob("*.py")):
            if package == "tessera" and kernels in path.parents:
                continue                    # below tessera.kernels: listed with that package
            yield path, module_name(path, root, package)


def repo_files(folder):
    for path in sorted((REPO / folder).rglob("*.py")):
        yield path, module_name(path, REPO, "")


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
    allowed = ("from tessera.kernels.search import mcts_layout, tree\nfrom tessera.kernels import bind, selfplay_layout\n"
               "importlib.import_module(bind.TEMPLATES['perft'])")
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


def test_an_instance_reads_its_layout_from_the_layout_module():
    """The instances compile with the layout module's columns and codes, the ones Python reads."""
    for name in ("VISITS", "FIRST", "COUNT", "MOVE", "WIN", "MARGIN", "PRIOR", "USED", "P_SELECT", "SELECT_PUCT"):
        assert getattr(bind.instance("toy", "mcts", "random"), name) == getattr(mcts_layout, name)
    for name in ("VISITS", "AVAIL", "FIRST", "NEXT", "MOVE", "NO_NODE", "PRIOR", "USED"):
        assert getattr(bind.instance("toy", "ismcts", "random"), name) == getattr(ismcts_layout, name)
    for name in ("NODES", "ABORTED", "DEEPEST", "MODE", "MODE_GAME", "SCALE"):
        assert getattr(bind.instance("toy", "alphabeta"), name) == getattr(alphabeta_layout, name)
    # IS-MCTS counts visits where MCTS's shared node_value and backup read them.
    assert ismcts_layout.VISITS == mcts_layout.VISITS
