"""Rollouts of whole moves for :mod:`experiments.research.rollout_improvement` in Zheng Shang You, whose plays take
several sub-step actions (shape, top, one pick per card), so one action id is not one move.

The base player (the rule bot, or an improved agent for a later step of policy iteration) plays every seat. At the
start of each lead or follow with two or more legal moves (the pass included), the base's own move and up to
``sample - 1`` others drawn at random are each played on a clone of the true state, and the deal is played out by the
base at every seat; the seat's return after each move minus its return after the base's move is that move's
advantage in this world (neither draws anything at random, so a move that changes nothing has advantage exactly 0).
A lead can have hundreds of legal plays; the sample bounds the cost, and the fit sees every kind of move across many
decisions.

Shards are pickle-free ``moves_seed<seed>.npz``: one raw observation per decision, one row of
:func:`agents.learned.zsy_advantage.move_inputs`'s tail (move features and :data:`~agents.learned.zsy_advantage.AFTER`)
per evaluated move, with its decision and advantage.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.bots.zheng_shang_you import FOLLOW, LEAD, ZsyRuleBot
from cardenvs.agents.learned.zsy_advantage import after_features, legal_moves
from cardenvs.agents.learned.zsy_context import GROUPS, shard_context
from cardenvs.agents.specs import make_policy
from cardenvs.core.engine import RulesEngine
from cardenvs.experiments.research.playout import play_out, seated
from cardenvs.experiments.research.rollout_data import check_joinable, load_shard, save_shard
from cardenvs.zheng_shang_you.actions import move_actions_from_start
from cardenvs.zheng_shang_you.features import moves_features

GAMES = ("zheng_shang_you",)
"""Games whose rollouts are collected move by move."""
SAMPLE = 24
"""Moves evaluated at most per decision (the bot's own among them)."""
SHARD_PREFIX = "moves_seed"


@dataclass
class MoveRollouts:
    """Decisions of the base bot with some legal moves' advantages in the world each decision was made in."""

    observations: np.ndarray
    """``(decisions, obs)`` float16 raw observation of the deciding seat."""
    moves: np.ndarray
    """``(rows, tail)`` float16: each evaluated move's features and the features of the hand it leaves."""
    decision: np.ndarray
    """Row index of each move's decision."""
    advantages: np.ndarray
    """Return after the move minus return after the bot's move, float32."""
    base: np.ndarray
    """``(decisions,)``: the row of the bot's own move."""
    rounds: int
    game: str
    options: dict[str, Any]
    policy: str = ""
    """The base policy's spec (every seat's at the table, the mover's in the rollouts); empty: the rule bot."""
    opponents: str = ""
    """The spec the other seats play in the rollouts; empty: the base policy."""

    def __len__(self) -> int:
        return len(self.observations)

    def save(self, path: Path) -> Path:
        """Write the rows as ``.npz`` (no pickle; the game and options as a JSON header)."""
        return save_shard(path, self, _ROWS)

    @classmethod
    def load(cls, path: Path) -> MoveRollouts:
        """Read a shard written by :meth:`save` (no pickle)."""
        return cls(**load_shard(path, _ROWS))

    @classmethod
    def concatenate(cls, parts: Sequence[MoveRollouts]) -> MoveRollouts:
        """One set of the rows of ``parts`` (all of one game, options and base policy), decision and base rows
        renumbered."""
        check_joinable(parts)
        decisions = np.cumsum([0] + [len(p) for p in parts])
        rows = np.cumsum([0] + [len(p.moves) for p in parts])
        return cls(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.moves for p in parts]),
            np.concatenate([p.decision + d for p, d in zip(parts, decisions, strict=False)]),
            np.concatenate([p.advantages for p in parts]),
            np.concatenate([p.base + r for p, r in zip(parts, rows, strict=False)]),
            sum(p.rounds for p in parts),
            parts[0].game,
            parts[0].options,
            parts[0].policy,
            parts[0].opponents,
        )


_ROWS = ("observations", "moves", "decision", "advantages", "base")


def load_move_rollouts(folder: Path, groups: Sequence[str] = (), workers: int = 1) -> list[MoveRollouts]:
    """Every ``moves_seed*.npz`` shard of ``folder``, by seed; each move's row ends with the features of the situation
    ``groups`` (:data:`~agents.learned.zsy_context.GROUPS`), computed by ``workers`` processes the first time, then
    read from ``moves_seed<N>.<group>.npy`` beside the shard."""
    paths = sorted(folder.glob(f"{SHARD_PREFIX}*.npz"), key=lambda p: int(p.stem.removeprefix(SHARD_PREFIX)))
    if not paths:
        raise FileNotFoundError(f"no {SHARD_PREFIX}*.npz in {folder}: run the collect command into it first")
    shards = [MoveRollouts.load(p) for p in paths]
    for group in groups:
        missing = [(p, group) for p, shard in zip(paths, shards, strict=True) if not _group_fits(p, shard, group)]
        if missing:  # no processes to start when every shard's rows are kept
            with Pool(workers) as pool:  # each shard's rows are kept as soon as they are done: a stopped run resumes
                pool.starmap(keep_shard_group, missing, chunksize=1)
        for path, shard in zip(paths, shards, strict=True):
            kept = np.load(group_path(path, group), allow_pickle=False)
            shard.moves = np.concatenate([shard.moves, kept], axis=1)
    return shards


def group_path(shard: Path, group: str) -> Path:
    """Where a shard's rows of the situation ``group`` (:data:`~agents.learned.zsy_context.GROUPS`) are kept."""
    return shard.with_suffix(f".{group}.npy")


def keep_shard_group(path: Path, group: str) -> None:
    """Compute the shard's rows of ``group`` and write them to :func:`group_path` (through a temporary file, so a
    stopped run leaves either the whole rows or none)."""
    kept = group_path(path, group)
    partial = kept.with_name(kept.name + ".partial")
    with partial.open("wb") as f:
        np.save(f, shard_group_of(path, group), allow_pickle=False)
    partial.replace(kept)


def shard_group_of(path: Path, group: str) -> np.ndarray:
    """The float16 rows of the situation ``group`` for the shard at ``path``, one per move."""
    shard = MoveRollouts.load(path)
    context = PolicyContext.from_env(cardenvs.make(shard.game, **shard.options))
    rules = context.options.combo_rules
    rows = shard_context(shard.observations, shard.moves, shard.decision, context.layout, rules, group)
    return rows.astype(np.float16)


def _group_fits(path: Path, shard: MoveRollouts, group: str) -> bool:
    kept = group_path(path, group)
    if not kept.exists():
        return False
    rows = np.load(kept, mmap_mode="r", allow_pickle=False)
    return rows.shape == (len(shard.moves), len(GROUPS[group][0]))


def play_move(world: RulesEngine[Any], move: Hashable, leading: bool, seat: int) -> float:
    """Apply every sub-step of ``move`` to ``world``; the reward ``seat`` was paid meanwhile."""
    paid_total = 0.0
    for action in move_actions_from_start(move, leading):  # type: ignore[arg-type]
        world.apply(action)
        paid = world.take_rewards()
        if paid is not None:
            paid_total += float(paid[seat])
    return paid_total


def collect_moves(
    game: str,
    options: dict[str, Any],
    rounds: int,
    seed: int,
    sample: int = SAMPLE,
    base: str = "",
    opponents: str = "",
) -> MoveRollouts:
    """``rounds`` deals of ``base`` (a policy spec; empty: the rule bot) at every seat, each lead and follow with two
    or more legal moves evaluated (see the module docstring); with ``opponents``, the other seats play that spec in
    the rollouts."""
    env = cardenvs.make(game, **options)
    env.reset(seed=seed)
    context = PolicyContext.from_env(env)
    seats = env.unwrapped.game.num_players
    players = [_base_player(base, context, seed + seat) for seat in range(seats)]
    rollers = [_base_player(base, context, seed + 100 + seat) for seat in range(seats)]
    others = [make_policy(opponents, context, seed + 200 + seat) for seat in range(seats)] if opponents else rollers
    observations: list[np.ndarray] = []
    tails: list[np.ndarray] = []
    decisions: list[np.ndarray] = []
    advantages: list[np.ndarray] = []
    bases: list[int] = []
    rows = 0
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        env.reset(seed=int(rng.integers(2**31)))
        table = env.unwrapped.game
        table.take_rewards()
        for bot in players:
            bot.reset()
        while not table.is_terminal:
            seat, mask = table.current_player, table.legal_mask()
            vector = table.observation(seat)
            observation = {"observation": vector, "action_mask": mask}
            mover = players[seat]
            fresh = not (mover.plan and mask[mover.plan[0]])
            action = mover.act(observation)
            phase = int(np.argmax(mover.view(observation, "phase")))
            if fresh and phase in (LEAD, FOLLOW):
                hand = [int(p) for p in np.flatnonzero(mover.view(observation, "hand"))]
                moves = legal_moves(mover, observation, hand, phase == LEAD)
                if len(moves) > 1:
                    own = _base_move(mover, moves, action, phase == LEAD)
                    picked = _sample(moves, own, sample, rng)
                    bots = seated(rollers, others, seat)
                    returns = np.array([_return_after(table, move, phase == LEAD, seat, bots) for move in picked])
                    observations.append(vector.astype(np.float16))
                    tails.append(
                        np.concatenate([moves_features(picked), after_features(hand, picked)], axis=1).astype(
                            np.float16
                        )
                    )
                    decisions.append(np.full(len(picked), len(observations) - 1))
                    advantages.append((returns - returns[0]).astype(np.float32))
                    bases.append(rows)
                    rows += len(picked)
            table.apply(action)
            table.take_rewards()
    return MoveRollouts(
        np.asarray(observations),
        np.concatenate(tails),
        np.concatenate(decisions),
        np.concatenate(advantages),
        np.asarray(bases, dtype=np.int64),
        rounds,
        game,
        options,
        base,
        opponents,
    )


def _base_player(base: str, context: PolicyContext, seed: int) -> ZsyRuleBot:
    """The rule bot, or the player of ``base``, which must build on it (its moves are read off its plan)."""
    if not base:
        return ZsyRuleBot(context, seed)
    player = make_policy(base, context, seed)
    if not isinstance(player, ZsyRuleBot):
        raise ValueError(f"moves are rolled out with the rule bot or an agent built on it, not {base} ({player.name})")
    return player


def _base_move(bot: ZsyRuleBot, moves: list[Hashable], action: int, leading: bool) -> Hashable:
    """The move the base started with ``action`` (its plan holds the rest of the sub-steps)."""
    planned = [action, *bot.plan]
    for move in moves:
        if move_actions_from_start(move, leading) == planned:  # type: ignore[arg-type]
            return move
    raise RuntimeError(f"the base player's actions {planned} are not one of the legal moves")


def _sample(moves: list[Hashable], base: Hashable, sample: int, rng: np.random.Generator) -> list[Hashable]:
    """``base`` first, then up to ``sample - 1`` other moves drawn without replacement."""
    others = [m for m in moves if m != base]
    if len(others) > sample - 1:
        others = [others[i] for i in sorted(rng.choice(len(others), sample - 1, replace=False))]
    return [base, *others]


def _return_after(table: RulesEngine[Any], move: Hashable, leading: bool, seat: int, bots: Sequence[Policy]) -> float:
    """``seat``'s return to the end of the deal after playing ``move`` on a clone of ``table``, the bots on."""
    for bot in bots:
        bot.reset()
    world = table.clone()
    paid = play_move(world, move, leading, seat)
    return paid + float(play_out(world, bots)[seat])
