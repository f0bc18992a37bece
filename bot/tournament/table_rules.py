"""A tournament's rules at the table, where the table conventions of a cash game do not fit: pure, every time
passed in.

- **Absent players are blinded off.** A player sitting out is still dealt in (his blinds and antes are posted)
  and the table acts for him at once (check or fold, stand pat), so that a tournament always ends.
- **A broke player's rebuy.** A player who goes broke during the rebuy levels may rebuy until the end of the
  next hand dealt without him (the core settles the busts then, ``Tournament.settle_busts``); when the table
  cannot deal without him (heads-up) it waits :data:`REBUY_WAIT` seconds for him.
- **A dead carried pot is returned.** An Assassin pot carried when fewer than two players are left with chips
  (or when every player of the hand put all his chips in it) can never be played: it goes back to those who
  put it in, as the carried chips of a night that ends are (``bot.poker.rotation.carried_refunds``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.poker.rotation import Seat, carried_refunds

__all__ = ["REBUY_WAIT", "acts_for", "carried_pot_is_dead", "dead_pot_refunds", "dealt_seat", "rebuy_wait_ends"]

REBUY_WAIT = 60.0  # seconds a broke player has to rebuy when the table cannot deal without him


def dealt_seat(seat: Seat) -> Seat:
    """A seat as the deal sees it in a tournament: a player sitting out is dealt in all the same."""
    return replace(seat, sitting_out=False) if seat.sitting_out else seat


def acts_for(sitting_out: bool) -> bool:
    """Whether the table makes the move of a player at his turn at once: when he is sitting out (blinded off)."""
    return sitting_out


def rebuy_wait_ends(awaiting_rebuy: bool, can_deal: bool, broke_at: float, now: float) -> float | None:
    """When the table stops waiting for a broke player to rebuy (``now`` or later), or None when it does not
    wait: nobody may rebuy, or the table can deal without the broke players."""
    if not awaiting_rebuy or can_deal:
        return None
    return max(now, broke_at + REBUY_WAIT)


def carried_pot_is_dead(stacks: Mapping[int, int], hand_stacks: Sequence[int]) -> bool:
    """Whether a pot a hand carries can never be played: fewer than two seated players (``stacks``: each one's
    chips after the hand) have chips for the next deal, or every player of the hand (``hand_stacks``: their
    stacks after it) put all his chips in it."""
    return sum(1 for chips in stacks.values() if chips > 0) < 2 or not any(hand_stacks)


def dead_pot_refunds(carried: int, owners: Mapping[int, int], users: Sequence[int],
                     order: Sequence[int]) -> dict[int, int]:
    """A dead carried pot back to the hand's players (``users``) who put it in, in proportion (odd chips in
    ``order``, from the first seat left of the button); with no known owner among them, to the hand's players
    equally. {member: chips}."""
    mine = {u: a for u, a in owners.items() if u in users and a > 0}
    return carried_refunds(carried, mine, [u for u in order if u in users])
