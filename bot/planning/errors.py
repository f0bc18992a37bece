"""The refusal of a planned night: a sentence for the member, nothing changed."""

from __future__ import annotations

from ..refusal import Refusal


class PlanError(Refusal):
    """A plan, a time or a time zone that cannot be taken, with what to do instead: a ``Text`` (whose ``Member``
    values name members, as every refusal's may)."""
