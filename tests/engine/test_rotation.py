"""The rules of a table over many hands that are plain arithmetic: the default buy-in, the room for a rebuy, and
who owns a carried pot (``bot.poker.rotation``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.poker import rotation
from bot.poker.events import Carried, PotAwarded
from bot.poker.rotation import RotationError

ANN, BOB, CAT = 11, 22, 33


def test_a_table_takes_twenty_to_a_hundred_big_blinds_unless_the_host_says_otherwise() -> None:
    assert rotation.buy_in_range(10, 0, None, None) == (200, 1000)
    assert rotation.buy_in_range(0, 5, None, None) == (100, 500)  # antes only: counted in antes
    assert rotation.buy_in_range(10, 0, 50, None) == (50, 1000)
    assert rotation.buy_in_range(10, 2, 50, 5000) == (50, 5000)


def test_the_default_buy_in_is_the_most_the_table_allows_that_the_balance_covers() -> None:
    assert rotation.default_buy_in(5_000, 40, 200) == 200
    assert rotation.default_buy_in(150, 40, 200) == 150
    assert rotation.default_buy_in(40, 40, 200) == 40
    with pytest.raises(RotationError, match="smallest buy-in is 40 chips and you have 39"):
        rotation.default_buy_in(39, 40, 200)


@given(st.integers(0, 10**6), st.integers(1, 1000), st.integers(0, 10**6))
def test_a_default_buy_in_is_always_within_the_range_and_the_balance(balance: int, low: int, extra: int) -> None:
    high = low + extra
    try:
        amount = rotation.default_buy_in(balance, low, high)
    except RotationError:
        assert balance < low
    else:
        assert low <= amount <= high and amount <= balance


def test_a_rebuy_may_fill_the_stack_up_to_the_largest_buy_in() -> None:
    assert rotation.rebuy_room(0, 200) == 200
    assert rotation.rebuy_room(150, 200) == 50
    assert rotation.rebuy_room(260, 200) == 0  # won above the largest buy-in: no room


def test_each_seat_owns_what_it_paid_into_a_carried_pot() -> None:
    events = [Carried(pot=0, amount=30, paid_in=(10, 10, 10))]
    assert rotation.carried_owners(events, (ANN, BOB, CAT), {}) == {ANN: 10, BOB: 10, CAT: 10}


def test_chips_carried_in_and_carried_on_keep_their_owners() -> None:
    events = [Carried(pot=0, amount=50, paid_in=(10, 10, 0), with_carried_in=True),
              Carried(pot=1, amount=8, paid_in=(4, 4, 0))]
    owners = rotation.carried_owners(events, (ANN, BOB, CAT), {ANN: 20, CAT: 10})
    assert owners == {ANN: 34, BOB: 14, CAT: 10}
    assert sum(owners.values()) == 50 + 8


def test_a_carried_pot_that_is_won_has_no_owners_left() -> None:
    won = [PotAwarded(pot=0, amount=40, winners=(1,), shares=(40,), uncontested=False)]
    assert rotation.carried_owners(won, (ANN, BOB), {ANN: 20}) == {}
