"""Tournament workers run NumPy with one BLAS thread each (agents/tournament/blas.py): the workers fill the cores,
and extra BLAS threads of every worker only spin against the others'."""

from __future__ import annotations

from pathlib import Path

from cardenvs.agents.tournament import Tournament
from cardenvs.agents.tournament.blas import blas_threads, loaded_openblas
from cardenvs.agents.tournament.storage import TournamentStore
from tests.user_policies import write_policy

CHECKER = '''
import numpy as np

from cardenvs.agents.tournament.blas import blas_threads


class OneThread:
    """Plays the first legal action; fails its game if its process runs BLAS on more than one thread."""

    def act(self, observation):
        if blas_threads() != [1]:
            raise RuntimeError(f"BLAS threads in this worker: {blas_threads()}")
        return int(np.flatnonzero(observation["action_mask"])[0])
'''


def test_numpy_here_runs_on_openblas_whose_threads_can_be_read() -> None:
    assert loaded_openblas() and all(threads >= 1 for threads in blas_threads())


def test_every_worker_of_a_parallel_tournament_uses_one_blas_thread(tmp_path: Path) -> None:
    path = write_policy(tmp_path / "user", CHECKER, "one_thread.py")
    tournament = Tournament("verish_ne_verish-v0", ["random", f"checker={path}:OneThread"], games=12)
    tournament.run(tmp_path / "t.sqlite", workers=2)  # a worker on two BLAS threads would stop it with a fault
    with TournamentStore(tmp_path / "t.sqlite") as store:
        assert len(store.records()) == 12  # two whole deals of six seatings
