"""The turn's actions are declared once (``cogs.table._turn``): the buttons offered, their labels, styles and
custom_ids, the move of each, and the move commands all come from ``TURN_ACTIONS``; a new button is one entry."""

from __future__ import annotations

import dataclasses

import discord
import pytest

from bot.content.command_help import COMMAND_HELP
from bot.poker import BetRaise, BringIn, CheckCall, Draw, Fold, Hand, Legal, Stakes
from bot.tables import TableError
from cogs.table import _move_commands, _turn
from cogs.table._turn import TURN_ACTIONS, TYPED, Options, TurnAction

BETTING = Legal(player=0, phase="betting", call_amount=10, can_check=False, can_raise=True, is_bet=False,
                min_raise_to=20, max_raise_to=100, pot_raise_to=35, can_fold=True, all_in_to=100, any_amount=True,
                call_to=10, pot_after_call=25)


def offered(legal: Legal) -> list[tuple[str, str, discord.ButtonStyle, int | None]]:
    buttons = [a.button(7, 41, 3, legal) for a in TURN_ACTIONS if a.phase == legal.phase and a.offered(legal)]
    for button in buttons:
        assert button.item.custom_id == f"pk:turn:7:41:3:{button.name}"
    return [(b.name, str(b.item.label), b.item.style, b.item.row) for b in buttons]


def menu(legal: Legal) -> list[tuple[str, str, discord.ButtonStyle, int | None]]:
    """The bet menu's buttons: (name, label, style, row)."""
    _, view = _turn.bet_menu(7, 41, 3, legal)
    buttons = [item for item in view.children if isinstance(item, _turn.TurnButton)]
    assert len(buttons) == len(view.children)
    for button in buttons:
        assert button.item.custom_id == f"pk:turn:7:41:3:{button.name}"
    return [(b.name, str(b.item.label), b.item.style, b.item.row) for b in buttons]


def test_no_limit_facing_a_bet_offers_one_raise_button_and_its_menu() -> None:
    primary, danger, secondary = discord.ButtonStyle.primary, discord.ButtonStyle.danger, discord.ButtonStyle.secondary
    assert offered(BETTING) == [
        ("fold", "Fold", danger, 1), ("cc", "Call 10", discord.ButtonStyle.success, 1), ("raise", "Raise…", primary, 1)]
    assert menu(BETTING) == [
        ("bet-min", "Raise to 20 (min)", primary, 0), ("bet-half", "Raise to 22 (½ pot)", primary, 0),
        ("bet-three-quarters", "Raise to 28 (¾ pot)", primary, 1), ("pot", "Raise to 35 (pot)", primary, 1),
        ("bet-allin", "Raise to 100 (all in)", danger, 2), ("amount", "Other amount…", secondary, 2)]
    question, _ = _turn.bet_menu(7, 41, 3, BETTING)
    assert question == "Raise how much? Pot 15, 10 to call."
    moves = {a.name: a.move_for(BETTING) for a in _turn.BET_MENU if a.move is not None}
    assert moves == {"bet-min": BetRaise(20), "bet-half": BetRaise(22), "bet-three-quarters": BetRaise(28),
                     "pot": BetRaise(35), "bet-allin": BetRaise(100)}


def test_the_menu_names_each_amount_once_and_says_the_total() -> None:
    checked = dataclasses.replace(BETTING, call_amount=0, can_check=True, is_bet=True, call_to=0, min_raise_to=10,
                                  pot_after_call=30, pot_raise_to=30, max_raise_to=1000, all_in_to=1000)
    assert [label for _, label, *_ in offered(checked)] == ["Check", "Bet…"]
    assert [label for _, label, *_ in menu(checked)] == [
        "Bet 10 (min)", "Bet 15 (½ pot)", "Bet 22 (¾ pot)", "Bet 30 (pot)", "Bet 1,000 (all in)", "Other amount…"]
    assert _turn.bet_menu(7, 41, 3, checked)[0] == "Bet how much? Pot 30."
    small_pot = dataclasses.replace(BETTING, pot_after_call=18, pot_raise_to=28)  # ½ pot is less than a raise
    assert [name for name, *_ in menu(small_pot)] == ["bet-min", "bet-three-quarters", "pot", "bet-allin", "amount"]
    short = dataclasses.replace(BETTING, all_in_to=30, max_raise_to=30, pot_raise_to=30)  # pot: all in
    assert [label for _, label, *_ in menu(short)] == [
        "Raise to 20 (min)", "Raise to 22 (½ pot)", "Raise to 28 (¾ pot)", "Raise to 30 (all in)", "Other amount…"]
    for legal in (BETTING, checked, small_pot, short):
        assert not any(label.startswith(("Pot", "Max", "All in")) for _, label, *_ in menu(legal) + offered(legal))


def test_pot_limit_menu_tops_at_the_pot() -> None:
    pot_limit = dataclasses.replace(BETTING, max_raise_to=35, all_in_to=500)
    assert [label for _, label, *_ in menu(pot_limit)] == [
        "Raise to 20 (min)", "Raise to 22 (½ pot)", "Raise to 28 (¾ pot)", "Raise to 35 (pot)", "Other amount…"]
    assert [name for name, *_ in offered(pot_limit)] == ["fold", "cc", "raise"]
    one_size = dataclasses.replace(pot_limit, max_raise_to=20, pot_raise_to=20)  # the pot is the smallest raise
    assert [(name, label) for name, label, *_ in offered(one_size)] == [
        ("fold", "Fold"), ("cc", "Call 10"), ("min", "Raise to 20")]


def test_a_check_and_a_single_bet_size_in_fixed_limit() -> None:
    fixed = dataclasses.replace(BETTING, call_amount=0, can_check=True, is_bet=True, min_raise_to=20,
                                max_raise_to=20, pot_raise_to=20, any_amount=False)
    assert [(name, label) for name, label, *_ in offered(fixed)] == [("cc", "Check"), ("min", "Bet 20")]
    open_pair = dataclasses.replace(BETTING, min_raise_to=10, max_raise_to=15, pot_raise_to=15, any_amount=False)
    assert [(name, label) for name, label, *_ in offered(open_pair)] == [
        ("fold", "Fold"), ("cc", "Call 10"), ("min", "Raise to 10"), ("max", "Raise to 15")]  # stud's open pair
    assert menu(fixed) == menu(open_pair) == []


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
                     "max": BetRaise(100)}  # (the bring-in: offered only to who brings in)
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
