"""Every message the fake holds: created, edited in place (each version kept), and read back by the tests."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .constants import APPLICATION_COMMAND, JSON, MessageFlag
from .guild import Guild
from .model import FakeChannel, FakeUser, StoredFile, StoredMessage, iso_now, new_snowflake
from .records import InteractionRecord
from .runtime import Runtime


class MessageStore:
    """Messages by id (channel messages, DMs, ephemeral replies) and the files uploaded with them."""

    def __init__(self, guild: Guild, runtime: Runtime) -> None:
        self.guild = guild
        self.runtime = runtime
        self.by_id: dict[int, StoredMessage] = {}

    # -- writing ------------------------------------------------------------------------------------------------

    def create(
        self,
        channel: FakeChannel,
        data: Mapping[str, Any],
        files: Sequence[StoredFile],
        *,
        interaction: InteractionRecord | None = None,
        author: JSON | None = None,
    ) -> StoredMessage:
        """A new message as Discord stores it: by the bot (or ``author``), maybe an interaction's answer."""
        guild = self.guild
        flags = int(data.get("flags") or 0)
        message = StoredMessage(
            id=new_snowflake(),
            channel_id=channel.id,
            guild_id=None if channel.is_dm else guild.id,
            author=author or guild.bot_user.payload(),
            content=str(data.get("content") or ""),
            embeds=list(copy.deepcopy(data.get("embeds") or [])),
            components=list(copy.deepcopy(data.get("components") or [])),
            flags=flags,
            attachments=self._stored_files(data, files, channel.id),
            created_at=self.runtime.now(),
        )
        if interaction is not None:
            message.webhook_id = guild.app_id
            message.type = 20 if interaction.type == APPLICATION_COMMAND else 0
            message.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(guild.id)},
            }
            if flags & MessageFlag.EPHEMERAL:
                message.ephemeral_to = interaction.user.id
        message.history.append(message.state())
        self.by_id[message.id] = message
        if not message.ephemeral:
            channel.messages.append(message)
        self.runtime.notify()
        return message

    def edit(self, message: StoredMessage, data: Mapping[str, Any], files: Sequence[StoredFile]) -> None:
        """Apply an edit body: the fields it names replace the message's; a new version is kept."""
        if "content" in data:
            message.content = str(data["content"] or "")
        if "embeds" in data:
            message.embeds = list(copy.deepcopy(data["embeds"] or []))
        if "components" in data:
            message.components = list(copy.deepcopy(data["components"] or []))
        if data.get("flags") is not None:
            editable = int(data["flags"]) & MessageFlag.EDITABLE
            message.flags = (message.flags & ~MessageFlag.EDITABLE) | editable
        uploaded = self._stored_files(data, files, message.channel_id)
        if "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep] + uploaded
        else:
            message.attachments += uploaded
        message.flags &= ~MessageFlag.LOADING
        message.edited_at = self.runtime.now()
        message.edited_timestamp = iso_now()
        message.history.append(message.state())
        self.runtime.notify()

    def _stored_files(self, data: Mapping[str, Any], files: Sequence[StoredFile], channel_id: int) -> list[StoredFile]:
        by_index: dict[int, StoredFile] = {}
        for position, upload in enumerate(files):
            match = re.match(r"files\[(\d+)\]", upload.field)
            by_index[int(match.group(1)) if match else position] = upload
        out: list[StoredFile] = []
        declared = {
            int(a["id"]): a
            for a in data.get("attachments") or []
            if isinstance(a.get("id"), int) or str(a.get("id")).isdigit()
        }
        for index, upload in sorted(by_index.items()):
            meta = declared.get(index, {})
            stored = StoredFile(
                new_snowflake(),
                str(meta.get("filename") or upload.filename),
                upload.data,
                upload.content_type,
                description=meta.get("description"),
            )
            stored.url = f"{self.runtime.base_url}/attachments/{channel_id}/{stored.id}/{stored.filename}"
            out.append(stored)
        return out

    def attachment(self, attachment_id: int) -> StoredFile | None:
        for message in self.by_id.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return attachment
        return None

    # -- reading ------------------------------------------------------------------------------------------------

    def channel_messages(
        self, channel: FakeChannel | str | int, *, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """What the channel shows now, oldest first (ephemeral replies are not in channels)."""
        ch = self.guild.channel(channel)
        return list(ch.messages) if include_deleted else ch.current()

    def dms(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """The messages the bot delivered to the user's DMs."""
        who = self.guild.user(user)
        channel = self.guild.dm_by_user.get(who.id)
        return channel.current() if channel else []

    def ephemeral_for(self, user: FakeUser | str | int) -> list[StoredMessage]:
        who = self.guild.user(user)
        return [m for m in self.by_id.values() if m.ephemeral_to == who.id and not m.deleted]

    def visible_to(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """Every message the user can see: guild channels, his DMs and his ephemeral replies."""
        who = self.guild.user(user)
        out = [m for c in self.guild.channels.values() if not c.is_dm for m in c.current()]
        return sorted([*out, *self.dms(who), *self.ephemeral_for(who)], key=lambda m: m.id)

    def message(self, message_id: int | str) -> StoredMessage:
        return self.by_id[int(message_id)]
