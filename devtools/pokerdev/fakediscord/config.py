"""How the fake guild looks: its channels, roles, users and the limits the fake applies (FakeConfig)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .constants import Perm


@dataclass(frozen=True)
class RoleSpec:
    name: str
    permissions: int = 0


@dataclass(frozen=True)
class UserSpec:
    name: str
    roles: tuple[str, ...] = ()
    dms_open: bool = True
    locale: str = "en-US"  # the language of the user's Discord client (an interaction's ``locale``)


@dataclass
class RateLimitModel:
    """Per-channel rate limit on message create/edit/delete: ``limit`` requests per ``period`` seconds."""

    limit: int = 5
    period: float = 5.0
    methods: frozenset[str] = frozenset({"POST", "PATCH", "DELETE"})


def _default_users() -> tuple[UserSpec, ...]:
    return (
        UserSpec("owner"),
        UserSpec("manager", ("Staff",)),
        UserSpec("alice"),
        UserSpec("bob"),
        UserSpec("carol"),
        UserSpec("dave"),
        UserSpec("erin"),
        UserSpec("frank"),
    )


@dataclass
class FakeConfig:
    """How the fake guild looks. Override the ``fake_config`` fixture to change it for a module or a test.

    ``shard``: the guild's id is chosen so that Discord's ``(guild_id >> 22) % count`` is that shard (several fakes,
    one guild each, stand for the shards of a bot run by several processes).

    ``spec_checks``: check every request body against Discord's OpenAPI specification (:mod:`.spec`); None (the
    default) checks when ``jsonschema`` is installed (the test extra), so the demo runs without it; the load bench
    turns it off so that its CPU figures are the bot's.
    """

    guild_name: str = "Home Game"
    locale: str = "en-US"  # the server's preferred locale (an interaction's ``guild_locale``)
    channels: Sequence[str] = ("poker", "poker-2", "general")
    roles: Sequence[RoleSpec] = (RoleSpec("Staff", Perm.MANAGE_GUILD), RoleSpec("Banker"))
    users: Sequence[UserSpec] = field(default_factory=_default_users)
    owner: str = "owner"
    everyone_permissions: int = Perm.EVERYONE_DEFAULT
    bot_permissions: int = Perm.BOT_DEFAULT
    bot_name: str = "pokerbot"
    ack_deadline: float = 3.0
    token_ttl: float = 15 * 60.0
    rate_limit: RateLimitModel | None = None
    message_events: bool = True
    allow_privileged_intents: bool = False
    check_deferred: bool = True
    spec_checks: bool | None = None
    application_emoji_limit: int = 2000
    shard: tuple[int, int] | None = None  # (shard id, shard count): the guild's id falls on that shard
    # The members and the server speak the pseudo-language (``pseudo.py``): a text the bot shows without its
    # catalogue is a violation; ``pseudo_allowed`` are names of the bot's own data (its games'), shown as they are.
    pseudo_locale: bool = False
    pseudo_allowed: frozenset[str] = frozenset()
