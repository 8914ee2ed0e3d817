"""cardenvs games as OpenSpiel games (needs ``open_spiel``: ``pip install cardenvs[bench]``).

>>> import pyspiel
>>> import cardenvs.openspiel
>>> game = pyspiel.load_game("python_cardenvs_verish_ne_verish")

Importing this module registers every id of :data:`cardenvs.ENV_IDS`, at its default options, as the OpenSpiel
Python game ``python_cardenvs_<game>``; :func:`register` adds an id with other options under a name of your
choice. The deal is a sampled-stochastic chance node (an explicit one, every deal listed, for the small
variants of :mod:`cardenvs.openspiel.small`, which OpenSpiel solves exactly); observation and information-state
tensors are the acting seat's observation vector (named views per feature group); the information-state string
identifies the information set; ``resample_from_infostate`` is the engine's re-deal. ``docs/openspiel.md`` shows it
at work.
"""

from __future__ import annotations

import re
from typing import Any

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "cardenvs.openspiel needs OpenSpiel: pip install 'cardenvs[bench]' (or open_spiel>=1.5)"
    ) from error

from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.manifest import WIN_LOSE, Utility
from cardenvs.openspiel.deals import deal_rules, enumerate_deals
from cardenvs.openspiel.game import SPECS, CardGame, CardGameState, GameSpec, game_class
from cardenvs.registry import ENV_IDS, game_name, make_raw

PREFIX = "python_cardenvs_"

_NAME = re.compile(r"[a-z][a-z0-9_]*")


def default_name(env_id: str) -> str:
    """The OpenSpiel name of an id at its default options: ``python_cardenvs_<game>``."""
    return PREFIX + game_name(env_id)


def register(
    env_id: str,
    *,
    name: str | None = None,
    utility: Utility | None = None,
    explicit_deal: bool = False,
    **options: Any,
) -> str:
    """Register ``env_id`` with ``options`` as an OpenSpiel game and return its name (``pyspiel.load_game(name)``).

    ``name`` is required with options (the default name is the default options' game). ``utility`` declares the
    range of returns, whether they sum to 0 and whether they are paid only at the end (default: the
    ``openspiel.utility`` of the game's definition, declared for its default options; a points reward mode or a
    match of several games or rounds may need its own); a state outside it raises. ``explicit_deal`` lists every
    deal at the chance node with its probability (small variants of the games whose definition declares an
    ``openspiel.explicit_deal``, one deal an episode), so that CFR and exact best responses run. Options are the
    env's (``max_steps`` included). Registering a name again with the same arguments returns it; with other
    arguments, or a name OpenSpiel already has, raises."""
    env = make_raw(env_id, **options)
    declared = env.definition.openspiel.utility
    if name is None:
        if options:
            raise InvalidOptionError(
                f"register({env_id!r}, ...) with options {sorted(options)} needs a name= of its own: "
                f"{default_name(env_id)} is the game at its default options"
            )
        name = default_name(env_id)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidOptionError(f"an OpenSpiel game name is lower-case letters, digits and _, got {name!r}")
    known = SPECS.get(name)
    if known is not None:
        same = (known.env.definition, known.env.options, known.env.max_steps, known.utility, known.explicit_deal) == (
            env.definition,
            env.options,
            env.max_steps,
            utility if utility is not None else declared,
            explicit_deal,
        )
        if not same:
            raise InvalidOptionError(
                f"{name} is already registered for {known.env.definition.env_id} "
                f"with {known.env.options} and {known.utility}; choose another name"
            )
        return name
    if name in pyspiel.registered_names():
        raise InvalidOptionError(f"OpenSpiel already has a game named {name}; choose another name")
    deals = tuple(enumerate_deals(deal_rules(env))) if explicit_deal else ()
    spec = GameSpec(name, env, utility if utility is not None else declared, deals)
    SPECS[name] = spec
    pyspiel.register_game(spec.game_type(), game_class(spec))
    return name


def register_all() -> list[str]:
    """Register every id of :data:`cardenvs.ENV_IDS` at its default options (idempotent); returns the names."""
    return [register(env_id) for env_id in ENV_IDS]


GAME_NAMES: tuple[str, ...] = tuple(register_all())
"""``python_cardenvs_<game>`` of every registered id."""

__all__ = [
    "GAME_NAMES",
    "PREFIX",
    "WIN_LOSE",
    "CardGame",
    "CardGameState",
    "Utility",
    "default_name",
    "register",
    "register_all",
]
