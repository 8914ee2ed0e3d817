"""Local worker processes watched by the parent: a tournament never hangs on a worker that died or a policy that
does not answer.

Each worker holds one :class:`~agents.tournament.worker.GamePlayer`, takes a chunk of jobs at a time through its
own pipe and sends each finished game back at once, so the parent always knows which game a worker is playing.
Before every call of a policy (``reset`` and ``act``) the worker writes the seat and the time into two numbers
shared with the parent, and clears the time after it. The parent waits on the pipes and the processes' sentinels
and, every :data:`POLL_SECONDS`,

* finds a worker that died (killed for memory, ``os._exit``, a crash in native code): a ``worker-died`` fault
  naming the game it was playing (and the seat, if a policy was thinking);
* kills a worker whose policy has been thinking for longer than the move time limit: a ``timeout`` fault.

Why processes and not a thread per move: a thread cannot be stopped, so a policy stuck in a loop would keep a
core (and, inside native code, the interpreter lock) for the rest of the run, and nothing in-process survives
``os._exit``; a process is killed outright and its memory returned. The watchdog lives in the parent, which no
policy code ever runs in, so it fires whatever the policy is doing.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from cardenvs.agents.tournament.blas import one_blas_thread
from cardenvs.agents.tournament.faults import Fault, GameFault
from cardenvs.agents.tournament.schedule import Job
from cardenvs.agents.tournament.worker import GamePlayer, GameRecord, GameSetup

POLL_SECONDS = 0.1
"""How often the parent looks at the clocks of the moves under way."""
FLUSH_GAMES, FLUSH_SECONDS = 16, 0.5
"""Finished games are handed on (stored) in batches of this many, or this often: a commit per game costs more
CPU than a short game; a fault or the end hands on whatever came back before it."""
_SEAT, _STARTED = 0, 1
_PR_SET_PDEATHSIG = 1


class SharedMoveClock:
    """The worker's side of the move clock: the seat thinking and since when (``time.monotonic``; 0: nobody)."""

    def __init__(self, cells: Any):
        self.cells = cells

    def start(self, seat: int) -> None:
        self.cells[_SEAT] = seat
        self.cells[_STARTED] = time.monotonic()

    def stop(self) -> None:
        self.cells[_STARTED] = 0.0


def _serve(setup: GameSetup, conn: Connection, cells: Any) -> None:
    """A worker's life: play the chunks the parent sends (``None``: stop); report each game or the first fault."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the workers
    _die_with_parent()
    one_blas_thread()  # the workers fill the cores; BLAS threads of their own would only spin against each other
    parent = multiprocessing.parent_process()
    try:
        player = GamePlayer(setup, clock=SharedMoveClock(cells))
        while True:
            # A forked worker holds copies of the pipes' other ends, so a parent killed with -9 would never
            # close them: wait on the parent's sentinel as well.
            if parent is not None and conn not in wait([conn, parent.sentinel]):
                return
            if (jobs := conn.recv()) is None:
                return
            for job in jobs:
                conn.send(("game", player.play(job)))
    except GameFault as failed:
        conn.send(("fault", failed.fault))
    except Exception as error:  # the worker could not start (the parent reports it as an error, not a fault)
        conn.send(("error", f"{type(error).__name__}: {error}"))


def jax_started() -> bool:
    """Whether this process started JAX's runtime, whose native threads (not counted by ``threading``) a fork would
    copy mid-work: a ``fastbot:`` entrant's fingerprint, say, compiles its bot in the parent."""
    bridge = sys.modules.get("jax._src.xla_bridge")
    initialized = getattr(bridge, "backends_are_initialized", None)
    return bool(initialized is not None and initialized())


def _die_with_parent() -> None:
    """On Linux, have the kernel kill this worker when its parent dies (``kill -9`` included), so that a policy
    stuck in a move cannot outlive the tournament (``PR_SET_PDEATHSIG``; elsewhere the parent's sentinel serves)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def start_method() -> str:
    """``fork`` where it is safe (Linux, no other thread running, JAX's runtime not started: workers start at once
    and nothing is re-imported, so plain scripts and notebooks work), else ``forkserver`` or ``spawn`` (which import
    the ``__main__`` module again: scripts then need the ``if __name__ == "__main__":`` guard)."""
    methods = multiprocessing.get_all_start_methods()
    alone = threading.active_count() == 1 and not jax_started()
    if "fork" in methods and sys.platform.startswith("linux") and alone:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


@dataclass
class _Worker:
    process: Any
    conn: Connection
    cells: Any
    jobs: deque[Job] = field(default_factory=deque)
    """Sent and not yet reported, in the order the worker plays them (the first is being played)."""

    def fault(self, kind: Any, message: str, setup: GameSetup) -> Fault:
        """A fault of the game this worker is playing (the seat whose policy is thinking, if one is)."""
        job = self.jobs[0]
        seat = int(self.cells[_SEAT]) if self.cells[_STARTED] else None
        labels = tuple(setup.entrants[e].label for e in job.seats)
        return Fault(job.deal, job.seating, labels, seat, kind, message)


class WatchedPool:
    """``workers`` processes playing ``setup``'s games, watched for death and for moves over ``move_timeout``."""

    def __init__(self, setup: GameSetup, workers: int, move_timeout: float | None):
        self.setup, self.move_timeout = setup, move_timeout
        context: Any = multiprocessing.get_context(start_method())  # typeshed lacks Process on BaseContext
        self.workers: list[_Worker] = []
        for _ in range(workers):
            parent, child = context.Pipe()
            cells = context.RawArray("d", 2)
            process = context.Process(target=_serve, args=(setup, child, cells), daemon=True)
            process.start()
            child.close()
            self.workers.append(_Worker(process, parent, cells))

    def play(self, chunks: Sequence[list[Job]], on_records: Callable[[list[GameRecord]], None]) -> None:
        """Play every chunk, handing finished games to ``on_records``; a fault raises :class:`GameFault`."""
        todo = deque(chunks)
        records: list[GameRecord] = []
        flushed = time.monotonic()
        try:
            self._play(todo, records, on_records, flushed)
        finally:
            if records:
                on_records(records)

    def _play(
        self,
        todo: deque[list[Job]],
        records: list[GameRecord],
        on_records: Callable[[list[GameRecord]], None],
        flushed: float,
    ) -> None:
        while True:
            for worker in self.workers:
                if not worker.jobs and todo:
                    worker.jobs.extend(todo[0])
                    with contextlib.suppress(OSError):  # a dead worker: _check reports it with its game
                        worker.conn.send(todo.popleft())
            busy = [w for w in self.workers if w.jobs]
            if not busy:
                return
            wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=POLL_SECONDS)
            for worker in busy:
                self._collect(worker, records)
                self._check(worker)
            if len(records) >= FLUSH_GAMES or (records and time.monotonic() - flushed > FLUSH_SECONDS):
                batch, records[:] = records[:], []
                on_records(batch)
                flushed = time.monotonic()

    def _collect(self, worker: _Worker, records: list[GameRecord]) -> None:
        try:
            while worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == "game":
                    worker.jobs.popleft()
                    records.append(payload)
                elif kind == "fault":
                    raise GameFault(payload)
                else:
                    raise RuntimeError(f"a tournament worker could not start: {payload}")
        except (EOFError, OSError):
            pass  # the worker died: _check says how

    def _check(self, worker: _Worker) -> None:
        if worker.jobs and not worker.process.is_alive():
            worker.process.join()
            message = f"the worker process playing it died ({_exit_text(worker.process.exitcode)})"
            raise GameFault(worker.fault("worker-died", message, self.setup))
        started = worker.cells[_STARTED]
        if self.move_timeout is not None and started and time.monotonic() - started > self.move_timeout:
            fault = worker.fault("timeout", f"no move within the limit of {self.move_timeout:g} s", self.setup)
            worker.process.kill()
            raise GameFault(fault)

    def close(self) -> None:
        """Stop every worker: idle ones are asked to end, busy ones (after a fault) are killed."""
        for worker in self.workers:
            if worker.jobs or not worker.process.is_alive():
                worker.process.kill()
            else:
                try:
                    worker.conn.send(None)
                except OSError:
                    worker.process.kill()
        for worker in self.workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()

    def __enter__(self) -> WatchedPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        killed = " (an out-of-memory kill looks like this)" if -code == signal.SIGKILL else ""
        return f"killed by {name}{killed}"
    return f"exit code {code}"
