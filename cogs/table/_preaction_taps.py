"""The pre-action buttons of a player's private message (``cogs.table._preactions``): a tap chooses, or tapped
again clears, what is played for him when his turn comes, and is answered by editing that message (his cards, the
buttons as they are now, the one chosen marked)."""

from __future__ import annotations

from typing import cast

import discord

from bot.tables import TableError
from cogs.render import chips

from ..reply import Reply
from ._items import TableItem, number, word
from ._preactions import KINDS, Kind, PreAction, betting_round, to_call, waiting
from ._runner import TableRunner

BUTTON = discord.ui.Button[discord.ui.View]
WORDS: dict[Kind, str] = {"checkfold": "check, or fold to a bet", "check": "check (if there is a bet, you choose)",
                          "call": "call {amount} (a raise clears it)", "callany": "call any bet"}
BET_CHANGED = "The bet changed: choose again."


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
        runner, user = self.runner, reply.user
        note = choose(runner, user, self.hand, cast(Kind, self.kind), self.call_to)
        fields = runner.private.fields(user, note) or {"content": note}
        await reply.update(view=runner.own_cards.preaction_view(user), **fields)


def choose(runner: TableRunner, user: int, hand_id: int, kind: Kind, call_to: int) -> str:
    """``user`` tapped the pre-action ``kind`` (Call: the bet it matched when shown) in hand ``hand_id``: it is his
    choice, or cleared if it was; what to tell him. ``TableError`` when he may not choose ahead now."""
    live, seat = runner.table.live, runner.table.engine_seat(user)
    if live is None or live.record.id != hand_id:
        raise TableError("That hand is over.")
    hand = live.hand
    if seat is None or hand.folded[seat]:
        raise TableError("You are not in this hand.")
    if hand.actor == seat:
        raise TableError("It is your turn: act on the table.")
    if not waiting(hand, seat):
        raise TableError("Pre-actions are for the betting: choose once it starts.")
    if kind == "call" and (call_to != hand.high_bet or hand.phase != "betting"):
        return BET_CHANGED
    chosen = runner.preactions.toggle(
        user, PreAction(kind, live.record.id, betting_round(hand), call_to if kind == "call" else 0))
    if chosen is None:
        return "Pre-action cleared."
    return "When your turn comes: " + WORDS[kind].format(amount=chips(to_call(hand, seat))) + "."
