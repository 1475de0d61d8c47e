"""The console script ends without the interpreter's teardown (``tessera.console``), and
loses nothing by it: the output, the exit status, the exit handlers. With the patches off
(``TESSERA_NUMBA_PATCHES=0``) it exits the ordinary way, teardown and all, and answers
alike; on a system the kernels do not run on it prints one line."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.cli_process import tessera
from tests.limits import COLD_START_SECONDS

# `run()` in a child process after an exit handler and a thread of its own: both are
# what a library the command uses may leave behind.
WITH_LEFTOVERS = textwrap.dedent("""
    import atexit, sys, threading, time
    from tessera.console import run
    atexit.register(lambda: print("exit handler ran", file=sys.stderr, flush=True))

    def late_write():
        time.sleep(0.3)
        print("thread finished", file=sys.stderr, flush=True)

    threading.Thread(target=late_write).start()
    sys.argv = ["tessera", *sys.argv[1:]]
    run()
""")


# `run()` in a child process beside an object that says so when the interpreter's teardown
# frees it.
WITH_TEARDOWN_WITNESS = textwrap.dedent("""
    import os, sys
    from tessera.console import run

    class Witness:
        def __del__(self, write=os.write):
            write(2, b"teardown ran\\n")

    witness = Witness()
    sys.argv = ["tessera", *sys.argv[1:]]
    run()
""")

# Both exits: the patched one (1) and the ordinary one (0). Without the patches a command
# compiles its kernels (the shipped ones load through the patches): the quick tier leaves 0 out.
WITHOUT_PATCHES = pytest.mark.long
SWITCHES = pytest.mark.parametrize("switch", ["1", pytest.param("0", marks=WITHOUT_PATCHES)])


def run_with(code, *args, switch):
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=COLD_START_SECONDS,
        env=dict(os.environ, TESSERA_NUMBA_PATCHES=switch),
    )


def run_with_leftovers(*args, switch):
    return run_with(WITH_LEFTOVERS, *args, switch=switch)


@pytest.mark.long  # a chain of tessera processes
def test_a_long_output_reaches_a_file_whole(tmp_path):
    position = tmp_path / "azul.txt"
    position.write_text(tessera("new", "azul", "--seed", "1").stdout)
    out = tmp_path / "moves.json"
    with open(out, "w") as sink:
        result = subprocess.run(
            [sys.executable, "-m", "tessera", "moves", str(position), "--json"],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            timeout=COLD_START_SECONDS,
        )
    assert result.returncode == 0, result.stderr
    listed = tessera("moves", position).stdout.splitlines()
    assert listed[0] == f"player 1 to move: {len(listed) - 1} moves"
    assert json.loads(out.read_text())["moves"] == listed[1:]


@SWITCHES
def test_exit_handlers_and_threads_finish_before_the_process_ends(switch):
    result = run_with_leftovers("new", "azul", "--seed", "1", switch=switch)
    assert result.returncode == 0
    assert result.stdout.startswith("azul")
    assert result.stderr.splitlines() == ["thread finished", "exit handler ran"]


@SWITCHES
def test_a_user_error_keeps_its_status_and_its_one_line(switch):
    result = run_with_leftovers("moves", "azul 9p", switch=switch)
    assert result.returncode == 2
    errors, others = [], []
    for line in result.stderr.splitlines():
        (errors if line.startswith("error: ") else others).append(line)
    assert len(errors) == 1 and "9p" in errors[0]
    assert others == ["thread finished", "exit handler ran"]


def test_help_exits_with_success():
    result = tessera("--help")
    assert result.returncode == 0 and "selfplay" in result.stdout


@pytest.mark.parametrize("switch, teardown", [("1", False), pytest.param("0", True, marks=WITHOUT_PATCHES)])
def test_the_teardown_is_skipped_only_with_the_patches_on(switch, teardown):
    result = run_with(WITH_TEARDOWN_WITNESS, "new", "azul", "--seed", "1", switch=switch)
    assert result.returncode == 0 and result.stdout.startswith("azul")
    assert result.stderr == ("teardown ran\n" if teardown else "")


def test_on_windows_the_command_refuses_in_one_line():
    # The system as the kernels' import sees it (click, imported first, keeps the real one).
    code = (
        "import sys, click; sys.platform = 'win32'; sys.argv = ['tessera', 'new', 'azul']; "
        "from tessera.console import run; run()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=COLD_START_SECONDS)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: Tessera runs on Linux and macOS; Windows is not supported (its search clock "
        "calls clock_gettime, which Windows' C library lacks)"
    ]
