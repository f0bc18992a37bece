"""The turn's actions, each declared once: the buttons of the player to act, what a click on each does, and the
slash commands that make the same moves typed.

A ``TurnAction`` says everything about one action: its name (the readable kind of its custom_id,
``pk:turn:TABLE:HAND:SEQ:NAME``), its label and style and when it is offered (each a function of the engine's
``Legal``), what a click does (play its move, or open something first: a confirmation, the amount form, the draw
picker), and its slash commands (``Typed``: the same move typed, ``/poker fold``...). The screen shows the
actions offered (``cogs.table._controls``), ``TurnButton`` plays the one clicked, and the move commands
(``cogs.table._move_commands``) are made from ``TYPED``. A new button, say "½ pot", is one entry in
``TURN_ACTIONS`` (and its test).

In pot and no limit a bet or raise is two taps: the table's Raise… (Bet…, Complete…) opens the bet menu, a
private message of the sizes (``BET_MENU``: the smallest, ½ pot, ¾ pot, pot and all in, each labelled with the
total it bets to, "Raise to 28 (¾ pot)") and Other amount… (the amount form); a size tapped there is played, and
the menu becomes the player's cards again. Fixed limit keeps its one button per amount on the table ("Raise to
20"). Nothing here decides a rule: what may be done, and for how much, is the engine's ``Legal`` (its
``pot_fraction_to`` sizes ½ and ¾ pot); the turn is checked once, by ``Table.act`` (or ``Table.check_turn`` for a
click that only opens something).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol

import discord

from bot.i18n import ENGLISH, Language, Text, say, say_n
from bot.poker import BetRaise, BringIn, CheckCall, Draw, Fold, IllegalAction, Legal, Move
from bot.refusal import Sentence, reason_of
from bot.tables import TableError

from ..reply import Reply
from ..views import dynamic_view
from . import _draw
from ._items import TableItem, number, word
from ._play import Played, after_move, draw, in_phase, move_words, play
from ._runner import TableRunner

__all__ = [
    "ACTIONS_ROW", "BET_MENU", "TURN_ACTIONS", "TYPED", "Click", "Options", "TurnAction", "TurnButton", "Typed",
    "amount_form", "amount_submitted", "bet_menu", "parse_amount", "with_range",
]

BUTTON = discord.ui.Button[discord.ui.View]
Phase = Literal["betting", "drawing"]
ACTIONS_ROW = 1  # the turn's buttons: the lowest row, nearest the thumb
MENU_ROW = 2  # the bet menu's buttons a row holds: "Raise to 1,000 (all in)" is half a phone's width
AMOUNT_FORM_ID = re.compile(r"pk:amount:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+)")
AMOUNT_FIELD = "amount"
Style = discord.ButtonStyle


@dataclass(frozen=True, slots=True)
class Click:
    """A click on a turn's button: the table's runner (resolved once, from the custom_id), the click's ``Reply``
    (its interaction in ``reply.interaction``), and the hand and action number the button was shown for."""

    runner: TableRunner
    reply: Reply
    hand: int
    seq: int


@dataclass(frozen=True, slots=True)
class Options:
    """What a move command was typed with (each None when the command has no such option)."""

    amount: str | None = None
    cards: str | None = None
    twos: str | None = None


@dataclass(frozen=True, slots=True)
class Typed:
    """A slash command that makes an action's move typed: ``/poker NAME``, its options (``shape``), and the move
    from what the player may do and what he typed (a ``TableError`` saying why not)."""

    name: str
    move: Callable[[Legal, Options], Move]
    shape: Literal["", "amount", "cards"] = ""


ClickHandler = Callable[["TurnAction", Click], Awaitable[None]]


class Label(Protocol):
    """A button's label, from what the player may do, worded in ``lang`` (the table's on the table message, the
    player's in his private message)."""

    def __call__(self, legal: Legal, lang: Language = ENGLISH, /) -> str: ...


@dataclass(frozen=True, slots=True)
class TurnAction:
    """One action of the player to act (see the module docstring)."""

    name: str
    phase: Phase
    offered: Callable[[Legal], bool]
    label: Label
    style: Callable[[Legal], discord.ButtonStyle]
    move: Callable[[Legal], Move] | None = None  # the move a click makes (None: it opens something first)
    on_click: ClickHandler | None = None  # what a click does, if not playing ``move`` (answered with the table)
    typed: tuple[Typed, ...] = ()
    row: int = ACTIONS_ROW

    def move_for(self, legal: Legal) -> Move:
        """The move of a click, refused at the other moment of the hand (a betting button in a draw)."""
        assert self.move is not None
        return self.move(in_phase(self.phase, legal))

    def button(self, table: int, hand: int, seq: int, legal: Legal, row: int | None = None, *,
               lang: Language | None = None) -> TurnButton:
        """Its button, for action ``seq`` of ``hand`` (on ``row``, else its own), labelled in ``lang`` (None, for
        callers not passing one yet: English)."""
        label = self.label(legal) if lang is None else self.label(legal, lang)
        return TurnButton(table, hand, seq, self.name, label, self.style(legal), row=self.row if row is None else row)

    async def click(self, click: Click) -> None:
        """A click on its button: its own handler, or its move played (the table answers the click)."""
        if self.on_click is not None:
            await self.on_click(self, click)
        else:
            await play(click.runner, click.reply, click.hand, click.seq, self.move_for)


# ------------------------------------------------------------------ what the clicks do besides playing a move


def _checked(action: TurnAction, click: Click) -> Legal:
    """The one turn check of a click that opens something (no move is made by it)."""
    legal = click.runner.table.check_turn(click.reply.user, click.hand, click.seq)
    return in_phase(action.phase, legal)


async def _ask_all_in(action: TurnAction, click: Click) -> None:
    """All in asks once more: a thumb slips (a command is typed: it needs no confirmation)."""
    legal = _checked(action, click)
    lang = click.reply.language
    view = dynamic_view()
    view.add_item(ALL_IN_SURE.button(click.runner.table.id, click.hand, click.seq, legal, lang=lang))
    await click.reply.send(say(lang, "Go all in for {amount}?", amount=legal.all_in_to), view=view)


async def _all_in(action: TurnAction, click: Click) -> None:
    """The confirmation: all in, and the question becomes the player's cards, under what he did (the table is
    shown by an edit)."""
    played = await play(click.runner, click.reply, click.hand, click.seq, action.move_for, answer=False)
    await _answered(click.runner, click.reply, played)


async def _open_amount_form(action: TurnAction, click: Click) -> None:
    legal = _checked(action, click)
    await click.reply.modal(amount_form(click.runner.table.id, click.hand, click.seq, legal,
                                        lang=click.reply.language))


def _on_private(interaction: discord.Interaction) -> bool:
    """Whether the click (or form) came from the player's private message (the bet menu), not the table."""
    return interaction.message is not None and interaction.message.flags.ephemeral


async def _open_bet_menu(action: TurnAction, click: Click) -> None:
    """Raise…: the sizes to bet or raise to, as buttons only the player sees (in place of his private message),
    his cards under the question."""
    legal = _checked(action, click)
    lang = click.reply.language
    question, view = bet_menu(click.runner.table.id, click.hand, click.seq, legal, lang=lang)
    fields = click.runner.private.fields(click.reply.user, question, lang=lang) or {"content": question}
    await click.reply.send(view=view, **fields)


async def _bet_from_menu(action: TurnAction, click: Click) -> None:
    """A size in the bet menu: played, and the menu becomes the player's cards, under what he did (the table is
    shown by an edit). A Pot button left on a table message by the version before the menu plays as it did."""
    if not _on_private(click.reply.interaction):
        await play(click.runner, click.reply, click.hand, click.seq, action.move_for)
        return
    played = await play(click.runner, click.reply, click.hand, click.seq, action.move_for, answer=False)
    await _answered(click.runner, click.reply, played)


async def _answered(runner: TableRunner, reply: Reply, played: Played) -> None:
    """The bet menu (or its form, or All in's question) was used: it becomes the player's hand after his bet, as
    after a draw (``after_move``: the cards large, one line, his pre-action buttons)."""
    lang = reply.language
    shown = after_move(runner, reply.user, played, lang=lang) or \
        {"content": move_words(played.legal, played.move, lang=lang) + "."}
    await reply.update(**{"view": None, **shown})


async def _open_picker(action: TurnAction, click: Click) -> None:
    """Draw…: the player's cards as buttons (only he sees them, in place of his previous private message)."""
    legal = _checked(action, click)
    content, view = _draw.picker(click.runner, click.hand, click.seq, legal, 0, lang=click.reply.language)
    await click.reply.send(content, view=view)


async def _stand_pat(action: TurnAction, click: Click) -> None:
    """Stand pat: a draw of no card (its report goes where a draw's goes)."""
    await draw(click.runner, click.reply, click.hand, click.seq, action.move_for, drawn_from="table")


# ------------------------------------------------------------------ the typed moves' own refusals


def _bring_in_choices(legal: Legal) -> Text:
    """What the player who brings in may type: "`/poker call` brings in 3, `/poker bet 10` completes"."""
    if legal.can_raise:
        return Text("`/poker call` brings in {amount}, `/poker bet {typed}` completes to {total}",
                    amount=legal.bring_in_amount, typed=str(legal.min_raise_to), total=legal.min_raise_to)
    return Text("`/poker call` brings in {amount}", amount=legal.bring_in_amount)


def _check(legal: Legal, typed: Options) -> Move:
    if legal.can_bring_in:
        raise TableError(Text("You cannot check: you bring in. {choices}.", choices=_bring_in_choices(legal)))
    if not legal.can_check:
        raise TableError(Text("You cannot check: you face a bet of {amount}. Call it, raise, or fold.",
                              amount=legal.call_amount))
    return CheckCall()


def _call(legal: Legal, typed: Options) -> Move:
    if legal.can_bring_in:
        return BringIn()  # the bring-in is the call of third street's forced bet
    if legal.can_check:
        raise TableError(Text("There is no bet to call: check (`/poker check`) or bet."))
    return CheckCall()


def _fold(legal: Legal, typed: Options) -> Move:
    if legal.can_bring_in:
        raise TableError(Text("You cannot fold: you bring in. {choices}.", choices=_bring_in_choices(legal)))
    return Fold()


def _amount(legal: Legal, typed: Options) -> Move:
    if not legal.can_raise:  # (the engine's reason is English: Legal.why_no_raise is a str)
        raise TableError(Sentence(legal.why_no_raise or Text("there is no bet or raise to make now")))
    return BetRaise(parse_amount(typed.amount or "", legal))


def _typed_draw(legal: Legal, typed: Options) -> Move:
    return _draw.typed_draw(typed.cards or "", typed.twos, legal)


# ------------------------------------------------------------------ the actions


def _always(legal: Legal) -> bool:
    return True


def _kind(legal: Legal) -> Literal["complete", "bet", "raise"]:
    """What a bet of the player is called: stud's completion of the bring-in, a bet, or a raise."""
    if legal.is_completion:
        return "complete"
    return "bet" if legal.is_bet else "raise"


def _to_label(legal: Legal, amount: int, lang: Language) -> str:
    """"Raise to 20", "Bet 20", "Complete to 20"."""
    kind = _kind(legal)
    if kind == "complete":
        return say(lang, "Complete to {amount}", amount=amount)
    return say(lang, "Bet {amount}", amount=amount) if kind == "bet" else say(lang, "Raise to {amount}", amount=amount)


def _call_label(legal: Legal, lang: Language = ENGLISH) -> str:
    if legal.can_check:
        return say(lang, "Check")
    if legal.call_is_all_in:
        return say(lang, "Call {amount} (all in)", amount=legal.call_amount)
    return say(lang, "Call {amount}", amount=legal.call_amount)


def _bring_in_label(legal: Legal, lang: Language = ENGLISH) -> str:
    if legal.bring_in_amount == legal.all_in_to:
        return say(lang, "Bring in {amount} (all in)", amount=legal.bring_in_amount)
    return say(lang, "Bring in {amount}", amount=legal.bring_in_amount)


def _bets_label(legal: Legal, lang: Language = ENGLISH) -> str:
    """The table's button to the bet menu: "Raise…", "Bet…", "Complete…"."""
    kind = _kind(legal)
    if kind == "complete":
        return say(lang, "Complete…")
    return say(lang, "Bet…") if kind == "bet" else say(lang, "Raise…")


def _raises(legal: Legal) -> bool:
    """More than one amount may be bet or raised to."""
    return legal.can_raise and legal.min_raise_to != legal.max_raise_to


def _menu(legal: Legal) -> bool:
    """The bet menu stands for the sizes: pot and no limit, when more than one amount may be bet."""
    return _raises(legal) and legal.any_amount


def _all_in_offered(legal: Legal) -> bool:
    """On the table: all in is the smallest raise (the only one), or the largest of fixed limit's two."""
    return legal.can_raise and (legal.min_raise_to == legal.all_in_to
                                or (_raises(legal) and not _menu(legal) and legal.max_raise_to == legal.all_in_to))


def _all_in_label(legal: Legal, lang: Language = ENGLISH) -> str:
    return _SIZE_LABELS[_kind(legal), "bet-allin"](lang, legal.all_in_to)


# The bet menu's sizes, smallest first: each amount once, under the first name it has ("min" before "½ pot"), all
# in under its own; a size as large as all in that is not all in is not offered (the all in is).
_SIZES: tuple[tuple[str, Callable[[Legal], int]], ...] = (
    ("bet-min", lambda legal: legal.min_raise_to),
    ("bet-half", lambda legal: legal.pot_fraction_to(Fraction(1, 2))),
    ("bet-three-quarters", lambda legal: legal.pot_fraction_to(Fraction(3, 4))),
    ("pot", lambda legal: legal.pot_raise_to),
    ("bet-allin", lambda legal: legal.max_raise_to if legal.max_raise_to == legal.all_in_to else 0),
)
SizeLabel = Callable[[Language, int], str]
# Each size's label, with the total it bets to, a sentence for each of raise, bet and complete.
_SIZE_LABELS: dict[tuple[str, str], SizeLabel] = {
    ("raise", "bet-min"): lambda lang, amount: say(lang, "Raise to {amount} (min)", amount=amount),
    ("raise", "bet-half"): lambda lang, amount: say(lang, "Raise to {amount} (½ pot)", amount=amount),
    ("raise", "bet-three-quarters"): lambda lang, amount: say(lang, "Raise to {amount} (¾ pot)", amount=amount),
    ("raise", "pot"): lambda lang, amount: say(lang, "Raise to {amount} (pot)", amount=amount),
    ("raise", "bet-allin"): lambda lang, amount: say(lang, "Raise to {amount} (all in)", amount=amount),
    ("bet", "bet-min"): lambda lang, amount: say(lang, "Bet {amount} (min)", amount=amount),
    ("bet", "bet-half"): lambda lang, amount: say(lang, "Bet {amount} (½ pot)", amount=amount),
    ("bet", "bet-three-quarters"): lambda lang, amount: say(lang, "Bet {amount} (¾ pot)", amount=amount),
    ("bet", "pot"): lambda lang, amount: say(lang, "Bet {amount} (pot)", amount=amount),
    ("bet", "bet-allin"): lambda lang, amount: say(lang, "Bet {amount} (all in)", amount=amount),
    ("complete", "bet-min"): lambda lang, amount: say(lang, "Complete to {amount} (min)", amount=amount),
    ("complete", "bet-half"): lambda lang, amount: say(lang, "Complete to {amount} (½ pot)", amount=amount),
    ("complete", "bet-three-quarters"): lambda lang, amount: say(lang, "Complete to {amount} (¾ pot)",
                                                                  amount=amount),
    ("complete", "pot"): lambda lang, amount: say(lang, "Complete to {amount} (pot)", amount=amount),
    ("complete", "bet-allin"): lambda lang, amount: say(lang, "Complete to {amount} (all in)", amount=amount),
}


def menu_sizes(legal: Legal) -> dict[str, int]:
    """The bet menu's sizes now, {name: the total each bets to}, smallest first (none outside pot and no limit)."""
    sizes: dict[str, int] = {}
    if not _menu(legal):
        return sizes
    last = 0
    for name, amount in _SIZES:
        to = amount(legal)
        if to > last and (to != legal.all_in_to or name == "bet-allin"):
            sizes[name] = last = to
    return sizes


def _size(name: str, amount: Callable[[Legal], int]) -> TurnAction:
    """A size of the bet menu, labelled with the total it bets to: "Raise to 28 (¾ pot)"."""
    def to(legal: Legal) -> int:
        return menu_sizes(legal).get(name) or amount(legal)

    def label(legal: Legal, lang: Language = ENGLISH) -> str:
        return _SIZE_LABELS[_kind(legal), name](lang, to(legal))

    return TurnAction(
        name, "betting", offered=lambda legal: name in menu_sizes(legal), label=label,
        style=lambda legal: Style.danger if to(legal) == legal.all_in_to else Style.primary,
        move=lambda legal: BetRaise(to(legal)), on_click=_bet_from_menu, row=MENU_ROW)


def _words(source: Text) -> Label:
    """A label that is always the same words (``source``, worded in the reader's language)."""
    def label(legal: Legal, lang: Language = ENGLISH) -> str:
        return source.worded(lang)

    return label


FOLD = TurnAction(
    "fold", "betting", offered=lambda legal: legal.can_fold and not legal.can_check,  # when staying in costs
    label=_words(Text("Fold")), style=lambda legal: Style.danger, move=lambda legal: Fold(),  # something
    typed=(Typed("fold", _fold),))
BRING_IN = TurnAction(  # stud's third street: the player with the lowest up card (razz: highest) posts it
    "bringin", "betting", offered=lambda legal: legal.can_bring_in, label=_bring_in_label,
    style=lambda legal: Style.success, move=lambda legal: BringIn())  # typed: /poker call (CALL's)
CALL = TurnAction(
    "cc", "betting", offered=lambda legal: not legal.can_bring_in, label=_call_label,
    style=lambda legal: Style.success, move=lambda legal: CheckCall(),
    typed=(Typed("check", _check), Typed("call", _call)))
RAISE = TurnAction(  # fixed limit's bet (or the one amount allowed)
    "min", "betting", offered=lambda legal: legal.can_raise and legal.min_raise_to != legal.all_in_to
    and not _menu(legal), label=lambda legal, lang=ENGLISH: _to_label(legal, legal.min_raise_to, lang),
    style=lambda legal: Style.primary, move=lambda legal: BetRaise(legal.min_raise_to))
MAX = TurnAction(  # fixed limit's larger bet: stud's open pair
    "max", "betting", offered=lambda legal: _raises(legal) and not _menu(legal)
    and legal.max_raise_to != legal.all_in_to, label=lambda legal, lang=ENGLISH: _to_label(
        legal, legal.max_raise_to, lang),
    style=lambda legal: Style.primary, move=lambda legal: BetRaise(legal.max_raise_to))
BETS = TurnAction(  # pot and no limit: the sizes are in the bet menu
    "raise", "betting", offered=_menu, label=_bets_label, style=lambda legal: Style.primary,
    on_click=_open_bet_menu)
ALL_IN = TurnAction(
    "allin", "betting", offered=_all_in_offered, label=_all_in_label,
    style=lambda legal: Style.primary if legal.min_raise_to == legal.all_in_to else Style.danger,
    on_click=_ask_all_in, typed=(Typed("allin", lambda legal, typed: legal.all_in()),))
ALL_IN_SURE = TurnAction(  # the confirmation's button, only the player sees it
    "allinok", "betting", offered=lambda legal: False,
    label=lambda legal, lang=ENGLISH: say(lang, "Yes, all in for {amount}", amount=legal.all_in_to),
    style=lambda legal: Style.danger, move=lambda legal: legal.all_in(), on_click=_all_in, row=0)
AMOUNT = TurnAction(  # the bet menu's last: any other amount, typed in a form
    "amount", "betting", offered=_menu, label=_words(Text("Other amount…")), style=lambda legal: Style.secondary,
    on_click=_open_amount_form, row=MENU_ROW,
    typed=(Typed("bet", _amount, "amount"), Typed("raise", _amount, "amount")))
DRAW = TurnAction(
    "draw", "drawing", offered=_always, label=_words(Text("Draw…")), style=lambda legal: Style.primary,
    on_click=_open_picker, typed=(Typed("draw", _typed_draw, "cards"),))
PAT = TurnAction(
    "pat", "drawing", offered=_always, label=_words(Text("Stand pat")), style=lambda legal: Style.secondary,
    move=lambda legal: Draw(), on_click=_stand_pat, typed=(Typed("pat", lambda legal, typed: Draw()),))

TURN_ACTIONS: tuple[TurnAction, ...] = (FOLD, BRING_IN, CALL, RAISE, MAX, BETS, ALL_IN, DRAW, PAT)  # in order
BET_MENU: tuple[TurnAction, ...] = (*(_size(*size) for size in _SIZES), AMOUNT)  # in order
CLICKABLE = {action.name: action for action in (*TURN_ACTIONS, *BET_MENU, ALL_IN_SURE)}
TYPED: dict[str, tuple[TurnAction, Typed]] = {  # the move commands, in the order /poker lists them
    typed.name: (action, typed) for action in (FOLD, CALL, ALL_IN, AMOUNT, DRAW, PAT) for typed in action.typed}


def _menu_question(legal: Legal, lang: Language) -> str:
    """The bet menu's question: "Raise how much? Pot 15, 10 to call." (a sentence for each of raise, bet and
    complete, with and without a call)."""
    pot = legal.pot_after_call - legal.call_amount
    call = legal.call_amount if legal.call_amount and not legal.can_bring_in else 0
    kind = _kind(legal)
    if kind == "complete":
        return say(lang, "Complete how much? Pot {pot}, {call} to call.", pot=pot, call=call) if call \
            else say(lang, "Complete how much? Pot {pot}.", pot=pot)
    if kind == "bet":
        return say(lang, "Bet how much? Pot {pot}, {call} to call.", pot=pot, call=call) if call \
            else say(lang, "Bet how much? Pot {pot}.", pot=pot)
    return say(lang, "Raise how much? Pot {pot}, {call} to call.", pot=pot, call=call) if call \
        else say(lang, "Raise how much? Pot {pot}.", pot=pot)


def bet_menu(table: int, hand: int, seq: int, legal: Legal, *, lang: Language = ENGLISH
             ) -> tuple[str, discord.ui.View]:
    """The bet menu of table ``table`` for action ``seq`` of ``hand``, in the player's language: its question (the
    pot, the call), and the sizes as buttons, two to a row, then Other amount…."""
    view = dynamic_view()
    offered = [action for action in BET_MENU if action.offered(legal)]
    for i, action in enumerate(offered):
        view.add_item(action.button(table, hand, seq, legal, row=i // MENU_ROW, lang=lang))
    return _menu_question(legal, lang), view


class TurnButton(TableItem[BUTTON], kind="turn", fields=[number("hand"), number("seq"), word("name")]):
    """A turn action's button for one table, hand and action number (it works after a restart). The table and the
    action are found once, from the custom_id (a click on a closed table or on no action of ours is refused before
    its callback); the turn is checked when the action is played."""

    def __init__(self, table: int, hand: int, seq: int, name: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None,
                 runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=row,
                                           custom_id=self.make_id(table, hand, seq, name)))
        self.table, self.hand, self.seq, self.name, self.runner = table, hand, seq, name, runner
        self.known = name in CLICKABLE  # else refused before its callback

    async def clicked(self, reply: Reply) -> None:
        assert self.runner is not None
        await CLICKABLE[self.name].click(Click(self.runner, reply, self.hand, self.seq))




# ------------------------------------------------------------------ the amount form


def _form_label(legal: Legal, lang: Language) -> str:
    kind = _kind(legal)
    if kind == "complete":
        return say(lang, "Complete to (total this round)")
    return say(lang, "Bet (total this round)") if kind == "bet" else say(lang, "Raise to (total this round)")


def amount_form(table: int, hand: int, seq: int, legal: Legal, *, lang: Language) -> discord.ui.Modal:
    """Bet or raise any amount in pot and no limit, in the player's language. The range goes in the label's
    description: a text input's own label is deprecated and holds only 45 characters, too few for big stakes."""
    modal = discord.ui.Modal(title=say(lang, "Bet or raise"), custom_id=f"pk:amount:{table}:{hand}:{seq}")
    amount: discord.ui.TextInput[discord.ui.Modal] = discord.ui.TextInput(
        custom_id=AMOUNT_FIELD, max_length=20, placeholder=str(legal.min_raise_to))
    modal.add_item(discord.ui.Label(
        text=_form_label(legal, lang), component=amount,
        description=say_n(lang, "From {low} to {count} chip", "From {low} to {count} chips",
                          count=legal.max_raise_to, low=legal.min_raise_to)))
    modal.stop()  # not kept by discord.py: its submission is recognised by its custom_id (cogs.table._forms)
    return modal


async def amount_submitted(runner: TableRunner, reply: Reply, hand: int, seq: int, text: str) -> None:
    """The amount form: any bet in pot and no limit (too small or too large: said with the range allowed). Sent
    from the bet menu, the menu becomes the player's cards under the bet made, as a size tapped there does."""
    seen: list[Legal] = []

    def move(legal: Legal) -> Move:
        seen.append(in_phase("betting", legal))
        return BetRaise(parse_amount(text, legal))

    from_menu = _on_private(reply.interaction)
    try:
        played = await play(runner, reply, hand, seq, move, answer=not from_menu)
    except IllegalAction as error:
        raise with_range(error, seen[-1]) from None
    if from_menu:
        await _answered(runner, reply, played)


def parse_amount(text: str, legal: Legal) -> int:
    """The chips a player typed ("1,000" is 1000); the range is the engine's to check."""
    amount = text.strip().replace(",", "").replace("_", "")
    low, high = legal.min_raise_to, legal.max_raise_to
    if not amount:
        raise TableError(Text("Type how many chips to bet to, from {low} to {high}.", low=low, high=high)
                         if legal.is_bet else
                         Text("Type how many chips to raise to, from {low} to {high}.", low=low, high=high))
    if amount.startswith("-") and amount[1:].isascii() and amount[1:].isdigit():
        raise TableError(Text("An amount cannot be negative: give a whole number of chips, from {low} to {high}.",
                              low=low, high=high))
    if not amount.isascii() or not amount.isdigit():
        shown = text.strip()
        shown = shown if len(shown) <= 40 else shown[:40] + "…"
        raise TableError(Text("“{typed}” is not an amount: give a whole number of chips, from {low} to {high}.",
                              typed=shown, low=low, high=high))
    return int(amount) if len(amount.lstrip("0")) <= 16 else legal.max_raise_to + 1  # no 10**4000 here


def with_range(error: IllegalAction, legal: Legal) -> TableError:
    """The engine's refusal of an amount, with the amounts allowed now."""
    reason = reason_of(error)
    if not (legal.can_raise and legal.min_raise_to != legal.max_raise_to):
        return TableError(Sentence(reason))
    low, high = legal.min_raise_to, legal.max_raise_to
    if legal.is_bet:
        return TableError(Text("{refusal}: you can bet to any total from {low} to {high}.",
                               refusal=Sentence(reason, full_stop=False), low=low, high=high))
    return TableError(Text("{refusal}: you can raise to any total from {low} to {high}.",
                           refusal=Sentence(reason, full_stop=False), low=low, high=high))
