"""What every speed script records beside its figures: the machine, its load, the file.

The scripts run as ``python bench/NAME.py``, which puts this folder on ``sys.path``.
"""
import json
import os
import platform

import numba
import numpy as np


def load_average():
    return [round(x, 2) for x in os.getloadavg()]


def machine(load_before=None):
    """The machine and library versions; the load average before (if given) and now."""
    info = {"cpu_count": os.cpu_count(), "python": platform.python_version(),
            "numba": numba.__version__, "numpy": np.__version__,
            "processor": platform.processor() or platform.machine()}
    if load_before is None:
        info["load_average"] = load_average()
    else:
        info["load_average_1_5_15_min"] = {"before": load_before, "after": load_average()}
    return info


def write_report(path, report):
    """Write ``report`` as indented JSON to ``path`` (nothing when ``path`` is None)."""
    if path:
        with open(path, "w") as file:
            json.dump(report, file, indent=2)
            file.write("\n")
