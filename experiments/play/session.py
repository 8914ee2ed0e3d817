"""The game loop of a table: one person at one seat, policies at the others; and replays of finished games.

Everything the page or the terminal shows comes from :meth:`PlaySession.message`, built from the person's
:func:`~cardenvs.render.view.seat_view` alone. A move is posted as the index of one of the moves in the last
message together with that message's ``version``; anything else is refused with :class:`Refused` and changes
nothing. Opponent policies are asked through :func:`~cardenvs.experiments.play.bots.ask` (a thread, a time
limit); one that fails ends the game with a message naming it. Each new game hands them what they ask of it
(information sets, their seat's public view: :func:`~cardenvs.agents.play.seat_policies`), so ``search:`` and
``llm:`` sit at the table as anywhere.

The session may be read (:meth:`PlaySession.message`) from one thread while another advances a bot: its lock
covers every change of the game and every message, never a policy's thinking.
"""

from __future__ import annotations

import json
import math
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.play import seat_policies
from cardenvs.agents.tournament.specs import resolve_policy
from cardenvs.core.engine import RulesEngine
from cardenvs.core.seating import agent_name
from cardenvs.experiments.play.bots import PolicyFailed, ask
from cardenvs.experiments.play.hints import hand_hints, sorted_hand
from cardenvs.experiments.play.roles import is_out, outcome, teams
from cardenvs.experiments.play.words import move_label, plain_view
from cardenvs.render.svg import table_svg
from cardenvs.render.view import SPECTATOR, seat_view

REPLAY_FORMAT = "cardenvs-replay/1"


class Refused(ValueError):
    """A move or request the table does not accept; the message says why (``status``: the HTTP answer)."""

    status = 400


class NotNow(Refused):
    """A request the table accepts at another moment of the game (a rematch mid-game, the record mid-game)."""

    status = 409


@dataclass
class TableSettings:
    """Who sits where and what is played."""

    env_id: str
    options: dict[str, Any] = field(default_factory=dict)
    seat: int = 0
    humans: int = 1
    """How many people sit at the table: ``seat`` and the seats after it in play order; policies play the rest."""
    opponents: list[str] = field(default_factory=lambda: ["random"])
    """Policy specs for the other seats, in seat order, repeated as needed."""
    seed: int = 0
    move_timeout: float = 10.0
    """Seconds an opponent policy may think about one action; a slower one ends the game."""
    record: str = ""
    """A folder where each game played to its end is stored as a replay file (empty: none are stored)."""


class PlaySession:
    """One table: reset, the person's moves, the policies' moves, the result, rematches."""

    def __init__(self, settings: TableSettings):
        self.settings = settings
        self.env = cardenvs.make(settings.env_id, raw=True, **settings.options)
        n = len(self.env.possible_agents)
        if not 0 <= settings.seat < n:
            raise ValueError(f"seat must be in 0..{n - 1} for {n} players, got {settings.seat}")
        if not 1 <= settings.humans <= n:
            raise ValueError(f"--humans must be in 1..{n} for {n} players, got {settings.humans}")
        self.humans = [(settings.seat + k) % n for k in range(settings.humans)]
        """The people's seats; ``settings.seat`` is the first (the one a message is for by default)."""
        if not 0 < settings.move_timeout < math.inf:
            raise ValueError(f"the move timeout must be a positive number of seconds, got {settings.move_timeout}")
        if not settings.opponents:
            raise ValueError("name at least one opponent policy spec (e.g. random)")
        context = PolicyContext.from_env(self.env)
        others = [s for s in range(n) if s not in self.humans]
        self.specs = {s: settings.opponents[i % len(settings.opponents)] for i, s in enumerate(others)}
        self.context = context
        self.policies: dict[int, Policy] = {s: self._policy(s) for s in self.specs}
        self.labels = ["person" if s in self.humans else self.specs[s] for s in range(n)]
        """Who plays each seat (a person's own seat is labelled ``you`` in the messages to that person)."""
        self.deal_seed = settings.seed
        self.version = 0
        self.notice = ""
        self.notice_by: int | None = None
        """Whose move the notice tells (``None``: a notice of the table's own)."""
        self.failure: str | None = None
        """Why the game was stopped (a policy failed), or ``None``."""
        self._lock = threading.RLock()
        self._new_game()

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> RulesEngine[Any]:
        game = self.env.game
        assert game is not None
        return game

    @property
    def over(self) -> bool:
        return self.failure is not None or any(self.env.terminations.values()) or any(self.env.truncations.values())

    def bot_to_act(self) -> bool:
        return not self.over and self.game.current_player not in self.humans

    def message(self, game: RulesEngine[Any] | None = None, seat: int | None = None) -> dict[str, Any]:
        """What a page is sent: the view of ``game`` (default: the table's) from a person's ``seat`` (default:
        the first person's; :data:`SPECTATOR`: public information only) and the table's own state (version,
        whose move, result, the last notice, why the game was stopped)."""
        with self._lock:
            game = game or self.game
            seat = self.settings.seat if seat is None else seat
            if seat != SPECTATOR and seat not in self.humans:
                raise ValueError(f"seat {seat} is played by a policy; the people sit at {self.humans}")
            labels = ["you" if s == seat else label for s, label in enumerate(self.labels)]
            view = seat_view(game, seat, labels)
            if self.over:
                view["moves"] = []
            person_view(view, game)
            plain_view(view)
            view.update(hand_hints(game, view["game"], view["hand"], view["moves"]))
            view.update(
                mode="play",
                version=self.version,
                waiting=self.bot_to_act(),
                others_turn=not self.over and not self.bot_to_act() and game.current_player != seat,
                over=self.over,
                truncated=any(self.env.truncations.values()),
                failure=self.failure,
                returns=[round(r, 3) for r in self.returns],
                notice=self._notice(seat),
                out=seat == SPECTATOR or is_out(view["players"][seat]["status"]),
                outcome=outcome(self.returns, seat, view["scores"], view["score_name"], view["history"])
                if self.over and seat != SPECTATOR
                else None,
            )
        view["svg"] = table_svg(view)
        return view

    def _notice(self, seat: int) -> str:
        if self.notice_by is None or not self.notice:
            return self.notice
        return f"{'you' if self.notice_by == seat else agent_name(self.notice_by)}: {self.notice}"

    def send(self, seat: int | None = None) -> dict[str, Any]:
        """The current message for ``seat`` (default: the first person's), what a page or the terminal is sent."""
        return self.message(seat=seat)

    # ------------------------------------------------------------------ moves
    def play(self, version: Any, index: Any, seat: int | None = None) -> None:
        """The person at ``seat`` (default: the first) makes move ``index`` of the message with ``version``."""
        seat = self.settings.seat if seat is None else seat
        with self._lock:
            self._check_version(version)
            if self.over or self.game.current_player != seat:
                raise Refused("it is not your turn")
            moves = self.game.legal_moves()
            if type(index) is not int or not 0 <= index < len(moves):
                raise Refused(f"move must be an integer index in 0..{len(moves) - 1}, got {brief(index)}")
            label = seat_view(self.game, seat)["moves"][index]
            for action in self.game.move_actions(moves[index]):
                self._step(action)
            self.notice = f"{move_label(label['label'])} {' '.join(label['cards'])}".strip()
            self.notice_by = seat

    def advance(self, version: Any) -> None:
        """The policy to act makes one complete move (every sub-step of it); a policy that fails ends the game.

        The lock is released while the policy thinks, so the table can still be shown meanwhile."""
        with self._lock:
            self._check_version(version)
            if not self.bot_to_act():
                raise Refused("no policy is to act")
            seat = self.game.current_player
        who = f"policy {self.specs[seat]!r} at {self.env.possible_agents[seat]}"
        try:
            while True:
                with self._lock:
                    observation = self.env.observe(self.env.possible_agents[seat])
                action = ask(self.policies[seat], observation, who, self.settings.move_timeout, self.views.get(seat))
                with self._lock:
                    reason = self.game.illegal_reason(action)
                    if reason is not None:
                        raise PolicyFailed(f"{who} chose the illegal action {action}: {reason}")
                    self._step(action)
                    if self.over or self.game.current_player != seat or not self.game.move_in_progress():
                        self.notice, self.notice_by = "", None
                        return
        except PolicyFailed as failure:
            fresh = self._policy(seat)  # for the rematch: the failed instance may still be running
            with self._lock:
                self.failure = f"the game was stopped: {failure}"
                self.notice, self.notice_by = self.failure, None
                self.policies[seat] = fresh
                self.version += 1

    def rematch(self, version: Any) -> None:
        """Deal a new game (the next seed), once this one has ended."""
        with self._lock:
            self._check_version(version)
            if not self.over:
                raise NotNow("the game is still being played; a rematch can be dealt once it has ended")
            self.deal_seed += 1
            self._new_game()

    def replay_record(self) -> dict[str, Any]:
        """The game so far as a replay file (see :class:`ReplaySession`), every hand in it: the table's server
        hands it out only once the game has ended."""
        return {
            "format": REPLAY_FORMAT,
            "env_id": self.settings.env_id,
            "options": self.settings.options,
            "seed": self.deal_seed,
            "labels": self.labels,
            "actions": list(self.actions),
            "events": self.game.events.events,
        }

    # ------------------------------------------------------------------ internals
    def _policy(self, seat: int) -> Policy:
        return resolve_policy(self.specs[seat], self.context, seed=self.settings.seed * 1_000 + seat)

    def _new_game(self) -> None:
        self.failure = None
        self.env.reset(seed=self.deal_seed)
        for seat, policy in self.policies.items():
            policy.reset(seed=self.deal_seed * 1_000 + seat)
        self.views = seat_policies(self.env, self.policies)
        """The public views of the seats whose policies want one (this game's)."""
        self.returns = [0.0] * len(self.env.possible_agents)
        self.actions: list[int] = []
        self.version += 1
        self.notice, self.notice_by = "", None

    def _check_version(self, version: Any) -> None:
        if type(version) is not int:
            raise Refused(f"version must be an integer, got {brief(version)}")
        if version != self.version:
            raise Refused(f"that move was made on an old view (version {version}, the table is at {self.version})")

    def _step(self, action: int) -> None:
        self.env.step(int(action))
        self.actions.append(int(action))
        for i, agent in enumerate(self.env.possible_agents):
            self.returns[i] += float(self.env.rewards.get(agent, 0.0))
        self.version += 1
        if self.settings.record and (any(self.env.terminations.values()) or any(self.env.truncations.values())):
            self._store_record()

    def _store_record(self) -> None:
        """Write the finished game (every hand, the seed, the action ids, the people's seats) to the record
        folder, one JSON file a game (``experiments.play.dataset`` turns a folder of them into a data set)."""
        folder = Path(self.settings.record)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{self.settings.env_id.split('/')[-1]}-seed{self.deal_seed}-{uuid.uuid4().hex[:8]}.json"
        record = {**self.replay_record(), "humans": self.humans}
        (folder / name).write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")


class ReplaySession:
    """A finished (or partial) game rebuilt from its seed and actions, viewable at each complete move."""

    def __init__(self, record: dict[str, Any]):
        if not isinstance(record, dict) or record.get("format") != REPLAY_FORMAT:
            raise Refused(f"a replay is a JSON object with format {REPLAY_FORMAT!r}")
        missing = [k for k in ("env_id", "seed", "actions") if k not in record]
        if missing:
            raise Refused(f"the replay lacks {', '.join(missing)}")
        options, labels, actions = record.get("options", {}), record.get("labels") or [], record["actions"]
        for name, value, kind in (("options", options, dict), ("labels", labels, list), ("actions", actions, list)):
            if not isinstance(value, kind):
                raise Refused(f"the replay's {name} must be a JSON {kind.__name__}, got {type(value).__name__}")
        self.record = record
        try:
            env = cardenvs.make(record["env_id"], raw=True, **options)
            env.reset(seed=record["seed"])
        except ValueError as error:
            raise Refused(f"the replay's game cannot be set up: {error}") from error
        game = env.game
        assert game is not None
        if labels and (len(labels) != game.num_players or not all(isinstance(x, str) for x in labels)):
            raise Refused(f"the replay's labels must be {game.num_players} strings, one per seat")
        self.labels: Sequence[str] = labels
        self.snapshots = [game.clone()]
        for i, action in enumerate(actions):
            if type(action) is not int or game.is_terminal:
                raise Refused(f"action {i} of the replay ({brief(action)}) cannot be played")
            reason = game.illegal_reason(action)
            if reason is not None:
                raise Refused(f"action {i} of the replay is illegal: {reason}")
            game.apply(action)
            if not game.move_in_progress():
                self.snapshots.append(game.clone())
        self.num_players = game.num_players

    def message(self, step: Any, seat: Any) -> dict[str, Any]:
        """The table after ``step`` complete moves, from ``seat`` (``None``: omniscient)."""
        if type(step) is not int or not 0 <= step < len(self.snapshots):
            raise Refused(f"step must be an integer in 0..{len(self.snapshots) - 1}, got {brief(step)}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.num_players):
            raise Refused(
                f"seat must be null (omniscient) or an integer in 0..{self.num_players - 1}, got {brief(seat)}"
            )
        view = seat_view(self.snapshots[step], seat, self.labels, moves=False)
        person_view(view, self.snapshots[step])
        view.update(mode="replay", step=step, steps=len(self.snapshots))
        plain_view(view)
        view["svg"] = table_svg(view)
        return view


def person_view(view: dict[str, Any], game: RulesEngine[Any]) -> None:
    """Hands by suit in the trick-taking games and each player's side once public (``view`` in place)."""
    view["hand"] = sorted_hand(view["game"], view["hand"])
    for player, side in zip(view["players"], teams(game, view["seat"]), strict=True):
        player["hand"] = sorted_hand(view["game"], player["hand"])
        player["team"] = side


def brief(value: Any) -> str:
    """``value`` as written in a message, at most 40 characters (a request may hold anything)."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long to write
        text = "an integer of thousands of digits"
    return text if len(text) <= 40 else text[:39] + "…"


def random_index(moves: Sequence[Any], rng: np.random.Generator) -> int:
    """A uniformly random move index (tests and demos play the person's seat with it)."""
    return int(rng.integers(len(moves)))
