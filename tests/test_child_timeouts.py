"""No test can hang on a child process: every child that a test or a test helper in tests/
starts has a timeout of its own (tests/README.md, "Hangs"; the bounds are in
tests/limits.py), checked on the source of tests/ with ``ast``:

- ``subprocess.run``, ``call``, ``check_call`` and ``check_output`` are given ``timeout=``;
- every ``.wait(...)`` and ``.communicate(...)`` is given ``timeout=`` (by keyword: a
  positional number reads as a timeout only to a reader who knows the signature, and
  ``communicate``'s first one is its input);
- no ``subprocess.Popen`` is a ``with`` statement's context (leaving it waits for the
  child without a bound), and no ``os.system``, ``os.popen`` or ``os.wait*`` (they cannot
  be bounded);
- none of the calls above is passed on uncalled, where its arguments cannot be seen.

And the helpers of tests/limits.py end a child that overruns its timeout before the
error propagates, its process group too where asked, leaving no orphan.
"""

import ast
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.limits import KILL_SECONDS, communicate_or_kill, kill, line_queue, wait_or_kill

TESTS = Path(__file__).resolve().parent
RUNNERS = {"run", "call", "check_call", "check_output"}  # subprocess's, that wait for the child
WAITS = {"wait", "communicate"}  # methods that wait for a child
BOUNDED_BY_TIMEOUT = {f"subprocess.{runner}" for runner in RUNNERS}
UNBOUNDED = {f"os.{call}" for call in ("system", "popen", "wait", "wait3", "wait4", "waitpid")}


def sources():
    """The Python files of tests/, helpers and subfolders included."""
    return sorted(path for path in TESTS.rglob("*.py") if "__pycache__" not in path.parts)


def aliases(tree):
    """(names bound to the modules subprocess and os, {name: subprocess runner it binds})."""
    modules, runners = {"subprocess": "subprocess", "os": "os"}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("subprocess", "os"):
                    modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module == "subprocess":
            for alias in node.names:
                if alias.name in RUNNERS or alias.name == "Popen":
                    runners[alias.asname or alias.name] = alias.name
    return modules, runners


def unbounded_waits(path, where):
    """``where:line: what`` for each place in the file at ``path`` that may wait for a
    child without a bound."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    modules, runners = aliases(tree)

    def named(node):
        """What ``node`` (an expression) names: 'subprocess.run', 'os.system', ... or None."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            return f"{modules[node.value.id]}.{node.attr}"
        if isinstance(node, ast.Name) and node.id in runners:
            return f"subprocess.{runners[node.id]}"
        return None

    found, called = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called.add(id(node.func))
            name = named(node.func)
            has_timeout = any(keyword.arg == "timeout" for keyword in node.keywords)
            if name in BOUNDED_BY_TIMEOUT and not has_timeout:
                found.append(f"{where}:{node.lineno}: {name}(...) without timeout=")
            elif name in UNBOUNDED:
                found.append(
                    f"{where}:{node.lineno}: {name}(...) cannot be bounded: use "
                    "subprocess.run(..., timeout=) or Popen with wait(timeout=)"
                )
            elif isinstance(node.func, ast.Attribute) and node.func.attr in WAITS and name is None and not has_timeout:
                found.append(f"{where}:{node.lineno}: .{node.func.attr}(...) without timeout=")
        elif (
            isinstance(node, ast.withitem)
            and isinstance(node.context_expr, ast.Call)
            and named(node.context_expr.func) == "subprocess.Popen"
        ):
            found.append(
                f"{where}:{node.context_expr.lineno}: subprocess.Popen as a with "
                "statement's context waits for the child without a bound on leaving it"
            )
    for node in ast.walk(tree):
        name = named(node) if isinstance(node, (ast.Attribute, ast.Name)) else None
        if (
            name in BOUNDED_BY_TIMEOUT
            and id(node) not in called
            and not isinstance(getattr(node, "ctx", None), ast.Store)
        ):
            found.append(f"{where}:{node.lineno}: {name} passed on uncalled: its timeout cannot be checked")
    return found


def test_every_child_of_a_test_has_a_timeout():
    found = [place for path in sources() for place in unbounded_waits(path, path.relative_to(TESTS.parent))]
    assert not found, (
        "a child process waited for without a bound (give it a timeout= from tests/limits.py):\n" + "\n".join(found)
    )


def test_the_scan_finds_each_kind_of_unbounded_wait(tmp_path):
    """The check itself, on a file that holds each kind once, beside its bounded twin."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import os, subprocess as sp\n"
        "from subprocess import check_output as out\n"
        "sp.run(['true'])\n"  # 3
        "sp.run(['true'], timeout=1)\n"
        "out(['true'])\n"  # 5
        "out(['true'], timeout=1)\n"
        "process = sp.Popen(['true'])\n"
        "process.wait()\n"  # 8
        "process.wait(5)\n"  # 9
        "process.wait(timeout=5)\n"
        "process.communicate(b'')\n"  # 11
        "process.communicate(b'', timeout=5)\n"
        "with sp.Popen(['true']) as child:\n"  # 13
        "    pass\n"
        "os.system('true')\n"  # 15
        "list(map(sp.call, [['true']]))\n"  # 16
        "', '.join(['a'])\n"
    )
    lines = [int(place.split(":")[1]) for place in unbounded_waits(probe, probe.name)]
    assert sorted(lines) == [3, 5, 8, 9, 11, 13, 15, 16]


# ---- the helpers of tests/limits.py ----------------------------------------------------


def gone(pid):
    """Whether the process ``pid`` has ended (a zombie counts: it holds nothing) within
    KILL_SECONDS."""
    deadline = time.monotonic() + KILL_SECONDS
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_a_child_past_its_timeout_is_killed_and_reaped():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            wait_or_kill(process, 0.2)
        assert process.returncode == -signal.SIGKILL  # reaped: no zombie, no orphan
    finally:
        kill(process)


def test_communicate_kills_a_child_past_its_timeout():
    process = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            communicate_or_kill(process, 0.2, input=b"")
        assert process.returncode == -signal.SIGKILL
    finally:
        kill(process)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_child_in_a_session_of_its_own_is_killed_with_its_group():
    """A shell that started a grandchild: both go, the grandchild's pid read from the shell's
    stdout through a queue, never by a read that could block for good."""
    process = subprocess.Popen(
        ["sh", "-c", "sleep 60 & echo $!; wait"], start_new_session=True, stdout=subprocess.PIPE, text=True
    )
    try:
        grandchild = int(line_queue(process.stdout).get(timeout=30))
        with pytest.raises(subprocess.TimeoutExpired):
            wait_or_kill(process, 0.2, group=True)
        assert process.returncode == -signal.SIGKILL
        assert gone(grandchild)
    finally:
        kill(process, group=True)


def test_killing_a_child_that_has_ended_is_harmless():
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    assert wait_or_kill(process, 60) == 0
    kill(process)
    kill(process, group=True)
    assert process.returncode == 0


def test_a_line_queue_ends_with_none_and_never_blocks():
    process = subprocess.Popen(
        [sys.executable, "-c", "print('one'); import time; time.sleep(60)"], stdout=subprocess.PIPE, text=True
    )
    try:
        lines = line_queue(process.stdout)
        assert lines.get(timeout=30) == "one\n"
        with pytest.raises(queue.Empty):
            lines.get(timeout=0.2)  # the child is silent: no line, no hang
        kill(process)
        assert lines.get(timeout=30) is None  # its end
    finally:
        kill(process)
