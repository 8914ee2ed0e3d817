"""High card, a game made only to follow docs/architecture.md's "Adding a game" recipe in a test: each of two
players is dealt one of four cards, then each in turn shows or folds; the higher card shown wins."""
