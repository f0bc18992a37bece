"""/poker fold, check, call, bet, raise, allin, draw and pat: the turn's moves typed.

Each command is made from its declaration in ``cogs.table._turn`` (``TYPED``: its name, its options and the move
it makes from what the player may do and what he typed) and goes the buttons' one path (``cogs.table._play``):
the turn is checked once, by ``Table.act``, at the moment the table is at when the command arrives. The caller is
answered, ephemerally, with what happened. Nothing here decides a rule.

A command and a click for the same turn race on the table's lock; the second finds the action number moved on and
is refused as late. A command that finds the table busy (its lock held) is acknowledged first, ephemerally: the
wait must not outlast Discord's 3 seconds, and its answer, which may show new cards, must never be public.
"""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

import discord
from discord import app_commands

from bot.content.command_help import COMMAND_HELP, describe
from bot.i18n import Language, Text, say
from bot.poker import BetRaise, BringIn, Card, CardError, CheckCall, Fold, IllegalAction, Legal, Move
from bot.tables import TableError

from ..reply import Reply, reply_to
from ._draw import FACE_DOWN, FACE_UP, read_cards, readable
from ._play import draw, in_phase, play
from ._runner import TableRunner
from ._runners import runners_of
from ._turn import TYPED, Options, with_range

__all__ = ["COMMANDS", "LATE", "read_cards", "readable"]

MAX_CHOICES = 25  # Discord: an autocomplete answer holds at most 25 choices
MAX_NAME = 100  # and each name at most 100 characters
TWOS_CHOICES = [  # locale_str: translated at sync (a built command's choices are not made so by discord.py)
    app_commands.Choice(name=app_commands.locale_str("Face up: one extra card after the draw"), value=FACE_UP),
    app_commands.Choice(name=app_commands.locale_str("Face down"), value=FACE_DOWN)]
TOO_LATE = Text("Too late: your turn was already played (a click, another command or the clock came first).")
LATE = str(TOO_LATE)  # its English, which the tests look for
LATE_WINDOW = 3.0  # seconds: Discord's time to answer an interaction; a command sent with a click comes within it


def _just_played(runner: TableRunner, user: int, draw: bool) -> bool:
    """Whether ``user`` made a move of this kind (a bet or a draw) at the table a moment ago: his command, sent with
    a click (or a second command) for the same turn, comes too late, and is told so."""
    last = runner.dealer.last_move
    return last is not None and last.user == user and last.draw == draw and time.monotonic() - last.at < LATE_WINDOW


def _move_text(move: Move, legal: Legal, lang: Language) -> str:
    """What the caller is told once his move is made ("You call 20."), in his language."""
    if isinstance(move, Fold):
        return say(lang, "You fold.")
    if isinstance(move, CheckCall):
        if legal.can_check:
            return say(lang, "You check.")
        return say(lang, "You call {amount}, all in.", amount=legal.call_amount) if legal.call_is_all_in \
            else say(lang, "You call {amount}.", amount=legal.call_amount)
    if isinstance(move, BringIn):
        amount = legal.bring_in_amount
        return say(lang, "You bring in {amount}, all in.", amount=amount) if amount == legal.all_in_to \
            else say(lang, "You bring in {amount}.", amount=amount)
    if isinstance(move, BetRaise):
        return _bet_text(legal, move.to, move.to == legal.all_in_to, lang)
    return say(lang, "Done.")


def _bet_text(legal: Legal, to: int, all_in: bool, lang: Language) -> str:
    """A bet, a raise or a completion made: ``You raise to 40.``, ``You bet 100 (all in).``"""
    if legal.is_completion:
        return say(lang, "You complete to {amount} (all in).", amount=to) if all_in \
            else say(lang, "You complete to {amount}.", amount=to)
    if legal.is_bet:
        return say(lang, "You bet {amount} (all in).", amount=to) if all_in \
            else say(lang, "You bet {amount}.", amount=to)
    return say(lang, "You raise to {amount} (all in).", amount=to) if all_in \
        else say(lang, "You raise to {amount}.", amount=to)


async def typed_move(reply: Reply, name: str, options: Options | None = None) -> None:
    """``/poker NAME``: the move its declaration makes, at the moment the table is at (see the module docstring),
    answered through ``reply``."""
    runner = runners_of(reply.interaction).here(reply)
    table = runner.table
    action, typed = TYPED[name]
    drawing = action.phase == "drawing"
    if table.lock.locked():
        await reply.acknowledge()
        async with table.lock:
            pass  # the command reads the table as it is once the move being stored is made (or undone)
    user = reply.user
    live = table.live
    if live is None:
        if table.seat_of(user) is None:
            raise TableError(Text("You are not seated at this table."))
        if _just_played(runner, user, drawing):
            raise TableError(TOO_LATE)  # his move (a click a moment before) ended the hand
        raise TableError(Text("No hand is being played now."))
    hand, seq = live.record.id, live.seq
    his_turn = table.actor() == user
    checked: list[Legal] = []  # what he may do, once his turn and the moment are checked
    made: list[Move] = []

    def move(legal: Legal) -> Move:
        checked.append(in_phase(action.phase, legal))
        made.append(typed.move(legal, options or Options()))
        return made[-1]

    try:
        if drawing:
            await draw(runner, reply, hand, seq, move, drawn_from="command")
            return
        played = await play(runner, reply, hand, seq, move, answer=False)
    except TableError:
        now = table.live
        moved = now is None or now.record.id != hand or now.seq != seq
        if reply.applied or (checked and not made):
            raise  # his move was made (and Discord failed after), or what he typed is refused
        late_at_the_table = made and moved  # checked as it came, then found the turn played while it waited
        refused_after_his_move = not made and (_just_played(runner, user, drawing) or (moved and his_turn))
        if late_at_the_table or refused_after_his_move:
            raise TableError(TOO_LATE) from None  # a click (or the clock) played his turn a moment before
        raise
    except IllegalAction as error:
        if made and isinstance(made[-1], BetRaise):  # too small or too large: said with the range allowed
            raise with_range(error, checked[-1]) from None
        raise
    legal, lang = checked[-1], reply.language
    done = say(lang, "You are all in for {amount}.", amount=legal.all_in_to) \
        if name == "allin" and isinstance(played.move, BetRaise) \
        else _move_text(played.move, legal, lang)  # all in: the words of the button's confirmation
    await reply.send(done)


def suggestions(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The draws the caller could type, from his own cards only (nobody else's: a spectator, a player out of the
    hand or one who folded gets none). Those that keep what he typed so far come first."""
    table = runners_of(interaction).bot.tables.get(interaction.channel_id or 0)
    if table is None or table.hand is None:
        return []
    seat = table.engine_seat(interaction.user.id)
    hand = table.hand
    if seat is None or hand.folded[seat]:
        return []
    held = list(hand.holes[seat])
    legal = table.legal()
    limit = legal.max_discards if legal is not None and legal.player == seat and legal.phase == "drawing" \
        else len(held)
    typed: list[Card] = []
    for token in re.split(r"[\s,]+", current.strip()):
        try:
            typed.extend(c for c in read_cards(token) if c in held and c not in typed)
        except CardError:
            continue
    by_size = {size: [combo for combo in itertools.combinations(held, size) if set(typed) <= set(combo)]
               for size in range(max(1, len(typed)), min(limit, len(held)) + 1)}
    # The throws of four and five cards (few) are always offered; the smaller ones fill the rest, smallest first.
    big = [combo for size, combos in by_size.items() if size >= 4 for combo in combos][:MAX_CHOICES]
    small = [combo for size, combos in by_size.items() if size < 4 for combo in combos][:MAX_CHOICES - len(big)]
    return [app_commands.Choice(name=" ".join(readable(c) for c in combo)[:MAX_NAME],
                                value=" ".join(c.code for c in combo)) for combo in sorted(small + big, key=len)]


# ------------------------------------------------------------------ the commands, made from the declarations


def _command(name: str, shape: str) -> app_commands.Command[Any, ..., None]:
    """``/poker NAME`` with the options of its shape: none, an amount, or the cards (and Assassin's twos)."""
    help_text = COMMAND_HELP[f"poker {name}"]
    command: app_commands.Command[Any, ..., None]
    if shape == "amount":
        async def with_amount(interaction: discord.Interaction, amount: str) -> None:
            reply = reply_to(interaction)
            await typed_move(reply, name, Options(amount=amount))

        command = app_commands.Command(name=name, description=help_text, callback=with_amount)
    elif shape == "cards":
        async def with_cards(interaction: discord.Interaction, cards: str, twos: str | None = None) -> None:
            reply = reply_to(interaction)
            await typed_move(reply, name, Options(cards=cards, twos=twos))

        command = app_commands.choices(twos=TWOS_CHOICES)(
            app_commands.Command(name=name, description=help_text, callback=with_cards))

        @command.autocomplete("cards")
        async def cards_typed(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return suggestions(interaction, current)
    else:
        async def plain(interaction: discord.Interaction) -> None:
            reply = reply_to(interaction)
            await typed_move(reply, name)

        command = app_commands.Command(name=name, description=help_text, callback=plain)
    described = describe(f"poker {name}")
    if not described:
        return command
    # locale_str: discord.py translates a built command's option descriptions only when they are (the decorator
    # of a function makes them so itself)
    return app_commands.describe(**{option: app_commands.locale_str(text) for option, text in described.items()})(
        command)


COMMANDS = tuple(_command(name, typed.shape) for name, (_action, typed) in TYPED.items())
