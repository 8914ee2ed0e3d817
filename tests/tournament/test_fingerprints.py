"""Results tied to the code: an entrant's fingerprint covers its file or module, parameters and checkpoint, and an
edited policy never reuses or mixes the games of its old code."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import PolicyContext
from cardenvs.agents.base import Policy
from cardenvs.agents.registry import POLICIES
from cardenvs.agents.specs import fingerprinted_policy
from cardenvs.agents.tournament import Tournament
from cardenvs.agents.tournament.schedule import Job
from cardenvs.agents.tournament.storage import TournamentStore
from cardenvs.agents.tournament.worker import GamePlayer
from tests.user_policies import BLUFFER, write_policy

ROOT = Path(__file__).resolve().parents[2]
GAME = "verish_ne_verish-v0"
OPTIONS = {"num_players": 2}


@pytest.fixture
def context() -> PolicyContext:
    return PolicyContext.from_env(cardenvs.make(GAME, **OPTIONS))


def _fingerprint(spec: str, context: PolicyContext) -> str:
    return fingerprinted_policy(spec, context)[1]


def test_the_fingerprint_follows_the_code_and_the_parameters(context: PolicyContext, tmp_path: Path) -> None:
    path = write_policy(tmp_path)
    spec = f"{path}:PBluffer?p=0.3"
    before = _fingerprint(spec, context)
    assert _fingerprint(spec, context) == before
    assert _fingerprint(f"{path}:PBluffer?p=0.4", context) != before
    assert _fingerprint(f"{path}:PBluffer?p=0.3&seed=1", context) != before
    path.write_text(BLUFFER + "\n# an edit\n")
    assert _fingerprint(spec, context) != before
    assert _fingerprint("random", context) != _fingerprint("verish_ne_verish/rule", context)


def test_a_checkpoint_is_fingerprinted_by_its_bytes(context: PolicyContext, tmp_path: Path) -> None:
    from cardenvs.agents.learned.weights import ActorWeights
    from cardenvs.wrappers import observation_scale

    rng = np.random.default_rng(0)

    def save(seed: int) -> Path:
        rng = np.random.default_rng(seed)
        w = rng.normal(size=(context.actions.size, context.layout.size)).astype(np.float32)
        weights = ActorWeights(
            (), (w, np.zeros(context.actions.size, np.float32)), "tanh", observation_scale(context.layout), {}
        )
        return weights.save(tmp_path / "agent.npz")

    save(0)
    first = _fingerprint(f"ckpt:{tmp_path / 'agent.npz'}", context)
    save(1)
    assert _fingerprint(f"ckpt:{tmp_path / 'agent.npz'}", context) != first
    del rng


class _Tuned(Policy):
    """A registered policy whose data the test changes, as a retrained network's would."""

    data = b"first"

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"])[0])

    def played_data(self) -> Iterator[bytes]:
        yield self.data


def test_a_searchers_fingerprint_covers_the_policies_it_plays_through(
    context: PolicyContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(POLICIES, "verish_ne_verish/tuned", ("verish_ne_verish", _Tuned))
    for key in ("rollout", "prior"):
        other = "prior" if key == "rollout" else "rollout"
        spec = f"search:?simulations=2&{key}=verish_ne_verish/tuned&{other}=verish_ne_verish/rule"
        monkeypatch.setattr(_Tuned, "data", b"first")
        before = _fingerprint(spec, context)
        assert _fingerprint(spec, context) == before
        monkeypatch.setattr(_Tuned, "data", b"second")  # the searcher's own spec and code are unchanged
        assert _fingerprint(spec, context) != before


def _tournament(spec: str) -> Tournament:
    return Tournament(GAME, [f"me={spec}", "random"], games=4, options=OPTIONS)


def test_an_edited_policy_plays_new_games_and_the_old_ones_stay_apart(tmp_path: Path) -> None:
    path = write_policy(tmp_path / "user")
    spec = f"{path}:PBluffer?p=0.3"
    db = tmp_path / "t" / "tournament.sqlite"
    first = _tournament(spec).run(db)
    assert (first.played_now, first.db_path, first.notices) == (4, db, [])
    again = _tournament(spec).run(db)
    assert (again.played_now, again.db_path, again.notices) == (0, db, [])

    path.write_text(BLUFFER.replace("return int(self.rng.choice(lies))", "return int(lies[0])"))
    edited_tournament = _tournament(spec)
    edited = edited_tournament.run(db)
    assert edited.played_now == 4 and len(edited.records) == 4
    assert edited.db_path == db.parent / f"code-{edited_tournament.code_digest()}" / db.name
    assert "entrant 'me'" in edited.notices[0] and "changed" in edited.notices[0]
    assert str(db) in edited.notices[-1]
    with TournamentStore(db) as store:  # the old games, untouched, under the old fingerprint
        assert len(store) == 4
        assert store.settings()["fingerprints"] == first.tournament.settings()["fingerprints"]
    assert _tournament(spec).run(db).played_now == 0  # the edited code finds its own games again

    path.write_text(BLUFFER)  # back to the first code: its games are found where they were
    assert _tournament(spec).run(db).played_now == 0


def test_a_worker_refuses_code_that_changed_after_the_tournament_started(tmp_path: Path) -> None:
    path = write_policy(tmp_path)
    tournament = _tournament(f"{path}:PBluffer")
    path.write_text(BLUFFER + "\n# edited while the games run\n")
    player = GamePlayer(tournament.setup())
    with pytest.raises(RuntimeError, match="changed while the tournament ran"):
        player.play(tournament.jobs()[0])
    stale = dataclasses.replace(
        tournament.setup(), entrants=tuple(dataclasses.replace(e, fingerprint="") for e in tournament.entrants)
    )
    job = Job(0, 0, 1, (0, 1))
    unchecked = GamePlayer(stale).play(job)  # no fingerprint to check: the edited code plays, as a new tournament's
    assert unchecked.decisions > 0 and unchecked.seats == ["me", "random"]
    assert unchecked.outcome() == GamePlayer(_tournament(f"{path}:PBluffer").setup()).play(job).outcome()


def test_the_command_line_says_which_entrant_changed(tmp_path: Path) -> None:
    path = write_policy(tmp_path / "user")
    out = tmp_path / "runs"
    command = [
        sys.executable, "-m", "cardenvs.experiments.tournament", "--game", GAME, "--players", "2", "--games", "4",
        "--policies", f"me={path}:PBluffer?p=0.3", "random", "--out", str(out), "--no-progress", "--no-report",
    ]  # fmt: skip

    def run() -> str:
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout

    assert "4 games played now" in run()
    path.write_text(BLUFFER + "\n# edited\n")
    text = run()
    assert "entrant 'me'" in text and "changed" in text
    assert "4 games played now" in text and str(out / "code-") in text
