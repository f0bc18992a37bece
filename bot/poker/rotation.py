"""The rules of a table over many hands (docs/rules.md sections 1.8, 3.3 and 21).

Pure functions over seat numbers and small values: who is dealt in, where the
button goes, who picks at dealer's choice (per hand or per orbit) and what is
dealt when he does not pick in time, when a player who keeps timing out is sat
out, how many chips a player brings when he does not say, who owns a carried
pot and how it is returned when the night ends. The table layer asks these and
keeps the results; it decides none of them itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..i18n.text import Text
from .events import Carried, Event
from .games import MIN_PLAYERS, STRUCTURES, Game, Structure, get_game

ChoicePer = Literal["hand", "orbit"]
TIMEOUTS_TO_SIT_OUT = 2  # hands in a row in which a player timed out (docs/rules.md section 1.8)
DEFAULT_BUY_INS = (20, 100)  # the smallest and largest buy-in a host did not set, in big blinds (or antes)


class RotationError(ValueError):
    """A choice or a refund the rules do not allow; the message (``args[0]``, a ``Text``) says why."""


@dataclass(frozen=True, slots=True)
class Seat:
    """What the rotation needs to know of a seat."""

    seat_no: int
    user: int
    stack: int
    sitting_out: bool = False
    leaving: bool = False

    @property
    def plays_next(self) -> bool:
        """Dealt the next hand: in, not leaving, with chips."""
        return not self.sitting_out and not self.leaving and self.stack > 0


def dealt_in(seats: Sequence[Seat]) -> list[Seat]:
    """The seats dealt the next hand, by seat number."""
    return sorted((s for s in seats if s.plays_next), key=lambda s: s.seat_no)


def can_deal(seats: Sequence[Seat]) -> bool:
    """At least two players with chips are in."""
    return len(dealt_in(seats)) >= MIN_PLAYERS


def next_button(seats: Sequence[Seat], previous: int | None) -> int | None:
    """The seat number that gets the button for the next hand: the next seat dealt in clockwise
    (higher numbers) from the previous button; the last seat for a table's first hand."""
    numbers = [s.seat_no for s in dealt_in(seats)]
    if not numbers:
        return None
    if previous is None:
        return numbers[-1]
    return next((n for n in numbers if n > previous), numbers[0])


def deal_order(seats: Sequence[Seat], button: int) -> list[Seat]:
    """The seats dealt in, from the first left of the button (engine seat 0) to the button (the last)."""
    playing = dealt_in(seats)
    return [s for s in playing if s.seat_no > button] + [s for s in playing if s.seat_no <= button]


def left_of(seats: Sequence[Seat], seat_no: int) -> int | None:
    """The next seat dealt in clockwise after ``seat_no``."""
    numbers = [s.seat_no for s in dealt_in(seats)]
    if not numbers:
        return None
    return next((n for n in numbers if n > seat_no), numbers[0])


# ------------------------------------------------------------------ dealer's choice


@dataclass(frozen=True, slots=True)
class ChoiceState:
    """Dealer's choice between hands: what was dealt last, and the orbit under way (per orbit)."""

    last_game: str | None = None
    last_structure: Structure | None = None
    orbit_game: str | None = None
    orbit_structure: Structure | None = None
    orbit_left: int = 0  # hands still to deal in the orbit
    orbit_chooser_seat: int | None = None  # who chose the current orbit; the next one is his left neighbour's


def chooser_seat(per: ChoicePer, state: ChoiceState, seats: Sequence[Seat], button: int,
                 games: Sequence[Game]) -> int | None:
    """The seat that must pick before the next deal, or None when no choice is due (an orbit's game is still
    being dealt). Per hand the button picks; per orbit, the seat left of the last orbit's chooser picks once
    the orbit (one hand per player) is over or its game no longer fits the players."""
    if not games:
        return None  # nothing can be dealt: nothing to choose
    if per != "orbit":
        return button
    if state.orbit_left > 0 and state.orbit_game is not None and get_game(state.orbit_game) in games:
        return None
    if state.orbit_chooser_seat is None:
        return button
    return left_of(seats, state.orbit_chooser_seat)


def check_structure(structure: str | None, allowed: bool) -> Structure | None:
    """A structure the dealer picked, if the host lets him (docs/rules.md section 1.8)."""
    if structure is None:
        return None
    if not allowed:
        raise RotationError(Text("The host has not let the dealer pick the structure."))
    if structure not in STRUCTURES:
        raise RotationError(Text("The structure must be one of: {structures}.", structures=", ".join(STRUCTURES)))
    return structure


def after_deal(per: ChoicePer, state: ChoiceState, game: str, structure: Structure | None, players: int,
               chooser: int | None) -> ChoiceState:
    """The state once ``game`` is dealt to ``players``; ``chooser`` is the seat that picked it (None when the
    hand continues an orbit)."""
    state = replace(state, last_game=game, last_structure=structure)
    if per != "orbit":
        return state
    left = state.orbit_left
    chooser_seat_no = state.orbit_chooser_seat
    if chooser is not None:  # a new orbit begins with this choice
        left, chooser_seat_no = players, chooser
    return replace(state, orbit_game=game, orbit_structure=structure, orbit_left=left - 1,
                   orbit_chooser_seat=chooser_seat_no)


def orbit_deal(state: ChoiceState) -> tuple[str | None, Structure | None]:
    """The game (and structure) an orbit under way deals next."""
    return state.orbit_game, state.orbit_structure


def game_on_timeout(state: ChoiceState, games: Sequence[Game],
                    dealer_picks_structure: bool) -> tuple[str, Structure | None]:
    """The chooser did not pick in time: the previous game is dealt again, as it was dealt (docs/rules.md
    section 1.8); the first game offered if the previous one cannot be dealt to these players."""
    if not games:
        raise RotationError(Text("Not enough players to deal."))
    if state.last_game is not None and get_game(state.last_game) in games:
        return state.last_game, state.last_structure if dealer_picks_structure else None
    return games[0].id, None


# ------------------------------------------------------------------ timeouts


def timeouts_after_hand(previous: int, timed_out: bool) -> tuple[int, bool]:
    """A player's count of hands in a row with a timeout after a hand he was dealt, and whether he is now
    sat out (two in a row, docs/rules.md section 1.8)."""
    count = previous + 1 if timed_out else 0
    return count, count >= TIMEOUTS_TO_SIT_OUT


# ------------------------------------------------------------------ buy-ins


def buy_in_range(big_blind: int, ante: int, low: int | None, high: int | None) -> tuple[int, int]:
    """The smallest and largest buy-in: the host's, or 20 and 100 big blinds (antes at a table with none)."""
    unit = big_blind or ante or 1
    return (DEFAULT_BUY_INS[0] * unit if low is None else low, DEFAULT_BUY_INS[1] * unit if high is None else high)


def default_buy_in(balance: int, low: int, high: int) -> int:
    """The chips a player brings when he does not say how many: the most the table allows that his balance
    covers; a ``RotationError`` when his balance does not cover the smallest buy-in."""
    if min(high, balance) < low:
        raise RotationError(Text("The smallest buy-in is {low} chips and you have {balance}.", low=low,
                                 balance=balance))
    return min(high, balance)


def rebuy_room(stack: int, high: int) -> int:
    """The most chips a player may add to ``stack`` between hands: up to the table's largest buy-in."""
    return max(0, high - stack)


# ------------------------------------------------------------------ carried pots


def carried_owners(events: Sequence[Event], users: Sequence[int], before: Mapping[int, int]) -> dict[int, int]:
    """Who owns the chips a finished hand carries to the next deal (they go back to them if the night ends
    first): each member what his seat paid into a carried pot, and the owners of the chips carried into the
    hand what they owned (a hand plays the whole carried pot, so those chips are either won or carried on
    again with its main pot). ``users[seat]`` is the member in each engine seat."""
    owners: dict[int, int] = {}
    for event in events:
        if not isinstance(event, Carried):
            continue
        if event.with_carried_in:
            for user, amount in before.items():
                owners[user] = owners.get(user, 0) + amount
        for seat, amount in enumerate(event.paid_in):
            if amount:
                owners[users[seat]] = owners.get(users[seat], 0) + amount
    return owners


def carried_refunds(carried: int, owners: Mapping[int, int], order: Sequence[int]) -> dict[int, int]:
    """Split ``carried`` chips in proportion to what each owner put in (docs/rules.md section 3.3); remainders one
    chip each to owners in ``order`` (left of the button first), then the rest. With no known owners the chips
    go to the players in ``order`` equally."""
    weights = {u: a for u, a in owners.items() if a > 0} or {u: 1 for u in order}
    if not weights:
        raise RotationError(Text("Nobody is left to return the carried chips to."))
    total = sum(weights.values())
    shares = {u: carried * w // total for u, w in weights.items()}
    rest = carried - sum(shares.values())
    ranked = [u for u in order if u in weights] + sorted(u for u in weights if u not in order)
    for user in ranked:
        if rest == 0:
            break
        shares[user] += 1
        rest -= 1
    return {u: a for u, a in shares.items() if a > 0}


def refund_order(seats: Sequence[Seat], button: int | None) -> list[int]:
    """Members from the first seat left of the button, clockwise (odd chips go first)."""
    ordered = sorted(seats, key=lambda s: s.seat_no)
    at = button or 0
    return [s.user for s in ordered if s.seat_no > at] + [s.user for s in ordered if s.seat_no <= at]
