"""The console script ends without the interpreter's teardown (``tessera.console``), and
loses nothing by it: the output, the exit status, the exit handlers."""
import json
import os
import subprocess
import sys
import textwrap

from tests.cli_process import tessera

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


def run_with_leftovers(*args):
    return subprocess.run([sys.executable, "-c", WITH_LEFTOVERS, *args], capture_output=True,
                          text=True, timeout=600, env=dict(os.environ))


def test_a_long_output_reaches_a_file_whole(tmp_path):
    position = tmp_path / "azul.txt"
    position.write_text(tessera("new", "azul", "--seed", "1").stdout)
    out = tmp_path / "moves.json"
    with open(out, "w") as sink:
        result = subprocess.run([sys.executable, "-m", "solver", "moves", str(position),
                                 "--json"], stdout=sink, stderr=subprocess.PIPE, text=True,
                                timeout=600)
    assert result.returncode == 0, result.stderr
    listed = tessera("moves", position).stdout.splitlines()
    assert listed[0] == f"player 1 to move: {len(listed) - 1} moves"
    assert json.loads(out.read_text())["moves"] == listed[1:]


def test_exit_handlers_and_threads_finish_before_the_process_ends():
    result = run_with_leftovers("new", "azul", "--seed", "1")
    assert result.returncode == 0
    assert result.stdout.startswith("azul")
    assert result.stderr.splitlines() == ["thread finished", "exit handler ran"]


def test_a_user_error_keeps_its_status_and_its_one_line():
    result = run_with_leftovers("moves", "azul 9p")
    assert result.returncode == 2
    errors, others = [], []
    for line in result.stderr.splitlines():
        (errors if line.startswith("error: ") else others).append(line)
    assert len(errors) == 1 and "9p" in errors[0]
    assert others == ["thread finished", "exit handler ran"]


def test_help_exits_with_success():
    result = tessera("--help")
    assert result.returncode == 0 and "selfplay" in result.stdout
