"""One message to read in the channel (issue 33, item 1): after the first deal the channel holds the table message
(each hand's page; the hands over as their one-line summaries) and nothing else the bot posted for the table. The
host's commands are answered privately and the table message shows what they did (paused, closed); the stakes
are said once before the first deal; "Table closed" is said once, by the table message, with the night's results
(each cash-out, who pays whom) for everyone."""

from __future__ import annotations

import pytest

from cogs.table._screen import PAUSING

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, StoredMessage
from .players import Players, bettor
from .test_bot_tournament import FastClock, command, press, tournament

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
OPENING = ("Table open", "Shuffle up and deal!", "The tournament starts")


def shown(fake: FakeDiscord, players: Players) -> list[StoredMessage]:
    """What the table's channel shows now (ephemeral answers are not in it)."""
    return list(fake.channel_messages(players.channel))


def words(message: StoredMessage) -> str:
    """All a message says: its text, its embeds' titles and descriptions."""
    return "\n".join([message.content, *(f"{e.get('title') or ''}\n{e.get('description') or ''}"
                                         for e in message.embeds)])


def description(fake: FakeDiscord, message_id: int | None) -> str:
    assert message_id is not None
    return str(fake.message(message_id).embeds[0].get("description") or "")


async def test_a_night_from_open_to_close_leaves_the_table_message_alone_in_the_channel(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=22)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    await players.turn(1)
    await fake.wait_for(lambda: not [m for m in shown(fake, players) if m.content.startswith(OPENING)], 5,
                        what="the opening words removed")

    # The host pauses: his answer is his; the table message says it for everyone, and stops saying it on resume.
    paused = await players.poker("alice", "table pause")
    assert paused.ephemeral and paused.content == "The table pauses after this hand."
    await fake.wait_for(lambda: PAUSING in description(fake, table.message_id), 5, what="the pause on the table")
    resumed = await players.poker("alice", "table resume")
    assert resumed.ephemeral and resumed.content == "Dealing resumes."
    await fake.wait_for(lambda: PAUSING not in description(fake, table.message_id), 5, what="the pause gone")
    stats = await players.poker("bob", "stats")  # a member's own question: answered to him alone
    assert stats.ephemeral and stats.embeds

    await players.play(bettor)
    await players.turn(2)
    paused = await players.poker("alice", "table pause")
    assert paused.ephemeral
    await fake.wait_for(lambda: PAUSING in description(fake, table.message_id), 5, what="the pause on hand 2")
    await players.play(bettor, number=2)
    await fake.wait_for(lambda: table.live is None and "Paused: the host deals again" in
                        description(fake, table.message_id), 5, what="the table paused after hand 2")
    pages = shown(fake, players)
    assert len(pages) == 2 and all(m.embeds and not m.content for m in pages), \
        [words(m) for m in pages]  # hand 1's summary and hand 2's page: nothing else

    last_page = table.message_id
    closed = await players.poker("alice", "close")
    answer = closed.followups[-1]
    assert answer.ephemeral and "Table closed" not in answer.content, answer.content
    await fake.settle()
    channel = shown(fake, players)
    assert [m.id for m in channel] == [m.id for m in pages] and all(m.embeds and not m.content for m in channel)
    assert sum(words(m).count("Table closed") for m in channel) == 1  # said once, by the table message
    message = fake.message(last_page)
    assert message.embeds[0]["title"] == "Table closed" and message.custom_ids() == []
    results = str(message.embeds[0]["description"])
    assert all(f"<@{players.uid(name)}> cashes out " in results for name in PLAYERS), results
    assert "\n\nWho pays whom:\n" in results and " pays <@" in results, results  # everyone sees who pays whom


async def test_the_stakes_are_said_once_before_the_first_deal(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The opener says what to do; the table message under it says the stakes and the buy-ins."""
    await poker_bot(seed=3)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="dealers-choice", start=False)
    [opener] = [m for m in shown(fake, players) if m.content.startswith("Table open")]
    assert opener.content == ("Table open: press **Join** on the table (or `/poker join`), then the host deals "
                              "with `/poker table start`.")
    await fake.wait_for(lambda: any("3/10 seats · buy-ins 200 to 1,000" in words(m) for m in shown(fake, players)),
                        5, what="the table message with its seats and buy-ins")
    said = [words(m) for m in shown(fake, players)]
    assert sum(text.count("Blinds 5/10") for text in said) == 1, said


async def test_a_tournament_hosts_commands_are_answered_privately(
    fake: FakeDiscord, poker_bot: PokerBotStarter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/poker tournament pause and resume: the host's answer is his, the table message says "Paused by the host";
    the start's words go with the first deal, as a cash table's do."""
    from bot.tables import tournament as mode

    monkeypatch.setattr(mode, "CLOCK", FastClock(1.0))
    await poker_bot(seed=3)
    players = Players(fake, poker_bot)
    _, lobby = await tournament(players, "alice", game="five-card-draw", buy_in=50, starting_chips=500,
                                level_minutes=10)
    for name in PLAYERS:
        await press(players, name, lobby, "Register")
    started = await command(players, "alice", "start")
    assert started.content.startswith("The tournament starts")
    await players.turn(1)
    await fake.wait_for(lambda: not [m for m in shown(fake, players) if m.content.startswith(OPENING)], 5,
                        what="the start's words removed")
    paused = await command(players, "alice", "pause")
    assert paused.ephemeral and paused.content.startswith("The tournament's clock is stopped")
    await fake.wait_for(lambda: "Paused by the host" in words(fake.message(players.table.message_id or 0)), 5,
                        what="the pause on the table message")
    resumed = await command(players, "alice", "resume")
    assert resumed.ephemeral and resumed.content == "The clock runs again."
    await fake.wait_for(lambda: "Paused by the host" not in words(fake.message(players.table.message_id or 0)), 5,
                        what="the pause gone from the table message")
