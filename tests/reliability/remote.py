"""The real bot in another process (``python -m pokerdev.launch``) against the in-test fake Discord, and players
who know only what Discord shows them: the table message's embed and buttons, their ephemeral replies.

``BotProcess`` starts, SIGKILLs and SIGTERMs the bot; ``RemotePlayers`` plays one channel's table with a seeded random
policy, one click at a time, and shrugs off clicks that the bot, being dead, never answers.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import random
import re
import signal
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cogs.card_emojis import card_emoji_pictures
from pokerdev.forks import ForkedProcess, ForkServer
from tests.e2e.fakediscord import FakeDiscord, InteractionRecord, StoredMessage
from tests.pg import query

ROOT = Path(__file__).resolve().parents[2]
ACTION = re.compile(r"^pk:turn:(\d+):(\d+):(\d+):([a-z]+)$")
PROMPT = re.compile(r"^\*\*<@(\d+)>: ", re.MULTILINE)  # the player to act, in bold
PICKER_GONE = "(the picker was replaced by a newer private message)"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOGGED_ERROR = re.compile(r"^\[?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\]? \[?(?:ERROR|CRITICAL)\b")


_forks: list[ForkServer] = []  # this test process's fork server of the bot, started with the first bot


def bot_forks() -> ForkServer:
    """The fork server of ``python -m pokerdev.launch``: each bot process forked from one that imported the bot once
    (a new interpreter would spend a second or more on imports at every start)."""
    if not _forks:
        _forks.append(ForkServer("pokerdev.launch:main", env=bot_env()))
        atexit.register(_forks[0].close)
    return _forks[0]


def bot_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


@dataclass
class Stint:
    """One run of the bot process: when it was ready and when it was killed."""

    ready_at: float
    killed_at: float | None = None


class BotProcess:
    """The bot in a subprocess, on one bank (an SQLite file or a PostgreSQL URL), talking to ``fake``."""

    def __init__(self, fake: FakeDiscord, db_path: Path | str, log_dir: Path, *, seed: int = 0, name: str = "bot",
                 log_level: str = "WARNING", port: int | None = None, options: Sequence[str] = ()) -> None:
        self.fake = fake
        self.db_path = db_path
        self.log_dir = log_dir
        self.seed = seed
        self.name = name
        self.log_level = log_level
        self.port = port  # default: the fake's
        self.options = tuple(options)
        self.proc: ForkedProcess | None = None
        self.stints: list[Stint] = []
        self.logs: list[Path] = []

    async def spawn(self) -> ForkedProcess:
        """Start the process (without waiting for it to connect); its output goes to a new log file."""
        assert self.proc is None
        self.fake.preload_emojis(card_emoji_pictures())  # uploaded "before": the bot finds them all
        log = self.log_dir / f"{self.name}-{len(self.logs):03d}.log"
        log.write_bytes(b"")  # there from now on, whenever the child gets to open it
        self.logs.append(log)
        port = self.fake.port if self.port is None else self.port
        args = ["--port", str(port), "--db", str(self.db_path), "--seed", str(self.seed), "--next-hand-delay", "0.05",
                "--log-level", self.log_level, *self.options]
        forks = bot_forks()
        self.proc = ForkedProcess(forks, forks.start(args, out=log, err=log, cwd=ROOT, env=bot_env()))
        return self.proc

    async def start(self, timeout: float = 20.0) -> None:
        identified = len(self.fake.identify_payloads)
        await self.spawn()
        await self.fake.wait_for(lambda: len(self.fake.identify_payloads) > identified and self.fake.connected(),
                                 timeout, what="the bot process to connect")
        self.stints.append(Stint(self.fake.now()))

    def output(self) -> str:
        """What the last run wrote (its log and any line it printed)."""
        return self.logs[-1].read_text(errors="replace") if self.logs else ""

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.stints[-1].killed_at = self.fake.now()
        self.proc = None

    async def terminate(self, timeout: float = 10.0) -> int:
        """SIGTERM: the bot closes cleanly; its exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        self.stints[-1].killed_at = self.fake.now()
        self.proc = None
        return code

    def errors(self) -> list[str]:
        """ERROR and CRITICAL lines, tracebacks and unretrieved task exceptions the bot logged, over every run
        (discord.py's log format, with or without its colours)."""
        found = []
        for log in self.logs:
            text = ANSI.sub("", log.read_text(errors="replace"))
            found += [line for line in text.splitlines() if LOGGED_ERROR.match(line) or line.startswith("Traceback")
                      or "Task exception was never retrieved" in line or "Ignoring exception" in line]
        return found

    def excused(self, rec: InteractionRecord, deadline: float = 3.0) -> bool:
        """An interaction the bot may have missed: sent from ``deadline`` s before a kill until the next start."""
        for i, stint in enumerate(self.stints):
            if stint.killed_at is None:
                continue
            back = self.stints[i + 1].ready_at if i + 1 < len(self.stints) else float("inf")
            if stint.killed_at - deadline - 0.5 <= rec.sent_at <= back:
                return True
        return False


# ------------------------------------------------------------------ the store, read from the test


@dataclass(frozen=True)
class LiveHand:
    hand_id: int
    table_id: int
    actions: int


def live_hands(db_path: Path | str) -> dict[int, LiveHand]:
    """The live hand of each table (by table id), with its number of actions."""
    rows = query(db_path, "SELECT h.id, h.table_id, (SELECT count(*) FROM hand_actions a WHERE a.hand_id = h.id) "
                          "FROM hands h WHERE h.status = 'live'")
    return {table: LiveHand(hand, table, count) for hand, table, count in rows}


def progress(db_path: Path | str) -> dict[int, int]:
    """Per table: the actions taken (it grows when a player acts through the table's buttons)."""
    rows = query(db_path, "SELECT h.table_id, count(a.seq) FROM hands h "
                          "LEFT JOIN hand_actions a ON a.hand_id = h.id GROUP BY h.table_id")
    return dict(rows)  # type: ignore[arg-type]


def hand_status(db_path: Path | str, hand_id: int) -> tuple[str, int]:
    [(status, count)] = query(db_path, "SELECT status, (SELECT count(*) FROM hand_actions WHERE hand_id = ?) "
                                       "FROM hands WHERE id = ?", hand_id, hand_id)
    return str(status), int(count)


# ------------------------------------------------------------------ players


@dataclass
class RemoteTurn:
    user_id: int
    table_id: int
    hand_id: int
    seq: int
    kinds: dict[str, str]  # kind -> custom_id
    message: StoredMessage


@dataclass
class RemotePlayers:
    """The players of one channel's table; ``step`` makes one move for whoever is to act."""

    fake: FakeDiscord
    channel: str
    names: Sequence[str]
    rng: random.Random
    reply_timeout: float = 3.5
    moves: int = 0
    unanswered: int = 0
    refused: list[str] = field(default_factory=list)

    def table_message(self) -> StoredMessage | None:
        """The newest message of the channel with the table's buttons (what the players look at)."""
        for message in reversed(self.fake.channel_messages(self.channel)):
            if message.embeds and any(cid.startswith("pk:") for cid in message.custom_ids()):
                return message
        return None

    def turn(self) -> RemoteTurn | None:
        message = self.table_message()
        if message is None:
            return None
        found = PROMPT.search(str(message.embeds[0].get("description") or ""))
        kinds: dict[str, str] = {}
        ids: tuple[int, int, int] | None = None
        for custom_id in message.custom_ids():
            match = ACTION.match(custom_id)
            if match:
                ids = (int(match[1]), int(match[2]), int(match[3]))
                kinds[match[4]] = custom_id
        if found is None or ids is None:
            return None
        return RemoteTurn(int(found[1]), *ids, kinds, message)

    def seats(self) -> str:
        message = self.table_message() or next(iter(reversed(self.fake.channel_messages(self.channel))), None)
        if message is None or not message.embeds:
            return ""
        return str(message.embeds[0].get("description") or "")

    async def answer(self, sending: Awaitable[int]) -> InteractionRecord | None:
        """Send an interaction and wait for the bot's answer; None if it never comes (the bot was killed: its
        successor, identified anew, never gets the interactions sent to the dead one)."""
        epoch = len(self.fake.identify_payloads)
        rec = self.fake.interactions[await sending]

        def answered() -> InteractionRecord | bool | None:
            if rec.response_type is not None:
                return rec
            return rec.deadline_passed or len(self.fake.identify_payloads) > epoch

        try:
            result = await self.fake.wait_for(answered, self.reply_timeout, what="an answer")
        except TimeoutError:
            result = None
        if not isinstance(result, InteractionRecord):
            self.unanswered += 1
            return None
        return result

    async def step(self) -> bool:
        """One move by the player to act (or a rebuy by a player out of chips); True if the bot answered it."""
        turn = self.turn()
        if turn is None:
            return await self._rebuy()
        name = self.fake.user(turn.user_id).name
        if name not in self.names:
            return False
        if "draw" in turn.kinds:
            return await self._draw(name, turn)
        roll = self.rng.random()
        kind = "cc"
        if roll < 0.05 and "fold" in turn.kinds:
            kind = "fold"
        elif roll < 0.25 and "min" in turn.kinds:
            kind = "min"
        answer = await self.answer(self.fake.click(name, turn.message, turn.kinds[kind]))
        return self._count(answer)

    def _count(self, answer: InteractionRecord | None) -> bool:
        if answer is None:
            return False
        if answer.response_type == 4 and answer.ephemeral:
            self.refused.append(answer.content)  # e.g. a click on a moment that had just passed
            return True
        self.moves += 1
        return True

    async def _draw(self, name: str, turn: RemoteTurn) -> bool:
        if self.rng.random() < 0.3:
            return self._count(await self.answer(self.fake.click(name, turn.message, turn.kinds["pat"])))
        opened = await self.answer(self.fake.click(name, turn.message, turn.kinds["draw"]))
        picker = opened.message if opened is not None else None
        if opened is None or picker is None or not opened.ephemeral or opened.response_type != 4:
            return self._count(opened)
        toggles = [str(c["custom_id"]) for c in picker.buttons() if str(c.get("custom_id", "")).startswith("pk:card:")]
        if not toggles:  # not a picker: a refusal (e.g. the moment had passed), or the bot's word that it was lost
            self.refused.append(opened.content)
            return True
        for index in sorted(self.rng.sample(range(len(toggles)), self.rng.randint(1, min(3, len(toggles))))):
            current = self._picker_now(picker.id)
            if current is None:
                return True
            ids = [str(c["custom_id"]) for c in current.buttons() if str(c.get("custom_id", "")).startswith("pk:card:")]
            tapped = await self.answer(self.fake.click(name, current, ids[index]))
            if tapped is None or tapped.response_type != 7:
                return self._count(tapped)
        current = self._picker_now(picker.id)
        if current is None:
            return True
        confirm = next(str(c["custom_id"]) for c in current.buttons()
                       if str(c.get("custom_id", "")).startswith("pk:throw:"))
        return self._count(await self.answer(self.fake.click(name, current, confirm)))

    def _picker_now(self, picker_id: int) -> StoredMessage | None:
        """The picker as it stands, or None (noted) when the bot has replaced it by a newer private message (a
        tap's answer lost on the way): the player starts his draw over, as no one can tap a deleted message."""
        current = self.fake.message(picker_id)
        if current.deleted:
            self.refused.append(PICKER_GONE)
            return None
        return current

    async def _rebuy(self) -> bool:
        seats = self.seats()
        for name in self.names:
            if re.search(rf"<@{self.fake.user(name).id}> 0(?: · (?!\*\*all in)|$)", seats, re.MULTILINE):
                rebuy = self.fake.slash(name, "poker", subcommand="rebuy", options={"amount": 500},
                                        channel=self.channel)
                return self._count(await self.answer(rebuy))
        return False
