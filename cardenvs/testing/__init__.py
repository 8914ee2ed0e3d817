"""The cardenvs conformance kit, shipped with the package so that any game can be checked.

>>> from cardenvs.testing import run_kit
>>> run_kit("verish_ne_verish-v0", {"num_players": 3}, games=20)

The checks: PettingZoo ``api_test``/``seed_test`` with a warning allowlist; exact masks against the
engine's own ``legal_moves()``; the hidden-information test (re-deals, final observations included, and hidden
choices); the same for a seat's public event view; the decision-structure test (who acts and how often does not
depend on hidden cards); card
conservation; bounded episodes; determinism across processes; distinct deals per seed; deep copy and
pickle mid-game; ANSI rendering; position round trips (:mod:`cardenvs.testing.positions`), at every decision of
a game too, and malformed positions refused with ``PositionError`` (:mod:`cardenvs.testing.position_fuzz`). Golden
transcripts live in :mod:`cardenvs.testing.golden`.
"""

from cardenvs.testing.checks import (
    WARNING_ALLOWLIST,
    check_card_conservation,
    check_copy_and_pickle,
    check_determinism,
    check_distinct_deals,
    check_episode_bounds,
    check_hidden_information,
    check_masks,
    check_pettingzoo_api,
    check_render,
)
from cardenvs.testing.errors import ConformanceError
from cardenvs.testing.golden import transcript
from cardenvs.testing.kit import KitReport, run_kit
from cardenvs.testing.position_fuzz import check_malformed_positions
from cardenvs.testing.positions import (
    check_position_round_trip,
    check_positions,
    check_positions_at_decision,
    check_positions_at_every_decision,
    position_round_trip_property,
)
from cardenvs.testing.public_view import check_public_view
from cardenvs.testing.turns import check_decision_structure

__all__ = [
    "WARNING_ALLOWLIST",
    "ConformanceError",
    "KitReport",
    "check_card_conservation",
    "check_copy_and_pickle",
    "check_decision_structure",
    "check_determinism",
    "check_distinct_deals",
    "check_episode_bounds",
    "check_hidden_information",
    "check_malformed_positions",
    "check_masks",
    "check_pettingzoo_api",
    "check_position_round_trip",
    "check_positions",
    "check_positions_at_decision",
    "check_positions_at_every_decision",
    "check_public_view",
    "check_render",
    "position_round_trip_property",
    "run_kit",
    "transcript",
]
