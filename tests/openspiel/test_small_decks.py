"""The small-deck options of Verish' ne verish', Yukushi and Kyuuri: validated, the defaults unchanged, dealt from the
deck they name, and refused by name where the JAX fast path does not support them."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.errors import InvalidOptionError


@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        ("verish_ne_verish-v0", {"num_players": 2, "deck_size": 8}),
        ("yukushi-v0", {"num_players": 2, "deck_size": 8}),
        ("kyuuri-v0", {"num_players": 2, "deck_size": 16, "deal_size": 3}),
    ],
)
def test_a_small_deck_deals_only_its_ranks(env_id: str, options: dict[str, object]) -> None:
    env = cardenvs.make_raw(env_id, **options)
    for seed in range(20):
        env.reset(seed=seed)
        cards = env.game.card_multiset()
        assert len(cards) == options["deck_size"]
        ranks = sorted(set(cards))
        assert len(ranks) == int(options["deck_size"]) // 4  # four of each of the highest ranks


def test_defaults_are_unchanged() -> None:
    for env_id in ("yukushi-v0", "verish_ne_verish-v0", "kyuuri-v0"):
        env = cardenvs.make_raw(env_id)
        env.reset(seed=0)
        assert len(env.game.card_multiset()) == 52
    kyuuri = cardenvs.make_raw("kyuuri-v0")
    kyuuri.reset(seed=0)
    assert int(kyuuri.game.hands.sum(axis=1).max()) == 7
    two = cardenvs.make_raw("verish_ne_verish-v0", num_players=2)
    two.reset(seed=0)
    assert len(two.game.card_multiset()) == 36


@pytest.mark.parametrize(
    ("env_id", "options", "message"),
    [
        ("verish_ne_verish-v0", {"deck_size": 10}, "deck_size must be None, 52, 36"),
        ("verish_ne_verish-v0", {"deck_size": 40}, "deck_size must be None, 52, 36"),
        ("yukushi-v0", {"deck_size": 4}, "deck_size must be 52 or a smaller deck"),
        ("kyuuri-v0", {"deck_size": 51}, "deck_size must be 52 or a smaller deck"),
        ("kyuuri-v0", {"deal_size": 0}, "deal_size must be None or 1–7"),
        ("kyuuri-v0", {"num_players": 4, "deck_size": 16}, "4 hands of 7 cards need 28 cards; the deck has 16"),
    ],
)
def test_bad_small_decks_are_refused(env_id: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        cardenvs.make_raw(env_id, **options)


def test_kyuuri_explicit_deal_from_a_small_deck() -> None:
    from cardenvs.kyuuri.options import KyuuriOptions
    from cardenvs.kyuuri.rules import KyuuriGame

    options = KyuuriOptions(num_players=2, deck_size=8, deal_size=2, episode="deal")
    game = KyuuriGame.from_deal(options, ["K A", "K K"], dealer=0)
    assert game.stock.tolist() == [0] * 11 + [1, 3]  # the rest of K K K K A A A A
    with pytest.raises(InvalidOptionError, match="is not in the deck"):
        KyuuriGame.from_deal(options, ["Q A", "K K"], dealer=0)


@pytest.mark.parametrize(
    ("module", "cls", "options"),
    [
        ("cardenvs.fast.verish", "VerishFast", {"num_players": 2, "deck_size": 8}),
        ("cardenvs.fast.yukushi", "YukushiFast", {"deck_size": 8}),
        ("cardenvs.fast.kyuuri", "KyuuriFast", {"deal_size": 3}),
    ],
)
def test_the_fast_path_refuses_small_decks_by_name(module: str, cls: str, options: dict[str, object]) -> None:
    pytest.importorskip("jax")
    import importlib

    fast = getattr(importlib.import_module(module), cls)
    with pytest.raises(InvalidOptionError, match=r"deck_size|deal_size"):
        fast(**options)
    assert np.isfinite(fast().num_actions)
