"""What the host says a chip is worth ("100 chips = $1.00"), and chip amounts shown as money.

Integer arithmetic only: ``ChipValue.cents`` rounds to the cent, half away
from zero. A settle-up rounds each payment on its own (what is shown is what
is paid), so a player's money net is the sum of his rounded payments
(``money_nets``): the money then adds up to zero exactly and every shown line
agrees with the payments. It can differ from his chip net converted on its own
by less than a cent for each payment he is part of, and only when a chip is
not worth a whole number of cents (e.g. "3 chips = 0.10").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .settle import Payment

MAX_SYMBOL: Final = 4
FORMS: Final = '"100 = 1.00", "100 chips = $1" or "1 = 0.05€"'

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
        """Read a chip value such as "100=1.00", "100 chips = $1", "1 = 0.05€" or "1,000 chips = 5 EUR"."""
        left, equals, right = text.partition("=")
        if not equals or "=" in right:
            raise ValueError(f"write the chip value like {FORMS}")
        chips = _parse_chips(left)
        symbol, after, number = _split_symbol(right.strip())
        whole, fraction = _parse_amount(number)
        places = len(fraction.rstrip("0"))
        if places > 2:
            units = int(whole or "0") * 10**places + int(fraction[:places])  # the amount in 10**-places
            raise ValueError(f"money is counted to the cent: write more chips instead, "
                             f"e.g. {chips * 10 ** (places - 2):,} = {_decimal(units)}")
        cents = int(whole or "0") * 100 + int((fraction + "00")[:2])
        if cents == 0:
            raise ValueError("a chip must be worth something: give an amount above zero")
        return cls(chips, cents, symbol, after)

    def cents(self, chips: int) -> int:
        """``chips`` chips in cents, rounded half away from zero."""
        quotient, remainder = divmod(abs(chips) * self.money_cents, self.chips)
        if 2 * remainder >= self.chips:
            quotient += 1
        return -quotient if chips < 0 else quotient

    def format_cents(self, cents: int, *, sign: bool = False) -> str:
        """An amount of money: ``$1,234.50``, ``-0.05€``, ``+EUR 3.00`` with ``sign``."""
        mark = "-" if cents < 0 else ("+" if sign and cents > 0 else "")
        amount = _decimal(abs(cents))
        if not self.symbol:
            return mark + amount
        space = " " if self.symbol[-1 if not self.symbol_after else 0].isalpha() else ""
        if self.symbol_after:
            return f"{mark}{amount}{space}{self.symbol}"
        return f"{mark}{self.symbol}{space}{amount}"

    def __str__(self) -> str:
        return f"{self.chips:,} chip{'' if self.chips == 1 else 's'} = {self.format_cents(self.money_cents)}"


def money(chips: int, chip_value: ChipValue, *, sign: bool = False) -> str:
    """A chip amount as money under the host's chip value, e.g. ``money(250, ChipValue(100, 100, "$"))`` is
    ``$2.50`` (rounded half away from zero to the cent; ``sign`` writes a + before a gain)."""
    return chip_value.format_cents(chip_value.cents(chips), sign=sign)


def money_nets(payments: Iterable[Payment], chip_value: ChipValue) -> dict[int, int]:
    """Each player's money net in cents from a settle-up's payments, each rounded on its own (see the module
    docstring): received minus paid, adding up to zero exactly."""
    nets: dict[int, int] = {}
    for payment in payments:
        cents = chip_value.cents(payment.amount)
        nets[payment.payer] = nets.get(payment.payer, 0) - cents
        nets[payment.payee] = nets.get(payment.payee, 0) + cents
    return nets


def _decimal(cents: int) -> str:
    return f"{cents // 100:,}.{cents % 100:02d}"


def _parse_chips(text: str) -> int:
    match = _CHIPS.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text.strip()!r} is not a number of chips: write the chip value like {FORMS}")
    chips = int(re.sub(r"[,._ ]", "", match.group(1)))
    if chips == 0:
        raise ValueError("the chip value needs a number of chips above zero")
    return chips


def _split_symbol(text: str) -> tuple[str, bool, str]:
    """(symbol, written after the amount, the amount) from text like ``$1``, ``0.05€`` or ``5 EUR``."""
    match = re.fullmatch(r"([^\d\s.,]*)\s*([\d.,]+)\s*([^\d\s.,]*)", text)
    if match is None:
        raise ValueError(f"{text!r} is not an amount of money: write the chip value like {FORMS}")
    before, number, after = match.groups()
    if before and after:
        raise ValueError(f"{text!r} has two currency symbols: give one, before or after the amount")
    symbol = before or after
    if len(symbol) > MAX_SYMBOL:
        raise ValueError(f"{symbol!r} is not a currency symbol: use one like $, €, £ or EUR")
    return symbol, bool(after), number


def _parse_amount(number: str) -> tuple[str, str]:
    """The whole and fractional digits of an amount: ``1,000.50``, ``0,05`` (a decimal comma) or ``.5``."""
    match = _AMOUNT.fullmatch(number)
    if match is None or not (match.group("whole") or match.group("fraction")):
        raise ValueError(f"{number!r} is not an amount of money: write the chip value like {FORMS}")
    whole, fraction = match.group("whole").replace(",", ""), match.group("fraction") or ""
    if len(fraction) == 3 and whole.strip("0"):
        raise ValueError(f"{number} could be thousands or decimals: write {whole}{fraction} or {whole}.{fraction[:2]}")
    return whole, fraction
