"""Settle-up: the payments settle every net exactly, are as few as possible, and are the same every time."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.night.settle import EXACT_LIMIT, Payment, _pay_largest_first, settle


def balances(payments: Sequence[Payment]) -> dict[int, int]:
    """What each player ends up with from the payments: received minus paid."""
    out: dict[int, int] = {}
    for p in payments:
        out[p.payer] = out.get(p.payer, 0) - p.amount
        out[p.payee] = out.get(p.payee, 0) + p.amount
    return {user: amount for user, amount in out.items() if amount}


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every way to split ``items`` into non-empty groups."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        yield [[first], *smaller]
        for k in range(len(smaller)):
            yield [*smaller[:k], [first, *smaller[k]], *smaller[k + 1:]]


def fewest_by_brute_force(nets: Mapping[int, int]) -> int:
    """n minus the most groups adding up to zero, over every partition of the players with a net."""
    values = [v for v in nets.values() if v]
    if not values:
        return 0
    most = max(len(split) for split in partitions(values) if all(sum(group) == 0 for group in split))
    return len(values) - most


def zero_sum_nets(values: list[int]) -> dict[int, int]:
    """Nets for users 101, 102, ... from ``values`` plus one last player who makes them add up to zero."""
    nets = {101 + k: v for k, v in enumerate(values)}
    nets[101 + len(values)] = -sum(values)
    return nets


small_nets = st.lists(st.integers(-12, 12), min_size=0, max_size=7).map(zero_sum_nets)
any_nets = st.lists(st.integers(-10**6, 10**6), min_size=0, max_size=24).map(zero_sum_nets)


# ------------------------------------------------------------------------------------------------- properties


@given(any_nets)
def test_payments_settle_every_player_exactly_in_at_most_n_minus_one(nets: dict[int, int]) -> None:
    payments = settle(nets)
    assert balances(payments) == {user: net for user, net in nets.items() if net}
    assert all(p.amount > 0 and p.payer != p.payee for p in payments)
    players = sum(1 for net in nets.values() if net)
    assert len(payments) <= max(players - 1, 0)


@settings(max_examples=300)
@given(small_nets)
def test_payments_are_as_few_as_brute_force_finds(nets: dict[int, int]) -> None:
    assert len(settle(nets)) == fewest_by_brute_force(nets)


@given(any_nets, st.randoms(use_true_random=False))
def test_the_same_nets_in_any_order_give_the_same_payments(nets: dict[int, int], rng: random.Random) -> None:
    items = list(nets.items())
    rng.shuffle(items)
    assert settle(dict(items)) == settle(nets)


@given(st.lists(st.integers(-10**6, 10**6).filter(bool), min_size=EXACT_LIMIT + 3, max_size=40).map(zero_sum_nets))
def test_beyond_the_exact_limit_the_greedy_settle_up_still_settles_in_at_most_n_minus_one(
    nets: dict[int, int],
) -> None:
    payments = settle(nets)
    assert balances(payments) == {user: net for user, net in nets.items() if net}
    assert len(payments) <= sum(1 for net in nets.values() if net) - 1


# ----------------------------------------------------------------------------------------------- known nights


def test_one_loser_pays_each_winner_largest_first() -> None:
    assert settle({1: -50, 2: 30, 3: 20}) == [Payment(1, 2, 30), Payment(1, 3, 20)]


def test_exact_opposites_settle_with_one_payment_each_lower_ids_pairing_first() -> None:
    nets = {7: -10, 3: -10, 9: 10, 4: 10, 5: 25, 6: -25}
    assert settle(nets) == [Payment(6, 5, 25), Payment(3, 4, 10), Payment(7, 9, 10)]


def test_ties_go_to_the_larger_amount_then_the_lower_user_id() -> None:
    # No pair or triple adds up to zero: one group of four, three payments.
    assert settle({2: -20, 1: -20, 3: 15, 4: 25}) == [Payment(1, 4, 20), Payment(2, 3, 15), Payment(2, 4, 5)]


def test_two_zero_sum_groups_settle_in_four_payments_where_largest_first_needs_five() -> None:
    nets = zero_sum_nets([-4, -7, 9, -1, -8])  # the sixth player is +11
    assert len(_pay_largest_first(list(nets.items()))) == 5
    payments = settle(nets)
    assert len(payments) == 4
    assert balances(payments) == nets
    groups = {frozenset((p.payer, p.payee)) for p in payments}
    assert frozenset((101, 106)) in groups and frozenset((102, 106)) in groups  # -4 and -7 pay the +11


def test_sixteen_players_in_four_zero_sum_quartets_need_twelve_payments() -> None:
    quartets = [[-18, 11, 53, -46], [59, -25, 5, -39], [-30, -56, -21, 107], [-60, -51, -47, 158]]
    values = [v for quartet in quartets for v in quartet]
    random.Random(5).shuffle(values)
    nets = {1000 + k: v for k, v in enumerate(values)}
    assert len(nets) == EXACT_LIMIT
    assert len(_pay_largest_first(list(nets.items()))) == 15
    payments = settle(nets)
    assert len(payments) <= 12
    assert balances(payments) == nets


def test_zero_nets_are_ignored_and_no_nets_need_no_payments() -> None:
    assert settle({}) == []
    assert settle({1: 0, 2: 0}) == []
    assert settle({1: 0, 2: -5, 3: 5}) == [Payment(2, 3, 5)]


def test_nets_that_do_not_add_up_to_zero_are_refused_with_the_difference() -> None:
    with pytest.raises(ValueError, match=r"add up to \+30 chips, not zero"):
        settle({1: 50, 2: -20})
    with pytest.raises(ValueError, match=r"-1,200 chips"):
        settle({1: -1200})


@pytest.mark.parametrize("nets", [{1: 1.5, 2: -1.5}, {1: True, 2: -1}, {"ann": 5, 2: -5}])
def test_nets_that_are_not_whole_chips_by_user_id_are_refused(nets: dict[object, object]) -> None:
    with pytest.raises(ValueError, match=r"user id|whole number"):
        settle(nets)  # type: ignore[arg-type]
