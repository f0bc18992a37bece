"""Faults from Discord: 429s, 500s and 503s, slow calls, a dropped gateway, expired tokens, closed DMs, a deleted
table message, a channel the bot may not post in, and the per-channel rate limit. Through all of them every
interaction is acknowledged within Discord's 3 seconds, the table message ends up showing the table, and the
audit passes (``poker_bot`` checks it, and that no channel message showed a live hand's cards, after each test)."""

from __future__ import annotations

import asyncio
import importlib
import random

import discord
import pytest

from cogs.table._text import hand_value
from tests.e2e.conftest_bot import PokerBotStarter
from tests.e2e.fakediscord import FakeDiscord, RateLimitModel, RestCall, call_matcher
from tests.e2e.players import FastClockFor, Players, bettor, calling_station, standing_pat

from .conftest import Figures
from .helpers import assert_acknowledged_in_time, assert_shows_table, chips_lost, runner_of

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


def dm_posts(fake: FakeDiscord, names: tuple[str, ...] = PLAYERS):
    """A fault matcher: the bot posting in these players' DMs."""
    channels = {fake.dm_channel(name).id for name in names}

    def match(call: RestCall) -> bool:
        return call.method == "POST" and call.channel_id in channels

    return match


def every_other(*patterns: str):
    """A fault matcher: every other call matching one of ``patterns`` (so that the call tried again after the
    fault goes through: discord.py waits 1 s, 3 s, 5 s... between tries after a 500)."""
    matchers = [call_matcher(pattern) for pattern in patterns]
    seen = [0]

    def match(call: RestCall) -> bool:
        if not any(matches(call) for matches in matchers):
            return False
        seen[0] += 1
        return seen[0] % 2 == 1

    return match


def callbacks_once():
    """A fault matcher: an interaction's callback, at most once per interaction (discord.py waits 1 s, then 3 s,
    before it tries a callback again after a 5xx: two in a row would miss Discord's 3 s whatever the bot did)."""
    seen: set[int] = set()

    def match(call: RestCall) -> bool:
        iid = call.interaction_id
        if call.method != "POST" or not call.path.startswith("/interactions/") or iid is None or iid in seen:
            return False
        seen.add(iid)
        return True

    return match


def dms_of(fake: FakeDiscord, name: str) -> list[str]:
    return [m.content for m in fake.dms(name)]


async def finish(players: Players, figures: Figures) -> None:
    """The checks every test here ends with (besides the fixture's audit and hole-card checks)."""
    await players.fake.settle()
    await assert_shows_table(players)
    slowest = assert_acknowledged_in_time(players.fake)
    assert slowest < 3.0
    figures["faults: HTTP 429, 500, 503 and 2 s calls injected"] += players.fake.faults_hit()
    figures["interactions answered within 3 s under faults"] += len(players.fake.interactions)
    figures["chips lost"] += await chips_lost(players.starter.db_path, players.fake.guild_id)


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_errors_on_edits_dms_and_callbacks(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures, status: int
) -> None:
    """Every kind of call the bot makes in a hand fails now and then: the hand plays to its end, every click is
    acknowledged in time, every player gets his cards, and the table message shows the table."""
    await poker_bot(seed=101)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, start=False)
    faults = [
        # the table message's edits: in the channel, or through a click's token
        fake.inject(every_other("PATCH /channels/*/messages/*", "PATCH /webhooks/*/messages/*"), status=status,
                    retry_after=0.3, times=3),
        fake.inject(dm_posts(fake), status=status, retry_after=0.3, times=3),
        fake.inject(callbacks_once(), status=status, retry_after=0.3, times=3),
    ]
    if status != 429:  # a failed showdown post is tried again too
        faults.append(fake.inject(f"POST /channels/{players.channel_id}/messages", status=status, times=1))
    await players.poker("alice", "table start")
    await players.play(calling_station)
    await players.play(calling_station, number=2)
    await players.poker("alice", "table pause")

    def private(name: str) -> list[str]:
        return [text for text in dms_of(fake, name) if "Five Card Draw" in text]

    # Two hands (or three, dealt before the pause): one DM each, the cards dealt, edited with the cards drawn; the
    # DMs that failed were sent again (discord.py waits 1 s after a 500; the bot 0.5 s after a 503).
    def drawn(name: str) -> list[str]:
        return [text for text in private(name) if "\nNow: " in text]

    await fake.wait_for(lambda: all(len(drawn(n)) >= 2 for n in PLAYERS), 10, what="every DM")
    await fake.quiet(0.3)
    assert all(f.exhausted for f in faults), [(f.description, f.hits) for f in faults]
    for name in PLAYERS:
        assert len(set(private(name))) == len(private(name)) in (2, 3), (name, dms_of(fake, name))
    assert len(players.showdowns()) == 2
    await finish(players, figures)


class RandomFaults:
    """Faults on a random share of the bot's calls to channels, DMs and interactions: 429 (retry after 0.2 or
    0.5 s), 500, 503, or 0.5 or 2 s of delay. An interaction's callback is hit at most once: after a second
    fault in a row (discord.py waits 1 s, then 3 s) it could not be answered within 3 s whatever the bot did.
    Nor does a callback crawl for 2 s: the bot acknowledges a slow answer 1.5 s after the click arrives (a busy
    machine takes that path more often), and 1.5 + 2 s misses Discord's 3 s whatever the bot did;
    ``test_a_call_that_takes_two_seconds`` crawls a callback sent at once."""

    KINDS = ({"status": 429, "retry_after": 0.2}, {"status": 429, "retry_after": 0.5}, {"status": 500},
             {"status": 503}, {"delay": 0.5}, {"delay": 2.0})

    def __init__(self, fake: FakeDiscord, rng: random.Random, share: float) -> None:
        self.rng, self.share = rng, share
        self.callbacks: set[int] = set()
        self.faults = [fake.inject(self.matcher(crawls=kind.get("delay", 0) > 1), times=None, **kind)
                       for kind in self.KINDS]

    def matcher(self, crawls: bool):
        def match(call: RestCall) -> bool:
            interaction = call.path.startswith("/interactions/")
            if not (interaction or call.path.startswith(("/channels/", "/webhooks/", "/users/@me/channels"))):
                return False
            if interaction and crawls:
                return False
            if self.rng.random() >= self.share / len(self.KINDS):
                return False
            if interaction:
                if call.interaction_id in self.callbacks:
                    return False
                self.callbacks.add(call.interaction_id or 0)
            return True

        return match

    @property
    def hits(self) -> int:
        return sum(f.hits for f in self.faults)


async def test_random_faults_over_many_hands(fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures) -> None:
    """A fifth of the calls fail or crawl, at random, for eight hands: every hand is played to its end, every
    interaction is answered within 3 s, every player gets every card by DM, the table message shows the table."""
    await poker_bot(seed=109)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, start=False, game="single-draw-27")
    faults = RandomFaults(fake, random.Random(109), share=0.2)
    await players.poker("alice", "table start")
    hands = 8
    for number in range(1, hands + 1):
        await players.play(bettor if number % 2 else calling_station, number=number, timeout=20)
    await players.poker("alice", "table pause")
    await fake.settle()

    def drawn(name: str) -> int:  # each hand's DM, edited with the draw (or sent again if it could not be)
        return len({m.content for m in fake.dms(name) if "2-7 Single Draw" in m.content and "\nNow: " in m.content})

    await fake.wait_for(lambda: all(drawn(n) >= hands for n in PLAYERS), 15, what="every DM")
    assert faults.hits > 30, faults.hits
    assert {f.description for f in faults.faults if f.hits} and all(f.hits for f in faults.faults)
    await finish(players, figures)


async def test_a_call_that_takes_two_seconds(fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures) -> None:
    """An edit of the table message that takes 2 s does not hold up the clicks behind it (they are acknowledged at
    once, the writer shows their result when it can); a 2 s DM or a 2 s interaction callback neither."""
    await poker_bot(seed=102)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    slow_edit = fake.inject("PATCH /channels/*/messages/*", delay=2.0, times=1)
    # A join edits the table message (2 s); meanwhile the player to act clicks, and everyone asks for his hand.
    joined = await fake.slash("dave", "poker", subcommand="join", channel="poker")
    await fake.reply_to(joined)
    await fake.wait_for(lambda: slow_edit.hits == 1, 2, what="the slow edit to start")
    click = await fake.reply_to(await fake.click(turn.name, turn.message, players.button_id(turn, "cc")))
    hands = [await fake.reply_to(await fake.click(name, turn.message, players.seat_button("hand")))
             for name in PLAYERS]
    assert click.response_type == 6  # acknowledged at once; the writer shows the table after the slow edit
    assert table.live is not None and table.live.seq == turn.seq + 1
    assert all(h.ephemeral and h.response_type == 4 for h in hands)
    assert all(r.ack_latency is not None and r.ack_latency < 1.0 for r in [click, *hands]), [click, *hands]
    assert slow_edit.hits == 1 and not any(c.fault is slow_edit and c.status is not None for c in fake.calls)
    await assert_shows_table(players)
    # A slow callback and a slow DM (the draw's new cards).
    fake.inject("POST /interactions/*", delay=2.0, times=1)
    fake.inject(dm_posts(fake), delay=2.0, times=2)
    await players.play(calling_station)
    assert len(players.showdowns()) == 1
    await finish(players, figures)


async def test_the_gateway_drops_and_resumes_or_reidentifies(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    """The connection drops in the middle of a hand: a click sent meanwhile is delivered on RESUME; a session
    that cannot be resumed is identified anew; a click delivered twice is applied once."""
    await poker_bot(seed=103)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    identified = len(fake.identify_payloads)

    await fake.drop_gateway(resumable=True)
    buffered = await fake.click(turn.name, turn.message, players.button_id(turn, "cc"))  # while disconnected
    answer = await fake.reply_to(buffered, timeout=10)
    assert answer.response_type in (6, 7) and fake.resumes == 1
    assert table.live is not None and table.live.seq == turn.seq + 1
    seq = table.live.seq
    await fake.resend(buffered)  # the same interaction again: ignored
    await fake.quiet()
    assert table.live.seq == seq

    await fake.drop_gateway(resumable=False)
    await fake.wait_for(lambda: len(fake.identify_payloads) > identified and fake.connected(), 10,
                        what="a new IDENTIFY")
    turn = await players.turn(1)
    click = await fake.click(turn.name, turn.message, players.button_id(turn, "cc"))
    await fake.reply_to(click)
    await fake.resend(click)
    await fake.resend(click)
    await fake.quiet()
    assert table.live is not None and table.live.seq == seq + 1
    await players.play(calling_station, number=1)
    await players.turn(2)  # and the next hand is dealt
    figures["faults: gateway drops (resumed, re-identified)"] += 2
    figures["faults: interactions delivered twice"] += 3
    await finish(players, figures)


async def test_nothing_needs_an_interaction_token_later(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tokens expire after 15 minutes. Here they expire at once after the answer: clocks, deals, draws, showdowns
    and the table message work without one (the fake fails the test on any webhook call with an expired token).
    The writer's use of a click's token to edit the table message (for 13 minutes) is turned off to match."""
    await poker_bot(seed=104)
    monkeypatch.setattr(importlib.import_module("cogs.table._writer"), "TOKEN_REUSE", 0.0)  # the running bot's
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, start=False)
    carol = players.uid("carol")
    table.settings = FastClockFor(table, 1.0, acting={carol})  # type: ignore[assignment]  # 1 s for her
    await players.poker("alice", "table start")
    await players.turn(1)
    fake.expire_tokens()
    fake.token_ttl = 0.0  # from now on every token is expired as soon as the interaction is answered
    await players.play(calling_station)
    await players.play(standing_pat, number=2)
    # In hand 3 she never acts: the clock checks or folds for her, with no token at hand.
    await players.play(calling_station, number=3, idle={"carol"})
    await players.turn(4)
    assert not fake.take_violations("expired-token")
    figures["faults: interaction tokens expired"] += len(fake.interactions)
    await finish(players, figures)


async def test_closed_dms_for_one_then_all_players(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    await poker_bot(seed=105)
    players = Players(fake, poker_bot)
    fake.close_dms("bob")
    await players.open_table("alice", PLAYERS)
    await players.play(calling_station)
    for name in PLAYERS:
        fake.close_dms(name)
    await players.play(calling_station, number=2)
    table = players.table
    await players.turn(3)
    assert table.hand is not None and table.live is not None
    for name in PLAYERS:
        mine = await players.click_seat(name, "hand")
        seat = table.live.users.index(players.uid(name))
        # His cards alone (drawn large), which hand and what they make under them.
        assert mine.ephemeral and mine.content == players.cards(table.hand.holes[seat])
        assert mine.message is not None and str(mine.message.embeds[0]["description"]) == \
            f"Five Card Draw · #3 · {hand_value(table.hand, seat)}"
    # Each is named once on the table message (not in posts that push it up the channel).
    text = players.description()
    assert all(text.count(f"⚠ <@{players.uid(name)}> gets no DMs") == 1 for name in PLAYERS)
    assert not [m for m in fake.channel_messages("poker") if m.content and "DM" in m.content]
    assert fake.dms("bob") == []
    figures["faults: DMs refused (closed DMs)"] += len([c for c in fake.calls if c.status == 403])
    await finish(players, figures)


async def test_the_table_message_deleted_by_a_moderator_is_posted_again(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    await poker_bot(seed=106)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    first = turn.message
    await fake.delete_message(first)  # the bot gets MESSAGE_DELETE
    second = await fake.wait_for(
        lambda: table.message_id not in (None, first.id) and fake.messages.get(table.message_id),
        5, what="the table posted again")
    assert not second.deleted and (await assert_shows_table(players)).id == second.id
    await players.act("cc", turn=await players.turn(1))
    # Deleted while the bot did not hear of it (no event): the next change posts it again.
    second.deleted = True
    await players.poker("dave", "join")
    third = await fake.wait_for(
        lambda: table.message_id not in (None, first.id, second.id) and fake.messages[table.message_id],
        5, what="the table posted a third time")
    assert third.id not in (first.id, second.id)
    await players.play(calling_station, number=1)
    figures["faults: table messages deleted"] += 2
    await finish(players, figures)


async def test_the_host_is_told_which_permission_to_grant(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    bot = await poker_bot(seed=107)
    players = Players(fake, poker_bot)

    def bot_can_send() -> bool:
        channel = bot.get_channel(players.channel_id)
        assert isinstance(channel, discord.TextChannel)
        return channel.permissions_for(channel.guild.me).send_messages

    fake.set_bot_can_send("poker", False)  # a moderator denies it in the channel's permissions
    await fake.wait_for(lambda: not bot_can_send(), 5, what="the bot to hear of it")
    created = await players.poker("alice", "create", game="five-card-draw", small_blind=5, big_blind=10)
    await fake.reply_to(created.id, followups=1)
    told = created.followups[-1]
    assert told.ephemeral, told
    assert told.content == (
        f"I cannot post the table in <#{players.channel_id}>: please grant me **Send Messages** and **Embed Links** "
        "in that channel (Edit Channel → Permissions), then use `/poker table show`.")
    for name in PLAYERS:
        await players.poker(name, "join")
    started = await fake.reply_to(await fake.slash("alice", "poker", group="table", subcommand="start",
                                                    channel="poker"), followups=1)
    assert "grant me **Send Messages**" in started.followups[-1].content
    assert fake.channel_messages("poker") == [m for m in fake.channel_messages("poker") if m.interaction_metadata]
    # The host grants it and asks for the table: it is posted, and the hand (dealt meanwhile) is played.
    fake.set_bot_can_send("poker", True)
    await fake.wait_for(bot_can_send, 5, what="the bot to hear of it")
    await players.poker("alice", "table show")
    await players.play(calling_station, number=1)
    assert all(len([d for d in dms_of(fake, n) if "Five Card Draw" in d]) >= 1 for n in PLAYERS)
    figures["faults: posts refused for a missing permission"] += len([c for c in fake.calls if c.status == 403])
    await finish(players, figures)


def writes_to(fake: FakeDiscord, channel_id: int, after: int) -> list[RestCall]:
    return [c for c in fake.calls[after:] if c.channel_id == channel_id and c.method in ("PATCH", "POST")]


def windows(calls: list[RestCall], period: float) -> list[list[RestCall]]:
    """The calls in the fake's rate-limit windows: a window opens with the first call after the last one closed."""
    out: list[list[RestCall]] = []
    for call in sorted(calls, key=lambda c: c.time):
        if not out or call.time >= out[-1][0].time + period:
            out.append([])
        out[-1].append(call)
    return out


async def test_edits_coalesce_under_the_channel_rate_limit(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    """Discord's per-channel limit, 5 writes per 5 s: a busy table (24 commands at once) coalesces its changes into
    a few edits; hands played by the clock alone take one write per turn, since a clock starts only once its turn
    is on screen. It stays under the limit instead of queueing behind it: no 429, at most 4 edits of the table
    message per window (the 5th request is left for new hands' messages), and clicks meanwhile are answered with
    the table itself. The message ends up showing the table."""
    six = ("alice", "bob", "carol", "dave", "erin", "frank")
    await poker_bot(seed=108)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", six, start=False)
    await assert_shows_table(players)
    await asyncio.sleep(1.1)  # the window of the fake's unreachable limit used by the setup is over
    fake._buckets.clear()
    fake.rate_limit = RateLimitModel(limit=5, period=5.0)
    publisher = runner_of(players, table).writer
    mark, asked, wrote = fake.mark(), publisher.wanted, publisher.writes

    async with fake.together():  # 24 commands at the same moment, each changing the table
        burst = [await fake.slash(name, "poker", subcommand=sub, channel="poker")
                 for _ in range(2) for sub in ("sitout", "sitin") for name in six]
    for iid in burst:
        await fake.reply_to(iid, timeout=10)
    await assert_shows_table(players, timeout=12)
    assert publisher.wanted - asked == len(burst)
    assert 1 <= publisher.writes - wrote <= 4, publisher.writes - wrote
    # The pacing reads the limit discord.py learned from Discord's headers (a private part of discord.py: this
    # fails loudly if it moves, rather than the bot silently queueing behind the limit again).
    buckets = players.bot.http._buckets  # type: ignore[attr-defined]
    assert any(getattr(b, "limit", None) == 5 for b in buckets.values())
    burst_writes = publisher.writes - wrote

    # The clock plays for everyone (0.05 s each): blinds, folds, showdowns, new hands, until two timeouts in a
    # row have sat everyone out.
    table.settings = FastClockFor(table, 0.05, acting={players.uid(n) for n in six})  # type: ignore[assignment]
    asked, wrote = publisher.wanted, publisher.writes
    await players.poker("alice", "table start")
    await fake.wait_for(lambda: table.live is None and len(table.dealt_in()) < 2, 20, what="everyone sat out")
    await assert_shows_table(players, timeout=15)
    changes, writes = publisher.wanted - asked, publisher.writes - wrote
    # A player's clock starts only once his turn is on screen, so each turn the clock plays is one write (paced
    # under the limit, checked below); the changes in between (a deal, a showdown) join those writes.
    assert len(players.showdowns()) >= 2 and writes <= changes, (changes, writes)

    # Players again, clicking as fast as the table lets them: their clicks are answered with the table itself (no
    # channel edit), the draws too (the draw form is answered with the table); only the deals edit the table message.
    table.settings = table.settings._settings  # type: ignore[attr-defined]  # the usual clock
    number = (await players.bot.store.recent_hands(table.id, 1))[0].number + 1  # dealt once they sit in
    async with fake.together():
        back = [await fake.slash(name, "poker", subcommand="sitin", channel="poker") for name in six[:3]]
    for iid in back:
        await fake.reply_to(iid, timeout=10)
    asked2, wrote2, updates = publisher.wanted, publisher.writes, publisher.updates
    pending = publisher.written < publisher.wanted or publisher.busy  # coalesced into one write, still to come
    await players.play(calling_station, number=number, timeout=15)
    clicks = publisher.updates - updates
    changes, writes = changes + publisher.wanted - asked2, writes + publisher.writes - wrote2
    # Each click is answered with the table (no write); the other changes take at most one write each.
    assert clicks >= 4, publisher
    assert publisher.writes - wrote2 <= (publisher.wanted - asked2) - clicks + pending, (clicks, pending, publisher)

    calls = writes_to(fake, players.channel_id, mark)
    assert not [c for c in fake.calls[mark:] if c.status == 429]
    for window in windows(calls, 5.0):
        assert len(window) <= 5 and len([c for c in window if c.method == "PATCH"]) <= 4, [str(c) for c in window]
    figures["table changes asked for under the rate limit"] += len(burst) + changes
    figures["table message writes they took"] += burst_writes + writes
    await finish(players, figures)


@pytest.mark.parametrize("waiting", ["in flight", "for the rate limit"])
async def test_closing_while_an_edit_is_pending(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures, waiting: str
) -> None:
    """The host closes the table while an edit of its message is in flight (a slow one), or waits for room under
    the rate limit: "Table closed" is the message's last state; no edit of the live table lands after it."""
    await poker_bot(seed=110)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, start=False)
    await assert_shows_table(players)
    publisher = runner_of(players, table).writer
    if waiting == "in flight":
        slow = fake.inject("PATCH /channels/*/messages/*", delay=1.0)
        await players.poker("bob", "sitout")
        await fake.wait_for(lambda: slow.hits == 1 and publisher.busy, 5, what="a slow edit in flight")
    else:
        await asyncio.sleep(1.1)
        fake._buckets.clear()
        fake.rate_limit = RateLimitModel(limit=5, period=5.0)
        for _ in range(3):
            for sub in ("sitout", "sitin"):
                await players.poker("bob", sub)
        await fake.wait_for(lambda: publisher.task is not None and not publisher.busy, 5,
                            what="a write waiting its turn")
    message_id = table.message_id
    closed = await fake.slash("alice", "poker", subcommand="close", channel="poker")
    await fake.reply_to(closed, followups=1, timeout=10)
    await asyncio.sleep(1.5)  # longer than the slow edit, or the writer's wait
    message = fake.message(message_id)
    assert [e.get("title") for e in message.embeds] == ["Table closed"] and message.components == []
    figures["tables closed while an edit was pending"] += 1
