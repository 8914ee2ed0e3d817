"""Yukushi rules from explicit deals: leads, follows, going out, options, deals, errors and the observation."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.errors import IllegalActionError, InvalidOptionError
from cardenvs.yukushi.options import YukushiOptions
from cardenvs.yukushi.rules import YukushiGame
from tests.yukushi.helpers import FOUR_HANDS, act, all_pass, build, game, hand, kinds, window

SHORT = ["2", "3 3", "4 4 4"]  # players 0–2; player 3 takes the rest of the deck
HIGH = ("5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def short_hands() -> list[str]:
    """Players 0–2 with one to three cards; player 3 holds the rest."""
    rest = ["2"] * 3 + ["3"] * 2 + ["4"] + [r for r in HIGH for _ in range(4)]
    return [*SHORT, " ".join(rest)]


def test_lead_must_play_and_names_any_rank() -> None:
    g = game(leader=2)
    assert g.current_player == 2 and g.legal_actions() == [g.actions["declare"][k] for k in range(13)]
    assert "must lead" in (g.illegal_reason(g.actions["pass"].offset) or "")
    with pytest.raises(IllegalActionError, match="no play to challenge"):
        act(g, "challenge")


def test_follows_claim_the_runs_rank_with_one_to_four_cards() -> None:
    g = game(leader=0)
    build(g, "5 6", declare="A")
    window(g)
    assert g.current_player == 1 and not any(g.legal_mask()[g.actions["declare"].offset : g.actions["pick"].offset])
    for rank in ("2", "3", "3", "4"):
        act(g, "pick", rank)
    assert g.table.plays[-1].count == 4 and g.table.claim_rank == 12  # committed by itself at max_play
    assert g.events.of_kind("play")[-1]["public"] == {"claim": "A", "lead": False, "count": 4}


def test_max_play_limits_the_picks() -> None:
    g = game(leader=0, max_play=2)
    act(g, "declare", "2")
    act(g, "pick", "2")
    act(g, "pick", "2")
    assert g.table.pile_size == 2 and g.current_player != 0


def test_a_play_on_top_makes_the_last_cards_safe() -> None:
    g = game(short_hands(), leader=0)
    build(g, "2", declare="K")  # player 0's only card, a lie
    assert g.table.hand_sizes[0] == 0 and not g.out[0]
    window(g)
    mark = len(g.events)
    build(g, "3")  # player 1 plays on top: player 0 is out and wins
    assert kinds(g, mark) == [("window", None), ("play", 1), ("out", 0), ("game_over", None)]
    assert g.is_terminal


def test_a_caught_lie_with_the_last_cards_is_no_win() -> None:
    g = game(short_hands(), leader=0)
    build(g, "2", declare="K")
    window(g)
    act(g, "challenge")
    assert not g.out[0] and hand(g, 0) == "2" and g.current_player == 1 and g.leading


def test_flushed_last_cards_go_out_and_the_next_player_leads_in_a_ranking() -> None:
    g = game(short_hands(), leader=0, play_to_ranking=True)
    build(g, "2", declare="2")
    all_pass(g)
    window(g)  # the last window: nobody calls
    assert g.out[0] and g.exit_order == [0] and g.current_player == 1 and g.leading
    # ranking: the game goes on; player 1 (two 3s) plays them truthfully, player 2 calls and takes them
    build(g, "3 3", declare="3")
    window(g)
    act(g, "challenge")
    assert g.exit_order == [0, 1] and g.current_player == 2 and g.leading


def test_full_ranking_with_three_players() -> None:
    rest = " ".join(["2"] * 3 + ["3"] * 3 + ["4"] * 4 + [r for r in HIGH for _ in range(4)])
    g = game(["2", "3", rest], leader=0, play_to_ranking=True)
    build(g, "2", declare="2")
    window(g)
    build(g, "3")  # player 1 on top: player 0 out first
    window(g)
    build(g, "4")  # player 2 on top: player 1 out second; player 2 is left
    over = g.events.of_kind("game_over")[0]["public"]
    assert over["order"] == [0, 1, 2] and over["rewards"] == [1.0, 0.0, -1.0]


def test_count_mismatch_is_a_lie_and_counts_are_hidden() -> None:
    g = game(leader=0, allow_count_mismatch=True)
    act(g, "declare", "2")
    assert g.phase() == 1 and g.legal_actions() == [g.actions["count"][m] for m in range(4)]
    act(g, "count", "2")
    build(g, "2")  # one true 2 declared as two
    assert g.events.of_kind("play")[-1]["public"] == {"claim": "2", "lead": True, "declared_count": 2}
    obs = g.observation(1)
    for name in ("hand_sizes", "pile_size", "last_play_count", "pile_by_seat"):
        assert not g.layout.view(obs, name)[1:].any(), name
    assert g.layout.view(obs, "declared_count")[0] == 2
    window(g)
    assert g.legal_mask()[g.actions["count"].offset] and g.legal_mask()[g.actions["pass"].offset]
    act(g, "challenge")
    event = g.events.of_kind("challenge")[-1]
    assert event["public"]["lie"] is True and "pile_size" not in event["public"]
    assert event["private"] == {0: {"pile_size": 1}}


def test_hidden_counts_keep_different_sized_plays_apart_from_nobody() -> None:
    one, two = game(leader=0, allow_count_mismatch=True), game(leader=0, allow_count_mismatch=True)
    for g, cards in ((one, "2"), (two, "2 2")):
        build(g, cards, declare="2", count=3)
    for observer in (1, 2, 3):
        assert np.array_equal(one.observation(observer), two.observation(observer))


def test_forbid_exhausted_rank() -> None:
    g = game(leader=3, forbid_exhausted_rank=True)
    assert all(g.legal_mask()[g.actions["declare"].offset : g.actions["pick"].offset])  # player 3's aces are secret
    build(g, "A A A A", declare="A")
    window(g)
    act(g, "challenge")  # player 0 calls: four aces, so player 0 takes them, publicly
    assert g.current_player == 3
    a = g.actions["declare"][12]
    assert not g.legal_mask()[a] and "publicly known" in (g.illegal_reason(a) or "")


def test_match_previous_winner_leads_and_deals_first() -> None:
    options = YukushiOptions(num_players=3, n_games=2, leader=1)
    g = YukushiGame(options, np.random.default_rng(4))
    assert g.table.hand_sizes == [17, 18, 17]  # dealt from the leader, who gets the extra card
    rng = np.random.default_rng(0)
    while g.games_played == 0:
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
    winner = g.events.of_kind("game_over")[0]["public"]["winner"]
    assert g.leader == winner and g.current_player == winner and g.table.hand_sizes[winner] == 18
    assert g.events.of_kind("deal")[-1]["public"]["leader"] == winner


def test_deal_from_the_dealer() -> None:
    g = YukushiGame(YukushiOptions(num_players=3, leader=1, deal_from="dealer"), np.random.default_rng(4))
    assert g.table.hand_sizes == [18, 17, 17] and g.current_player == 1


def test_bad_options_and_deals_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="num_players must be 2–8"):
        cardenvs.make("yukushi-v0", num_players=9)
    with pytest.raises(InvalidOptionError, match=r"challenge_model.*one of 'A', 'B', 'C'"):
        cardenvs.make("yukushi-v0", challenge_model="D")
    with pytest.raises(InvalidOptionError, match="max_play must be 1–8"):
        cardenvs.make("yukushi-v0", max_play=0)
    with pytest.raises(InvalidOptionError, match=r"leader must be None or a seat 0\.\.3"):
        cardenvs.make("yukushi-v0", leader=4)
    with pytest.raises(InvalidOptionError, match="deck exactly"):
        game(["2 2", "3", "4", "5"])
    with pytest.raises(InvalidOptionError, match="need 4 hands"):
        YukushiGame.from_deal(YukushiOptions(), FOUR_HANDS[:3])


def test_illegal_actions_say_why() -> None:
    g = game(leader=0)
    build(g, "2", declare="2")
    assert "only choices are challenge" in (g.illegal_reason(g.actions["pass"].offset) or "")
    window(g)
    act(g, "pick", "3")
    assert "not possible once a play is under way" in (g.illegal_reason(g.actions["pass"].offset) or "")
    assert "non-decreasing" in (g.illegal_reason(g.actions["pick"][0]) or "")
    assert "only with allow_count_mismatch" in (g.illegal_reason(g.actions["count"].offset) or "")


def test_events_and_observation_hide_flushed_cards() -> None:
    g = game(leader=0)
    build(g, "2 2", declare="K")
    all_pass(g)
    window(g)
    flush = g.events.of_kind("flush")[0]
    assert flush["public"] == {"pile_size": 2} and flush["private"] == {0: {"cards": "2 2"}}
    assert g.layout.view(g.observation(1), "flushed_unseen")[0] == 2
    assert g.layout.view(g.observation(0), "flushed_mine")[0] == 2
    assert g.layout.view(g.observation(0), "flushed_unseen")[0] == 0
    # player 0 knows its two 2s are gone; player 1 only that two cards it never saw are gone
    assert g.layout.view(g.observation(0), "unseen")[0] == 4 - 2 - 0
    assert g.layout.view(g.observation(1), "unseen")[0] == 4 - 1


def test_clone_is_independent() -> None:
    g = game(leader=0)
    build(g, "2", declare="2")
    copy = g.clone()
    window(copy, callers=(2,))
    act(copy, "pass")
    assert g.window is not None and g.window.challengers == [] and g.table.pile_size == 1
    assert copy.table.pile_size == 0 and len(copy.events) > len(g.events)


def test_plays_of_more_than_four_cards_are_always_lies() -> None:
    g = game(leader=0, max_play=6)
    build(g, "5 6 7 8 9", declare="5")  # five cards: never four 5s... nor five
    window(g)
    act(g, "challenge")
    assert g.events.of_kind("challenge")[-1]["public"]["lie"] is True
    assert g.table.hand_sizes[0] == 13 and g.current_player == 1


def test_an_owner_out_on_a_true_play_passes_the_lead_to_his_left_not_to_the_challenger() -> None:
    """Player 0's last card is a true 2; in the window player 2 calls (player 3 declines, player 1's turn action
    is a pass) and takes it. Player 0 is out, and the lead goes to the next active player clockwise from him
    (player 1), not to the challenger (spec §4.4)."""
    g = game(short_hands(), leader=0, play_to_ranking=True)
    build(g, "2", declare="2")
    assert window(g, callers=(2,)) == [2, 3]
    act(g, "pass")  # the turn action closes the window: player 2's call wins
    assert g.out[0] and g.exit_order == [0]
    assert last_challenge(g) == {"owner": 0, "lie": False, "taker": 2}
    assert g.current_player == 1 and g.leading


def test_model_b_polls_clockwise_from_the_owner_even_when_the_turn_has_moved_on() -> None:
    """Player 0 plays, the window passes, player 1 passes: before player 2's turn the poll starts at player 1
    (the owner's left neighbour), not at the turn player (spec §5, model B)."""
    g = game(leader=0, challenge_model="B")
    build(g, "2", declare="2")
    window(g)
    act(g, "pass")
    assert g.turn == 2 and g.window is not None and g.window.queue == [1, 2, 3]
    assert window(g) == [1, 2, 3] and g.current_player == 2


def test_ranking_rewards_follow_the_finishing_order_not_the_seats() -> None:
    """Player 1 goes out first, then player 0, and player 2 is left: rewards +1, 0, −1 by finishing place."""
    rest = " ".join(["2"] * 3 + ["3"] * 2 + ["4"] * 4 + [r for r in HIGH if r != "5" for _ in range(4)] + ["5"] * 3)
    g = game(["3 3 5", "2", rest], leader=0, play_to_ranking=True)
    build(g, "3 3", declare="3")
    window(g)
    build(g, "2")  # player 1's last card, a lie nobody calls
    window(g)
    build(g, "4")  # player 2 on top: player 1 is out first
    assert g.exit_order == [1]
    window(g)
    build(g, "5")  # player 0's last card
    window(g)
    build(g, "4")  # player 2 on top again: player 0 out second, player 2 is left
    over = g.events.of_kind("game_over")[0]["public"]
    assert over["order"] == [1, 0, 2] and over["rewards"] == [0.0, 1.0, -1.0]


def last_challenge(g: YukushiGame) -> dict[str, object]:
    public = g.events.of_kind("challenge")[-1]["public"]
    return {key: public[key] for key in ("owner", "lie", "taker")}


def test_a_turn_voided_by_another_call_ends_at_its_first_step() -> None:
    """Model A: player 2 calls in the window, so player 1's turn action is voided whatever it is; a play ends at
    its first pick, so how many steps it took never tells how many cards it would have had (issue 23)."""
    g = game(leader=0)
    build(g, "2", declare="2")
    assert window(g, callers=(2,)) == [2, 3] and g.current_player == 1
    play = next(m for m in g.legal_moves() if getattr(m, "cards", ()) == (1, 1))  # two 3s: one step, voided
    assert g.move_actions(play) == [g.actions["pick"][1]]
    before = hand(g, 1)
    act(g, "pick", "3")
    assert g.window is None and g.events.of_kind("challenge")[-1]["player"] == 2
    assert hand(g, 1) == before and not g.move_in_progress()


def test_hidden_counts_take_max_play_steps_whatever_the_number_of_cards() -> None:
    g = game(leader=0, allow_count_mismatch=True, max_play=3)
    act(g, "declare", "2")
    act(g, "count", "3")
    act(g, "pick", "2")
    act(g, "done")
    assert g.current_player == 0 and g.legal_actions() == [g.actions["done"].offset]  # the forced step
    act(g, "done")
    assert g.current_player != 0 and g.table.pile_size == 1
