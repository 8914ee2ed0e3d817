"""What the table tells a person at each decision: which cards are playable (exactly the cards of the legal
moves), why another card or selection is refused (in the rules' plain words), hands by suit in the trick-taking
games, plain move words, the games' proper names, the sides once public, and how the game went."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.experiments.play.hints import SUITS, refusal
from cardenvs.experiments.play.roles import outcome
from cardenvs.experiments.play.session import PlaySession, TableSettings
from cardenvs.experiments.play.words import move_label, title


def decisions(session: PlaySession, seed: int, limit: int = 300) -> Iterator[dict[str, Any]]:
    """Each message at which the person is to move, the person then playing a random legal move."""
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        message = session.send()
        if message["over"]:
            return
        if message["waiting"]:
            session.advance(message["version"])
            continue
        yield message
        session.play(message["version"], int(rng.integers(len(message["moves"]))))


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_the_marked_cards_are_the_legal_ones_and_the_others_say_why(env_id: str) -> None:
    refused = 0
    for message in decisions(PlaySession(TableSettings(env_id, seed=11)), seed=2):
        legal = {card for move in message["moves"] for card in move["cards"]}
        assert message["playable"] == [card in legal for card in message["hand"]]
        for i, card in enumerate(message["hand"]):
            if card in legal:
                assert message["why"][i] == ""
                continue
            reason = refusal(message["hand"], [card], message, message["moves"])
            assert reason.startswith(f"{card}: ") and len(reason) > len(card) + 12, reason
            assert "player" not in reason, f"the reason speaks of 'the player', not to the person: {reason}"
            refused += 1
    # in Verish' ne verish' any card may be played at any turn (claims may be lies); elsewhere some are refused
    assert (refused == 0) == env_id.startswith("cardenvs/verish_ne_verish")


def _first(env_id: str, options: dict[str, Any], found: Any, seed: int = 11) -> dict[str, Any]:
    for message in decisions(PlaySession(TableSettings(env_id, options, seed=seed)), seed=2):
        if found(message):
            return message
    raise AssertionError(f"no decision of {env_id} matched")


def test_goninkan_says_which_suit_must_be_followed() -> None:
    message = _first("goninkan-v1", {}, lambda m: m["middle"] and not all(m["playable"]) and any(m["playable"]))
    led = message["middle"][0][1][-1]
    assert led in SUITS
    off_suit = next(c for c, ok in zip(message["hand"], message["playable"], strict=True) if not ok)
    reason = refusal(message["hand"], [off_suit], message, message["moves"])
    assert reason == f"{off_suit}: you must follow {led}"


def test_kyuuri_names_the_card_to_beat_and_a_card_not_held() -> None:
    message = _first("kyuuri-v0", {}, lambda m: not all(m["playable"]))
    low = next(c for c, ok in zip(message["hand"], message["playable"], strict=True) if not ok)
    reason = refusal(message["hand"], [low], message, message["moves"])
    assert "you must play a card at least as high as" in reason and "or your lowest card" in reason
    absent = next(
        r for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") if r not in message["hand"]
    )
    assert refusal(message["hand"], [absent], message, message["moves"]) == f"you hold no {absent}"


def test_zheng_shang_you_says_what_must_be_beaten_also_when_only_a_pass_is_open() -> None:
    message = _first("zheng_shang_you-v0", {}, lambda m: m["middle"] and any(m["playable"]))
    beaten = " ".join(card for _, card in message["middle"])
    assert message["rule"].startswith(f"you must beat {beaten} (")
    # two playable singles together make no combination that beats it: the rule is said
    singles = [c for c, ok in zip(message["hand"], message["playable"], strict=True) if ok]
    pairs = [m["cards"] for m in message["moves"] if len(m["cards"]) == 2]
    odd = next(([a, b] for a in singles for b in singles if a != b and sorted([a, b]) not in map(sorted, pairs)), None)
    if odd is not None:
        assert refusal(message["hand"], odd, message, message["moves"]) == message["rule"]
    only_pass = _first("zheng_shang_you-v0", {}, lambda m: not any(m["playable"]) and m["hand"])
    assert [move_label(m["label"]) for m in only_pass["moves"]] == ["pass"]
    assert refusal(only_pass["hand"], only_pass["hand"][:1], only_pass, only_pass["moves"]).endswith(
        "no card can be played now: pass"
    )


def test_goninkan_hands_are_sorted_by_suit_then_rank() -> None:
    message = _first("goninkan-v1", {}, lambda m: True)
    suits = [SUITS.index(c[-1]) if c[-1] in SUITS else 4 for c in message["hand"]]
    assert suits == sorted(suits)
    assert Counter(message["hand"]) == Counter(message["players"][0]["hand"])


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_move_buttons_are_plain_words(env_id: str) -> None:
    labels = {
        m["label"] for message in decisions(PlaySession(TableSettings(env_id, seed=3)), 4) for m in message["moves"]
    }
    assert labels
    engine_words = [x for x in labels if re.search(r"_|\bshape\b|\bset\d|\bseq\d|declare none|lead choice", x)]
    assert not engine_words, engine_words


def test_names_labels_and_glossary() -> None:
    assert title("verish_ne_verish") == "Verish' ne verish'"
    assert move_label("shape set2") == "play a set of 2"
    assert move_label("declare none") == "play, declaring nothing"
    message = _first("goninkan-v1", {}, lambda m: "いく" in " ".join(m["history"]) or "こい" in " ".join(m["history"]))
    assert message["title"] == "Goninkan (五人関係)"
    term = "いく" if "いく" in " ".join(message["history"]) else "こい"
    assert "lead" in message["glossary"][term]


def test_the_sides_are_shown_once_public_with_the_partner() -> None:
    session = PlaySession(TableSettings("goninkan-v1", seed=3))
    message = session.send()
    team = set(session.game.privileged_state()["kankei"])
    sides = [p["team"] for p in message["players"]]
    assert [s.startswith("関係") for s in sides] == [p in team for p in range(len(sides))]
    mine = 0 in team
    partners = [p for p, s in enumerate(sides) if "your partner" in s]
    assert partners == [p for p in range(1, len(sides)) if (p in team) == mine]


def test_the_outcome_says_won_lost_or_drawn_and_the_place() -> None:
    assert outcome([1.0, -1.0, 0.0], 0, [5, 1, 2], "match")["verdict"] == "You won"
    lost = outcome([1.0, -1.0, 0.0], 1, [5, 1, 2], "match")
    assert (lost["verdict"], lost["place"], lost["of"], lost["points"]) == ("You lost", 3, 3, 1)
    assert outcome([0.0, 0.0], 1, [], "total")["verdict"] == "Drawn"


@pytest.mark.parametrize("env_id", ["cardenvs/goninkan-v1", "cardenvs/yoninkan-v1", "cardenvs/zheng_shang_you-v0"])
def test_log_lines_are_plain_words(env_id: str) -> None:
    lines: list[str] = []
    for seed in range(3):
        session = PlaySession(TableSettings(env_id, seed=seed))
        for _ in decisions(session, seed, limit=2_000):
            pass
        lines += session.send()["history"]
    engine_words = {x for x in lines if re.search(r"\[\[|\{'|[a-z]_[a-z]", x.split(" [you:")[0])}
    assert not engine_words, sorted(engine_words)[:5]


def test_the_end_screen_names_the_last_deals_result_in_plain_words() -> None:
    session = PlaySession(TableSettings("goninkan-v1", seed=3))
    for _ in decisions(session, seed=0, limit=2_000):
        pass
    final = session.send()
    assert final["over"]
    deal, *rounds = final["outcome"]["last_deal"]
    assert re.match(r"deal \d over: (success|failure); points: (無関係|関係) \+\d", deal)
    assert [line.split(" over")[0].split()[0] for line in rounds] == ["round"]


def test_zheng_shang_you_partners_sit_opposite_and_are_named() -> None:
    message = PlaySession(TableSettings("zheng_shang_you-v0", {"team_mode": "partners"}, seat=1, seed=2)).send()
    assert [p["team"] for p in message["players"]] == ["team A", "team B", "team A", "team B, your partner"]
    alone = PlaySession(TableSettings("zheng_shang_you-v0", seed=2)).send()
    assert [p["team"] for p in alone["players"]] == [""] * 4
