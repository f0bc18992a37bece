"""The host's chip value: parsing, exact conversion to the cent, and what a settle-up shows in money."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.night.money import ChipValue, money, money_nets, money_settle
from bot.night.settle import settle

from .hands import night

chip_values = st.builds(
    ChipValue, st.integers(1, 10_000), st.integers(1, 100_000), st.sampled_from(["", "$", "€", "EUR", "US$"]),
    st.booleans(),
)


def zero_sum_nets(values: list[int]) -> dict[int, int]:
    nets = {1 + k: v for k, v in enumerate(values)}
    nets[len(values) + 1] = -sum(values)
    return nets


# ---------------------------------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(("text", "expected"), [
    ("100=1.00", ChipValue(100, 100)),
    ("100 chips = $1", ChipValue(100, 100, "$")),
    ("1 = 0.05€", ChipValue(1, 5, "€", symbol_after=True)),
    ("1 chip = £.5", ChipValue(1, 50, "£")),
    ("1,000 Chips = 5 EUR", ChipValue(1000, 500, "EUR", symbol_after=True)),
    ("1 000 chips = US$2.5", ChipValue(1000, 250, "US$")),
    ("  3 = 0,10 ", ChipValue(3, 10)),
    ("500 = $1,250", ChipValue(500, 125_000, "$")),
])
def test_a_chip_value_is_read_from_what_a_host_types(text: str, expected: ChipValue) -> None:
    assert ChipValue.parse(text) == expected


@pytest.mark.parametrize(("text", "says"), [
    ("100", "write the chip value like"),
    ("100 = 1 = 2", "write the chip value like"),
    ("lots = $1", "is not a number of chips"),
    ("0 = $1", "chips above zero"),
    ("100 = $0.00", "worth something"),
    ("100 = $", "not an amount of money"),
    ("100 = $1€", "two currency symbols"),
    ("100 = dollars 1", "not a currency symbol"),
    ("1 = 0.005", r"counted to the cent: write more chips instead, e.g. 10 = 0.05"),
    ("100 = 1.000", "thousands or decimals: write 1000 or 1.00"),
    ("100 = 1.2.3", "not an amount of money"),
])
def test_a_chip_value_that_cannot_be_read_gets_a_friendly_answer(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        ChipValue.parse(text)


@pytest.mark.parametrize("args", [(0, 100), (100, 0), (-1, 100), (True, 100), (100, 100, "1$"), (100, 100, "EURO$")])
def test_a_chip_value_is_checked_when_built(args: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        ChipValue(*args)  # type: ignore[arg-type]


@given(chip_values)
def test_a_chip_value_reads_back_from_its_own_text(value: ChipValue) -> None:
    assert ChipValue.parse(str(value)) == value


# ------------------------------------------------------------------------------------------------- formatting


@pytest.mark.parametrize(("value", "chips", "shown"), [
    (ChipValue(100, 100, "$"), 12_345, "$123.45"),
    (ChipValue(100, 100, "$"), -5, "-$0.05"),
    (ChipValue(1, 5, "€", True), 20, "1.00€"),
    (ChipValue(1000, 500, "EUR", True), 12_345, "61.73 EUR"),  # 61.725: half away from zero
    (ChipValue(1000, 500, "EUR", True), -12_345, "-61.73 EUR"),
    (ChipValue(1000, 500, "EUR"), 12_344, "EUR 61.72"),
    (ChipValue(3, 10), 1, "0.03"),  # 3.33 cents
    (ChipValue(3, 10), 2, "0.07"),  # 6.67 cents
    (ChipValue(100, 1), 4_000_000_001, "400,000.00"),
])
def test_chips_are_shown_as_money_to_the_cent(value: ChipValue, chips: int, shown: str) -> None:
    assert money(chips, value) == shown


def test_a_gain_can_be_shown_with_its_sign() -> None:
    value = ChipValue(100, 100, "$")
    assert [money(c, value, sign=True) for c in (250, -250, 0)] == ["+$2.50", "-$2.50", "$0.00"]


@given(chip_values, st.integers(-10**15, 10**15))
def test_cents_round_half_away_from_zero_exactly(value: ChipValue, chips: int) -> None:
    exact = Fraction(chips * value.money_cents, value.chips)
    whole, part = divmod(abs(exact), 1)
    expected = int(whole) + (1 if part >= Fraction(1, 2) else 0)
    assert value.cents(chips) == (expected if exact >= 0 else -expected)


# ------------------------------------------------------------------------------------------ a settle-up in money


def assert_one_rounding(nets: dict[int, int], value: ChipValue) -> dict[int, int]:
    """The night's one rounding rule: every answer's money net is the same, the nets add up to zero, the payments
    add up to the nets exactly, and each net and each payment is one of the two cents around its exact value."""
    payments = settle(nets)
    cents, paid = money_settle(payments, value)
    shown = money_nets(nets, value)
    assert set(shown) == set(nets) and all(shown[user] == cents.get(user, 0) for user in nets)
    assert sum(shown.values()) == 0
    received: dict[int, int] = {}
    for payment, amount in zip(payments, paid, strict=True):
        received[payment.payee] = received.get(payment.payee, 0) + amount
        received[payment.payer] = received.get(payment.payer, 0) - amount
        assert abs(amount - Fraction(payment.amount * value.money_cents, value.chips)) < 1
        assert amount >= 0
    assert {user: received.get(user, 0) for user in nets} == shown
    for user, net in nets.items():
        assert abs(shown[user] - Fraction(net * value.money_cents, value.chips)) < 1
    return shown


@given(chip_values, st.lists(st.integers(-10**6, 10**6), max_size=12).map(zero_sum_nets))
def test_one_rounding_rule_the_nets_add_up_to_zero_and_the_payments_to_the_nets(
    value: ChipValue, nets: dict[int, int],
) -> None:
    assert_one_rounding(nets, value)


@settings(max_examples=60, deadline=None)
@given(chip_values, st.integers(0, 10**6), st.integers(1, 25), st.sampled_from(["five-card-draw", "assassin",
                                                                                  "triple-draw-27", "badugi"]))
def test_one_rounding_rule_over_random_nights(value: ChipValue, seed: int, hands: int, game: str) -> None:
    users = [101, 102, 103, 104, 105][: 2 + seed % 4]
    nets = dict.fromkeys(users, 0)
    played = night(random.Random(seed), hands, users, game=game, buy_in=40)
    for hand in played:
        assert hand.stacks_after is not None
        for user, before, after in zip(hand.seat_users, hand.stacks_before, hand.stacks_after):
            nets[user] += after - before
    carried = played[-1].carried_out
    nets[users[0]] += carried  # chips still carried count as returned (here all to one player)
    assert_one_rounding(nets, value)


@given(st.integers(1, 1000), st.integers(1, 50), st.lists(st.integers(-10**6, 10**6), max_size=12).map(zero_sum_nets))
def test_when_a_chip_is_a_whole_number_of_cents_nothing_is_rounded(
    chips: int, cents_per_chip: int, nets: dict[int, int],
) -> None:
    value = ChipValue(chips, chips * cents_per_chip, "$")
    assert assert_one_rounding(nets, value) == {user: value.cents(net) for user, net in nets.items()}


def test_the_nets_are_rounded_first_so_that_they_add_up_then_the_payments_follow() -> None:
    # 40 chips = $1: +230 is $5.75 exactly, and the two payments of 115 chips ($2.875 each) add up to it.
    value = ChipValue(40, 100, "$")
    nets = {1: 230, 2: -115, 3: -115}
    assert money_nets(nets, value) == {1: 575, 2: -288, 3: -287}
    assert money_settle(settle(nets), value) == ({1: 575, 2: -288, 3: -287}, [288, 287])
    # 3 chips = 0.01: a net of -2 chips is two thirds of a cent, two payments of a third each.
    thirds = ChipValue(3, 1)
    nets = {1: -2, 2: 1, 3: 1}
    assert money_nets(nets, thirds) == {1: -1, 2: 0, 3: 1}  # one of them gets the cent, the same one every time
    assert money_settle(settle(nets), thirds)[1] == [0, 1]


def test_nets_that_do_not_add_up_are_each_rounded_on_their_own() -> None:
    value = ChipValue(40, 100, "$")
    assert money_nets({1: 115, 2: 115}, value) == {1: 288, 2: 288}  # a board's first players: no settle-up
