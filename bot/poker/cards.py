"""Cards, the deck, burns, the muck and the reshuffle (docs/rules.md section 2.2)."""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Iterable, Sequence
from typing import Final

from ..i18n.text import Text

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
_PRIMES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_SUIT_SYMBOLS: Final = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
_NO_CARD_LEFT: Final = Text("the stub and the muck are both empty: no card is left to deal")  # a player may see it


class CardError(ValueError):
    """A card or a list of cards could not be read, or cannot be dealt (``args[0]``: a ``Text`` when the deck runs
    out in play, what a player may see; else a ``str``)."""


class Card:
    """One playing card: a rank and a suit, a joker, or an unknown card (``??``).

    Cards are interned: there is one object per card, so ``is`` and ``==`` agree.
    ``rank`` is 2..14 (ace 14), 2 for a joker (it plays exactly as a two),
    0 for an unknown card. ``bit`` is the card's own bit (``1 << i`` for the
    i-th card of ``STANDARD_DECK``; 0 for jokers and unknown cards): the bits
    of distinct cards add up to a key of the set, whatever their order.
    """

    __slots__ = ("code", "rank", "suit", "prime", "bit", "is_joker", "is_unknown")

    code: str
    rank: int
    suit: str
    prime: int
    bit: int
    is_joker: bool
    is_unknown: bool

    def __new__(cls, code: str) -> Card:
        card = _BY_CODE.get(code)
        if card is None:
            raise CardError(f"{code!r} is not a card (write cards like 'As', 'Td', '7c', 'X1' or '??')")
        return card

    @classmethod
    def _make(cls, code: str, rank: int, suit: str) -> Card:
        card = object.__new__(cls)
        card.code = code
        card.rank = rank
        card.suit = suit
        card.prime = _PRIMES[rank - 2] if rank >= 2 else 0
        card.bit = 1 << (4 * (rank - 2) + SUITS.index(suit)) if suit in SUITS and code[0] != "X" else 0
        card.is_joker = code[0] == "X"
        card.is_unknown = code == "??"
        return card

    @property
    def is_two(self) -> bool:
        """True for a two or a joker (Assassin's deadly cards)."""
        return self.rank == 2

    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``A♠``; jokers and unknown cards as written."""
        if self.is_joker or self.is_unknown:
            return self.code
        return self.code[0] + _SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return self.code

    __str__ = __repr__

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.code,))


_BY_CODE: dict[str, Card] = {}
for _r, _rank_char in enumerate(RANKS, start=2):
    for _s in SUITS:
        _BY_CODE[_rank_char + _s] = Card._make(_rank_char + _s, _r, _s)
for _code in ("X1", "X2"):
    _BY_CODE[_code] = Card._make(_code, 2, "x" + _code[1])
UNKNOWN: Final = Card._make("??", 0, "?")
_BY_CODE["??"] = UNKNOWN

STANDARD_DECK: Final[tuple[Card, ...]] = tuple(
    _BY_CODE[r + s] for r in RANKS for s in SUITS
)
JOKERS: Final[tuple[Card, ...]] = (_BY_CODE["X1"], _BY_CODE["X2"])

_TOKEN = re.compile(r"\?\?|X[12]|[2-9TJQKA][cdhs]", re.IGNORECASE)


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read cards from text such as ``"As Kd 2c"`` or ``"AsKd2c"`` (or a list of codes).

    Raises CardError naming the part that is not a card.
    """
    if not isinstance(text, str):
        return [c if isinstance(c, Card) else Card(c) for c in text]
    if len(text) % 2 == 0:  # fast path: codes written together, as PHH and the bot write them
        try:
            return [_BY_CODE[text[i:i + 2]] for i in range(0, len(text), 2)]
        except KeyError:
            pass
    compact = re.sub(r"[\s,]+", "", text)
    cards: list[Card] = []
    pos = 0
    while pos < len(compact):
        match = _TOKEN.match(compact, pos)
        if match is None:
            raise CardError(f"{compact[pos:pos + 2]!r} in {text!r} is not a card")
        token = match.group(0)
        if token != "??":
            token = token[0].upper() + token[1].lower() if token[0] not in "xX" else token.upper()
        cards.append(_BY_CODE[token])
        pos = match.end()
    return cards


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Cards as PHH writes them: ``"AsKd2c"`` (or with ``sep`` between them)."""
    return sep.join(c.code for c in cards)


def new_deck(jokers: bool = False) -> list[Card]:
    """A fresh, ordered deck of 52 cards, or 54 with Assassin's jokers."""
    return list(STANDARD_DECK + JOKERS) if jokers else list(STANDARD_DECK)


_UNIVERSES: Final = {False: frozenset(STANDARD_DECK), True: frozenset(STANDARD_DECK + JOKERS)}


class Deck:
    """The stub, the muck and the reshuffle of docs/rules.md section 2.2.

    A deck is either shuffled by its own ``random.Random(seed)`` or given an
    exact order (tests and replays; it may hold ``??`` for cards nobody saw).
    Every dealt card is checked: a card held by a player or already dealt
    cannot come out again, and after the stub runs out the muck is shuffled
    into a new stub, never including the cards that the player being served
    threw in this draw.
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        order: Sequence[Card] | None = None,
        jokers: bool = False,
    ) -> None:
        if (seed is None) == (order is None):
            raise ValueError("give a deck either a seed or an exact card order")
        self.universe: frozenset[Card] = _UNIVERSES[jokers]
        self._rng = random.Random(seed) if seed is not None else None
        if order is not None:
            self._check_order(order)
            self._order = list(order)
        else:
            assert self._rng is not None
            self._order = new_deck(jokers)
            self._rng.shuffle(self._order)
        self._next = 0
        # The stub is what has not been dealt since it was formed. In exact
        # mode later cards of `_order` may continue past a reshuffle, so the
        # stub is tracked by size and by the cards it may still hold.
        self.stub_size = len(self.universe)
        self._may_deal: set[Card] = set(self.universe)
        self.muck: list[Card] = []
        self.reshuffles = 0
        self.last_reshuffle = 0  # how many cards the last reshuffle put in the stub

    def _check_order(self, order: Sequence[Card]) -> None:
        for card in order:
            if not card.is_unknown and card not in self.universe:
                raise CardError(f"{card} is not in this deck")

    @property
    def exact(self) -> bool:
        """True if the deck deals a given order rather than a seeded shuffle."""
        return self._rng is None

    def deal(
        self, count: int, *, excluded: Collection[Card] = (), held: Collection[Card] = (),
        revealed: Collection[Card] = (),
    ) -> list[Card]:
        """Deal ``count`` cards; on reaching the end of the stub, reshuffle the muck.

        ``excluded`` are the discards of the player being served (never dealt
        back to him); ``held`` are the cards in players' hands (never in the
        muck); ``revealed`` are cards a replay has just named in a hand that held
        them unseen (no longer in the stub). Raises CardError and changes
        nothing if the cards cannot be dealt.
        """
        if self._rng is not None:
            if count <= self.stub_size:  # the common case: straight from the stub
                start = self._next
                self._next = start + count
                self.stub_size -= count
                dealt = self._order[start:start + count]
                self._may_deal.difference_update(dealt)
                return dealt
            self._check_enough(count, excluded)
            return self._deal_through_reshuffles(count, excluded, held)
        saved = self._save()
        try:
            for card in revealed:
                self.reveal(card)
            return self._deal_through_reshuffles(count, excluded, held)
        except CardError:
            self._restore(saved)
            raise

    def _check_enough(self, count: int, excluded: Collection[Card]) -> None:
        if count > self.stub_size:
            aside = set(excluded)
            if count > self.stub_size + sum(1 for c in self.muck if c not in aside or c.is_unknown):
                raise CardError(_NO_CARD_LEFT)

    def _deal_through_reshuffles(self, count: int, excluded: Collection[Card], held: Collection[Card]) -> list[Card]:
        cards: list[Card] = []
        for _ in range(count):
            if self.stub_size == 0:
                # The cards this deal has already served are held too (docs/rules.md section 22.3: no card twice).
                self._reshuffle(set(excluded), {*held, *cards})
            cards.append(self._take())
        return cards

    def _save(self) -> tuple[int, int, set[Card], list[Card], int, int]:
        return (self._next, self.stub_size, set(self._may_deal), list(self.muck), self.reshuffles,
                self.last_reshuffle)

    def _restore(self, saved: tuple[int, int, set[Card], list[Card], int, int]) -> None:
        (self._next, self.stub_size, self._may_deal, self.muck, self.reshuffles, self.last_reshuffle) = saved

    def burn(self, *, held: Iterable[Card] = ()) -> Card:
        """Burn one card into the muck (reshuffling first if the stub is empty)."""
        if self.stub_size == 0:
            self._reshuffle(set(), set(held))
        card = self._take()
        self.muck.append(card)
        return card

    def discard(self, cards: Iterable[Card]) -> None:
        """Put folded or discarded cards into the muck (out of the stub until a reshuffle)."""
        cards = list(cards)
        self.muck.extend(cards)
        self._may_deal.difference_update(cards)

    def _take(self) -> Card:
        if self._next >= len(self._order):
            raise CardError("the deck has run out of cards")
        card = self._order[self._next]
        if not card.is_unknown:
            if card not in self._may_deal:
                raise CardError(f"{card} cannot be dealt: it is not in the stub")
            self._may_deal.discard(card)
        self._next += 1
        self.stub_size -= 1
        return card

    def _reshuffle(self, excluded: set[Card], held: set[Card]) -> None:
        keep = [c for c in self.muck if c not in excluded or c.is_unknown]
        if not keep:
            raise CardError(_NO_CARD_LEFT)
        aside = [c for c in self.muck if c in excluded and not c.is_unknown]
        self.muck = aside
        self.stub_size = len(keep)
        self.reshuffles += 1
        self.last_reshuffle = len(keep)
        if any(c.is_unknown for c in keep):
            # A card nobody saw went to the muck: the new stub may hold any card
            # that is not known to be somewhere else.
            self._may_deal = set(self.universe) - held - excluded
        else:
            self._may_deal = set(keep)
        if self._rng is not None:
            self._rng.shuffle(keep)
            self._order[self._next:] = keep

    def stub(self) -> list[Card]:
        """The cards still to be dealt before the next reshuffle, in order (seeded decks;
        an exact deck lists the rest of its given order)."""
        return self._order[self._next:]

    def unseen(self) -> set[Card]:
        """Known cards that may still be in the stub (for checking replayed cards)."""
        return set(self._may_deal)

    def could_be_hidden(self, card: Card) -> bool:
        """Whether a card nobody saw (``??`` in a replayed hand) may be ``card``, as far as the deck knows:
        it is not in the muck, and not surely in the stub (the stub is surely made of the cards it may
        hold when there are just as many of them). The hand checks the players' hands."""
        if card.is_unknown or card not in self.universe or card in self.muck:
            return False
        return not (card in self._may_deal and len(self._may_deal) == self.stub_size)

    def reveal(self, card: Card) -> None:
        """A replay named a card that had been dealt unseen: it is no longer in the stub."""
        self._may_deal.discard(card)
