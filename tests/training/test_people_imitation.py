"""``imitate = "people:PATH"``: a warm start from the decisions people made at the play table."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardenvs.experiments.people_data import check_teacher, people_rows
from cardenvs.experiments.play import dataset
from cardenvs.experiments.play.session import PlaySession, TableSettings
from cardenvs.experiments.train import train
from cardenvs.wrappers import observation_scale
from tests.play.test_dataset import _play
from tests.training.test_warm_start import OPTIONS, kyuuri


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data set of six 2-player Kyuuri games with a person (random moves) at seat 0."""
    folder = tmp_path_factory.mktemp("people")
    session = PlaySession(TableSettings("kyuuri-v0", dict(OPTIONS), seed=3, record=str(folder / "games")))
    for game in range(6):
        if game:
            session.rematch(session.version)
        _play(session, game)
    out = folder / "people.npz"
    assert dataset.main([str(folder / "games"), "--out", str(out)]) == 0
    return out


def test_each_decision_returns_what_its_seat_won_from_there_on(people: Path) -> None:
    import cardenvs

    scale = observation_scale(cardenvs.make("kyuuri-v0", raw=True, **OPTIONS).layout)
    observations, masks, actions, returns, games = people_rows(
        f"people:{people}", "kyuuri-v0", OPTIONS, scale, gamma=1.0, reward_scale=1.0
    )
    data = np.load(people)
    assert games == 6 and len(actions) == len(data["actions"]) > 30
    assert np.allclose(observations, data["observations"] * scale, atol=1e-2)  # scaled as the run's env scales
    assert masks[np.arange(len(actions)), actions].all()
    # a 2-player Kyuuri game pays +1 or -1 at its end only: with gamma 1 every decision returns its game's result
    for game in range(6):
        rows = data["games"] == game
        assert len(set(returns[rows].tolist())) == 1 and abs(returns[rows][0]) == 1.0
        assert returns[rows][0] == data["rewards"][rows].sum()
    assert int(data["last"].sum()) == 6


def test_a_run_warm_starts_from_the_peoples_decisions(people: Path, tmp_path: Path) -> None:
    teacher = f"people:{people}"
    final = train(kyuuri(tmp_path, imitate=teacher, imitate_epochs=3))
    record = json.loads((final.parent / "imitation.json").read_text())
    assert record["teacher"] == teacher and record["decisions"] == len(np.load(people)["actions"])
    assert (final.parent / "checkpoints" / "step_0.npz").exists()


def test_a_data_set_of_another_game_or_with_dagger_rounds_is_refused(people: Path) -> None:
    import cardenvs
    from cardenvs.agents.base import PolicyContext

    teacher = f"people:{people}"
    context = PolicyContext.from_env(cardenvs.make("kyuuri-v0", **OPTIONS))
    with pytest.raises(ValueError, match="this run's cardenvs/kyuuri-v0"):
        check_teacher(teacher, "kyuuri-v0", {"num_players": 3}, 0, [], context)
    with pytest.raises(ValueError, match="imitate_rounds 0"):
        check_teacher(teacher, "kyuuri-v0", OPTIONS, 1, [], context)
    with pytest.raises(ValueError, match="cannot read the data set"):
        check_teacher("people:/no/such.npz", "kyuuri-v0", OPTIONS, 0, [], context)
    with pytest.raises(ValueError, match="unknown imitate teacher"):
        check_teacher("kyuuri/nobody", "kyuuri-v0", OPTIONS, 0, ["kyuuri/rule"], context)
