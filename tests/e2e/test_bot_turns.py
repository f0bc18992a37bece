"""Turns through Discord: the clock, closed DMs, clicks by the wrong people or from the past, a player leaving
mid-hand, and amounts the modal must refuse."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from typing import Any

import pytest

from bot.i18n import Text
from bot.tables import Table, TableError
from cogs import render
from cogs.table._text import hand_value

from .conftest import DiscordErrors
from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, InteractionRecord, StoredMessage
from .players import FastClockFor, Players, calling_station, channel_texts, standing_pat

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


def state(table: Table) -> tuple[Any, ...]:
    """What a refused click must not change."""
    live = table.live
    assert live is not None
    return live.seq, tuple(live.hand.stacks), tuple(live.hand.bets), table.actor(), tuple(live.hand.actions)


async def refused(players: Players, iid: int) -> InteractionRecord:
    answer = await players.fake.reply_to(iid)
    assert answer.ephemeral and answer.response_type == 4, answer
    return answer


async def test_the_clock_checks_folds_stands_pat_then_sits_out(
    fake: FakeDiscord, poker_bot: PokerBotStarter, monkeypatch: pytest.MonkeyPatch
) -> None:
    await poker_bot(seed=3)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, start=False)
    carol = players.uid("carol")
    monkeypatch.setattr(table, "settings", FastClockFor(table, 0.2, acting={carol}))
    await players.poker("alice", "table start")

    turn = await players.turn(1)
    assert turn.name == "carol" and turn.legal.call_amount == 10
    assert f"**<@{carol}>: call 10, raise or fold**\n⏱ <t:" in players.description()  # how long she has (own line:
    # "⏱ in 59 seconds" after the prompt wrapped at phone width)
    await players.play(calling_station, idle={"carol"})  # she faces the big blind: the clock folds her
    first = [a for a in (await players.bot.store.recent_hands(table.id, 1))[0].actions]
    assert first[0] == "p3 f"
    # Hand 2: the big blind is hers; the clock checks, stands pat at the draw, and checks again.
    await players.play(calling_station, number=2, idle={"carol"})
    second = (await players.bot.store.recent_hands(table.id, 1))[0]
    carol_seat = second.seat_users.index(carol) + 1
    hers = [a.split(" ", 1)[1] for a in second.actions if a.startswith(f"p{carol_seat} ")]
    assert hers == ["cc", "sd", "cc"]
    log = "\n".join(dict.fromkeys(channel_texts(fake)))  # each version once
    assert log.count(f"<@{carol}> ran out of time") >= 4 and f"<@{carol}> stands pat" in log
    # Two hands in a row: she sits out, and hand 3 is dealt to the two others.
    await players.turn(3)
    seat = table.seat_of(carol)
    assert seat is not None and seat.sitting_out and seat.timeouts == 2
    assert table.live is not None and carol not in table.live.users
    assert f"\n<@{carol}> {render.chips(seat.stack)} · sitting out\n" in players.description()
    back = await players.poker("carol", "sitin")
    assert back.content == "You are in: dealt in from the next hand."
    seat = table.seat_of(carol)
    assert seat is not None and not seat.sitting_out and seat.timeouts == 0


async def closed_dms_table(fake: FakeDiscord, poker_bot: PokerBotStarter) -> tuple[Players, Table, str]:
    """A table where carol's DMs are closed: the players, the table, and the line the table shows for her."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    fake.close_dms("carol")
    table = await players.open_table("alice", PLAYERS)
    notice = f"⚠ <@{players.uid('carol')}> gets no DMs: press **My hand** to see your cards."
    return players, table, notice


def _embed_text(message: StoredMessage) -> str:
    return "\n".join(str(e.get("description") or "") for e in message.embeds)


async def test_a_player_with_closed_dms_is_told_on_the_table_to_use_my_hand(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    players, table, notice = await closed_dms_table(fake, poker_bot)
    await fake.wait_for(lambda: notice in players.description(), what="the notice on the table")
    turn = await players.turn(1)
    assert table.hand is not None
    seat = table.live.users.index(players.uid("carol"))
    mine = await players.click_seat("carol", "hand")
    # Her cards alone (drawn large), what they make under them.
    assert mine.ephemeral and mine.content == players.cards(table.hand.holes[seat])
    assert mine.message is not None and hand_value(table.hand, seat) in _embed_text(mine.message)
    command = await players.poker("carol", "hand")
    assert command.ephemeral and command.content == mine.content and command.message is not None
    assert _embed_text(command.message) == _embed_text(mine.message)
    assert fake.dms("carol") == [] and len(fake.dms("alice")) == 1
    # Her draw's new cards are not DMed: the picker, where she drew, shows them, to her only.
    await players.play(calling_station, until=lambda t: t.name == "carol" and t.legal.phase == "drawing")
    turn = await players.turn(1)
    drawn = await players.draw(turn.legal.hand[:2], turn=turn)
    # Her new cards alone (drawn large), and under them what she drew and what they make.
    assert drawn.ephemeral and drawn.message is not None and drawn.content == players.cards(table.hand.holes[seat])
    assert _embed_text(drawn.message).startswith("#1 · Draw 1 of 1: you drew 2 (the last two)")
    assert hand_value(table.hand, seat) in _embed_text(drawn.message)
    # The next hand's cards cannot be DMed either; nothing about it was posted in the channel.
    await players.play(calling_station, number=1)
    await players.turn(2)
    await fake.wait_for(lambda: len(fake.dms("alice")) >= 2, what="hand 2's DMs")  # one a hand: edited at a draw
    await fake.quiet()
    assert notice in players.description()
    assert not any(m.content for m in fake.channel_messages("poker") if "DM" in m.content)
    assert [c.status for c in fake.calls_to("POST", f"/channels/{fake.dm_channel('carol').id}/messages")] == [403] * 2


async def test_clicks_by_a_non_player_and_out_of_turn_are_refused(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    before, edits = state(table), turn.message.edits
    stranger = await refused(players, await fake.click("dave", turn.message, players.button_id(turn, "cc")))
    assert stranger.content == "You are not seated at this table."
    his_hand = await refused(players, await fake.click("dave", turn.message, players.seat_button("hand")))
    assert his_hand.content == "You have no cards: you are not in the hand being played."
    waiting = next(n for n in PLAYERS if n != turn.name)
    early = await refused(players, await fake.click(waiting, turn.message, players.button_id(turn, "fold")))
    assert early.content == "It is not your turn."
    early_amount = await refused(players, await fake.click(waiting, turn.message, players.button_id(turn, "raise")))
    assert early_amount.content == "It is not your turn."
    assert state(table) == before and turn.message.edits == edits


async def test_a_stale_click_and_a_double_click_change_nothing(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=6)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    old = turn.message.snapshot()  # what the players' clients showed then
    first = await players.act("cc", turn=turn)
    assert first.response_type == 7  # the table message, edited by the click's answer
    now = await players.turn(1)
    before = state(table)
    for who in (turn.name, now.name):
        stale = await refused(players, await fake.click(who, old, players.button_id(turn, "cc", old)))
        assert stale.content == "That button is from an earlier moment of the hand; use the current one."
    assert state(table) == before

    # Two clicks on the same button before the first is answered: one acts, the other is told and ignored.
    cc = players.button_id(now, "cc")
    clicks = [await fake.click(now.name, now.message, cc), await fake.click(now.name, now.message, cc)]
    answers = [await fake.reply_to(i) for i in clicks]
    assert sorted(a.response_type or 0 for a in answers) == [4, 7]
    second = next(a for a in answers if a.response_type == 4)
    assert second.ephemeral and "earlier moment" in second.content
    assert table.live is not None and table.live.seq == before[0] + 1

    # The same interaction delivered twice (a gateway replay): the second delivery is ignored, not answered.
    after = state(table)
    await fake.resend(clicks[0])
    await fake.resend(clicks[1])
    await fake.quiet()
    assert state(table) == after and fake.interaction(clicks[0]).deliveries == 2
    # ... and so is a repeated slash command: a resent /chips give does not give twice.
    give = await fake.slash("erin", "chips", subcommand="give", options={"member": fake.user("dave"), "amount": 5})
    assert "gives 5 chips to" in (await fake.reply_to(give)).content
    await fake.resend(give)
    await fake.quiet()
    assert await players.bot.store.balance(fake.guild_id, players.uid("dave")) == 1005


async def test_leaving_mid_hand_folds_now_and_cashes_out_at_the_end(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=7)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    assert turn.name == "carol"
    left = await players.poker("bob", "leave")  # the big blind, not his turn
    assert left.ephemeral
    assert left.content == "You fold and leave; your chips go back to your balance when this hand ends."
    bob = players.uid("bob")
    await fake.wait_for(lambda: f"<@{bob}> 990 · folded" in players.description(),
                        what="bob folded on the table message")
    assert table.seat_of(bob) is not None and table.seat_of(bob).leaving
    again = await players.poker("bob", "leave")
    assert again.content == left.content  # asked twice: the same answer, nothing else happens
    await players.play(calling_station, number=1)
    assert table.seat_of(bob) is None
    balance = await players.chips("bob", "balance")
    assert balance.content == f"<@{bob}> has 990 chips in the bank."
    turn = await players.turn(2)
    assert bob not in table.live.users and len(table.live.users) == 2
    results = await players.chips("bob", "results")
    assert f"<@{bob}> -10" in results.content


async def test_bad_amounts_in_the_modal_are_explained_and_change_nothing(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=8)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    assert turn.legal.min_raise_to == 20 and turn.legal.max_raise_to == 1000
    menu = (await players.open_bet_menu(turn)).message
    assert menu is not None
    opened = await fake.reply_to(await fake.click(turn.name, menu, players.button_id(turn, "amount", menu)))
    assert opened.modal is not None
    label = opened.modal["components"][0]
    assert label["label"] == "Raise to (total this round)" and label["description"] == "From 20 to 1,000 chips"
    assert label["component"]["placeholder"] == "20"
    before = state(table)
    expected = {
        "-5": "An amount cannot be negative: give a whole number of chips, from 20 to 1,000.",
        "0": "The smallest raise is to 20: you can raise to any total from 20 to 1,000.",
        "1e9": "“1e9” is not an amount: give a whole number of chips, from 20 to 1,000.",
        "12.5": "“12.5” is not an amount: give a whole number of chips, from 20 to 1,000.",
        "½": "“½” is not an amount: give a whole number of chips, from 20 to 1,000.",
        "99999999999999999999": "The largest raise is to 1,000: you can raise to any total from 20 to 1,000.",
        "1001": "The largest raise is to 1,000: you can raise to any total from 20 to 1,000.",
        "19": "The smallest raise is to 20: you can raise to any total from 20 to 1,000.",
        "  ": "Type how many chips to raise to, from 20 to 1,000.",
    }
    for text, answer in expected.items():
        reply = await players.bet_amount(text, turn=turn)
        assert reply.ephemeral and reply.content == answer, (text, reply.content)
        assert state(table) == before
    # Discord itself refuses an empty field and more than the field's 20 characters; forged anyway, they are
    # answered like the rest.
    with pytest.raises(ValueError, match="required"):
        await players.bet_amount("", turn=turn)
    with pytest.raises(ValueError, match="at most 20"):
        await players.bet_amount("9" * 4000, turn=turn)
    empty = await players.bet_amount("", turn=turn, force=True)
    assert empty.content == "Type how many chips to raise to, from 20 to 1,000."
    huge = await players.bet_amount("x" * 4000, turn=turn, force=True)
    assert huge.content == f"“{'x' * 40}…” is not an amount: give a whole number of chips, from 20 to 1,000."
    assert state(table) == before
    # A whole number in range, with a thousands separator, is a raise.
    done = await players.bet_amount("1,00", turn=turn)
    assert done.response_type == 7
    assert table.live is not None and table.live.seq == before[0] + 1
    assert table.live.hand.actions[-1] == "p3 cbr 100"


async def test_my_hand_answers_privately_and_knows_a_fold(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=9)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    await players.act("f", turn=turn)
    turn2 = await players.turn(1)
    assert turn2.seq == turn.seq + 1
    folded = await players.click_seat(turn.name, "hand")
    assert folded.ephemeral and folded.content == "You folded this hand."
    assert table.live is not None
    await players.play(standing_pat, number=1)


async def test_a_failed_write_is_explained_logged_and_changes_nothing(
    fake: FakeDiscord, poker_bot: PokerBotStarter, monkeypatch: pytest.MonkeyPatch, discord_errors: DiscordErrors
) -> None:
    await poker_bot(seed=10)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    before = state(table)
    store = players.bot.store
    append = store.append_action
    failures = []

    async def failing(*args: Any, **kwargs: Any) -> None:
        if not failures:
            failures.append(args)
            raise sqlite3.OperationalError("disk I/O error")
        await append(*args, **kwargs)

    monkeypatch.setattr(store, "append_action", failing)
    answer = await players.click("cc", turn=turn)
    assert answer.ephemeral
    assert answer.content == "Something went wrong on our side and nothing was changed. Please try again."
    [logged] = discord_errors.take("disk I/O error")
    assert logged.name == "cogs.errors" and logged.exc_info is not None
    assert state(table) == before and turn.message.edits == (await players.turn(1)).message.edits
    again = await players.click("cc", turn=await players.turn(1))  # the same click, now it works
    assert again.response_type == 7 and table.live is not None and table.live.seq == before[0] + 1


async def test_a_click_whose_answer_is_late_is_acknowledged_in_time(
    fake: FakeDiscord, poker_bot: PokerBotStarter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click whose answer is not ready ACK_WITHIN seconds after it arrived (a swamped bot; here the store is
    slowed) is acknowledged then (a deferred update), and the table message is edited once the action is in; the
    action, the draws and the game chosen all apply. An error found after the acknowledgement comes as a
    follow-up."""
    import cogs.reply

    monkeypatch.setattr(cogs.reply, "ACK_WITHIN", 0.05)
    await poker_bot(seed=6)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    store = table.store
    for name in ("append_action", "finish_hand"):  # every action is stored by one or the other
        real = getattr(store, name)

        async def slow(*args: Any, real: Any = real, **kwargs: Any) -> Any:
            await asyncio.sleep(0.2)
            return await real(*args, **kwargs)

        monkeypatch.setattr(store, name, slow)
    turn = await players.turn(1)
    edits = turn.message.edits
    answer = await players.act("cc", turn=turn)
    assert answer.response_type == 6 and not answer.late
    now = await players.turn(1)  # the table message, edited by the writer, shows the next turn
    assert now.seq == turn.seq + 1 and now.message.edits > edits
    assert table.live is not None and table.live.hand.actions[-1] == f"p{turn.legal.player + 1} cc"
    # Refused after the guard acknowledged the click (a store busy for a while): the refusal is a follow-up only
    # he sees, and nothing changes.
    real_act = table.act

    async def busy(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)
        raise TableError(Text("The table is busy right now; please try again in a moment."))

    monkeypatch.setattr(table, "act", busy)
    before = state(table)
    refused = await players.click("cc", turn=now)
    assert refused.response_type == 6
    await fake.wait_for(lambda: refused.followups or None, what="the refusal, as a follow-up")
    await fake.quiet()
    assert len(refused.followups) == 1 and refused.followups[0].ephemeral
    assert refused.followups[0].content == "The table is busy right now; please try again in a moment."
    assert state(table) == before
    monkeypatch.setattr(table, "act", real_act)
    await players.play(calling_station, number=1)  # draws and bets through to the showdown
    acted = [rec for rec in fake.interactions.values() if rec.type == 3]
    late = [(r.payload["data"].get("custom_id"), r.response_type) for r in acted if r.late]
    assert acted and not late, late
    # Every click that stored a move waited for the slow store: it was acknowledged in time, the table edited.
    moves = [r for r in acted if str(r.payload["data"].get("custom_id")).startswith("pk:turn:")
             and not str(r.payload["data"].get("custom_id")).endswith((":draw", ":allin"))]
    assert moves and all(r.response_type == 6 for r in moves), [(r.payload["data"], r.response_type) for r in moves]


async def test_the_closed_dm_notice_lasts_across_a_restart_and_goes_when_dms_reopen(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    players, _, notice = await closed_dms_table(fake, poker_bot)
    await fake.wait_for(lambda: notice in players.description(), what="the notice on the table")
    await players.play(calling_station, number=1)
    await poker_bot.restart()  # the bot remembers, in the store, that her DMs are closed
    await players.turn(2)
    assert notice in players.description()
    await players.play(calling_station, number=2)
    assert len(fake.calls_to("POST", f"/channels/{fake.dm_channel('carol').id}/messages")) >= 2
    # She opens her DMs: her cards come by DM again and the notice goes; closed again, it is back.
    fake.open_dms("carol")
    await players.play(calling_station, number=3)
    heading = re.compile(rf"[^\n]+ · #\d+ at <#{players.channel_id}>\n")  # a hand's DM: "Five Card Draw · #3 at <#…>"
    await fake.wait_for_dm("carol", lambda m: heading.match(m.content) is not None)
    await players.turn(4)
    await fake.wait_for(lambda: notice not in players.description(), what="the notice to go")
    fake.close_dms("carol")
    await players.play(calling_station, number=4)
    await players.turn(5)
    await fake.wait_for(lambda: notice in players.description(), what="the notice again")
