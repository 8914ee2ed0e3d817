"""The settings of a fast-path run: the learner's (PPO's or Deep Monte-Carlo's), the batch's, the population's; read
from TOML, checked before anything is built."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from cardenvs.experiments.ppo_settings import PPOSettings
from cardenvs.registry import definition, game_name
from cardenvs.vector import fast_game_ids

CONFIGS = Path(__file__).parent / "configs"
SELF = "self"
"""Population entry: every seat of the game is the learner (all its decisions are trained on)."""
SNAPSHOTS = "snapshots"
"""Population entry: the learner's own past snapshots play the other seats."""
RANDOM = "random"
"""Population entry: uniformly random legal play at the other seats."""
ZOO_PREFIX = "zoo:"
ALGORITHMS = ("ppo", "dmc")


@dataclass
class FastTrainArgs(PPOSettings):
    """Everything a run depends on (with the :class:`PPOSettings`): the configs set these fields, flags override."""

    algorithm: str = "ppo"
    """The learner: ``ppo`` (masked PPO, :mod:`.ppo`) or ``dmc`` (Deep Monte-Carlo on action values, :mod:`.dmc`,
    which reads ``learning_rate``, ``net_arch``, ``activation``, ``reward_scale``, ``minibatch_size``, ``n_epochs``,
    ``max_grad_norm`` and ``epsilon`` and ignores PPO's other settings)."""
    epsilon: float = 0.05
    """``dmc``: the share of the learner's decisions (and its snapshots') played uniformly at random."""
    game: str = "verish_ne_verish-v0"
    options: dict[str, Any] = field(default_factory=dict)
    """Options of the game's fast class (those of the Python env, e.g. ``{num_players = 4}``)."""
    total_steps: int = 1_000_000
    """Learner decisions to train on, in total (a resumed run counts those before it)."""
    seed: int = 0
    num_games: int = 256
    """Games stepped together (the batch of every env step)."""
    rollout_steps: int = 64
    """Env steps per rollout: a rollout holds ``num_games × rollout_steps`` decisions, some the learner's."""
    minibatch_size: int = 2048
    n_epochs: int = 4
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    lr_final: float | None = None
    """If set, the learning rate falls linearly from ``learning_rate`` to this over ``total_steps``."""
    population: dict[str, float] = field(default_factory=lambda: {SELF: 1.0})
    """Who plays the games, by share of the batch: ``self`` (the learner at every seat), ``snapshots`` (its past
    snapshots at the other seats), ``random``, a fast rule bot (``<game>/<bot>`` of ``agents.fast_bots``) or a zoo
    actor (``zoo:<game>/<name>``). Outside ``self`` the learner holds one seat, drawn afresh every deal."""
    snapshot_every: int = 100_000
    """Learner decisions between two snapshots of the learner into the population."""
    snapshot_recent: int = 4
    """How many of the newest snapshots play (each on an equal part of the ``snapshots`` games)."""
    checkpoint_every: int = 200_000
    max_minutes: float = 0.0
    """Stop after this many minutes of training (the compile not counted) with the final checkpoint written, even
    short of ``total_steps``; 0: no time limit."""
    out: str = ""
    """Run folder; default ``runs/train_fast/<game>/seed<seed>``."""
    init_from: str = ""
    """Start the actor from a trained one: ``zoo:<game>/<name>`` or an actor ``.npz`` (same layout, net_arch and
    activation); the critic and the optimizer start fresh. Ignored on ``resume``."""
    resume: bool = False
    """Continue from the newest checkpoint in the run folder (its settings from its ``args.json``)."""
    tensorboard: bool = True
    progress: bool = True

    def run_dir(self) -> Path:
        return Path(self.out or Path("runs", "train_fast", game_name(self.game), f"seed{self.seed}"))


def check_args(args: FastTrainArgs) -> None:
    """Raise ``ValueError`` naming the setting and what is valid, for anything a run cannot use."""
    env_id = definition(args.game).env_id  # raises on an unknown id, listing the known ones
    if not definition(env_id).fast:
        raise ValueError(f"{env_id} has no JAX fast path; those that do: {', '.join(sorted(fast_game_ids()))}")
    positive = ("total_steps", "num_games", "rollout_steps", "minibatch_size", "n_epochs", "snapshot_recent")
    for name in positive:
        value = getattr(args, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
    if (args.num_games * args.rollout_steps) % args.minibatch_size:
        raise ValueError(
            f"minibatch_size {args.minibatch_size} must divide num_games × rollout_steps = "
            f"{args.num_games * args.rollout_steps}"
        )
    if not isinstance(args.max_minutes, int | float) or isinstance(args.max_minutes, bool) or args.max_minutes < 0:
        raise ValueError(f"max_minutes must be a number of minutes ≥ 0 (0: no limit), got {args.max_minutes!r}")
    if args.activation not in ("tanh", "relu"):
        raise ValueError(f"activation must be 'tanh' or 'relu', got {args.activation!r}")
    if not args.net_arch or any(not isinstance(n, int) or n < 1 for n in args.net_arch):
        raise ValueError(f"net_arch must be a list of layer widths (whole numbers ≥ 1), got {args.net_arch!r}")
    if not args.population or any(not isinstance(w, int | float) or w < 0 for w in args.population.values()):
        raise ValueError(f"population must map entries to shares ≥ 0, got {args.population!r}")
    if sum(args.population.values()) <= 0:
        raise ValueError(f"population shares must not all be 0, got {args.population!r}")
    members = [name for name, share in args.population.items() if share > 0]
    if len(members) > args.num_games:
        raise ValueError(f"num_games {args.num_games} is fewer than the population's {len(members)} entries")
    for name in members:
        check_member_name(name, game_name(env_id))
    check_learner(args)


def check_learner(args: FastTrainArgs) -> None:
    """Refuse an unknown learner or a setting it cannot use."""
    if args.algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {args.algorithm!r}")
    if isinstance(args.epsilon, bool) or not isinstance(args.epsilon, int | float) or not 0 <= args.epsilon <= 1:
        raise ValueError(f"epsilon must be a number from 0 to 1, got {args.epsilon!r}")
    if args.algorithm == "dmc" and args.init_from:
        raise ValueError("init_from starts a PPO actor; algorithm 'dmc' learns action values and starts fresh")


def check_member_name(name: str, game: str) -> None:
    """Refuse a population entry of the wrong form, listing the forms (whether it exists is checked on build)."""
    if name in (SELF, SNAPSHOTS, RANDOM):
        return
    bare = name.removeprefix(ZOO_PREFIX)
    if bare.split("/")[0] == game and bare.count("/") == 1 and bare.split("/")[1]:
        return
    raise ValueError(
        f"population entry {name!r} is not one of {SELF!r}, {SNAPSHOTS!r}, {RANDOM!r}, a fast rule bot "
        f"'{game}/<bot>' or a zoo agent 'zoo:{game}/<name>'"
    )


def load_toml(path: Path) -> dict[str, Any]:
    """A TOML file's settings, with an error that names the file and the problem."""
    try:
        return tomllib.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"cannot read config {path}: {error}") from error
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"config {path} is not valid TOML: {error}") from error


def default_config(game: str) -> dict[str, Any]:
    """The game's config (``experiments/train_fast/configs/<game>.toml``), or ``{}`` if it has none."""
    path = CONFIGS / f"{game_name(game)}.toml"
    return load_toml(path) if path.exists() else {}


def make_args(values: dict[str, Any]) -> FastTrainArgs:
    """:class:`FastTrainArgs` of ``values``, refusing unknown keys by name."""
    known = {f.name for f in fields(FastTrainArgs)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"unknown settings {unknown}; valid: {sorted(known)}")
    return FastTrainArgs(**values)
