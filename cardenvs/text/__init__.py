"""The games as text: a seat's view written for a language model, and a parser for its reply.

:func:`seat_prompt` writes what one seat knows at its decision: the rules summary (once), the public history
since the seat's last move (its :class:`~cardenvs.core.views.PublicView` events), its hand and the table (the
seat's position, ``position(seat=i)``, ``?`` for every card it cannot see) and its legal moves as complete
moves in the game's own words (the action names of every sub-step, e.g. ``declare(7) pick(7♠) done``).
:func:`parse_reply` maps a reply (a listed number, or a move written out, case and spacing tolerant, with or
without prose around it) to the move's action ids.

The prompt is built from a world the seat cannot tell from the true one: the true game, or any
``resample_hidden(seat, rng)`` copy of it (what :class:`agents.search.information.InformationSets` hands a
policy). The complete legal moves of the seat to act depend only on its own hand and the public state, so
every such world lists the same moves; :func:`cardenvs.testing.text_seat.check_text_seat` re-deals every card
the seat cannot see and asserts the prompt does not change.
"""

from cardenvs.text.moves import ParsedReply, TextMove, parse_reply, seat_moves
from cardenvs.text.seat import SeatPrompt, seat_prompt

__all__ = ["ParsedReply", "SeatPrompt", "TextMove", "parse_reply", "seat_moves", "seat_prompt"]
