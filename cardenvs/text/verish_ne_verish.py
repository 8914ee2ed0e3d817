"""Verish' ne verish' in a few sentences (the text seat's rules summary)."""

RULES = """You play Verish' ne verish' ("believe it or not"), a bluffing card game; suits never matter.
Players take turns putting 1-3 cards face down on a pile and claim they are all of one rank. The first play of
a pile names the rank; every later play on that pile claims the same rank. Instead of playing you may
challenge the last play: its cards are turned up. If they were all of the claimed rank the challenger takes
the whole pile, otherwise the player who lied takes it. Four cards of one rank in a hand are discarded.
The last player left holding cards loses; get rid of your cards and avoid picking up piles."""
