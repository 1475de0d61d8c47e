"""The kernels shipped compiled (tessera.kernels.prebuilt): built from these sources, loaded
only where they compute what a compile would, unpacked once, and a first search on them
compiling nothing."""

import json
import os
import platform
import subprocess
import sys

import pytest

from tessera.kernels import prebuilt
from tests.limits import CHILD_SECONDS, COLD_START_SECONDS

CPU = prebuilt.BUILD_CPU.get(platform.machine())
ARCHIVE, MANIFEST = prebuilt.archive_paths(CPU) if CPU else (None, None)
BUILT_HERE = ARCHIVE is not None and ARCHIVE.is_file() and MANIFEST.is_file()
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
def test_a_search_on_an_empty_cache_compiles_nothing_and_caches_only_the_unpacked_archive(tmp_path):
    """That it answers as compiled kernels do is tests/test_patches.py's check: its search with
    the patches loads these, the one without them compiles."""
    moves, compile_seconds = best(tmp_path)
    assert moves and compile_seconds == 0
    compiled_entries = [path for path in tmp_path.rglob("*.nbc") if "tessera-prebuilt" not in path.parts]
    assert compiled_entries == []  # nothing compiled, so nothing cached
    assert list((tmp_path / "tessera-prebuilt").rglob("*.nbc"))  # the archive, unpacked


@needs_build
def test_the_archive_is_unpacked_once_whole_and_read_from_memory_where_it_cannot_be(tmp_path):
    digest = prebuilt.source_digest()
    read = prebuilt.unpacked(ARCHIVE, digest, tmp_path)
    [folder] = tmp_path.iterdir()  # no partial folder left beside it
    assert folder.name == f"{prebuilt.platform_tag(CPU)}-{digest[:16]}"
    names = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.nbi"))
    assert names and read(names[0]) == (folder / names[0]).read_bytes()
    assert read("search/no such kernel.nbi") is None
    stamp = folder.stat().st_mtime_ns
    prebuilt.unpacked(ARCHIVE, digest, tmp_path)  # a later process reads the same folder
    assert folder.stat().st_mtime_ns == stamp and len(list(tmp_path.iterdir())) == 1
    blocked = tmp_path / "a file"
    blocked.write_text("")  # a root that cannot be made
    in_memory = prebuilt.unpacked(ARCHIVE, digest, blocked / "prebuilt")
    assert in_memory(names[0]) == read(names[0])


@needs_build
def test_a_damaged_archive_or_manifest_is_passed_over_and_leaves_nothing_behind(tmp_path):
    damaged = tmp_path / ARCHIVE.name
    damaged.write_bytes(ARCHIVE.read_bytes()[: ARCHIVE.stat().st_size // 2])
    root = tmp_path / "unpacked"
    assert prebuilt.open_build(damaged, MANIFEST, root) is None
    assert not root.exists() or list(root.iterdir()) == []  # no half-unpacked folder
    broken_manifest = tmp_path / MANIFEST.name
    broken_manifest.write_text("{")
    assert prebuilt.open_build(ARCHIVE, broken_manifest, root) is None
    assert prebuilt.open_build(ARCHIVE, MANIFEST, root) is not None
