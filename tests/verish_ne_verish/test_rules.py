"""Rules scenarios of Verish' ne verish' from explicit deals (spec: shared/rules/verish_ne_verish.md)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.engine import TERMINAL
from cardenvs.core.errors import IllegalActionError, InvalidOptionError
from cardenvs.verish_ne_verish.rules import VerishGame, VerishOptions

# A 3-player 36-card deal (dealer 2, so player 0 starts). No player holds four of a kind.
THREE_36 = ["6 6 6 7 7 8 9 10 J Q K A", "6 7 8 8 9 9 10 J Q K A A", "7 8 9 10 10 J J Q Q K K"]
THREE_36_ASIDE = "A"


def game(hands: list[str] = THREE_36, aside: str = THREE_36_ASIDE, dealer: int = 2, **options: Any) -> VerishGame:
    opts = VerishOptions(num_players=len(hands), deck_size=options.pop("deck_size", 36), **options)
    return VerishGame.from_deal(opts, hands, set_aside=aside, dealer=dealer)


def act(g: VerishGame, block: str, label: str = "") -> None:
    """Apply the action of ``block`` for rank ``label`` (or the single action of a one-id block)."""
    b = g.actions[block]
    g.apply(b.offset if not label else b[g.rank_labels.index(label)])


def lead(g: VerishGame, declare: str, cards: str) -> None:
    act(g, "declare", declare)
    follow(g, cards)


def follow(g: VerishGame, cards: str) -> None:
    """Pick ``cards`` (ascending) and finish the play unless it committed by itself."""
    player = g.current_player
    for rank in cards.split():
        act(g, "pick", rank)
    if g.current_player == player and g.move_in_progress():
        act(g, "done")


def hand(g: VerishGame, seat: int) -> str:
    return g._ranks_text(g.table.hands[seat])


def last(g: VerishGame, kind: str) -> dict[str, Any]:
    return g.events.of_kind(kind)[-1]


def test_first_player_is_the_dealers_left_and_must_declare() -> None:
    g = game(dealer=2)
    assert g.current_player == 0
    assert g.legal_actions() == [g.actions["declare"][k] for k in range(9)]
    assert "nothing to challenge" in (g.illegal_reason(g.actions["challenge"].offset) or "")


def test_caught_lie_liar_takes_pile_and_challenger_starts() -> None:
    g = game()
    lead(g, "7", "6")  # player 0 claims a 7 but plays a 6
    follow(g, "10")  # player 1 trusts (also a lie, never turned over)
    act(g, "challenge")  # player 2 challenges player 1's play only
    event = last(g, "challenge")
    assert event["public"] == {"owner": 1, "revealed": ["10"], "lie": True, "taker": 1, "pile_size": 2}
    assert hand(g, 1) == "6 6 7 8 8 9 9 10 J Q K A A"  # the liar took both cards: player 0's 6 and its own 10
    assert g.table.pile_size == 0 and g.table.claim_rank == -1
    assert g.current_player == 2 and g.leading  # the successful challenger starts the next round


def test_wrong_challenge_challenger_takes_pile_and_next_player_starts() -> None:
    g = game()
    lead(g, "6", "6 6")
    act(g, "challenge")  # player 1 challenges a true claim
    event = last(g, "challenge")
    assert event["public"]["lie"] is False and event["public"]["taker"] == 1
    assert hand(g, 1) == "6 6 6 7 8 8 9 9 10 J Q K A A"
    assert g.current_player == 2 and g.leading  # the player after the challenger starts


def test_only_the_latest_play_is_turned_over() -> None:
    g = game()
    lead(g, "7", "6")  # a lie, but buried
    follow(g, "7")  # a true 7 on top
    act(g, "challenge")
    assert last(g, "challenge")["public"]["revealed"] == ["7"]
    assert last(g, "challenge")["public"]["lie"] is False
    assert g.table.hand_sizes[2] == 11 + 2  # the challenger took the whole pile, lie included


def test_quad_is_discarded_after_a_pick_up() -> None:
    g = game()
    lead(g, "6", "6 6 6")  # true; player 1 holds the fourth 6
    act(g, "challenge")
    assert last(g, "discard_quad")["player"] == 1 and last(g, "discard_quad")["public"]["rank"] == "6"
    assert "6" not in hand(g, 1).split()
    assert g.discarded[g.rank_labels.index("6")]
    assert g.table.hand_sizes[1] == 12 + 3 - 4


def test_quad_discard_after_the_deal() -> None:
    hands = ["6 6 6 6 7 8 9 10 J Q K A", "7 7 8 8 9 9 10 J Q K A A", "7 8 9 10 10 J J Q Q K K"]
    g = game(hands=hands)
    assert [e["public"]["rank"] for e in g.events.of_kind("discard_quad")] == ["6"]
    assert g.table.hand_sizes[0] == 8


def test_optional_quad_discard_is_a_decision() -> None:
    g = game(quad_discard_optional=True)
    keep = g.actions["keep_quads"].offset
    for _ in range(3):  # after the deal everybody is asked, holding a quad or not (being asked is public)
        assert g.legal_actions() == [keep]
        act(g, "keep_quads")
    lead(g, "6", "6 6 6")
    act(g, "challenge")
    assert g.current_player == 1 and g.quad_queue == [1]
    assert g.legal_actions() == [g.actions["discard_quad"][0], keep]
    act(g, "keep_quads")
    assert hand(g, 1).split().count("6") == 4
    assert g.current_player == 2 and g.leading
    assert last(g, "keep_quads")["public"] == {} and last(g, "keep_quads")["private"] == {1: {"kept": ["6"]}}


def test_forbid_discarded_rank_masks_the_declaration() -> None:
    g = game(forbid_discarded_rank=True)
    lead(g, "6", "6 6 6")
    act(g, "challenge")  # player 1 takes and discards the sixes; player 2 leads
    six = g.actions["declare"][g.rank_labels.index("6")]
    assert not g.legal_mask()[six]
    with pytest.raises(IllegalActionError, match="forbid_discarded_rank"):
        g.apply(six)


def test_going_out_is_safe_once_the_next_player_trusts() -> None:
    hands = ["A", "6 6 6 7 7 8 9 10 J Q K A 6 7 8 8 9", "9 10 J Q K 7 8 9 10 10 J J Q Q K K A"]
    g = game(hands=hands, aside="A", dealer=2)
    lead(g, "A", "A")
    assert g.table.hand_sizes[0] == 0 and not g.out[0]  # not out while the play may be challenged
    follow(g, "7")  # player 1 plays on top: player 0's play can no longer be challenged
    assert g.out[0] and last(g, "out")["public"]["place"] == 1
    assert g.current_player == 2


def test_a_player_caught_lying_on_the_last_card_stays_in() -> None:
    hands = ["K", "6 6 6 7 7 8 9 10 J Q K A 6 7 8 8 9", "9 10 J Q A 7 8 9 10 10 J J Q Q K K A"]
    g = game(hands=hands, aside="A", dealer=2)
    lead(g, "A", "K")
    act(g, "challenge")
    assert not g.out[0] and hand(g, 0) == "K"
    assert g.current_player == 1


def test_a_true_last_play_challenged_goes_out_and_the_player_after_the_challenger_starts() -> None:
    hands = ["A", "6 6 6 7 7 8 9 10 J Q K A 6 7 8 8 9", "9 10 J Q K 7 8 9 10 10 J J Q Q K K A"]
    g = game(hands=hands, aside="A", dealer=2)
    lead(g, "A", "A")
    act(g, "challenge")
    assert g.out[0]
    assert g.current_player == 2  # the player after the challenger (player 1)


def test_last_holder_loses_in_two_player_game() -> None:
    hands = ["A", "6 6 6 6 7 7 7 7 8 8 8 8 9 9 9 9 10 10 10 10 J J J J Q Q Q Q K K K K A A"]
    g = game(hands=hands, aside="A", dealer=1)
    # Player 1's eight quads were discarded at the deal: two aces remain.
    assert hand(g, 1) == "A A" and g.current_player == 0
    lead(g, "A", "A")
    follow(g, "A")  # player 1 trusts: player 0 is out, only player 1 holds cards
    assert g.current_player == TERMINAL
    assert last(g, "game_over")["public"]["loser"] == 1
    assert g.take_rewards().tolist() == [1.0, -1.0]


def test_exit_order_rewards_are_linear_and_zero_sum() -> None:
    hands = ["A", "K", "6 6 6 6 7 7 7 7 8 8 8 8 9 9 9 9 10 10 10 10 J J J J Q Q Q Q K K K A A"]
    g = game(hands=hands, aside="A", dealer=2, reward_mode="exit_order")
    lead(g, "A", "A")
    follow(g, "K")  # player 0 out first
    follow(g, "A")  # player 1 out second; player 2 is the last holder
    rewards = g.take_rewards()
    assert rewards.tolist() == [1.0, 0.0, -1.0] and rewards.sum() == 0


def test_match_pays_each_game_and_the_loser_deals_next() -> None:
    env = cardenvs.make_raw("verish_ne_verish-v0", num_players=3, n_games=2, loser_deals_next=True)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    paid = []
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        if any(env.rewards.values()):
            paid.append(dict(env.rewards))
    overs = env.events.of_kind("game_over")
    deals = env.events.of_kind("deal")
    assert len(overs) == 2 and len(paid) == 2
    assert deals[1]["public"]["dealer"] == overs[0]["public"]["loser"]
    for payment in paid:
        assert sorted(payment.values()) == [-1.0, 0.5, 0.5]


@pytest.mark.parametrize(("players", "deck", "sizes"), [(2, 36, [17, 18]), (5, 52, [10, 11, 10, 10, 10])])
def test_default_decks_and_deal_sizes(players: int, deck: int, sizes: list[int]) -> None:
    options = VerishOptions(num_players=players, dealer=0)
    assert options.deck.size == deck
    g = VerishGame(options, np.random.default_rng(5))
    dealt = g.events.of_kind("deal")[0]["public"]["hand_sizes"]
    assert dealt == sizes  # dealt one at a time from the dealer's left; one card set aside
    discarded = 4 * int(g.discarded.sum())
    assert sum(g.table.hand_sizes) + discarded + 1 == deck


@pytest.mark.parametrize(("players", "deck"), [(2, 36), (5, 52)])
def test_random_games_end_with_exactly_one_loser(players: int, deck: int) -> None:
    for seed in range(20):
        g = VerishGame(VerishOptions(num_players=players, deck_size=deck), np.random.default_rng(seed))
        rng = np.random.default_rng(seed)
        while g.current_player != TERMINAL:
            legal = g.legal_actions()
            g.apply(legal[rng.integers(len(legal))])
        over = g.events.of_kind("game_over")[0]["public"]
        assert sorted(over["order"]) == list(range(players))
        assert over["rewards"].count(-1.0) == 1


def test_explicit_deal_must_match_the_deck() -> None:
    with pytest.raises(InvalidOptionError, match="deck exactly"):
        game(hands=["6 6", "7", "8"], aside="A")
    with pytest.raises(InvalidOptionError, match="not in the short-36 deck"):
        game(hands=["2", "7", "8"], aside="A")


def test_a_redeal_keeps_the_cards_the_observer_knows_another_player_holds() -> None:
    g = game()
    lead(g, "7", "6")  # player 0 lies with a 6
    follow(g, "10")  # player 1 lies with a 10
    act(g, "challenge")  # player 2 catches player 1, who takes the 6 (known to player 0) and the shown 10
    six, ten = g.rank_labels.index("6"), g.rank_labels.index("10")
    assert g.table.known_held[0, 1, six] == 1 and g.table.known_held[0, 1, ten] == 1
    lead(g, "8", "7")  # player 2 leads
    follow(g, "9")  # player 0 follows
    act(g, "pick", "6")  # player 1 starts building a play with the known 6 (not finished)
    assert g.current_player == 1 and g.move_in_progress()
    rng = np.random.default_rng(0)
    for _ in range(50):
        other = g.resample_hidden(0, rng)
        held = other.table.hands[1]  # its hand, which includes the play it is building
        assert held[six] >= 1 and held[ten] >= 1, g._ranks_text(held)
        assert other.table.building_count == 1 and other.table.building.sum() == 1
        assert np.array_equal(other.table.hands[0], g.table.hands[0])


# Player 0 goes out on a true ace, player 1 on a lie that player 2 trusts: player 2 loses game 1 of a match.
QUICK_GAME = ["A", "K", "6 6 6 6 7 7 7 7 8 8 8 8 9 9 9 9 10 10 10 10 J J J J Q Q Q Q K K K A A"]


@pytest.mark.parametrize(("loser_deals_next", "dealer"), [(False, 0), (True, 2)])
def test_the_next_game_of_a_match_is_dealt_to_the_left_or_by_the_loser(loser_deals_next: bool, dealer: int) -> None:
    """Game 1 is dealt by player 2; without loser_deals_next the deal passes to the dealer's left (player 0), with
    it to the loser (player 2). Each game starts with the new dealer's left neighbour."""
    g = game(hands=QUICK_GAME, aside="A", dealer=2, n_games=3, loser_deals_next=loser_deals_next)
    lead(g, "A", "A")
    follow(g, "K")
    follow(g, "A")
    assert last(g, "game_over")["public"]["loser"] == 2
    assert g.dealer == dealer and last(g, "deal")["public"]["dealer"] == dealer
    assert g.current_player == (dealer + 1) % 3 == g.next_starter and g.leading


def test_a_kept_quad_may_be_discarded_after_a_later_pick_up_and_not_before() -> None:
    """quad_discard_optional: player 0 keeps his four sixes at the deal; he may not discard them on a turn of
    play, but may when he next takes the pile into his hand."""
    hands = ["6 6 6 6 7 7 8 9 10 J Q K", "7 8 8 9 9 10 J Q K A A A", "7 8 9 10 10 J J Q Q K K"]
    g = game(hands=hands, aside="A", quad_discard_optional=True)
    discard_six, keep = g.actions["discard_quad"][0], g.actions["keep_quads"].offset
    assert g.current_player == 0 and g.legal_actions() == [discard_six, keep]
    for _ in range(3):
        act(g, "keep_quads")
    assert hand(g, 0).split().count("6") == 4
    assert not g.legal_mask()[discard_six] and g.current_player == 0
    lead(g, "7", "8")  # a lie
    assert not g.legal_mask()[discard_six]
    act(g, "challenge")  # player 1 catches it: player 0 takes the pile, and is asked about his quads
    assert g.current_player == 0 and g.legal_actions() == [discard_six, keep]
    g.apply(discard_six)
    act(g, "keep_quads")
    assert last(g, "discard_quad")["player"] == 0 and "6" not in hand(g, 0).split()
    assert g.current_player == 1 and g.leading  # the challenger starts after a lie


def test_a_play_waits_for_done_even_when_no_higher_rank_is_left() -> None:
    """Player 0 picks his only ace: nothing is left to pick, but the play is neither full (three cards) nor his
    whole hand, so done is asked for, as his only choice; committing by itself would tell the table that he
    holds nothing higher (issue 23)."""
    g = game()
    act(g, "declare", "A")
    act(g, "pick", "A")
    assert g.current_player == 0 and g.move_in_progress() and g.legal_actions() == [g.actions["done"].offset]
    assert g.move_actions(g.legal_moves()[0]) == [g.actions["done"].offset]
    act(g, "done")
    assert g.current_player == 1 and last(g, "play")["public"]["count"] == 1
