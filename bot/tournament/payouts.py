"""Payouts: the share of the prize pool for each place, and the prizes in whole chips.

Shares are basis points (hundredths of a percent, 10 000 in all), so a host's "33.34/33.33/33.33" is exact.
The default table (:data:`DEFAULT_PAYOUTS`) is the usual sit-and-go one: a winner-takes-all heads-up (a second
prize between two players only hands back part of the buy-in), 70/30 for three, the classic 65/35 for up to
six and 50/30/20 for seven to ten; larger fields (late registration can make them) pay four places up to
20 entrants, five up to 30 and seven beyond.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from babel.numbers import get_decimal_symbol

from bot.i18n.catalogue import babel_locale
from bot.i18n.text import ENGLISH, Language, Text

BASIS_POINTS = 10_000
MAX_PLACES = 50
# (most entrants, shares in basis points), by field size; fields beyond the last row pay LARGE_FIELD.
DEFAULT_PAYOUTS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (2, (10_000,)),
    (3, (7_000, 3_000)),
    (6, (6_500, 3_500)),
    (10, (5_000, 3_000, 2_000)),
    (20, (4_000, 3_000, 2_000, 1_000)),
    (30, (3_500, 2_500, 1_800, 1_200, 1_000)),
)
LARGE_FIELD: tuple[int, ...] = (3_000, 2_000, 1_500, 1_100, 900, 800, 700)
_PERCENT = re.compile(r"(\d{1,3})(?:\.(\d{1,2}))?%?")


def default_payouts(entrants: int) -> tuple[int, ...]:
    """The default shares (basis points, first place first) for a field of ``entrants``."""
    if isinstance(entrants, bool) or not isinstance(entrants, int) or entrants < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, not {entrants!r}")
    for most, shares in DEFAULT_PAYOUTS:
        if entrants <= most:
            return shares
    return LARGE_FIELD


def parse_payouts(text: str) -> tuple[int, ...]:
    """A host's payouts, like ``50/30/20`` or ``65% 35%``: percentages (up to two decimals) from first place
    down, each above zero, none above the place before it, summing to exactly 100."""
    parts = [part for part in re.split(r"[/,;\s]+", text.strip()) if part]
    if not parts:
        raise ValueError(Text("no payouts given: write the percentage for each place, like 50/30/20"))
    if len(parts) > MAX_PLACES:
        raise ValueError(Text("at most {most} places can be paid, not {count}", most=str(MAX_PLACES),
                              count=str(len(parts))))
    shares: list[int] = []
    for place, part in enumerate(parts, start=1):
        match = _PERCENT.fullmatch(part)
        if not match:
            raise ValueError(Text("place {place}: {part} is not a percentage (write 50 or 12.5)", place=str(place),
                                  part=repr(part)))
        share = int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))
        if share == 0:
            raise ValueError(Text("place {place}: {part} pays nothing; list only the places that are paid",
                                  place=str(place), part=repr(part)))
        if shares and share > shares[-1]:
            raise ValueError(Text("place {place} ({part}) cannot pay more than place {before} ({paid})",
                                  place=str(place), part=part, before=str(place - 1), paid=parts[place - 2]))
        shares.append(share)
    if sum(shares) != BASIS_POINTS:
        raise ValueError(Text("the payouts add up to {percent}%, not 100%", percent=_percent(sum(shares))))
    return tuple(shares)


def format_payouts(shares: Sequence[int], *, lang: Language = ENGLISH) -> str:
    """``shares`` as the host writes them: ``50/30/20``, ``33.34/33.33/33.33``; with ``lang``'s decimal sign
    (German ``33,34``, which :func:`parse_payouts` does not read back)."""
    point = get_decimal_symbol(babel_locale(lang))
    return "/".join(_percent(share).replace(".", point) for share in shares)


def shares_for(entrants: int, custom: Sequence[int] | None = None) -> tuple[int, ...]:
    """The shares paid in a field of ``entrants``: the host's own (``custom``) or the default. When the host's
    pay more places than there are entrants, the places nobody can finish in are dropped and the prize pool is
    shared among the others in the same proportions (:func:`prize_amounts` scales by the shares' total)."""
    if custom is None:
        return default_payouts(entrants)
    return tuple(custom[:entrants])


def prize_amounts(prize_pool: int, shares: Sequence[int]) -> list[int]:
    """Each place's prize in whole chips, first place first, summing to ``prize_pool`` exactly: each place gets
    its share of the pool rounded down (shares in proportion to their total), and the chips left over go one
    each to the places that lost the most to the rounding (the largest remainders; equal ones from first place
    down), so that no place is paid a whole chip more or less than its share."""
    if isinstance(prize_pool, bool) or not isinstance(prize_pool, int) or prize_pool < 0:
        raise ValueError(f"the prize pool must be a whole number of chips, not {prize_pool!r}")
    if not shares or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in shares) or not sum(shares):
        raise ValueError(f"the shares must be whole numbers, not negative, with at least one above zero: {shares!r}")
    total = sum(shares)
    prizes = [prize_pool * share // total for share in shares]
    left_over = prize_pool - sum(prizes)  # fewer than len(shares): each place lost less than one chip
    remainders = sorted(range(len(shares)), key=lambda place: (-(prize_pool * shares[place] % total), place))
    for place in remainders[:left_over]:
        prizes[place] += 1
    return prizes


def _percent(basis_points: int) -> str:
    whole, hundredths = divmod(basis_points, 100)
    return f"{whole}" if not hundredths else f"{whole}.{hundredths:02d}".rstrip("0")
