"""The one guild the fake hosts: its roles, members, channels and DM channels, their permissions, and the
payloads Discord describes them with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .config import FakeConfig
from .constants import JSON, Perm
from .model import FakeChannel, FakeRole, FakeUser, new_snowflake
from .pseudo import PSEUDO

JOINED_AT = "2024-01-01T00:00:00+00:00"


class Guild:
    """The guild, the bot's application and user, and every user the tests act as."""

    def __init__(self, config: FakeConfig) -> None:
        self.app_id = new_snowflake()
        self.bot_user = FakeUser(self.app_id, config.bot_name, bot=True)
        self.id = new_snowflake()
        if config.shard is not None:
            shard, count = config.shard
            while (self.id >> 22) % count != shard:
                self.id = new_snowflake()
        self.name = config.guild_name
        self.pseudo = config.pseudo_locale
        self.locale = PSEUDO if self.pseudo and config.locale == "en-US" else config.locale
        self.typed: set[str] = set()  # every word a member typed (options, forms): his, not the bot's
        self.everyone = FakeRole(self.id, "@everyone", config.everyone_permissions, position=0)
        self.bot_role = FakeRole(new_snowflake(), config.bot_name, config.bot_permissions, managed=True,
                                 bot_id=self.app_id)
        self.bot_user.roles.append(self.bot_role)
        self.roles: dict[int, FakeRole] = {self.everyone.id: self.everyone, self.bot_role.id: self.bot_role}
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_by_user: dict[int, FakeChannel] = {}
        for spec in config.roles:
            self.add_role(spec.name, spec.permissions)
        for user_spec in config.users:
            self.add_user(user_spec.name, roles=user_spec.roles, dms_open=user_spec.dms_open, locale=user_spec.locale)
        self.owner_id = self.user(config.owner).id if config.owner else self.app_id
        for name in config.channels:
            self.add_channel(name)

    def said_by_people(self, word: str) -> bool:
        """Whether ``word`` is a name people gave (a member, a role, the server, a channel) or typed."""
        lowered = word.lower()
        if lowered in self.typed:
            return True
        names = [self.name, self.bot_user.name, *(u.name for u in self.users.values()),
                 *(r.name for r in self.roles.values()), *(c.name for c in self.channels.values())]
        return any(lowered in name.lower().replace("-", " ").split() or lowered == name.lower() for name in names)

    def heard(self, data: object) -> None:
        """Keep the words of what a member typed in an interaction (its options, a form's fields)."""
        if isinstance(data, str):
            self.typed.update(word.lower() for word in data.replace("'", " ").split())
        elif isinstance(data, dict):
            for key, value in data.items():
                if key in ("value", "values", "options", "components", "component"):
                    self.heard(value)
        elif isinstance(data, list):
            for item in data:
                self.heard(item)

    # -- members, roles, channels -----------------------------------------------------------------------------

    def add_role(self, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(new_snowflake(), name, permissions, position=len(self.roles))
        self.roles[role.id] = role
        return role

    def add_user(self, name: str, *, roles: Sequence[str | FakeRole] = (), dms_open: bool = True,
                 locale: str = "en-US") -> FakeUser:
        if self.pseudo and locale == "en-US":
            locale = PSEUDO
        user = FakeUser(new_snowflake(), name, [self.role(r) for r in roles], dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def add_channel(self, name: str, *, bot_can_send: bool = True) -> FakeChannel:
        position = sum(1 for c in self.channels.values() if not c.is_dm)
        channel = FakeChannel(new_snowflake(), name, 0, position, self.id, bot_can_send=bot_can_send)
        self.channels[channel.id] = channel
        return channel

    def user(self, ref: FakeUser | str | int) -> FakeUser:
        if isinstance(ref, FakeUser):
            return ref
        for user in self.users.values():
            if ref in (user.name, user.id, str(user.id)):
                return user
        if ref in (self.bot_user.id, str(self.bot_user.id), self.bot_user.name):
            return self.bot_user
        raise LookupError(f"no user {ref!r}; users: {[u.name for u in self.users.values()]}")

    def role(self, ref: FakeRole | str | int) -> FakeRole:
        if isinstance(ref, FakeRole):
            return ref
        for role in self.roles.values():
            if ref in (role.name, role.id, str(role.id)):
                return role
        raise LookupError(f"no role {ref!r}; roles: {[r.name for r in self.roles.values()]}")

    def channel(self, ref: FakeChannel | str | int) -> FakeChannel:
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int) or ref.isdigit():
            found = self.channels.get(int(ref))
            if found is not None:
                return found
        for channel in self.channels.values():
            if channel.name == ref and not channel.is_dm:
                return channel
        raise LookupError(f"no channel {ref!r}; channels: {[c.name for c in self.channels.values() if not c.is_dm]}")

    @property
    def default_channel(self) -> FakeChannel:
        return next(c for c in self.channels.values() if not c.is_dm)

    def dm_channel(self, user: FakeUser | str | int) -> FakeChannel:
        """The user's DM channel with the bot (created on first use; stable afterwards)."""
        who = self.user(user)
        channel = self.dm_by_user.get(who.id)
        if channel is None:
            channel = FakeChannel(new_snowflake(), f"dm-{who.name}", 1, recipient=who)
            self.channels[channel.id] = channel
            self.dm_by_user[who.id] = channel
        return channel

    def permissions(self, user: FakeUser | str | int, channel: FakeChannel | None = None) -> int:
        """The user's permissions in the guild (and channel): @everyone, his roles, channel overwrites."""
        who = self.user(user)
        value = self.everyone.permissions
        for role in who.roles:
            value |= role.permissions
        if who.id == self.owner_id or value & Perm.ADMINISTRATOR:
            return Perm.ALL
        if who.bot and channel is not None and not channel.is_dm and not channel.bot_can_send:
            value &= ~Perm.SEND_MESSAGES
        return value

    # -- payloads -----------------------------------------------------------------------------------------------

    def channel_payload(self, channel: FakeChannel) -> JSON:
        if channel.is_dm:
            assert channel.recipient is not None
            return {
                "id": str(channel.id),
                "type": 1,
                "recipients": [channel.recipient.payload()],
                "last_message_id": None,
                "flags": 0,
            }
        overwrites = []
        if not channel.bot_can_send:
            overwrites.append({"id": str(self.app_id), "type": 1, "allow": "0", "deny": str(Perm.SEND_MESSAGES)})
        return {
            "id": str(channel.id),
            "type": 0,
            "guild_id": str(self.id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": overwrites,
            "topic": None,
            "nsfw": False,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }

    def member_payload(self, user: FakeUser, *, with_user: bool = True, channel: FakeChannel | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r.id) for r in user.roles],
            "joined_at": JOINED_AT,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
            "permissions": str(self.permissions(user, channel)),
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def all_members_payloads(self) -> list[JSON]:
        """Every member, the bot last (what GUILD_MEMBERS_CHUNK carries)."""
        return [*(self.member_payload(u) for u in self.users.values()), self.member_payload(self.bot_user)]

    def guild_create_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(self.users) + 1,
            "large": False,
            "members": [self.member_payload(self.bot_user)],
            "channels": [self.channel_payload(c) for c in self.channels.values() if not c.is_dm],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "unavailable": False,
            "joined_at": JOINED_AT,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "nsfw_level": 0,
            "application_id": None,
        }

    def resolve_into(self, resolved: JSON, entity: FakeUser | FakeRole | FakeChannel, *, dm: bool) -> None:
        """Add an entity to an interaction's ``resolved`` data (users with their member, roles, channels)."""
        key = str(entity.id)
        if isinstance(entity, FakeUser):
            resolved.setdefault("users", {})[key] = entity.payload()
            if not dm and (entity.id in self.users or entity is self.bot_user):
                member = self.member_payload(entity, with_user=False)
                resolved.setdefault("members", {})[key] = member
        elif isinstance(entity, FakeRole):
            resolved.setdefault("roles", {})[key] = entity.payload()
        else:
            channel = self.channel_payload(entity)
            channel["permissions"] = str(Perm.EVERYONE_DEFAULT)
            resolved.setdefault("channels", {})[key] = channel

    def resolved_for(self, values: Sequence[Any], *, dm: bool) -> JSON:
        """The ``resolved`` data of a select's picked users, roles and channels (others are plain values)."""
        resolved: JSON = {}
        for value in values:
            if isinstance(value, (FakeUser, FakeRole, FakeChannel)):
                self.resolve_into(resolved, value, dm=dm)
        return resolved

    def guild_payload(self) -> JSON:
        """``GET /guilds/{id}``: the guild without what only GUILD_CREATE carries."""
        data = self.guild_create_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large",
                    "member_count"):
            data.pop(key, None)
        return data
