"""A player's move, from a click, a form or a command, to ``Table.act`` and back: the one path.

What the player pressed or typed becomes a move only inside ``Table.act``, from what he may do at that moment
(a ``MoveFor``: a function of his ``Legal``), after the one turn check (``Table.check_turn``, under the table's
lock): an old button, not his turn, not in the hand, the wrong moment of the hand are each refused there once.
The move is stored before anything is shown; then the table is shown, answering the interaction with it when it
can. Where the player's private message answers his move, it is his hand after it (``after_move``): the cards
alone, drawn large, one line under them (what he did, what they make) and his pre-action buttons. A draw also
edits the hand's DM to show his new hand.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.i18n import Language, Text, say
from bot.poker import BetRaise, BringIn, CheckCall, Draw, Legal, Move
from bot.poker.hand import Phase
from bot.refusal import Sentence
from bot.tables import Outcome, TableError

from ..reply import Reply
from . import _hole
from ._dealer import LastMove
from ._runner import TableRunner
from ._text import draw_report, drew_line
from ._writer import CannotPost

log = logging.getLogger(__name__)

MoveFor = Callable[[Legal], Move]
DrawnFrom = Literal["table", "picker", "command"]  # where a draw was made: its report is shown there


def in_phase(phase: Phase, legal: Legal) -> Legal:
    """``legal`` if the hand is at ``phase`` (betting or drawing) for the player to act; the refusal of a button or
    command of the other moment, saying what to do instead."""
    refusal = legal.refused_for(phase)
    if refusal is None:
        return legal
    if legal.phase == "betting":
        raise TableError(Text("{refusal} {choices}.", refusal=Sentence(refusal), choices=betting_choices(legal)))
    raise TableError(Sentence(refusal))


def betting_choices(legal: Legal) -> Text:
    """What a player may do in a betting round, as commands: "Check (`/poker check`) or bet (`/poker bet`)"."""
    if legal.can_bring_in:
        amount = legal.bring_in_amount
        return Text("Bring in {amount} (`/poker call`) or complete (`/poker bet`)", amount=amount) \
            if legal.can_raise else Text("Bring in {amount} (`/poker call`)", amount=amount)
    if legal.can_check:
        return Text("Check (`/poker check`) or bet (`/poker bet`)") if legal.can_raise \
            else Text("Check (`/poker check`)")
    amount = legal.call_amount
    if not legal.can_raise:
        return Text("Call {amount} (`/poker call`) or fold (`/poker fold`)", amount=amount)
    if legal.is_completion:
        return Text("Call {amount} (`/poker call`), complete (`/poker bet`) or fold (`/poker fold`)", amount=amount)
    return Text("Call {amount} (`/poker call`), raise (`/poker raise`) or fold (`/poker fold`)", amount=amount)


@dataclass(frozen=True, slots=True)
class Played:
    """A move stored and shown: what it did, the move made, and what the player could do when he made it."""

    outcome: Outcome
    move: Move
    legal: Legal


def move_words(legal: Legal, move: Move, *, lang: Language) -> str:
    """What the player did, said to him: "You raised to 28", "You called 10", "You are all in for 500"."""
    if isinstance(move, CheckCall):
        if legal.can_check:
            return say(lang, "You checked")
        return say(lang, "You are all in for {amount}", amount=legal.all_in_to) if legal.call_is_all_in else \
            say(lang, "You called {amount}", amount=legal.call_amount)
    if isinstance(move, BringIn):
        return say(lang, "You brought in {amount}", amount=legal.bring_in_amount)
    if not isinstance(move, BetRaise):
        return say(lang, "Done")
    if move.to == legal.all_in_to:
        return say(lang, "You are all in for {amount}", amount=move.to)
    if legal.is_completion:
        return say(lang, "You completed to {amount}", amount=move.to)
    return say(lang, "You bet {amount}", amount=move.to) if legal.is_bet else \
        say(lang, "You raised to {amount}", amount=move.to)


def after_move(runner: TableRunner, user: int, played: Played, *, lang: Language) -> dict[str, Any] | None:
    """``user``'s private message once his move is made, in his language: his hand large, one line under it, his
    pre-action buttons if he may choose ahead now (``PrivateMessages.after``); None when he holds no cards (he
    folded, the hand is over)."""
    caption = _caption(runner, user, played, lang=lang)
    return runner.private.after(user, caption, lang=lang) if caption is not None else None


def _caption(runner: TableRunner, user: int, played: Played, *, lang: Language) -> str | None:
    """The words under ``user``'s cards after his move, in ``lang``: which hand, what he did or drew, what his hand
    makes (above them the board, or stud's cards); None when he holds no cards."""
    live, hand = runner.table.live, played.outcome.hand
    seat = played.outcome.seat_of(user)
    if live is None or live.hand is not hand or seat is None or hand.folded[seat]:  # (over, or the next dealt)
        return None
    number = live.record.number
    if isinstance(played.move, Draw):
        line = drew_line(hand, seat, runner.own_cards.drawn_cards(played.outcome, seat), number, lang=lang)
    else:
        line = _hole.acted_line(hand, seat, number, move_words(played.legal, played.move, lang=lang), lang=lang)
    return _hole.under_cards(hand, seat, line, runner.own_cards.card_for(user), lang=lang)


async def play(runner: TableRunner, reply: Reply, hand: int | None, seq: int, move_for: MoveFor, *,
               answer: bool = True) -> Played:
    """The player's move at action ``seq`` of ``hand`` (None: the hand being played), made from his ``Legal`` by
    ``move_for``, then the table shown (answering the interaction with it, through ``reply``, if ``answer``). Once
    the move is stored, a failure to show it is Discord's, not the player's: the writer keeps trying, and nothing
    says the move was not made."""
    made: list[tuple[Legal, Move]] = []

    def move(legal: Legal) -> Move:
        made.append((legal, move_for(legal)))
        return made[-1][1]

    user = reply.user
    runner.private.follow(reply)
    async with reply.answering():
        outcome = await runner.table.act(user, move, seq, hand)
        legal, made_move = made[-1]
        played = Played(outcome, made_move, legal)
        runner.dealer.last_move = LastMove(user, isinstance(made_move, Draw), time.monotonic())
        reply.applied = True
        try:
            await runner.dealer.show(outcome, reply if answer else None)
        except CannotPost:
            raise
        except Exception:
            log.exception("table %s: the move was stored but could not be shown; the writer retries",
                          runner.table.id)
            runner.writer.refresh()
        if answer:
            await runner.private.under_table(reply, runner.table.message_id,
                                             lambda: _caption(runner, user, played, lang=reply.language))
        return played


async def draw(runner: TableRunner, reply: Reply, hand: int | None, seq: int, move_for: MoveFor, *,
               drawn_from: DrawnFrom) -> None:
    """A draw: whoever drew from the picker or by command sees his new hand right where he drew, large (the cards
    alone as the text) with one line under it, what he drew and what it makes, and his pre-action buttons for the
    betting after the draw (a player whose DMs are closed sees it in an ephemeral answer); the hand's DM, sent at
    the deal, is edited to show it; the table is shown."""
    table = runner.table
    user = reply.user
    seat = table.engine_seat(user)
    live = table.live
    hand_id, number = (live.record.id, live.record.number) if live is not None else (None, 0)
    with_table = drawn_from == "table" and not table.dms_closed(user)
    played = await play(runner, reply, hand, seq, move_for, answer=with_table)
    outcome, move = played.outcome, played.move
    if outcome.hand is None or seat is None or not isinstance(move, Draw):
        return
    drawn = runner.own_cards.drawn_cards(outcome, seat)
    card = runner.own_cards.card_for(user)
    lang = reply.language
    shown = after_move(runner, user, played, lang=lang) or \
        {"content": drew_line(outcome.hand, seat, drawn, number, lang=lang)}
    try:
        if drawn_from == "picker":
            await reply.update(**{"view": None, **shown})
        elif not with_table:
            await reply.send(**shown)
    finally:  # whatever became of the answer, his new cards reach him (closed DMs: he saw them, or My hand)
        if drawn and not table.dms_closed(user):
            dm = runner.dealer.member_language(user)  # (a DM: his language as last seen, else the table's)
            report = draw_report(outcome.hand, seat, move.discards, drawn, card, lang=dm)
            heading = runner.own_cards.dm_heading(outcome.hand, lang=dm)
            await runner.dealer.send_dm(user, f"{heading}\n{report}", hand=hand_id)
