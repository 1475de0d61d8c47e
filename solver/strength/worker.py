"""The far side of a match against another version: agents of another source tree,
answering over pipes.

``Baseline`` (tessera.strength.baseline) runs this file as a script, with the tree as
its working folder and first on ``PYTHONPATH``, so every name it imports is the tree's:
this file imports nothing of the package it ships in. It uses only the tree's public
Python API (``games.game_of_position``, ``agents.parse_agent`` and the game's
``parse_move`` / ``format_move``), so any version offering it can serve, whichever of
the two layouts it has:

- its folders are its import names: ``solver`` and ``kernels`` (older versions);
- its pyproject.toml maps import names to folders (setuptools ``package-dir``:
  ``tessera`` is solver/, ``tessera.kernels`` is kernels/), which a finder added here
  honours as an editable install would.

One JSON object a line on stdin, one answer a line on stdout:

  {"op": "hello"}                                   -> {"package": file of the package imported}
  {"op": "agent", "spec": S, "seed": N}             -> {"agent": id}
  {"op": "choose", "agent": id, "position": P,
   "seen": [[P0, M0], ...]}                         -> {"move": text, "seconds": wall time of choose}
  {"op": "drop", "agent": id}                       -> {}
  {"op": "rate", "position": P, "simulations": N,
   "seed": S}                                       -> {"simulations_per_s": CPU-time rate}

``rate`` times one search with the default options from ``P`` (after a short one that
loads its kernels), MCTS or, on a player's view, IS-MCTS: a speed comparison of two
versions alternates such searches of their workers.

``seen`` lists the moves played since the agent last chose (its own included), each
with the position its mover saw, so the agent can follow the game (``observe``).
Any failure answers {"error": one line}.
"""

import importlib
import importlib.abc
import importlib.util
import itertools
import json
import os
import re
import sys
import time
from pathlib import Path

# The import names of a tree whose folders are its import names.
FOLDER_NAMES = ("solver", "kernels")


def package_folders(tree):
    """The tree's ``package-dir`` table (import name -> folder) from its pyproject.toml;
    empty when it has none. Read with a pattern, not a TOML parser: Python 3.10 has none."""
    pyproject = Path(tree) / "pyproject.toml"
    if not pyproject.is_file():
        return {}
    table = re.search(r"^package-dir\s*=\s*\{([^}]*)\}", pyproject.read_text(encoding="utf-8"), re.MULTILINE)
    if table is None:
        return {}
    pairs = re.findall(r'"([\w.]+)"\s*=\s*"([^"]+)"', table.group(1))
    return {name: (Path(tree) / folder).resolve() for name, folder in pairs}


class TreeFinder(importlib.abc.MetaPathFinder):
    """Imports the packages of ``folders`` (import name -> folder) from those folders."""

    def __init__(self, folders):
        self.folders = folders

    def find_spec(self, fullname, path=None, target=None):
        folder = self.folders.get(fullname)
        if folder is None:
            return None
        return importlib.util.spec_from_file_location(
            fullname, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )


def import_names(tree):
    """(package, kernels): the import names of the tree's two packages, its finder installed
    first when it maps names to folders."""
    folders = package_folders(tree)
    if not folders:
        return FOLDER_NAMES
    sys.meta_path.insert(0, TreeFinder(folders))  # before any installed version of the names
    # A compile helper would be a fresh interpreter without this finder, compiling whatever
    # version its imports found instead: the tree's kernels compile in this process alone.
    os.environ["TESSERA_COMPILE_HELPER"] = "0"
    package = next(name for name in folders if "." not in name)
    return package, f"{package}.kernels"


def serve(lines, answer, package="tessera", kernels="tessera.kernels"):
    top = importlib.import_module(package)
    parse_agent = importlib.import_module(f"{package}.agents").parse_agent
    game_of_position = importlib.import_module(f"{package}.games").game_of_position

    agents = {}
    ids = itertools.count()

    def handle(request):
        op = request["op"]
        if op == "hello":
            return {"package": top.__file__}
        if op == "agent":
            key = next(ids)
            agents[key] = parse_agent(request["spec"], seed=request["seed"])
            return {"agent": key}
        if op == "drop":
            agents.pop(request["agent"], None)
            return {}
        if op == "choose":
            agent = agents[request["agent"]]
            for position, move in request["seen"]:
                game, state = game_of_position(position)
                agent.observe(game.parse_move(state, move))
            game, state = game_of_position(request["position"])
            started = time.perf_counter()
            move = agent.choose(state)
            return {"move": game.format_move(state, move), "seconds": time.perf_counter() - started}
        if op == "rate":
            return {"simulations_per_s": simulations_per_s(request, package, kernels)}
        raise ValueError(f"unknown op {op!r}")

    for line in lines:
        try:
            reply = handle(json.loads(line))
        except Exception as err:  # noqa: BLE001  (every failure goes back as one line)
            reply = {"error": f"{type(err).__name__}: {err}".splitlines()[0]}
        answer(json.dumps(reply))


def simulations_per_s(request, package="tessera", kernels="tessera.kernels"):
    """Simulations a CPU second of one default search of ``request["simulations"]`` from
    ``request["position"]``, seeded ``request["seed"]``."""
    games = importlib.import_module(f"{kernels}.games")
    game_of_position = importlib.import_module(f"{package}.games").game_of_position
    Ismcts = importlib.import_module(f"{package}.search.ismcts").Ismcts
    mcts = importlib.import_module(f"{package}.search.mcts")
    _, state = game_of_position(request["position"])
    search = mcts.Mcts if games.is_complete(state) else Ismcts
    search(mcts.MctsOptions(iterations=64, seed=0)).search(state)  # load the kernels
    searcher = search(mcts.MctsOptions(iterations=request["simulations"], seed=request["seed"]))
    cpu = time.process_time()
    visits = searcher.search(state).visits
    return visits / (time.process_time() - cpu)


def main():
    # Run as a script, this file's folder heads sys.path: drop it, so that only the tree's
    # modules answer to the names the tree uses.
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [entry for entry in sys.path if str(Path(entry or ".").resolve()) != here]
    package, kernels = import_names(Path.cwd())

    def answer(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    serve(sys.stdin, answer, package, kernels)


if __name__ == "__main__":
    main()
