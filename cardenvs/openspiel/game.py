"""One cardenvs game as an OpenSpiel Python game: the game, its states and its observer.

A state starts at a sampled-stochastic chance node whose one outcome, ``deal`` (action 0), deals the cards: the
deal is what ``reset(seed=s)`` of the cardenvs env deals, ``s`` drawn from the game's generator when the state is
made (game parameter ``rng_seed``, -1 for fresh entropy). A game registered with ``explicit_deal=True`` lists every
deal instead, with its probability (:mod:`cardenvs.openspiel.deals`). From then on every OpenSpiel action is one of our
action ids: composite moves keep their sub-steps, each a decision with its own exact legal actions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.copying import shallow_copy
from cardenvs.core.engine import RulesEngine
from cardenvs.core.events import jsonable, seen_by
from cardenvs.core.manifest import Utility
from cardenvs.core.worlds import sample_world
from cardenvs.openspiel.deals import Deal

DEAL = 0
"""The chance node's only action: deal the cards."""


@dataclass(frozen=True)
class GameSpec:
    """A registered OpenSpiel game: its name, the env behind it (options fixed) and its declared utility."""

    name: str
    env: CardGameEnv
    utility: Utility
    deals: tuple[tuple[Deal, RulesEngine[Any]], ...] = ()
    """Every deal with its engine when the deal is an explicit chance node (:mod:`cardenvs.openspiel.deals`);
    empty when it is sampled."""

    @property
    def explicit_deal(self) -> bool:
        return bool(self.deals)

    @property
    def num_players(self) -> int:
        return len(self.env.possible_agents)

    def game_type(self) -> Any:
        kind = pyspiel.GameType.Utility.ZERO_SUM if self.utility.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        return pyspiel.GameType(
            short_name=self.name,
            long_name=f"cardenvs {self.env.definition.env_id} {self.env.options}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if self.explicit_deal
            else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=kind,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL
            if self.utility.paid_at_end
            else pyspiel.GameType.RewardModel.REWARDS,
            max_num_players=self.num_players,
            min_num_players=self.num_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={"rng_seed": -1},
        )

    def game_info(self) -> Any:
        return pyspiel.GameInfo(
            num_distinct_actions=self.env.action_table.size,
            max_chance_outcomes=max(1, len(self.deals)),
            num_players=self.num_players,
            min_utility=self.utility.low,
            max_utility=self.utility.high,
            utility_sum=0.0 if self.utility.zero_sum else None,
            max_game_length=self.env.max_steps,
        )


SPECS: dict[str, GameSpec] = {}
"""OpenSpiel name → spec of every game this module registered."""


class CardGame(pyspiel.Game):
    """An OpenSpiel game over one cardenvs env (see the module docstring); :func:`game_class` makes the class of
    one spec, what ``pyspiel.register_game`` is given."""

    spec: GameSpec

    def __init__(self, params: dict[str, Any] | None = None):
        super().__init__(self.spec.game_type(), self.spec.game_info(), params or {})
        seed = int(self.get_parameters().get("rng_seed", -1))
        self._seeds = np.random.default_rng(None if seed < 0 else seed)

    def new_initial_state(self) -> CardGameState:
        """A state before the deal."""
        return CardGameState(self, int(self._seeds.integers(2**63)))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardObserver:
        """The observation (``perfect_recall=False``, the default) or information-state view of one seat."""
        if params:
            raise ValueError(f"{self.spec.name}: observers take no parameters, got {params!r}")
        if iig_obs_type is None:
            return CardObserver(self.spec, perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                f"{self.spec.name} observes what one seat knows (public information and that seat's own private "
                f"information); got {iig_obs_type}"
            )
        return CardObserver(self.spec, perfect_recall=iig_obs_type.perfect_recall)


def game_class(spec: GameSpec) -> type[CardGame]:
    """The game class of ``spec``. A class rather than a closure: OpenSpiel keeps the creator until the process
    exits, and a closure it held the last reference to would be freed after Python has finalised (a crash)."""
    return type(f"CardGame_{spec.name}", (CardGame,), {"spec": spec, "__module__": __name__})


class Table:
    """A state's game in play: the engine and what OpenSpiel asks beyond it. Copying shares the spec, clones the
    engine (``engine.clone()``) and keeps the texts already made (strings do not change)."""

    def __init__(self, spec: GameSpec, engine: RulesEngine[Any] | None):
        self.spec = spec
        self.engine = engine
        n = spec.num_players
        self.decisions: list[tuple[int, int]] = []
        """(player, action) of every decision taken."""
        self.returns = np.zeros(n)
        self.rewards = np.zeros(n)
        self.forget_texts()

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        twin = shallow_copy(self)
        twin.engine = None if self.engine is None else self.engine.clone()
        twin.decisions = list(self.decisions)
        twin.returns = self.returns.copy()
        twin.rewards = self.rewards.copy()
        twin.seen = list(self.seen)
        twin.seen_events = list(self.seen_events)
        twin.turns = list(self.turns)
        twin.turns_made = list(self.turns_made)
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (OpenSpiel's ``serialize``) with the spec named, not copied: the env holds functions."""
        return {**self.__dict__, "spec": self.spec.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.spec = SPECS[state["spec"]]

    @property
    def truncated(self) -> bool:
        return len(self.decisions) >= self.spec.env.max_steps

    def forget_texts(self) -> None:
        """Start each seat's texts again (a re-dealt world: other seats' views differ in it)."""
        n = self.spec.num_players
        self.seen = [""] * n
        self.seen_events = [0] * n
        """Each seat's view of the event log as JSON lines (the first ``seen_events`` events), made on demand."""
        self.turns = [""] * n
        self.turns_made = [0] * n
        """Each seat's record of the first ``turns_made`` decisions: its own action ids, the others' seats."""

    def turns_text(self, seat: int) -> str:
        """The decisions so far as ``seat`` knows them: its own by action id, the others' by who took them."""
        done = self.turns_made[seat]
        if done < len(self.decisions):
            self.turns[seat] += "".join(f" {a}" if p == seat else f" p{p}" for p, a in self.decisions[done:])
            self.turns_made[seat] = len(self.decisions)
        return self.turns[seat]

    def view_text(self, seat: int) -> str:
        """The events ``seat`` has seen (public parts and its own private parts), one JSON object a line."""
        assert self.engine is not None
        events = self.engine.events.events
        if self.seen_events[seat] < len(events):
            lines = (
                json.dumps(seen_by(e, seat), default=jsonable, sort_keys=True, ensure_ascii=False) + "\n"
                for e in events[self.seen_events[seat] :]
            )
            self.seen[seat] += "".join(lines)
            self.seen_events[seat] = len(events)
        return self.seen[seat]


class CardGameState(pyspiel.State):
    """An OpenSpiel state: before the deal (chance), then our engine's decisions, then terminal."""

    def __init__(self, game: CardGame, deal_seed: int):
        super().__init__(game)
        self.deal_seed = deal_seed
        self.table = Table(game.spec, None)

    # ------------------------------------------------------------------ the game
    def current_player(self) -> int:
        engine = self.table.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if engine.is_terminal or self.table.truncated:
            return int(pyspiel.PlayerId.TERMINAL)
        return engine.current_player

    def is_terminal(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.table.spec.deals
        if deals:
            return [(i, deal.probability) for i, (deal, _) in enumerate(deals)]
        return [(DEAL, 1.0)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.table.engine is not None
        return self.table.engine.legal_actions()

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table.engine is None and table.spec.deals:
            table.engine = table.spec.deals[action][1].clone()
            return
        if table.engine is None:
            env = table.spec.env
            env.reset(seed=self.deal_seed)  # the env's own deal (and its re-deal of a game decided at once)
            table.engine, env.game = env.game, None
            return
        player = table.engine.current_player
        table.engine.apply(int(action))
        table.decisions.append((player, int(action)))
        earned = table.engine.take_rewards()
        table.rewards = np.zeros(table.spec.num_players) if earned is None else np.asarray(earned, dtype=float)
        table.returns = table.returns + table.rewards
        if self.is_terminal():
            self._check_utility()
        elif table.spec.utility.paid_at_end and table.rewards.any():
            raise ValueError(
                f"{table.spec.name}: rewards {table.rewards.tolist()} paid before the end, where Utility(paid_at_end="
                "True) is declared; register it with cardenvs.openspiel.register(..., utility=Utility(..., "
                "paid_at_end=False))"
            )

    def _check_utility(self) -> None:
        spec, returns = self.table.spec, self.table.returns
        utility = spec.utility
        hint = "register it with cardenvs.openspiel.register(..., utility=Utility(zero_sum=..., low=..., high=...))"
        if returns.min() < utility.low or returns.max() > utility.high:
            raise ValueError(
                f"{spec.name}: returns {returns.tolist()} leave the declared [{utility.low}, {utility.high}]; {hint}"
            )
        if utility.zero_sum and abs(returns.sum()) > 1e-9:
            raise ValueError(f"{spec.name}: returns {returns.tolist()} do not sum to 0 as declared; {hint}")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            deals = self.table.spec.deals
            return deals[action][0].name() if deals else "deal"
        return self.table.spec.env.action_table.name(int(action))

    def returns(self) -> list[float]:
        return [float(r) for r in self.table.returns]

    def rewards(self) -> list[float]:
        return [float(r) for r in self.table.rewards]

    def __str__(self) -> str:
        engine = self.table.engine
        if engine is None:
            return f"{self.table.spec.name}: before the deal (seed {self.deal_seed})"
        cap = f"\ntruncated after {len(self.table.decisions)} decisions" if self.table.truncated else ""
        return engine.render_text() + cap

    # ------------------------------------------------------------------ what a seat knows
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardGameState:
        """A state ``player_id`` cannot tell from this one: every card it cannot see re-dealt (the engine's
        ``resample_hidden``) and the chance still to come reseeded, drawn with ``probability_sampler()``."""
        twin: CardGameState = self.clone()
        if self.table.engine is not None:
            rng = np.random.default_rng(int(probability_sampler() * 2**53))
            twin.table.engine = sample_world(self.table.engine, player_id, rng)
            twin.table.forget_texts()
        return twin

    def information_state_text(self, player: int) -> str:
        """Identifies ``player``'s information set: the events it has seen (its own hand and private parts, every
        public part), the decisions so far (its own by action id, the others' by who took them: which seat
        decides, and how often, is public, and composite moves take several decisions) and a digest of its
        observation now.

        The observation repeats what the events say in a true game; in a world re-dealt for another seat it is
        what keeps this seat's string true to its re-dealt hand (the engines re-deal cards, not the event log)."""
        table = self.table
        if table.engine is None:
            return f"player {player} before the deal"
        digest = hashlib.blake2b(table.engine.observation(player).tobytes(), digest_size=16).hexdigest()
        return f"player {player}\n{table.view_text(player)}decisions:{table.turns_text(player)}\nobservation {digest}"

    def observation_text(self, player: int) -> str:
        """``player``'s observation vector, feature group by feature group (groups that are all zero left out)."""
        engine = self.table.engine
        if engine is None:
            return f"player {player} before the deal"
        vector = engine.observation(player).tolist()
        parts = [f"player {player}"]
        for name, feature in engine.layout.features.items():
            values = vector[feature.slice]
            if any(values):
                parts.append(f"{name}: " + " ".join(map(NUMBER.format, values)))
        return "\n".join(parts)


NUMBER = "{:g}"


class CardObserver:
    """OpenSpiel's Python observer: the seat's observation vector, with a named view per feature group of our
    layout, and the observation or information-state text."""

    def __init__(self, spec: GameSpec, perfect_recall: bool):
        layout = spec.env.layout
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[feature.slice] for name, feature in layout.features.items()}

    def set_from(self, state: CardGameState, player: int) -> None:
        engine = state.table.engine
        if engine is None:
            self.tensor.fill(0)
        else:
            engine.observe_into(player, self.tensor)

    def string_from(self, state: CardGameState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)
