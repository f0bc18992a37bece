"""The gateway: HELLO, IDENTIFY (READY, GUILD_CREATE), heartbeats, RESUME with replay, member chunks, and
dispatching events to the bot's session (buffered while it is disconnected)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .constants import (
    API_VERSION,
    JSON,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
    Intent,
)
from .faults import ResumeRefusals
from .guild import Guild
from .model import StoredMessage
from .runtime import Runtime

REPLAY_FRAMES = 500  # dispatches kept per session for RESUME


@dataclass(eq=False)
class GatewaySession:
    """A logical gateway session (survives a dropped connection until resumed or invalidated)."""

    session_id: str
    intents: int
    identify: JSON
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    frames: list[tuple[int, str]] = field(default_factory=list)
    resumable: bool = True
    ended: bool = False
    dropped: web.WebSocketResponse | None = None  # a connection the fake itself closed
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    @property
    def shard(self) -> tuple[int, int] | None:
        """The shard the session identified as ([id, count] in IDENTIFY), or None (unsharded)."""
        shard = self.identify.get("shard")
        return (int(shard[0]), int(shard[1])) if isinstance(shard, list) and len(shard) == 2 else None

    def carries(self, guild_id: int) -> bool:
        """Whether Discord sends this guild's events on the session (its shard is the guild's)."""
        shard = self.shard
        return shard is None or (guild_id >> 22) % shard[1] == shard[0]


class Gateway:
    """The bot's gateway sessions and what is sent on them."""

    def __init__(
        self, guild: Guild, runtime: Runtime, *, allow_privileged_intents: bool, message_events: bool
    ) -> None:
        self.guild = guild
        self.runtime = runtime
        self.allow_privileged_intents = allow_privileged_intents
        self.message_events = message_events
        self.sessions: list[GatewaySession] = []
        self.identify_payloads: list[JSON] = []
        self.resumes = 0
        self.resume_refusals: list[ResumeRefusals] = []
        self.refused_resumes = 0
        self.tasks: set[asyncio.Task[Any]] = set()
        self.held: list[tuple[str, JSON]] | None = None  # events held by together(), sent as one burst

    # -- the websocket --------------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": 41250}}))
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == OP_HEARTBEAT:
                    await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK}))
                elif op == OP_IDENTIFY:
                    session = await self._identify(ws, frame["d"])
                elif op == OP_RESUME:
                    session = await self._resume(ws, frame["d"])
                elif op == OP_REQUEST_MEMBERS and session is not None:
                    members = self.guild.all_members_payloads()
                    chunk = {"guild_id": str(self.guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
                    if frame["d"].get("nonce"):
                        chunk["nonce"] = frame["d"]["nonce"]
                    await self.send(session, "GUILD_MEMBERS_CHUNK", chunk)
        finally:
            if session is not None and session.ws is ws and session.dropped is not ws and ws.close_code == 1000:
                session.ended = True  # the bot closed cleanly
            self.runtime.notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        self.identify_payloads.append(data)
        intents = int(data.get("intents") or 0)
        if intents & Intent.PRIVILEGED and not self.allow_privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        session = GatewaySession(secrets.token_hex(16), intents, data, ws)
        for old in self.sessions:
            if old.shard == session.shard:  # a new session of the shard replaces the old one
                old.ended = True
        self.sessions.append(session)
        guild = self.guild
        ours = session.carries(guild.id)
        ready = {
            "v": API_VERSION,
            "user": guild.bot_user.payload(),
            "session_id": session.session_id,
            "resume_gateway_url": self.runtime.gateway_url,
            "guilds": [{"id": str(guild.id), "unavailable": True}] if ours else [],
            "application": {"id": str(guild.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if session.shard is not None:
            ready["shard"] = list(session.shard)
        await self.send(session, "READY", ready)
        if ours:
            await self.send(session, "GUILD_CREATE", guild.guild_create_payload())
        self.runtime.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        session = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
        refused = session is not None and any(r.refuse() for r in self.resume_refusals)
        if session is None or not session.resumable or session.ended or refused:
            if session is not None:
                session.ended = True
            self.refused_resumes += refused
            await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            return None
        self.resumes += 1
        async with session.lock:
            session.ws = ws
            last = int(data.get("seq") or 0)
            for seq, frame in session.frames:
                if seq > last:
                    await ws.send_str(frame)
        await self.send(session, "RESUMED", {})
        self.runtime.notify()
        return session

    # -- sessions -------------------------------------------------------------------------------------------

    def active_session(self) -> GatewaySession | None:
        """The live session that carries the guild's events (a bot's shard for it), else the newest live one."""
        live = [s for s in self.sessions if not s.ended]
        carrying = [s for s in live if s.carries(self.guild.id)]
        return (carrying or live)[-1] if live else None

    def connected(self) -> bool:
        session = self.active_session()
        return session is not None and session.connected

    async def drop(self, *, resumable: bool = True, code: int = 4000) -> None:
        """Close the bot's gateway connection; it resumes (or re-identifies if not ``resumable``)."""
        session = self.active_session()
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected")
        session.resumable = resumable
        session.dropped = session.ws
        await session.ws.close(code=code, message=b"dropped by the test")

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for session in self.sessions:
            if session.connected and session.ws is not None:
                with contextlib.suppress(Exception):
                    await session.ws.close()

    # -- dispatching ----------------------------------------------------------------------------------------

    async def send(self, session: GatewaySession, event: str, data: JSON) -> None:
        async with session.lock:
            session.seq += 1
            frame = json.dumps({"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data})
            session.frames.append((session.seq, frame))
            del session.frames[:-REPLAY_FRAMES]
            if session.connected and session.ws is not None:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await session.ws.send_str(frame)

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a gateway event to the bot (the latest session; buffered for RESUME while disconnected)."""
        session = self.active_session()
        if session is None:
            raise RuntimeError(f"no bot is connected to the fake Discord (cannot send {event})")
        if self.held is not None:
            self.held.append((event, data))
            return
        await self.send(session, event, data)

    @contextlib.asynccontextmanager
    async def together(self) -> AsyncIterator[None]:
        """Hold the events sent inside and send them back to back when the block ends, with nothing between."""
        if self.held is not None:
            raise RuntimeError("together() does not nest")
        self.held = []
        try:
            yield
        finally:
            held, self.held = self.held, None
            session = self.active_session()
            if session is not None:
                for event, data in held:
                    await self.send(session, event, data)

    def send_soon(self, event: str, data: Callable[[], JSON]) -> None:
        """Dispatch an event from synchronous code (a test changing the guild), if a bot is connected."""
        if self.active_session() is None:
            return
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data()))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def send_soon_to(self, intent: int, event: str, data: JSON) -> None:
        """Dispatch an event from synchronous code, if the connected bot's intents ask for it (``intent``)."""
        session = self.active_session()
        if session is None or not session.intents & intent:
            return
        self.send_soon(event, lambda: data)

    async def message_event(self, event: str, message: StoredMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for a non-ephemeral message, if the bot's intents ask for it."""
        session = self.active_session()
        if not self.message_events or session is None or message.ephemeral:
            return
        guild = message.guild_id is not None
        wanted = Intent.GUILD_MESSAGES if guild else Intent.DIRECT_MESSAGES
        if not session.intents & wanted:
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if guild:
                data["guild_id"] = str(message.guild_id)
        else:
            data = message.payload()
            own = message.author.get("id") == str(self.guild.app_id)
            if (
                guild
                and not own
                and not session.intents & Intent.MESSAGE_CONTENT
                and self.guild.bot_user.mention not in message.content
            ):
                data.update(content="", embeds=[], attachments=[], components=[])
        await self.send(session, event, data)
