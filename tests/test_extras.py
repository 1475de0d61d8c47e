"""The core install and its extras (pyproject.toml): the core commands run without any
optional library, and a command or module that needs one says in one line which extra
installs it, with a non-zero exit and no traceback.

Here the libraries are missing from a child process only: a ``sitecustomize`` on its
PYTHONPATH puts a finder first on ``sys.meta_path`` that finds none of the libraries
named in ``BLOCKED_LIBRARIES``, as an install without them would not.
tests/test_standalone.py installs the wheel alone, without any extra, and runs it.
"""

import json
import os
import subprocess
import sys

import pytest

from tests.cli_process import tessera

# Every optional library the package imports (by import name) and the extra that installs it.
OPTIONAL = {
    "pyarrow": "selfplay",
    "matplotlib": "selfplay",
    "dask": "cluster",
    "distributed": "cluster",
    "starlette": "web",
    "uvicorn": "web",
    "psutil": "web",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "rl",
    "open_spiel": "rl",
}
EVERY = tuple(OPTIONAL)

SITECUSTOMIZE = '''\
import os
import sys


class Blocked:
    """Finds none of the libraries BLOCKED_LIBRARIES names (comma-separated)."""
    names = set(filter(None, os.environ.get("BLOCKED_LIBRARIES", "").split(",")))

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Blocked())
'''


@pytest.fixture(scope="module")
def without(tmp_path_factory):
    """``without(*libraries)``: the environment of a child process that cannot import them."""
    folder = tmp_path_factory.mktemp("blocker")
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    return lambda *libraries: {"PYTHONPATH": path, "BLOCKED_LIBRARIES": ",".join(libraries)}


def python(code, env, *args):
    """The finished ``python -c code args`` with ``env`` added to the environment."""
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=600,
    )


def missing_line(command, extra):
    return f'error: {command} needs the {extra!r} extra: pip install "tessera-games[{extra}]"'


def test_the_blocked_libraries_cannot_be_imported(without):
    """The premise of the tests below: each blocked library is missing in the child."""
    done = python(
        "import importlib, json\nmissing = []\nfor name in " + repr(EVERY) + ":\n"
        "    try:\n        importlib.import_module(name)\n"
        "    except ModuleNotFoundError:\n        missing.append(name)\n"
        "print(json.dumps(missing))",
        without(*EVERY),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == list(EVERY)


@pytest.mark.long  # every core command in a process
def test_the_core_commands_run_without_any_extra(without):
    env = without(*EVERY)
    position = tessera("new", "azul", "--seed", "1", **env)
    assert position.returncode == 0, position.stderr
    best = tessera(
        "best", "-", "--iterations", "300", "--threads", "1", "--seed", "1", "--json", stdin=position.stdout, **env
    )
    assert best.returncode == 0, best.stderr
    assert json.loads(best.stdout)["root"]["visits"] == 300
    moves = tessera("moves", "-", "--json", stdin=position.stdout, **env)
    perft = tessera("perft", "-", "--depth", "1", stdin=position.stdout, **env)
    assert moves.returncode == 0 and perft.returncode == 0, moves.stderr + perft.stderr
    assert f"nodes {len(json.loads(moves.stdout)['moves'])}" in perft.stdout.splitlines()
    assert "Traceback" not in position.stderr + best.stderr + moves.stderr + perft.stderr


@pytest.mark.parametrize(
    "args, blocked, command, extra",
    [
        ("selfplay azul --games 2 --agents random --out {dir}/run", EVERY, "tessera selfplay", "selfplay"),
        (
            "selfplay azul --games 2 --agents random --no-plots --out {dir}/run",
            ("pyarrow",),
            "tessera selfplay",
            "selfplay",
        ),
        ("stats {dir}/run", EVERY, "tessera stats", "selfplay"),
        ("stats {dir}/run", ("matplotlib",), "tessera stats", "selfplay"),
        (
            "selfplay azul --games 2 --agents random --cluster local --out {dir}/run",
            ("dask", "distributed"),
            "tessera selfplay --cluster",
            "cluster",
        ),
        ("serve --port 0", EVERY, "tessera serve", "web"),
        ("serve --port 0", ("psutil",), "tessera serve", "web"),
        ("train azul {dir}/run --out {dir}/model.npz", EVERY, "tessera train", "train"),
    ],
)
def test_a_command_without_its_extra_names_it_in_one_line(without, tmp_path, args, blocked, command, extra):
    done = tessera(*args.format(dir=tmp_path).split(), **without(*blocked))
    assert done.returncode != 0
    assert done.stderr.splitlines() == [missing_line(command, extra)]
    assert done.stdout == "" and not any(tmp_path.iterdir())  # nothing done before it


# Modules of the Python API that an extra's library underlies, imported without it.
API_CHECK = """
import importlib, json, sys
import tessera
answers = {}
for module in ("tessera.rl.aec", "tessera.rl.vector", "tessera.rl.spiel", "tessera.web.app"):
    try:
        importlib.import_module(module)
        answers[module] = None
    except tessera.MissingExtra as err:
        answers[module] = [err.extra, str(err), isinstance(err, ImportError)]
from tessera.selfplay.records import read_records
try:
    read_records(sys.argv[1])
except tessera.MissingExtra as err:
    answers["read_records"] = [err.extra, str(err), isinstance(err, ImportError)]
print(json.dumps(answers))
"""


def test_the_api_of_an_extra_names_it_when_its_library_is_missing(without, tmp_path):
    done = python(API_CHECK, without(*EVERY), tmp_path)
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    expected = {
        "tessera.rl.aec": "rl",
        "tessera.rl.vector": "rl",
        "tessera.rl.spiel": "rl",
        "tessera.web.app": "web",
        "read_records": "selfplay",
    }
    assert {name: answer[0] for name, answer in answers.items()} == expected
    for extra, message, is_import_error in answers.values():
        assert message.endswith(f'needs the {extra!r} extra: pip install "tessera-games[{extra}]"')
        assert is_import_error  # what `pytest.importorskip` and `except ImportError` catch


BOARD_CHECK = """
import json, sys
from starlette.testclient import TestClient
from tessera.web.app import create_app
with TestClient(create_app(analysis=False, runs=[sys.argv[1]]), base_url="http://127.0.0.1:8765") as client:
    answers = [client.post("/api/new", json={"game": "azul", "seed": 1}),
               client.post("/api/run", json={"folder": sys.argv[1]})]
print(json.dumps([[answer.status_code, answer.json()] for answer in answers]))
"""


@pytest.mark.long  # a server of its own
def test_the_board_works_without_pyarrow_and_its_run_pages_name_the_extra(without, tmp_path):
    """The web extra has no pyarrow: the board plays, and opening a self-play run answers
    with the one line that names the selfplay extra."""
    done = python(BOARD_CHECK, without("pyarrow"), tmp_path)
    assert done.returncode == 0, done.stderr
    (new_status, new), (run_status, run) = json.loads(done.stdout)
    assert new_status == 200 and new["moves"]
    assert run_status == 400
    assert run["error"] == missing_line("opening a self-play run on the board", "selfplay").removeprefix("error: ")
