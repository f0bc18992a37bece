"""Dropped connections and the truth (issue 12): a connection closed before or after Discord applied a call, reset,
or an answer cut short, on the answer to an action, on a command, on an error's answer and on the table message;
late answers (10062); the amount form sent during a draw; the showdown before the dealer's choice menu.

The player is never told "Something went wrong" nor "nothing was changed" about an action that was made; the table
message comes to show the current state by itself; a player's clock runs only while his turn is on screen; a late
answer is a warning, never sent twice. The autouse ``discord_errors`` fixture fails a test on any ERROR logged."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re

import pytest

from cogs.errors import UNEXPECTED
from cogs.transport import Stats
from pokerdev.fakediscord.faults import CALLBACK_ROUTE, CONNECTION_FAULTS
from tests.e2e.conftest_bot import PokerBotStarter
from tests.e2e.fakediscord import FakeDiscord, InteractionRecord, RestCall, StoredMessage
from tests.e2e.players import SHOWDOWN, Players, Turn, calling_station

from .conftest import Figures
from .helpers import assert_shows_table, chips_lost, runner_of

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
ACTION = re.compile(r"^pk:turn:(\d+):(\d+):(\d+):[a-z]+$")
PROMPT = re.compile(r"^\*\*<@(\d+)>: ", re.MULTILINE)
WRONG = ("went wrong", "nothing was changed")


def said(rec: InteractionRecord) -> list[str]:
    """Everything the bot showed the user in answer to an interaction (its reply and follow-ups)."""
    messages = [m for m in (rec.original, *rec.followups) if m is not None]
    return [m.content for m in messages] + [json.dumps(m.embeds) for m in messages]


def assert_truthful(rec: InteractionRecord) -> None:
    for text in said(rec):
        assert UNEXPECTED not in text and not any(w in text for w in WRONG), text


def callbacks_of(fake: FakeDiscord, interaction_id: int) -> list[RestCall]:
    return [c for c in fake.calls if c.route == CALLBACK_ROUTE and c.interaction_id == interaction_id]


def of_interaction(interaction_id: list[int]):
    """A fault matcher: the callbacks of the interaction whose id is put in ``interaction_id`` (once known)."""
    def match(call: RestCall) -> bool:
        return call.route == CALLBACK_ROUTE and bool(interaction_id) and call.interaction_id == interaction_id[0]

    return match


def shown_turn(message: StoredMessage) -> tuple[int, int] | None:
    """(user to act, action number) that a table message shows, or None."""
    if not message.embeds:
        return None
    prompt = PROMPT.search(str(message.embeds[0].get("description") or ""))
    seqs = {int(m[3]) for m in map(ACTION.match, message.custom_ids()) if m}
    return (int(prompt[1]), seqs.pop()) if prompt and len(seqs) == 1 else None


async def next_turn(players: Players, seq: int, timeout: float) -> Turn:
    """Wait until the table message shows action number ``seq`` of the hand."""
    def shown() -> Turn | None:
        turn = players._turn_now(None)
        return turn if turn is not None and turn.seq == seq else None

    return await players.fake.wait_for(shown, timeout, what=f"action {seq} on the table message")


class ClockWatch:
    """Samples a table every few ms: its clock may run only for the turn its message shows."""

    def __init__(self, players: Players) -> None:
        self.players = players
        self.samples = 0
        self.bad: list[tuple[int, int, tuple[int, int] | None]] = []
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        session = runner_of(self.players, self.players.table)
        while True:
            clocked, message_id = session.clock.clocked, session.table.message_id
            if clocked is not None and clocked.kind == "act" and message_id in self.players.fake.messages:
                shown = shown_turn(self.players.fake.messages[message_id])
                self.samples += 1
                if shown != (clocked.user, clocked.seq):
                    self.bad.append((clocked.user, clocked.seq, shown))
            await asyncio.sleep(0.003)

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


@pytest.mark.parametrize("kind", CONNECTION_FAULTS)
async def test_a_dropped_answer_to_an_action_is_sent_again_or_reconciled(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures, kind: str
) -> None:
    """The answer to a click (the table itself) loses its connection once: the transport sends it again (closed
    before, reset: nothing had landed) or finds the first one landed (closed after, cut short: Discord calls the
    repeat already acknowledged). The action is made once, the player told nothing false, the next turn shown."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    assert table.live is not None
    seq = table.live.seq
    reconciled = Stats.reconciled
    fault = fake.inject(CALLBACK_ROUTE.replace("{interaction_id}", "*").replace("{token}", "*"), connection=kind)
    iid = await fake.click(turn.name, turn.message, players.button_id(turn, "cc"))
    rec = await fake.reply_to(iid)
    assert fault.hits == 1 and rec.response_type == 7
    assert_truthful(rec)
    assert table.live.seq == seq + 1  # made once
    def tried_again() -> list[RestCall] | None:
        tries = callbacks_of(fake, iid)
        return tries if len(tries) == 2 and tries[1].status else None

    tries = await fake.wait_for(tried_again, 2, what="the answer tried again")
    assert len(tries) == 2 and tries[0].connection == kind
    if kind in ("closed-after", "cut-short"):  # the first had landed: the repeat proved it, nothing shown twice
        assert tries[1].status == 400 and Stats.reconciled == reconciled + 1
    else:  # the repeat landed: an answer that edits the table is asked without with_response, so no body
        assert tries[1].status == 204
    nxt = await next_turn(players, seq + 1, 2)
    assert nxt.seq == seq + 1 and nxt.name != turn.name
    figures[f"faults: {kind} on an action's answer"] += 1
    await players.play(calling_station, number=1)
    figures["chips lost"] += await chips_lost(players.starter.db_path, fake.guild_id)


async def test_an_answer_that_never_lands_leaves_the_table_moving_and_the_clock_honest(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    """Every try of the answer to a click is dropped, and so are the first edits of the table message: the action
    stands (the player's retry is not needed), the writer keeps writing until the message shows the next turn, and
    no player's clock runs while his turn is not on screen. Nothing is logged as an error."""
    await poker_bot(seed=6)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    watch = ClockWatch(players)
    try:
        turn = await players.turn(1)
        assert table.live is not None
        seq = table.live.seq
        target: list[int] = []
        fake.inject(of_interaction(target), connection="closed-before", times=None)
        edits = fake.inject(f"PATCH /channels/{players.channel_id}/messages/*", connection="closed-before", times=3)
        iid = await fake.click(turn.name, turn.message, players.button_id(turn, "cc"), expect_ack=False)
        target.append(iid)
        nxt = await next_turn(players, seq + 1, 8)
        assert nxt.seq == seq + 1 and table.live.seq == seq + 1
        assert edits.hits == 3 and not fake.interactions[iid].acknowledged
        session = runner_of(players, table)
        await fake.wait_for(lambda: session.clock.clocked is not None and session.clock.clocked.seq == seq + 1, 3,
                            what="the clock of the turn shown")
        await players.play(calling_station, number=1)
    finally:
        await watch.stop()
    assert watch.samples > 10 and not watch.bad, watch.bad[:5]
    await assert_shows_table(players)
    fake.take_violations("ack-deadline")
    figures["faults: answers never landed, table edits dropped"] += 4


async def test_join_whose_answer_drops_after_it_landed(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    """``/poker join``: the seat is taken and the answer lands, but the connection closes before the bot hears
    it. The player sees "You sit in seat ...", once; he is seated once."""
    await poker_bot(seed=7)
    players = Players(fake, poker_bot)
    await players.open_table("alice", ("alice", "bob"), start=False)
    fault = fake.inject("POST /interactions/*", connection="closed-after")
    rec = await players.poker("carol", "join")
    assert fault.hits == 1
    assert rec.content.startswith("You sit in seat"), rec.content
    assert_truthful(rec)
    assert players.table.seat_of(fake.user("carol").id) is not None
    again = await players.poker("carol", "join")
    assert "already" in again.content, again.content
    figures["faults: closed-after on a command's answer"] += 1


@pytest.mark.parametrize("kind", ["closed-before", "reset"])
async def test_an_error_answer_that_cannot_be_sent_is_logged_not_raised(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures, kind: str
) -> None:
    """A stale click is refused, and every try of the refusal is dropped: a warning, no "Ignoring exception", no
    unhandled task; the table is unchanged and goes on."""
    await poker_bot(seed=8)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    old = turn.message.snapshot()
    await players.click("cc", turn=turn)
    assert table.live is not None
    seq = table.live.seq
    target: list[int] = []
    fault = fake.inject(of_interaction(target), connection=kind, times=None)
    iid = await fake.click(turn.name, old, players.button_id(turn, "cc", old), expect_ack=False)
    target.append(iid)
    await fake.wait_for(lambda: fault.hits >= 2, 3, what="the refusal to be tried")
    await fake.quiet(0.5)
    assert table.live.seq == seq and not fake.interactions[iid].acknowledged
    await players.play(calling_station, number=1)
    fake.take_violations("ack-deadline")
    figures[f"faults: {kind} on an error's answer"] += fault.hits


async def test_a_late_answer_is_a_warning_and_never_sent_twice(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses the Amount form as too late (10062): the bot logs a warning, does not try again nor send
    an error after it; the next press opens the form."""
    await poker_bot(seed=9)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, structure="no-limit")
    turn = await players.turn(1)
    menu = (await players.open_bet_menu(turn)).message  # Raise…: Other amount… is in its menu
    assert menu is not None
    other = players.button_id(turn, "amount", menu)
    fault = fake.inject("POST /interactions/*", late=True)
    with caplog.at_level(logging.WARNING):
        iid = await fake.click(turn.name, menu, other, expect_ack=False)
        await fake.wait_for(lambda: fault.hits == 1, 3, what="the late answer")
        await fake.quiet(0.5)
    assert len(callbacks_of(fake, iid)) == 1 and not fake.interactions[iid].followups
    late = [r for r in caplog.records if "too late" in r.getMessage() or "in time" in r.getMessage()]
    assert late and all(r.levelno == logging.WARNING and r.exc_info is None for r in late), late
    opened = await fake.reply_to(await fake.click(turn.name, menu, other))
    assert opened.modal is not None
    fake.take_violations()
    figures["faults: late answers (10062)"] += 1


async def test_the_amount_form_during_a_draw_is_refused(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    """An Amount form sent while the player is to draw (forged, or opened in a betting round that is over) is
    refused with the phase, and changes nothing."""
    await poker_bot(seed=10)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, structure="no-limit")
    await players.play(calling_station, until=lambda t: t.legal.phase == "drawing")
    turn = await players.turn(1)
    assert table.live is not None and turn.legal.phase == "drawing"
    seq = table.live.seq
    custom_id = f"pk:amount:{table.id}:{turn.hand_id}:{turn.seq}"
    rec = await fake.reply_to(await fake.submit_modal(turn.name, custom_id, {"amount": "50"}, force=True))
    assert rec.ephemeral and rec.content == "It is time to draw, not to bet.", rec.content
    assert table.live.seq == seq
    figures["hostile inputs: amount forms during a draw"] += 1


async def test_at_dealers_choice_the_showdown_is_shown_before_the_menu(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    """The writes that would show a hand's end are dropped or rate-limited: the hand's message shows its
    showdown before the dealer's choice menu of the next hand is posted, hand after hand."""
    await poker_bot(seed=12)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="dealers-choice")
    faults = [
        fake.inject(f"PATCH /channels/{players.channel_id}/messages/*", connection="closed-before", times=4),
        fake.inject(f"PATCH /channels/{players.channel_id}/messages/*", status=429, retry_after=0.6, times=2),
        fake.inject("POST /interactions/*", connection="reset", times=3),
    ]
    for number in (1, 2, 3):
        await players.choose(players.name(players.table.chooser() or 0), "five-card-draw")
        await players.play(calling_station, number=number)

    await fake.wait_for(players.choice_button, 5, what="the menu after hand 3")
    menus: dict[str, int] = {}  # the menu posts (a repeat carries the same nonce), applied, in order
    showdowns: dict[int, int] = {}  # hand number -> the first applied write that showed its showdown
    for call in fake.calls:
        if call.status is None or not isinstance(call.json, dict):
            continue
        data = call.json.get("data") if call.route == CALLBACK_ROUTE else call.json
        text = json.dumps(data)
        if call.method == "POST" and call.path.endswith("/messages") and "picks the next game" in text:
            menus.setdefault(str(call.json.get("nonce")), call.index)
        for embed in (data or {}).get("embeds") or []:
            title, description = str(embed.get("title") or ""), str(embed.get("description") or "")
            number = re.search(r"· #(\d+)$", title)
            if number and SHOWDOWN.search(description):
                showdowns.setdefault(int(number[1]), call.index)
    posted = sorted(menus.values())  # the menus after hands 1, 2 and 3 (the first was the table's message)
    assert len(posted) == 3, posted
    for number in (1, 2, 3):
        assert showdowns[number] < posted[number - 1], (number, showdowns, posted)
    assert sum(f.hits for f in faults) >= 6
    figures["faults: on dealer's choice showdowns"] += sum(f.hits for f in faults)


async def test_the_new_cards_reach_the_player_when_the_answer_to_throw_is_lost(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    """Every try of the answer to **Throw 1** is dropped (the picker cannot show the new hand): the draw stands and
    the player still gets his new cards by DM, and the table goes on."""
    await poker_bot(seed=12)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    await players.play(calling_station, until=lambda t: t.legal.phase == "drawing")
    turn = await players.turn(1)
    assert table.live is not None
    seq = table.live.seq
    picker = (await players.open_draw(turn)).message
    assert picker is not None
    toggles, _ = players.picker_buttons(picker)
    assert (await fake.reply_to(await fake.click(turn.name, picker, toggles[0]))).response_type == 7
    picker = fake.message(picker.id)
    _, confirms = players.picker_buttons(picker)
    dms = len(fake.dms(turn.name))
    target: list[int] = []
    fake.inject(of_interaction(target), connection="closed-before", times=None)
    iid = await fake.click(turn.name, picker, next(iter(confirms.values())), expect_ack=False)
    target.append(iid)
    await fake.wait_for(lambda: "\nNow: " in fake.dms(turn.name)[-1].content, 5, what="the DM of the new hand")
    assert table.live.seq == seq + 1 and not fake.interactions[iid].acknowledged
    assert len(fake.dms(turn.name)) == dms  # the deal's DM, edited
    new = fake.dms(turn.name)[-1].content
    assert "Draw 1 of 1: threw" in new and "\nNow: " in new, new
    await players.play(calling_station, number=1)
    fake.take_violations("ack-deadline")
    figures["faults: the answer to Throw lost (cards still sent by DM)"] += 1


async def test_only_an_answer_that_makes_a_message_asks_for_it_back(fake: FakeDiscord,
                                                                   poker_bot: PokerBotStarter) -> None:
    """An answer that edits the clicked message (the table) is sent without ``with_response``: Discord answers it
    with no body, and there is nothing to parse. An answer that makes a message (My hand) asks for the message,
    whose id the bot keeps: the next private message replaces that one."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    iid = await fake.click(turn.name, turn.message, players.button_id(turn, "cc"))
    assert (await fake.reply_to(iid)).response_type == 7
    [edit] = callbacks_of(fake, iid)
    assert "with_response" not in edit.query and edit.status == 204

    first = await players.click_seat("bob", "hand")
    second = await players.click_seat("bob", "hand")
    for rec in (first, second):
        [made] = callbacks_of(fake, rec.id)
        assert made.query.get("with_response") in ("1", "true") and made.status == 200 and rec.response_type == 4
    assert first.original is not None and second.original is not None
    await fake.wait_for(lambda: first.original.deleted or None, 5, what="the older private message deleted")
