"""What a training run of :mod:`experiments.train` depends on: :class:`TrainArgs` (the TOML configs set its fields,
the command line overrides them) and :func:`check_args`, the checks every run makes before anything is built."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.registry import policy_names
from cardenvs.agents.specs import make_policy
from cardenvs.experiments.people_data import check_teacher
from cardenvs.experiments.ppo_settings import PPOSettings
from cardenvs.registry import definition, game_name, make_raw


@dataclass
class TrainArgs(PPOSettings):
    """Everything a run depends on (with the :class:`PPOSettings`); the TOML configs set these fields, the command
    line overrides them."""

    game: str = "verish_ne_verish-v0"
    options: dict[str, Any] = field(default_factory=dict)
    """Game options, e.g. ``{num_players = 4}``."""
    total_steps: int = 200_000
    """Learner decisions to train for (in total, when resuming)."""
    seed: int = 0
    n_envs: int = 8
    vec_env: str = "dummy"
    """``dummy`` (one process) or ``subproc`` (one process per env)."""
    torch_threads: int = 1
    # MaskablePPO
    n_steps: int = 256
    batch_size: int = 512
    n_epochs: int = 4
    lr_final: float | None = None
    """If set, the learning rate falls linearly from ``learning_rate`` to this over the run (or resumed phase)."""
    # warm start
    imitate: str = ""
    """A registered policy (e.g. ``kyuuri/thrifty``) the network copies before PPO starts; ``""``: none."""
    imitate_decisions: int = 200_000
    """Teacher decisions recorded at the learner's seat for the warm start."""
    imitate_epochs: int = 10
    imitate_rounds: int = 0
    """DAgger rounds after the first fit: the network plays the seat, the teacher labels its decisions, and the
    network is refit on all the decisions so far."""
    imitate_round_decisions: int = 500_000
    imitate_round_epochs: int = 2
    imitate_workers: int = 1
    """Processes that record the decisions (each with its share; the critic fit of ``init_from`` too)."""
    # fine-tuning a pickle-free actor (experiments/fine_tune.py)
    init_from: str = ""
    """An actor PPO starts from: ``zoo:<game>/<name>``, ``ckpt:PATH.npz`` or ``PATH.npz``; ``""``: none."""
    init_value_decisions: int = 100_000
    """Decisions of the initial actor's own play that its fresh critic is fitted on before PPO."""
    init_value_epochs: int = 3
    # opponents
    opponents: dict[str, float] = field(default_factory=lambda: {"random": 1.0})
    """Fixed pool entries: policy spec (a registered name, ``path/to/file.py:Name?p=0.3``, ``ckpt:…``; see
    :mod:`agents.specs`) → weight."""
    snapshot_every: int = 50_000
    """Add a frozen copy of the learner to the pool every this many steps (0: never)."""
    snapshot_share: float = 0.3
    snapshot_recent: int = 5
    seat: int | None = None
    """The learner's seat, or ``None`` for a random seat each episode."""
    # outputs
    out: str = ""
    """Run folder; default ``runs/train/<game>/seed<seed>``."""
    checkpoint_every: int = 50_000
    resume: str = ""
    """A ``checkpoints/step_N.zip`` (or ``final.zip``) to continue from; its run folder is reused."""
    progress: bool = True
    tensorboard: bool = True

    @property
    def game_name(self) -> str:
        return game_name(self.game)

    def run_dir(self) -> Path:
        if self.resume and not self.out:
            checkpoint = Path(self.resume)
            return checkpoint.parent.parent if checkpoint.parent.name == "checkpoints" else checkpoint.parent
        return Path(self.out or Path("runs", "train", self.game_name, f"seed{self.seed}"))


def check_args(args: TrainArgs) -> None:
    definition(args.game)  # raises on an unknown id, listing the known ones
    known = policy_names(args.game)
    context = PolicyContext.from_env(make_raw(args.game, **args.options))
    for spec in args.opponents:  # fails with the spec's own message, naming the accepted forms
        make_policy(spec, context, seed=0)
    if args.init_from and (args.imitate or args.resume):
        raise ValueError(
            f"init_from {args.init_from!r} starts from an actor's weights, so it cannot be combined with "
            f"{'imitate ' + repr(args.imitate) if args.imitate else 'resume ' + repr(args.resume)}; clear that one "
            "(a game config's teacher with --imitate '')"
        )
    check_teacher(args.imitate, args.game, args.options, args.imitate_rounds, known, context)
    if args.vec_env not in ("dummy", "subproc"):
        raise ValueError(f"vec_env must be 'dummy' or 'subproc', got {args.vec_env!r}")
    if args.activation not in ("tanh", "relu"):
        raise ValueError(f"activation must be 'tanh' or 'relu', got {args.activation!r}")
    if (args.n_steps * args.n_envs) % args.batch_size:
        raise ValueError(f"batch_size {args.batch_size} must divide n_steps × n_envs = {args.n_steps * args.n_envs}")
