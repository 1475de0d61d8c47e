"""``py.typed`` is honest: a user's script type-checks in mypy's strict mode against the
package as installed, and the same script with a type error fails.

mypy reads the package the way it reads any installed library, from a folder on the
interpreter's path (PYTHONPATH), so it wants ``py.typed`` and reports nothing of the
package's own code: only what the script's use of its names says. The folder holds the
package where the import system finds it (``tests.typecheck.link_tree``: an editable
install's import hook hides it from mypy). The package's own check, strict on its public
API, is ``python -m tests.typecheck`` (pyproject.toml's [tool.mypy]).
"""

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.limits import CHILD_SECONDS
from tests.typecheck import link_tree

pytestmark = pytest.mark.long  # mypy over the package on its first run: the quick tier leaves it out

# What a user writes: a position, its moves, a search and its document, an agent's game,
# the errors caught.
USER_SCRIPT = textwrap.dedent(
    """\
    import tessera


    def first_move(text: str, visits: int) -> str:
        position = tessera.Position.parse(text)
        document = tessera.best(position, visits=visits, seed=1)
        move: str = document["moves"][0]["move"]
        return move


    def main() -> None:
        start = tessera.Position.new("azul", seed=1)
        after = start.play(start.legal_moves[0])
        scores: list[int] = after.scores
        to_move: int | None = after.to_move
        outcomes: list[tuple[str, float]] = after.chance_outcomes()
        print(first_move(after.text(), 200), scores, to_move, outcomes, after.best(visits=100)["moves"])
        try:
            after.play("F9 purple 9")
        except tessera.MoveError as err:
            print(err.text)
        except tessera.TesseraError as err:
            print(err)
        agents = [tessera.parse_agent("mcts:iters=50", seed=2), tessera.parse_agent("random")]
        record = tessera.play_game(tessera.get_game("azul"), None, agents, seed=3)
        print(record.scores, record.moves[0])
    """
)
# The same use with a type error a user may make: a seed given as text.
BROKEN_SCRIPT = USER_SCRIPT + 'tessera.Position.new("azul", seed="one")\n'
BROKEN_LINE = USER_SCRIPT.count("\n") + 1


def installed_package(root):
    """``root``, holding the package ``tessera`` as the import system finds it (its folder
    and its kernels', which an editable install keeps apart)."""
    folders = [importlib.util.find_spec(name).submodule_search_locations[0] for name in ("tessera", "tessera.kernels")]
    return link_tree(root, *folders)


@pytest.fixture
def mypy_cache(request, tmp_path):
    """mypy's cache, kept between runs in pytest's (a first check takes seconds, reading
    numpy's types and the package's; one with the cache, under one); a run without pytest's
    cache starts empty. mypy checks what it reuses against the sources and writes each file
    whole, so runs beside each other share it safely."""
    cache = getattr(request.config, "cache", None)
    return cache.mkdir("mypy") if cache is not None else tmp_path / "mypy-cache"


def test_a_users_script_type_checks_strictly_and_a_type_error_in_it_fails(tmp_path, mypy_cache):
    assert (Path(importlib.util.find_spec("tessera").origin).parent / "py.typed").is_file()
    site = installed_package(tmp_path / "site")
    (tmp_path / "user.py").write_text(USER_SCRIPT)
    (tmp_path / "broken.py").write_text(BROKEN_SCRIPT)
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n")  # a user's own settings, not the project's
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(mypy_cache)]
        + ["user.py", "broken.py"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,
    )
    errors = [line for line in checked.stdout.splitlines() if ": error:" in line]
    assert checked.returncode == 1, checked.stdout + checked.stderr
    # user.py checks; broken.py's one error is the seed's type, which mypy knows from the package
    assert len(errors) == 1, checked.stdout
    assert errors[0].startswith(f"broken.py:{BROKEN_LINE}: error: ") and '"seed"' in errors[0], checked.stdout
    assert errors[0].endswith("[arg-type]"), checked.stdout
