"""Tournaments (sit-and-go nights with rising blinds): the pure core.

No discord, no I/O, no clock: every time is a float (seconds, as from ``time.time()``) passed in by the
caller. The table layer asks :func:`level_for_next_hand` before each deal, so levels change between hands,
never during one; the store keeps a :class:`Tournament` as JSON (``to_json`` / ``from_json``).
"""

from __future__ import annotations
