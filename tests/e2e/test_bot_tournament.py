"""Tournaments through Discord (issue 15): a whole tournament of each structure played with buttons by scripted
players on a fast clock, registration and unregistration with the message's buttons, a rebuy, late registration,
cancel (every buy-in returned) and a restart mid-tournament. After each test the store's audit must pass and no
hole card may have been shown (``conftest_bot``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from bot.poker import Hand, Legal
from bot.tables import Table, Terms
from bot.tables import tournament as mode
from bot.tables.tournament import Finished
from cogs.tournament_views import news_text

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, InteractionRecord, StoredMessage
from .players import Players, Policy, bettor

pytestmark = [pytest.mark.e2e, pytest.mark.both_engines]  # the bot on SQLite and on PostgreSQL

PLAYERS = ("alice", "bob", "carol")


class FastClock(mode.Clock):
    """Tournament time running ``speed`` times as fast as the wall clock (a one-minute level lasts 60/speed s)."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.start = time.time()

    def now(self) -> float:
        return self.start + (time.time() - self.start) * self.speed

    def wall(self, at: float) -> float:
        return self.start + (at - self.start) / self.speed

    def real_seconds(self, seconds: float) -> float:
        return seconds / self.speed


class DealClock(mode.Clock):
    """Tournament time that moves only when a hand is dealt: ``per_deal`` seconds just before each deal, so each
    hand's level is known in advance however fast the machine is (and Discord's timestamps are now-ish)."""

    def __init__(self, per_deal: float) -> None:
        self.t = time.time()
        self.per_deal = per_deal

    def now(self) -> float:
        return self.t

    def wall(self, at: float) -> float:
        return time.time() + (at - self.t)

    def real_seconds(self, seconds: float) -> float:
        return 0.0


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> Iterator[DealClock]:
    clock = DealClock(45.0)
    monkeypatch.setattr(mode, "CLOCK", clock)
    before_deal = mode.TournamentMode.before_deal

    async def stepping(self: mode.TournamentMode, table: Table) -> Terms:
        clock.t += clock.per_deal
        return await before_deal(self, table)

    monkeypatch.setattr(mode.TournamentMode, "before_deal", stepping)
    yield clock


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> Iterator[FastClock]:
    clock = FastClock(60.0)
    monkeypatch.setattr(mode, "CLOCK", clock)
    yield clock


def shove(hand: Hand, legal: Legal) -> str:
    """Raise as much as allowed whenever possible, else call; stand pat."""
    if legal.phase == "drawing":
        return "sd"
    return f"cbr {legal.max_raise_to}" if legal.can_raise else "cc"


async def tournament(players: Players, host: str, **options: object) -> tuple[Table, StoredMessage]:
    """``/poker tournament create`` by ``host``: the tournament table and its registration message."""
    created = await players.fake.reply_to(await players.fake.slash(
        host, "poker", group="tournament", subcommand="create", options=options, channel=players.channel))
    assert created.embeds and created.embeds[0]["title"].startswith("Tournament: "), created.content
    assert created.message is not None
    return players.table, created.message


async def press(players: Players, user: str, lobby: StoredMessage, label: str) -> InteractionRecord:
    """Click the registration message's button that starts with ``label``; the answer (with its followup)."""
    fake = players.fake
    message = fake.message(lobby.id)
    button = next(b for b in message.buttons() if str(b.get("label", "")).startswith(label))
    return await fake.reply_to(await fake.click(user, message, str(button["custom_id"])), followups=1)


async def command(players: Players, user: str, sub: str) -> InteractionRecord:
    fake = players.fake
    return await fake.reply_to(await fake.slash(user, "poker", group="tournament", subcommand=sub,
                                                channel=players.channel))


def standings(fake: FakeDiscord) -> StoredMessage | None:
    return next((m for m in fake.channel_messages("poker") if m.content.startswith("**Final standings**")), None)


async def play_out(players: Players, policy: Policy = shove, limit: int = 60) -> StoredMessage:
    """Play hands with ``policy`` until the final standings are posted."""
    fake = players.fake
    for _ in range(limit):
        if standings(fake) is not None:
            break
        table = players.table
        if mode.tournament_of(table) is not None and mode.tournament_of(table).state.stage == "finished":
            break
        await players.play(policy, timeout=15)
    return await fake.wait_for(lambda: standings(fake), 10, what="the final standings")


@pytest.mark.parametrize(("game", "structure"), [("single-draw-a5", "fixed-limit"), ("triple-draw-27", "pot-limit"),
                                                 ("five-card-draw", "no-limit")])
async def test_a_whole_tournament_of_each_structure(fake: FakeDiscord, poker_bot: PokerBotStarter, dealt: DealClock,
                                                    game: str, structure: str) -> None:
    await poker_bot(seed=7)
    players = Players(fake, poker_bot)
    table, lobby = await tournament(players, "alice", game=game, buy_in=100, starting_chips=400, level_minutes=1,
                                    levels="10/20, 20/40, 40/80, 80/160", structure=structure, payouts="70/30")
    for number, name in enumerate(PLAYERS):
        answer = await press(players, name, lobby, "Register")
        assert answer.response_type == 7 and "You are in" in answer.followups[0].content
        if number == 0:  # a lone registrant is in, not "1st"
            roster = next(f["value"] for f in fake.message(lobby.id).embeds[0]["fields"]
                          if f["name"].startswith("Players"))
            assert roster == f"<@{players.uid(name)}>", roster
    assert await players.bot.store.balance(fake.guild_id, players.uid("bob")) == 900
    field = players.section("Tournament")
    assert field is not None and "3 registered · prize pool 300" in field
    refused = await command(players, "bob", "start")
    assert refused.ephemeral and "host" in refused.content
    started = await command(players, "alice", "start")
    assert "The tournament starts: 3 players, prize pool 300" in started.content
    # Started, with no late registration and no rebuys: no cash-table seat button, and the commands say so.
    turn = await players.turn(1, timeout=10)
    assert [b.get("label") for b in turn.message.buttons()][:2] == ["My hand", "Sit out / in"]
    assert not {"Join", "Rebuy…", "Leave"} & {b.get("label") for b in turn.message.buttons()}
    joining = await players.poker("dave", "join")
    assert joining.content == "This table plays a tournament, and its registration is closed: you can watch."
    rebuying = await players.poker("bob", "rebuy", amount=100)
    assert rebuying.content == "This tournament has no rebuys: a player who goes broke is out."
    final = await play_out(players, bettor)

    store = players.bot.store
    record = await store.get_tournament(table.id)
    assert record is not None
    prizes = {e.user_id: e.prize for e in record.entries}
    assert sum(p or 0 for p in prizes.values()) == 300 and len(prizes) == 3
    t = mode.tournament_of(players.table)
    assert t is not None and final.content == news_text(Finished(tuple(t.state.placings()), prizes))  # type: ignore[arg-type]
    first = t.state.placings()[0]
    assert first.place == 1 and len(first.players) == 1 and prizes[first.players[0]] == 210  # 70% of 300
    winner = first.players[0]
    for uid, prize in prizes.items():
        assert await store.balance(fake.guild_id, uid) == 900 + (prize or 0)
    # The standings are marked shown once their post has returned, a moment after the fake has the message.
    await fake.wait_for(lambda: t.record.announced, 10, what="the final standings marked shown")
    record = await store.get_tournament(table.id)
    assert record is not None and (record.status, record.pool, record.announced) == ("finished", 0, True)
    # Every hand was dealt at its level's stakes (hand k at 45k seconds: 60-second levels), in the structure asked.
    hands = sorted(await store.recent_hands(table.id, 100), key=lambda h: h.number)
    assert len(hands) >= 3 and all(h.settings["stakes"]["structure"] == structure for h in hands)
    levels = [10, 20, 40, 80]
    expected = [levels[min(3, 45 * h.number // 60)] for h in hands]
    assert [h.settings["stakes"]["small_blind"] for h in hands] == expected
    # The table message says it is over; /chips results and /poker history work for the tournament.
    over = await fake.wait_for(lambda: players.section("Tournament over"), 5, what="the table message's standings")
    assert f"<@{winner}>" in over
    assert players.message().buttons() == []  # nothing to join, rebuy or leave once it is over
    results = await players.chips("alice", "results")
    assert f"<@{winner}> +110" in results.content and "(running)" not in results.content
    history = await players.poker("bob", "history", count=2)
    assert history.ephemeral and history.message is not None and f"#{hands[-1].number} " in history.message.text()


async def test_registration_buttons_late_registration_rebuy_and_cancel(
    fake: FakeDiscord, poker_bot: PokerBotStarter, fast: FastClock
) -> None:
    fast.speed = 1.0  # a real minute per level: late registration and rebuys stay open during the test
    await poker_bot(seed=3)
    players = Players(fake, poker_bot)
    store = players.bot.store
    _, lobby = await tournament(players, "alice", game="five-card-draw", buy_in=50, starting_chips=500,
                                level_minutes=10, late_registration_levels=1, rebuys=1)
    for name in ("alice", "bob", "carol"):
        await press(players, name, lobby, "Register")
    out = await press(players, "carol", lobby, "Unregister")
    assert "50 chips are back" in out.followups[0].content
    message = fake.message(lobby.id)
    button = next(b for b in message.buttons() if str(b.get("label", "")).startswith("Unregister"))
    again = await fake.reply_to(await fake.click("carol", message, str(button["custom_id"])))
    assert again.ephemeral and again.content == "You are not in the tournament.", again.content  # to her
    assert await store.balance(fake.guild_id, players.uid("carol")) == 1000
    await command(players, "alice", "start")
    joined = await press(players, "carol", lobby, "Register")  # late registration
    assert "You are in" in joined.followups[0].content
    status = await command(players, "dave", "status")
    assert status.ephemeral and "prize pool" in str(status.embeds).lower() and "Level 1 of" in str(status.embeds)
    # Play all-in hands until somebody is broke: he may rebuy with the message's button.
    for _ in range(10):
        table = players.table
        assert mode.tournament_of(table) is not None
        if mode.tournament_of(table).state.awaiting_rebuy:
            break
        await players.play(shove, timeout=15)
    table = players.table
    assert mode.tournament_of(table) is not None and mode.tournament_of(table).state.awaiting_rebuy
    broke = players.name(mode.tournament_of(table).state.awaiting_rebuy[0].player)
    await fake.wait_for(lambda: any("no chips left" in m.content for m in fake.channel_messages("poker")), 5,
                        what="the notice of a broke player")
    rebought = await fake.wait_for(
        lambda: any(str(b.get("label", "")).startswith("Rebuy") for b in fake.message(lobby.id).buttons()), 5,
        what="the Rebuy button")
    assert rebought
    answer = await press(players, broke, lobby, "Rebuy")
    assert "Rebought: 500 tournament chips for 50" in answer.followups[0].content
    # The host calls it off: every buy-in and rebuy comes back, and the table closes.
    await fake.settle()
    table_message = players.table.message_id
    assert table_message is not None
    cancelled = await fake.reply_to(await fake.slash("alice", "poker", group="tournament", subcommand="cancel",
                                                     channel=players.channel), followups=1)
    assert cancelled.followups[0].ephemeral  # the host's; the table message says it for everyone
    assert cancelled.followups[0].content.startswith("Done: the tournament is cancelled: every buy-in and rebuy is "
                                                     "returned. The table message says so")
    for name in ("alice", "bob", "carol"):
        assert await store.balance(fake.guild_id, players.uid(name)) == 1000
    assert players.bot.tables.get(players.channel_id) is None
    closed = fake.message(table_message).embeds[0]["description"]  # not "/poker create opens a new table"
    assert closed.endswith("The tournament was cancelled: every buy-in and rebuy was returned."), closed
    assert all(f"<@{players.uid(name)}> gets " in closed for name in ("alice", "bob", "carol")), closed  # refunds


async def test_a_restart_mid_tournament_keeps_the_clock_and_the_hand(
    fake: FakeDiscord, poker_bot: PokerBotStarter, fast: FastClock
) -> None:
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    _, lobby = await tournament(players, "alice", game="five-card-draw", buy_in=100, starting_chips=3000,
                                level_minutes=1, levels="10/20, 20/40, 40/80, 80/160, 160/320")
    for name in PLAYERS:
        await press(players, name, lobby, "Register")
    await command(players, "alice", "start")
    await fake.wait_for(lambda: not fake.message(lobby.id).buttons(), 5, what="no registration once started")
    turn = await players.turn()
    hand = players.table.hand
    assert hand is not None and mode.tournament_of(players.table) is not None
    stakes, clock = hand.stakes, mode.tournament_of(players.table).state.clock
    await poker_bot.restart()
    # The same hand, at the same stakes, from its log; the same clock, read from the store.
    again = await players.turn()
    assert again.hand_id == turn.hand_id and players.table.hand is not None and players.table.hand.stakes == stakes
    assert mode.tournament_of(players.table) is not None and mode.tournament_of(players.table).state.clock == clock
    await play_out(players)
    await fake.settle()
    assert sum(m.content.startswith("**Final standings**") for m in fake.channel_messages("poker")) == 1


def folding(hand: Hand, legal: Legal) -> str:
    """Fold to any bet, check otherwise: quick hands that move few chips."""
    if legal.phase == "drawing":
        return "sd"
    return "cc" if legal.can_check else "f"


async def test_play_resumes_by_itself_after_a_break_even_across_a_restart(
    fake: FakeDiscord, poker_bot: PokerBotStarter, fast: FastClock
) -> None:
    await poker_bot(seed=9)
    players = Players(fake, poker_bot)
    _, lobby = await tournament(players, "alice", game="five-card-draw", buy_in=10, starting_chips=5000,
                                level_minutes=1, levels="10/20, break 4, 20/40")  # the break: 4 s of real time
    for name in PLAYERS:
        await press(players, name, lobby, "Register")
    await command(players, "alice", "start")

    async def big_blinds() -> set[int]:
        hands = await players.bot.store.recent_hands(players.table.id, 100)  # the running bot's store
        return {h.settings["stakes"]["big_blind"] for h in hands}

    def on_break() -> bool:
        t = mode.tournament_of(players.table)
        level = t.state.next_hand(t.now()) if t is not None and t.state.stage == "running" else None
        return players.table.live is None and level is not None and level.status == "break"

    while not on_break():  # level 1: one second of play
        if players.table.live is not None:
            await players.play(folding)
        else:
            await asyncio.sleep(0.01)
    shown = await fake.wait_for(lambda: (players.section("Tournament") or "").startswith("Break: play resumes") or None,
                                5, what="the break on the table message")
    assert shown and await big_blinds() == {20}
    await poker_bot.restart()  # during the break: the deal that waits for its end is set up again
    await players.turn(timeout=10)
    assert players.table.hand is not None and players.table.hand.stakes.big_blind == 40
    assert await big_blinds() == {20, 40}
    await players.play(folding)
    await fake.settle()
    table_message = players.table.message_id
    assert table_message is not None
    cancelled = await fake.reply_to(await fake.slash("alice", "poker", group="tournament", subcommand="cancel",
                                                     channel=players.channel), followups=1)
    assert "every buy-in and rebuy is returned" in cancelled.followups[0].content
