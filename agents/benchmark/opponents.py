"""Who the gauntlets' opponents are: gauntlet-v2's lineup per game, and one line on each opponent's style.

An opponent has a short label (what the boards show) and a spec (what plays). Registered names and zoo agents
are their own label; the unregistered style players of :mod:`agents.yardstick` get ``style:<name>`` labels.
"""

from __future__ import annotations

YARDSTICK = "cardenvs.agents.yardstick"

STYLE_SPECS: dict[str, dict[str, str]] = {
    "verish_ne_verish": {
        "style:never_lie": f"{YARDSTICK}.verish_ne_verish:NeverLie",
        "style:always_challenge": f"{YARDSTICK}.verish_ne_verish:AlwaysChallenge",
        "style:never_challenge": f"{YARDSTICK}.verish_ne_verish:NeverChallenge",
    },
    "yukushi": {
        "style:always_call": f"{YARDSTICK}.yukushi:AlwaysCall",
        "style:never_call": f"{YARDSTICK}.yukushi:NeverCall",
    },
    "kyuuri": {"style:lead_high_follow_low": f"{YARDSTICK}.kyuuri:LeadHighFollowLow"},
    "goninkan": {"style:greedy": f"{YARDSTICK}.goninkan:Greedy", "style:cautious": f"{YARDSTICK}.goninkan:Cautious"},
    "yoninkan": {"style:greedy": f"{YARDSTICK}.goninkan:Greedy", "style:cautious": f"{YARDSTICK}.goninkan:Cautious"},
    "zheng_shang_you": {"style:unbroken": f"{YARDSTICK}.zheng_shang_you:Unbroken"},
}
"""Game → style label → module spec of the style players in gauntlet-v2 (unregistered on purpose)."""

OPPONENTS_V2: dict[str, tuple[str, ...]] = {
    "verish_ne_verish": (
        "random",
        "verish_ne_verish/rule",
        "style:never_lie",
        "style:always_challenge",
        "style:never_challenge",
        "zoo:verish_ne_verish/truthful_ppo",
    ),
    "yukushi": (
        "random",
        "yukushi/honest",
        "yukushi/bluffer",
        "yukushi/counter",
        "style:always_call",
        "style:never_call",
        "zoo:yukushi/ppo_tuned",
    ),
    "kyuuri": ("random", "kyuuri/rule", "kyuuri/thrifty", "style:lead_high_follow_low", "zoo:kyuuri/ppo_tuned"),
    "goninkan": ("random", "goninkan/rule", "style:greedy", "style:cautious", "zoo:goninkan/improved"),
    "yoninkan": ("random", "yoninkan/rule", "style:greedy", "style:cautious", "zoo:yoninkan/ppo"),
    "zheng_shang_you": (
        "random",
        "zheng_shang_you/rule",
        "zheng_shang_you/greedy",
        "style:unbroken",
        "zoo:zheng_shang_you/ppo",
    ),
}
"""gauntlet-v2's opponent labels per game: random, every rule bot, the style players, and the strongest zoo
agent (the first of :func:`agents.zoo.fitting_zoo_names` when the suite was made)."""

KANKEI_STYLES = {
    "style:greedy": "takes every trick it can beat (the joker on any trick with an honour), leads its highest card",
    "style:cautious": "ducks: overtakes only a trick already holding two honours, keeps the joker, leads low",
}

STYLE_LINES: dict[str, dict[str, str]] = {
    "verish_ne_verish": {
        "random": "a uniformly random legal action",
        "verish_ne_verish/rule": "counting player: truthful when it can, bluffs when forced, challenges claims that "
        "counting shows impossible or unlikely",
        "style:never_lie": "never lies: follows only with true cards and challenges whenever it holds none",
        "style:always_challenge": "challenges every claim it may",
        "style:never_challenge": "never challenges: trusts every claim, truthful when it can",
        "zoo:verish_ne_verish/truthful_ppo": "zoo agent: PPO from an imitation of truthful play",
    },
    "yukushi": {
        "random": "a uniformly random legal action",
        "yukushi/honest": "never lies: tells the truth or passes, calls only claims it knows impossible",
        "yukushi/bluffer": "aggressive liar: pads true plays with junk, dumps cards under any claim",
        "yukushi/counter": "counting player: plays truthfully, calls whenever counting makes a claim unlikely",
        "style:always_call": "calls ゆくし on every claim it may",
        "style:never_call": "never calls; plays its own cards like the counter",
        "zoo:yukushi/ppo_tuned": "zoo agent: PPO, fine-tuned against the rule bots",
    },
    "kyuuri": {
        "random": "a uniformly random legal action",
        "kyuuri/rule": "greedy: sheds the highest card allowed, keeps its lowest for the last trick",
        "kyuuri/thrifty": "cautious: overtakes as cheaply as it can, keeps high cards and its lowest for later",
        "style:lead_high_follow_low": "leads its highest spare card, follows with its lowest allowed",
        "zoo:kyuuri/ppo_tuned": "zoo agent: PPO, fine-tuned against the rule bots",
    },
    "goninkan": {
        "random": "a uniformly random legal action",
        "goninkan/rule": "wins honour tricks cheaply, feeds a winning partner honours, discards low otherwise",
        **KANKEI_STYLES,
        "zoo:goninkan/improved": "zoo agent: the rule bot with card play chosen by a network fitted on rollouts",
    },
    "yoninkan": {
        "random": "a uniformly random legal action",
        "yoninkan/rule": "wins honour tricks cheaply, feeds a winning partner honours, discards low otherwise",
        **KANKEI_STYLES,
        "zoo:yoninkan/ppo": "zoo agent: PPO from an imitation of the rule bot",
    },
    "zheng_shang_you": {
        "random": "a uniformly random legal action",
        "zheng_shang_you/rule": "plays the weakest beating combination, saves 2s and jokers for going out",
        "zheng_shang_you/greedy": "greedy: always plays if it can, the combination shedding the most cards",
        "style:unbroken": "cautious: the rule bot, but never breaks a pair, triple or bomb to lead or follow",
        "zoo:zheng_shang_you/ppo": "zoo agent: PPO from an imitation of the rule bot",
    },
}
"""Game → opponent label → one line on how it plays (shown above each leaderboard and stored in its JSON)."""


def opponent_spec(game: str, label: str) -> str:
    """The spec that plays ``label`` in ``game`` (the label itself unless it is a style player's)."""
    return STYLE_SPECS.get(game, {}).get(label, label)


def style_line(game: str, label: str) -> str:
    """The one-line style of an opponent ("" for one without a line)."""
    return STYLE_LINES.get(game, {}).get(label, "")
