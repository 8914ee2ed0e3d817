"""Hand-made Goninkan deals (player 0 … 4; dealer 0 unless a test says otherwise).

Each deal was built for the scripts of the tests that use it; the comments say which card goes where.
"""

from __future__ import annotations

# Kankei players 1 (joker) and 3; everyone follows the hearts and diamonds of the first two tricks with
# their honours, so player 1 can take 5 + 5 honours; players 0 and 4 are void in hearts / diamonds.
# With ♠ trump: player 3 is void in clubs (trumps with J♠), player 4 holds one club (J♣).
SWEEP_DEAL = [
    "J♦ Q♣ 3♣ 4♣ 5♣ 6♣ 7♣ 3♠ 6♠ 7♠",
    "A♥ A♦ A♣ K♠ BJ 9♥ 10♥ 5♦ 6♦ 8♣",
    "9♣ 10♣ K♣ 7♦ 8♦ 9♦ 10♦ K♦ K♥ 4♠",
    "Q♥ Q♦ J♠ A♠ Q♠ 7♥ 8♥ 3♦ 4♦ 10♠",
    "J♥ 3♥ 4♥ 5♥ 6♥ J♣ 2♠ 5♠ 8♠ 9♠",
]

# Mukan player 2 holds the four aces (and K♠), players 4 and 0 the other kings and queens: with kankei 1
# and 3 leading low, the mukan side sweeps ♥, ♦ and ♣. Player 3 holds the joker (and no hearts).
REVERSE_DEAL = [
    "Q♥ Q♦ Q♣ J♠ 3♥ 4♥ 5♥ 6♣ 7♣ 6♠",
    "J♥ J♦ J♣ 3♠ 8♦ 3♣ 8♥ 9♥ 8♠ 9♠",
    "A♥ A♦ A♣ A♠ K♠ 6♦ 4♦ 5♦ 10♥ 10♠",
    "3♦ 4♣ 5♣ 2♠ 4♠ BJ 10♣ 9♦ 10♦ 7♠",
    "K♥ K♦ K♣ Q♠ 7♦ 5♠ 6♥ 7♥ 8♣ 9♣",
]

# Round 2 (♦ trump): the joker with player 1 and A♦ with player 3 make 関係. Players 0, 2 and 4 hold one
# diamond each (Q♦, 5♦, K♦); player 1 holds J♦ 8♦ 9♦ 10♦ and player 3 A♦ 3♦ 4♦ 6♦ 7♦.
DEAL1 = [
    "Q♥ Q♣ Q♠ 7♠ Q♦ 9♥ 10♥ J♥ 9♣ 10♣",
    "BJ 3♥ J♣ 3♠ 8♠ J♦ 8♦ 9♦ 10♦ 4♠",
    "A♥ A♣ A♠ 5♠ 5♦ 5♥ 6♥ 4♣ 5♣ 9♠",
    "A♦ 4♥ 3♣ 2♠ J♠ 3♦ 4♦ 6♦ 7♦ 10♠",
    "K♥ K♣ K♠ 6♠ K♦ 7♥ 8♥ 6♣ 7♣ 8♣",
]
