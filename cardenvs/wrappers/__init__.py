"""Single-agent views of the AEC envs, for single-agent learners (SB3's MaskablePPO and the like).

>>> from cardenvs.registry import make_raw
>>> from cardenvs.wrappers import SeatEnv
>>> env = SeatEnv(make_raw("verish_ne_verish-v0", num_players=3))   # random opponents, random seat
>>> obs, info = env.reset(seed=0)
"""

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
