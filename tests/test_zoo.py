"""The zoo: shipped agents load offline from any spec-taking entry point, their cards are complete, a layout
mismatch or an altered file is refused, and the float16 export keeps the greedy actions."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import make_policy, policy_names
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.players import zoo_policy
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.agents.play import play_episode
from cardenvs.agents.registry import registered_names
from cardenvs.agents.specs import SpecError, fingerprinted_policy
from cardenvs.agents.zoo import (
    CARD_FIELDS,
    ZOO_ROOT,
    ZooError,
    fitting_zoo_names,
    zoo_cards,
    zoo_names,
)
from cardenvs.experiments import zoo_export

CARDS = zoo_cards()
KYUURI = "zoo:kyuuri/ppo"


def test_policy_names_lists_the_zoo_agents_of_each_game_and_only_those() -> None:
    assert KYUURI in policy_names("kyuuri-v0") and KYUURI not in registered_names("kyuuri-v0")
    for env_id in cardenvs.ENV_IDS:
        zoo = [name for name in policy_names(env_id) if name.startswith("zoo:")]
        shipped = [card.spec for card in CARDS.values() if card.env_id.endswith(env_id.split("/")[-1])]
        assert sorted(zoo) == sorted(shipped)  # the order, strongest first, is tested below


def test_the_zoo_is_at_most_20_mb() -> None:
    total = sum(path.stat().st_size for path in ZOO_ROOT.rglob("*") if path.suffix in (".npz", ".json"))
    assert 0 < total <= 20 * 2**20, f"{total / 2**20:.1f} MB"


@pytest.mark.parametrize("name", sorted(CARDS))
def test_every_shipped_agent_plays_its_game_offline_from_its_card(name: str) -> None:
    card = CARDS[name]
    assert set(CARD_FIELDS) <= set(card.data) and card.data["training"]["command"].startswith("python -m")
    assert card.data["results"] and all("agent_minus_opponent" in row for row in card.data["results"])
    check = card.data["float16_check"]
    assert check["decisions"] >= 10_000
    assert card.data["dtype"] == ("float16" if check["greedy_actions_equal"] == check["decisions"] else "float32")
    with np.load(card.weights, allow_pickle=False) as data:
        assert data["action_w"].dtype == np.dtype(card.data["dtype"])
    env = cardenvs.make(card.env_id, **card.data["options"])
    assert context_layout_hash(PolicyContext.from_env(env)) == card.data["layout_hash"]
    assert fitting_zoo_names(card.env_id, card.data["options"])[0].startswith("zoo:" + card.game)
    seats = [make_policy(card.spec if i % 2 == 0 else "random", env, seed=i) for i in range(len(env.possible_agents))]
    result = play_episode(env, seats, seed=0)
    assert result.decisions > 0


def test_zoo_agents_play_without_torch() -> None:
    """In a fresh process (another test of the same worker may have imported torch)."""
    agents = [(c.env_id, c.data["options"], c.spec) for c in CARDS.values()]
    code = (
        "import sys, cardenvs\n"
        "from cardenvs.agents import make_policy\n"
        "from cardenvs.agents.play import play_episode\n"
        f"for env_id, options, spec in {agents!r}:\n"
        "    env = cardenvs.make(env_id, **options)\n"
        "    seats = [make_policy(spec, env, seed=i) for i in range(len(env.possible_agents))]\n"
        "    play_episode(env, seats, seed=0)\n"
        "print(sorted(m for m in ('torch', 'stable_baselines3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_zoo_agent_is_refused_on_another_layout_naming_both() -> None:
    card = CARDS["kyuuri/ppo"]
    with pytest.raises(SpecError) as refused:
        make_policy(KYUURI, cardenvs.make("kyuuri-v0", num_players=3))
    other = context_layout_hash(PolicyContext.from_env(cardenvs.make("kyuuri-v0", num_players=3)))
    message = str(refused.value)
    assert card.data["layout_hash"] in message and other in message and "cardenvs/kyuuri-v0" in message
    assert "{'num_players': 4}" in message and "3 players" in message
    with pytest.raises(SpecError, match="plays kyuuri"):
        make_policy(KYUURI, cardenvs.make("yukushi-v0"))


def test_a_card_from_another_version_of_the_game_is_refused_naming_both_versions(tmp_path: Path) -> None:
    root = _copy_of_kyuuri(tmp_path)
    card_path = root / "kyuuri" / "ppo.json"
    card = json.loads(card_path.read_text())
    card.update(env_id="cardenvs/kyuuri-v9", layout_hash="0123456789abcdef")
    card_path.write_text(json.dumps(card))
    context = PolicyContext.from_env(cardenvs.make("kyuuri-v0"))
    with pytest.raises(
        ZooError, match=r"trained on cardenvs/kyuuri-v9 .*0123456789abcdef.*this env is cardenvs/kyuuri-v0"
    ):
        zoo_policy("kyuuri/ppo", context, root=root)


def test_an_altered_weights_file_is_refused(tmp_path: Path) -> None:
    root = _copy_of_kyuuri(tmp_path)
    with np.load(root / "kyuuri" / "ppo.npz", allow_pickle=False) as data:
        arrays = {key: data[key] for key in data.files}
    arrays["action_b"] = arrays["action_b"] + 1
    np.savez(root / "kyuuri" / "ppo.npz", allow_pickle=False, **arrays)
    context = PolicyContext.from_env(cardenvs.make("kyuuri-v0"))
    with pytest.raises(ZooError, match="the file was changed"):
        zoo_policy("kyuuri/ppo", context, root=root)


def test_bad_zoo_specs_say_what_is_shipped() -> None:
    env = cardenvs.make("kyuuri-v0")
    with pytest.raises(SpecError, match=r"zoo:<game>/<name>.*zoo:kyuuri/ppo"):
        make_policy("zoo:ppo", env)
    with pytest.raises(SpecError, match=r"no such agent; shipped for kyuuri: \['zoo:kyuuri/ppo'"):
        make_policy("zoo:kyuuri/nope", env)


def test_a_zoo_entrants_fingerprint_covers_its_weights() -> None:
    context = PolicyContext.from_env(cardenvs.make("kyuuri-v0"))
    _, first = fingerprinted_policy(KYUURI, context)
    _, again = fingerprinted_policy(KYUURI, context)
    assert first == again and len(first) == 16


def test_the_export_stores_float16_only_when_every_greedy_action_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "args.json").write_text(json.dumps({"game": "kyuuri-v0", "options": {"num_players": 2}}))
    context = PolicyContext.from_env(cardenvs.make("kyuuri-v0", num_players=2))
    rng = np.random.default_rng(0)
    width, actions = context.layout.size, context.actions.size
    weights = ActorWeights(
        ((rng.normal(size=(8, width)).astype(np.float32), np.zeros(8, np.float32)),),
        (rng.normal(size=(actions, 8)).astype(np.float32), np.zeros(actions, np.float32)),
        "tanh",
        np.ones(width, np.float32),
        {},
    )
    weights.save(run / "final.npz")
    results = "| `random` | 0.1 [0, 0.2] | -0.1 [-0.2, 0] | 0.2 [0, 0.4] | 0.5 [0.4, 0.6] | 12 |"
    card = zoo_export.export(run / "final.npz", "tiny", "python -m x", "none", results, 4, tmp_path / "zoo")
    data = json.loads(card.read_text())
    assert data["float16_check"]["decisions"] > 50
    half = data["float16_check"]["greedy_actions_equal"] == data["float16_check"]["decisions"]
    assert data["dtype"] == ("float16" if half else "float32")
    assert data["results"][0]["agent_minus_opponent"] == "0.2 [0, 0.4]"
    plays = zoo_policy("kyuuri/tiny", context, root=tmp_path / "zoo")
    assert plays.context is context
    for equal, dtype in ((9, np.float16), (8, np.float32)):
        check = {"games": 1, "decisions": 9, "greedy_actions_equal": equal}
        monkeypatch.setattr(zoo_export, "float16_check", lambda *_, check=check: check)
        card = zoo_export.export(run / "final.npz", f"tiny{equal}", "python -m x", "none", results, 1, tmp_path / "zoo")
        assert json.loads(card.read_text())["dtype"] == np.dtype(dtype).name
        with np.load(card.with_suffix(".npz"), allow_pickle=False) as stored:
            assert stored["action_w"].dtype == dtype
        assert zoo_policy(f"kyuuri/tiny{equal}", context, root=tmp_path / "zoo").act(_first_observation(context))


def _first_observation(context: PolicyContext) -> dict[str, np.ndarray]:
    env = cardenvs.make(context.env_id, num_players=context.num_players)
    env.reset(seed=0)
    return env.observe(env.agent_selection)


def _copy_of_kyuuri(tmp_path: Path) -> Path:
    root = tmp_path / "zoo"
    (root / "kyuuri").mkdir(parents=True)
    for suffix in (".npz", ".json"):
        shutil.copy(ZOO_ROOT / "kyuuri" / f"ppo{suffix}", root / "kyuuri")
    return root


def test_the_zoo_page_lists_every_shipped_agent_and_its_code_runs() -> None:
    page = Path(__file__).resolve().parents[1] / "docs" / "zoo.md"
    text = page.read_text()
    paste = "python -m cardenvs.experiments.zoo_export --table"
    assert zoo_export.zoo_table() in text, f"docs/zoo.md is out of date: paste {paste}"
    namespace: dict[str, object] = {}
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL):
        exec(compile(block, str(page), "exec"), namespace)
    assert namespace["zoo"] == [name for name in policy_names("kyuuri-v0") if name.startswith("zoo:")]


def test_the_demo_and_play_page_get_the_strongest_fitting_agent_first(tmp_path: Path) -> None:
    root = _copy_of_kyuuri(tmp_path)
    card = json.loads((root / "kyuuri" / "ppo.json").read_text())
    for name, margin in (("a_weaker", "-0.5 [-0.6, -0.4]"), ("z_stronger", "0.9 [0.8, 1.0]")):
        shutil.copy(root / "kyuuri" / "ppo.npz", root / "kyuuri" / f"{name}.npz")
        rows = [
            row | {"agent_minus_opponent": margin} if row["opponent"] != "random" else row for row in card["results"]
        ]
        (root / "kyuuri" / f"{name}.json").write_text(json.dumps(card | {"name": f"kyuuri/{name}", "results": rows}))
    names = fitting_zoo_names("kyuuri-v0", card["options"], root=root)
    assert names == ["zoo:kyuuri/z_stronger", "zoo:kyuuri/ppo", "zoo:kyuuri/a_weaker"]
    assert zoo_names("kyuuri-v0", root=root) == names  # what policy_names lists: the same order


def test_the_verish_agent_seated_first_beats_the_rule_bot_by_a_tenth_on_its_card() -> None:
    """Issue 34's bar for the agent the demo and the play page seat: lower 95% bound of agent − rule ≥ 0.10."""
    first = fitting_zoo_names("verish_ne_verish-v0", {"num_players": 4})[0]
    rows = {row["opponent"]: row for row in CARDS[first.removeprefix("zoo:")].data["results"]}
    low = float(rows["verish_ne_verish/rule"]["agent_minus_opponent"].split("[")[1].split(",")[0])
    assert low >= 0.10 and int(rows["verish_ne_verish/rule"]["games"]) >= 2400, (first, rows)
