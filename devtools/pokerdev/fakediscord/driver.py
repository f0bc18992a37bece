"""The test driver: tests act as users through these methods of :class:`~.fake.FakeDiscord` (slash commands,
autocomplete, button clicks, select menus, modal submits, messages and moderator deletions), each sent to the
bot as Discord would send it (INTERACTION_CREATE, MESSAGE_CREATE, MESSAGE_DELETE)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from .commands import Commands
from .constants import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BUTTON,
    JSON,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    SELECT_TYPES,
    STRING_SELECT,
)
from .gateway import Gateway
from .guild import Guild
from .interactions import InteractionLog, ShownModal
from .messages import MessageStore
from .modals import forged_fields, submission
from .model import FakeChannel, FakeRole, FakeUser, StoredMessage, new_snowflake
from .records import InteractionRecord
from .runtime import Runtime
from .seams import Seams

ATTACHMENT_SIZE_LIMIT = 8 * 1024 * 1024


class UserActions:
    """What users do. Mixed into :class:`~.fake.FakeDiscord`, whose parts these are."""

    guild: Guild
    gateway: Gateway
    command_tree: Commands
    interaction_log: InteractionLog
    message_store: MessageStore
    runtime: Runtime
    seams: Seams

    async def _send_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        message: StoredMessage | None = None,
        expect_ack: bool = True,
    ) -> int:
        if self.gateway.active_session() is None:
            raise RuntimeError("no bot is connected to the fake Discord")
        guild = self.guild
        guild.heard(data)
        iid = new_snowflake()
        token = f"itok.{iid}.{secrets.token_urlsafe(24)}"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(guild.app_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "locale": user.locale,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "app_permissions": str(guild.permissions(guild.bot_user, channel)),
        }
        channel_payload = guild.channel_payload(channel)
        owners = {"0": str(guild.id)}
        if channel.is_dm:
            payload.update(user=user.payload(), context=1, authorizing_integration_owners=owners)
        else:
            channel_payload["permissions"] = str(guild.permissions(user, channel))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=guild.member_payload(user, channel=channel),
                context=0,
                authorizing_integration_owners=owners,
            )
        payload["channel"] = channel_payload
        live = None
        if message is not None:
            payload["message"] = message.payload()
            live = self.message_store.by_id.get(message.id, message)
        log = self.interaction_log
        rec = InteractionRecord(
            iid, token, itype, user, channel.id, payload, self.runtime.now(), log.ack_deadline, expect_ack, live
        )
        log.open(rec)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        self.runtime.notify()
        return iid

    def _interaction_channel(self, user: FakeUser, channel: FakeChannel | str | int | None, dm: bool) -> FakeChannel:
        if dm:
            return self.guild.dm_channel(user)
        return self.guild.channel(channel) if channel is not None else self.guild.default_channel

    # -- commands -----------------------------------------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser | str,
        command: str,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        options: Mapping[str, Any] | None = None,
        channel: FakeChannel | str | int | None = None,
        dm: bool = False,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user runs ``/command [group] [subcommand] options...``; returns the interaction id.

        Option types come from the synced (or the bot's local) command tree when the command is known, else from
        the Python values: str 3, int 4, bool 5, FakeUser 6, FakeChannel 7, FakeRole 8, float 10. Options that
        Discord's client would refuse (unknown, missing, out of range, not a choice) raise ValueError unless
        ``force``.
        """
        who = self.guild.user(user)
        where = self._interaction_channel(who, channel, dm)
        data = self.command_tree.interaction_data(command, group, subcommand, options or {}, force=force,
                                                  dm=where.is_dm)
        return await self._send_interaction(APPLICATION_COMMAND, who, where, data, expect_ack=expect_ack)

    async def autocomplete(
        self,
        user: FakeUser | str,
        command: str,
        focused: str,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        options: Mapping[str, Any] | None = None,
        channel: FakeChannel | str | int | None = None,
        dm: bool = False,
    ) -> int:
        """A user types in option ``focused`` of a command: the bot should answer with choices (callback 8)."""
        who = self.guild.user(user)
        where = self._interaction_channel(who, channel, dm)
        data = self.command_tree.interaction_data(command, group, subcommand, options or {}, force=True,
                                                  dm=where.is_dm)
        leaf = data
        while leaf.get("options") and leaf["options"][0].get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            leaf = leaf["options"][0]
        for option in leaf.get("options") or []:
            if option["name"] == focused:
                option["focused"] = True
                option["value"] = str(option["value"])
        return await self._send_interaction(AUTOCOMPLETE, who, where, data)

    # -- components ---------------------------------------------------------------------------------------------

    def _live_message(self, message: StoredMessage | int | str) -> tuple[StoredMessage, StoredMessage]:
        """(what the user's client shows, the live message)."""
        by_id = self.message_store.by_id
        if isinstance(message, StoredMessage):
            live = by_id.get(message.id, message)
            return (message if message.detached else live), live
        live = by_id[int(message)]
        return live, live

    @staticmethod
    def _check_can_use(who: FakeUser, shown: StoredMessage, live: StoredMessage) -> None:
        if live.deleted:
            raise ValueError(f"message {live.id} was deleted; nobody can click it")
        if shown.ephemeral_to is not None and shown.ephemeral_to != who.id:
            raise ValueError(f"message {shown.id} is ephemeral to someone else; {who.name} cannot see it")

    async def click(
        self,
        user: FakeUser | str,
        message: StoredMessage | int | str,
        custom_id: str,
        *,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user presses a button. Pass ``message.snapshot()`` to click what an older state showed (stale click).

        Raises ValueError for a button the message does not show, a disabled or link button, a deleted message or
        someone else's ephemeral message, unless ``force`` (forged interactions).
        """
        who = self.guild.user(user)
        shown, live = self._live_message(message)
        component = shown.component(custom_id)
        if not force:
            self._check_can_use(who, shown, live)
            if component is None or component.get("type") != BUTTON:
                raise ValueError(f"message {shown.id} has no button {custom_id!r}; it has {shown.custom_ids()}")
            if component.get("disabled"):
                raise ValueError(f"button {custom_id!r} is disabled")
        data: JSON = {"custom_id": custom_id, "component_type": BUTTON}
        channel = self.guild.channels[shown.channel_id]
        return await self._send_interaction(MESSAGE_COMPONENT, who, channel, data, message=shown, expect_ack=expect_ack)

    async def select(
        self,
        user: FakeUser | str,
        message: StoredMessage | int | str,
        custom_id: str,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel],
        *,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user picks ``values`` in a select menu (string values, or users/roles/channels for entity selects)."""
        who = self.guild.user(user)
        shown, live = self._live_message(message)
        component = shown.component(custom_id)
        kind = int(component.get("type") or STRING_SELECT) if component else STRING_SELECT
        raw = [str(v.id) if isinstance(v, (FakeUser, FakeRole, FakeChannel)) else str(v) for v in values]
        if not force:
            self._check_can_use(who, shown, live)
            if component is None or kind not in SELECT_TYPES:
                raise ValueError(f"message {shown.id} has no select {custom_id!r}; it has {shown.custom_ids()}")
            if component.get("disabled"):
                raise ValueError(f"select {custom_id!r} is disabled")
            low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
            if not low <= len(raw) <= high:
                raise ValueError(f"select {custom_id!r} takes {low}..{high} values, not {len(raw)}")
            if kind == STRING_SELECT:
                allowed = [str(o["value"]) for o in component.get("options") or []]
                unknown = [v for v in raw if v not in allowed]
                if unknown:
                    raise ValueError(f"select {custom_id!r} has no option {unknown}; options: {allowed}")
        channel = self.guild.channels[shown.channel_id]
        data: JSON = {"custom_id": custom_id, "component_type": kind, "values": raw}
        resolved = self.guild.resolved_for(values, dm=channel.is_dm)
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(MESSAGE_COMPONENT, who, channel, data, message=shown, expect_ack=expect_ack)

    # -- modals -------------------------------------------------------------------------------------------------

    async def submit_modal(
        self,
        user: FakeUser | str,
        custom_id: str | None,
        fields: Mapping[str, str | Sequence[str]],
        *,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user submits a modal the bot showed him (``custom_id`` None: the latest one shown to him).

        ``fields`` maps each input's custom_id to the text typed (fields left out keep their prefilled value).
        Raises ValueError for a modal not shown to the user, an unknown field, or a value the modal's own
        constraints (required, min/max length) would refuse, unless ``force``.
        """
        who = self.guild.user(user)
        modals = self.interaction_log.modals
        shown: ShownModal | None
        if custom_id is None:
            candidates = [m for (uid, _), m in modals.items() if uid == who.id]
            shown = candidates[-1] if candidates else None
            if shown is None:
                raise ValueError(f"no modal is open for {who.name}")
            custom_id = str(shown.data["custom_id"])
        else:
            shown = modals.get((who.id, custom_id))
        if shown is None and not force:
            raise ValueError(f"no modal {custom_id!r} was shown to {who.name}")
        remaining = dict(fields)
        components = submission(shown.data if shown else {"components": []}, remaining, force=force)
        if remaining:
            if not force:
                raise ValueError(f"modal {custom_id!r} has no field(s) {sorted(remaining)}")
            components += forged_fields(remaining)
        data: JSON = {"custom_id": custom_id, "components": components}
        if shown is not None:
            modals.pop((who.id, custom_id), None)
            source = shown.source
            channel = self.guild.channels[source.channel_id]
            message = source.source_message
        else:
            channel, message = self.guild.default_channel, None
        return await self._send_interaction(MODAL_SUBMIT, who, channel, data, message=message, expect_ack=expect_ack)

    # -- other events -------------------------------------------------------------------------------------------

    async def resend(self, interaction_id: int) -> None:
        """Deliver an interaction a second time (same id and token), as after a gateway hiccup."""
        rec = self.interaction_log.records[interaction_id]
        rec.deliveries += 1
        await self.gateway.dispatch("INTERACTION_CREATE", rec.payload)

    async def delete_message(self, message: StoredMessage | int) -> None:
        """Someone (a moderator) deletes a message: it is gone and the bot gets MESSAGE_DELETE."""
        msg = self.message_store.by_id[message.id if isinstance(message, StoredMessage) else int(message)]
        msg.deleted = True
        self.runtime.notify()
        await self.gateway.message_event("MESSAGE_DELETE", msg)

    async def post_as(self, user: FakeUser | str, channel: FakeChannel | str | int, content: str) -> StoredMessage:
        """A user writes a message in a channel (or, with ``fake.dm_channel(user)``, to the bot in DMs)."""
        who = self.guild.user(user)
        msg = self.seams._new_message(self.guild.channel(channel), {"content": content}, [], author=who.payload())
        await self.gateway.message_event("MESSAGE_CREATE", msg)
        return msg
