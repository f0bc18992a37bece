"""What the host says a chip is worth ("100 chips = $1.00"), and chip amounts shown as money.

Integer arithmetic only: ``ChipValue.cents`` rounds to the cent, half away
from zero. A night has one rounding rule for money (``money_settle``), so
that a player's net in money is the same in every answer and the payments of
the settle-up add up to the nets exactly: the nets are rounded first, each to
one of the two cents around its exact value, so that they add up to zero,
and the payments are derived from them. The roundings are chosen together
(the payments of a settle-up form a forest, so the nets fix them) so that
every payment is also within a cent of its exact value; where several such
choices exist, the nearest cent (half away from zero) wins for the nets,
then for the payments. When a chip is a whole number of cents nothing is
rounded at all.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Final

from babel import Locale
from babel.numbers import format_decimal, get_minus_sign_symbol, get_plus_sign_symbol

from ..i18n.catalogue import babel_locale
from ..i18n.text import ENGLISH, Language, Text, say_n
from .settle import Payment, settle

MAX_SYMBOL: Final = 4

_CHIPS = re.compile(r"(\d{1,3}(?:[,._ ]\d{3})+|\d+)\s*(?:chips?)?", re.IGNORECASE)
_AMOUNT = re.compile(r"(?P<whole>\d{1,3}(?:,\d{3})+|\d*)(?:[.,](?P<fraction>\d+))?")


@dataclass(frozen=True, slots=True)
class ChipValue:
    """``chips`` chips are worth ``money_cents`` hundredths of the currency ``symbol``
    (written before the amount, or after it when ``symbol_after``)."""

    chips: int
    money_cents: int
    symbol: str = ""
    symbol_after: bool = False

    def __post_init__(self) -> None:
        for name, value in (("chips", self.chips), ("money_cents", self.money_cents)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"a chip value needs {name} above zero, not {value!r}")
        if len(self.symbol) > MAX_SYMBOL or any(c.isdigit() or c.isspace() or c in "=.," for c in self.symbol):
            raise ValueError(f"{self.symbol!r} is not a currency symbol: use one like $, €, £ or EUR")
        if not self.symbol:
            object.__setattr__(self, "symbol_after", False)  # no symbol has no side: equal values compare equal

    @classmethod
    def parse(cls, text: str) -> ChipValue:
        """Read a chip value such as "100=1.00", "100 chips = $1", "1 = 0.05€" or "1,000 chips = 5 EUR"; a
        ``ValueError`` whose ``Text`` says what to write instead, a lower-case phrase."""
        left, equals, right = text.partition("=")
        if not equals or "=" in right:
            raise ValueError(Text('write the chip value like "100 = 1.00", "100 chips = $1" or "1 = 0.05€"'))
        chips = _parse_chips(left)
        symbol, after, number = _split_symbol(right.strip())
        whole, fraction = _parse_amount(number)
        places = len(fraction.rstrip("0"))
        if places > 2:
            units = int(whole or "0") * 10**places + int(fraction[:places])  # the amount in 10**-places
            raise ValueError(Text("money is counted to the cent: write more chips instead, e.g. {chips} = {money}",
                                  chips=chips * 10 ** (places - 2), money=_decimal(units)))
        cents = int(whole or "0") * 100 + int((fraction + "00")[:2])
        if cents == 0:
            raise ValueError(Text("a chip must be worth something: give an amount above zero"))
        return cls(chips, cents, symbol, after)

    def cents(self, chips: int) -> int:
        """``chips`` chips in cents, rounded half away from zero."""
        return self.cents_of(Fraction(chips * self.money_cents, self.chips))

    @staticmethod
    def cents_of(exact: Fraction) -> int:
        """An exact amount of cents rounded to the cent, half away from zero."""
        quotient, remainder = divmod(abs(exact.numerator), exact.denominator)
        if 2 * remainder >= exact.denominator:
            quotient += 1
        return -quotient if exact < 0 else quotient

    def format_cents(self, cents: int, *, sign: bool = False, lang: Language = ENGLISH) -> str:
        """An amount of money: ``$1,234.50``, ``-0.05€``, ``+EUR 3.00`` with ``sign``. In another language than
        English, as that language writes money, the symbol where it puts one: German ``1.234,50 $``, ``-0,05 €``."""
        locale = babel_locale(lang)
        if str(locale) != "en_US":  # English (and the pseudo-language) write the symbol where the host did
            return _local_money(cents, self.symbol, sign, locale)
        mark = "-" if cents < 0 else ("+" if sign and cents > 0 else "")
        amount = _decimal(abs(cents))
        if not self.symbol:
            return mark + amount
        space = " " if self.symbol[-1 if not self.symbol_after else 0].isalpha() else ""
        if self.symbol_after:
            return f"{mark}{amount}{space}{self.symbol}"
        return f"{mark}{self.symbol}{space}{amount}"

    def describe(self, *, lang: Language = ENGLISH) -> str:
        """The chip value in ``lang``: ``100 chips = $1.00`` (``str()`` is the English)."""
        return say_n(lang, "{count} chip = {money}", "{count} chips = {money}", count=self.chips,
                     money=self.format_cents(self.money_cents, lang=lang))

    def __str__(self) -> str:
        return self.describe()


def money(chips: int, chip_value: ChipValue, *, sign: bool = False, lang: Language = ENGLISH) -> str:
    """A chip amount as money under the host's chip value, e.g. ``money(250, ChipValue(100, 100, "$"))`` is
    ``$2.50`` (rounded half away from zero to the cent; ``sign`` writes a + before a gain); ``lang`` writes it
    the language's way (``ChipValue.format_cents``)."""
    return chip_value.format_cents(chip_value.cents(chips), sign=sign, lang=lang)


def money_nets(nets: Mapping[int, int], chip_value: ChipValue) -> dict[int, int]:
    """Each player's net in cents under the night's one rounding (``money_settle`` of the settle-up of
    ``nets``), for every player of ``nets``. Nets that do not add up to zero (a board's first ten players) have
    no settle-up: each is then rounded on its own (``ChipValue.cents``)."""
    try:
        payments = settle(nets)
    except ValueError:
        return {user: chip_value.cents(net) for user, net in nets.items()}
    cents, _ = money_settle(payments, chip_value)
    return {user: cents.get(user, 0) for user in nets}


def money_settle(payments: Sequence[Payment], chip_value: ChipValue) -> tuple[dict[int, int], list[int]]:
    """A settle-up in money (see the module docstring): each player's net in cents (received minus paid, adding
    up to zero) and each payment in cents, in the order given, adding up to those nets exactly. Each is one of
    the two cents around its exact value. ValueError if the payments form a cycle (no settle-up does)."""
    forest = _Forest(payments, chip_value)
    for root in sorted(forest.players):
        if root not in forest.parent:
            forest.solve(root)
    nets: dict[int, int] = {}
    cents = [forest.low[k] + forest.up[k] for k in range(len(payments))]
    for payment, amount in zip(payments, cents):
        nets[payment.payer] = nets.get(payment.payer, 0) - amount
        nets[payment.payee] = nets.get(payment.payee, 0) + amount
    return nets, cents


class _Forest:
    """The payments as a forest of players, and the search for their roundings.

    Payment ``k`` is ``low[k]`` cents (its exact value rounded down) plus ``up[k]`` (0 or 1; always 0 when the
    value is a whole number of cents). A player's net is the sum of his payments' cents, signed; it must be one
    of the two cents around his exact net. Seen from a player, a payment to or from him adds ``sign * up``.
    Rooted at its lowest user id, each tree is solved from the leaves (which bits of the edge to his parent let
    a player's subtree round well: ``fits``), then from the root down (each player takes the nearest cent his
    children's bits allow, and they the bits that give it).
    """

    def __init__(self, payments: Sequence[Payment], chip_value: ChipValue) -> None:
        self.value = chip_value
        self.low: list[int] = []
        self.up: list[int] = [0] * len(payments)
        self.frac: list[Fraction] = []  # what rounding down leaves out, in cents (0 <= frac < 1)
        self.edges: dict[int, list[tuple[int, int, int]]] = defaultdict(list)  # player -> (payment, other, sign)
        self.net: dict[int, Fraction] = defaultdict(Fraction)  # each player's exact net in cents
        for k, payment in enumerate(payments):
            exact = Fraction(payment.amount * chip_value.money_cents, chip_value.chips)
            self.low.append(exact.numerator // exact.denominator)
            self.frac.append(exact - self.low[-1])
            self.edges[payment.payee].append((k, payment.payer, 1))
            self.edges[payment.payer].append((k, payment.payee, -1))
            self.net[payment.payee] += exact
            self.net[payment.payer] -= exact
        self.players = set(self.edges)
        self.parent: dict[int, tuple[int, int]] = {}  # player -> (payment to his parent, its sign seen from him)
        self.fits: dict[int, tuple[int, ...]] = {}  # player -> the bits of that payment his subtree allows

    def _children(self, player: int) -> list[tuple[int, int, int]]:
        up = self.parent.get(player)
        return sorted(((k, other, sign) for k, other, sign in self.edges[player] if up is None or k != up[0]),
                      key=lambda edge: edge[1])

    def _base(self, player: int) -> int:
        return sum(sign * self.low[k] for k, _, sign in self.edges[player])

    def _span(self, player: int) -> tuple[int, int]:
        """The smallest and largest sum of ``sign * up`` over the player's children's payments."""
        low = high = 0
        for _, child, sign in self._children(player):
            options = [sign * bit for bit in self.fits[child]]
            low, high = low + min(options), high + max(options)
        return low, high

    def _targets(self, player: int) -> list[int]:
        """The cents his net may be, the nearest first (half away from zero)."""
        exact = self.net[player]
        floor = exact.numerator // exact.denominator
        if floor == exact:
            return [floor]
        nearest = self.value.cents_of(exact)
        return [nearest, 2 * floor + 1 - nearest]

    def solve(self, root: int) -> None:
        order, stack = [], [root]
        self.parent[root] = (-1, 0)
        while stack:  # every player before his children
            player = stack.pop()
            order.append(player)
            for k, child, _ in self._children(player):
                if child in self.parent:
                    raise ValueError("the payments form a cycle")
                self.parent[child] = (k, next(s for j, _, s in self.edges[child] if j == k))
                stack.append(child)
        for player in reversed(order):  # the leaves first
            k, sign = self.parent[player]
            if player == root:
                continue
            low, high = self._span(player)
            base = self._base(player)
            bits = (0, 1) if self.frac[k] else (0,)
            self.fits[player] = tuple(bit for bit in bits if any(
                low <= target - base - sign * bit <= high for target in self._targets(player)))
        for player in order:  # the root first: each player picks his cent, then his children's bits
            k, sign = self.parent[player]
            bit = self.up[k] if player != root else 0
            low, high = self._span(player)
            need = next((t - self._base(player) - sign * bit for t in self._targets(player)
                         if low <= t - self._base(player) - sign * bit <= high), None)
            if need is None:  # cannot happen: a forest's roundings always exist (a network matrix)
                raise ValueError("no rounding of these payments fits their nets")
            self._give(player, need - low)

    def _give(self, player: int, steps: int) -> None:
        """Set the player's children's bits: each at its smallest contribution, then ``steps`` of them one more,
        those whose payment gets nearer its exact value first."""
        flexible = []
        for k, child, sign in self._children(player):
            options = self.fits[child]
            self.up[k] = min(options, key=lambda bit: sign * bit)
            if len(options) == 2:
                nearer = self.frac[k] if sign > 0 else 1 - self.frac[k]  # how near "one more" is, 0 to 1
                flexible.append((-nearer, child, k))
        for _, _, k in sorted(flexible)[:steps]:
            self.up[k] = 1 - self.up[k]


def _decimal(cents: int) -> str:
    return f"{cents // 100:,}.{cents % 100:02d}"


def _local_money(cents: int, symbol: str, sign: bool, locale: Locale) -> str:
    """An amount of money as ``locale`` writes it: its digit grouping, decimal sign and signs, and the host's
    symbol where the locale's currency format puts one (a no-break space between it and the digits when the
    symbol is a word, "EUR", and the format has none)."""
    amount = format_decimal(Decimal(abs(cents)) / 100, "#,##0.00", locale=locale)
    mark = get_minus_sign_symbol(locale) if cents < 0 else (get_plus_sign_symbol(locale) if sign and cents > 0 else "")
    if not symbol:
        return mark + amount
    pattern = locale.currency_formats["standard"]
    before, after = str(pattern.prefix[0]), str(pattern.suffix[0])
    if before.endswith("¤") and symbol[-1].isalpha():
        before += "\xa0"
    if after.startswith("¤") and symbol[0].isalpha():
        after = "\xa0" + after
    return mark + before.replace("¤", symbol) + amount + after.replace("¤", symbol)


def _parse_chips(text: str) -> int:
    match = _CHIPS.fullmatch(text.strip())
    if match is None:
        raise ValueError(Text('{typed} is not a number of chips: write the chip value like "100 = 1.00", "100 chips = '
                              '$1" or "1 = 0.05€"', typed=repr(text.strip())))
    chips = int(re.sub(r"[,._ ]", "", match.group(1)))
    if chips == 0:
        raise ValueError(Text("the chip value needs a number of chips above zero"))
    return chips


def _split_symbol(text: str) -> tuple[str, bool, str]:
    """(symbol, written after the amount, the amount) from text like ``$1``, ``0.05€`` or ``5 EUR``."""
    match = re.fullmatch(r"([^\d\s.,]*)\s*([\d.,]+)\s*([^\d\s.,]*)", text)
    if match is None:
        raise ValueError(Text('{typed} is not an amount of money: write the chip value like "100 = 1.00", "100 chips '
                              '= $1" or "1 = 0.05€"', typed=repr(text)))
    before, number, after = match.groups()
    if before and after:
        raise ValueError(Text("{typed} has two currency symbols: give one, before or after the amount",
                              typed=repr(text)))
    symbol = before or after
    if len(symbol) > MAX_SYMBOL:
        raise ValueError(Text("{symbol} is not a currency symbol: use one like $, €, £ or EUR", symbol=repr(symbol)))
    return symbol, bool(after), number


def _parse_amount(number: str) -> tuple[str, str]:
    """The whole and fractional digits of an amount: ``1,000.50``, ``0,05`` (a decimal comma) or ``.5``."""
    match = _AMOUNT.fullmatch(number)
    if match is None or not (match.group("whole") or match.group("fraction")):
        raise ValueError(Text('{typed} is not an amount of money: write the chip value like "100 = 1.00", "100 chips '
                              '= $1" or "1 = 0.05€"', typed=repr(number)))
    whole, fraction = match.group("whole").replace(",", ""), match.group("fraction") or ""
    if len(fraction) == 3 and whole.strip("0"):
        raise ValueError(Text("{typed} could be thousands or decimals: write {thousands} or {decimals}", typed=number,
                              thousands=whole + fraction, decimals=whole + "." + fraction[:2]))
    return whole, fraction
