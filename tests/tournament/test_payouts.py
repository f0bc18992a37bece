"""Payouts: the default table, a host's own percentages, and prizes summing to the pool exactly."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from bot.tournament.payouts import (
    BASIS_POINTS,
    default_payouts,
    format_payouts,
    parse_payouts,
    prize_amounts,
    shares_for,
)

PROFILE = settings(max_examples=500, derandomize=True, deadline=None, database=None)


def test_default_table_by_field_size() -> None:
    assert default_payouts(2) == (10_000,)
    assert default_payouts(3) == (7_000, 3_000)
    assert default_payouts(4) == default_payouts(6) == (6_500, 3_500)
    assert default_payouts(7) == default_payouts(10) == (5_000, 3_000, 2_000)
    assert len(default_payouts(11)) == len(default_payouts(20)) == 4
    assert len(default_payouts(21)) == len(default_payouts(30)) == 5
    assert len(default_payouts(31)) == len(default_payouts(10**6)) == 7
    with pytest.raises(ValueError, match="at least 2 entrants"):
        default_payouts(1)


@pytest.mark.parametrize("entrants", range(2, 60))
def test_default_shares_are_whole_fewer_than_the_field_and_falling(entrants: int) -> None:
    shares = default_payouts(entrants)
    assert sum(shares) == BASIS_POINTS
    assert all(share > 0 for share in shares)
    assert all(a >= b for a, b in itertools.pairwise(shares))
    assert len(shares) < entrants, "someone always finishes out of the money"


def test_parse_payouts_reads_the_hosts_percentages() -> None:
    assert parse_payouts("50/30/20") == (5_000, 3_000, 2_000)
    assert parse_payouts(" 65% 35% ") == (6_500, 3_500)
    assert parse_payouts("33.34, 33.33; 33.33") == (3_334, 3_333, 3_333)
    assert parse_payouts("100") == (10_000,)
    assert parse_payouts("50.5/49.5") == (5_050, 4_950)
    assert format_payouts(parse_payouts("33.34/33.33/33.33")) == "33.34/33.33/33.33"
    assert format_payouts((5_050, 4_950)) == "50.5/49.5"


@pytest.mark.parametrize(("text", "message"), [
    ("", "no payouts given"),
    ("50/30/x", r"place 3: 'x' is not a percentage"),
    ("50/30/20.125", r"place 3: '20.125' is not a percentage"),
    ("50/-30/20", r"place 2: '-30' is not a percentage"),
    ("50/30/20/0", "place 4: '0' pays nothing"),
    ("30/50/20", r"place 2 \(50\) cannot pay more than place 1 \(30\)"),
    ("50/30", "add up to 80%, not 100%"),
    ("60/30/20", "add up to 110%, not 100%"),
    ("33.33/33.33/33.33", "add up to 99.99%"),
    ("/".join(["1"] * 51), "at most 50 places"),
])
def test_parse_payouts_names_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_payouts(text)


def test_prizes_round_down_and_give_the_odd_chips_from_first_place_down() -> None:
    assert prize_amounts(100, (5_000, 3_000, 2_000)) == [50, 30, 20]
    assert prize_amounts(101, (3_334, 3_333, 3_333)) == [34, 34, 33]
    assert prize_amounts(7, (6_500, 3_500)) == [5, 2]  # 4.55 and 2.45: one chip left, to first place
    assert prize_amounts(0, (10_000,)) == [0]
    # The host's three places with two entrants: the two left share the pool 50:30.
    assert shares_for(2, (5_000, 3_000, 2_000)) == (5_000, 3_000)
    assert prize_amounts(80, shares_for(2, (5_000, 3_000, 2_000))) == [50, 30]
    assert shares_for(8) == (5_000, 3_000, 2_000)


@pytest.mark.parametrize(("pool", "shares"), [
    (-1, (10_000,)), (True, (10_000,)), (10, ()), (10, (0, 0)), (10, (5, -1)),
])
def test_prize_amounts_refuses_bad_input(pool: int, shares: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"prize pool|shares"):
        prize_amounts(pool, shares)


@PROFILE
@given(
    pool=st.integers(0, 10**15),
    shares=st.lists(st.integers(0, BASIS_POINTS), min_size=1, max_size=12).filter(any).map(
        lambda s: sorted(s, reverse=True)),
)
@example(pool=1825, shares=[10000, 4499, 3758, 267, 266])  # third place's share is exactly 365: no odd chip
def test_prizes_always_sum_to_the_pool_never_negative_and_falling_by_place(pool: int, shares: list[int]) -> None:
    prizes = prize_amounts(pool, shares)
    assert sum(prizes) == pool
    assert len(prizes) == len(shares)
    assert all(prize >= 0 for prize in prizes)
    assert all(a >= b for a, b in itertools.pairwise(prizes))
    total = sum(shares)
    assert all(abs(prize * total - pool * share) < total for prize, share in zip(prizes, shares)), "within a chip"


@PROFILE
@given(st.lists(st.integers(1, 3_000), min_size=1, max_size=10))
def test_any_falling_percentages_summing_to_100_parse_back(raw: list[int]) -> None:
    shares = sorted(raw, reverse=True)
    shares[0] += BASIS_POINTS - sum(shares)
    assume(shares[0] >= (shares[1] if len(shares) > 1 else 1))
    assert parse_payouts(format_payouts(shares)) == tuple(shares)
