"""Zheng Shang You in a few sentences (the text seat's rules summary)."""

RULES = """You play Zheng Shang You (a climbing card game): be the first to get rid of your cards.
Card order 3 (low) ... A, 2, black joker BJ, red joker RJ. The leader plays a combination: a single, a set of
one rank, a sequence of 3+ consecutive ranks within 3..A, or a sequence of equal sets. Each next player passes
or beats it with a stronger combination of the same kind and shape. 2s and jokers may stand in for lower
ranks (jokers only in plain sequences). When everyone else passes, the last player to play leads anew.
The first out scores most. A move is built as steps: shape(...), then its top rank if asked, then pick(card)
for each card."""
