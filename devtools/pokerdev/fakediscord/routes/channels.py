"""Routes about the guild and its channels: the guild, roles and members, DM channels, and messages (create,
fetch, history, edit, delete, pins, reactions, typing)."""

from __future__ import annotations

from ..answers import Answer, ApiError
from ..constants import Perm
from ..gateway import Gateway
from ..guild import Guild
from ..limits import check_message_body
from ..messages import MessageStore
from ..model import FakeChannel, StoredMessage
from ..records import RestCall
from ..seams import Seams
from ..server import Route, route


class ChannelRoutes:
    def __init__(self, guild: Guild, messages: MessageStore, gateway: Gateway, seams: Seams) -> None:
        self.guild = guild
        self.messages = messages
        self.gateway = gateway
        self.seams = seams
        # Discord's enforce_nonce: a message created again with the same nonce (a retry after a lost answer) is
        # not posted twice; the first one is answered again.
        self.nonces: dict[tuple[int, str], StoredMessage] = {}
        self.nonce_repeats = 0

    def routes(self) -> list[Route]:
        return [
            route("POST", "/users/@me/channels", self.open_dm),
            route("GET", "/channels/{channel_id}", self.get_channel),
            route("GET", "/channels/{channel_id}/messages", self.history),
            route("POST", "/channels/{channel_id}/messages", self.create_message),
            route("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            route("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            route("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            route("POST", "/channels/{channel_id}/typing", self.typing),
            route("PUT", "/channels/{channel_id}/pins/{message_id}", self.pin),
            route("DELETE", "/channels/{channel_id}/pins/{message_id}", self.pin),
            route("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self.pin),
            route("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self.pin),
            route("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.reaction),
            route("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.reaction),
            route("GET", "/guilds/{guild_id}", self.get_guild),
            route("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            route("GET", "/guilds/{guild_id}/roles", self.get_roles),
            route("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]

    # -- the guild ----------------------------------------------------------------------------------------------

    def _check_guild(self, call: RestCall) -> None:
        if call.params.get("guild_id") != str(self.guild.id):
            raise ApiError(404, 10004, "Unknown Guild")

    async def get_guild(self, call: RestCall) -> Answer:
        self._check_guild(call)
        return Answer(body=self.guild.guild_payload())

    async def get_guild_channels(self, call: RestCall) -> Answer:
        self._check_guild(call)
        channels = self.guild.channels.values()
        return Answer(body=[self.guild.channel_payload(c) for c in channels if not c.is_dm])

    async def get_roles(self, call: RestCall) -> Answer:
        self._check_guild(call)
        return Answer(body=[r.payload() for r in self.guild.roles.values()])

    async def get_member(self, call: RestCall) -> Answer:
        self._check_guild(call)
        try:
            user = self.guild.user(call.params["user_id"])
        except LookupError:
            raise ApiError(404, 10007, "Unknown Member") from None
        return Answer(body=self.guild.member_payload(user))

    # -- channels -----------------------------------------------------------------------------------------------

    def _channel_for(self, call: RestCall) -> FakeChannel:
        channel = self.guild.channels.get(call.channel_id or 0)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    async def get_channel(self, call: RestCall) -> Answer:
        return Answer(body=self.guild.channel_payload(self._channel_for(call)))

    async def open_dm(self, call: RestCall) -> Answer:
        recipient = (call.json or {}).get("recipient_id") if isinstance(call.json, dict) else None
        try:
            user = self.guild.user(str(recipient))
        except LookupError:
            raise ApiError(400, 50033, "Invalid Recipient(s)") from None
        return Answer(body=self.guild.channel_payload(self.guild.dm_channel(user)))

    async def typing(self, call: RestCall) -> Answer:
        self._channel_for(call)
        return Answer(204)

    # -- messages -----------------------------------------------------------------------------------------------

    def _message_in(self, call: RestCall, channel: FakeChannel) -> StoredMessage:
        wanted = call.params["message_id"]
        message = self.messages.by_id.get(int(wanted)) if wanted.isdigit() else None
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def history(self, call: RestCall) -> Answer:
        messages = self._channel_for(call).current()
        if "before" in call.query:
            messages = [m for m in messages if m.id < int(call.query["before"])]
        if "after" in call.query:
            messages = [m for m in messages if m.id > int(call.query["after"])]
        limit = int(call.query.get("limit", 50))
        newest_first = list(reversed(messages))
        if "after" in call.query:
            newest_first = list(reversed(messages[:limit]))
        return Answer(body=[m.payload() for m in newest_first[:limit]])

    async def create_message(self, call: RestCall) -> Answer:
        channel = self._channel_for(call)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if not channel.is_dm and not channel.bot_can_send:
            raise ApiError(403, 50013, "Missing Permissions")
        data = call.json if isinstance(call.json, dict) else {}
        check_message_body(data, len(call.files))
        nonce = data.get("nonce")
        key = (channel.id, str(nonce)) if nonce is not None and data.get("enforce_nonce") else None
        if key is not None and key in self.nonces:
            self.nonce_repeats += 1
            return Answer(body=self.nonces[key].payload())
        message = self.seams._new_message(channel, data, call.files)
        if key is not None:
            self.nonces[key] = message
        await self.gateway.message_event("MESSAGE_CREATE", message)
        return Answer(body=message.payload())

    async def get_message(self, call: RestCall) -> Answer:
        return Answer(body=self._message_in(call, self._channel_for(call)).payload())

    async def edit_message(self, call: RestCall) -> Answer:
        message = self._message_in(call, self._channel_for(call))
        if message.author.get("id") != str(self.guild.app_id):
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        data = call.json if isinstance(call.json, dict) else {}
        check_message_body(data, len(call.files), base=message)
        self.seams._apply_edit(message, data, call.files)
        await self.gateway.message_event("MESSAGE_UPDATE", message)
        return Answer(body=message.payload())

    async def delete_message(self, call: RestCall) -> Answer:
        channel = self._channel_for(call)
        message = self._message_in(call, channel)
        others = message.author.get("id") != str(self.guild.app_id) and not channel.is_dm
        if others and not self.guild.permissions(self.guild.bot_user, channel) & Perm.MANAGE_MESSAGES:
            raise ApiError(403, 50013, "Missing Permissions")
        message.deleted = True
        await self.gateway.message_event("MESSAGE_DELETE", message)
        return Answer(204)

    async def pin(self, call: RestCall) -> Answer:
        message = self._message_in(call, self._channel_for(call))
        message.pinned = call.method == "PUT"
        return Answer(204)

    async def reaction(self, call: RestCall) -> Answer:
        self._message_in(call, self._channel_for(call))
        return Answer(204)
