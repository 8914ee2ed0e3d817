"""cardenvs: PettingZoo AEC environments for imperfect-information card games.

>>> import cardenvs
>>> env = cardenvs.make("verish_ne_verish-v0", num_players=3)
>>> env.reset(seed=0)

Every id in :data:`ENV_IDS` is also registered with PettingZoo (1.27 on): ``pettingzoo.make("aec", id)``; each
game module has PettingZoo classic's ``env()`` and ``raw_env()`` (``from cardenvs import kyuuri; kyuuri.env()``).
Importing this package does not import torch or stable-baselines3.
"""

from cardenvs.core.errors import (
    ActionTypeError,
    CardenvsError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    UnknownAgentError,
)
from cardenvs.registry import ENV_IDS, GAMES, definition, make, make_raw, register_all

__version__ = "0.1.0"

register_all()

__all__ = [
    "ENV_IDS",
    "GAMES",
    "ActionTypeError",
    "CardenvsError",
    "GameOverError",
    "IllegalActionError",
    "InvalidOptionError",
    "UnknownAgentError",
    "definition",
    "make",
    "make_raw",
    "register_all",
]
