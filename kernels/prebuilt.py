"""Kernels compiled ahead of time and shipped inside the package.

numba compiles a kernel on its first use and caches it (``cache=True``), so a first
search on a new machine compiled for many seconds before it searched. The package ships
numba's cache entries for every kernel ``tessera warmup`` compiles, and for those the test
suite compiles beyond them (``TEST_RUN``), built for a portable CPU, as a folder of
archives per platform, Python and CPU (``prebuilt/<tag>/``, ``TAG``) with a manifest
saying what they were built from (``prebuilt/<tag>.json``). A cache
miss (``tessera.kernels.cache_load``) looks there before it compiles, so a first command
loads its kernels as a warm one does.

The entries are split into parts (``part_of``): a game's rules, each of its searches, its
tools (perft, playouts, self-play, the batched environment), and what every game shares.
The entries of a part share most of their code (each carries the kernels it calls), so
each part is packed as a whole (``<part>.tar.xz``), a fraction of its entries' size. A
process unpacks a part the first time it reads an entry of it, so a first search unpacks
only its game's rules and search. It unpacks into a folder beside numba's cache
(``$NUMBA_CACHE_DIR/tessera-prebuilt/``, else ``~/.cache/tessera/prebuilt/``), named by
the digest of the sources, and every later process reads the entries from there; where
that folder cannot be written, the process unpacks the part in memory.

The entries are used only where they compute exactly what a compile would, which the
manifest lets a process check before its first load:

- the kernels' sources and board data are those they were built from (``source_digest``:
  every file below ``tessera.kernels`` but this one and the entries themselves);
- Python, numba and llvmlite are the versions they were built with, on the same
  operating system and machine;
- the CPU has every feature the build's CPU model has (``x86-64-v3``: AVX2, BMI2, FMA,
  the features current x86-64 machines share);
- no board file of the user's own is named (``$TESSERA_AZURE_DOMAINS``,
  ``$TESSERA_AZURE_COSMOS``);
- ``TESSERA_PREBUILT=0`` is not set (tests of compiling set it).

Otherwise, or for a kernel or a signature the build did not compile, numba compiles as
before. The prebuilt kernels change how long a first command takes, never its answer
(``tests/test_prebuilt.py``). They load through the patched cache load, so
``TESSERA_NUMBA_PATCHES=0`` turns them off with the other patches.

After editing a kernel, rebuild them from a clone (about eight minutes on two cores, most of
it the tests)::

    python -m tessera.kernels.prebuilt

A test fails while the shipped entries were built from other sources.
"""

import functools
import hashlib
import inspect
import io
import json
import lzma
import os
import pickle
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
from pathlib import Path

from tessera.kernels.constants import GAME_NAMES

SWITCH = "TESSERA_PREBUILT"
# Board files of the user's own, named by these, are compiled into the kernels.
BOARD_OVERRIDES = ("TESSERA_AZURE_DOMAINS", "TESSERA_AZURE_COSMOS")

KERNELS = Path(__file__).resolve().parent
FOLDER = KERNELS / "prebuilt"
# The folder of the kernels directly in ``tessera.kernels`` (the others are named after their
# subpackage: ``search``, ``azul``, ...).
ROOT_FOLDER = "_"

# The CPU models a build may target, with the host features each needs (LLVM's names).
# x86-64-v3 is the psABI's level 3 (AVX2, BMI, LZCNT, POPCNT): what current x86-64 CPUs
# share, and what the kernels use of any newer one (their work is integer bit-twiddling).
CPU_MODELS = {
    "x86-64-v3": (
        "cmov",
        "cx8",
        "fxsr",
        "mmx",
        "sse",
        "sse2",
        "cx16",
        "sahf",
        "popcnt",
        "sse3",
        "sse4.1",
        "sse4.2",
        "ssse3",
        "avx",
        "avx2",
        "bmi",
        "bmi2",
        "f16c",
        "fma",
        "lzcnt",
        "movbe",
        "xsave",
    ),
}
BUILD_CPU = {"x86_64": "x86-64-v3"}
# Games of the kernels that no command plays (``tessera warmup`` knows only the others).
TEST_GAMES = ("toy",)
# The kinds of kernel bound to a game outside its own folder that share a part: its tools.
TOOL_KINDS = ("perft", "playout", "selfplay", "vecenv")
COMMON_PART = "common"


def switched_on(environ=os.environ):
    return environ.get(SWITCH, "").strip() != "0"


def platform_tag(cpu):
    """The folder name of a build for ``cpu`` on this platform and Python:
    ``linux-x86_64-py311-x86-64-v3``."""
    return f"{sys.platform}-{platform.machine()}-py{sys.version_info[0]}{sys.version_info[1]}-{cpu}"


def source_digest(root=KERNELS):
    """A digest of what the compiled kernels are made from: every source and data file
    below ``root`` (the package ``tessera.kernels``) but this module and the prebuilt
    entries, by relative path and content."""
    digest = hashlib.sha256()
    for path in sorted(_source_files(root)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _source_files(root):
    for folder, files in _kernel_folders(root):
        for name in files:
            path = folder / name
            if (name.endswith(".py") or folder.name == "data") and path != Path(__file__).resolve():
                yield path


def _kernel_folders(root=KERNELS):
    """``(folder, file names)`` of every folder of sources below ``root``: not the prebuilt
    entries, nor Python's bytecode."""
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in ("prebuilt", "__pycache__")]
        yield Path(folder), files


def _entry_folder_name(folder):
    """The folder of the entries of the kernels in the source folder ``folder`` (below
    ``KERNELS``): its relative path, ``ROOT_FOLDER`` for ``KERNELS`` itself."""
    relative = folder.relative_to(KERNELS)
    return relative.as_posix() if relative.parts else ROOT_FOLDER


def _versions():
    import llvmlite
    import numba

    return {"python": platform.python_version(), "numba": numba.__version__, "llvmlite": llvmlite.__version__}


def _host_features():
    from llvmlite import binding

    return {name for name, present in binding.get_host_cpu_features().items() if present}


def refusal(manifest, *, digest, versions, host_features, environ=os.environ):
    """Why the build ``manifest`` describes may not be loaded here (a sentence), or None
    when it may."""
    if not switched_on(environ):
        return f"{SWITCH}=0"
    named = [name for name in BOARD_OVERRIDES if environ.get(name)]
    if named:
        return f"${named[0]} names a board file of the user's own, compiled into the kernels"
    if manifest.get("platform") != [sys.platform, platform.machine()]:
        return f"built for {manifest.get('platform')}, not {[sys.platform, platform.machine()]}"
    for program, version in versions.items():
        if manifest.get("versions", {}).get(program) != version:
            return f"built with {program} {manifest.get('versions', {}).get(program)}, not {version}"
    missing = sorted(set(CPU_MODELS.get(manifest.get("cpu"), ("an unknown CPU model",))) - set(host_features))
    if missing:
        return f"built for {manifest.get('cpu')}, which this CPU is not (it lacks {', '.join(missing)})"
    if manifest.get("source_digest") != digest:
        return "built from other kernel sources (python -m tessera.kernels.prebuilt rebuilds them)"
    return None


# What reading a damaged entry raises.
DAMAGED = (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError)


class Build:
    """Prebuilt entries that may be loaded here: numba's index and data files, by the folder
    of the kernel's source, read through ``read(relative path)`` (bytes, or None)."""

    def __init__(self, read, manifest):
        self.read = read
        self.magic = tuple(manifest["magic"])
        self._indexes = {}

    @staticmethod
    def entry_folder(source_file):
        """The folder of the entries of kernels defined in ``source_file``, or None for a
        file outside ``tessera.kernels``."""
        try:
            return _entry_folder_name(Path(source_file).resolve().parent)
        except ValueError:
            return None

    def index(self, path):
        """``{(signature, code hashes): data file name}`` of one numba index file ({} if none)."""
        if path not in self._indexes:
            self._indexes[path] = self._read_index(path)
        return self._indexes[path]

    def _read_index(self, path):
        data = self.read(path)
        if data is None:
            return {}
        stream = io.BytesIO(data)
        try:
            pickle.load(stream)  # numba's version: the manifest's
            _, overloads = pickle.loads(stream.read())
        except DAMAGED:
            return {}
        return {
            (signature, hashes): name
            for (signature, magic, hashes), name in overloads.items()
            if tuple(magic) == self.magic
        }

    def load(self, cache, sig, target_context):
        """The compile result of ``cache``'s function for ``sig``, rebuilt from a prebuilt
        entry, or None."""
        folder = self.entry_folder(inspect.getfile(cache._py_func))
        if folder is None:
            return None
        signature, _, hashes = cache._index_key(sig, target_context.codegen())
        name = self.index(f"{folder}/{cache._impl.filename_base}.nbi").get((signature, hashes))
        data = None if name is None else self.read(f"{folder}/{name}")
        if data is None:
            return None
        try:
            payload = pickle.loads(data)
        except DAMAGED:
            return None  # a damaged entry: numba compiles the kernel
        return cache._impl.rebuild(target_context, payload)


def archive_paths(cpu):
    """The folder of a build's part archives for ``cpu`` on this platform, and its manifest."""
    tag = platform_tag(cpu)
    return FOLDER / tag, FOLDER / f"{tag}.json"


def part_of(path):
    """The part holding the entry at ``path`` (``<entry folder>/<file>``): ``<game>-rules``
    for the kernels of a game's own folder, ``<game>-<kind>`` for those bound to a game
    elsewhere (``mcts``, ``alphabeta``, ``ismcts``, ``tools``), ``common`` for the rest."""
    folder, _, name = path.partition("/")
    games = set(GAME_NAMES.values())
    if folder in games:
        return f"{folder}-rules"
    words = name.split("-", 1)[0].split(".")
    game = next((word for word in words if word in games), None)
    if game is None:
        return COMMON_PART
    return f"{game}-{'tools' if words[0] in TOOL_KINDS else words[0]}"


def unpacked_root(environ=os.environ):
    """Where archives are unpacked: beside numba's cache when ``NUMBA_CACHE_DIR`` names it,
    else in the user's cache folder."""
    if environ.get("NUMBA_CACHE_DIR"):
        return Path(environ["NUMBA_CACHE_DIR"]) / "tessera-prebuilt"
    return Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tessera" / "prebuilt"


class Unpacked:
    """A reader of the entries of the part archives in ``archives``: ``read(relative path)``
    gives an entry's bytes, or None. Each part is unpacked the first time one of its entries
    is read, into ``<folder>/<part>/`` unless a process did so before (then read from there),
    or into memory where ``folder`` cannot be written. A part whose archive is missing or
    damaged reads as empty: its kernels compile."""

    def __init__(self, archives, folder):
        self.archives = archives
        self.folder = folder
        self.parts = {}  # part -> read(path), or None
        self.lock = threading.Lock()  # one thread unpacks a part; the others wait for it

    def __call__(self, path):
        part = part_of(path)
        with self.lock:
            if part not in self.parts:
                self.parts[part] = self._open(archive=self.archives / f"{part}.tar.xz", target=self.folder / part)
        read = self.parts[part]
        return None if read is None else read(path)

    def _open(self, archive, target):
        if not archive.is_file():
            return None
        try:
            if not target.is_dir():
                try:
                    _unpack(archive, target)
                except OSError:
                    return _in_memory(archive)
        except (OSError, EOFError, tarfile.TarError, lzma.LZMAError):
            return None
        return lambda path: _read_file(target / path)


def unpacked(archives, digest, root):
    """The reader (``Unpacked``) of the part archives in ``archives``, unpacked into
    ``root/<tag>-<digest>/``."""
    return Unpacked(archives, root / f"{archives.name}-{digest[:16]}")


def _unpack(archive, target):
    """Unpack ``archive`` into the folder ``target``, whole or not at all: into a folder of
    its own first, renamed into place (two processes at once: the first rename wins)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=target.parent))
    try:
        with tarfile.open(archive, "r:xz") as members:
            members.extractall(partial, **_data_only())
        try:
            partial.rename(target)
        except OSError:
            if not target.is_dir():  # not another process's win
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _in_memory(archive):
    with tarfile.open(archive, "r:xz") as members:
        files = {member.name: members.extractfile(member).read() for member in members if member.isfile()}
    return files.get


def _read_file(path):
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _data_only():
    """tarfile's safe extraction filter, where this Python has it."""
    return {"filter": "data"} if hasattr(tarfile, "data_filter") else {}


# Held while the first thread to ask decides ``usable_build``: the others wait for its answer.
_opening = threading.Lock()


def usable_build():
    """This process's prebuilt ``Build``, or None when none may be loaded (decided once, by
    the first thread that asks)."""
    with _opening:
        return _usable_build()


@functools.cache
def _usable_build():
    cpu = BUILD_CPU.get(platform.machine())
    if not switched_on() or cpu is None:
        return None
    return open_build(*archive_paths(cpu), unpacked_root())


def open_build(archives, manifest_path, root):
    """The ``Build`` of the part archives in the folder ``archives`` and its manifest,
    unpacked below ``root`` as they are read, or None where it may not be loaded here or
    its manifest cannot be read (then everything compiles)."""
    try:
        manifest = json.loads(manifest_path.read_text())
        digest = source_digest()
        if not archives.is_dir() or refusal(
            manifest, digest=digest, versions=_versions(), host_features=_host_features()
        ):
            return None
        return Build(unpacked(archives, digest, root), manifest)
    except (OSError, ValueError):
        return None


def load(cache, sig, target_context):
    """``cache``'s function compiled for ``sig`` from the prebuilt entries, or None (then
    numba compiles)."""
    build = usable_build()
    return None if build is None else build.load(cache, sig, target_context)


# ---- building ------------------------------------------------------------------------------


def build(games=(), out=FOLDER, progress=print, tests=True):
    """Compile every kernel ``tessera warmup`` compiles for ``games`` (all when empty) for the
    portable CPU model of this machine into a fresh numba cache, and with ``tests`` (in a
    clone) every kernel the test suite compiles into a shared cache (``TEST_RUN``); pack
    the entries into ``out/<tag>/<part>.tar.xz`` with a manifest ``out/<tag>.json``; the
    archives' folder."""
    cpu = BUILD_CPU.get(platform.machine())
    if cpu is None:
        raise SystemExit(f"no portable CPU model is known for {platform.machine()}")
    missing = sorted(set(CPU_MODELS[cpu]) - _host_features())
    if missing:
        raise SystemExit(f"this CPU cannot run {cpu} code (it lacks {', '.join(missing)})")
    tag = platform_tag(cpu)
    with tempfile.TemporaryDirectory(prefix="tessera-prebuilt-") as workdir:
        cache, entries = Path(workdir) / "cache", Path(workdir) / "entries"
        environ = dict(
            os.environ, NUMBA_CACHE_DIR=str(cache), NUMBA_CPU_NAME=cpu, NUMBA_CPU_FEATURES="", **{SWITCH: "0"}
        )
        for name in BOARD_OVERRIDES:
            environ.pop(name, None)
        _warm_up(games, environ, progress)
        if tests:
            _run_tests(environ, progress)
        magic = _magic(environ)
        count = _copy_entries(cache, entries)
        Path(out).mkdir(parents=True, exist_ok=True)
        parts = _pack(entries, Path(out) / tag)
    manifest = {
        "what": "numba cache entries of tessera.kernels, compiled ahead of time (tessera/kernels/prebuilt.py)",
        "command": "python -m tessera.kernels.prebuilt"
        + ("" if tests else " --no-tests")
        + "".join(f" {game}" for game in games),
        "platform": [sys.platform, platform.machine()],
        "cpu": cpu,
        "magic": magic,
        "versions": _versions(),
        "source_digest": source_digest(),
        "entries": count,
        "parts": parts,
    }
    (Path(out) / f"{tag}.json").write_text(json.dumps(manifest, indent=2) + "\n")
    progress(f"{count} entries in {len(parts)} parts in {Path(out) / tag}")
    return Path(out) / tag


def _warm_up(games, environ, progress):
    """``tessera warmup`` into the cache ``environ`` names: the games split between two
    processes where there are two cores, then once more in one, which loads what they
    compiled and compiles whatever a race between their index files lost."""
    names = list(games) or sorted(name for name in GAME_NAMES.values() if name not in TEST_GAMES)
    groups = [names[0::2], names[1::2]] if (os.cpu_count() or 1) > 1 and len(names) > 1 else [names]
    progress(f"compiling {', '.join(names)} for {environ['NUMBA_CPU_NAME']} in {len(groups)} process(es)")
    warming = [subprocess.Popen([sys.executable, "-m", "tessera", "warmup", *group], env=environ) for group in groups]
    if any(process.wait() != 0 for process in warming):
        raise SystemExit("tessera warmup failed")
    if len(groups) > 1:
        subprocess.run([sys.executable, "-m", "tessera", "warmup", *names], env=environ, check=True)


# The tests whose kernels the build compiles too: those sharing the run's numba cache (not
# the cold ones, which compile in caches of their own on purpose). Beyond ``tessera warmup``
# they compile the toy game's searches, searches no command runs by default and kernels
# they call directly; shipped, a test run compiles only what its cold tests compile.
TEST_RUN = (
    "-m",
    "pytest",
    "-q",
    "-p",
    "no:cacheprovider",
    "-m",
    "not slow and not cold and not browser and not packaging",
)


def _run_tests(environ, progress):
    """The test suite's tests of ``TEST_RUN`` in the cache ``environ`` names: what they compile
    stays there (their failures are reported, and the build goes on)."""
    repository = KERNELS.parent
    if not (repository / "tests" / "conftest.py").is_file():
        raise SystemExit("the test suite is not beside the kernels (a clone's tests/): build with --no-tests")
    progress("compiling what the tests compile: " + " ".join(TEST_RUN[1:]))
    done = subprocess.run([sys.executable, *TEST_RUN], cwd=repository, env=environ)
    if done.returncode != 0:
        progress(f"the tests ended with status {done.returncode}: their kernels are packed all the same")


def _magic(environ):
    """numba's description of the code a process with ``environ`` compiles (its index key's
    ``codegen.magic_tuple()``)."""
    code = (
        "import json; from numba.core.registry import cpu_target; "
        "print(json.dumps(cpu_target.target_context.codegen().magic_tuple()))"
    )
    answer = subprocess.run([sys.executable, "-c", code], env=environ, check=True, capture_output=True, text=True)
    return json.loads(answer.stdout)


def _copy_entries(cache, target):
    """Copy the entries of the kernels below ``KERNELS`` from the numba cache folder ``cache``
    into ``target``, a folder per source folder; how many data files were copied."""
    from numba.core.caching import UserProvidedCacheLocator

    folders = {
        UserProvidedCacheLocator.get_suitable_cache_subpath(str(folder / "any.py")): _entry_folder_name(folder)
        for folder, _ in _kernel_folders()
    }
    count = 0
    for entry in sorted(cache.iterdir()):
        if entry.name not in folders:
            continue  # kernels outside tessera.kernels
        destination = target / folders[entry.name]
        destination.mkdir(parents=True, exist_ok=True)
        for file in sorted(entry.iterdir()):
            if file.suffix in (".nbi", ".nbc"):
                shutil.copyfile(file, destination / file.name)
                count += file.suffix == ".nbc"
    return count


def _pack(entries, folder):
    """``entries`` (a folder of entry folders) as xz-packed tars in ``folder``, one a part
    (``part_of``), its members in order and stamped alike, so that the same entries make the
    same archives (those of an earlier build go first); ``{part: files}``."""

    def plain(member):
        member.mtime, member.uid, member.gid, member.uname, member.gname = 0, 0, 0, "", ""
        return member

    parts = {}
    for path in sorted(entries.rglob("*")):
        if path.is_file():
            name = path.relative_to(entries).as_posix()
            parts.setdefault(part_of(name), []).append((path, name))
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for part, files in sorted(parts.items()):
        with tarfile.open(folder / f"{part}.tar.xz", "w:xz", preset=6) as packed:
            for path, name in files:
                packed.add(path, arcname=name, filter=plain)
    return {part: len(files) for part, files in sorted(parts.items())}


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m tessera.kernels.prebuilt",
        description=(
            "Compile the kernels for a portable CPU and ship them in the package (tessera/kernels/prebuilt/)."
        ),
    )
    parser.add_argument("games", nargs="*", help="the games to build (default: all)")
    parser.add_argument("--out", default=str(FOLDER), help="the folder to write into [default: the package's]")
    parser.add_argument(
        "--no-tests", dest="tests", action="store_false", help="leave out what only the test suite compiles"
    )
    arguments = parser.parse_args(argv)
    build(arguments.games, Path(arguments.out), tests=arguments.tests)


if __name__ == "__main__":
    main()
