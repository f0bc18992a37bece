"""The turn's actions are declared once (``cogs.table._turn``): the buttons offered, their labels, styles and
custom_ids, the move of each, and the move commands all come from ``TURN_ACTIONS``; a new button is one entry."""

from __future__ import annotations

import dataclasses

import discord
import pytest

from bot.command_help import COMMAND_HELP
from bot.poker import BetRaise, BringIn, CheckCall, Draw, Fold, Hand, Legal, Stakes
from bot.tables import TableError
from cogs.table import _move_commands, _turn
from cogs.table._turn import TURN_ACTIONS, TYPED, Options, TurnAction

BETTING = Legal(player=0, phase="betting", call_amount=10, can_check=False, can_raise=True, is_bet=False,
                min_raise_to=20, max_raise_to=100, pot_raise_to=35, can_fold=True, all_in_to=100)


def offered(legal: Legal) -> list[tuple[str, str, discord.ButtonStyle, int | None]]:
    buttons = [a.button(7, 41, 3, legal) for a in TURN_ACTIONS if a.phase == legal.phase and a.offered(legal)]
    for button in buttons:
        assert button.item.custom_id == f"pk:turn:7:41:3:{button.name}"
    return [(b.name, str(b.item.label), b.item.style, b.item.row) for b in buttons]


def test_no_limit_facing_a_bet_offers_every_size_and_the_form() -> None:
    primary, danger = discord.ButtonStyle.primary, discord.ButtonStyle.danger
    assert offered(BETTING) == [
        ("fold", "Fold", danger, 1), ("cc", "Call 10", discord.ButtonStyle.success, 1),
        ("min", "Raise to 20", primary, 1), ("pot", "Pot 35", primary, 1), ("allin", "All in 100", danger, 1),
        ("amount", "Amount…", discord.ButtonStyle.secondary, 2)]
    deep = dataclasses.replace(BETTING, all_in_to=500)
    assert [name for name, *_ in offered(deep)] == ["fold", "cc", "min", "pot", "max", "amount"]


def test_a_check_and_a_single_bet_size_in_fixed_limit() -> None:
    fixed = dataclasses.replace(BETTING, call_amount=0, can_check=True, is_bet=True, min_raise_to=20,
                                max_raise_to=20, pot_raise_to=20)
    assert [(name, label) for name, label, *_ in offered(fixed)] == [("cc", "Check"), ("min", "Bet 20")]


def test_a_short_stack_raises_all_in_once_and_is_asked_first() -> None:
    short = dataclasses.replace(BETTING, min_raise_to=30, max_raise_to=30, pot_raise_to=30, all_in_to=30)
    assert offered(short)[-1] == ("allin", "Raise to 30 (all in)", discord.ButtonStyle.primary, 1)
    calling = dataclasses.replace(BETTING, can_raise=False, call_is_all_in=True, call_amount=8)
    assert [(name, label) for name, label, *_ in offered(calling)] == [("fold", "Fold"), ("cc", "Call 8 (all in)")]


def test_a_draw_offers_the_picker_and_stand_pat() -> None:
    drawing = Legal(player=0, phase="drawing", max_discards=5, can_fold=True)
    assert [name for name, *_ in offered(drawing)] == ["draw", "pat"]


def test_each_action_plays_its_move_and_only_at_its_moment() -> None:
    moves = {a.name: a.move_for(BETTING) for a in TURN_ACTIONS if a.move is not None and a.phase == "betting"}
    assert moves == {"fold": Fold(), "bringin": BringIn(), "cc": CheckCall(), "min": BetRaise(20),
                     "pot": BetRaise(35), "max": BetRaise(100)}  # (the bring-in: offered only to who brings in)
    with pytest.raises(TableError, match=r"It is not time to draw: this is a betting round\. Call 10 "
                       r"\(`/poker call`\), raise \(`/poker raise`\) or fold \(`/poker fold`\)\."):
        _turn.PAT.move_for(BETTING)
    drawing = Legal(player=0, phase="drawing", max_discards=5, can_fold=True)
    assert _turn.PAT.move_for(drawing) == Draw()
    with pytest.raises(TableError, match=r"It is time to draw, not to bet\."):
        _turn.FOLD.move_for(drawing)


def test_every_move_command_comes_from_a_declaration() -> None:
    assert list(TYPED) == ["fold", "check", "call", "allin", "bet", "raise", "draw", "pat"]
    assert [c.name for c in _move_commands.COMMANDS] == list(TYPED)
    assert all(f"poker {name}" in COMMAND_HELP for name in TYPED)
    hand = Hand("five-card-draw", Stakes("no-limit", 5, 10), [100, 100, 40], seed=3)
    legal = hand.legal()  # the button, first to act, facing the big blind with 40 chips
    assert TYPED["allin"][1].move(legal, Options()) == BetRaise(40)
    assert TYPED["raise"][1].move(legal, Options(amount="1,000")) == BetRaise(1000)  # its range: the engine's
    with pytest.raises(TableError, match="You cannot check: you face a bet of 10"):
        TYPED["check"][1].move(legal, Options())


def test_a_new_button_is_one_declaration() -> None:
    """A "½ pot" button, declared once: offered, labelled, identified and played from its declaration alone."""
    half = TurnAction("half", "betting", offered=lambda legal: legal.can_raise,
                      label=lambda legal: f"½ pot {legal.min_raise_to}",
                      style=lambda legal: discord.ButtonStyle.primary, move=lambda legal: BetRaise(legal.min_raise_to))
    button = half.button(7, 41, 3, BETTING)
    assert (button.item.custom_id, button.item.label) == ("pk:turn:7:41:3:half", "½ pot 20")
    assert half.move_for(BETTING) == BetRaise(20)


def test_the_first_turn_alert_waits_half_the_clock_and_at_least_15_seconds() -> None:
    from cogs.table._alerts import first_alert_after

    assert first_alert_after(60) == 30 and first_alert_after(120) == 60
    assert first_alert_after(20) == 15 and first_alert_after(5) == 15
