"""Where games are played: in this process, in local worker processes, or on a Ray cluster.

Every backend takes the jobs still to play and hands finished records to a callback (which stores them) as
soon as games come back; records are the same whichever backend played them
(see :mod:`agents.tournament.worker`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from cardenvs.agents.tournament.processes import WatchedPool
from cardenvs.agents.tournament.schedule import Job
from cardenvs.agents.tournament.worker import GamePlayer, GameRecord, GameSetup

RecordsCallback = Callable[[list[GameRecord]], None]


def chunked(jobs: Sequence[Job], size: int) -> list[list[Job]]:
    """Consecutive chunks of at most ``size`` jobs."""
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def default_chunk_size(num_jobs: int, workers: int) -> int:
    """Small enough to keep every worker busy to the end and results flowing, large enough to amortise IPC."""
    return max(1, min(16, num_jobs // (workers * 8)))


def run_serial(setup: GameSetup, jobs: Sequence[Job], on_records: RecordsCallback) -> None:
    """Play in this process, storing every game as it finishes (no move time limit: nothing could stop a policy
    that does not answer, so the runner plays here only when the caller asked for no limit)."""
    player = GamePlayer(setup)
    for job in jobs:
        on_records([player.play(job)])


def run_processes(
    setup: GameSetup,
    jobs: Sequence[Job],
    on_records: RecordsCallback,
    workers: int,
    chunk_size: int | None = None,
    move_timeout: float | None = None,
) -> None:
    """Play in ``workers`` local processes, each building its env and policies once, watched by this one
    (:mod:`agents.tournament.processes`): a worker that dies, or a policy thinking for longer than
    ``move_timeout`` seconds, raises :class:`~agents.tournament.faults.GameFault` instead of hanging."""
    size = chunk_size or default_chunk_size(len(jobs), workers)
    chunks = chunked(jobs, size)
    with WatchedPool(setup, min(workers, len(chunks)), move_timeout) as pool:
        pool.play(chunks, on_records)


def available_cores() -> int:
    """CPU cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# ---------------------------------------------------------------------------------------------- Ray
class _RayPlayer:
    """The body of a Ray actor: one :class:`GamePlayer` per actor."""

    def __init__(self, setup: GameSetup):
        self.player = GamePlayer(setup)

    def play_many(self, jobs: list[Job]) -> list[GameRecord]:
        return self.player.play_many(jobs)


def run_ray(
    setup: GameSetup,
    jobs: Sequence[Job],
    on_records: RecordsCallback,
    address: str | None = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    runtime_env: dict[str, Any] | None = None,
) -> None:
    """Play on a Ray cluster: ``address`` (``auto``, ``ray://host:10001``) or the Ray instance already
    initialised in this process (a local one if ``address`` is ``None`` and none is). One actor per CPU of the
    cluster unless ``workers`` says otherwise; each actor builds its env and policies once."""
    try:
        import ray
        from ray.util import ActorPool
    except ImportError as error:
        raise RuntimeError("the Ray backend needs ray: pip install -e '.[tournament]'") from error
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
    try:
        count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = chunk_size or default_chunk_size(len(jobs), count)
        actor = ray.remote(num_cpus=1)(_RayPlayer)
        pool = ActorPool([actor.remote(setup) for _ in range(count)])
        results: Iterator[list[GameRecord]] = pool.map_unordered(
            lambda a, chunk: a.play_many.remote(chunk), chunked(jobs, size)
        )
        for records in results:
            on_records(records)
    finally:
        if started_here:
            ray.shutdown()
