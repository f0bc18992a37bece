"""The methods of :class:`~.fake.FakeDiscord` the parts call back through, so that what wraps them sees every
call: a subclass (``pokerdev.observed.ObservedFake`` counts calls and watches messages) or a test
(``tests/e2e/conftest_bot.MessageRecorder`` records every message version)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .answers import Answer
from .constants import JSON
from .model import FakeChannel, StoredFile, StoredMessage
from .records import InteractionRecord, RestCall


class Seams(Protocol):
    async def _answer(self, call: RestCall) -> Answer: ...

    async def _callback(self, call: RestCall) -> Answer: ...

    def _new_message(
        self,
        channel: FakeChannel,
        data: Mapping[str, Any],
        files: Sequence[StoredFile],
        *,
        interaction: InteractionRecord | None = None,
        author: JSON | None = None,
    ) -> StoredMessage: ...

    def _apply_edit(self, message: StoredMessage, data: Mapping[str, Any], files: Sequence[StoredFile]) -> None: ...
