"""The fake Discord with hooks for programs that drive many players at once: the offline demo and the load bench.

:class:`ObservedFake` is :class:`~pokerdev.fakediscord.FakeDiscord` (unchanged behaviour, the same checks) plus:

* ``watchers``: functions called with ``(message, created)`` whenever a message is created or changed (a REST
  call, an interaction response or a webhook edit), so that players can react to the table message at once
  instead of polling;
* :meth:`ObservedFake.answer`: waits for the bot's answer to one interaction with a future (``reply_to`` polls,
  which is fine for a test and too slow for five hundred tables);
* counters of REST calls by route, DM or channel, and each interaction's latency, from the moment the fake sends
  INTERACTION_CREATE to the moment the bot's callback request reaches it;
* ``lean=True`` for long runs: message versions, answered interactions and call records are not kept (the
  counters are), so the fake's own memory and CPU stay flat.

Nothing here changes what the bot sees.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .fakediscord import (
    CALLBACK_DEFERRED_MESSAGE,
    Answer,
    FakeChannel,
    FakeConfig,
    FakeDiscord,
    InteractionRecord,
    RestCall,
    StoredFile,
    StoredMessage,
)

__all__ = ["CallTally", "ObservedFake", "Watcher"]

log = logging.getLogger(__name__)

KEPT_CLICKS = 4  # messages whose last click ``forget`` keeps, a channel: the bot edits its table through it
KEPT_OWN = 24  # a player's ephemeral messages and newest clicks kept (a draw is k + 2 clicks; a bet menu and
# pre-action taps add more while his private message, edited through an older click's token, stays current)

Watcher = Callable[[StoredMessage, bool], None]


@dataclass
class CallTally:
    """REST calls counted since the last :meth:`ObservedFake.reset_counters`."""

    total: int = 0
    by_route: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # "404 PATCH channel message": how many
    latencies: list[float] = field(default_factory=list)  # seconds, one per acknowledged interaction
    interactions: int = 0

    def kind(self, name: str) -> int:
        return self.by_route.get(name, 0)


class ObservedFake(FakeDiscord):
    """A :class:`FakeDiscord` that tells watchers about every message change and counts what the bot does."""

    def __init__(self, config: FakeConfig | None = None, *, lean: bool = False) -> None:
        super().__init__(config)
        self.lean = lean
        self.watchers: list[Watcher] = []
        self.tally = CallTally()
        self._waiting: dict[int, asyncio.Future[InteractionRecord]] = {}
        self._kept_clicks: dict[tuple[str, int], dict[int, int]] = {}  # message id: its last click (see forget)

    # -- counters ---------------------------------------------------------------------------------------------

    def reset_counters(self) -> CallTally:
        """Start counting afresh; returns what was counted so far."""
        old, self.tally = self.tally, CallTally()
        return old

    def _route_name(self, call: RestCall) -> str:
        route = call.route or f"{call.method} ?"
        if route == "POST /channels/{channel_id}/messages":
            channel = self.channels.get(call.channel_id or 0)
            return "POST dm message" if channel is not None and channel.is_dm else "POST channel message"
        if route == "PATCH /channels/{channel_id}/messages/{message_id}":
            return "PATCH channel message"
        if route == "POST /interactions/{interaction_id}/{token}/callback":
            return "POST interaction callback"
        if route == "POST /users/@me/channels":
            return "POST open dm"
        if route.startswith(("PATCH /webhooks/", "POST /webhooks/", "DELETE /webhooks/", "GET /webhooks/")):
            return f"{call.method} interaction webhook"  # an interaction endpoint: not under the global limit
        return route

    async def _answer(self, call: RestCall) -> Answer:
        answer = await super()._answer(call)
        tally = self.tally
        tally.total += 1
        tally.by_route[self._route_name(call)] += 1
        if answer.status >= 400:
            tally.errors[f"{answer.status} {self._route_name(call)}"] += 1
        return answer

    # -- interactions ---------------------------------------------------------------------------------------

    async def _send_interaction(self, itype: int, user: Any, channel: FakeChannel, data: Any, **kwargs: Any) -> int:
        iid = await super()._send_interaction(itype, user, channel, data, **kwargs)
        self.tally.interactions += 1
        return iid

    async def _callback(self, call: RestCall) -> Answer:
        rec = self.interactions.get(call.interaction_id or 0)
        first = rec is not None and rec.ack_latency is None
        try:
            return await super()._callback(call)
        finally:
            if rec is not None and first and rec.ack_latency is not None:  # this call answered it (maybe late)
                self.tally.latencies.append(call.time - rec.sent_at)
            if rec is not None and (rec.response_type is not None or rec.late):
                waiter = self._waiting.pop(rec.id, None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(rec)

    async def answer(self, interaction_id: int, timeout: float = 10.0) -> InteractionRecord:
        """The interaction's record once the bot acknowledged it (a deferred message: once it was completed)."""
        rec = self.interactions[interaction_id]
        if rec.response_type is None:
            waiter = self._waiting.setdefault(interaction_id, asyncio.get_running_loop().create_future())
            try:
                await asyncio.wait_for(asyncio.shield(waiter), timeout)
            finally:
                self._waiting.pop(interaction_id, None)
        if rec.response_type == CALLBACK_DEFERRED_MESSAGE:
            await self.reply_to(interaction_id, timeout=timeout)
        return rec

    def forget(self, interaction_id: int) -> None:
        """Drop an answered interaction's record (lean runs). The last click answered on a message is kept: the
        bot may edit (or remove) that message through its token; the ``KEPT_CLICKS`` newest such messages of a
        channel, and of each player's ephemeral ones and newest clicks (his private message at a table, which the
        bot edits and removes, may be a click's follow-up, sent after the click's answer, the table)."""
        rec = self.interactions.get(interaction_id)
        places: list[tuple[tuple[str, int], int]] = []
        if rec is not None and rec.original is not None:
            key = ("user", rec.user.id) if rec.original.ephemeral else ("channel", rec.channel_id)
            places.append((key, rec.original.id))
        if rec is not None:  # his newest clicks: a follow-up the bot sends after the answer is his private message
            places.append((("user", rec.user.id), -interaction_id))
        if not places:
            self._drop(interaction_id)
            return
        for key, message_id in places:
            kept = self._kept_clicks.setdefault(key, {})
            older = kept.pop(message_id, None)  # an older click on that message: its token is not used
            kept[message_id] = interaction_id
            if older is not None and older != interaction_id:
                self._release(older)
            if len(kept) > (KEPT_CLICKS if key[0] == "channel" else KEPT_OWN):
                self._release(kept.pop(next(iter(kept))))

    def _release(self, interaction_id: int) -> None:
        """Drop a click no kept message needs any more."""
        if not any(interaction_id in kept.values() for kept in self._kept_clicks.values()):
            self._drop(interaction_id)

    def _drop(self, interaction_id: int) -> None:
        rec = self.interactions.pop(interaction_id, None)
        if rec is not None:
            self._by_token.pop(rec.token, None)
            for message in (rec.original, *rec.followups):
                if message is not None and message.ephemeral:
                    self.messages.pop(message.id, None)

    def prune(self) -> None:
        """Lean runs: forget call records, spent timers and old DMs, so that memory stays flat."""
        del self.calls[:]
        self._timers = [t for t in self._timers if not t.cancelled() and t.when() > asyncio.get_running_loop().time()]
        for channel in self._dm_by_user.values():
            if len(channel.messages) > 8:
                for message in channel.messages[:-8]:
                    self.messages.pop(message.id, None)
                del channel.messages[:-8]

    # -- messages -------------------------------------------------------------------------------------------

    def _new_message(
        self,
        channel: FakeChannel,
        data: Mapping[str, Any],
        files: Sequence[StoredFile],
        **kwargs: Any,
    ) -> StoredMessage:
        message = super()._new_message(channel, data, files, **kwargs)
        if self.lean:
            message.history.clear()
        self._tell(message, True)
        return message

    def _apply_edit(self, message: StoredMessage, data: Mapping[str, Any], files: Sequence[StoredFile]) -> None:
        super()._apply_edit(message, data, files)
        if self.lean:
            message.history.clear()
        self._tell(message, False)

    def _tell(self, message: StoredMessage, created: bool) -> None:
        for watcher in list(self.watchers):
            try:
                watcher(message, created)
            except Exception:  # a watcher's bug must not turn into an error answer to the bot
                log.exception("a message watcher failed")
