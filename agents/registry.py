"""Policies by name (random, the rule bots), for tournaments, demos and the command line. Any other spec
(``ckpt:PATH``, ``zoo:GAME/NAME``, a file …) and :func:`~agents.specs.make_policy` are in :mod:`agents.specs`."""

from __future__ import annotations

from collections.abc import Callable

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.bots.random_policy import RandomPolicy
from cardenvs.registry import game_name

PolicyFactory = Callable[[PolicyContext, "int | None"], Policy]


def _verish_rule(context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.bots.verish_ne_verish import VerishRuleBot

    return VerishRuleBot(context, seed)


def _kyuuri_rule(context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.bots.kyuuri import KyuuriRuleBot

    return KyuuriRuleBot(context, seed, style="shed")


def _kyuuri_thrifty(context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.bots.kyuuri import KyuuriRuleBot

    return KyuuriRuleBot(context, seed, style="thrifty")


def _zsy_rule(context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.bots.zheng_shang_you import ZsyRuleBot

    return ZsyRuleBot(context, seed)


def _zsy_greedy(context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.bots.zheng_shang_you import ZsyGreedyBot

    return ZsyGreedyBot(context, seed)


def _kankei_rule(context: PolicyContext, seed: int | None) -> Policy:
    from cardenvs.agents.bots.goninkan import KankeiRuleBot

    return KankeiRuleBot(context, seed)


def _yukushi(style: str) -> PolicyFactory:
    def factory(context: PolicyContext, seed: int | None) -> Policy:
        from cardenvs.agents.bots.yukushi import YukushiBot

        return YukushiBot(context, seed, style=style)  # type: ignore[arg-type]

    return factory


POLICIES: dict[str, tuple[str | None, PolicyFactory]] = {
    "random": (None, RandomPolicy),
    "verish_ne_verish/rule": ("verish_ne_verish", _verish_rule),
    "yukushi/honest": ("yukushi", _yukushi("honest")),
    "yukushi/bluffer": ("yukushi", _yukushi("bluffer")),
    "yukushi/counter": ("yukushi", _yukushi("counter")),
    "kyuuri/rule": ("kyuuri", _kyuuri_rule),
    "kyuuri/thrifty": ("kyuuri", _kyuuri_thrifty),
    "zheng_shang_you/rule": ("zheng_shang_you", _zsy_rule),
    "zheng_shang_you/greedy": ("zheng_shang_you", _zsy_greedy),
    "goninkan/rule": ("goninkan", _kankei_rule),
    "yoninkan/rule": ("yoninkan", _kankei_rule),
}
"""Policy name → (game it is written for, or ``None`` for any game; factory)."""


ZOO: dict[str, dict[str, str]] = {
    "verish_ne_verish": {
        "verish_ne_verish/ppo_tuned": "zoo:verish_ne_verish/ppo_tuned",
        "verish_ne_verish/truthful_ppo": "zoo:verish_ne_verish/truthful_ppo",
    },
    "yukushi": {"yukushi/ppo_tuned": "zoo:yukushi/ppo_tuned", "yukushi/ppo": "zoo:yukushi/ppo"},
    "kyuuri": {"kyuuri/ppo_tuned": "zoo:kyuuri/ppo_tuned", "kyuuri/ppo": "zoo:kyuuri/ppo"},
    "goninkan": {
        "goninkan/improved_margin0": "zoo:goninkan/improved_margin0",
        "goninkan/improved": "zoo:goninkan/improved",
    },
    "yoninkan": {"yoninkan/improved": "zoo:yoninkan/improved", "yoninkan/ppo": "zoo:yoninkan/ppo"},
    "zheng_shang_you": {
        "zheng_shang_you/improved_control": "zoo:zheng_shang_you/improved_control",
        "zheng_shang_you/improved_context": "zoo:zheng_shang_you/improved_context",
        "zheng_shang_you/improved": "zoo:zheng_shang_you/improved",
        "zheng_shang_you/ppo": "zoo:zheng_shang_you/ppo",
    },
}
"""Game → zoo agent name → spec: the shipped zoo agents (:func:`agents.zoo.zoo_names`, strongest first) that the
benchmark's leaderboards rank beside the bots (the strongest is also a gauntlet-v2 opponent). Left out:
``goninkan/imitation``, weaker than ``improved`` and about 60 ms a move (2 s a game), which alone would make
Goninkan's leaderboard take over an hour."""


def registered_names(env_id: str | None = None) -> list[str]:
    """Names of the registered policies (random, the rule bots) that can play ``env_id`` (all if ``None``)."""
    game = None if env_id is None else game_name(env_id)
    return [name for name, (g, _) in POLICIES.items() if g is None or game is None or g == game]


def policy_names(env_id: str | None = None) -> list[str]:
    """Every named policy that can play ``env_id`` (all if ``None``): the registered ones, then the zoo's
    trained agents as ``zoo:<game>/<name>`` specs."""
    from cardenvs.agents.zoo import zoo_names

    return [*registered_names(env_id), *zoo_names(env_id)]
