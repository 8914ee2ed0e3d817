"""Goninkan rules other than scoring: deck and ranks, follow suit, the joker, 二重関, the match, errors."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.cards import GONINKAN_50, parse_cards
from cardenvs.core.errors import IllegalActionError, InvalidOptionError
from cardenvs.core.tricks import Trick
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions
from cardenvs.goninkan.ruleset import ruleset
from cardenvs.goninkan.table import BLIND_SWAP, LEAD_CHOICE, PLAY
from cardenvs.goninkan.tricks import trick_winner
from tests.goninkan.deals import DEAL1, SWEEP_DEAL
from tests.goninkan.helpers import act, card, goninkan, legal_cards_text, play


def test_deck_has_fifty_cards_without_three_twos() -> None:
    text = {c for c in GONINKAN_50.cards}
    assert len(text) == 50
    assert set(parse_cards("2♠ BJ")) <= text and not set(parse_cards("2♣ 2♦ 2♥")) & text
    cards = ruleset(GoninkanOptions()).cards
    assert sum(cards.honour) == 16 and cards.text[cards.joker] == "BJ"


def _winner(trick_no: int, trump: str, cards: str, named: str | None = None) -> int:
    """Position (0 = leader) of the winner of a trick of the given cards."""
    rules = ruleset(GoninkanOptions())
    t = Trick(0)
    ids = [rules.cards.index(c) for c in parse_cards(cards)]
    for position, c in enumerate(ids):
        t.add(position, c)
    t.led_suit = "♣♦♥♠".index(named) if named else rules.cards.suit[ids[0]]
    return trick_winner(rules, t, trick_no, "♣♦♥♠".index(trump))


def test_trick_winner_ranks_trumps_and_the_joker() -> None:
    assert _winner(3, "♣", "10♥ J♥ A♥ K♥ 2♠") == 2  # A high
    assert _winner(3, "♣", "10♥ J♥ A♥ K♥ 3♣") == 4  # the only trump wins
    assert _winner(3, "♣", "10♥ 4♣ A♥ 5♣ 3♣") == 3  # the highest trump
    assert _winner(3, "♣", "10♥ 3♦ 2♠ 4♥ 9♥") == 0  # off-suit cards never win
    assert _winner(3, "♣", "10♥ A♣ BJ K♥ 9♥") == 2  # the joker beats everything
    assert _winner(4, "♣", "BJ 3♥ A♥ A♣ 9♥", named="♥") == 0


def test_follow_suit_and_the_joker_never_in_trick_one() -> None:
    g = goninkan(SWEEP_DEAL, round_number=10)
    act(g, "lead_choice", "いく")
    assert "lead_joker(♥)" not in legal_cards_text(g)  # player 1 holds the joker: not in trick 1
    play(g, "A♥")
    assert legal_cards_text(g) == {"play(K♥)"}  # player 2 must follow with his only heart
    play(g, "K♥ Q♥ J♥")
    assert len(legal_cards_text(g)) == 10  # player 0 has no heart: anything
    play(g, "J♦")
    # trick 2: player 1 may lead the joker, naming a suit the others must follow
    assert {f"lead_joker({s})" for s in "♣♦♥♠"} <= legal_cards_text(g)
    play(g, "BJ>♥")
    assert g.events.of_kind("play")[-1]["public"] == {"card": "BJ", "trick": 2, "suit": "♥"}
    player2 = g.cards_text(g.hands[2])
    assert player2 == "4♠ 7♦ 8♦ 9♣ 9♦ 10♣ 10♦ K♣ K♦"  # no heart left after K♥
    assert legal_cards_text(g) == {f"play({c})" for c in player2.split(" ")}  # void in ♥: anything
    play(g, "7♦")
    assert legal_cards_text(g) == {"play(7♥)", "play(8♥)"}  # player 3 follows the named suit
    play(g, "8♥ 3♥ 3♣")
    assert g.events.of_kind("trick")[-1]["public"]["winner"] == 1


def _first_legal_plain(game: KankeiGame[GoninkanOptions]) -> int:
    plays = [a for a in game.legal_actions() if a in game.actions["play"]]
    return plays[0] if plays else game.legal_actions()[0]


def test_joker_is_forced_in_trick_nine_and_absent_from_trick_ten() -> None:
    g = goninkan(SWEEP_DEAL, round_number=10, options=GoninkanOptions(play_all_tricks=True))
    act(g, "lead_choice", "いく")
    holder = g.holder(g.joker)
    forced_seen = False
    while g.deal == 1:
        p = g.current_player
        if g.phase == PLAY and p == holder and g.joker in g.hands[p]:
            names = legal_cards_text(g)
            if g.trick_no == 1:
                assert not any("joker" in n for n in names)
            elif g.trick_no == 9:
                assert names in ({"joker"}, {f"lead_joker({s})" for s in "♣♦♥♠"})
                forced_seen = True
            assert g.trick_no < 10
        g.apply(_first_legal_plain(g))
    assert forced_seen
    # play_all_tricks: all 10 tricks were played although the deal was decided earlier
    assert max(e["public"]["trick"] for e in g.events.of_kind("trick")) == 10


def test_illegal_actions_explain_themselves() -> None:
    g = goninkan(SWEEP_DEAL, round_number=10)
    with pytest.raises(IllegalActionError, match="いく or こい"):
        g.apply(g.actions["play"][card(g, "A♥")])
    act(g, "lead_choice", "いく")
    with pytest.raises(IllegalActionError, match="trick 1"):
        g.apply(g.actions["lead_joker"][0])
    with pytest.raises(IllegalActionError, match="not in the player's hand"):
        g.apply(g.actions["play"][card(g, "K♥")])
    play(g, "A♥")
    with pytest.raises(IllegalActionError, match="must follow ♥"):
        g.apply(g.actions["play"][card(g, "K♦")])


# ---------------------------------------------------------------- 二重関
def test_nijukan_partner_is_two_to_the_right_and_the_exchange_is_private() -> None:
    g = goninkan(SWEEP_DEAL, round_number=1, nijukan=("A♣", "10♠"))  # ♣: player 1 holds BJ and A♣
    assert g.kankei == (1, 3)
    called = g.events.of_kind("kankei")[-1]["public"]
    assert called == {"callers": [1], "nijukan": True, "partner": 3, "between": 2}
    assert g.holder(card(g, "A♣")) == 3 and g.holder(card(g, "10♠")) == 1 and g.holder(g.joker) == 1
    assert len(g.hands[1]) == len(g.hands[3]) == 10
    exchange = g.events.of_kind("nijukan_exchange")[-1]
    assert exchange["public"] == {"holder": 1, "partner": 3}
    assert exchange["private"] == {1: {"gave": "A♣", "received": "10♠"}, 3: {"gave": "10♠", "received": "A♣"}}
    # the two 関係 players know who holds which key card (and the partner knows the card he gave)
    assert g.known[1, card(g, "A♣")] == 3 and g.known[3, g.joker] == 1 and g.known[3, card(g, "10♠")] == 1
    assert (g.known[[0, 2, 4]] == -1).all()
    assert g.deal1_holders == (1, 3) and g.phase == LEAD_CHOICE


def test_nijukan_exchange_outcome_is_invisible_to_the_others() -> None:
    a = goninkan(SWEEP_DEAL, round_number=1, nijukan=("A♣", "10♠"))
    b = goninkan(SWEEP_DEAL, round_number=1, nijukan=("BJ", "7♥"))
    assert a.holder(a.joker) == 1 and b.holder(b.joker) == 3
    for observer in (0, 2, 4):
        assert np.array_equal(a.observation(observer), b.observation(observer))
    assert not np.array_equal(a.observation(1), b.observation(1))


@pytest.mark.parametrize("seed", range(6))
def test_random_nijukan_exchange_leaves_one_key_each(seed: int) -> None:
    g = goninkan(SWEEP_DEAL, round_number=1, rng=np.random.default_rng(seed))
    keys = {g.holder(c) for c in g.key_cards()}
    assert keys == {1, 3}
    received = g.events.of_kind("nijukan_exchange")[-1]["private"][1]["received"]
    assert received in SWEEP_DEAL[3].split() and len(g.hands[1]) == 10


def test_blind_nijukan_exchange_is_the_between_players_choice() -> None:
    g = goninkan(SWEEP_DEAL, round_number=1, options=GoninkanOptions(nijukan_exchange="chooser_picks_blind"))
    assert g.phase == BLIND_SWAP and g.current_player == 2
    assert len(g.legal_actions()) == 20
    keys, cards = g.swap_slots
    g.apply(g.actions["blind_swap"][1 * 10 + 4])
    assert g.holder(keys[1]) == 3 and g.holder(cards[4]) == 1
    event = g.events.of_kind("nijukan_exchange")[-1]
    assert event["player"] == 2 and event["public"]["slots"] == [1, 4]
    assert g.phase == LEAD_CHOICE


def test_lead_decider_options() -> None:
    holder = goninkan(DEAL1, round_number=2, options=GoninkanOptions(kankei_lead_decider="ace_holder"))
    assert holder.current_player == 3
    # the decider speaks in public, so everybody now knows who holds which key card
    assert (holder.known[:, card(holder, "A♦")] == 3).all() and (holder.known[:, holder.joker] == 1).all()
    joker = goninkan(DEAL1, round_number=2, options=GoninkanOptions(kankei_lead_decider="joker_holder"))
    assert joker.current_player == 1


# ---------------------------------------------------------------- the match
def test_match_trumps_cycle_and_the_dealer_moves_right() -> None:
    env = cardenvs.make_raw("goninkan-v1", episode="match", n_rounds=5, dealer=0)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    deals = [e["public"] for e in env.events.of_kind("deal") if e["public"]["deal"] == 1]
    assert [d["trump"] for d in deals] == ["♣", "♦", "♥", "♣", "♠"]
    assert [d["round"] for d in deals] == [1, 2, 3, 4, 5]
    swaps = env.events.of_kind("seat_swap")
    if not swaps:  # without seat swaps the dealer simply goes round the table
        assert [d["dealer"] for d in deals] == [0, 1, 2, 3, 4]
    over = env.events.of_kind("game_over")[-1]["public"]
    assert over["rounds"] == 5 and over["rewards"] == [total[a] for a in env.possible_agents]


def test_dealer_rotation_follows_the_seats_after_a_swap() -> None:
    g = goninkan(DEAL1, round_number=1, dealer=1, options=GoninkanOptions(episode="match", n_rounds=3))
    assert g.person_at == [0, 1, 3, 2, 4]  # player 2 swapped with player 3 (see the seat-swap test)
    while g.round_number == 1:
        g.apply(g.legal_actions()[0])
    assert g.dealer == 3  # the person now sitting on the right of dealer 1


def test_round_episode_takes_its_trump_from_round_number() -> None:
    g = KankeiGame(GoninkanOptions(round_number=10), np.random.default_rng(0))
    assert g.trump == 3
    g = KankeiGame(GoninkanOptions(round_number=4, n_rounds=4), np.random.default_rng(0))
    assert g.trump == 3
    g = KankeiGame(GoninkanOptions(round_number=4), np.random.default_rng(0))
    assert g.trump == 0


def test_bad_options_and_deals_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="5 or 6"):
        GoninkanOptions(num_players=4)
    with pytest.raises(InvalidOptionError, match="round_number"):
        GoninkanOptions(round_number=11)
    with pytest.raises(InvalidOptionError, match="episode='round'"):
        GoninkanOptions(episode="match", round_number=2)
    with pytest.raises(InvalidOptionError, match="kankei_lead_decider"):
        cardenvs.make("goninkan-v1", kankei_lead_decider="oldest")
    with pytest.raises(InvalidOptionError, match="2♣ not in the goninkan-50 deck"):
        goninkan([*SWEEP_DEAL[:4], "J♥ 3♥ 4♥ 5♥ 6♥ J♣ 2♠ 5♠ 8♠ 2♣"])
    with pytest.raises(InvalidOptionError, match="deck exactly"):
        goninkan([*SWEEP_DEAL[:4], "J♥ 3♥ 4♥ 5♥ 6♥ J♣ 2♠ 5♠ 8♠ 8♠"])
    uneven = [SWEEP_DEAL[0] + " 2♠", SWEEP_DEAL[1], SWEEP_DEAL[2], SWEEP_DEAL[3], SWEEP_DEAL[4].replace("2♠ ", "")]
    with pytest.raises(InvalidOptionError, match="10 cards"):
        goninkan(uneven)
    with pytest.raises(InvalidOptionError, match="kankei and deal1_holders"):
        goninkan(SWEEP_DEAL, deal=2)
