"""The zoo: trained agents shipped inside the package, played offline as ``zoo:<game>/<name>``.

Each agent is two files in ``agents/zoo/<game>/``: ``<name>.npz``, the actor's weights in the pickle-free format of
:mod:`agents.learned.weights` (float16 where its greedy actions equal the float32 network's), and ``<name>.json``, its
card: the env id and the hash of the observation layout it was trained on, how it plays (greedy or sampling),
the command and budget that trained it, and its measured results. Nothing here imports torch.

>>> import cardenvs
>>> from cardenvs.agents import make_policy, policy_names
>>> env = cardenvs.make("kyuuri-v0")
>>> "zoo:kyuuri/ppo" in policy_names("kyuuri-v0")
True
>>> agent = make_policy("zoo:kyuuri/ppo", env, seed=0)

An agent is refused, with both versions named, where the env's observation layout is not the one it was trained
on (another version of the game, another player count): its network would read the wrong features.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.registry import game_name

ZOO_ROOT = Path(__file__).parent
"""Where the shipped agents lie: ``<game>/<name>.npz`` and ``<game>/<name>.json``."""
PREFIX = "zoo:"
CARD_FIELDS = ("name", "env_id", "options", "layout_hash", "greedy", "weights_sha256", "training", "results")
"""The keys every card holds (``notes`` and others may follow)."""


class ZooError(ValueError):
    """A zoo spec that names no shipped agent, or an agent that cannot play this env; the message says why."""


@dataclass(frozen=True)
class ZooCard:
    """A shipped agent's card (its ``.json``) and where its weights lie."""

    game: str
    name: str
    """``<game>/<name>``, what follows ``zoo:``."""
    weights: Path
    data: Mapping[str, Any]

    @property
    def spec(self) -> str:
        return PREFIX + self.name

    @property
    def env_id(self) -> str:
        return str(self.data["env_id"])

    @property
    def greedy(self) -> bool:
        return bool(self.data["greedy"])

    def closest_bot(self) -> tuple[str, str] | None:
        """The rule bot the card's results show this agent beating by least, and that margin as printed
        (``"0.210 [0.115, 0.305]"``); ``None`` if the results name no bot."""
        bots = {row["opponent"]: row["agent_minus_opponent"] for row in self.data["results"]}
        bots.pop("random", None)
        if not bots:
            return None
        name = min(bots, key=lambda bot: float(bots[bot].split()[0]))
        return name, bots[name]

    def check_layout(self, context: PolicyContext) -> None:
        """Raise :class:`ZooError`, naming both versions, unless ``context`` has the layout this agent read."""
        if game_name(context.env_id) != self.game:
            raise ZooError(f"{self.spec} plays {self.game} ({self.env_id}), not {context.env_id}")
        here = context_layout_hash(context)
        if here != self.data["layout_hash"]:
            raise ZooError(
                f"{self.spec} was trained on {self.env_id} with options {self.data['options']} (observation layout "
                f"{self.data['layout_hash']}), but this env is {context.env_id} with {context.num_players} players "
                f"(layout {here}): its network would read other features. Make the env it was trained on, e.g. "
                f"cardenvs.make({self.env_id.split('/')[-1]!r}, **{self.data['options']})"
            )


def _read_card(path: Path) -> ZooCard:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ZooError(f"zoo card {path} is not readable JSON: {error}") from error
    missing = [key for key in CARD_FIELDS if key not in data] if isinstance(data, dict) else list(CARD_FIELDS)
    if missing:
        raise ZooError(f"zoo card {path} lacks {missing}; a card holds {list(CARD_FIELDS)}")
    game = path.parent.name
    name = f"{game}/{path.stem}"
    if data["name"] != name:
        raise ZooError(f"zoo card {path} names itself {data['name']!r}; its place says {name!r}")
    return ZooCard(game, name, path.with_suffix(".npz"), data)


def zoo_cards(root: Path | None = None) -> dict[str, ZooCard]:
    """Every shipped agent, ``<game>/<name>`` → card, in name order (``root``: another zoo folder, read afresh)."""
    return dict(_shipped() if root is None else _read_cards(root))


@functools.cache
def _shipped() -> tuple[tuple[str, ZooCard], ...]:
    return _read_cards(ZOO_ROOT)  # package data: read once per process


def _read_cards(root: Path) -> tuple[tuple[str, ZooCard], ...]:
    cards = (_read_card(path) for path in sorted(root.glob("*/*.json")))
    return tuple((card.name, card) for card in cards)


def zoo_names(env_id: str | None = None, root: Path | None = None) -> list[str]:
    """The ``zoo:<game>/<name>`` specs shipped for ``env_id``'s game (every game's if ``None``), each game's
    strongest first, in the order of :func:`fitting_zoo_names`."""
    game = None if env_id is None else game_name(env_id)
    cards = [card for card in zoo_cards(root).values() if game is None or card.game == game]
    return [card.spec for card in sorted(cards, key=lambda card: (card.game, -_strength(card)))]


def zoo_card(argument: str, root: Path | None = None) -> ZooCard:
    """The card of ``zoo:<argument>``; :class:`ZooError` lists what is shipped when there is no such agent."""
    cards = zoo_cards(root)
    if argument in cards:
        return cards[argument]
    game = argument.split("/")[0]
    if "/" not in argument:
        problem = f"{PREFIX}{argument}: a zoo spec is zoo:<game>/<name>"
    else:
        problem = f"{PREFIX}{argument}: no such agent"
    same_game = [PREFIX + name for name in cards if name.startswith(game + "/")]
    shipped = same_game or [PREFIX + name for name in cards]
    raise ZooError(f"{problem}; shipped{' for ' + game if same_game else ''}: {shipped}")


@functools.cache
def _weights(path: Path, digest: str) -> ActorWeights:
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != digest:
        raise ZooError(f"{path} has sha256 {actual[:16]}…, its card says {digest[:16]}…: the file was changed")
    return ActorWeights.load(path)


def zoo_weights(card: ZooCard) -> ActorWeights:
    """The card's actor, read once per process and checked against the hash on its card."""
    return _weights(card.weights, str(card.data["weights_sha256"]))


def checked_zoo_weights(
    argument: str, context: PolicyContext, root: Path | None = None
) -> tuple[ZooCard, ActorWeights]:
    """The card of ``zoo:<argument>`` and its actor, after the layout check against ``context``'s game."""
    card = zoo_card(argument, root)
    card.check_layout(context)
    return card, zoo_weights(card)


def fitting_zoo_names(env_id: str, options: Mapping[str, Any] | None = None, root: Path | None = None) -> list[str]:
    """The ``zoo:`` specs that can play ``env_id`` made with ``options`` (same game, same observation layout), the
    strongest first: by the margin over the bot each beats by least (the demo and the play page take the first)."""
    from cardenvs.registry import make_raw

    here = context_layout_hash(PolicyContext.from_env(make_raw(env_id, **dict(options or {}))))
    cards = [c for c in zoo_cards(root).values() if c.game == game_name(env_id) and c.data["layout_hash"] == here]
    return [card.spec for card in sorted(cards, key=_strength, reverse=True)]


def _strength(card: ZooCard) -> float:
    closest = card.closest_bot()
    return float(closest[1].split()[0]) if closest else float("-inf")
