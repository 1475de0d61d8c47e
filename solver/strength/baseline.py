"""Another version's agents: a source tree (or a commit exported from a git repository)
served by a worker process (tessera/strength/worker.py) over pipes.

Each version's kernels are compiled with its own rules and heuristics, so the other
version runs in a process of its own, with its tree first on ``PYTHONPATH`` and a numba
cache of its own; it reads positions and answers moves in the notation both share.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from tessera.errors import TesseraError

WORKER = Path(__file__).resolve().parent / "worker.py"
# A spec ending in this is played by the baseline.
BASE_SUFFIX = "@base"


class VersusError(TesseraError):
    """A match that cannot be played: a bad baseline, or a baseline agent that failed."""


def export_commit(repo, commit, cache_root):
    """The folder holding ``commit`` of the git repository ``repo`` exported (``src``), its
    numba cache and its board data; exported once, then reused."""
    try:
        sha = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--verify", f"{commit}^{{commit}}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (subprocess.CalledProcessError, OSError):
        raise VersusError(f"no commit '{commit}' in {repo}") from None
    folder = Path(cache_root) / sha[:12]
    src = folder / "src"
    if not src.is_dir():
        # Unpacked into a folder of its own, then renamed into place in one step: a ``src``
        # is always whole, and two matches exporting the same commit at once each unpack
        # their own copy, the first rename winning and the other copy dropped.
        folder.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix="src.partial.", dir=folder))
        archive = subprocess.run(["git", "-C", str(repo), "archive", sha], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(partial)], input=archive.stdout, check=True)
        try:
            partial.rename(src)
        except OSError:  # another export's rename came first
            shutil.rmtree(partial, ignore_errors=True)
    return folder


class Baseline:
    """A worker process serving the agents of the source tree ``src``."""

    def __init__(self, src, numba_cache=None, shared=None, label=None):
        self.src = Path(src).resolve()
        self.label = label or str(self.src)
        env = dict(os.environ, PYTHONPATH=str(self.src))
        if numba_cache:
            env["NUMBA_CACHE_DIR"] = str(numba_cache)
        if shared:
            env["TESSERA_SHARED"] = str(shared)
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER)],
            cwd=self.src,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        where = Path(self.ask({"op": "hello"})["package"]).resolve()
        if self.src not in where.parents:
            self.close()
            raise VersusError(f"the baseline worker imported its package from {where}, not from {self.src}")

    @classmethod
    def of_commit(cls, repo, commit, cache_root=None):
        """The baseline of ``commit`` of the git repository ``repo``, exported into
        ``cache_root`` (default ``$TESSERA_VERSUS_CACHE``, else ``<tmp>/tessera-versus``)."""
        cache_root = (
            cache_root or os.environ.get("TESSERA_VERSUS_CACHE") or Path(tempfile.gettempdir()) / "tessera-versus"
        )
        folder = export_commit(repo, commit, cache_root)
        # Versions from before the board data was packaged read it from
        # $TESSERA_SHARED/data: theirs is a copy of this version's packaged data (newer
        # versions ignore it).
        shared = folder / "shared"
        (shared / "data").mkdir(parents=True, exist_ok=True)
        for path in (resources.files("tessera.kernels") / "data").iterdir():
            if path.name.endswith(".json"):
                (shared / "data" / path.name).write_bytes(path.read_bytes())
        return cls(folder / "src", numba_cache=folder / "numba", shared=shared, label=commit)

    def ask(self, request):
        """Send one request; its answer, or ``VersusError`` naming the worker's failure."""
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            raise VersusError(f"the baseline worker ({self.label}) stopped: {self._stderr_tail()}")
        reply = json.loads(line)
        if "error" in reply:
            raise VersusError(f"baseline ({self.label}): {reply['error']}")
        return reply

    def _stderr_tail(self):
        self.process.wait(timeout=10)
        self.stderr.seek(0)
        lines = self.stderr.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {self.process.returncode}"

    def agent(self, spec, seed):
        return RemoteAgent(self, spec, seed)

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)
        self.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RemoteAgent:
    """An agent of the baseline, seen through its worker: positions out, move text back."""

    def __init__(self, baseline, spec, seed):
        self.baseline = baseline
        self.spec = spec + BASE_SUFFIX
        self.id = baseline.ask({"op": "agent", "spec": spec, "seed": seed})["agent"]
        self.seen = []

    def choose_text(self, position):
        """The move's text, and the wall seconds the agent took to choose it (in the worker)."""
        reply = self.baseline.ask({"op": "choose", "agent": self.id, "position": position, "seen": self.seen})
        self.seen = []
        return reply["move"], reply["seconds"]

    def saw(self, position, move_text):
        self.seen.append([position, move_text])

    def drop(self):
        self.baseline.ask({"op": "drop", "agent": self.id})
