"""One BLAS thread in each tournament worker.

NumPy's OpenBLAS (and SciPy's) starts a thread per core in every process. Tournament workers already fill the cores,
one process each, and the networks they evaluate multiply small matrices, so each worker's extra BLAS threads only
spin against the other workers': with 2 workers on 2 cores, 4,800 Zheng Shang You games of a 128-128 network agent
against the rule bot (``experiments.training_results``) took 12.5 minutes, and 56 seconds, with the same result, with
one BLAS thread each. A forked worker inherits an OpenBLAS already started, so setting ``OPENBLAS_NUM_THREADS`` there
is too late; :func:`one_blas_thread` asks every OpenBLAS loaded in the process to use one thread, through the
library's own setter.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)
_GETTERS = tuple(name.replace("_set_", "_get_") for name in _SETTERS)


def loaded_openblas() -> list[ctypes.CDLL]:
    """The OpenBLAS libraries mapped into this process (none where ``/proc/self/maps`` cannot be read)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    paths = {line.split()[-1] for line in maps.splitlines() if "openblas" in line.lower()}
    return [ctypes.CDLL(path) for path in sorted(paths) if path.startswith("/")]


def _first(library: ctypes.CDLL, names: tuple[str, ...]) -> Any:
    return next((getattr(library, name) for name in names if hasattr(library, name)), None)


def one_blas_thread() -> int:
    """Ask every loaded OpenBLAS to use one thread; returns how many libraries took it."""
    limited = 0
    for library in loaded_openblas():
        setter = _first(library, _SETTERS)
        if setter is not None:
            setter(1)
            limited += 1
    return limited


def blas_threads() -> list[int]:
    """The thread count of every loaded OpenBLAS that says it."""
    getters = [_first(library, _GETTERS) for library in loaded_openblas()]
    return [int(getter()) for getter in getters if getter is not None]
