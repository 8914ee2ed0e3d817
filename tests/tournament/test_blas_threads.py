"""Tournament workers run NumPy with one BLAS thread each (agents/tournament/blas.py): the workers fill the cores,
and extra BLAS threads of every worker only spin against the others'."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cardenvs.agents.tournament import Tournament
from cardenvs.agents.tournament.blas import blas_threads, loaded_openblas
from cardenvs.agents.tournament.storage import TournamentStore
from tests.user_policies import write_policy

CHECKER = '''
import numpy as np

from cardenvs.agents.tournament.blas import blas_threads


class OneThread:
    """Plays the first legal action; fails its game if any OpenBLAS of its process runs on more than one thread."""

    def act(self, observation):
        threads = blas_threads()  # one entry per OpenBLAS loaded (torch or SciPy may bring their own)
        if not threads or any(count != 1 for count in threads):
            raise RuntimeError(f"BLAS threads in this worker: {threads}")
        return int(np.flatnonzero(observation["action_mask"])[0])
'''


def test_numpy_here_runs_on_openblas_whose_threads_can_be_read() -> None:
    assert loaded_openblas() and all(threads >= 1 for threads in blas_threads())


def test_every_loaded_openblas_is_set_to_one_thread() -> None:
    """NumPy and SciPy each bring an OpenBLAS; both are limited (in a child process, to leave this one alone)."""
    code = (
        "import json, scipy.linalg\n"
        "from cardenvs.agents.tournament.blas import blas_threads, loaded_openblas, one_blas_thread\n"
        "print(json.dumps([len(loaded_openblas()), one_blas_thread(), blas_threads()]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    libraries, limited, threads = json.loads(done.stdout)
    assert libraries >= 2 and limited == libraries and threads == [1] * libraries


def test_every_worker_of_a_parallel_tournament_uses_one_blas_thread(tmp_path: Path) -> None:
    path = write_policy(tmp_path / "user", CHECKER, "one_thread.py")
    tournament = Tournament("verish_ne_verish-v0", ["random", f"checker={path}:OneThread"], games=12)
    tournament.run(tmp_path / "t.sqlite", workers=2)  # a worker on two BLAS threads would stop it with a fault
    with TournamentStore(tmp_path / "t.sqlite") as store:
        assert len(store.records()) == 12  # two whole deals of six seatings
