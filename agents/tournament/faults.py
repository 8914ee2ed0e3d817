"""What went wrong in a game: a policy raised, chose an illegal action, ran past the time limit of a move, or the
worker process playing the game died. A fault stops the tournament (dropping the failed games would bias the
results: the games a policy cannot finish are not a random sample) and is stored in the database's ``faults``
table, so the report can say what failed; the games stored before it are kept, and running the tournament again
resumes with the game that failed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

FaultKind = Literal["exception", "timeout", "illegal", "worker-died"]
FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)


@dataclass(frozen=True)
class Fault:
    """One failed game."""

    deal: int
    seating: int
    seats: tuple[str, ...]
    """Entrant label per seat."""
    seat: int | None
    """The seat whose policy failed (``None``: not a policy's turn, e.g. a worker killed between moves)."""
    kind: FaultKind
    message: str

    @property
    def policy(self) -> str | None:
        """The label of the entrant that failed, if a policy's turn was under way."""
        return self.seats[self.seat] if self.seat is not None and 0 <= self.seat < len(self.seats) else None

    def text(self) -> str:
        """One line for people: which game, which seat and policy, what happened."""
        who = f"seat {self.seat} ({self.policy!r})" if self.policy is not None else "no policy's turn"
        return (
            f"deal {self.deal} seating {self.seating} (seats {list(self.seats)}) failed, {who}: "
            f"{self.kind}: {self.message}"
        )


class GameFault(RuntimeError):
    """A game of the tournament failed (the :class:`Fault` says how); raised by the player and the backends."""

    def __init__(self, fault: Fault):
        super().__init__(fault.text())
        self.fault = fault


class TournamentStopped(GameFault):
    """A tournament stopped at a fault: the games stored before it are kept in ``db_path`` with the fault."""

    def __init__(self, fault: Fault, db_path: Path):
        super().__init__(fault)
        self.db_path = db_path
        self.args = (
            f"{fault.text()}. The tournament stopped; {db_path} keeps the games played so far and records the "
            "fault (table faults). Run it again to resume from this game.",
        )
