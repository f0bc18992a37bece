"""The facade: :class:`FakeDiscord` builds the parts (guild, messages, interactions, gateway, REST routes,
checks, faults), runs the aiohttp server, and offers the tests one object to act and read through."""

from __future__ import annotations

import contextlib
import fnmatch
import random
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from aiohttp import web

from .answers import Answer
from .cdn import Cdn
from .commands import Commands
from .config import FakeConfig, RateLimitModel
from .constants import API_VERSION, JSON, Intent
from .driver import UserActions
from .emojis import ApplicationEmojis, EmojiReference
from .events import FakeEvent, ScheduledEvents, user_event
from .faults import KINDS, CallMatcher, Connection, Fault, FaultInjector, RandomFaults, ResumeRefusals
from .gateway import Gateway
from .guild import Guild
from .interactions import InteractionLog
from .messages import MessageStore
from .model import FakeChannel, FakeEmoji, FakeRole, FakeUser, StoredFile, StoredMessage
from .ratelimit import Bucket, ChannelRateLimits, GlobalRate
from .records import InteractionRecord, RestCall, Violation
from .routes.app import AppRoutes
from .routes.channels import ChannelRoutes
from .routes.emojis import EmojiRoutes
from .routes.events import EventRoutes
from .routes.interactions import InteractionRoutes
from .runtime import Runtime
from .seams import Seams
from .server import RestServer
from .spec import SpecChecker, spec_checker, spec_checks_available
from .violations import Violations
from .waiting import Waiting


class FakeDiscord(UserActions, Waiting):
    """The fake Discord. ``await FakeDiscord().start()``, point discord.py at it with :func:`patch_discord`."""

    def __init__(self, config: FakeConfig | None = None) -> None:
        self.config = config or FakeConfig()
        cfg = self.config
        self.seams: Seams = self
        self.runtime = Runtime()
        self.guild = Guild(cfg)
        self.violation_log = Violations()
        self.message_store = MessageStore(self.guild, self.runtime)
        self.gateway = Gateway(
            self.guild, self.runtime, allow_privileged_intents=cfg.allow_privileged_intents,
            message_events=cfg.message_events,
        )
        self.interaction_log = InteractionLog(
            self.runtime, self.violation_log, ack_deadline=cfg.ack_deadline, token_ttl=cfg.token_ttl
        )
        self.command_tree = Commands(self.guild)
        self.emojis = ApplicationEmojis(self.guild.bot_user.payload(), limit=cfg.application_emoji_limit)
        self.events = ScheduledEvents(self.guild)
        self.fault_injector = FaultInjector()
        self.rate_limits = ChannelRateLimits(cfg.rate_limit)
        self.check_deferred = cfg.check_deferred
        self.spec = _spec_checker(cfg.spec_checks)
        self.rest = RestServer(
            self.runtime, self, self.violation_log, self.fault_injector, self.rate_limits, self.spec,
            self.interaction_log.lose,
            self._allowed_word if cfg.pseudo_locale else None,
            cfg.pseudo_allowed,
        )
        self.interaction_routes = InteractionRoutes(
            self.guild, self.interaction_log, self.violation_log, self.gateway, self.runtime, self
        )
        self.rest.routes = [
            *AppRoutes(self.guild, self.command_tree, self.runtime).routes(),
            *ChannelRoutes(self.guild, self.message_store, self.gateway, self).routes(),
            *self.interaction_routes.routes(),
            *EmojiRoutes(self.guild, self.emojis).routes(),
            *EventRoutes(self.guild, self.events).routes(),
        ]
        self.cdn = Cdn(self.message_store, self.emojis)
        self._runner: web.AppRunner | None = None

    # -- lifecycle --------------------------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        self.cdn.add_routes(app)
        app.router.add_route("*", f"/api/v{API_VERSION}/{{tail:.*}}", self.rest.handle)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.runtime.port = int(self._runner.addresses[0][1])
        self.runtime.start_clock()
        self.rest.last_activity = self.runtime.started_at
        return self

    async def stop(self) -> None:
        self.interaction_log.cancel_timers()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        return self.runtime.port

    @port.setter
    def port(self, value: int) -> None:
        self.runtime.port = value

    @property
    def api_base(self) -> str:
        return self.runtime.api_base

    @property
    def gateway_url(self) -> str:
        return self.runtime.gateway_url

    def now(self) -> float:
        """Seconds since the fake started (the clock of ``RestCall.time`` and interaction timings)."""
        return self.runtime.now()

    def _allowed_word(self, word: str) -> bool:
        """A word a text may show outside the pseudo-language's wraps: people's names and words."""
        return self.guild.said_by_people(word)

    # -- the seams (see seams.py: ObservedFake and the tests wrap these) ------------------------------------------

    async def _answer(self, call: RestCall) -> Answer:
        return await self.rest.answer(call)

    async def _callback(self, call: RestCall) -> Answer:
        return await self.interaction_routes.callback(call)

    def _new_message(
        self,
        channel: FakeChannel,
        data: Mapping[str, Any],
        files: Sequence[StoredFile],
        *,
        interaction: InteractionRecord | None = None,
        author: JSON | None = None,
    ) -> StoredMessage:
        return self.message_store.create(channel, data, files, interaction=interaction, author=author)

    def _apply_edit(self, message: StoredMessage, data: Mapping[str, Any], files: Sequence[StoredFile]) -> None:
        self.message_store.edit(message, data, files)

    # -- state, as attributes -----------------------------------------------------------------------------------

    @property
    def app_id(self) -> int:
        return self.guild.app_id

    @property
    def bot_user(self) -> FakeUser:
        return self.guild.bot_user

    @property
    def guild_id(self) -> int:
        return self.guild.id

    @property
    def guild_name(self) -> str:
        return self.guild.name

    @property
    def owner_id(self) -> int:
        return self.guild.owner_id

    @property
    def everyone(self) -> FakeRole:
        return self.guild.everyone

    @property
    def bot_role(self) -> FakeRole:
        return self.guild.bot_role

    @property
    def roles(self) -> dict[int, FakeRole]:
        return self.guild.roles

    @property
    def users(self) -> dict[int, FakeUser]:
        return self.guild.users

    @property
    def channels(self) -> dict[int, FakeChannel]:
        return self.guild.channels

    @property
    def messages(self) -> dict[int, StoredMessage]:
        return self.message_store.by_id

    @property
    def calls(self) -> list[RestCall]:
        return self.rest.calls

    @property
    def interactions(self) -> dict[int, InteractionRecord]:
        return self.interaction_log.records

    @property
    def violations(self) -> list[Violation]:
        return self.violation_log.items

    @property
    def faults(self) -> list[Fault]:
        return self.fault_injector.faults

    @property
    def global_rate(self) -> GlobalRate:
        """Discord's global limit (50 requests/s, interaction answers exempt), counted: ``peak_per_second``,
        ``over_limit`` (calls Discord would have refused), ``counted``, ``exempt``; ``reset()`` starts afresh."""
        return self.rest.global_rate

    @property
    def random_faults(self) -> list[RandomFaults]:
        return self.fault_injector.random

    @property
    def global_commands(self) -> dict[str, JSON]:
        return self.command_tree.global_commands

    @property
    def guild_commands(self) -> dict[str, JSON]:
        return self.command_tree.guild_commands

    @property
    def identify_payloads(self) -> list[JSON]:
        return self.gateway.identify_payloads

    @property
    def resumes(self) -> int:
        return self.gateway.resumes

    @property
    def refused_resumes(self) -> int:
        """RESUMEs refused by :meth:`refuse_resumes` (not those of a session dropped as not resumable)."""
        return self.gateway.refused_resumes

    # Settings a test may change on the fly.

    @property
    def ack_deadline(self) -> float:
        return self.interaction_log.ack_deadline

    @ack_deadline.setter
    def ack_deadline(self, value: float) -> None:
        self.interaction_log.ack_deadline = value

    @property
    def token_ttl(self) -> float:
        return self.interaction_log.token_ttl

    @token_ttl.setter
    def token_ttl(self, value: float) -> None:
        self.interaction_log.token_ttl = value

    @property
    def rate_limit(self) -> RateLimitModel | None:
        return self.rate_limits.model

    @rate_limit.setter
    def rate_limit(self, value: RateLimitModel | None) -> None:
        self.rate_limits.model = value

    @property
    def message_events(self) -> bool:
        return self.gateway.message_events

    @message_events.setter
    def message_events(self, value: bool) -> None:
        self.gateway.message_events = value

    @property
    def allow_privileged_intents(self) -> bool:
        return self.gateway.allow_privileged_intents

    @allow_privileged_intents.setter
    def allow_privileged_intents(self, value: bool) -> None:
        self.gateway.allow_privileged_intents = value

    # Internals that pokerdev.observed and the reliability tests reach (kept under their old names).

    @property
    def _by_token(self) -> dict[str, InteractionRecord]:
        return self.interaction_log.by_token

    @property
    def _timers(self) -> list[Any]:
        return self.interaction_log.timers

    @_timers.setter
    def _timers(self, value: list[Any]) -> None:
        self.interaction_log.timers = value

    @property
    def _dm_by_user(self) -> dict[int, FakeChannel]:
        return self.guild.dm_by_user

    @property
    def _buckets(self) -> dict[int, Bucket]:
        return self.rate_limits.buckets

    # -- the guild ------------------------------------------------------------------------------------------

    def add_role(self, name: str, permissions: int = 0) -> FakeRole:
        role = self.guild.add_role(name, permissions)
        self.gateway.send_soon("GUILD_ROLE_CREATE", lambda: {"guild_id": str(self.guild_id), "role": role.payload()})
        return role

    def add_user(self, name: str, *, roles: Sequence[str | FakeRole] = (), dms_open: bool = True) -> FakeUser:
        return self.guild.add_user(name, roles=roles, dms_open=dms_open)

    def add_channel(self, name: str, *, bot_can_send: bool = True) -> FakeChannel:
        channel = self.guild.add_channel(name, bot_can_send=bot_can_send)
        self.gateway.send_soon("CHANNEL_CREATE", lambda: self.guild.channel_payload(channel))
        return channel

    def user(self, ref: FakeUser | str | int) -> FakeUser:
        return self.guild.user(ref)

    def role(self, ref: FakeRole | str | int) -> FakeRole:
        return self.guild.role(ref)

    def channel(self, ref: FakeChannel | str | int) -> FakeChannel:
        return self.guild.channel(ref)

    @property
    def default_channel(self) -> FakeChannel:
        return self.guild.default_channel

    def dm_channel(self, user: FakeUser | str | int) -> FakeChannel:
        """The user's DM channel with the bot (created on first use; stable afterwards)."""
        return self.guild.dm_channel(user)

    def dm_channel_count(self) -> int:
        """How many users have a DM channel with the bot (opened by the bot, or by a test)."""
        return len(self.guild.dm_by_user)

    def set_bot_can_send(self, channel: FakeChannel | str | int, allowed: bool) -> None:
        """Deny (or grant again) the bot Send Messages in a channel, as a moderator editing the channel's
        permissions: posts answer 403 / 50013 while denied, and the bot gets CHANNEL_UPDATE."""
        ch = self.guild.channel(channel)
        ch.bot_can_send = allowed
        self.gateway.send_soon("CHANNEL_UPDATE", lambda: self.guild.channel_payload(ch))

    def close_dms(self, user: FakeUser | str | int) -> None:
        """From now on, messages to this user's DM channel fail with 403 / 50007."""
        self.guild.user(user).dms_open = False

    def open_dms(self, user: FakeUser | str | int) -> None:
        self.guild.user(user).dms_open = True

    def set_roles(self, user: FakeUser | str | int, roles: Sequence[str | FakeRole]) -> None:
        self.guild.user(user).roles = [self.guild.role(r) for r in roles]

    def permissions(self, user: FakeUser | str | int, channel: FakeChannel | None = None) -> int:
        """The user's permissions in the guild (and channel): @everyone, his roles, channel overwrites."""
        return self.guild.permissions(user, channel)

    # -- reading state ----------------------------------------------------------------------------------------

    def channel_messages(
        self, channel: FakeChannel | str | int, *, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """What the channel shows now, oldest first (ephemeral replies are not in channels)."""
        return self.message_store.channel_messages(channel, include_deleted=include_deleted)

    def dms(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """The messages the bot delivered to the user's DMs."""
        return self.message_store.dms(user)

    def ephemeral_for(self, user: FakeUser | str | int) -> list[StoredMessage]:
        return self.message_store.ephemeral_for(user)

    def visible_to(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """Every message the user can see: guild channels, his DMs and his ephemeral replies."""
        return self.message_store.visible_to(user)

    def message(self, message_id: int | str) -> StoredMessage:
        return self.message_store.message(message_id)

    def interaction(self, interaction_id: int) -> InteractionRecord:
        return self.interaction_log.records[interaction_id]

    def calls_to(self, method: str | None = None, pattern: str = "*") -> list[RestCall]:
        """Recorded calls whose path matches the glob ``pattern`` (and method)."""
        return [
            c for c in self.calls if (method is None or c.method == method) and fnmatch.fnmatchcase(c.path, pattern)
        ]

    def command_paths(self, *, guild: bool | None = None) -> list[str]:
        """Synced chat-input commands as paths: ``["chips give", "poker create", ...]``."""
        return self.command_tree.paths(guild=guild)

    def register_commands(self, global_commands: Sequence[JSON], guild_commands: Sequence[JSON] = ()) -> None:
        """Tell the fake the bot's local command tree (used for option types when commands were not synced)."""
        self.command_tree.register_local(global_commands, guild_commands)

    # -- application emojis -----------------------------------------------------------------------------------

    def emoji(self, ref: int | str) -> FakeEmoji:
        """The application emoji with this id or name (``fake.emoji("card_As").image`` is what was uploaded)."""
        return self.emojis.get(ref)

    def preload_emojis(self, pictures: Mapping[str, bytes]) -> None:
        """Give the application these emojis ({name: PNG}) as if uploaded before the bot started (a test's bot
        then finds its card emojis and uploads nothing)."""
        import base64

        for name, png in pictures.items():
            if not any(e.name == name for e in self.emojis):
                self.emojis.create({"name": name, "image": "data:image/png;base64," + base64.b64encode(png).decode()})

    def emoji_references(self, message: StoredMessage | str) -> list[EmojiReference]:
        """The custom emojis a message's text (content, embeds, components) names, each with the application
        emoji it is (``ref.known`` is False for an unknown or deleted one: Discord shows ``:name:`` as text)."""
        return self.emojis.references(message if isinstance(message, str) else message.text())

    # -- scheduled events -------------------------------------------------------------------------------------

    def scheduled_events(self) -> list[FakeEvent]:
        """The guild's scheduled events, oldest first (a deleted one is gone; a cancelled one stays)."""
        return list(self.events)

    def scheduled_event(self, event_id: int | str) -> FakeEvent:
        """The scheduled event with this id (LookupError if there is none)."""
        found = self.events.by_id.get(int(event_id))
        if found is None:
            raise LookupError(f"no scheduled event {event_id}")
        return found

    def mark_interested(self, user: FakeUser | str | int, event: FakeEvent | int, interested: bool = True, *,
                        heard: bool = True) -> None:
        """The user marks the event Interested in Discord's event list (or, ``interested`` False, unmarks it). A
        bot with the GUILD_SCHEDULED_EVENTS intent is sent GUILD_SCHEDULED_EVENT_USER_ADD (or _REMOVE), as by
        Discord, unless ``heard`` is False: the event lost (the bot was away longer than a RESUME covers), so that
        only reading the event's users finds the change."""
        target = event if isinstance(event, FakeEvent) else self.scheduled_event(event)
        user_id = self.guild.user(user).id
        if self.events.mark(target, user_id, interested) and heard:
            name, data = user_event(target, user_id, interested)
            self.gateway.send_soon_to(Intent.GUILD_SCHEDULED_EVENTS, name, data)

    # -- violations -----------------------------------------------------------------------------------------

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return the recorded violations (of one kind): a test that provokes them takes them."""
        return self.violation_log.take(kind)

    def verify(self) -> list[Violation]:
        """Every problem so far: recorded violations, plus deferrals that never completed."""
        return self.violation_log.verify(self.interactions.values(), check_deferred=self.check_deferred)

    # -- faults ---------------------------------------------------------------------------------------------

    def inject(
        self,
        match: str | CallMatcher,
        *,
        status: int | None = None,
        delay: float = 0.0,
        times: int | None = 1,
        body: JSON | None = None,
        retry_after: float = 0.05,
        connection: Connection | None = None,
        late: bool = False,
    ) -> Fault:
        """Make the next ``times`` calls (None: all) matching ``match`` wait ``delay`` s and/or fail: answer
        ``status``, or cut the ``connection`` (``"closed-before"``, ``"closed-after"``, ``"reset"``,
        ``"cut-short"``), or (``late``) answer an interaction callback 10062 as if it came too late.

        ``match`` is a predicate on :class:`RestCall` or a glob on ``"METHOD /path"`` (``"PATCH /channels/*"``;
        a pattern starting with ``/`` matches any method). A 429 gets Discord's body and headers with
        ``retry_after``. Faults are tried in the order they were added; the first live match applies.
        """
        return self.fault_injector.inject(
            match, status=status, delay=delay, times=times, body=body, retry_after=retry_after,
            connection=connection, late=late,
        )

    def inject_random(
        self,
        seed: int,
        rate: float,
        *,
        match: str | CallMatcher = "*",
        kinds: Sequence[str] = KINDS,
        times: int | None = None,
        slow: float = 1.0,
        retry_after: float = 0.2,
    ) -> RandomFaults:
        """Faults on a random share ``rate`` of the calls matching ``match`` (after the armed ones), each of a
        kind drawn from ``kinds`` (see :mod:`.faults`: ``"429"``, ``"500"``, ``"503"``, ``"slow"`` for ``slow``
        seconds, ``"late"``, and the connection faults), by a random generator seeded with ``seed``."""
        return self.fault_injector.inject_random(
            seed, rate, match=match, kinds=kinds, times=times, slow=slow, retry_after=retry_after
        )

    def refuse_resumes(self, times: int | None = 1, *, chance: float = 1.0, seed: int = 0) -> ResumeRefusals:
        """Refuse the next ``times`` RESUMEs (None: all), each with probability ``chance``: the gateway answers
        invalid session (op 9, ``d: false``) and the bot must IDENTIFY afresh (``fake.drop_gateway()`` makes
        the bot resume)."""
        refusals = ResumeRefusals(times, chance, random.Random(seed))
        self.gateway.resume_refusals.append(refusals)
        return refusals

    def faults_hit(self) -> int:
        """How many calls the injected faults have hit so far."""
        return self.fault_injector.hits()

    def expire_tokens(self, *interaction_ids: int) -> None:
        """Expire interaction tokens (all, or the given ones): later webhook calls answer 401 / 50027."""
        self.interaction_log.expire(*interaction_ids)

    # -- the gateway ----------------------------------------------------------------------------------------

    def connected(self) -> bool:
        return self.gateway.connected()

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a gateway event to the bot (the latest session; buffered for RESUME while disconnected)."""
        await self.gateway.dispatch(event, data)

    @contextlib.asynccontextmanager
    async def together(self) -> AsyncIterator[None]:
        """Hold the events sent inside (``click``, ``slash``...) and send them back to back when the block ends,
        with nothing in between: many users pressing at the same moment."""
        async with self.gateway.together():
            yield

    async def drop_gateway(self, *, resumable: bool = True, code: int = 4000) -> None:
        """Close the bot's gateway connection; it resumes (or re-identifies if not ``resumable``)."""
        await self.gateway.drop(resumable=resumable, code=code)


def _spec_checker(wanted: bool | None) -> SpecChecker | None:
    if wanted is None:
        wanted = spec_checks_available()
    return spec_checker() if wanted else None
