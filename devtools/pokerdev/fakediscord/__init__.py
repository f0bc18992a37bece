"""A loopback fake Discord for end-to-end tests of the bot.

An aiohttp server on 127.0.0.1 (random port) that speaks enough of Discord's REST API (v10) and gateway for the
real, unmodified discord.py to log in, receive events and answer interactions. Tests act as users through
:meth:`FakeDiscord.slash`, :meth:`~FakeDiscord.click`, :meth:`~FakeDiscord.select` and
:meth:`~FakeDiscord.submit_modal`, then read what each channel, DM and ephemeral reply shows.

What is modelled (see ``/work/shared/TESTING-DISCORD.md`` for the patch points and pitfalls):

* one guild with text channels, roles and members (members travel in interaction payloads; the bot asks for no
  privileged intent, so GUILD_CREATE carries only the bot's own member, as on Discord);
* every channel's messages (create, edit, delete, fetch, history), per-user DM channels and closed DMs (50007);
* interaction callbacks 4, 5, 6, 7, 8, 9 answered as an InteractionCallbackResponse (pitfall 2), followups and
  ``@original`` edits through the interaction webhook, all kept per interaction;
* multipart uploads (``payload_json`` plus ``files[n]``), the file bytes kept with the message;
* every request body (JSON, or a multipart request's ``payload_json``) checked against Discord's own OpenAPI
  specification (:mod:`.spec`; ``FakeConfig(spec_checks=False)`` turns it off, and without ``jsonschema`` it is
  off), answered 400 / 50035 like Discord when it does not conform;
* Discord's limits the specification does not encode (pitfall 6): the acknowledgement deadline, component, embed,
  content and modal limits answered with 400 / 50035 like Discord, 40060 for a second response, an optional
  per-channel rate limit answering 429, and Discord's global limit (50 requests/s, interaction answers exempt)
  counted, not enforced (``fake.global_rate``);
* fault injection (see below), gateway drops with RESUME (or a RESUME refused), duplicate interaction delivery,
  expired interaction tokens, closed DMs, messages deleted by a moderator and a channel where the bot may not post
  (:meth:`FakeDiscord.set_bot_can_send`), and many users acting at the same moment (:meth:`FakeDiscord.together`
  sends the interactions made inside it as one burst);
* application command sync, stored so tests can assert the command tree;
* the guild's scheduled events (create, fetch, list, edit, delete, their Interested users, with Discord's rules
  for an external event, the statuses and the Create Events / Manage Events permissions; :mod:`.events`), and
  members marking one Interested (:meth:`FakeDiscord.mark_interested`; GUILD_SCHEDULED_EVENT_USER_ADD and
  _REMOVE sent to a bot with the GUILD_SCHEDULED_EVENTS intent);
* the application's emojis (list, create, fetch, rename, delete) with Discord's limits (a name of 2 to 32 of
  ``[A-Za-z0-9_]``, unique; a PNG, JPEG, GIF or WebP data URI of at most 256 KiB; 2,000 at most), the images
  kept (``fake.emoji("card_As").image``) and served where discord.py's ``Emoji.url`` points; a message naming an
  unknown emoji (``<:name:id>``) is stored as the text it is (``fake.emoji_references(message)`` tells).

Anything the bot does that Discord would reject or that a user would see as a failure (a late or missing
acknowledgement, an invalid body, a second response, an unknown route, a followup before the acknowledgement, an
expired token, a deferral never completed) is recorded as a :class:`Violation`; the ``fake`` fixture fails the test
on any that the test did not take with :meth:`FakeDiscord.take_violations`.

Typical use (fixtures from ``conftest.py``)::

    async def test_join(fake, start_bot):
        await start_bot(PokerBot(...))
        reply = await fake.reply_to(await fake.slash("alice", "poker", subcommand="create", options={...}))
        table = fake.channel_messages("poker")[-1]
        await fake.reply_to(await fake.click("bob", table, table.button("Join")["custom_id"]))
        assert "bob" in table.text()

Faults (:mod:`.faults` has the table of what each does), armed on the calls a route glob (``"METHOD /path"``,
or ``"/path"`` for any method) or a predicate on :class:`RestCall` selects, for the next ``times`` calls (None:
all of them)::

    fake.inject("PATCH /channels/*/messages/*", status=503, times=2)    # two table edits fail (also 429, 500)
    fake.inject("POST /interactions/*", delay=2.0)                       # a slow callback
    fake.inject("POST /channels/*/messages", connection="closed-after")  # posted, but the bot hears nothing
    fake.inject("/users/@me/channels", connection="closed-before")       # lost on the way: nothing happened
    fake.inject("/webhooks/*", connection="reset")                       # TCP reset (ClientOSError)
    fake.inject("PATCH /channels/*", connection="cut-short")             # applied; half an answer
    fake.inject("/interactions/*", late=True)                            # Discord answers 10062
    chaos = fake.inject_random(seed=7, rate=0.1, match="/channels/*")    # 10 % of channel calls, any kind
    fake.refuse_resumes(times=1)                                         # the next RESUME is refused:
    await fake.drop_gateway()                                            # ... the bot must IDENTIFY afresh

Each returns what it counts (``fault.hits``, ``chaos.by_kind()``, ``refusals.refused``; ``fake.faults_hit()``
adds them up). A call a fault cut says so (``call.connection``; its ``status`` is what the fake would have
answered, None when nothing was applied); an interaction whose callback a ``late`` fault answered is ``lost`` and
no acknowledgement violation is blamed on the bot for it, nor a second response after the answer to the first was
cut (Discord answers it 40060, which is how the bot finds out). discord.py does not retry a closed, reset or cut-short
call (the bot sees aiohttp's ServerDisconnectedError, ClientOSError or ClientPayloadError), and after a refused
RESUME it waits 5 s (``Client.before_identify_hook``) before it identifies again; no interaction can be sent
meanwhile.

The parts, one module each: ``constants`` (Discord's numbers), ``model`` (users, channels, messages), ``records``
(calls, interactions, violations), ``guild``, ``messages``, ``commands``, ``interactions``, ``emojis``,
``events`` (scheduled events), ``gateway``, ``server`` (REST plumbing), ``routes/`` (the REST routes) and ``cdn``,
``spec`` (the OpenAPI checks), ``limits`` and ``form`` (Discord's documented limits), ``violations``, ``faults``
and ``ratelimit``, ``driver`` and ``waiting`` (what the tests call), and ``fake`` (the :class:`FakeDiscord` facade
that builds them).
"""

from __future__ import annotations

from .answers import Answer, ApiError
from .config import FakeConfig, RateLimitModel, RoleSpec, UserSpec
from .constants import (
    ACTION_ROW,
    ALLOWED_CALLBACKS,
    API_VERSION,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BUTTON,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_PONG,
    CALLBACK_UPDATE,
    CHANNEL_SELECT,
    CONTAINER,
    JSON,
    LABEL,
    LINK_STYLE,
    MENTIONABLE_SELECT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    OPT_USER,
    PING,
    PREMIUM_STYLE,
    ROLE_SELECT,
    SECTION,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_DISPLAY,
    TEXT_INPUT,
    USER_SELECT,
    Intent,
    MessageFlag,
    Perm,
)
from .emojis import EmojiReference
from .events import FakeEvent
from .fake import FakeDiscord
from .faults import Connection, Fault, RandomFaults, ResumeRefusals, call_matcher
from .form import FormErrors, Path
from .limits import validate_commands, validate_message, validate_modal
from .model import (
    FakeChannel,
    FakeEmoji,
    FakeRole,
    FakeUser,
    StoredFile,
    StoredMessage,
    new_snowflake,
    walk_components,
)
from .patch import patch_discord
from .records import InteractionRecord, RestCall, Violation

__all__ = [
    "ACTION_ROW",
    "ALLOWED_CALLBACKS",
    "API_VERSION",
    "APPLICATION_COMMAND",
    "AUTOCOMPLETE",
    "BUTTON",
    "CALLBACK_AUTOCOMPLETE",
    "CALLBACK_DEFERRED_MESSAGE",
    "CALLBACK_DEFERRED_UPDATE",
    "CALLBACK_MESSAGE",
    "CALLBACK_MODAL",
    "CALLBACK_PONG",
    "CALLBACK_UPDATE",
    "CHANNEL_SELECT",
    "CONTAINER",
    "JSON",
    "LABEL",
    "LINK_STYLE",
    "MENTIONABLE_SELECT",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "OPT_ATTACHMENT",
    "OPT_BOOLEAN",
    "OPT_CHANNEL",
    "OPT_INTEGER",
    "OPT_MENTIONABLE",
    "OPT_NUMBER",
    "OPT_ROLE",
    "OPT_STRING",
    "OPT_SUB_COMMAND",
    "OPT_SUB_COMMAND_GROUP",
    "OPT_USER",
    "OP_DISPATCH",
    "OP_HEARTBEAT",
    "OP_HEARTBEAT_ACK",
    "OP_HELLO",
    "OP_IDENTIFY",
    "OP_INVALID_SESSION",
    "OP_REQUEST_MEMBERS",
    "OP_RESUME",
    "PING",
    "PREMIUM_STYLE",
    "ROLE_SELECT",
    "SECTION",
    "SELECT_TYPES",
    "STRING_SELECT",
    "TEXT_DISPLAY",
    "TEXT_INPUT",
    "USER_SELECT",
    "Answer",
    "ApiError",
    "Connection",
    "EmojiReference",
    "FakeChannel",
    "FakeConfig",
    "FakeDiscord",
    "FakeEmoji",
    "FakeEvent",
    "FakeRole",
    "FakeUser",
    "Fault",
    "FormErrors",
    "Intent",
    "InteractionRecord",
    "MessageFlag",
    "Path",
    "Perm",
    "RandomFaults",
    "RateLimitModel",
    "RestCall",
    "ResumeRefusals",
    "RoleSpec",
    "StoredFile",
    "StoredMessage",
    "UserSpec",
    "Violation",
    "call_matcher",
    "new_snowflake",
    "patch_discord",
    "validate_commands",
    "validate_message",
    "validate_modal",
    "walk_components",
]
