"""The ``poker_bot`` fixture: the real PokerBot against the fake Discord, with the checks every bot test ends with.

``bot = await poker_bot(seed=3)`` starts :class:`cogs.app.PokerBot` on a fresh SQLite file under ``tmp_path`` with
``rng=random.Random(seed)`` (the table draws ``rng.randrange(2**62)`` per hand, so a test can know each hand's deck
in advance, see ``players.hand_seeds``) and a next-hand delay of 0.01 s. ``await poker_bot.restart()`` stops the
bot and starts a new one on the same database, as after a crash or a deploy. Message routes answer with
Discord-like rate-limit headers (see ``UNREACHABLE_LIMIT``).

After the test (it is imported into ``conftest.py``):

* every interaction is settled, the bots are stopped and the store's ``audit`` of the guild must pass;
* no version of any channel message created while a hand was being played (between the hand's ``started_at`` and
  ``ended_at`` in the store) shows a card any player of that hand held: the hole cards (a stud player's down
  cards), the cards drawn and the cards thrown face down. Only Assassin's twos thrown face up, stud's up cards and
  the board (never a player's) are public. Every version of every channel message is
  recorded with the wall-clock time it was written, the clock the store stamps hands with.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.poker import Card
from bot.store import Store
from bot.tables import stored_hand
from cogs.app import PokerBot
from cogs.card_emojis import card_emoji_pictures

from ..pg import query
from .fakediscord import FakeChannel, FakeDiscord, RateLimitModel, StoredMessage

if TYPE_CHECKING:
    from ..conftest import Banks
    from .conftest import BotStarter

# Public mentions of face-up twos: in the seat lines ("twos up 2♠") and the action log ("showing 2♠ face up").
# Assassin's twos thrown face up, on the table: "up 2♣️" in a player's line, "(2♣️ up)" in the log.
_PUBLIC_TWOS = re.compile(r"\([^\n()]*? up\)|· up [^·\n]*")
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


@dataclass(frozen=True)
class Version:
    """One version of a channel message, as written at ``at`` (wall clock)."""

    at: float
    message_id: int
    channel_id: int
    text: str


@dataclass(frozen=True)
class PlayedHand:
    """A hand from the store, replayed: every card its players held, and when it was live."""

    hand_id: int
    number: int
    channel_id: int
    started_at: float
    ended_at: float | None
    secret: frozenset[Card]  # held by a player at some point (dealt down, drawn, thrown face down)
    public: frozenset[Card]  # thrown face up (Assassin), dealt face up (stud)


def card_pattern(card: Card) -> re.Pattern[str]:
    """A card however the bot may write it: its card emoji (``<:c_As_1a2b3c:123>``), its text form (``A♠️``,
    ``10♥️``), or the older ``A♠`` / ``T♥``, as a whole token (not the end of a longer word)."""
    if card.is_joker:
        return re.compile(rf"<:c_{card.code}_[0-9a-f]{{6}}:\d+>")
    rank = card.code[0]
    texts = {rank, "10"} if rank == "T" else {rank}
    symbol = re.escape(SUIT_SYMBOLS[card.suit])
    text = "|".join(re.escape(t) for t in sorted(texts))
    return re.compile(rf"<:c_{card.code}_[0-9a-f]{{6}}:\d+>|(?<![0-9A-Za-z])(?:{text}){symbol}")


def replay(record: dict[str, Any], actions: list[str]) -> tuple[set[Card], set[Card]]:
    """(every card the players held, the cards thrown face up) of a stored hand, rebuilt from seed and log."""
    hand = stored_hand(record["game"], json.loads(record["settings"]), json.loads(record["stacks_before"]),
                       record["seed"], record["carried_in"])
    held: set[Card] = {c for cards in hand.holes for c in cards}
    for action in actions:
        hand.act(action)
        held |= {c for cards in hand.holes for c in cards}
    public = {c for cards in hand.face_up for c in cards}
    public |= {c for player in range(hand.players) for c in hand.up_cards(player)}  # stud's up cards
    return held, public


def played_hands(db_path: Path | str) -> list[PlayedHand]:
    """Every hand in the bank (live, complete or void), replayed."""
    channels = dict(query(db_path, "SELECT id, channel_id FROM tables"))
    columns = ("id", "number", "table_id", "game", "settings", "stacks_before", "seed", "carried_in", "started_at",
               "ended_at")
    actions: dict[int, list[str]] = {}
    for hand_id, action in query(db_path, "SELECT hand_id, action FROM hand_actions ORDER BY hand_id, seq"):
        actions.setdefault(hand_id, []).append(action)
    out = []
    for values in query(db_path, f"SELECT {', '.join(columns)} FROM hands ORDER BY id"):
        row = dict(zip(columns, values))
        held, public = replay(row, actions.get(row["id"], []))
        out.append(PlayedHand(row["id"], row["number"], channels[row["table_id"]], row["started_at"],
                              row["ended_at"], frozenset(held - public), frozenset(public)))
    return out


def leaked_cards(hands: list[PlayedHand], versions: list[Version]) -> list[str]:
    """Channel message versions written while a hand was live that show a card of that hand's players (a text
    already public before the hand began shows nothing of it)."""
    problems = []
    first_seen: dict[tuple[int, str], float] = {}  # a message's text: when it was first public
    for version in versions:
        first_seen.setdefault((version.message_id, version.text), version.at)
    for hand in hands:
        end = hand.ended_at if hand.ended_at is not None else float("inf")
        patterns = [(card, card_pattern(card)) for card in hand.secret]
        for version in versions:
            if version.channel_id != hand.channel_id or not hand.started_at <= version.at < end:
                continue
            if first_seen[version.message_id, version.text] < hand.started_at:
                continue  # an earlier hand's page edited again as it was (its buttons): nothing new was shown
            text = _PUBLIC_TWOS.sub("", version.text)
            # An earlier hand's page edited again with a line more (a player who sat down): the cards it showed
            # before this hand began (that hand's showdown) were public already, whatever this deck deals.
            before = [_PUBLIC_TWOS.sub("", v.text) for v in versions
                      if v.message_id == version.message_id and v.at < hand.started_at]
            shown = sorted(card.pretty() for card, pattern in patterns
                           if pattern.search(text) and not any(pattern.search(old) for old in before))
            if shown:
                problems.append(f"hand #{hand.number} (id {hand.hand_id}): message {version.message_id} showed "
                                f"{' '.join(shown)} before the showdown:\n{version.text}")
    return problems


class MessageRecorder:
    """Sees every message the fake creates and every edit it applies; subclasses keep what they need."""

    def __init__(self, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fake = fake
        new_message, apply_edit = fake._new_message, fake._apply_edit

        def recording_new(channel: FakeChannel, data: Any, files: Any, **kwargs: Any) -> StoredMessage:
            message = new_message(channel, data, files, **kwargs)
            self._record(message)
            return message

        def recording_edit(message: StoredMessage, data: Any, files: Any) -> None:
            apply_edit(message, data, files)
            self._record(message)

        monkeypatch.setattr(fake, "_new_message", recording_new)
        monkeypatch.setattr(fake, "_apply_edit", recording_edit)

    def _record(self, message: StoredMessage) -> None:
        raise NotImplementedError


class MessageLog(MessageRecorder):
    """Records every version of every channel message (not DMs, not ephemeral replies) with the wall clock."""

    def __init__(self, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
        self.versions: list[Version] = []
        super().__init__(fake, monkeypatch)

    def _record(self, message: StoredMessage) -> None:
        channel = self.fake.channels.get(message.channel_id)
        if channel is None or channel.is_dm or message.ephemeral_to is not None or message.ephemeral:
            return
        self.versions.append(Version(time.time(), message.id, message.channel_id, message.text()))


class PokerBotStarter:
    """Starts PokerBots on one database; ``bot`` is the one running now."""

    def __init__(self, fake: FakeDiscord, start_bot: BotStarter, db_path: Path | str, log: MessageLog) -> None:
        self.fake = fake
        self.start_bot = start_bot
        self.db_path = db_path
        self.log = log
        self.bot: PokerBot | None = None
        self.seed = 0
        self.next_hand_delay = 0.01
        self.checked = False

    async def __call__(self, seed: int = 0, *, next_hand_delay: float = 0.01) -> PokerBot:
        assert self.bot is None, "a PokerBot is running already: use restart()"
        self.seed, self.next_hand_delay = seed, next_hand_delay
        return await self._start(random.Random(seed))

    async def _start(self, rng: random.Random) -> PokerBot:
        self.fake.preload_emojis(card_emoji_pictures())  # uploaded "before": the bot finds them all
        bot = PokerBot(self.db_path, rng=rng, next_hand_delay=self.next_hand_delay)
        await self.start_bot(bot)
        report = await bot.card_emojis.start()  # the sync found every card emoji: cards are pictures from now on
        assert report.complete and not report.uploaded, report
        self.bot = bot
        return bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.start_bot.stop(self.bot)
            self.bot = None

    async def restart(self, seed: int | None = None) -> PokerBot:
        """Stop the bot (its clocks and tasks die with it) and start a new one on the same database."""
        await self.stop()
        return await self._start(random.Random(self.seed if seed is None else seed))

    async def finish(self) -> list[str]:
        """Settle, stop, then audit the guild and look for hole cards shown too early (once: a test that calls
        this itself takes the problems, and the fixture does not check again)."""
        self.checked = True
        await self.fake.settle()
        if self.bot is not None:
            await self.fake.quiet()  # what a command or a deal is still sending
        await self.stop()
        problems: list[str] = []
        store = await Store.open(self.db_path)
        try:
            report = await store.audit(self.fake.guild_id)
            if not report.ok:
                problems.append("the audit failed:\n  " + "\n  ".join(report.problems))
        finally:
            await store.close()
        problems += leaked_cards(played_hands(self.db_path), self.log.versions)
        return problems


# Discord answers every message route with rate-limit headers. Without them discord.py keeps a one-request
# bucket whose waiters may sleep up to 30 s when two edits of one channel overlap (seen with the table message),
# so the bot tests use Discord-like headers with a limit too high to reach (test_bot_limits uses a real one).
UNREACHABLE_LIMIT = RateLimitModel(limit=10_000, period=1.0)


@pytest.fixture
async def poker_bot(
    fake: FakeDiscord, start_bot: BotStarter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, banks: Banks
) -> AsyncIterator[PokerBotStarter]:
    """The bot on a new bank: an SQLite file, or a PostgreSQL database in a test marked ``both_engines``."""
    if fake.rate_limit is None:
        fake.rate_limit = UNREACHABLE_LIMIT
    starter = PokerBotStarter(fake, start_bot, await banks.address(tmp_path / "poker.db"),
                              MessageLog(fake, monkeypatch))
    yield starter
    if starter.checked or (isinstance(starter.db_path, Path) and not starter.db_path.exists()):
        return
    problems = await starter.finish()
    if problems:
        pytest.fail("after the test:\n" + "\n".join(problems), pytrace=False)
