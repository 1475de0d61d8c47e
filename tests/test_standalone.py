"""The built wheel stands alone: installed into a fresh virtual environment, it plays
every game from an empty folder, with nothing of the repository beside it.

The wheel is built from this checkout, installed with its dependencies (pip's cache
makes that quick after the first time), and the real ``tessera`` script is run.
"""
import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA_FILES = ("summer-pavilion-board.json", "azure-domains.json", "azure-cosmos-standin.json")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(REPO)],
                   check=True, timeout=600)
    (path,) = out.glob("tessera-*.whl")
    return path


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """``run(command)``: a shell command run in an empty folder with the wheel's venv first on PATH."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "--quiet", str(wheel)], check=True, timeout=1200)
    empty = tmp_path_factory.mktemp("empty")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env['PATH']}", NUMBA_CACHE_DIR=str(empty / ".numba-cache"))

    def run(command):
        result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=empty, env=env,
                                capture_output=True, text=True, timeout=1200)
        assert result.returncode == 0, f"{command}\n{result.stderr}"
        return result.stdout
    return run


def test_the_wheel_holds_every_board_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"kernels/data/{name}" for name in DATA_FILES} <= names


def test_the_wheel_holds_the_web_boards_page(wheel):
    """`tessera serve` serves its page from package data: every file of solver/web/static."""
    names = set(zipfile.ZipFile(wheel).namelist())
    page = {f"solver/web/static/{path.name}" for path in (REPO / "solver/web/static").iterdir()}
    assert {"solver/web/static/index.html", "solver/web/static/app.js"} <= page <= names


def test_the_installed_package_is_the_wheels(installed):
    location = installed("python -c 'import kernels, solver; print(kernels.__file__, solver.__file__)'")
    assert str(REPO) not in location and "site-packages" in location


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
