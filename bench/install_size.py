"""Install size: what `pip install` of the project puts in a fresh virtual environment.

    python bench/install_size.py [--extras all] [--before TREE] [--wheel] [--no-cache]
                                 [--out results/install.json]

Each row creates a virtual environment in a temporary folder (``python -m venv``, with the
Python running this script), times the install of the project into it, and measures
the disk space (blocks allocated, as ``du`` counts them, a file linked twice once) of the
whole environment, of its ``site-packages``, and of what the install added to the fresh
environment (``install_mb``: the whole less the environment before, which holds only
pip and, on older Pythons, setuptools), and which distributions it added. The first row
is the core install, editable from the repository's root as README's set-up command does
it (``pip install -e .``); each ``--extras`` adds a row with that extra (``pip install -e
".[all]"``). ``--before TREE`` measures the core install of another source tree too (an
earlier version, e.g. ``git archive`` output). ``--wheel`` installs a wheel built from
the checkout instead (what a user of the index gets: the package itself is then in
site-packages too). The install time includes any downloads: pip's cache is used as it
is (``--no-cache`` installs without it, as a first install on a new machine does).
"""

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MB = 1e6
TARGET_CORE_MB = 320  # what the core install adds to a fresh environment, at most


def disk_bytes(folder):
    """Bytes of disk that the files under ``folder`` take, as ``du`` counts them (blocks
    allocated; a file with several links once)."""
    seen, total = set(), 0
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            info = os.lstat(os.path.join(root, name))
            if (info.st_dev, info.st_ino) in seen:
                continue
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


def distributions(site_packages):
    """The names of the distributions installed in ``site_packages``."""
    return {path.name.split("-")[0].lower().replace("_", "-") for path in Path(site_packages).glob("*.dist-info")}


def build_wheel(tree, folder):
    """A wheel of the source tree ``tree``, built into ``folder``: its path."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(folder), str(tree)], check=True
    )
    (wheel,) = Path(folder).glob("tessera_games-*.whl")
    return wheel


def measure(target, extras, no_cache, shown):
    """One row: a fresh environment, ``target`` (a source tree, editable, or a wheel)
    installed into it with ``extras``; the pip command (``target`` written as ``shown``),
    its seconds and the sizes."""
    with tempfile.TemporaryDirectory() as folder:
        env_dir = Path(folder) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
        python = env_dir / "bin" / "python"
        site = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        before = distributions(site)
        empty_mb = disk_bytes(env_dir) / MB
        pip_version = subprocess.run(
            [str(python), "-m", "pip", "--version"], check=True, capture_output=True, text=True
        ).stdout.split()[1]
        args = [
            "install",
            "--quiet",
            *(["--no-cache-dir"] if no_cache else []),
            *(["-e"] if Path(target).is_dir() else []),
        ]
        extra = f"[{extras}]" if extras else ""
        start = time.perf_counter()
        subprocess.run([str(python), "-m", "pip", *args, f"{target}{extra}"], check=True)
        seconds = time.perf_counter() - start
        added = sorted(distributions(site) - before)
        venv_mb = disk_bytes(env_dir) / MB
        return {
            "pip": shlex.join(["pip", *args, f"{shown}{extra}"]),
            "pip_version": pip_version,
            "install_s": round(seconds, 1),
            "install_mb": round(venv_mb - empty_mb, 1),
            "venv_mb": round(venv_mb, 1),
            "site_packages_mb": round(disk_bytes(site) / MB, 1),
            "empty_venv_mb": round(empty_mb, 1),
            "distributions_added": len(added),
            "added": added,
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--extras",
        action="append",
        default=[],
        metavar="EXTRA",
        help="also measure the install with this extra (repeatable), e.g. all",
    )
    parser.add_argument(
        "--before", metavar="TREE", help="also measure the core install of this source tree (an earlier version)"
    )
    parser.add_argument(
        "--wheel", action="store_true", help="install a wheel built from the checkout, not the repository editable"
    )
    parser.add_argument("--no-cache", action="store_true", help="install without pip's cache")
    parser.add_argument("--out", default=None, help="write the report as JSON to this file")
    args = parser.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as wheels:
        plans = [(extras or "core", REPO, extras) for extras in [None, *args.extras]]
        if args.before:
            plans.append(("before_core", Path(args.before).resolve(), None))
        for name, tree, extras in plans:
            print(f"{name}: installing", file=sys.stderr)
            target = build_wheel(tree, Path(wheels) / name) if args.wheel else tree
            shown = target.name if args.wheel else ("." if tree == REPO else "TREE")
            rows[name] = row = measure(target, extras, args.no_cache, shown)
            print(
                f"{name:12} {row['install_mb']:7.1f} MB installed  {row['venv_mb']:7.1f} MB venv  "
                f"{row['distributions_added']:3d} distributions  {row['install_s']:6.1f} s  "
                f"({row['pip']})"
            )
    rows["core"]["target_install_mb"] = TARGET_CORE_MB
    report = {
        "command": "python bench/install_size.py " + shlex.join(sys.argv[1:]),
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "cpu_count": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "installs": rows,
    }
    if args.before:
        report["before_tree"] = args.before
    if args.out:
        with open(args.out, "w") as file:
            json.dump(report, file, indent=2)
            file.write("\n")
    if rows["core"]["install_mb"] > TARGET_CORE_MB:
        print(
            f"the core install adds {rows['core']['install_mb']} MB, over its {TARGET_CORE_MB} MB target",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
