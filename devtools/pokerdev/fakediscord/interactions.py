"""The interactions sent to the bot: by id and by token, their acknowledgement deadlines, the modals shown."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .constants import JSON
from .records import InteractionRecord
from .runtime import Runtime
from .violations import Violations


@dataclass(eq=False)
class ShownModal:
    """A modal the bot showed a user (callback 9), waiting for him to submit it."""

    data: JSON
    source: InteractionRecord


class InteractionLog:
    """Every interaction, the 3 s acknowledgement deadline of each, token expiry and the open modals."""

    def __init__(self, runtime: Runtime, violations: Violations, *, ack_deadline: float, token_ttl: float) -> None:
        self.runtime = runtime
        self.violations = violations
        self.ack_deadline = ack_deadline
        self.token_ttl = token_ttl
        self.records: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.modals: dict[tuple[int, str], ShownModal] = {}
        self.timers: list[asyncio.TimerHandle] = []

    def open(self, rec: InteractionRecord) -> None:
        """Register an interaction about to be sent, and start its acknowledgement clock."""
        self.records[rec.id] = rec
        self.by_token[rec.token] = rec
        loop = asyncio.get_running_loop()
        self.timers.append(loop.call_later(rec.deadline + 0.01, self._deadline_passed, rec))

    def _deadline_passed(self, rec: InteractionRecord) -> None:
        rec.deadline_passed = True
        if rec.expect_ack and rec.response_type is None and not rec.late and not rec.lost:
            self.violations.record(
                "ack-deadline",
                f"interaction {rec.id} ({rec.describe()}) from {rec.user.name} was not acknowledged within "
                f"{rec.deadline}s",
                interaction_id=rec.id,
            )
        self.runtime.notify()

    def lose(self, interaction_id: int | None) -> None:
        """A fault answered the interaction's callback 10062: Discord forgot it (the user sees it fail)."""
        rec = self.records.get(interaction_id or 0)
        if rec is not None and rec.response_type is None:
            rec.lost = True
            self.runtime.notify()

    def token_expired(self, rec: InteractionRecord) -> bool:
        return rec.expired or self.runtime.now() - rec.sent_at > self.token_ttl

    def expire(self, *interaction_ids: int) -> None:
        """Expire interaction tokens (all, or the given ones): later webhook calls answer 401 / 50027."""
        for rec in self.records.values():
            if not interaction_ids or rec.id in interaction_ids:
                rec.expired = True

    def show_modal(self, rec: InteractionRecord, data: JSON) -> None:
        self.modals[(rec.user.id, str(data.get("custom_id")))] = ShownModal(data, rec)

    def cancel_timers(self) -> None:
        for timer in self.timers:
            timer.cancel()
