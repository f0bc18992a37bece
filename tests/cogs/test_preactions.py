"""The pre-actions' rule (issue 33): what a choice made ahead plays when the player's turn comes, asked of his
``Legal``; None when it no longer fits (he acts himself)."""

from __future__ import annotations

from bot.poker import CheckCall, Fold, Legal
from cogs.table._preactions import PreAction, PreActions, move_for

HAND, ROUND = 7, 1
CHECKED_TO = Legal(0, "betting", call_amount=0, can_check=True, can_fold=True, call_to=0)
FACING_10 = Legal(0, "betting", call_amount=10, can_check=False, can_fold=True, call_to=10)
FACING_40 = Legal(0, "betting", call_amount=40, can_check=False, can_fold=True, call_to=40)
DRAWING = Legal(0, "drawing", can_fold=True)
BRINGING_IN = Legal(0, "betting", call_amount=0, can_check=False, can_fold=False, can_bring_in=True)


def pre(kind: str, call_to: int = 0, hand: int = HAND, round_: int = ROUND) -> PreAction:
    return PreAction(kind, hand, round_, call_to)  # type: ignore[arg-type]


def test_check_fold_checks_when_it_can_and_folds_to_a_bet() -> None:
    assert move_for(pre("checkfold"), CHECKED_TO, HAND, ROUND) == CheckCall()
    assert move_for(pre("checkfold"), FACING_10, HAND, ROUND) == Fold()


def test_check_only_checks() -> None:
    assert move_for(pre("check"), CHECKED_TO, HAND, ROUND) == CheckCall()
    assert move_for(pre("check"), FACING_10, HAND, ROUND) is None


def test_call_this_amount_is_cancelled_by_a_raise() -> None:
    assert move_for(pre("call", 10), FACING_10, HAND, ROUND) == CheckCall()
    assert move_for(pre("call", 10), FACING_40, HAND, ROUND) is None
    assert move_for(pre("call", 10), CHECKED_TO, HAND, ROUND) == CheckCall()  # (a check costs nothing)


def test_call_any_calls_whatever() -> None:
    for legal in (CHECKED_TO, FACING_10, FACING_40):
        assert move_for(pre("callany"), legal, HAND, ROUND) == CheckCall()


def test_void_in_another_round_or_hand_in_a_draw_or_at_a_bring_in() -> None:
    for kind in ("checkfold", "check", "call", "callany"):
        chosen = pre(kind, 10)
        assert move_for(chosen, FACING_10, HAND, ROUND + 1) is None
        assert move_for(chosen, FACING_10, HAND + 1, ROUND) is None
        assert move_for(chosen, DRAWING, HAND, ROUND) is None
        assert move_for(chosen, BRINGING_IN, HAND, ROUND) is None


def test_held_per_player_toggled_taken_once_and_cleared() -> None:
    held = PreActions()
    assert held.toggle(1, pre("checkfold")) == pre("checkfold")
    assert held.toggle(1, pre("callany")) == pre("callany")  # another choice replaces it
    assert held.get(1, HAND, ROUND) == pre("callany")
    assert held.get(1, HAND, ROUND + 1) is None  # an earlier round's counts for nothing
    assert held.toggle(1, pre("callany")) is None  # tapped again: cleared
    assert held.get(1, HAND, ROUND) is None
    held.toggle(1, pre("check"))
    held.toggle(2, pre("check"))
    assert held.take(1) == pre("check") and held.take(1) is None
    held.clear()
    assert held.get(2, HAND, ROUND) is None
