"""Settle-up: the fewest payments that settle a night's nets, exact to the chip.

A set of players whose nets add up to zero can settle among themselves with
one payment fewer than there are of them, and never with fewer if no part of
the set adds up to zero. So the fewest payments for ``n`` players with a net
is ``n`` minus the largest number of disjoint groups that each add up to zero.

``settle`` finds that number exactly: first every pair of exact opposites
(+x and -x) settles with one payment (there is always a best settle-up that
does so), then, when at most ``EXACT_LIMIT`` players are left, a search over
every subset finds the largest number of zero-sum groups. Beyond that it falls
back to the greedy settle-up, which never needs more than ``n - 1`` payments.

Within a group the largest debtor pays the largest creditor, again and again.
Ties are broken the same way every time: the larger amount first, then the
lower user id. Players are numbered for the subset search in order of
(net, user id), so the same nets give the same payments whatever the order of
the mapping.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

EXACT_LIMIT: Final = 16
"""The most players (left after pairing opposites) for whom the fewest payments are found exactly."""


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` gives ``payee`` ``amount`` chips (always above zero)."""

    payer: int
    payee: int
    amount: int


def settle(nets: Mapping[int, int]) -> list[Payment]:
    """The fewest payments that settle ``nets`` (user id -> chips won, negative if lost) exactly.

    Zero nets are ignored. Raises ValueError if the nets do not add up to zero
    or are not whole numbers of chips. The payments come largest first, then
    by payer and payee id.
    """
    players = _players(nets)
    groups, rest = _pair_opposites(players)
    if len(rest) <= EXACT_LIMIT:
        values = [net for _, net in rest]
        groups += [[rest[i] for i in range(len(rest)) if mask >> i & 1] for mask in _zero_sum_groups(values)]
    else:
        groups.append(rest)
    payments = [payment for group in groups for payment in _pay_largest_first(group)]
    return sorted(payments, key=lambda p: (-p.amount, p.payer, p.payee))


def _players(nets: Mapping[int, int]) -> list[tuple[int, int]]:
    """The (user, net) pairs with a non-zero net, in order of (net, user); ValueError for bad nets."""
    for user, net in nets.items():
        if not isinstance(user, int) or isinstance(user, bool):
            raise ValueError(f"players are named by their user id, not {user!r}")
        if not isinstance(net, int) or isinstance(net, bool):
            raise ValueError(f"a net is a whole number of chips, not {net!r} (player {user})")
    total = sum(nets.values())
    if total:
        raise ValueError(
            f"the nets add up to {total:+,} chips, not zero, so they cannot be settled "
            "(are chips still on the table or carried to the next deal?)"
        )
    return sorted(((user, net) for user, net in nets.items() if net), key=lambda p: (p[1], p[0]))


def _pair_opposites(players: list[tuple[int, int]]) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]:
    """Pairs of players with opposite nets (each pair settles with one payment), and the players left.

    Among players with the same net, the lower user ids pair first.
    """
    by_net: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for player in players:
        by_net[player[1]].append(player)
    pairs: list[list[tuple[int, int]]] = []
    paired: set[int] = set()
    for net in sorted(by_net):
        if net >= 0:
            break
        for debtor, creditor in zip(by_net[net], by_net.get(-net, [])):
            pairs.append([debtor, creditor])
            paired.update((debtor[0], creditor[0]))
    return pairs, [p for p in players if p[0] not in paired]


def _pay_largest_first(group: Sequence[tuple[int, int]]) -> list[Payment]:
    """The largest debtor pays the largest creditor until everyone is square (ties: the lower user id first).

    Every payment squares at least one player, so a group of ``k`` needs at most ``k - 1``.
    """
    owed = {user: -net for user, net in group if net < 0}
    due = {user: net for user, net in group if net > 0}
    payments: list[Payment] = []
    while owed:
        payer = max(owed, key=lambda user: (owed[user], -user))
        payee = max(due, key=lambda user: (due[user], -user))
        amount = min(owed[payer], due[payee])
        payments.append(Payment(payer, payee, amount))
        for side, user in ((owed, payer), (due, payee)):
            side[user] -= amount
            if not side[user]:
                del side[user]
    return payments


# ----------------------------------------------------------------------------------------- the exact subset search
#
# A set of subsets of n players is held as one integer of 2**n bits: bit m is set when the subset whose members
# are the set bits of m belongs to it. T(k) is the set of zero-sum subsets that split into at least k zero-sum
# groups: T(1) is every non-empty zero-sum subset and T(k + 1) those with a proper zero-sum subset in T(k) (the
# difference of two zero-sum subsets adds up to zero too). Each step is a few dozen operations on big integers.


def _zero_sum_groups(values: Sequence[int]) -> list[int]:
    """The largest number of disjoint zero-sum groups covering ``values`` (which add up to zero), as bit masks."""
    n = len(values)
    if n == 0:
        return []
    full = (1 << n) - 1
    zero = _zero_sum_subsets(values)
    layers = [zero]  # layers[k - 1] is T(k)
    while True:
        nxt = zero & _strict_supersets(layers[-1], n)
        if not nxt >> full & 1:
            break
        layers.append(nxt)
    groups: list[int] = []
    current = full
    for k in range(len(layers) - 1, 0, -1):  # current is in T(k + 1): cut off a group, keep a part in T(k)
        candidates = layers[k - 1] & _subsets_of(current, n) & ~(1 << current)
        part = (candidates & -candidates).bit_length() - 1  # the lowest such subset: the same every time
        groups.append(current ^ part)
        current = part
    groups.append(current)
    return groups


def _zero_sum_subsets(values: Sequence[int]) -> int:
    """The non-empty subsets of ``values`` that add up to zero (meet in the middle: two halves of 2**(n/2) sums)."""
    n = len(values)
    half = n // 2
    low, high = _subset_sums(values[:half]), _subset_sums(values[half:])
    rows: dict[int, int] = defaultdict(int)  # a sum of the low half -> the low subsets with that sum
    for subset, total in enumerate(low):
        rows[total] |= 1 << subset
    found = 0
    for subset, total in enumerate(high):
        row = rows.get(-total)
        if row:
            found |= row << (subset << half)
    return found & ~1


def _subset_sums(values: Sequence[int]) -> list[int]:
    """The sum of every subset, indexed by its bit mask."""
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    return sums


@lru_cache(maxsize=EXACT_LIMIT + 1)
def _without_bit(n: int) -> tuple[int, ...]:
    """For each player i, the set of subsets of n players that do not hold i."""
    masks = []
    for i in range(n):
        pattern, width = (1 << (1 << i)) - 1, 1 << (i + 1)  # 2**i subsets without i, then 2**i with it
        while width < 1 << n:
            pattern |= pattern << width
            width <<= 1
        masks.append(pattern)
    return tuple(masks)


def _strict_supersets(family: int, n: int) -> int:
    """Every subset that strictly contains a member of ``family``."""
    masks = _without_bit(n)
    grown = 0
    for i in range(n):
        grown |= (family & masks[i]) << (1 << i)
    for i in range(n):
        grown |= (grown & masks[i]) << (1 << i)
    return grown


def _subsets_of(subset: int, n: int) -> int:
    """Every subset of ``subset``."""
    found = 1 << subset
    for i in range(n):
        if subset >> i & 1:
            found |= found >> (1 << i)
    return found
