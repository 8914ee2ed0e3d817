"""Yukushi in a few sentences (the text seat's rules summary)."""

RULES = """You play Yukushi (Okinawan for "lie"), a bluffing card game; suits never matter.
The player with the initiative leads 1-4 cards face down onto the pile and declares a rank; each next player
plays 1-4 cards claimed to be of that same rank, or passes. Any player may call "yukushi" (a challenge) on
the latest play: if it was a lie the player who made it picks up the whole pile, otherwise the caller does.
If everyone passes, the pile is flushed out of the game unseen and the last player to play leads again.
A player who has played their last cards has won once that play can no longer be caught as a lie. The first
players out rank best; the last left with cards loses."""
