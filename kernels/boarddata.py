"""Reading the printed-board data files (plain Python, used when a game is first loaded).

The boards ship inside the package, in ``kernels/data/`` (package data of the wheel),
and are read through ``importlib.resources``, so an installed Tessera needs nothing
beside it. A user's own board file (Azure's domains or Cosmos boards) is named by an
environment variable; see ``board_json``.
"""

import json
import os
from importlib import resources
from pathlib import Path


class BoardDataError(RuntimeError):
    """A board data file is missing or does not have the expected shape."""


def board_json(name, what, override_env=None):
    """``(data, source)``: the parsed board file ``name`` and where it came from (the
    user's path, or ``name`` itself for the packaged copy).

    The file named by the environment variable ``override_env`` wins when it is set;
    otherwise the copy packaged in ``kernels/data/``. ``what`` names the data in errors.
    """
    override = os.environ.get(override_env) if override_env else None
    if override:
        path = Path(override)
        if not path.is_file():
            raise BoardDataError(f"{what} not found: {path} (named by ${override_env})")
        return _parse(_read(path, path), path), str(path)
    packaged = resources.files(__package__).joinpath("data", name)
    if not packaged.is_file():
        raise BoardDataError(f"{what} not found: {name} is missing from the installed package; reinstall Tessera")
    return _parse(_read(packaged, name), name), name


def _read(resource, name):
    try:
        return resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise BoardDataError(f"cannot read {name}: {err}") from None


def _parse(text, name):
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        raise BoardDataError(f"cannot read {name}: not valid JSON ({err})") from None
