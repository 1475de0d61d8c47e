"""The modules of the package and what each imports, read from the source (nothing is
imported): for the architecture tests (tests/test_architecture.py, test_kernel_layout.py,
test_packaging.py)."""

import ast
from pathlib import Path

import tessera
import tessera.kernels

PACKAGES = {"tessera": Path(tessera.__file__).parent, "tessera.kernels": Path(tessera.kernels.__file__).parent}
REPO = Path(__file__).resolve().parent.parent


def module_name(path, root, package):
    """The dotted name of the module at ``path`` below ``root``, the folder of ``package``."""
    parts = [*path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts] if package else parts)


def _type_checking_only(node):
    """Whether ``node`` is an ``if TYPE_CHECKING:`` block, whose imports never run."""
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and getattr(test, "id", getattr(test, "attr", None)) == "TYPE_CHECKING"


def _nodes(tree, running_only):
    """Every node of ``tree``; with ``running_only``, none inside ``if TYPE_CHECKING:``."""
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        if running_only and _type_checking_only(node):
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))


def imported_modules(source, name, is_package=False, filename="<source>", running_only=False):
    """Every module the source of the module ``name`` imports, by static import statement
    (at any depth: a function's own imports count) or by ``import_module`` of a literal
    name: for ``from a import b``, both ``a`` and ``a.b`` (``b`` may be a module). With
    ``running_only``, not the imports only a type checker reads."""
    package = name if is_package else name.rpartition(".")[0]
    found = []
    for node in _nodes(ast.parse(source, filename), running_only):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append(node.args[0].value)
    return found


def package_files():
    """``(path, module name)`` of every module of the installed package."""
    kernels = PACKAGES["tessera.kernels"]
    for package, root in PACKAGES.items():
        for path in sorted(root.rglob("*.py")):
            if package == "tessera" and kernels in path.parents:
                continue  # below tessera.kernels: listed with that package
            yield path, module_name(path, root, package)


def repo_files(folder):
    """``(path, module name)`` of every module below the repository's ``folder``."""
    for path in sorted((REPO / folder).rglob("*.py")):
        yield path, module_name(path, REPO, "")


def import_graph():
    """{module: the package's modules it imports when it runs}, over the whole package. A
    module's own parent packages are left out: they run before it whatever it imports."""
    files = dict((name, path) for path, name in package_files())
    graph = {}
    for name, path in files.items():
        imported = imported_modules(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py", str(path), running_only=True
        )
        graph[name] = {
            module for module in imported if module in files and module != name and not name.startswith(module + ".")
        }
    return graph
