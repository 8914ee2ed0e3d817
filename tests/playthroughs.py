"""Playthroughs: ``python -m tests.playthroughs --update`` rewrites ``tests/playthroughs/`` (review the diff!).

One per registered id and main option set, from a scripted position where the game has a notation (a mid-game
table: a pile on the table, a trick in progress; its ``?`` cards dealt from the seed), else from a seeded deal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cardenvs
from cardenvs.testing.playthrough import playthrough

DIR = Path(__file__).parent / "playthroughs"
SEED = 3

VERISH_PILE = """
dealer: 3
phase: play
turn: 3
hand 0: ? ? ? ? ? ? ? ? ? ? ?
hand 1: ? ? ? ? ? ? ? ? ? ? ?
hand 2: ? ? ? ? ? ? ? ? ? ? ?
hand 3: 2 2 4 6 8 8 10 J Q K A A
pile: claim 7; 0: 7 7; 1: ? ?; 2: ? ?
set aside: ?
"""

KYUURI_TRICK = """
dealer: 0
tricks: 3
trick: leader 2; 2: 9; 3: J
turn: 0
hand 0: 5 7 Q A
hand 1: ? ? ? ?
hand 2: ? ? ?
hand 3: ? ? ?
played 0: 2 6 K
played 1: 3 4 10
played 2: 8 9 9 Q
played 3: 5 6 J K
stock: ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ?
"""

YUKUSHI_RUN = """
leader: 0
turn: 1
to act: 1
owner: 0
declared: 2
leading: no
window: queue -; decided -; calls -
hand 0: ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ?
hand 1: 2 3 3 5 7 7 7 9 10 J Q K A A ? ? ?
hand 2: ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ?
pile: claim 7; 0: ? ?
"""

ZSY_TWO_OUT = """
dealer: 0
turn: 3
top: 2: set of 2×9: 9♣ 9♥
trick: 1: 7♠ 7♦; 2: 9♣ 9♥
out: 0 4
hand 0: -
hand 1: ? ? ? ?
hand 2: ? ? ?
hand 3: 3♣ 5♦ 10♠ 10♥ J♣ RJ
hand 4: -
played 0: ? ? ? ? ? ? ? ? ? ? ?
played 1: 7♠ 7♦ ? ? ? ? ?
played 2: 9♣ 9♥ ? ? ? ? ? ?
played 3: ? ? ? ? ?
played 4: ? ? ? ? ? ? ? ? ? ?
"""

GONINKAN_TRICK9 = """
round: 10
dealer: 4
seats: 4 1 2 3 0
trump: ♠
kankei: 3 4
teams: public
phase: play
turn: 3
tricks: 8
trick: leader 1; 1: J♣; 2: 10♥
honours: 3 4 0 2 4
hand 0: ? ?
hand 1: ?
hand 2: ?
hand 3: 5♦ BJ
hand 4: A♠ ?
played 0: 4♠ 7♦ 7♥ 8♣ 9♠ Q♣ Q♥ A♣
played 1: 3♥ 5♣ 6♥ 7♠ 10♣ J♣ J♠ K♦ A♦
played 2: 3♣ 5♥ 8♥ 9♦ 10♥ J♦ J♥ K♥ A♥
played 3: 3♦ 5♠ 6♣ 6♦ 6♠ 8♦ Q♦ K♠
played 4: 2♠ 3♠ 4♣ 4♦ 9♥ 10♦ 10♠ Q♠
voids: 0: ♦♠; 1: ♠; 2: ♣♦♠; 3: ♥; 4: ♥
known 3: 4: A♠
"""

YONINKAN_SHOW = """
round: 5
deal: 2
dealer: 2
trump: -
kankei: 0 1
teams: public
key holders: 1 0
phase: show
turn: 0
round points: 1 1 -1 -1
hand 0: 6♥ 7♣ 7♦ 8♥ 9♣ 10♣ 10♦ J♦ J♠ Q♦
hand 1: ? ? ? ? ? ? ? ? ? ?
hand 2: ? ? ? ? ? ? ? ? ? ?
hand 3: ? ? ? ? ? ? ? ? ? ?
"""

CASES: list[tuple[str, dict[str, Any], str | None]] = [
    ("verish_ne_verish-v0", {"num_players": 4}, VERISH_PILE),
    ("verish_ne_verish-v0", {"num_players": 3, "deck_size": 36, "quad_discard_optional": True}, None),
    ("yukushi-v0", {"num_players": 3, "challenge_model": "A"}, YUKUSHI_RUN),
    ("yukushi-v0", {"num_players": 4, "allow_count_mismatch": True, "max_play": 2}, None),
    ("kyuuri-v0", {"num_players": 4}, KYUURI_TRICK),
    ("zheng_shang_you-v0", {"num_players": 5}, ZSY_TWO_OUT),
    ("zheng_shang_you-v0", {"num_players": 4, "target_points": 4}, None),
    ("goninkan-v1", {}, None),
    ("goninkan-v1", {"num_players": 5}, GONINKAN_TRICK9),
    ("yoninkan-v1", {}, None),
    ("yoninkan-v1", {"num_players": 4}, YONINKAN_SHOW),
]
"""(id, options, scripted position or None for a seeded deal): every registered id at least once."""


def path_for(env_id: str, options: dict[str, Any]) -> Path:
    name = env_id.split("/")[-1] + "".join(f"-{k}={v}" for k, v in sorted(options.items()))
    return DIR / (name + ".txt")


def text_for(env_id: str, options: dict[str, Any], position: str | None) -> str:
    return playthrough(env_id, options, position, SEED)


def main(argv: list[str]) -> int:
    if argv != ["--update"]:
        print("usage: python -m tests.playthroughs --update", file=sys.stderr)
        return 2
    DIR.mkdir(exist_ok=True)
    for env_id, options, position in CASES:
        path_for(env_id, options).write_text(text_for(env_id, options, position))
        print("wrote", path_for(env_id, options))
    assert {cardenvs.definition(c[0]).env_id for c in CASES} == set(cardenvs.ENV_IDS)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
