"""The kernels shipped compiled (tessera.kernels.prebuilt): built from these sources, loaded
only where they compute what a compile would, unpacked once, and a first search on them
compiling nothing."""

import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile

import pytest

from tessera.kernels import prebuilt
from tests.limits import CHILD_SECONDS, COLD_START_SECONDS

CPU = prebuilt.BUILD_CPU.get(platform.machine())
ARCHIVE, MANIFEST = prebuilt.archive_paths(CPU) if CPU else (None, None)
BUILT_HERE = ARCHIVE is not None and ARCHIVE.is_dir() and MANIFEST.is_file()
needs_build = pytest.mark.skipif(not BUILT_HERE, reason=f"no prebuilt kernels for {sys.platform} {platform.machine()}")


def manifest():
    return json.loads(MANIFEST.read_text())


def refusal(changed=None, environ=None, host_features=None):
    shipped = {**manifest(), **(changed or {})}
    return prebuilt.refusal(
        shipped,
        digest=prebuilt.source_digest(),
        versions=prebuilt._versions(),
        host_features=prebuilt._host_features() if host_features is None else host_features,
        environ={} if environ is None else environ,
    )


@pytest.mark.skipif(
    sys.platform != "linux" or platform.machine() != "x86_64",
    reason="the repository ships a build for Linux on x86-64 only",
)
def test_the_repository_ships_a_build_for_linux_x86_64():
    assert BUILT_HERE
    assert manifest()["entries"] > 100


@needs_build
def test_the_shipped_kernels_were_built_from_these_sources_with_these_versions():
    shipped = manifest()
    assert shipped["source_digest"] == prebuilt.source_digest(), (
        "the kernels' sources changed since the prebuilt kernels were built: "
        "run `python -m tessera.kernels.prebuilt` and commit kernels/prebuilt/"
    )
    assert shipped["versions"] == prebuilt._versions(), (
        "numba, llvmlite or Python is not what the prebuilt kernels were built with: rebuild them "
        "(`python -m tessera.kernels.prebuilt`) or install the versions in the manifest"
    )


@needs_build
def test_this_machine_may_load_them():
    assert refusal() is None
    assert prebuilt.usable_build() is not None or not prebuilt.switched_on()


@needs_build
@pytest.mark.parametrize(
    "changed, environ, reason",
    [
        (None, {"TESSERA_PREBUILT": "0"}, "TESSERA_PREBUILT=0"),
        (None, {"TESSERA_AZURE_COSMOS": "/boards/cosmos.json"}, "$TESSERA_AZURE_COSMOS names a board file"),
        ({"platform": ["darwin", "arm64"]}, None, "built for ['darwin', 'arm64']"),
        ({"versions": {**prebuilt._versions(), "numba": "0.67.0"}}, None, "built with numba 0.67.0"),
        ({"source_digest": "0" * 64}, None, "built from other kernel sources"),
        ({"cpu": "a CPU no build knows"}, None, "which this CPU is not"),
    ],
)
def test_a_build_that_would_not_compute_what_a_compile_does_is_refused(changed, environ, reason):
    assert reason in refusal(changed, environ)


@needs_build
def test_a_cpu_without_a_feature_of_the_build_is_refused():
    features = prebuilt._host_features() - {"avx2"}
    assert refusal(host_features=features).endswith("(it lacks avx2)")


def best(cache):
    """A seeded one-thread search in a fresh process with numba's cache in ``cache``: its
    moves with their visits, and the seconds it compiled."""
    position = subprocess.run(
        [sys.executable, "-m", "tessera", "new", "azul", "--seed", "3"],
        capture_output=True,
        text=True,
        check=True,
        timeout=CHILD_SECONDS,
    ).stdout
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tessera",
            "best",
            "-",
            "--iterations",
            "3000",
            "--threads",
            "1",
            "--seed",
            "5",
            "--json",
        ],
        input=position,
        capture_output=True,
        text=True,
        timeout=COLD_START_SECONDS,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(cache), TESSERA_COMPILE_HELPER="0"),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    return [(move["move"], move["visits"]) for move in report["moves"]], report["root"]["compile_seconds"]


@needs_build
@pytest.mark.cold
def test_a_search_on_an_empty_cache_compiles_nothing_and_unpacks_only_its_parts(tmp_path):
    """That it answers as compiled kernels do is tests/test_patches.py's check: its search with
    the patches loads these, the one without them compiles."""
    moves, compile_seconds = best(tmp_path)
    assert moves and compile_seconds == 0
    compiled_entries = [path for path in tmp_path.rglob("*.nbc") if "tessera-prebuilt" not in path.parts]
    assert compiled_entries == []  # nothing compiled, so nothing cached
    [folder] = (tmp_path / "tessera-prebuilt").iterdir()
    # An Azul search with its default rollout: the game's rules and MCTS, and the shared kernels.
    assert sorted(path.name for path in folder.iterdir()) == ["azul-mcts", "azul-rules", "common"]


def entries_of(part):
    """The names of the entries in ``part``'s archive of the shipped build."""
    with tarfile.open(ARCHIVE / f"{part}.tar.xz") as members:
        return [member.name for member in members if member.isfile()]


def index_of(kernel, part):
    [index] = [name for name in entries_of(part) if name.startswith(f"{kernel}-") and name.endswith(".nbi")]
    return index


def test_entries_are_parted_by_game_and_kind():
    assert prebuilt.part_of("azul/apply.apply_move-12.py311.nbi") == "azul-rules"
    assert prebuilt.part_of("search/mcts.pavilion.mixed.run_tree-721.py311.1.nbc") == "pavilion-mcts"
    assert prebuilt.part_of("search/alphabeta.azure._game_mode-164.py311.nbi") == "azure-alphabeta"
    assert prebuilt.part_of("_/perft.azul._perft-3.py311.nbi") == "azul-tools"
    assert prebuilt.part_of("_/vecenv.azure.deal-9.py311.nbi") == "azure-tools"
    assert prebuilt.part_of("_/rng.make_rng-5.py311.nbi") == "common"
    assert prebuilt.part_of("search/tree.make_room-27.py311.nbi") == "common"


@needs_build
def test_every_shipped_entry_is_in_its_own_part():
    parts = manifest()["parts"]
    assert sorted(path.name.removesuffix(".tar.xz") for path in ARCHIVE.iterdir()) == sorted(parts)
    for part, count in parts.items():
        names = entries_of(part)
        assert len(names) == count and {prebuilt.part_of(name) for name in names} == {part}


@needs_build
def test_a_part_is_unpacked_once_whole_when_first_read_and_in_memory_where_it_cannot_be(tmp_path):
    digest = prebuilt.source_digest()
    read = prebuilt.unpacked(ARCHIVE, digest, tmp_path)
    assert list(tmp_path.iterdir()) == []  # nothing unpacked before a read
    index = index_of("azul/apply.apply_move", "azul-rules")
    data = read(index)
    [folder] = tmp_path.iterdir()
    assert folder.name == f"{prebuilt.platform_tag(CPU)}-{digest[:16]}"
    assert [path.name for path in folder.iterdir()] == ["azul-rules"]  # that part alone, no partial folder
    assert data and data == (folder / "azul-rules" / index).read_bytes()
    assert read("azul/no such kernel.nbi") is None and read("search/no such kernel.nbi") is None
    stamp = (folder / "azul-rules").stat().st_mtime_ns
    assert prebuilt.unpacked(ARCHIVE, digest, tmp_path)(index) == data  # a later process reads the same folder
    assert (folder / "azul-rules").stat().st_mtime_ns == stamp
    blocked = tmp_path / "a file"
    blocked.write_text("")  # a root that cannot be made
    assert prebuilt.unpacked(ARCHIVE, digest, blocked / "prebuilt")(index) == data


@needs_build
@pytest.mark.skipif(not prebuilt.switched_on(), reason=f"{prebuilt.SWITCH}=0: no build is opened")
def test_a_damaged_part_or_manifest_is_passed_over_and_leaves_nothing_behind(tmp_path):
    archives = tmp_path / ARCHIVE.name
    shutil.copytree(ARCHIVE, archives)
    damaged = archives / "azul-rules.tar.xz"
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
    index = index_of("azul/apply.apply_move", "azul-rules")
    root = tmp_path / "unpacked"
    build = prebuilt.open_build(archives, MANIFEST, root)
    assert build.read(index) is None  # its kernels compile
    assert build.read(index_of("_/rng.make_rng", "common"))  # the other parts load
    [folder] = root.iterdir()
    assert [path.name for path in folder.iterdir()] == ["common"]  # no half-unpacked part
    broken_manifest = tmp_path / MANIFEST.name
    broken_manifest.write_text("{")
    assert prebuilt.open_build(ARCHIVE, broken_manifest, root) is None
    assert prebuilt.open_build(ARCHIVE, MANIFEST, root).read(index) is not None
