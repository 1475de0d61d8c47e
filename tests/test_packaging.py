"""What is installed is one namespace, ``tessera``, with a public API at its top.

The repository keeps its folders ``solver/`` (installed as ``tessera``) and ``kernels/``
(``tessera.kernels``); pyproject.toml maps them. These tests read the repository's own
files, so they carry the ``repo`` marker; tests/test_standalone.py checks the built wheel.
"""

import re
import subprocess
import sys

import pytest
import tomllib

import tessera
from tessera.errors import DISTRIBUTION, MissingExtra
from tests.import_graph import imported_modules, repo_files
from tests.limits import CHILD_SECONDS, COLD_START_SECONDS
from tests.repo import REPO

pytestmark = pytest.mark.repo

FOLDERS = {"tessera": REPO / "solver", "tessera.kernels": REPO / "kernels"}
DATA_PACKAGES = {"tessera.web.static", "tessera.kernels.data", "tessera.learning.models"}


def pyproject():
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def source_packages():
    """Every importable package of the two folders, by its installed name."""
    found = set()
    for name, root in FOLDERS.items():
        for init in root.rglob("__init__.py"):
            relative = init.parent.relative_to(root).parts
            if "kernels" in relative[:1] and name == "tessera":
                continue  # not a folder of solver/
            found.add(".".join((name, *relative)))
    return found


def test_pyproject_lists_every_package_and_maps_the_two_folders():
    setuptools = pyproject()["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"tessera": "solver", "tessera.kernels": "kernels"}
    assert set(setuptools["packages"]) == source_packages() | DATA_PACKAGES


def test_the_distribution_name_is_not_the_taken_one_and_hints_name_it():
    """``tessera`` on the public index is another project: every install hint names ours.
    The one hint in the code is ``MissingExtra``'s, which every missing extra gives."""
    name = pyproject()["project"]["name"]
    assert name == "tessera-games" == DISTRIBUTION
    hints = []
    for path in [*REPO.joinpath("solver").rglob("*.py"), *REPO.joinpath("kernels").rglob("*.py")]:
        hints += re.findall(r"pip install ['\"]?([\w.{}-]+)\[", path.read_text(encoding="utf-8"))
    assert hints and set(hints) <= {name, "{DISTRIBUTION}"}
    assert str(MissingExtra("tessera serve", "web")).endswith(f'pip install "{name}[web]"')


def test_the_extras_named_in_the_code_are_pyprojects_and_all_holds_them():
    """Each extra a ``require_extra`` names is in pyproject.toml; ``all`` holds every
    extra for users (all but the contributors' ``test`` and ``docs``), and ``test`` all of them."""
    extras = pyproject()["project"]["optional-dependencies"]
    named = set()
    for path in [*REPO.joinpath("solver").rglob("*.py"), *REPO.joinpath("kernels").rglob("*.py")]:
        named |= set(re.findall(r"require_extra\([^,()]+, \"(\w+)\"", path.read_text(encoding="utf-8")))
    assert named and named <= set(extras)
    (everything,) = extras["all"]
    users = set(extras) - {"all", "test", "docs"}
    assert set(re.fullmatch(r"tessera-games\[(.*)\]", everything).group(1).split(",")) == users
    assert "tessera-games[all]" in extras["test"]


@pytest.mark.parametrize("folder", ["solver", "kernels", "tests", "bench"])
def test_no_code_imports_the_folders_by_their_repository_names(folder):
    """``import kernels`` would find the repository's folder from a clone's root and another
    project's package elsewhere: everything imports ``tessera``."""
    wrong = [
        f"{path.relative_to(REPO)}: {module}"
        for path, name in repo_files(folder)
        for module in imported_modules(path.read_text(encoding="utf-8"), name)
        if module.split(".")[0] in ("kernels", "solver")
    ]
    assert not wrong


def test_the_public_api_resolves_every_name():
    for name in tessera.__all__:
        assert getattr(tessera, name) is not None, name
    assert isinstance(tessera.PositionError("f", "m"), tessera.TesseraError)
    assert issubclass(tessera.AgentError, tessera.TesseraError)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        tessera.nothing_here  # noqa: B018


# The libraries of the extras (pyproject.toml): the core commands import none of them.
OPTIONAL = (
    "pyarrow",
    "matplotlib",
    "dask",
    "distributed",
    "starlette",
    "uvicorn",
    "psutil",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
)
LOADED = f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {{'numba', *{OPTIONAL!r}}}))"


@pytest.mark.parametrize("module", ["tessera", "tessera.cli"])
def test_importing_the_package_or_the_command_line_loads_no_numba(module):
    """The console script and the kernels' worker processes import ``tessera`` first: the
    public names load on first use, so the import costs nothing; and ``tessera --help`` or an
    option error answers without numba's start-up, which a command pays only when it runs.
    Nor does either import a library of an extra."""
    out = subprocess.run(
        [sys.executable, "-c", f"import sys, {module}; {LOADED}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=CHILD_SECONDS,
    )
    assert out.stdout.strip() == "[]"


CORE_COMMANDS = (
    """
import sys
import tessera
from tessera.cli import main
text = tessera.Position.new("azul", seed=1).text()
for args in (["best", text, "--iterations", "200", "--threads", "1"], ["moves", text],
             ["perft", text, "--depth", "1"], ["show", text]):
    main(args, standalone_mode=False)
"""
    + LOADED
)


def test_the_core_commands_import_no_library_of_an_extra():
    """Where every extra is installed (as here), a core command still imports none of them:
    what makes the core install enough for it (tests/test_extras.py runs them without)."""
    out = subprocess.run(
        [sys.executable, "-c", CORE_COMMANDS], capture_output=True, text=True, check=True, timeout=COLD_START_SECONDS
    )
    assert out.stdout.splitlines()[-1] == "['numba']"


def test_best_and_solve_take_a_position_or_its_text():
    late = (
        "azul players 2 wall colour round 3 phase draft turn 1 starter 1;"
        " factories - - - - -; centre BYYRRKK; bag 8/8/7/9/8; lid 6/7/6/7/7;"
        " player 1 score 8 wall BYRK./...../...../..W../..... lines"
        " W/../.../BBB./K.... floor -; player 2 score 3 wall B..../W..../"
        "...../...../..... lines ./YY/RRR/..../WW... floor 1R"
    )
    position = tessera.Position.parse(late)
    exact = [tessera.solve(late), tessera.solve(position), position.solve()]
    assert exact[0]["root"]["exact"] == exact[1]["root"]["exact"] == exact[2]["root"]["exact"]
    assert exact[0]["best_moves"] == exact[1]["best_moves"] == exact[2]["best_moves"]
    by_text = tessera.best(late, visits=200, seed=3)
    assert by_text["moves"] == tessera.best(position, visits=200, seed=3)["moves"]
    with pytest.raises(tessera.PositionError):
        tessera.best("azul players 9")


def test_the_command_line_reports_the_version():
    out = subprocess.run(["tessera", "--version"], capture_output=True, text=True, check=True, timeout=CHILD_SECONDS)
    assert out.stdout.strip() == f"tessera {tessera.__version__}"


def test_play_game_takes_a_games_name_and_no_options():
    seats = lambda: [tessera.parse_agent("greedy", seed=1), tessera.parse_agent("random", seed=2)]  # noqa: E731
    by_name = tessera.play_game("azul", None, seats(), seed=5)
    assert by_name == tessera.play_game(tessera.get_game("azul"), {}, seats(), seed=5)
    assert by_name.game == "azul" and len(by_name.moves) > 20


def test_the_pre_commit_hooks_run_the_ruff_that_ci_runs():
    """Another ruff release formats differently: the hooks' pin is the test extra's."""
    (pin,) = [line for line in pyproject()["project"]["optional-dependencies"]["test"] if line.startswith("ruff")]
    hooks = (REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    (rev,) = re.findall(r"ruff-pre-commit\s+(?:#.*\s+)*rev:\s*v(\S+)", hooks)
    assert pin == f"ruff=={rev}"
