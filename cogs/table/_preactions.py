"""Pre-actions: what a player chooses on his private message while others act (Check/Fold, Check, Call this
amount, Call any), played for him when his turn comes if the situation still fits.

A choice holds for one betting round, the one it was made in or, chosen in a draw game once he has drawn, the
round after the draw (a new street, a new hand, voids it: one made before a draw does not outlast it), and is used
once: at his turn it is played as his move (through ``Table.act``, so the table shows it as any move), or, when
it no longer fits, dropped and he acts himself. Whether it fits is asked of the engine's ``Legal`` at his turn
(``move_for``); the buttons offered while he waits (``view``) only read the hand to label them.

Pure state and rules here; the buttons' clicks are ``cogs.table._preaction_taps``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import discord

from bot.i18n import ENGLISH, Language, say
from bot.poker import CheckCall, Fold, Hand, Legal, Move

from ..views import dynamic_view

Kind = Literal["checkfold", "check", "call", "callany"]
KINDS: tuple[Kind, ...] = ("checkfold", "check", "call", "callany")
ROW = 0


@dataclass(frozen=True, slots=True)
class PreAction:
    """A player's choice made ahead of his turn, for betting round ``round`` of hand ``hand`` (its id);
    ``call_to``: for Call (this amount), the bet to match when he chose it (a raise changes it)."""

    kind: Kind
    hand: int
    round: int
    call_to: int = 0


def move_for(chosen: PreAction, legal: Legal, hand: int, round_: int) -> Move | None:
    """The move ``chosen`` makes now that the player is to act (``legal``, in round ``round_`` of hand ``hand``),
    or None when it no longer fits (nothing is done: he acts himself)."""
    if legal.phase != "betting" or legal.can_bring_in or (hand, round_) != (chosen.hand, chosen.round):
        return None
    if chosen.kind == "checkfold":
        if legal.can_check:
            return CheckCall()
        return Fold() if legal.can_fold else None
    if chosen.kind == "check":
        return CheckCall() if legal.can_check else None
    if chosen.kind == "call":
        return CheckCall() if legal.can_check or legal.call_to == chosen.call_to else None
    return CheckCall()  # Call any: whatever it costs (or a check)


class PreActions:
    """The choices held at one table, one per player at most."""

    def __init__(self) -> None:
        self._by_user: dict[int, PreAction] = {}

    def get(self, user: int, hand: int, round_: int) -> PreAction | None:
        """``user``'s choice for round ``round_`` of hand ``hand`` (one of an earlier round counts for nothing)."""
        chosen = self._by_user.get(user)
        return chosen if chosen is not None and (chosen.hand, chosen.round) == (hand, round_) else None

    def toggle(self, user: int, chosen: PreAction) -> PreAction | None:
        """``user`` tapped ``chosen``: it is his choice now, or, tapped again, none is; what he holds after."""
        held = self._by_user.get(user)
        if held == chosen:
            del self._by_user[user]
            return None
        self._by_user[user] = chosen
        return chosen

    def take(self, user: int) -> PreAction | None:
        """``user``'s choice, forgotten here: his turn has come, it is played or dropped."""
        return self._by_user.pop(user, None)

    def clear(self) -> None:
        """A new hand: every choice goes."""
        self._by_user.clear()


def to_call(hand: Hand, seat: int) -> int:
    """What a call would cost ``seat`` as the hand stands (a label only: at his turn ``Legal`` decides); nothing
    during a draw (the betting after it starts from nothing)."""
    if hand.phase != "betting":
        return 0
    return max(0, min(hand.high_bet - hand.bets[seat], hand.stacks[seat]))


def betting_round(hand: Hand) -> int:
    """The betting round a choice made now is for: the one under way, or during a draw the one after it."""
    return hand.round + 1 if hand.phase == "drawing" else hand.round


def waiting(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` may choose ahead now: still in with chips behind, and either in a betting round whose turn
    is not his, or in a draw that he has made (the betting comes next)."""
    if hand.actor is None or hand.actor == seat or hand.folded[seat] or hand.stacks[seat] <= 0:
        return False
    if hand.phase == "drawing":
        return len(hand.drawn[seat]) > hand.draw_number
    return hand.phase == "betting"


def custom_id(table: int, hand: int, kind: Kind, call_to: int = 0) -> str:
    """A pre-action button's custom_id: ``pk:pre:TABLE:HAND:KIND:CALL_TO``."""
    return f"pk:pre:{table}:{hand}:{kind}:{call_to}"


def view(table: int, hand_id: int, hand: Hand, seat: int, chosen: PreAction | None, *, lang: Language = ENGLISH
         ) -> discord.ui.View | None:
    """The buttons of a player waiting for his turn (None when he may not choose ahead now), in his language:
    Check/Fold, Check or Call N (what he faces now), Call any; the one chosen is marked."""
    if not waiting(hand, seat):
        return None
    owed = to_call(hand, seat)
    offered: list[tuple[Kind, str, int]] = [("checkfold", say(lang, "Check/Fold"), 0)]
    offered.append(("call", say(lang, "Call {amount}", amount=owed), hand.high_bet) if owed
                   else ("check", say(lang, "Check"), 0))
    offered.append(("callany", say(lang, "Call any"), 0))
    shown = dynamic_view()
    for kind, label, call_to in offered:
        mine = chosen is not None and (chosen.kind, chosen.call_to) == (kind, call_to)
        shown.add_item(discord.ui.Button(
            label=f"✓ {label}" if mine else label, row=ROW, custom_id=custom_id(table, hand_id, kind, call_to),
            style=discord.ButtonStyle.success if mine else discord.ButtonStyle.secondary))
    return shown
