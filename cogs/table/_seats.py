"""The seat actions, each declared once: the buttons for everyone at the table, whoever's turn it is (My hand,
Join, Sit out / in, Rebuy…, Leave), what a click on each does, and what their slash commands share with them.

A ``SeatAction`` is a name (the readable kind of its custom_id, ``pk:seat:TABLE:NAME``), a label and a style,
whether it is offered during a hand and between hands, and what a click does. The screen shows them
(``cogs.table._controls``); ``SeatButton`` runs the one clicked; ``/poker join``, ``leave``, ``sitout``,
``sitin``, ``rebuy`` and ``hand`` (``cogs.table._table_commands``) call the same functions. Chips and seats are
the table's to change (``bot.tables.Table``), which asks the store.

The table message is one for everyone, so its Sit out / in cannot say which a player is: it toggles, and its answer
says the state he is in now and carries his own button back (Sit in, or Sit out), which only he sees; the table's
lines say "sitting out" too. Leave asks once, saying what he cashes out (and that he folds the hand he is in):
Leave now, on that question, leaves.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import cast, get_args

import discord

from bot.i18n import ENGLISH, Language, Text, say, say_n
from bot.poker import Fold, rotation
from bot.tables import Outcome, Table, TableError
from bot.tables.table import CashOnly
from bot.tables.tournament import tournament_of
from cogs.render import mention

from ..reply import Reply
from ..tournament_views import places_of
from ..views import dynamic_view
from ._items import TableItem, word
from ._runner import TableRunner

__all__ = ["SEAT_ACTIONS", "SeatAction", "SeatButton", "join", "leave", "rebuy", "rebuy_form", "rebuy_submitted",
           "sit_in", "sit_out"]

BUTTON = discord.ui.Button[discord.ui.View]
Style = discord.ButtonStyle
CASH_ONLY = get_args(CashOnly)  # the buttons of what a tournament does its own way (Register, its Rebuy, no leaving)
NOT_SEATED = Text("You are not seated at this table.")
PRESS_JOIN = Text("You are not seated at this table; press Join.")
REBUY_FORM_ID = re.compile(r"pk:rebuy:(?P<table>\d+)")
AMOUNT_FIELD = "amount"
MAX_TYPED = 40  # characters of a bad amount said back
SAT_OUT = Text("You are sitting out: no cards from the next hand until you sit in.")
SAT_IN = Text("You are in: dealt in from the next hand.")


@dataclass(frozen=True, slots=True)
class SeatAction:
    """One seat button (see the module docstring)."""

    name: str
    label: Text
    style: discord.ButtonStyle
    during_hand: bool  # offered on a hand's message
    between_hands: bool  # offered between hands (and at a table with a free seat, for Join)
    click: Callable[[TableRunner, Reply], Awaitable[None]]

    def offered(self, table: Table) -> bool:
        """Whether the table message offers it now. A tournament table offers only My hand and Sit out / in, and
        nothing once the tournament is over (its players enter, rebuy and leave through the tournament); a cash
        table offers Join between hands while it waits for players (a newcomer uses /poker join meanwhile)."""
        if self.name in CASH_ONLY and not table.offers(cast(CashOnly, self.name)):
            return False
        t = tournament_of(table)
        if t is not None and t.state.status in ("finished", "cancelled"):
            return False
        if table.live is not None:
            return self.during_hand
        if self.name == "join":
            return len(table.record.seats) < table.settings.max_seats and waits_for_players(table)
        return self.between_hands

    def button(self, table: int, row: int | None = None, *, lang: Language = ENGLISH) -> SeatButton:
        """Its button, for table ``table``, labelled in ``lang`` (the table's on the table message, the player's on
        his own answer)."""
        return SeatButton(table, self.name, self.label.worded(lang), self.style, row=row)


# ------------------------------------------------------------------ what the seats do (buttons and commands)


def waits_for_players(table: Table) -> bool:
    """No hand has been dealt yet, or the table waits for players with chips (or is paused): a Join is wanted."""
    return table.hands_dealt == 0 or table.next().reason in ("players", "paused")


async def seats_changed(runner: TableRunner) -> None:
    """Show the table after a seat changed, and deal when the table can (it says when: ``Table.next``)."""
    await runner.dealer.publish()
    table = runner.table
    pending = runner.dealer.dealing is not None and not runner.dealer.dealing.done()
    if table.live is None and table.next().kind in ("deal", "choose") and not pending:
        runner.dealer.schedule_deal()


def not_seated(table: Table, user: int, refusal: Text = PRESS_JOIN, *, lang: Language) -> TableError:
    """Why ``user``, who has no seat at ``table``, cannot do a seated player's action there: at a tournament table,
    that he is out of the tournament (in which place, worded in ``lang``, his), or how to enter it (its message's
    Register button, or that registration is closed); at a cash table, ``refusal``."""
    t = tournament_of(table)
    if t is None:
        return TableError(refusal)
    placing = t.knocked_out(user)
    if placing is None:
        try:
            t.refuse("join")  # (always raises, saying how to enter this tournament now)
        except TableError as how:
            return how
        return TableError(refusal)
    places = places_of(placing, lang=lang)
    shared = len(placing.players) > 1
    if t.state.stage != "running":
        return TableError(Text("You went out of this tournament in {places}, shared; it is over.", places=places)
                          if shared else
                          Text("You went out of this tournament in {places}; it is over.", places=places))
    return TableError(
        Text("You are out of this tournament ({places}, shared). The table plays on; you can watch.", places=places)
        if shared else
        Text("You are out of this tournament ({places}). The table plays on; you can watch.", places=places))


def _out_of_tournament(table: Table, user: int, lang: Language) -> None:
    """A knocked-out player's seat command (/poker join, sitout, sitin, rebuy) is told he is out, not what a
    newcomer or a cash table's player would be."""
    t = tournament_of(table)
    if t is not None and table.seat_of(user) is None and t.knocked_out(user) is not None:
        raise not_seated(table, user, lang=lang)


async def join(runner: TableRunner, reply: Reply, buy_in: int | None) -> None:
    """Sit down with ``buy_in`` chips (None: as many as the table allows and the balance covers)."""
    _out_of_tournament(runner.table, reply.user, reply.language)
    seat = await runner.table.join(reply.user, buy_in)
    await reply.send(say_n(reply.language, "You sit in seat {seat} with {count} chip.",
                           "You sit in seat {seat} with {count} chips.", count=seat.stack, seat=str(seat.seat_no)))
    runner.presenter.note(say(runner.language, "{player} sits down with {amount}", player=mention(reply.user),
                              amount=seat.stack))
    await seats_changed(runner)


async def sit_out(runner: TableRunner, reply: Reply, *, on_private: bool = False) -> None:
    """Sit out from the next hand. The answer says so and, when it does not show his cards, carries his own Sit in
    button (the table message's Sit out / in is everyone's: it cannot say which he is). ``on_private``: the click
    is on that private answer's button, which the new answer replaces."""
    _out_of_tournament(runner.table, reply.user, reply.language)
    await runner.table.sit_out(reply.user)
    await _say_sitting(runner, reply, SAT_OUT, SIT_IN, on_private)
    await runner.dealer.publish()


async def sit_in(runner: TableRunner, reply: Reply, *, on_private: bool = False) -> None:
    """Be dealt in again from the next hand (the answer carries his own Sit out, as ``sit_out``'s his Sit in)."""
    _out_of_tournament(runner.table, reply.user, reply.language)
    await runner.table.sit_in(reply.user)
    await _say_sitting(runner, reply, SAT_IN, SIT_OUT, on_private)
    await seats_changed(runner)


async def _say_sitting(runner: TableRunner, reply: Reply, said: Text, undo: SeatAction, on_private: bool) -> None:
    """Answer a sit out or sit in with the state he is in now and the button that undoes it, his alone; not while
    he holds cards (his private message shows them, and one with buttons would not)."""
    lang = reply.language
    text = said.worded(lang)
    if runner.own_cards.cards_of(reply.user) is not None:
        await reply.send(text)
        return
    view = dynamic_view()
    view.add_item(undo.button(runner.table.id, lang=lang))
    if on_private:
        await reply.update(content=text, view=view)
    else:
        await reply.send(text, view=view)


async def rebuy(runner: TableRunner, reply: Reply, amount: int) -> None:
    """Add chips to the stack between hands."""
    _out_of_tournament(runner.table, reply.user, reply.language)
    seat = await runner.table.rebuy(reply.user, amount)
    await reply.send(say(reply.language, "Your stack is now {amount}.", amount=seat.stack))
    await seats_changed(runner)


async def leave(runner: TableRunner, reply: Reply, *, answered_on_question: bool = False) -> None:
    """Leave the table: cashed out now, or folded now and cashed out when the hand ends. ``answered_on_question``:
    the click is on the question "Leave the table?", which the answer replaces."""
    user, lang = reply.user, reply.language
    cash, outcome = await runner.table.leave(user)
    if cash is not None:
        text = say_n(lang, "You leave with {count} chip; your balance is {balance}.",
                     "You leave with {count} chips; your balance is {balance}.", count=cash.amount,
                     balance=cash.balance)
    else:
        text = say(lang, "You fold and leave; your chips go back to your balance when this hand ends.")
    if answered_on_question:
        await reply.update(content=text, view=None)
    else:
        await reply.send(text)
    runner.presenter.note(say(runner.language, "{player} leaves the table", player=mention(user)))
    await after_leave(runner, outcome)


async def after_leave(runner: TableRunner, outcome: Outcome) -> None:
    """Show a player's leaving: his fold, if he was folded, else the table."""
    if outcome.events:
        await runner.dealer.show(outcome)
    else:
        await runner.dealer.publish()


# ------------------------------------------------------------------ the buttons' own steps


def _seated(table: Table, user: int, refusal: Text, lang: Language) -> None:
    if table.seat_of(user) is None:
        raise not_seated(table, user, refusal, lang=lang)


async def _show_hand(runner: TableRunner, reply: Reply) -> None:
    """My hand: while he holds cards, his private message again, at the bottom (the cards large, what they make,
    his pre-action buttons if he may choose ahead); else his last hand's words."""
    user, lang = reply.user, reply.language
    held = runner.own_cards.cards_of(user)
    shown = runner.private.after(user, held.caption_in(lang), lang=lang) if held is not None else None
    if shown is None:
        await reply.send(runner.own_cards.my_hand(user, lang=lang))
        return
    await reply.send(shown.pop("content"), **shown)


async def _join(runner: TableRunner, reply: Reply) -> None:
    await join(runner, reply, None)


async def _sit(runner: TableRunner, reply: Reply) -> None:
    seat = runner.table.seat_of(reply.user)
    if seat is None:
        raise not_seated(runner.table, reply.user, lang=reply.language)
    await (sit_in if seat.sitting_out else sit_out)(runner, reply)


async def _open_rebuy_form(runner: TableRunner, reply: Reply) -> None:
    table = runner.table
    seat = table.seat_of(reply.user)
    if seat is None:
        raise not_seated(table, reply.user, lang=reply.language)
    low, high = table.settings.buy_in_range
    await reply.modal(rebuy_form(table.id, low, high, seat.stack, lang=reply.language))


async def _ask_leave(runner: TableRunner, reply: Reply) -> None:
    """Leave asks once more, saying what he cashes out and whether it folds the hand he is in."""
    table = runner.table
    user, lang = reply.user, reply.language
    _seated(table, user, NOT_SEATED, lang)
    view = dynamic_view()
    view.add_item(LEAVE_SURE.button(table.id, lang=lang))
    await reply.send(leave_question(table, user, lang=lang), view=view)


def leave_question(table: Table, user: int, *, lang: Language) -> str:
    """Leave's question, in the player's language: ``Leave the table? You cash out 880 chips.``; in a hand he can
    still fold, that he folds it (his chips behind are what he cashes out); all in, that he cashes out what the
    hand leaves him."""
    seat = table.seat_of(user)
    assert seat is not None
    engine_seat, hand = table.engine_seat(user), table.hand
    if engine_seat is None or hand is None:
        return say_n(lang, "Leave the table? You cash out {count} chip.",
                     "Leave the table? You cash out {count} chips.", count=seat.stack)
    stack = hand.stacks[engine_seat]
    if hand.can(Fold(player=engine_seat)):
        return say_n(lang, "Leave the table? You fold this hand and cash out {count} chip.",
                     "Leave the table? You fold this hand and cash out {count} chips.", count=stack)
    if stack == 0 and not hand.folded[engine_seat]:
        return say(lang, "Leave the table? You cash out what this hand leaves you when it ends.")
    return say_n(lang, "Leave the table? You cash out {count} chip when this hand ends.",
                 "Leave the table? You cash out {count} chips when this hand ends.", count=stack)


async def _leave(runner: TableRunner, reply: Reply) -> None:
    await leave(runner, reply, answered_on_question=True)


async def _sit_out_only(runner: TableRunner, reply: Reply) -> None:
    """His own Sit out (on the answer to his sit in): sits him out, or says he is (tapped twice)."""
    seat = runner.table.seat_of(reply.user)
    if seat is None:
        raise not_seated(runner.table, reply.user, lang=reply.language)
    if seat.sitting_out:
        await _say_sitting(runner, reply, SAT_OUT, SIT_IN, on_private=True)
        return
    await sit_out(runner, reply, on_private=True)


async def _sit_in_only(runner: TableRunner, reply: Reply) -> None:
    """His own Sit in (on the answer to his sit out): deals him in again, or says he is."""
    seat = runner.table.seat_of(reply.user)
    if seat is None:
        raise not_seated(runner.table, reply.user, lang=reply.language)
    if not seat.sitting_out:
        await _say_sitting(runner, reply, SAT_IN, SIT_OUT, on_private=True)
        return
    await sit_in(runner, reply, on_private=True)


HAND = SeatAction("hand", Text("My hand"), Style.secondary, during_hand=True, between_hands=False,
                  click=_show_hand)
JOIN = SeatAction("join", Text("Join"), Style.success, during_hand=False, between_hands=True, click=_join)
SIT = SeatAction("sit", Text("Sit out / in"), Style.secondary, during_hand=True, between_hands=True, click=_sit)
REBUY = SeatAction("rebuy", Text("Rebuy…"), Style.secondary, during_hand=False, between_hands=True,
                   click=_open_rebuy_form)
LEAVE = SeatAction("leave", Text("Leave"), Style.secondary, during_hand=True, between_hands=True, click=_ask_leave)
LEAVE_SURE = SeatAction("leaveok", Text("Leave now"), Style.danger, during_hand=False, between_hands=False,
                        click=_leave)  # the question's button, only the player sees it
SIT_OUT = SeatAction("sitout", Text("Sit out"), Style.secondary, during_hand=False, between_hands=False,
                     click=_sit_out_only)  # on the answer to a sit in, his alone
SIT_IN = SeatAction("sitin", Text("Sit in"), Style.success, during_hand=False, between_hands=False,
                    click=_sit_in_only)  # on the answer to a sit out, his alone

SEAT_ACTIONS: tuple[SeatAction, ...] = (HAND, JOIN, SIT, REBUY, LEAVE)  # in button order
CLICKABLE = {action.name: action for action in (*SEAT_ACTIONS, LEAVE_SURE, SIT_OUT, SIT_IN)}


class SeatButton(TableItem[BUTTON], kind="seat", fields=[word("name")]):
    """A seat action's button for one table (it works after a restart)."""

    def __init__(self, table: int, name: str, label: str = "…", style: discord.ButtonStyle = Style.secondary,
                 row: int | None = None, runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=row, custom_id=self.make_id(table, name)))
        self.table, self.name, self.runner = table, name, runner
        self.known = name in CLICKABLE  # else refused before its callback

    async def clicked(self, reply: Reply) -> None:
        assert self.runner is not None
        await CLICKABLE[self.name].click(self.runner, reply)


# ------------------------------------------------------------------ the rebuy form


def rebuy_form(table: int, low: int, high: int, stack: int, *, lang: Language) -> discord.ui.Modal:
    """Add chips between hands, in the player's language: how many, with the table's limits said (the room is the
    engine's to say)."""
    modal = discord.ui.Modal(title=say(lang, "Rebuy"), custom_id=f"pk:rebuy:{table}")
    room = rotation.rebuy_room(stack, high)
    amount: discord.ui.TextInput[discord.ui.Modal] = discord.ui.TextInput(
        custom_id=AMOUNT_FIELD, max_length=20, placeholder=str(room or low), default=str(room) if room else None)
    modal.add_item(discord.ui.Label(
        text=say(lang, "Chips to add"), component=amount,
        description=say_n(lang, "Your stack may go up to {count} chip (now {stack})",
                          "Your stack may go up to {count} chips (now {stack})", count=high, stack=stack)))
    modal.stop()  # not kept by discord.py: its submission is recognised by its custom_id (cogs.table._forms)
    return modal


async def rebuy_submitted(runner: TableRunner, reply: Reply, text: str, most: int) -> None:
    """The rebuy form: a whole number of chips (up to ``most``, the largest amount a movement may be)."""
    amount = text.strip().replace(",", "").replace("_", "")
    if not amount.isascii() or not amount.isdigit() or not 0 < int(amount) <= most:
        raise TableError(Text("“{typed}” is not a number of chips.", typed=text.strip()[:MAX_TYPED]))
    await rebuy(runner, reply, int(amount))
