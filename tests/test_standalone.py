"""The release check: what a release would upload is built, checked and installed.

``python -m build`` makes the sdist of this checkout and then the wheel from that sdist,
as a release does; ``twine check --strict`` passes both (PyPI would render the README and
accept the metadata), the sdist holds every module and package data file, and the wheel
holds all of the sdist's package files.

That wheel stands alone: installed into a fresh virtual environment with its core
dependencies alone, no extra (installed by uv where CI has it, else by pip), it
plays every game from an empty folder, with nothing of the repository beside it, through
the real ``tessera`` script and the public API: the core commands work, and one of an
extra names it. The environment already holds two unrelated distributions whose
top-level packages are named ``kernels`` and ``solver`` (the names of the repository's
folders): Tessera installs only the ``tessera`` namespace, so both keep working beside it.
"""

import json
import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

import tessera
from tests.limits import CHILD_SECONDS, COLD_START_SECONDS

pytestmark = pytest.mark.packaging  # builds and installs the wheel

REPO = Path(__file__).resolve().parents[1]
DATA_FILES = ("summer-pavilion-board.json", "azure-domains.json", "azure-cosmos-standin.json")
# The repository's package folders, by the name they install as (pyproject.toml's package-dir).
PACKAGE_FOLDERS = {"solver": "tessera", "kernels": "tessera/kernels"}


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The sdist and the wheel (paths) of ``python -m build``: the sdist of this checkout,
    then the wheel built from the unpacked sdist, as a release makes them.

    Without build isolation: the build backend is the test environment's setuptools (the
    test extra brings the version build-system requires), where an isolated build
    installs setuptools into a new environment twice, for the sdist and for the wheel:
    2.6 s against 6.5 s a build (wall, medians of 5 interleaved runs on two cores), and
    no package index needed."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=COLD_START_SECONDS,
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    (sdist,) = out.glob("tessera_games-*.tar.gz")
    (wheel,) = out.glob("tessera_games-*.whl")
    return sdist, wheel


@pytest.fixture(scope="module")
def sdist(dist):
    return dist[0]


@pytest.fixture(scope="module")
def wheel(dist):
    return dist[1]


def sdist_names(sdist):
    """The names of the sdist's files (folders left out), without its top folder
    (``tessera_games-<version>/``)."""
    with tarfile.open(sdist) as archive:
        return {member.name.split("/", 1)[1] for member in archive.getmembers() if member.isfile()}


def test_twine_check_passes_the_sdist_and_the_wheel(dist):
    """The metadata is complete and valid, and the README renders as PyPI renders it."""
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, dist)],
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_sdist_and_the_wheel_carry_the_packages_version(dist):
    sdist, wheel = dist
    assert sdist.name == f"tessera_games-{tessera.__version__}.tar.gz"
    assert wheel.name == f"tessera_games-{tessera.__version__}-py3-none-any.whl"


def test_the_sdist_holds_every_module_and_the_package_data(sdist):
    names = sdist_names(sdist)
    assert {"pyproject.toml", "README.md", "LICENSE", "PKG-INFO"} <= names
    modules = {
        path.relative_to(REPO).as_posix()
        for folder in PACKAGE_FOLDERS
        for path in (REPO / folder).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert modules <= names
    data = {
        "solver/py.typed",
        "solver/analysis/query.schema.json",
        *(f"kernels/data/{name}" for name in DATA_FILES),
        *(f"solver/learning/models/{path.name}" for path in (REPO / "solver/learning/models").glob("*.npz")),
        *(f"solver/web/static/{path.name}" for path in (REPO / "solver/web/static").iterdir()),
        # The kernels shipped compiled: each platform's folder of part archives and its manifest.
        *(path.relative_to(REPO).as_posix() for path in (REPO / "kernels/prebuilt").glob("*/*.tar.xz")),
        *(f"kernels/prebuilt/{path.name}" for path in (REPO / "kernels/prebuilt").glob("*.json")),
    }
    assert any(name.endswith(".tar.xz") for name in data)
    assert data <= names
    # The tests run from a clone, beside the repository they read (MANIFEST.in).
    assert not [name for name in names if name.startswith("tests/")]


def test_the_wheel_built_from_the_sdist_holds_every_package_file_of_it(dist):
    """Each file of the sdist's package folders is in the wheel, at its installed name."""
    sdist, wheel = dist
    installed_names = set()
    for name in sdist_names(sdist):
        folder, _, rest = name.partition("/")
        if folder in PACKAGE_FOLDERS:
            installed_names.add(f"{PACKAGE_FOLDERS[folder]}/{rest}")
    assert installed_names and installed_names <= set(zipfile.ZipFile(wheel).namelist())


UNRELATED = ("kernels", "solver")


def unrelated_wheel(name, folder):
    """A tiny distribution ``unrelated-<name>`` whose one package is ``<name>``, built as a wheel."""
    source = folder / name
    (source / name).mkdir(parents=True)
    (source / name / "__init__.py").write_text(f"OWNER = 'unrelated-{name}'\n")
    (source / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=77"]\nbuild-backend = "setuptools.build_meta"\n'
        f'[project]\nname = "unrelated-{name}"\nversion = "1.0"\n'
        f'[tool.setuptools]\npackages = ["{name}"]\n'
    )
    # Without build isolation, as the release check's build (fixture dist), and for its reason.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(folder),
            str(source),
        ],
        check=True,
        timeout=600,
    )
    (path,) = folder.glob(f"unrelated_{name}-*.whl")
    return path


# The installer of CI's environment (.ci/run), where there is one: it installs the same
# distributions as pip, in a fraction of the time; else pip.
UV = shutil.which("uv")


def install(python, *requirements):
    """Install ``requirements`` (and what they depend on) into the venv of ``python``."""
    if UV is not None:
        command = [UV, "pip", "install", "--quiet", "--python", str(python), *requirements]
    else:
        command = [str(python), "-m", "pip", "install", "--quiet", *requirements]
    subprocess.run(command, check=True, timeout=1200)


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """``run(command)``: a shell command run in an empty folder with the wheel's venv first on PATH.
    The venv held the unrelated ``kernels`` and ``solver`` packages before Tessera came."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=UV is None)
    bin_dir = env_dir / "bin"
    others = tmp_path_factory.mktemp("unrelated")
    install(bin_dir / "python", *(str(unrelated_wheel(name, others)) for name in UNRELATED))
    install(bin_dir / "python", str(wheel))
    empty = tmp_path_factory.mktemp("empty")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env['PATH']}", NUMBA_CACHE_DIR=str(empty / ".numba-cache"))

    def run(command):
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command], cwd=empty, env=env, capture_output=True, text=True, timeout=1200
        )
        assert result.returncode == 0, f"{command}\n{result.stderr}"
        return result.stdout

    return run


def test_the_wheel_installs_only_the_tessera_namespace(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"tessera"}
    assert "tessera/py.typed" in names and "tessera/kernels/bind.py" in names


def test_the_wheel_holds_every_board_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"tessera/kernels/data/{name}" for name in DATA_FILES} <= names
    assert "tessera/learning/models/azul.npz" in names  # the built-in value models
    assert "tessera/learning/models/pavilion.npz" in names
    assert "tessera/learning/models/pavilion-3p.npz" in names


def test_the_wheel_holds_the_web_boards_page(wheel):
    """`tessera serve` serves its page from package data: every file of solver/web/static."""
    names = set(zipfile.ZipFile(wheel).namelist())
    page = {f"tessera/web/static/{path.name}" for path in (REPO / "solver/web/static").iterdir()}
    assert {"tessera/web/static/index.html", "tessera/web/static/app.js"} <= page <= names


# The libraries of the extras (pyproject.toml), none of which the core install brings.
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


def test_the_core_install_brings_no_library_of_an_extra(installed):
    found = installed(
        f"python -c 'import importlib.util as u; print([m for m in {json.dumps(OPTIONAL)} if u.find_spec(m)])'"
    )
    assert found.strip() == "[]"


def test_a_command_of_an_extra_names_it_in_the_core_install(installed):
    done = installed("tessera stats run 2>&1; echo status $?")
    assert done.splitlines() == [
        "error: tessera stats needs the 'selfplay' extra: pip install \"tessera-games[selfplay]\"",
        "status 2",
    ]


def test_perft_runs_from_an_empty_folder(installed):
    out = installed("tessera new azul --seed 1 | tessera perft - --depth 2")
    assert out.splitlines()[0].startswith("nodes ")


def test_the_installed_package_is_the_wheels(installed):
    location = installed("python -c 'import tessera, tessera.kernels as k; print(tessera.__file__, k.__file__)'")
    assert str(REPO) not in location and location.count("site-packages/tessera/") == 2


def test_unrelated_kernels_and_solver_packages_keep_working(installed):
    owners = installed("python -c 'import tessera.position, kernels, solver; print(kernels.OWNER, solver.OWNER)'")
    assert owners.split() == ["unrelated-kernels", "unrelated-solver"]


def test_the_version_is_the_distributions(installed):
    version = installed("tessera --version").strip()
    metadata = installed("python -c 'from importlib.metadata import version; print(version(\"tessera-games\"))'")
    assert version == f"tessera {metadata.strip()}"


def test_the_public_api_plays_from_python(installed):
    out = installed("""python -c '
import tessera
start = tessera.Position.new("pavilion", seed=4)
analysis = tessera.best(start, visits=60, seed=1)
record = tessera.play_game(tessera.get_game("azul"), {}, [tessera.parse_agent("greedy", seed=1),
                           tessera.parse_agent("random", seed=2)], seed=3)
print(analysis["root"]["visits"], len(record.moves) > 0)
'""")
    assert out.split() == ["60", "True"]


@pytest.mark.parametrize("game", ["azul", "pavilion", "azure"])
def test_each_game_runs_from_an_empty_folder(installed, game):
    moves = installed(f"tessera new {game} --seed 1 | tessera moves -").splitlines()
    assert moves and all(move.strip() for move in moves)


def test_a_search_on_cosmos_runs_from_an_empty_folder(installed):
    out = installed("tessera new azure --cosmos --seed 2 | tessera best - --iterations 500 --json")
    assert '"moves"' in out


def test_tessera_analyze_runs_from_an_empty_folder(installed):
    """The query schema is package data of the wheel too."""
    out = installed("""echo '{"id": "a", "game": "pavilion", "maxVisits": 50}' | tessera analyze""")
    answer = json.loads(out)
    assert answer["id"] == "a" and answer["root"]["visits"] == 50


def test_the_installed_wheel_loads_its_kernels_shipped_compiled(installed):
    """Installed from the wheel, the sources the shipped kernels were built from are all there
    (their digest is the manifest's), so a first search on an empty cache compiles nothing."""
    from tessera.kernels import prebuilt

    if (
        prebuilt.BUILD_CPU.get(os.uname().machine) is None
        or not prebuilt.archive_paths(prebuilt.BUILD_CPU[os.uname().machine])[0].is_dir()
    ):
        pytest.skip("no kernels shipped compiled for this platform")
    refusal = installed(
        "python -c 'from tessera.kernels import prebuilt as p; import json, platform; "
        "cpu = p.BUILD_CPU[platform.machine()]; "
        "manifest = json.loads(p.archive_paths(cpu)[1].read_text()); "
        "print(p.refusal(manifest, digest=p.source_digest(), versions=p._versions(), "
        "host_features=p._host_features()))'"
    )
    assert refusal.strip() == "None"
    out = installed("tessera new azul --seed 1 | tessera best - --iterations 500 --threads 1 --json")
    assert json.loads(out)["root"]["compile_seconds"] == 0
