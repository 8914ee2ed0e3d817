"""The JAX Zheng Shang You against the reference engine: the same deals and the same actions give the same players
to act, masks, every seat's observation and rewards, decision for decision, over many random games.

A batch of games is played in lockstep (one jitted, vmapped step per decision on the JAX side, the reference
engines one by one beside it), with random legal actions drawn from the reference mask: the sub-steps of plays
(shape, top rank, cards), passes and the exchange. The first deals are the JAX side's (``init``); in a match each
later deal that the JAX step shuffles is handed to its reference engine before the action that ends the deal, so
both sides play the same cards throughout."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.errors import InvalidOptionError
from cardenvs.zheng_shang_you.game import ZsyGame
from cardenvs.zheng_shang_you.ranks import text, to_bits
from tests.fast.lockstep import play_in_lockstep, random_batch, random_legal

jax = pytest.importorskip("jax")
from cardenvs.fast.zheng_shang_you import ZhengShangYouFast  # noqa: E402  (needs JAX, skipped above without it)

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
    {"num_players": 5, "episode": "deal"},  # rewards by place at the end of one deal
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


def play_lockstep(options: dict[str, Any], num_games: int, seed: int) -> int:
    """Play ``num_games`` random games on both sides; return the decisions compared."""
    env = ZhengShangYouFast(**options)
    opts = env.options
    state, views, step = random_batch(env, num_games, seed)
    hands, dealers = np.asarray(state.hands), np.asarray(state.dealer)
    refs = [
        ZsyGame.from_deal(opts, [text(np.flatnonzero(h).tolist()) for h in hands[i]], dealer=int(dealers[i]))
        for i in range(num_games)
    ]

    def next_deal(i: int, game: Any, old: Any, new: Any) -> None:
        dealt_next = np.asarray(new.deals_played)[i] > np.asarray(old.deals_played)[i]  # NumPy copies are cached
        if dealt_next and not np.asarray(new.terminated)[i]:  # the JAX side dealt the next deal
            hands, table, order = (np.asarray(a)[i] for a in (new.hands, new.table, new.prev_order))
            _queue_deal(game, _as_dealt(hands, table, order))

    choose = random_legal(np.random.default_rng(seed))
    return play_in_lockstep(refs, state, views, step, choose, env.max_steps, next_deal)


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    decisions = play_lockstep(options, num_games=6, seed=len(options) * 7 + options["num_players"])
    assert decisions > 6 * 100


def test_unplayed_options_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="san_jia_xi"):
        ZhengShangYouFast(num_players=6, team_mode="san_jia_xi")
    with pytest.raises(InvalidOptionError, match="set_sequence_top"):
        ZhengShangYouFast(num_players=4, set_sequence_top="2")
    with pytest.raises(InvalidOptionError, match="num_players"):
        ZhengShangYouFast(num_players=7)
