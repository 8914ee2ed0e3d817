"""Shared core: cards and decks, the rules-engine protocol, layouts, seating, shared family logic and the
one PettingZoo AEC adapter."""
