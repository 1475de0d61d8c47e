"""tessera.kernels.search.clock: the search's clock in nopython code is ``time.perf_counter``'s
clock, read through the C library, and it keeps real time; on Windows, which lacks that
call, importing the kernels refuses."""

import subprocess
import sys
import time

from tessera.kernels.search.clock import CLOCK_ID, CLOCK_NAMES, now
from tests.limits import COLD_START_SECONDS


def test_the_clock_id_names_the_clock_behind_perf_counter():
    assert CLOCK_ID == getattr(time, CLOCK_NAMES[sys.platform])
    # Python reads the same id's clock between two readings of perf_counter.
    for _ in range(10):
        before = time.perf_counter_ns()
        reading = time.clock_gettime_ns(CLOCK_ID)
        after = time.perf_counter_ns()
        assert before <= reading <= after


def test_a_kernel_reading_lies_between_two_readings_of_perf_counter():
    now()  # compiled or loaded before the readings
    tolerance = 1e-6  # float rounding of seconds since boot
    for _ in range(20):
        before = time.perf_counter()
        reading = now()
        after = time.perf_counter()
        assert before - tolerance <= reading <= after + tolerance


def test_the_kernel_clock_advances_with_real_time():
    start = now()
    time.sleep(0.05)
    assert 0.04 <= now() - start <= 0.5


def test_importing_the_kernels_on_windows_refuses_with_the_reason():
    # The system as the kernels' import sees it: the check comes before any clock codegen.
    code = (
        "import sys; sys.platform = 'win32'\n"
        "try:\n    import tessera.kernels\n"
        "except ImportError as refusal:\n    print(type(refusal).__name__, refusal)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=COLD_START_SECONDS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "UnsupportedPlatformError Tessera runs on Linux and macOS; Windows is not supported "
        "(its search clock calls clock_gettime, which Windows' C library lacks)"
    ]
    assert "numba" not in done.stderr
