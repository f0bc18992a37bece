"""The table's life through Discord: a restart in the middle of a hand, reposting and closing the table, the host's
commands, /poker history, rules and settings."""

from __future__ import annotations

import pytest

from bot.content.rules_text import rules_page
from bot.night import hand_story
from bot.poker import DRAW_GAMES
from bot.poker.phh import parse_phh, replay
from bot.store import Store
from bot.tables import TableSettings
from bot.tables.night import member_phh, rebuild
from cogs import render
from cogs.night_views import STORY_WIDTH
from cogs.table._text import showdown_lines

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, Turn, bettor, calling_station, hand_seeds, simulate

pytestmark = [pytest.mark.e2e, pytest.mark.both_engines]  # the bot on SQLite and on PostgreSQL

PLAYERS = ("alice", "bob", "carol")


async def test_a_restart_in_the_middle_of_a_hand(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The bot stops in the middle of the second draw; a new bot on the same database continues the hand, and the
    buttons of the message the old bot posted work."""
    game = "triple-draw-27"
    await poker_bot(seed=21)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game=game)

    def second_draw_half_done(turn: Turn) -> bool:
        return turn.legal.phase == "drawing" and turn.legal.player == 1 and players.table.hand.draw_number == 1

    await players.play(calling_station, until=second_draw_half_done)
    turn = await players.turn(1)
    old_bot, message_id, seq = players.bot, turn.message.id, turn.seq
    await poker_bot.restart()
    assert players.bot is not old_bot and players.table is not table

    restored = players.table
    assert restored.live is not None and restored.live.seq == seq and restored.message_id == message_id
    assert players.bot.get_cog("TableCog").runners.get(restored.id).clock.task is not None  # the clock runs again
    after = await players.turn(1)
    assert after.message.id == message_id and after.name == turn.name  # the old bot's message and buttons
    await players.play(calling_station, number=1)

    expected = simulate(TableSettings(game=game, small_blind=5, big_blind=10), game, [1000] * 3,
                        hand_seeds(21, 1)[0], calling_station)
    record = (await players.bot.store.recent_hands(restored.id, 1))[0]
    assert record.status == "complete" and list(record.stacks_after or ()) == expected.stacks
    users = [players.uid(n) for n in PLAYERS]
    assert players.showdown(1).startswith("\n".join(showdown_lines(expected, users, players.bot.card_emojis.card)))
    await players.turn(2)  # and the new bot deals on


async def test_closing_the_table_mid_hand_cashes_everyone_out(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=22)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    await players.play(bettor)
    after_one = players.stacks()
    assert sum(after_one.values()) == 3000 and after_one != {n: 1000 for n in PLAYERS}
    turn = await players.turn(2)
    await players.act("cc", turn=turn)
    turn = await players.turn(2)
    old, cc = turn.message.snapshot(), players.button_id(turn, "cc")

    refused = await players.poker("bob", "close")
    assert refused.ephemeral and refused.content == "Only the table's host (or someone with Manage Server) can do that."
    closed = await players.poker("manager", "close")  # Manage Server may close any table
    answer = closed.followups[-1]  # the host's answer is his; the table message says "Table closed", once
    assert answer.ephemeral and "Table closed" not in answer.content, answer.content
    assert answer.content == "Done: everyone is cashed out; the table message shows the night's results to everyone."
    message = fake.message(table.message_id)
    assert message.embeds[0]["title"] == "Table closed" and message.custom_ids() == []
    text = str(message.embeds[0]["description"])
    # Nobody's private message (his cards, a draw's report) is left under the closed table.
    await fake.wait_for(lambda: all(m.channel_id != players.channel_id for n in PLAYERS
                                    for m in fake.ephemeral_for(n)), 5, what="the private messages removed")
    for name in PLAYERS:  # each with his night: won, lost or even, and where to settle up
        net = after_one[name] - 1000
        result = f"won {render.chips(net)}" if net > 0 else f"lost {render.chips(-net)}" if net < 0 else "even"
        assert f"\n<@{players.uid(name)}> cashes out {render.chips(after_one[name])} · {result}\n" in f"\n{text}"
        balance = await players.chips(name, "balance")
        assert balance.content == f"<@{players.uid(name)}> has {render.chips(after_one[name])} chips in the bank."
    # who pays whom, said at once (not a pointer to /chips settle): the same payments /chips settle gives
    settle = await players.chips("alice", "settle")
    payments = [line for line in settle.content.splitlines() if " pays " in line]
    assert payments and text.endswith("\n\nWho pays whom:\n" + "\n".join(payments) + "\n\n`/poker create` opens a new "
                                      "table."), (text, settle.content)
    hands = await players.bot.store.recent_hands(table.id, 5)
    assert [h.status for h in hands] == ["void", "complete"]  # the hand in play was voided: chips back

    stale = await fake.reply_to(await fake.click(turn.name, old, cc))
    assert stale.ephemeral and stale.content == "This table is closed."
    gone = await players.poker("dave", "join")
    assert gone.content == "There is no table in this channel; `/poker create` opens one."
    closed_history = await players.poker("bob", "history")  # the closed table's last night, as bob saw it
    assert closed_history.ephemeral and closed_history.message is not None
    [attachment] = closed_history.message.attachments
    assert attachment.filename == "hand-1.phh" and attachment.data.decode() == member_phh(hands[1], players.uid("bob"))
    again = await players.poker("dave", "create", game="five-card-draw", small_blind=1, big_blind=2)
    assert again.content.startswith("Table open")  # a new table can open in the channel


async def test_poker_table_reposts_the_message_and_old_buttons_do_no_harm(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=23)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    old, seen = turn.message, turn.message.snapshot()  # what the players' clients showed before the repost
    reposted = await players.poker("bob", "table show")
    assert reposted.ephemeral and reposted.content == "Here is the table:"
    new = await players.turn(1)
    assert new.message.id != old.id and new.message is fake.channel_messages("poker")[-1]
    await fake.wait_for(lambda: old.custom_ids() == [], what="the old message to lose its buttons")
    assert old.embeds[0]["title"] == "The table moved" and str(new.message.id) in old.embeds[0]["description"]
    # A client that still shows the old buttons: the click acts (it is of this moment) and is acknowledged.
    clicked = await fake.reply_to(await fake.click(turn.name, seen, players.button_id(turn, "cc", seen)))
    assert clicked.response_type == 6  # acknowledged; the new message is the one edited
    assert table.live is not None and table.live.seq == turn.seq + 1
    assert (await players.turn(1)).message is new.message


async def test_table_message_edits_never_go_back_in_time(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Two edits of the table message in flight at once (a /poker join and a click): the slower, older one must not
    land last and show buttons of a past moment."""
    await poker_bot(seed=26)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    fake.inject("PATCH /channels/*/messages/*", delay=0.3)  # the join's edit of the table message is slow
    joining = await fake.slash("dave", "poker", subcommand="join", channel="poker")
    await fake.reply_to(joining)
    await fake.wait_for(lambda: any(c.fault is not None for c in fake.calls), 2, what="the slow edit to start")
    await players.act("cc", turn=turn)  # answered at once by editing the table message
    await fake.quiet(0.1)
    assert table.live is not None
    now = await players.turn(1, timeout=1)
    assert now.seq == turn.seq + 1
    assert f"pk:turn:{table.id}:{turn.hand_id}:{turn.seq + 1}:cc" in players.message().custom_ids()
    seqs = [int(cid.split(":")[4]) for state in players.message().history for row in state["components"]
            for cid in (c.get("custom_id", "") for c in row.get("components", [])) if cid.endswith(":cc")]
    # Whether the slow, older edit was overtaken (coalesced away) or landed late and was followed by the
    # current state again, the message must end at the current moment, and once the current state has
    # been shown no older state may be the last word.
    first_current = seqs.index(turn.seq + 1)
    assert seqs[-1] == turn.seq + 1, "the table message was left at a past moment"
    assert all(seqs[i + 1] == turn.seq + 1 for i in range(first_current, len(seqs) - 1) if seqs[i] != turn.seq + 1)



async def test_history_rules_and_settings(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=24)
    players = Players(fake, poker_bot)
    none_yet = await players.poker("alice", "history")
    assert none_yet.content == "There is no table in this channel; `/poker create` opens one."
    table = await players.open_table("alice", PLAYERS, game="single-draw-a5", clock=45)
    empty = await players.poker("dave", "history")
    assert empty.ephemeral and empty.content == "No hand has been finished at this table yet."
    await players.play(bettor)
    await players.play(bettor, number=2)

    history = await players.poker("dave", "history", count=2)
    assert history.ephemeral
    records = {h.number: h for h in await players.bot.store.recent_hands(table.id, 5)}
    stories = [embed["description"] for embed in history.embeds]  # each hand told (bot.night.story)
    assert [story.split(" · ")[:2] for story in stories] == [["A-5 Single Draw", "#2"], ["A-5 Single Draw", "#1"]]
    for number, story in zip((2, 1), stories):
        assert story == hand_story(rebuild(records[number]), records[number].seat_users, render.mention,
                                   number=number, width=STORY_WIDTH)
        assert all(f"<@{w}>" in story.split("🏆")[1] for w in records[number].result["winners"])
    files = history.message.attachments if history.message else []
    assert [f.filename for f in files] == ["hand-2.phh", "hand-1.phh"]
    for attachment in files:
        record = records[int(attachment.filename.split("-")[1].split(".")[0])]
        text = attachment.data.decode()
        assert text == member_phh(record, players.uid("dave"))  # as a bystander saw the hand: the showdown only
        assert "_seed" not in text and all(set(a.split()[-1]) == {"?"} for a in parse_phh(text).actions
                                           if a.startswith("d dh "))
        assert list(replay(text).stacks) == list(record.stacks_after or ())

    rules = await players.poker("dave", "rules")
    overview = rules_page(None)
    assert rules.ephemeral and rules.embeds[0]["title"] == overview.title
    assert [f["name"] for f in rules.embeds[0]["fields"]] == [section.title for section in overview.sections]
    assert all(g.name in rules.message.text() for g in DRAW_GAMES.values() if g.id != "assassin")
    one = await players.poker("dave", "rules", game="assassin")
    page = rules_page("assassin")
    fields = {f["name"]: f["value"] for f in one.embeds[0]["fields"]}
    assert one.embeds[0]["title"] == "Assassin" and list(fields) == [section.title for section in page.sections]
    assert "drawn" in fields["Twos kill"] and "carried" in fields["Carried pots"].lower()

    settings = await players.poker("dave", "table settings")
    assert settings.ephemeral
    assert settings.content == (
        "**A-5 Single Draw (California lowball)**\n"
        "Fixed limit 5/10\nbets 10/20, big bet from round 2\ncap 4 bets\n"
        f"Buy-ins 200 to 1,000 · 7 seats · clock 45s\nHost: <@{players.uid('alice')}>"
    )


async def test_the_hosts_commands(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=25)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, buy_ins={"alice": 500, "bob": 500, "carol": 500})
    not_host = await players.poker("bob", "table pause")
    assert not_host.content == "Only the table's host (or someone with Manage Server) can do that."
    assert (await players.poker("alice", "table pause")).content == "The table pauses after this hand."
    refused = await players.poker("carol", "rebuy", amount=100)
    assert refused.content == "You can add chips between hands, not during one."
    await players.play(bettor)
    assert table.live is None and table.paused
    rebuy = await players.poker("carol", "rebuy", amount=100)
    assert rebuy.content == f"Your stack is now {render.chips(table.seat_of(players.uid('carol')).stack)}."
    kicked = await players.poker("alice", "table kick", member=fake.user("bob"))
    assert kicked.content == f"<@{players.uid('bob')}> leaves the table; cashed out now."
    assert table.seat_of(players.uid("bob")) is None
    out = await players.poker("carol", "sitout")
    assert out.content == "You are sitting out: no cards from the next hand until you sit in."
    joined = await players.poker("dave", "join", buy_in=300)
    assert joined.content == "You sit in seat 2 with 300 chips."
    assert (await players.poker("alice", "table resume")).content == "Dealing resumes."
    turn = await players.turn(2)
    assert set(table.live.users) == {players.uid("alice"), players.uid("dave")}
    carol = table.seat_of(players.uid("carol"))
    assert carol is not None
    assert f"<@{carol.user_id}> {render.chips(carol.stack)} · sitting out" in players.description()
    assert turn.number == 2


async def test_the_draw_picker_survives_a_restart(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """A player opened the draw picker and marked a card; the bot restarts while he picks; he marks one more and
    draws: those two cards are thrown (the cards marked travel in the buttons' custom_ids, as the turn does)."""
    await poker_bot(seed=27)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="single-draw-a5")
    await players.play(calling_station, until=lambda turn: turn.legal.phase == "drawing")
    turn = await players.turn(1)
    picker = (await players.open_draw(turn)).message
    assert picker is not None
    toggles, _ = players.picker_buttons(picker)
    await fake.reply_to(await fake.click(turn.name, picker, toggles[0]))
    await poker_bot.restart()
    toggles, _ = players.picker_buttons(fake.message(picker.id))
    marked = await fake.reply_to(await fake.click(turn.name, fake.message(picker.id), toggles[1]))
    assert marked.response_type == 7, marked.content
    _, confirms = players.picker_buttons(fake.message(picker.id))
    assert list(confirms) == ["Throw 2"]
    answer = await fake.reply_to(await fake.click(turn.name, fake.message(picker.id), confirms["Throw 2"]))
    assert answer.response_type == 7, answer.content
    throw = "".join(c.code for c in turn.legal.hand[:2])
    table = players.table
    assert table.live is not None and table.live.hand.actions[-1] == f"p{turn.legal.player + 1} sd {throw}"
    await players.play(calling_station, number=1)


async def test_the_clock_survives_a_restart(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """A restart does not hand the player to act a fresh clock: his time keeps running from the hand's last move.
    The bot is stopped with the turn on screen and the store's times moved back as if it had been down for all but
    one second of the 30 s clock: the clock must then run out long before a fresh one could (however slow the
    machine, a fresh clock is 30 s)."""
    clock = 30
    await poker_bot(seed=28)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, start=False)
    await table.update_settings(clock=clock)
    await players.poker("alice", "table start")
    turn = await players.turn(1)
    await poker_bot.stop()
    store = await Store.open(poker_bot.db_path)
    try:
        await store.db.execute("UPDATE hands SET started_at = started_at - ?", (float(clock - 1),))
        await store.db.execute("UPDATE hand_actions SET created_at = created_at - ?", (float(clock - 1),))
    finally:
        await store.close()
    await poker_bot.restart()
    assert players.table.live is not None and players.table.live.seq == 0
    await fake.wait_for(lambda: players.table.live is not None and players.table.live.seq == 1, clock / 2,
                        what="the clock to fold carol (a fresh clock would take 30 s)")
    assert players.table.live.hand.actions[0] == "p3 f" and turn.name == "carol"


async def test_closing_between_hands_keeps_the_last_hands_result(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The message showing the hand just over becomes "Table closed" with that hand's one-line result kept first,
    so the night's list of hands in the channel has no gap."""
    await poker_bot(seed=22)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    await players.poker("alice", "table pause")  # no next deal: the page keeps showing hand 1
    await players.play(bettor)
    await fake.settle()
    shown = fake.message(table.message_id)
    await players.poker("alice", "close")
    message = fake.message(shown.id)
    description = str(message.embeds[0]["description"])
    assert message.embeds[0]["title"] == "Table closed" and message.custom_ids() == []
    assert description.startswith("Five Card Draw · #1 · 🏆 ")
    assert description.endswith("`/poker create` opens a new table.")
    assert all(f"<@{players.uid(name)}> cashes out " in description for name in PLAYERS)  # the night's results
