"""Single-agent views of the AEC envs, for single-agent learners (SB3's MaskablePPO and the like).

>>> from cardenvs.registry import make_raw
>>> from cardenvs.wrappers import SeatEnv
>>> env = SeatEnv(make_raw("verish_ne_verish-v0", num_players=3))   # random opponents, random seat
>>> obs, info = env.reset(seed=0)

``RLlibEnv`` (RLlib's multi-agent env of any game, :mod:`cardenvs.wrappers.rllib`) is imported from here on
first use only, since it imports ray.
"""

from typing import Any

from cardenvs.wrappers.opponents import FixedOpponents, Opponent, OpponentPool, OpponentSampler, RandomOpponent
from cardenvs.wrappers.seat_env import SeatEnv, observation_scale

__all__ = [
    "FixedOpponents",
    "Opponent",
    "OpponentPool",
    "OpponentSampler",
    "RandomOpponent",
    "SeatEnv",
    "observation_scale",
]


def __getattr__(name: str) -> Any:
    if name == "RLlibEnv":  # imports ray, so only when asked for
        from cardenvs.wrappers.rllib import RLlibEnv

        return RLlibEnv
    raise AttributeError(f"module 'cardenvs.wrappers' has no attribute {name!r}")
