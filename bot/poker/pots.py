"""Side pots, splits and odd chips (docs/rules.md sections 2.1 and 2.6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its chips, the seats that may win it (not folded, paid in to its
    level) and what each seat put into it (carried chips not included)."""

    amount: int
    eligible: tuple[int, ...]
    paid_in: tuple[int, ...] = ()


def build_pots(
    contributed: Sequence[int],
    folded: Sequence[bool],
    carried_in: int = 0,
    dead: Sequence[int] | None = None,
) -> list[Pot]:
    """The main pot and side pots, main pot first, from what each seat put in.

    One pot is formed per distinct amount put in by a seat still in the hand;
    chips folded above the top level join the last pot; carried chips and
    ``dead`` chips (a big-blind ante: part of ``contributed``, but not matched
    by anyone) join the main pot. Adjacent pots with the same eligible seats
    are merged.
    """
    if dead is None or not any(dead):
        return _layer(contributed, folded, carried_in)
    # Dead chips make a pot every seat still in may win, even one all in on his ante.
    in_hand = tuple(i for i in range(len(contributed)) if not folded[i])
    base = Pot(sum(dead) + carried_in, in_hand, tuple(dead))
    pots = _layer([c - d for c, d in zip(contributed, dead, strict=True)], folded, 0)
    if pots and pots[0].eligible == in_hand:
        first = pots.pop(0)
        base = Pot(base.amount + first.amount, in_hand, tuple(a + b for a, b in zip(base.paid_in, first.paid_in)))
    return [base, *pots]


def _layer(contributed: Sequence[int], folded: Sequence[bool], carried_in: int) -> list[Pot]:
    seats = range(len(contributed))
    levels = sorted({contributed[i] for i in seats if not folded[i] and contributed[i] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        paid_in = tuple(min(c, level) - min(c, previous) for c in contributed)
        eligible = tuple(i for i in seats if not folded[i] and contributed[i] >= level)
        if pots and pots[-1].eligible == eligible:
            merged = tuple(a + b for a, b in zip(pots[-1].paid_in, paid_in))
            pots[-1] = Pot(sum(merged), eligible, merged)
        else:
            pots.append(Pot(sum(paid_in), eligible, paid_in))
        previous = level
    above = tuple(max(0, c - previous) for c in contributed)
    if not pots:
        live = tuple(i for i in seats if not folded[i])
        return [Pot(sum(above) + carried_in, live, above)] if sum(above) + carried_in else []
    if any(above):
        last = pots[-1]
        merged = tuple(a + b for a, b in zip(last.paid_in, above))
        pots[-1] = Pot(sum(merged), last.eligible, merged)
    if carried_in:
        pots[0] = Pot(pots[0].amount + carried_in, pots[0].eligible, pots[0].paid_in)
    return pots


def split_pot(amount: int, winners: Sequence[int]) -> list[int]:
    """Shares of ``amount`` for ``winners`` (given in seat order from the first seat left
    of the button): equal shares, one odd chip each to the first winners clockwise."""
    if not winners:
        raise ValueError("a pot needs at least one winner")
    share, odd = divmod(amount, len(winners))
    return [share + (1 if k < odd else 0) for k in range(len(winners))]
