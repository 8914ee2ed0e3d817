"""The JAX Goninkan against the reference engine: the same deals and the same actions give the same players to act,
masks, every seat's observation and rewards, decision for decision, over many random episodes (Yoninkan's test,
``test_yoninkan_fast.py``, plays its games with :func:`play_lockstep` too).

A batch of episodes is played in lockstep (one jitted, vmapped step per decision on the JAX side, the reference
engines one by one beside it). Both sides play the same deals (the reference is given each deal as it starts on
the JAX side) and the same chance draws: the reference's generator is replaced by the JAX side's draws
(:class:`ScriptedDraws`). Half the episodes are ``random_deal``'s; in the other half the first round is dealt so
that one side holds every honour, so that rounds reach deals 2 and 3, skunks, reverse skunks and the じゅうろく
offers, which random deals seldom do."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.errors import InvalidOptionError
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.table import BLIND_SWAP, SWEEP
from tests.fast.lockstep import compiled, play_in_lockstep, random_legal, with_views

jax = pytest.importorskip("jax")
jnp = jax.numpy
from cardenvs.fast.goninkan import GoninkanFast, KankeiFast  # noqa: E402  (needs JAX, skipped above without it)
from cardenvs.fast.goninkan_rules import Tables  # noqa: E402

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
    {  # a match (the dealer passing on, the seating kept), the blind exchange, a random decider
        "num_players": 6,
        "episode": "match",
        "n_rounds": 3,
        "nijukan_exchange": "chooser_picks_blind",
        "kankei_lead_decider": "random",
    },
]


def text(t: Tables, hand: np.ndarray) -> str:
    return " ".join(t.rules.cards.text[c] for c in np.flatnonzero(hand))


def rigged_hands(rng: np.random.Generator, t: Tables, dealer: int, trump: int) -> np.ndarray:
    """(3, n, d): deal 1 gives the 関係 pair every honour, deals 2 and 3 give them and the joker to one side or the
    other."""
    n = t.rules.num_players
    active = [p for p in range(n) if n <= 5 or p != dealer]
    joker_holder, ace_holder = rng.choice(active, 2, replace=False)
    ace = int(np.flatnonzero((trump == t.suit) & (t.rank == t.rules.key_rank))[0])
    deals = np.zeros((3, n, t.size), bool)
    for d in range(3):
        rich = (
            [joker_holder, ace_holder]
            if d == 0 or rng.random() < 0.6
            else [p for p in active if p not in (joker_holder, ace_holder)]
        )
        fixed = {t.joker: joker_holder, ace: ace_holder} if d == 0 else {t.joker: rich[0]}  # the joker too
        honours = [c for c in np.flatnonzero(t.honour) if c not in fixed]
        rest = [c for c in range(t.size) if c not in fixed and c not in honours]
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


class ScriptedDraws:
    """The reference's random generator replaced by the JAX side's draws, in the order the reference asks for them
    (NumPy's generator cannot reproduce JAX's): ``integers`` for a random 二重関 exchange (the key card, the
    partner's card) and a random いく/こい decider, ``permutation`` for the blind exchange's face-down slots. A draw
    the JAX side did not make, or one it made and the reference did not ask for, fails the test."""

    def __init__(self, draws: list[Any]):
        self.draws = draws

    def _next(self) -> Any:
        assert self.draws, "the reference drew more than the JAX side did"
        return self.draws.pop(0)

    def integers(self, high: int) -> int:
        value = int(self._next())
        assert 0 <= value < high, (value, high)
        return value

    def permutation(self, size: int) -> np.ndarray:
        value = np.asarray(self._next())
        assert value.shape == (size,), (value, size)
        return value


class FreshViews(KankeiGame[Any]):
    """The reference game with every player's view of the teams worked out afresh at each observation.

    The engine caches each view and recomputes it after the events it lists (``knowledge_changed``); one is
    missing: in trick 10 of Yoninkan's deal 1 a player who has played his last card can no longer hold an unplayed
    key card, which can settle the teams, but the cached view waits for the next listed event, so what a seat is
    told depends on when it was last observed. The JAX side always computes the current view, which is what the
    engine's own ``key_placements`` gives when asked afresh (docs/fast.md)."""

    def observation(self, player: int) -> np.ndarray:
        self.knowledge_changed()
        return super().observation(player)


def round_draws(env: KankeiFast, state: Any, i: int) -> ScriptedDraws:
    """What the reference draws at the start of game ``i``'s round in progress in the JAX ``state``."""
    r = int(state.rounds_played[i])
    key_order, card_order = np.asarray(state.draws.key_order[i, r]), np.asarray(state.draws.card_order[i, r])
    draws: list[Any] = []
    if int(state.exchanged[i, 0]) >= 0 or int(state.phase[i]) == BLIND_SWAP:  # a 二重関
        blind = env.rules.nijukan_exchange == "chooser_picks_blind"
        draws += [key_order, card_order] if blind else [key_order[0], card_order[0]]
    if env.rules.kankei_lead_decider == "random":
        draws.append(int(state.draws.decider_pick[i, r]))
    return ScriptedDraws(draws)


def dealt(t: Tables, state: Any, i: int) -> list[str]:
    """The hands, as text, of the deal that game ``i`` of the JAX ``state`` has just begun (before a 二重関
    exchange: the card given and the card taken go back)."""
    holder = np.array(state.holder[i])
    given, taken = np.asarray(state.exchanged[i])
    if int(state.deal[i]) == 1 and given >= 0:
        holder[[given, taken]] = holder[[taken, given]]
    return [text(t, holder == p) for p in range(t.rules.num_players)]


def places_of(hands: np.ndarray) -> np.ndarray:
    """(deals, d) places that deal ``hands`` ((deals, n, d) bool) to the same players."""
    places = np.zeros(hands.shape[::2], np.int8)
    for k, deal in enumerate(hands):
        for position, p in enumerate(np.flatnonzero(deal.any(axis=1))):
            places[k, deal[p]] = position * 10 + np.arange(10)
    return places


def play_lockstep(
    env: KankeiFast, num_games: int, seed: int, choose_action: Any = None
) -> tuple[dict[str, int], list[KankeiGame[Any]]]:
    """Play ``num_games`` random episodes of ``env`` on both sides (``choose_action(game)`` picks the reference's
    actions, uniformly among the legal ones by default); return counts of what was seen and the finished games."""
    opts, t = env.options, env.t
    n = env.num_players
    rng = np.random.default_rng(seed)
    players = np.arange(n)
    observe_all = jax.vmap(jax.vmap(env.observe, in_axes=(None, 0)), in_axes=(0, None))
    keys = rng.integers(0, 2**32, (num_games, 2), dtype=np.uint32)  # raw keys: no eager JAX op to compile
    deals = compiled(jax.vmap(env.random_deal), keys)(keys)
    places = np.array(deals.places)
    dealers, rounds = np.asarray(deals.dealer), np.asarray(deals.round_number)
    for i in range(num_games // 2, num_games):  # the first round's deals rigged
        last = rounds[i] == opts.n_rounds
        places[i, :3] = places_of(rigged_hands(rng, t, int(dealers[i]), 3 if last else (int(rounds[i]) - 1) % 3))
    deals = deals._replace(places=places)
    state, views = compiled(lambda d: with_views(jax.vmap(env.init_from_deal)(d), observe_all, players), deals)(deals)
    refs = [
        FreshViews.from_deal(
            opts,
            dealt(t, state, i),
            dealer=int(dealers[i]),
            round_number=int(rounds[i]),
            rng=round_draws(env, state, i),
        )
        for i in range(num_games)
    ]
    actions = np.zeros(num_games, dtype=np.int32)
    step = compiled(lambda s, a: with_views(jax.vmap(env.step)(s, a), observe_all, players), state, actions)
    seen = {"deal 3": 0, "sweep": 0, "blind swap": 0, "rounds": 0}
    draw = choose_action or random_legal(rng)

    def choose(game: KankeiGame[Any]) -> int:
        seen["sweep"] += game.phase == SWEEP
        seen["blind swap"] += game.phase == BLIND_SWAP
        seen["deal 3"] += game.deal == 3
        return draw(game)

    def next_deal(i: int, game: KankeiGame[Any], before: Any, after: Any) -> None:
        """Script the deal and the draws that the reference's next step makes, from the JAX side's."""
        if int(after.deals_dealt[i]) > int(before.deals_dealt[i]):
            game._scripted_deals = [game._parse_hands(dealt(t, after, i))]
        if int(after.rounds_played[i]) > int(before.rounds_played[i]) and not after.terminated[i]:
            assert not game.rng.draws, "the reference left a draw of the JAX side unused"
            game.rng = round_draws(env, after, i)
            seen["rounds"] += 1

    seen["decisions"] = play_in_lockstep(refs, state, views, step, choose, env.max_steps, next_deal)
    return seen, refs


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    seen, _ = play_lockstep(GoninkanFast(**options), num_games=16, seed=len(options) * 7 + options["num_players"])
    assert seen["decisions"] > 16 * 30
    assert seen["deal 3"] and seen["sweep"], f"the rigged deals should reach deal 3 and a じゅうろく offer: {seen}"
    if options.get("episode") == "match":
        assert seen["rounds"] >= 16 and seen["blind swap"], f"rounds after the first and a blind exchange: {seen}"


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="num_players"):
        GoninkanFast(num_players=4)
