"""The JAX Verish' ne verish' against the reference engine: the same deals and the same actions give the same
players to act, masks, every seat's observation and rewards, decision for decision, over many random games.

A batch of games is played in lockstep: one jitted, vmapped step per decision on the JAX side, the reference
engines one by one beside it. Each option set compiles once (a few seconds), so the cases are few and the
batches small but many decisions long."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.errors import InvalidOptionError
from cardenvs.verish_ne_verish.rules import VerishGame, VerishOptions
from tests.fast.lockstep import compiled, play_in_lockstep, random_legal, with_views

jax = pytest.importorskip("jax")
jnp = jax.numpy
from cardenvs.fast import VerishFast  # noqa: E402  (needs JAX, skipped above without it)

CASES: list[dict[str, Any]] = [
    {"num_players": 6},  # the benchmark's
    {"num_players": 2},  # 36 cards
    {"num_players": 3, "forbid_discarded_rank": True, "max_steps": 60},  # some games truncated
    {"num_players": 4, "deck_size": 36, "reward_mode": "exit_order", "n_games": 2, "max_steps": 240},  # a match, capped
    {"num_players": 5},
    # the holder's choice of quads (36 cards: many quads) in a match of two games, the loser dealing the next
    {"num_players": 3, "deck_size": 36, "quad_discard_optional": True, "n_games": 2, "loser_deals_next": True},
]


def random_deal(game_options: VerishOptions, rng: np.random.Generator) -> tuple[list[str], str, int]:
    """A shuffled deck dealt clockwise from the dealer's left, one card set aside, as the engines' text."""
    deck = game_options.deck
    labels = [c for c in VerishGame(game_options, rng).rank_labels for _ in range(4)]
    assert len(labels) == deck.size
    order = rng.permutation(deck.size)
    n = game_options.num_players
    dealer = int(rng.integers(n))
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, card in enumerate(order[1:]):
        hands[(dealer + 1 + i) % n].append(labels[card])
    return [" ".join(h) for h in hands], labels[order[0]], dealer


def counts(game: VerishGame, text: str) -> np.ndarray:
    return game._counts_from_text(text)


def play_lockstep(options: dict[str, Any], num_games: int, seed: int) -> int:
    """Play ``num_games`` random games on both sides; return the decisions compared."""
    env = VerishFast(**options)
    opts = env.options
    n = opts.num_players
    rng = np.random.default_rng(seed)
    refs, hands, dealers = [], [], []
    for _ in range(num_games):
        deal, aside, dealer = random_deal(opts, rng)
        game = VerishGame.from_deal(opts, deal, set_aside=aside, dealer=dealer)
        refs.append(game)
        hands.append(np.stack([counts(game, h) for h in deal]))
        dealers.append(dealer)
    players = jnp.arange(n)
    observe_all = jax.vmap(jax.vmap(env.observe, in_axes=(None, 0)), in_axes=(0, None))
    hands_in, dealers_in = jnp.asarray(np.stack(hands)), jnp.asarray(dealers)
    keys = jax.random.split(jax.random.PRNGKey(seed), num_games)
    init = compiled(
        lambda h, d, k: with_views(jax.vmap(env.init_from_hands)(h, d, k), observe_all, players),
        hands_in,
        dealers_in,
        keys,
    )
    state, views = init(hands_in, dealers_in, keys)
    actions = jnp.zeros(num_games, dtype=jnp.int32)
    step = compiled(lambda s, a: with_views(jax.vmap(env.step)(s, a), observe_all, players), state, actions)

    def next_game(i: int, game: VerishGame, before: Any, after: Any) -> None:
        """The JAX step dealt the match's next game (from the state's key): the reference plays the same cards."""
        if np.asarray(after.games_played)[i] > np.asarray(before.games_played)[i]:
            dealt = np.asarray(env.deal(jax.random.split(np.asarray(before.key)[i])[0], np.asarray(after.dealer)[i]))
            assert (dealt.sum(axis=1) >= (env.deck_size - 1) // n).all()
            dealer = int(np.asarray(after.dealer)[i])

            def deal_counts(first: int, skip: int = 0) -> tuple[list[np.ndarray], np.ndarray]:
                assert (first, skip) == ((dealer + 1) % n, 1), "dealt from the new dealer's left, one card aside"
                return list(dealt.astype(np.int16)), (4 - dealt.sum(axis=0)).astype(np.int16)

            game._deal_counts = deal_counts  # type: ignore[method-assign]
            dealt_games.append(i)

    dealt_games: list[int] = []
    choose = random_legal(rng)
    decisions = play_in_lockstep(refs, state, views, step, choose, env.max_steps, next_game)
    if opts.n_games > 1:
        assert len(dealt_games) >= num_games // 2, "matches play on into later games"
    return decisions


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    decisions = play_lockstep(options, num_games=16, seed=len(options) * 7 + options["num_players"])
    assert decisions > 16 * 40


def test_random_deals_are_whole_decks_dealt_clockwise() -> None:
    env = VerishFast(num_players=6, dealer=2)
    keys = jax.random.split(jax.random.PRNGKey(0), 64)
    states = compiled(jax.vmap(env.init), keys)(keys)
    per_rank = np.asarray(states.hands).sum(axis=1) + 4 * np.asarray(states.discarded)
    assert (per_rank.sum(axis=1) == 51).all() and ((per_rank == 3).sum(axis=1) == 1).all()
    assert (np.asarray(states.current_player) == 3).all()  # the dealer's left neighbour leads


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 7}, "2–6"),
        ({"max_steps": 0}, "max_steps"),
    ],
)
def test_unsupported_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        VerishFast(**options)
