"""Rules scenarios from explicit deals: tricks, passes, the lead after a player goes out, wild plays."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.errors import IllegalActionError
from cardenvs.zheng_shang_you.actions import ids
from cardenvs.zheng_shang_you.combos import SEQUENCE, SET_SEQUENCE, shape_index
from cardenvs.zheng_shang_you.ranks import VALUE_TEXT, parse
from tests.zheng_shang_you.driver import (
    apply_all,
    combos_now,
    described,
    events_of,
    hand_text,
    new_game,
    pass_turn,
    play,
)

A = ids()


def test_the_deal_from_the_dealer_gives_14_14_13_13() -> None:
    import cardenvs

    env = cardenvs.make_raw("zheng_shang_you-v0", first_dealer=2)
    env.reset(seed=4)
    game = env.game
    assert game is not None and game.dealer == 2 and game.current_player == 2  # the dealer plays first
    assert [h.bit_count() for h in game.hands] == [13, 13, 14, 14]  # dealer and the next get 14
    env5 = cardenvs.make_raw("zheng_shang_you-v0", num_players=5, first_dealer=0)
    env5.reset(seed=4)
    assert env5.game is not None and [h.bit_count() for h in env5.game.hands] == [11, 11, 11, 11, 10]


def test_a_full_trick_with_passes_and_a_player_coming_back_in() -> None:
    game = new_game(["5♣ J♣ 3♦ 4♦", "K♣ 6♥ 7♥ 8♥", "9♣ 10♥ 3♠ 4♠", "4♥ 6♦ 7♠ 8♦"], dealer=0, episode="deal")
    assert not game.legal_mask()[A.PASS]  # the leader cannot pass
    play(game, "5♣")
    assert game.current_player == 1
    pass_turn(game)
    play(game, "9♣")
    pass_turn(game)  # player 3
    play(game, "J♣")  # player 0 again: the trick goes round as long as someone plays
    assert game.current_player == 1
    play(game, "K♣")  # player 1 passed earlier and plays now
    for seat in (2, 3, 0):
        assert game.current_player == seat
        pass_turn(game)
    trick = events_of(game, "trick")[-1]["public"]
    assert trick["seats"] == [0, 2, 0, 1] and trick["winner"] == 1 and trick["next_leader"] == 1
    assert trick["cards"] == [["5♣"], ["9♣"], ["J♣"], ["K♣"]]
    assert game.current_player == 1 and game.top is None  # the last player to play leads
    assert not game.legal_mask()[A.PASS] and game.legal_mask()[A.SHAPE : A.TOP].any()


def test_a_follow_must_have_the_same_shape_and_be_stronger() -> None:
    game = new_game(["8♣ 8♦ 3♣", "9♣ 9♦ 9♥ 10♠ 2♠", "4♣", "5♣"], dealer=0, episode="deal")
    play(game, "8♣ 8♦")
    assert described(combos_now(game)) == {
        ("set", "9", "9♣ 9♦"),
        ("set", "9", "9♣ 9♥"),
        ("set", "9", "9♦ 9♥"),
        ("set", "9", "9♣ 2♠"),
        ("set", "9", "9♦ 2♠"),
        ("set", "9", "9♥ 2♠"),
        ("set", "10", "10♠ 2♠"),
    }
    mask = game.legal_mask()
    assert not mask[A.SHAPE : A.TOP].any()  # no shape choice on a follow: it is the top one's
    with pytest.raises(IllegalActionError, match="no legal set2 that beats"):
        game.apply(A.PICK + parse("2♠")[0])  # a 2 is never the first (lowest) card of a set of 9s


def test_the_lead_passes_on_when_its_winner_has_gone_out() -> None:
    game = new_game(["2♠", "5♣ 5♦ 3♠", "6♣ 6♦", "A♠"], dealer=3, episode="deal")
    play(game, "A♠")  # player 3 goes out first
    out = events_of(game, "out")[-1]
    assert out["player"] == 3 and out["public"] == {"place": 1}
    play(game, "2♠")  # player 0 goes out second
    pass_turn(game)  # player 1
    assert game.current_player == 2
    pass_turn(game)  # player 2: everyone still holding cards has passed
    trick = events_of(game, "trick")[-1]["public"]
    assert trick["winner"] == 0 and trick["next_leader"] == 1
    assert game.current_player == 1  # the next player to the right of the winner who still holds cards
    play(game, "5♣ 5♦")
    play(game, "6♣ 6♦")  # player 2 goes out; player 1 alone holds cards: the deal is over
    over = events_of(game, "deal_over")[-1]["public"]
    assert over["order"] == [3, 0, 2, 1]
    assert over["points"] == [1, 0, 0, 2]  # 2 for first out, 1 for second
    assert game.is_terminal


def test_when_everyone_passes_on_a_player_who_went_out_the_next_player_leads() -> None:
    game = new_game(["5♣ 9♦", "6♣ 7♦", "4♣ 4♦", "A♠"], dealer=3, episode="deal")
    play(game, "A♠")
    for seat in (0, 1, 2):
        assert game.current_player == seat
        pass_turn(game)
    assert game.current_player == 0 and game.top is None


def test_a_joker_sequence_declares_its_top_and_the_follow_must_match_the_class() -> None:
    game = new_game(["7♠ 8♠ BJ 3♣", "7♥ 8♥ 9♥ 10♣ J♣", "3♦", "4♦"], dealer=0, episode="deal")
    apply_all(game, [A.SHAPE + shape_index()[(2, 1, 3)]])
    tops = {VALUE_TEXT[h] for h in np.flatnonzero(game.legal_mask()[A.TOP : A.PICK])}
    assert tops == {"8", "9"}  # 6-7-8 or 7-8-9
    apply_all(game, [A.TOP + 6, A.PICK + parse("7♠")[0], A.PICK + parse("8♠")[0], A.PICK + parse("BJ")[0]])
    lead = events_of(game, "play")[-1]["public"]
    assert lead["top"] == "9" and lead["wild"] and lead["suited"] and lead["kind"] == "sequence"
    # suited with a joker, top 9: only a suited sequence beats it, and at top 9 only a natural one
    assert described(combos_now(game)) == {("sequence", "9", "7♥ 8♥ 9♥")}
    assert set(np.flatnonzero(game.legal_mask())) == {A.PASS, A.TOP + 6}


def test_the_move_under_construction_is_seen_by_its_builder_only() -> None:
    game = new_game(["7♠ 8♠ 9♠", "3♦ 4♦", "5♦", "6♦"], dealer=0, episode="deal")
    layout = game.layout
    others_before = [game.observation(s).copy() for s in (1, 2, 3)]
    apply_all(game, [A.SHAPE + shape_index()[(2, 1, 3)], A.TOP + 6, A.PICK + parse("7♠")[0]])
    mine = game.observation(0)
    assert mine[layout["build_cards"]][parse("7♠")[0]] == 1 and mine[layout["build_top"]][6] == 1
    for seat, before in zip((1, 2, 3), others_before, strict=True):
        assert np.array_equal(game.observation(seat), before)
    with pytest.raises(IllegalActionError, match="picked in ascending strength order"):
        game.apply(A.PICK + parse("7♠")[0])


def test_illegal_actions_raise_with_the_reason() -> None:
    game = new_game(["7♠ 8♠ 9♠", "3♦ 4♦", "5♦", "6♦"], dealer=0, episode="deal")
    with pytest.raises(IllegalActionError, match="leader must play"):
        game.apply(A.PASS)
    with pytest.raises(IllegalActionError, match="no set4"):
        game.apply(A.SHAPE + shape_index()[(1, 4, 1)])
    with pytest.raises(IllegalActionError, match="no card exchange"):
        game.apply(A.GIVE)
    play(game, "7♠ 8♠ 9♠")
    assert game.is_terminal or game.current_player == 1


def test_a_player_who_cannot_beat_may_only_pass() -> None:
    game = new_game(["RJ 3♣", "BJ 4♣", "5♦", "6♦"], dealer=0, episode="deal")
    play(game, "RJ")
    assert list(np.flatnonzero(game.legal_mask())) == [A.PASS]
    assert hand_text(game, 1) == "4♣ BJ"


def test_the_env_offers_no_2_in_a_sequence_and_no_group_of_2s_alone_in_a_sequence_of_sets() -> None:
    """Through the engine's own legal moves on a lead: 2s never enter a plain sequence (only jokers are wild
    there); in a sequence of sets a 2 may fill a group with a natural card or a joker, never a group alone."""
    two_spades, two_hearts = parse("2♠")[0], parse("2♥")[0]
    game = new_game(["3♣ 3♦ 4♣ 4♦ 5♣ 2♠ 2♥ BJ", "6♣ 7♣", "8♣ 9♣", "10♣ J♣"], dealer=0)
    leads = combos_now(game)
    sequences = [c for c in leads if c.kind == SEQUENCE]
    assert sequences and not any(two_spades in c.cards or two_hearts in c.cards for c in sequences)
    assert ("sequence", "5", "3♣ 4♣ 5♣") in described(sequences)
    set_sequences = described([c for c in leads if c.kind == SET_SEQUENCE])
    assert ("set_sequence", "5", "3♣ 3♦ 4♣ 4♦ 5♣ 2♠") in set_sequences  # a 2 with the natural 5
    assert ("set_sequence", "5", "3♣ 3♦ 4♣ 4♦ 2♠ BJ") in set_sequences  # a 2 with a joker
    assert ("set_sequence", "5", "3♣ 3♦ 4♣ 4♦ 2♥ 2♠") not in set_sequences  # the 5s would be two 2s alone
