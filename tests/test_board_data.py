"""The board data ships inside the package, is read per game, and fails one game at a time.

The broken-file tests run the real CLI on a copy of the two packages in a temporary
folder, with one data file damaged or removed there.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tessera.kernels.boarddata import BoardDataError, board_json
from tests.limits import COLD_START_SECONDS

PACKAGES = Path(__file__).resolve().parents[1]
DATA_FILES = ("summer-pavilion-board.json", "azure-domains.json", "azure-cosmos-standin.json")


@pytest.mark.parametrize("name", DATA_FILES)
def test_every_board_file_is_packaged_and_valid_json(name):
    data, source = board_json(name, "board data")
    assert source == name and isinstance(data, dict) and data


def test_a_users_file_replaces_the_packaged_one(tmp_path, monkeypatch):
    data, _ = board_json("azure-domains.json", "Azure board data")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    monkeypatch.setenv("TESSERA_AZURE_DOMAINS", str(path))
    assert board_json("azure-domains.json", "Azure board data", "TESSERA_AZURE_DOMAINS") == (data, str(path))
    monkeypatch.setenv("TESSERA_AZURE_DOMAINS", str(tmp_path / "missing.json"))
    with pytest.raises(
        BoardDataError, match=r"Azure board data not found: .*missing.json \(named by \$TESSERA_AZURE_DOMAINS\)"
    ):
        board_json("azure-domains.json", "Azure board data", "TESSERA_AZURE_DOMAINS")


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    """The package ``tessera`` laid out as installed (solver/ as tessera/, kernels/ as
    tessera/kernels/) in a folder of its own."""
    root = tmp_path_factory.mktemp("copy")
    for folder, target in (("solver", root / "tessera"), ("kernels", root / "tessera" / "kernels")):
        shutil.copytree(PACKAGES / folder, target, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return root


def _tessera(root, *args, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(root / "numba-cache"))
    env.pop("TESSERA_AZURE_COSMOS", None)
    return subprocess.run(
        [sys.executable, "-m", "tessera", *args],
        input=stdin,
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=COLD_START_SECONDS,
    )


def _one_error_line(result, *words):
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("error: ") and all(word in result.stderr for word in words), result.stderr


@pytest.mark.cold
def test_a_broken_file_stops_only_its_own_game(package_copy):
    data = package_copy / "tessera" / "kernels" / "data"
    (data / "summer-pavilion-board.json").write_text("{ not json")
    (data / "azure-domains.json").unlink()
    azul = _tessera(package_copy, "new", "azul", "--seed", "1")
    assert azul.returncode == 0, azul.stderr
    assert _tessera(package_copy, "moves", "-", stdin=azul.stdout).returncode == 0
    _one_error_line(
        _tessera(package_copy, "new", "pavilion", "--seed", "1"), "summer-pavilion-board.json", "not valid JSON"
    )
    _one_error_line(
        _tessera(package_copy, "new", "azure", "--seed", "1"),
        "Azure board data not found",
        "azure-domains.json",
        "reinstall",
    )
