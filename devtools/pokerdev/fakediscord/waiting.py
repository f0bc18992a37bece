"""Waiting for the bot: for a condition, a REST call, a message, a DM, the answer to an interaction, every
interaction to settle, or the bot to go quiet. Mixed into :class:`~.fake.FakeDiscord`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TypeVar

from .constants import CALLBACK_DEFERRED_MESSAGE
from .guild import Guild
from .interactions import InteractionLog
from .messages import MessageStore
from .model import FakeChannel, FakeUser, StoredMessage
from .records import InteractionRecord, RestCall
from .runtime import Runtime
from .server import RestServer

_T = TypeVar("_T")


class Waiting:
    guild: Guild
    interaction_log: InteractionLog
    message_store: MessageStore
    rest: RestServer
    runtime: Runtime

    async def wait_for(
        self, condition: Callable[[], _T | None], timeout: float = 5.0, *, what: str = "", poll: float = 0.02
    ) -> _T:
        """Wait until ``condition()`` returns something other than None/False, and return it.

        Re-checked on every change the fake sees, and every ``poll`` seconds (for conditions on the bot's state).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = self.runtime.changed
            result = condition()
            if result is not None and result is not False:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(str(c) for c in self.rest.calls[-12:])
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what or condition!r}; last calls:\n  {recent}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, poll))

    async def wait_for_call(
        self, predicate: Callable[[RestCall], bool], timeout: float = 5.0, *, after: int = 0
    ) -> RestCall:
        """The first recorded call with index >= ``after`` matching ``predicate`` (waiting for it to be answered)."""
        calls = self.rest.calls

        def find() -> RestCall | None:
            return next((c for c in calls[after:] if c.status is not None and predicate(c)), None)

        return await self.wait_for(find, timeout, what="a matching REST call")

    def mark(self) -> int:
        """The index the next call will get: ``wait_for_call(..., after=fake.mark())`` ignores earlier calls."""
        return len(self.rest.calls)

    async def wait_for_message(
        self,
        channel: FakeChannel | str | int,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """The newest current message of the channel that satisfies ``predicate`` (waiting for it)."""
        ch = self.guild.channel(channel)

        def find() -> StoredMessage | None:
            return next((m for m in reversed(ch.current()) if predicate(m)), None)

        return await self.wait_for(find, timeout, what=f"a message in #{ch.name}")

    async def wait_for_dm(
        self,
        user: FakeUser | str | int,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        timeout: float = 5.0,
    ) -> StoredMessage:
        who = self.guild.user(user)

        def find() -> StoredMessage | None:
            return next((m for m in reversed(self.message_store.dms(who)) if predicate(m)), None)

        return await self.wait_for(find, timeout, what=f"a DM to {who.name}")

    async def reply_to(self, interaction_id: int, *, timeout: float = 5.0, followups: int = 0) -> InteractionRecord:
        """Wait for the bot's answer to an interaction and return its record.

        Returns once the interaction is acknowledged, a deferred message (type 5) has been edited or followed up,
        and at least ``followups`` followups were sent. ``record.content/embeds/components/flags`` read the
        original response as it is now. Fails at once if the acknowledgement deadline passed.
        """
        rec = self.interaction_log.records[interaction_id]

        def ready() -> InteractionRecord | None:
            if rec.late:
                raise AssertionError(f"interaction {rec.id} was acknowledged late ({rec.ack_latency:.3f}s)")
            if rec.response_type is None:
                if rec.lost:
                    raise AssertionError(f"interaction {rec.id} was lost: a fault answered its callback 10062")
                if rec.deadline_passed:
                    raise AssertionError(f"interaction {rec.id} was not acknowledged within {rec.deadline}s")
                return None
            original = rec.original
            if rec.response_type == CALLBACK_DEFERRED_MESSAGE and original and original.loading and not rec.followups:
                return None
            return rec if len(rec.followups) >= followups else None

        return await self.wait_for(ready, timeout, what=f"the reply to interaction {interaction_id}")

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every interaction is acknowledged (or past its deadline) and every deferral completed."""

        def settled() -> bool:
            for rec in self.interaction_log.records.values():
                if rec.expect_ack and rec.response_type is None and not rec.deadline_passed:
                    return False
                original = rec.original
                deferred = rec.response_type == CALLBACK_DEFERRED_MESSAGE and original and original.loading
                if deferred and not (rec.followups or (original and original.deleted)):
                    return False
            return True

        limit = timeout if timeout is not None else self.interaction_log.ack_deadline + 2.0
        with contextlib.suppress(TimeoutError):
            await self.wait_for(settled, limit, what="interactions to settle")

    async def quiet(self, period: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until no REST call is in flight and none arrived for ``period`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        rest = self.rest
        while True:
            idle = loop.time() - rest.last_activity
            if rest.inflight == 0 and idle >= period:
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"the bot kept calling for {timeout}s")
            await asyncio.sleep(max(0.005, period - idle if rest.inflight == 0 else period / 4))
