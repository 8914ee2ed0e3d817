"""Multi-agent self-play PPO on a Ray cluster (RLlib's new API stack), with action masking.

    python -m cardenvs.experiments.train_rllib --game kyuuri-v0 --iterations 20                    # a local Ray, 2 CPUs
    python -m cardenvs.experiments.train_rllib --game kyuuri-v0 --address auto --num-env-runners 8   # a running cluster
    python -m cardenvs.experiments.train_rllib --game zheng_shang_you-v0 --option team_mode='"partners"' --policies team

Every seat is an RLlib agent of :class:`cardenvs.wrappers.rllib.RLlibEnv`, played by RLlib's
``ActionMaskingTorchRLModule`` (PPO's default MLP with the illegal actions' logits masked out). ``--policies
shared`` (default) trains one module for every seat; ``--policies team`` one per side, for games whose options
fix the sides for the whole episode (Zheng Shang You's 2 v 2 and 3 v 3). Goninkan's and Yoninkan's 関係 sides are
dealt by the cards each round, while RLlib fixes an agent's module when the agent first appears in an episode,
so those games train one shared module (which reads its side from the observation).

Without ``--address`` (and unless Ray already runs in the process) the command starts a small local Ray
(``--num-cpus`` CPUs, 2 by default; no dashboard; a 100 MB object store) with one CPU for each env runner (0
runners: sampling in the driver); ``--envs-per-runner`` steps several games per runner in one batch (far faster
than one: each step is a forward pass of the module). Outputs go to ``--out``
(default ``runs/rllib/<game>/seed<seed>``): ``args.json``, ``progress.jsonl`` (one line per iteration),
RLlib checkpoints ``checkpoints/iter_N/`` (for RLlib; they are pickles: restore only your own) and, beside each,
``iter_N/<module>.npz``: the actor converted into the project's NumPy format, which plays anywhere as
``ckpt:runs/rllib/<game>/seed0/final/shared.npz`` (tournaments, the zoo, the play page) without torch or Ray.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.agents.learned.weights import ACTIVATIONS, ActorWeights, UntrustedCheckpointError
from cardenvs.agents.tournament.hooks import hooks_for
from cardenvs.experiments.ppo_settings import PPOSettings
from cardenvs.experiments.train import load_config, parse_value
from cardenvs.registry import definition, game_name, make_raw

POLICY_MODES = ("shared", "team")
CONFIG_KEYS = ("options", "net_arch", "activation", "reward_scale", "gamma", "gae_lambda", "ent_coef", "clip_range")
"""Settings read from the game's ``experiments/configs/<game>.toml`` (shared with ``experiments.train``)."""


@dataclass
class RLlibArgs(PPOSettings):
    """Everything a run depends on (with the :class:`PPOSettings`, here with a 256×256 network by default); the
    game's config file sets :data:`CONFIG_KEYS`, flags override."""

    game: str = "kyuuri-v0"
    options: dict[str, Any] = field(default_factory=dict)
    policies: str = "shared"
    """``shared``: one module for every seat; ``team``: one per side (games with fixed sides only)."""
    iterations: int = 20
    seed: int = 0
    address: str | None = None
    """A Ray cluster to join (``auto``: the one this machine belongs to); ``None`` starts a local Ray."""
    num_cpus: int = 2
    """CPUs of the local Ray (ignored with ``address``)."""
    num_env_runners: int = 1
    envs_per_runner: int = 1
    train_batch_size: int = 4000
    minibatch_size: int = 500
    num_epochs: int = 4
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    checkpoint_every: int = 10
    """Write a checkpoint every this many iterations (0: only the final one)."""
    out: str = ""

    def run_dir(self) -> Path:
        return Path(self.out or Path("runs", "rllib", game_name(self.game), f"seed{self.seed}"))


def module_of_seat(args: RLlibArgs) -> list[str]:
    """The module that plays each seat: ``shared``, or ``team_<k>`` for the k-th of the sides the options fix."""
    env = make_raw(args.game, **args.options)
    n = len(env.possible_agents)
    if args.policies == "shared":
        return ["shared"] * n
    groups = hooks_for(args.game).partners(env.options, n)
    if not groups:
        raise ValueError(
            f"--policies team needs sides fixed for the whole episode; {args.game} {args.options} has none "
            "(every player for themself, or sides dealt by the cards as in Goninkan and Yoninkan): use "
            "--policies shared, or a team option such as Zheng Shang You's team_mode"
        )
    side = {seat: k for k, group in enumerate(groups) for seat in group}
    return [f"team_{side[s]}" for s in range(n)]


def check_args(args: RLlibArgs) -> None:
    definition(args.game)  # an unknown id raises, listing the known ones
    if args.policies not in POLICY_MODES:
        raise ValueError(f"policies must be one of {POLICY_MODES}, got {args.policies!r}")
    if args.activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, got {args.activation!r}")
    for name in ("iterations", "num_cpus", "envs_per_runner", "train_batch_size", "minibatch_size", "num_epochs"):
        if getattr(args, name) < 1:
            raise ValueError(f"{name} must be at least 1, got {getattr(args, name)}")
    if args.num_env_runners < 0:
        raise ValueError(f"num_env_runners must be 0 (sample in the driver) or more, got {args.num_env_runners}")
    if args.address is None and args.num_env_runners > args.num_cpus:
        raise ValueError(f"{args.num_env_runners} env runners need as many CPUs; the local Ray has {args.num_cpus}")
    module_of_seat(args)


def build_config(args: RLlibArgs) -> Any:
    """RLlib's ``PPOConfig`` for ``args``: one masking module per entry of :func:`module_of_seat`."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from cardenvs.wrappers.rllib import RLlibEnv

    seats = module_of_seat(args)
    agents = make_raw(args.game, **args.options).possible_agents
    mapping = dict(zip(agents, seats, strict=True))
    model = {"fcnet_hiddens": list(args.net_arch), "fcnet_activation": args.activation, "head_fcnet_hiddens": []}
    specs = {m: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model) for m in set(seats)}
    return (
        PPOConfig()
        .environment(RLlibEnv, env_config={"game": args.game, "reward_scale": args.reward_scale, **args.options})
        .multi_agent(policies=set(seats), policy_mapping_fn=SeatModules(mapping))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.envs_per_runner)
        .training(
            train_batch_size_per_learner=args.train_batch_size,
            minibatch_size=args.minibatch_size,
            num_epochs=args.num_epochs,
            lr=args.learning_rate,
            gamma=args.gamma,
            lambda_=args.gae_lambda,
            entropy_coeff=args.ent_coef,
            clip_param=args.clip_range,
        )
        .debugging(seed=args.seed)
    )


@dataclass(frozen=True)
class SeatModules:
    """RLlib's ``policy_mapping_fn``: agent name → module id (a picklable callable for the env runners)."""

    modules: Mapping[str, str]

    def __call__(self, agent_id: Any, episode: Any, **_kwargs: Any) -> str:
        return self.modules[agent_id]


def actor_weights(
    state: Mapping[str, Any], activation: str, obs_scale: np.ndarray, meta: dict[str, Any]
) -> ActorWeights:
    """The actor of a PPO module's state (NumPy arrays by name, as ``get_state()`` gives them: the actor's MLP
    encoder, then the ``pi`` head) as :class:`ActorWeights`."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"the NumPy actor computes {ACTIVATIONS} activations, this module uses {activation!r}")
    arrays = {name: np.asarray(value, dtype=np.float32) for name, value in state.items()}

    def linears(prefix: str) -> list[tuple[np.ndarray, np.ndarray]]:
        layers = sorted({int(k[len(prefix) :].split(".")[0]) for k in arrays if k.startswith(prefix)})
        return [(arrays[f"{prefix}{i}.weight"], arrays[f"{prefix}{i}.bias"]) for i in layers]

    # the actor's own encoder, or the one it shares with the value function (vf_share_layers=True)
    hidden = linears("encoder.actor_encoder.net.mlp.") or linears("encoder.encoder.net.mlp.")
    head = linears("pi.net.mlp.")
    if not hidden or len(head) != 1:
        raise ValueError(
            f"expected an MLP encoder and a one-layer pi head (head_fcnet_hiddens=[]), found {len(hidden)} "
            f"encoder and {len(head)} head layers in {sorted(arrays)}"
        )
    return ActorWeights(tuple(hidden), head[0], activation, obs_scale.astype(np.float32), meta)


def export_modules(algo: Any, args: RLlibArgs, folder: Path, steps: int) -> list[Path]:
    """Write each module's actor as ``folder/<module>.npz`` (see :func:`actor_weights`)."""
    modules = {m: algo.get_module(m) for m in sorted(set(module_of_seat(args)))}
    return write_actors(modules, args.game, args.options, folder, {"steps": steps})


def write_actors(
    modules: Mapping[str, Any], game: str, options: dict[str, Any], folder: Path, meta: dict[str, Any]
) -> list[Path]:
    """``folder/<module id>.npz`` for each PPO module, with the observation scale of :class:`RLlibEnv` on ``game``."""
    from cardenvs.wrappers.rllib import RLlibEnv

    scale = RLlibEnv(env=make_raw(game, **options)).scale
    meta = {"env_id": definition(game).env_id, "options": options, "trainer": "rllib", **meta}
    written = []
    for module_id, module in modules.items():
        activation = _model_setting(module, "fcnet_activation")
        weights = actor_weights(module.get_state(), activation, scale, {**meta, "module": module_id})
        written.append(weights.save(folder / f"{module_id}.npz"))
    return written


def _model_setting(module: Any, name: str) -> Any:
    """A setting of a module's model config (a dict of overrides, or RLlib's ``DefaultModelConfig``)."""
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    config = module.model_config
    if isinstance(config, Mapping) or config is None:
        return (config or {}).get(name, getattr(DefaultModelConfig(), name))
    return getattr(config, name)


def convert_checkpoint(folder: Path, game: str, options: dict[str, Any], trust: bool) -> list[Path]:
    """Write the ``.npz`` actor of every module of an RLlib checkpoint folder (an ``iter_N/`` or ``final/`` of
    this command, or any PPO checkpoint of RLlib's default MLP) beside its files. RLlib stores the modules as
    pickles, which can run code when read: only with ``trust``."""
    if not trust:
        raise UntrustedCheckpointError(
            f"{folder} is an RLlib checkpoint: reading its modules unpickles Python objects, which can run arbitrary "
            "code; pass --trust only if you trust where it came from"
        )
    root = folder / "learner_group" / "learner" / "rl_module"
    if not (folder / "rllib_checkpoint.json").is_file() or not root.is_dir():
        raise ValueError(f"{folder} is not an RLlib algorithm checkpoint (no rllib_checkpoint.json and {root})")
    from ray.rllib.core.rl_module.rl_module import RLModule

    modules = {path.name: RLModule.from_checkpoint(path) for path in sorted(root.iterdir()) if path.is_dir()}
    return write_actors(modules, game, options, folder, {"from": str(folder)})


def start_ray(args: RLlibArgs) -> None:
    """Join ``args.address``, or start a local Ray that stays small (the machine may be shared)."""
    import ray

    if args.address is not None:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(
            num_cpus=args.num_cpus,
            include_dashboard=False,
            object_store_memory=100 * 1024**2,
            log_to_driver=False,
            configure_logging=False,
        )


def train(args: RLlibArgs) -> Path:
    """Train as ``args`` say; returns the folder of the final checkpoint (its ``<module>.npz`` play in tournaments)."""
    check_args(args)
    import ray

    out = args.run_dir()
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(asdict(args), indent=2) + "\n")
    own_ray = not ray.is_initialized()  # a caller's Ray session (a notebook, the tests) is used and left running
    if own_ray:
        start_ray(args)
    try:
        algo = build_config(args).build_algo()
        start, steps = time.perf_counter(), 0
        with (out / "progress.jsonl").open("w") as log:
            for iteration in range(1, args.iterations + 1):
                result = algo.train()
                runners = result["env_runners"]
                steps = int(runners["num_env_steps_sampled_lifetime"])
                row = {
                    "iteration": iteration,
                    "env_steps": steps,
                    "seconds": round(time.perf_counter() - start, 2),
                    "episodes": int(runners.get("num_episodes_lifetime", 0)),
                    "episode_len_mean": runners.get("episode_len_mean"),
                }
                log.write(json.dumps(row) + "\n")
                log.flush()
                print(f"iteration {iteration}: {steps} env steps, {row['seconds']} s", flush=True)
                if args.checkpoint_every and iteration % args.checkpoint_every == 0 and iteration < args.iterations:
                    save(algo, args, out / "checkpoints" / f"iter_{iteration}", steps)
        seconds = time.perf_counter() - start
        final = save(algo, args, out / "final", steps)
        print(f"{steps} env steps in {seconds:.0f} s ({steps / max(seconds, 1e-9):.0f} steps/s); final {final}")
        algo.stop()
    finally:
        if own_ray:
            ray.shutdown()
    return final


def save(algo: Any, args: RLlibArgs, folder: Path, steps: int) -> Path:
    """RLlib's checkpoint in ``folder`` and the NumPy actors beside its files."""
    algo.save_to_path(str(folder.resolve()))
    for path in export_modules(algo, args, folder, steps):
        print(f"  plays as ckpt:{path}")
    return folder


def build_args(argv: list[str] | None = None) -> RLlibArgs:
    """Defaults < the game's config file (:data:`CONFIG_KEYS`) < flags < ``--option`` game options."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default=RLlibArgs.game)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option (TOML value)")
    p.add_argument("--net-arch", type=lambda s: [int(x) for x in s.split(",")], help="hidden sizes, e.g. 256,256")
    for name, value in asdict(RLlibArgs()).items():
        if name not in ("game", "options", "net_arch"):
            p.add_argument("--" + name.replace("_", "-"), type=parse_value if value is not None else str)
    ns = p.parse_args(argv)
    config = load_config(ns.game)
    values: dict[str, Any] = {k: config[k] for k in CONFIG_KEYS if k in config}
    values.update({k: v for k, v in vars(ns).items() if v is not None and k != "option"})
    for item in ns.option:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"expected --option KEY=VALUE, got {item!r}")
        values["options"] = {**values.get("options", {}), key: parse_value(value)}
    return RLlibArgs(**values)


def main(argv: list[str] | None = None) -> int:
    args = build_args(argv)
    try:
        check_args(args)
    except ValueError as error:
        raise SystemExit(f"error: {error}") from error
    print(f"training {args.game} {args.options} ({args.policies} policies) into {args.run_dir()}")
    train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
