"""The JAX Zheng Shang You against the reference engine: the same deals and the same actions give the same players
to act, masks, every seat's observation and rewards, decision for decision, over many random games.

A batch of games is played in lockstep (one jitted, vmapped step per decision on the JAX side, the reference
engines one by one beside it), with random legal actions drawn from the reference mask: the sub-steps of plays
(shape, top rank, cards), passes and the exchange. The first deals are the JAX side's (``init``); in a match each
later deal that the JAX step shuffles is handed to its reference engine before the action that ends the deal, so
both sides play the same cards throughout."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from cardenvs.core.engine import RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.zheng_shang_you.actions import ids
from cardenvs.zheng_shang_you.combos import SET_SEQUENCE, lead_shapes
from cardenvs.zheng_shang_you.game import ZsyGame
from cardenvs.zheng_shang_you.options import SJX_PLACE_SETS
from cardenvs.zheng_shang_you.ranks import PICK_TEXT, TWO, text, to_bits
from tests.fast.lockstep import compiled, play_in_lockstep, random_batch, random_legal, with_views

jax = pytest.importorskip("jax")
from cardenvs.fast.zheng_shang_you import ZhengShangYouFast  # noqa: E402  (needs JAX, skipped above without it)

A = ids()

CASES: list[dict[str, Any]] = [
    {"num_players": 6, "target_points": 5},  # the benchmark's count and options, a shorter match: the exchange
    {  # the partnership, every rule option but exchange=False, and a step cap that ends some matches
        "num_players": 4,
        "team_mode": "partners",
        "target_points": 4,
        "return_face_up": False,
        "reward_mode": "match_points",
        "joker_keeps_suitedness": False,
        "tie_rule": "shared",
        "next_dealer_place": 1,
        "max_steps": 400,
    },
    # rewards by place after one deal; runs of sets to the 2, from deals and choices that favour them
    {"num_players": 5, "episode": "deal", "set_sequence_top": "2"},
    {  # San Jia Xi (3 v 3): the shown card, the exchange, a table whose 20 entries all differ, runs of sets to the 2
        "num_players": 6,
        "team_mode": "san_jia_xi",
        "target_points": 30,
        "sjx_score_table": {places: k for k, places in enumerate(SJX_PLACE_SETS)},
        "set_sequence_top": "2",
    },
]


def _dealt(hands: np.ndarray) -> list[int]:
    """Bit sets of pick indices, as the reference engine keeps hands."""
    return [to_bits(np.flatnonzero(h).tolist()) for h in hands]


def _as_dealt(hands: np.ndarray, table: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The hands as dealt, from the hands at the first decision of a deal: a card the exchange's first stage put on
    the table (a giver with one highest card gives it at once) goes back to its giver, the second-to-last (slot 0)
    or the last (slot 1) of the previous deal."""
    dealt = hands.copy()
    for slot, card in enumerate(table):
        if card >= 0:
            dealt[order[slot - 2], card] = True
    return dealt


def _queue_deal(game: ZsyGame, hands: np.ndarray) -> None:
    """Make the reference engine's next deal the given one (instead of its own shuffle)."""

    def deal() -> None:
        game._set_aside = 0
        game._start_deal(_dealt(hands), None)

    game._deal_from_deck = deal  # type: ignore[method-assign]


KINGS_ACES = ((40, 41, 44, 45), (42, 43, 46, 47))
"""Pick indices of K♣ K♦ A♣ A♦ and of K♥ K♠ A♥ A♠: the two first seats' in deals for runs of sets to the 2."""
WILDS = np.arange(48, 54)
"""The four 2s and the jokers."""


def runs_to_two_batch(env: ZhengShangYouFast, num_games: int, seed: int) -> tuple[Any, Any, Any]:
    """:func:`random_batch` for deals where each of the first two seats holds two kings, two aces and two random
    2s or jokers (the rest dealt at random; one of them deals): runs of sets to the 2 and beating ones."""
    import jax.numpy as jnp

    rng = np.random.default_rng(seed)
    n = env.num_players
    hands = np.zeros((num_games, n, 54), bool)
    for i in range(num_games):
        wilds = rng.permutation(WILDS)
        given = [np.r_[KINGS_ACES[k], wilds[2 * k : 2 * k + 2]] for k in range(2)]
        rest = rng.permutation(np.setdiff1d(np.arange(54), np.concatenate(given)))
        sizes = np.diff(np.r_[0, np.cumsum([len(part) for part in np.array_split(np.arange(54), n)])])
        for seat in range(n):
            extra = sizes[seat] - (len(given[seat]) if seat < 2 else 0)
            hands[i, seat, rest[:extra]] = True
            rest = rest[extra:]
            if seat < 2:
                hands[i, seat, given[seat]] = True
    dealers = jnp.asarray(rng.integers(2, size=num_games), jnp.int32)
    players = jnp.arange(n)
    observe_all = jax.vmap(jax.vmap(env.observe, in_axes=(None, 0)), in_axes=(0, None))
    start = compiled(lambda h, d: with_views(jax.vmap(env.init_from_hands)(h, d), observe_all, players), hands, dealers)
    state, views = start(jnp.asarray(hands), dealers)
    step = compiled(
        lambda s, a: with_views(jax.vmap(env.step)(s, a), observe_all, players), state, jnp.zeros(num_games, jnp.int32)
    )
    return state, views, step


def toward_runs_to_two(rng: np.random.Generator, chosen: list[int]) -> Callable[[ZsyGame], int]:
    """A random legal ``choose`` that takes the top rank 2 whenever it is legal, and a set sequence shape three
    times in four when one is (``chosen``: how often it took the 2)."""
    set_sequences = [A.SHAPE + i for i, shape in enumerate(lead_shapes()) if shape[0] == SET_SEQUENCE]
    uniform = random_legal(rng)

    def choose(game: ZsyGame) -> int:
        mask = game.legal_mask()
        if mask[A.TOP + TWO]:
            chosen.append(1)
            return A.TOP + TWO
        shapes = [a for a in set_sequences if mask[a]]
        if shapes and rng.random() < 0.75:
            return int(rng.choice(shapes))
        return uniform(game)

    return choose


def play_lockstep(options: dict[str, Any], num_games: int, seed: int, runs_to_two: list[int] | None = None) -> int:
    """Play ``num_games`` random games on both sides; return the decisions compared. With ``runs_to_two`` (a list
    the times the top rank 2 was taken go to), the deals and the choices favour runs of sets to the 2."""
    env = ZhengShangYouFast(**options)
    opts = env.options
    state, views, step = (random_batch if runs_to_two is None else runs_to_two_batch)(env, num_games, seed)
    hands, dealers, known = np.asarray(state.hands), np.asarray(state.dealer), np.asarray(state.known)
    refs: list[RulesEngine[Any]] = []
    for i in range(num_games):
        dealer = int(dealers[i])
        # San Jia Xi: the card shown before the deal, which everybody knows the dealer holds
        shown = np.flatnonzero(known[i, (dealer + 1) % opts.num_players, dealer])
        assert len(shown) == (opts.team_mode == "san_jia_xi")
        shown_card = PICK_TEXT[shown[0]] if len(shown) else None
        deal = [text(np.flatnonzero(h).tolist()) for h in hands[i]]
        refs.append(ZsyGame.from_deal(opts, deal, dealer=dealer, shown_card=shown_card))

    def next_deal(i: int, game: Any, old: Any, new: Any) -> None:
        dealt_next = np.asarray(new.deals_played)[i] > np.asarray(old.deals_played)[i]  # NumPy copies are cached
        if dealt_next and not np.asarray(new.terminated)[i]:  # the JAX side dealt the next deal
            hands, table, order = (np.asarray(a)[i] for a in (new.hands, new.table, new.prev_order))
            _queue_deal(game, _as_dealt(hands, table, order))

    rng = np.random.default_rng(seed)
    choose = random_legal(rng) if runs_to_two is None else toward_runs_to_two(rng, runs_to_two)
    return play_in_lockstep(refs, state, views, step, choose, env.max_steps, next_deal)


def _case_id(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={'{...}' if isinstance(v, dict) else v}" for k, v in options.items())


@pytest.mark.parametrize("options", CASES, ids=_case_id)
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    # the deal episode with runs to the 2 plays them from the deals and with the choices that make them likely
    runs_to_two: list[int] | None = (
        [] if options.get("set_sequence_top") == "2" and options.get("episode") == "deal" else None
    )
    decisions = play_lockstep(
        options, num_games=6, seed=len(options) * 7 + options["num_players"], runs_to_two=runs_to_two
    )
    assert decisions > 6 * 100
    assert runs_to_two is None or len(runs_to_two) >= 3, len(runs_to_two)


def test_bad_options_and_hands_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="san_jia_xi"):
        ZhengShangYouFast(num_players=4, team_mode="san_jia_xi")
    with pytest.raises(InvalidOptionError, match="set_sequence_top"):
        ZhengShangYouFast(num_players=4, set_sequence_top="K")
    with pytest.raises(InvalidOptionError, match="num_players"):
        ZhengShangYouFast(num_players=7)
    too_many = np.zeros((6, 54), bool)
    too_many[0, :10] = True  # six players are dealt 9 cards each: the pick test has 9 rows
    with pytest.raises(InvalidOptionError, match="at most 9 cards"):
        ZhengShangYouFast(num_players=6).init_from_hands(too_many, 0)
