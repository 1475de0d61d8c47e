"""Finding and reading the printed-board data files (plain Python, used at load time).

The shared data folder is ``$TESSERA_SHARED/data`` when the environment variable
``TESSERA_SHARED`` names the shared folder, else ``<repo>/../shared/data``.
"""
import json
import os
from pathlib import Path

SHARED_ENV = "TESSERA_SHARED"


class BoardDataError(RuntimeError):
    """A board data file is missing or does not have the expected shape."""


def shared_data_path(name, what="board data"):
    """The path of ``name`` in the shared data folder; ``what`` names it in the error if missing."""
    override = os.environ.get(SHARED_ENV)
    shared = Path(override) if override else Path(__file__).resolve().parents[2] / "shared"
    path = shared / "data" / name
    if not path.is_file():
        how = f"${SHARED_ENV}" if override else f"<repo>/../shared (set {SHARED_ENV} to move it)"
        raise BoardDataError(f"{what} not found: {path} (looked in {how})")
    return path


def read_json(path):
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except (OSError, json.JSONDecodeError) as err:
        raise BoardDataError(f"cannot read {path}: {err}") from None
