"""The table message's buttons on every turn (``cogs.table._controls``) and the bet menu of pot and no limit
(``cogs.table._turn``): no turn has more than two rows of buttons (the seats', the turn's), a bet or raise in pot
and no limit is Raise… then a size, each size labelled with the total it bets to; fixed limit keeps one button
per amount. Real tables over the test's store, every game at each structure; no Discord."""

from __future__ import annotations

import random

import discord
import pytest

from bot.poker import GAMES, BetRaise, Legal
from bot.store import Store
from bot.tables import Table, TableError, Tables, TableSettings
from cogs.table import _controls, _screen, _turn

CHANNEL, HOST = 55, 500
USERS = (501, 502, 503, 504)


def rows(view: discord.ui.View) -> dict[int, list[str]]:
    """The labels of a view's buttons, by row."""
    shown: dict[int, list[str]] = {}
    for child in view.children:
        item = getattr(child, "item", child)
        shown.setdefault(int(item.row or 0), []).append(str(getattr(item, "label", "")))
    return shown


async def seated(store: Store, channel: int, game: str, structure: str, stacks: tuple[int, ...]) -> Table:
    settings = TableSettings(game, small_blind=1, big_blind=2, structure=structure)  # type: ignore[arg-type]
    table = await Tables(store, random.Random(7)).create(channel, channel, HOST, settings)  # a server each: fresh banks
    for user, stack in zip(USERS, stacks, strict=False):
        await table.join(user, stack)
    return table


@pytest.mark.parametrize("structure", ["fixed-limit", "pot-limit", "no-limit"])
async def test_no_turn_has_more_than_two_rows_of_buttons(store: Store, structure: str) -> None:
    """Every game at every structure, short and deep stacks, random moves: at each turn the table message has the
    seats' row and one row of the turn's buttons (three at most, four for stud's open pair facing a bet); a bet or
    raise of pot and no limit is the one Raise… (Bet…, Complete…) button, with a menu of totals."""
    rng = random.Random(structure)
    turns = menus = 0
    for channel, game in enumerate(GAMES, CHANNEL):
        table = await seated(store, channel, game, structure, (150, 40, 200, 60))
        for _ in range(2):
            try:
                await table.start_hand()
            except TableError:  # players gone broke
                break
            while table.live is not None:
                legal = table.legal()
                assert legal is not None
                shown = rows(_controls.view(table, _screen.Screen()))
                assert set(shown) <= {_controls.SEATS_ROW, _turn.ACTIONS_ROW}, (game, shown)
                turn = shown.get(_turn.ACTIONS_ROW, [])
                assert len(turn) <= 3 or (len(turn) == 4 and structure == "fixed-limit"), (game, turn)
                assert not any(label.startswith(("Pot", "Max", "All in", "Amount")) for label in turn), turn
                turns += 1
                menu = menu_labels(legal)
                if structure == "fixed-limit" or not legal.can_raise or legal.min_raise_to == legal.max_raise_to:
                    assert menu == [] and not any(label.endswith("…") and label != "Draw…" for label in turn)
                else:
                    menus += 1
                    assert any(label in ("Raise…", "Bet…", "Complete…") for label in turn), turn
                    assert menu[-1] == "Other amount…" and 2 <= len(menu) <= 6
                    assert all(label.split(" (")[0].rsplit(" ", 1)[0] in ("Raise to", "Bet", "Complete to")
                               for label in menu[:-1]), menu
                    totals = [int(label.split(" (")[0].rsplit(" ", 1)[1].replace(",", "")) for label in menu[:-1]]
                    assert totals == sorted(set(totals)) and totals[0] == legal.min_raise_to
                    assert all(legal.min_raise_to <= to <= legal.max_raise_to for to in totals)
                moves = legal.moves()
                move = rng.choice(moves)
                if isinstance(move, BetRaise) and rng.random() < 0.5:
                    move = BetRaise(legal.max_raise_to)
                await table.act(table.actor() or 0, move, table.next_seq())
    assert turns > 100 and (menus > 10 or structure == "fixed-limit")


def menu_labels(legal: Legal) -> list[str]:
    """The bet menu's labels, in order (none when the table offers no Raise…)."""
    if not any(action.name == "raise" and action.offered(legal) for action in _turn.TURN_ACTIONS):
        return []
    _, view = _turn.bet_menu(1, 2, 3, legal)
    menu_rows = rows(view)
    assert all(len(row) <= 2 for row in menu_rows.values()), menu_rows  # two to a row, on a phone
    return [label for row in sorted(menu_rows) for label in menu_rows[row]]
