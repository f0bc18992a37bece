"""The host's chip value: parsing, exact conversion to the cent, and what a settle-up shows in money."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.night.money import ChipValue, money, money_nets
from bot.night.settle import Payment, settle

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


@given(chip_values, st.lists(st.integers(-10**6, 10**6), max_size=12).map(zero_sum_nets))
def test_money_nets_add_up_to_zero_and_stay_within_half_a_cent_a_payment(
    value: ChipValue, nets: dict[int, int],
) -> None:
    payments = settle(nets)
    shown = money_nets(payments, value)
    assert sum(shown.values()) == 0
    for user, net in nets.items():
        part_of = sum(1 for p in payments if user in (p.payer, p.payee))
        assert 2 * abs(shown.get(user, 0) - value.cents(net)) <= part_of + 1


@given(st.integers(1, 1000), st.integers(1, 50), st.lists(st.integers(-10**6, 10**6), max_size=12).map(zero_sum_nets))
def test_when_a_chip_is_a_whole_number_of_cents_the_money_nets_are_exact(
    chips: int, cents_per_chip: int, nets: dict[int, int],
) -> None:
    value = ChipValue(chips, chips * cents_per_chip, "$")
    shown = money_nets(settle(nets), value)
    assert {user: shown.get(user, 0) for user in nets} == {user: value.cents(net) for user, net in nets.items()}


def test_rounded_payments_decide_the_money_net_when_a_chip_is_a_fraction_of_a_cent() -> None:
    value = ChipValue(3, 1)  # 3 chips = 0.01
    payments = [Payment(1, 2, 1), Payment(1, 3, 1)]  # two payments of a third of a cent each
    assert [money(p.amount, value) for p in payments] == ["0.00", "0.00"]
    assert money(-2, value) == "-0.01"  # his chip net on its own would show a cent
    assert money_nets(payments, value) == {1: 0, 2: 0, 3: 0}  # what is shown is what is paid
