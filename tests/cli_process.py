"""The real `tessera` command in a child process, as a user runs it."""

import os
import subprocess
import sys

from tests.limits import COLD_START_SECONDS


def tessera(*args, stdin="", **env):
    """The finished process of `tessera ARGS` (``python -m tessera``) with ``stdin`` as
    its input and ``env`` added to the environment."""
    return subprocess.run(
        [sys.executable, "-m", "tessera", *map(str, args)],
        input=stdin,
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=COLD_START_SECONDS,
    )
