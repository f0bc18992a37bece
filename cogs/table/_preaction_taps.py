"""The pre-action buttons of a player's private message (``cogs.table._preactions``): a tap chooses, or tapped
again clears, what is played for him when his turn comes, and is answered by editing that message (his cards, the
buttons as they are now, the one chosen marked)."""

from __future__ import annotations

from typing import cast

import discord

from bot.i18n import Language, Text, say
from bot.tables import TableError

from ..reply import Reply
from ._items import TableItem, number, word
from ._preactions import KINDS, Kind, PreAction, betting_round, to_call, waiting
from ._runner import TableRunner

BUTTON = discord.ui.Button[discord.ui.View]
BET_CHANGED = Text("The bet changed: choose again.")


class PreActionButton(TableItem[BUTTON], kind="pre",
                      fields=[number("hand"), word("kind", "[a-z]+"), number("call_to")]):
    """A pre-action's button, for one table and hand (it works after a restart; the choices themselves are kept in
    memory only)."""

    def __init__(self, table: int, hand: int, kind: str, call_to: int, runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=self.make_id(table, hand, kind, call_to)))
        self.hand, self.kind, self.call_to, self.runner = hand, kind, call_to, runner
        self.known = kind in KINDS

    async def clicked(self, reply: Reply) -> None:
        assert self.runner is not None
        runner, user, lang = self.runner, reply.user, reply.language
        note = choose(runner, user, self.hand, cast(Kind, self.kind), self.call_to, lang=lang)
        fields = runner.private.fields(user, note, lang=lang) or {"content": note}
        await reply.update(view=runner.own_cards.preaction_view(user, lang=lang), **fields)


def choose(runner: TableRunner, user: int, hand_id: int, kind: Kind, call_to: int, *, lang: Language) -> str:
    """``user`` tapped the pre-action ``kind`` (Call: the bet it matched when shown) in hand ``hand_id``: it is his
    choice, or cleared if it was; what to tell him, in ``lang``. ``TableError`` when he may not choose ahead now."""
    live, seat = runner.table.live, runner.table.engine_seat(user)
    if live is None or live.record.id != hand_id:
        raise TableError(Text("That hand is over."))
    hand = live.hand
    if seat is None or hand.folded[seat]:
        raise TableError(Text("You are not in this hand."))
    if hand.actor == seat:
        raise TableError(Text("It is your turn: act on the table."))
    if not waiting(hand, seat):
        raise TableError(Text("Pre-actions are for the betting: choose once it starts."))
    if kind == "call" and (call_to != hand.high_bet or hand.phase != "betting"):
        return BET_CHANGED.worded(lang)
    chosen = runner.preactions.toggle(
        user, PreAction(kind, live.record.id, betting_round(hand), call_to if kind == "call" else 0))
    if chosen is None:
        return say(lang, "Pre-action cleared.")
    return _chosen_words(kind, to_call(hand, seat), lang)


def _chosen_words(kind: Kind, amount: int, lang: Language) -> str:
    """What a pre-action chosen does when his turn comes: ``When your turn comes: call 20 (a raise clears it).``"""
    if kind == "checkfold":
        return say(lang, "When your turn comes: check, or fold to a bet.")
    if kind == "check":
        return say(lang, "When your turn comes: check (if there is a bet, you choose).")
    if kind == "call":
        return say(lang, "When your turn comes: call {amount} (a raise clears it).", amount=amount)
    return say(lang, "When your turn comes: call any bet.")
