"""Tests of the tournament library (agents.tournament) and its command line."""
