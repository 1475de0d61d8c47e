"""mypy over the package ``tessera``, as CI runs it: ``python -m tests.typecheck`` from the
repository (any further arguments go to mypy; the settings are pyproject.toml's
[tool.mypy]).

The package is two folders of the repository, solver/ as ``tessera`` and kernels/ as
``tessera.kernels`` (pyproject.toml's package-dir), a mapping mypy cannot follow, and an
editable install finds them through an import hook mypy does not run. So the package is laid
out for it first as installed: ``link_tree`` links each entry of solver/ and the folder
kernels/ into build/typecheck/tessera, pyproject's mypy_path. The links are made again
every run (a module added to solver/ is in the next one); mypy's cache (.mypy_cache) keeps
what did not change.
"""

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "typecheck"  # pyproject.toml's mypy_path


def link_tree(root, package, kernels):
    """``root``/tessera: the folder ``package`` (``tessera``'s) with the folder ``kernels``
    (``tessera.kernels``') inside it as ``kernels``, each entry a symbolic link, so that
    mypy finds the package below ``root`` as it is installed. Returns ``root``."""
    tree = Path(root) / "tessera"
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    for entry in Path(package).iterdir():
        if entry.name not in ("__pycache__", "kernels"):
            (tree / entry.name).symlink_to(entry.resolve(), target_is_directory=entry.is_dir())
    (tree / "kernels").symlink_to(Path(kernels).resolve(), target_is_directory=True)
    return Path(root)


def main(arguments):
    """Lay out the repository's package in TREE and run mypy on it; mypy's exit status."""
    from mypy import api

    link_tree(TREE, ROOT / "solver", ROOT / "kernels")
    out, err, status = api.run(arguments)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
