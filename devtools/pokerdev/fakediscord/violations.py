"""The violations the fake records: what the bot did that Discord would reject or a user would see as a failure.

The ``fake`` fixture (``tests/e2e/conftest.py``) fails a test on any violation :meth:`Violations.verify` still
reports at its end; a test that provokes one on purpose takes it with ``fake.take_violations(kind)``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .constants import CALLBACK_DEFERRED_MESSAGE
from .records import InteractionRecord, RestCall, Violation


class Violations:
    """The list of violations so far."""

    def __init__(self) -> None:
        self.items: list[Violation] = []

    def record(
        self, kind: str, detail: str, *, call: RestCall | None = None, interaction_id: int | None = None
    ) -> Violation:
        violation = Violation(kind, detail, call, interaction_id)
        self.items.append(violation)
        return violation

    def find(self, kind: str, interaction_id: int) -> Violation | None:
        return next((v for v in self.items if v.kind == kind and v.interaction_id == interaction_id), None)

    def take(self, kind: str | None = None) -> list[Violation]:
        """Remove and return the recorded violations (of one kind): a test that provokes them takes them."""
        taken = [v for v in self.items if kind is None or v.kind == kind]
        self.items[:] = [v for v in self.items if v not in taken]
        return taken

    def verify(self, interactions: Iterable[InteractionRecord], *, check_deferred: bool) -> list[Violation]:
        """Every problem so far: recorded violations, plus deferrals that never completed."""
        problems = list(self.items)
        if not check_deferred:
            return problems
        for rec in interactions:
            original = rec.original
            if (
                rec.response_type == CALLBACK_DEFERRED_MESSAGE
                and original is not None
                and original.loading
                and not original.deleted
                and not rec.followups
            ):
                problems.append(
                    Violation(
                        "deferred-unfinished",
                        f"interaction {rec.id} from {rec.user.name} was deferred and never answered (the user "
                        "sees 'thinking...' forever)",
                        interaction_id=rec.id,
                    )
                )
        return problems
