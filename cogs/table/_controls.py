"""The table message's components as a pure function of the table's state: the buttons of the player to act (or
the dealer's-choice chooser's Pick the game…) and the seat buttons, each from its declaration (``cogs.table._turn``,
``cogs.table._seats``, ``cogs.table._choice``).

In the order Discord shows them, for a phone: one short row of seat buttons on top, the turn's buttons in one row
under it (nearest the thumb): Fold, Call, Raise to 20 in fixed limit; Fold, Call, Raise… in pot and no limit, whose
sizes are in the bet menu the player opens (``cogs.table._turn``); so no turn has more than two rows of buttons.
Between hands, Pick the game… in their place when the table waits for the dealer's choice (his menu is his private
message): wherever the table message says who picks, the finished hand's page too.
"""

from __future__ import annotations

import discord

from bot.tables import Table

from ..views import dynamic_view
from . import _choice
from ._screen import Screen
from ._seats import SEAT_ACTIONS
from ._turn import ACTIONS_ROW, TURN_ACTIONS

SEATS_ROW = 0  # the seat buttons: on top


def view(table: Table, screen: Screen) -> discord.ui.View:
    """The buttons: the seat buttons, and the player to act's (or the dealer's-choice chooser's), labelled in the
    table's language (``screen.language``): everyone reads them."""
    lang = screen.language
    result = dynamic_view()
    live = table.live
    for seat_action in SEAT_ACTIONS:
        if seat_action.offered(table):
            result.add_item(seat_action.button(table.id, SEATS_ROW, lang=lang))
    if live is None:
        for item in _choice.menu(table, screen, lang=lang):
            result.add_item(item)
        return result
    legal = table.legal()
    if legal is not None:
        for action in TURN_ACTIONS:
            if action.phase == legal.phase and action.offered(legal):
                result.add_item(action.button(table.id, live.record.id, live.seq, legal, row=ACTIONS_ROW, lang=lang))
    return result
