"""The JAX Goninkan against the reference engine: the same deals and the same actions give the same players to act,
masks, every seat's observation and rewards, decision for decision, over many random rounds.

A batch of rounds is played in lockstep (one jitted, vmapped step per decision on the JAX side, the reference
engines one by one beside it). Both sides play the same three deals (the reference gets deals 2 and 3 as
``later_deals``) and the same 二重関 exchange. Half the rounds are ``random_deal``'s; the other half are dealt so
that one side holds every honour, so that rounds reach deals 2 and 3, skunks, reverse skunks and the じゅうろく
offers, which random deals seldom do."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.errors import InvalidOptionError
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions
from cardenvs.goninkan.table import SWEEP
from tests.fast.lockstep import compiled, play_in_lockstep, random_legal, with_views

jax = pytest.importorskip("jax")
jnp = jax.numpy
from cardenvs.fast.goninkan import GoninkanFast  # noqa: E402  (needs JAX, skipped above without it)
from cardenvs.fast.goninkan_rules import CARDS, HONOUR, JOKER, RANK, SUIT  # noqa: E402

CASES: list[dict[str, Any]] = [
    {"num_players": 6},  # the benchmark's
    {  # the other scoring readings, a public decider, the deal played out, a step cap inside deal 3
        "num_players": 5,
        "nakayoshi": True,
        "kankei_lead_decider": "joker_holder",
        "play_all_tricks": True,
        "rev_skunk_d1_includes_failure_point": False,
        "juroku_keeps_deal3_bonus": False,
        "round_number": 10,
        "max_steps": 130,
    },
]


def text(hand: np.ndarray) -> str:
    return " ".join(CARDS.text[c] for c in np.flatnonzero(hand))


def rigged_hands(rng: np.random.Generator, n: int, dealer: int, trump: int) -> np.ndarray:
    """(3, n, d): deal 1 gives the 関係 pair every honour, deals 2 and 3 give them to one side or the other."""
    active = [p for p in range(n) if n == 5 or p != dealer]
    joker_holder, ace_holder = rng.choice(active, 2, replace=False)
    ace = int(np.flatnonzero((trump == SUIT) & (RANK == 12))[0])
    deals = np.zeros((3, n, len(SUIT)), bool)
    for d in range(3):
        rich = (
            [joker_holder, ace_holder]
            if d == 0 or rng.random() < 0.6
            else [p for p in active if p not in (joker_holder, ace_holder)]
        )
        fixed = {JOKER: joker_holder, ace: ace_holder} if d == 0 else {}
        honours = [c for c in np.flatnonzero(HONOUR) if c not in fixed]
        rest = [c for c in range(len(SUIT)) if c not in fixed and c not in honours]
        slots = {p: 10 - sum(h == p for h in fixed.values()) for p in active}
        for c in rng.permutation(honours):
            p = rng.choice([q for q in rich if slots[q] > 0])
            fixed[int(c)], slots[p] = p, slots[p] - 1
        cards = rng.permutation(rest)
        start = 0
        for p in active:
            for c in cards[start : start + slots[p]]:
                fixed[int(c)] = p
            start += slots[p]
        for c, p in fixed.items():
            deals[d, p, c] = True
    return deals


def play_lockstep(options: dict[str, Any], num_games: int, seed: int) -> dict[str, int]:
    """Play ``num_games`` random rounds on both sides; return counts of what was compared."""
    env = GoninkanFast(**options)
    opts = GoninkanOptions(**{k: v for k, v in options.items() if k != "max_steps"})
    n = opts.num_players
    rng = np.random.default_rng(seed)
    players = np.arange(n)
    observe_all = jax.vmap(jax.vmap(env.observe, in_axes=(None, 0)), in_axes=(0, None))
    keys = rng.integers(0, 2**32, (num_games, 2), dtype=np.uint32)  # raw keys: no eager JAX op to compile
    deals = compiled(jax.vmap(env.random_deal), keys)(keys)
    hands = np.array(deals.hands)
    dealers, rounds = np.asarray(deals.dealer), np.asarray(deals.round_number)
    for i in range(num_games // 2, num_games):
        last = rounds[i] == opts.n_rounds
        hands[i] = rigged_hands(rng, n, int(dealers[i]), 3 if last else (int(rounds[i]) - 1) % 3)
    deals = deals._replace(hands=hands)
    state, views = compiled(lambda d: with_views(jax.vmap(env.init_from_deal)(d), observe_all, players), deals)(deals)
    exchanged = np.asarray(state.exchanged)
    refs = [
        KankeiGame.from_deal(
            opts,
            [text(h) for h in hands[i, 0]],
            dealer=int(dealers[i]),
            round_number=int(rounds[i]),
            later_deals=[[text(h) for h in hands[i, d]] for d in (1, 2)],
            nijukan=None if exchanged[i, 0] < 0 else (CARDS.text[exchanged[i, 0]], CARDS.text[exchanged[i, 1]]),
        )
        for i in range(num_games)
    ]
    actions = np.zeros(num_games, dtype=np.int32)
    step = compiled(lambda s, a: with_views(jax.vmap(env.step)(s, a), observe_all, players), state, actions)
    seen = {"deal 3": 0, "sweep": 0, "nijukan": int((exchanged[:, 0] >= 0).sum())}
    draw = random_legal(rng)

    def choose(game: KankeiGame[GoninkanOptions]) -> int:
        seen["sweep"] += game.phase == SWEEP
        seen["deal 3"] += game.deal == 3
        return draw(game)

    seen["decisions"] = play_in_lockstep(refs, state, views, step, choose, env.max_steps)
    return seen


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    seen = play_lockstep(options, num_games=16, seed=len(options) * 7 + options["num_players"])
    assert seen["decisions"] > 16 * 30
    assert seen["deal 3"] and seen["sweep"], f"the rigged deals should reach deal 3 and a じゅうろく offer: {seen}"


def test_unplayed_options_are_refused() -> None:
    for options, name in (
        ({"episode": "match"}, "episode"),
        ({"nijukan_exchange": "chooser_picks_blind"}, "nijukan_exchange"),
        ({"kankei_lead_decider": "random"}, "kankei_lead_decider"),
    ):
        with pytest.raises(InvalidOptionError, match=name):
            GoninkanFast(**options)
    with pytest.raises(InvalidOptionError, match="num_players"):
        GoninkanFast(num_players=4)
