"""Kyuuri in a few sentences (the text seat's rules summary)."""

RULES = """You play Kyuuri ("cucumber"): do not take the last trick. Suits never matter; A is high, 2 low.
Everyone gets 7 cards and plays 7 tricks. The leader plays any card; each follower must play a card at least
as high as the highest card in the trick, or else their lowest card. The highest card takes the trick (of
equal ranks, the last one played) and its player leads next. Only the 7th trick scores: its taker adds the
value of their card (2-10 face value, J 11, Q 12, K 13, A 14) as penalty. A player at 21 or more is out; the
last player left wins. Keep low cards for the end."""
