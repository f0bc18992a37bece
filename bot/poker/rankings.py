"""Hand rankings of docs/rules.md sections 1.6 and 2.3: high, deuce-to-seven, ace-to-five, ace-to-six, Badugi and the
eight-or-better low; Omaha's two-plus-three rule and stud's showing hands and bring-in card.

Every distinct five-card hand class of a ranking is computed once, the first
time a hand of that ranking is evaluated (about 0.1 s and 3 MB each: a process
pays only for the rankings it deals), and stored in a table keyed by the
product of the cards' rank primes (and, where flushes count, whether the hand
is suited). ``evaluate`` is then a few multiplications and one dict lookup,
and returns a shared, immutable ``HandValue``. Six and more cards (hold'em,
stud, razz) are valued by the product of all their rank primes when no flush
can count, each product's best five computed once and remembered. Badugi's
table holds every four-card hand, keyed by the sum of the cards' bits; it is
built the first time a Badugi hand is evaluated (a quarter of a second). The
eight-or-better low looks at the set of the low ranks only: its 56 hands and
the best of each of the 256 sets of ranks ace to eight are computed at import.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement
from typing import Final, Literal

from ..i18n.text import ENGLISH, Language, Text, capitalized, say
from .cards import SUITS, UNKNOWN, Card, CardError

Ranking = Literal["high", "deuce-to-seven", "ace-to-five", "ace-to-six", "badugi", "eight-or-better"]
RANKINGS: Final[tuple[Ranking, ...]] = ("high", "deuce-to-seven", "ace-to-five", "ace-to-six", "badugi")
FIVE_CARD_RANKINGS: Final[tuple[Ranking, ...]] = RANKINGS[:4]
HAND_SIZES: Final[dict[Ranking, int]] = {**dict.fromkeys(FIVE_CARD_RANKINGS, 5), "badugi": 4, "eight-or-better": 5}

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
BADUGI: Final = 4  # Badugi's category is the number of cards played
# The ranks' names, singular and plural, as the hands' names slot them (lower case: a name that starts with a
# rank gets its first letter capitalised).
RANK_WORDS: Final[dict[int, tuple[Text, Text]]] = {
    1: (Text("ace"), Text("aces")), 2: (Text("two"), Text("twos")), 3: (Text("three"), Text("threes")),
    4: (Text("four"), Text("fours")), 5: (Text("five"), Text("fives")), 6: (Text("six"), Text("sixes")),
    7: (Text("seven"), Text("sevens")), 8: (Text("eight"), Text("eights")), 9: (Text("nine"), Text("nines")),
    10: (Text("ten"), Text("tens")), 11: (Text("jack"), Text("jacks")), 12: (Text("queen"), Text("queens")),
    13: (Text("king"), Text("kings")), 14: (Text("ace"), Text("aces")),
}
_RANK_CHARS: Final = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def rank_char(rank: int) -> str:
    """A rank as one character in a hand's name: ``A``, ``K``… ``T``, ``9``… (an ace low or high alike)."""
    return _RANK_CHARS.get(rank, str(rank))


class HandValue:
    """The value of a hand under one ranking; greater is better, equal splits.

    ``strength`` orders hands of the same ranking; ``ranks`` lists the played
    ranks in the order they are compared (ace as 1 where it plays low).
    ``category`` is the hand's kind (``HIGH_CARD`` ... ``STRAIGHT_FLUSH``), or
    for Badugi the number of cards played (4: a badugi).
    """

    __slots__ = ("ranking", "strength", "category", "ranks")

    ranking: Ranking
    strength: int
    category: int
    ranks: tuple[int, ...]

    def __init__(self, ranking: Ranking, strength: int, category: int, ranks: tuple[int, ...]) -> None:
        self.ranking = ranking
        self.strength = strength
        self.category = category
        self.ranks = ranks

    def _other(self, other: object) -> int:
        if not isinstance(other, HandValue) or other.ranking != self.ranking:
            raise TypeError("only hand values of the same ranking compare")
        return other.strength

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < self._other(other)

    def __le__(self, other: HandValue) -> bool:
        return self.strength <= self._other(other)

    def __gt__(self, other: HandValue) -> bool:
        return self.strength > self._other(other)

    def __ge__(self, other: HandValue) -> bool:
        return self.strength >= self._other(other)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and other.ranking == self.ranking and other.strength == self.strength

    def __hash__(self) -> int:
        return hash((self.ranking, self.strength))

    def __repr__(self) -> str:
        return f"HandValue({self.ranking!r}, {self.describe()!r})"

    @property
    def is_low(self) -> bool:
        """True for the lowball rankings."""
        return self.ranking != "high"

    def dashed(self) -> str:
        """The played ranks from the top, e.g. ``"7-5-4-3-2"``."""
        return "-".join(rank_char(r) for r in self.ranks)

    def describe(self, *, lang: Language = ENGLISH) -> str:
        """The hand's name, the one every screen uses (the table, the private message, DMs, the night's story),
        in sentence case as players say it: ``King high``, ``Pair of sixes``, ``Full house, kings full of
        nines``; a low hand's words then its ranks: ``Seven-five low (7-5-4-3-2)``, ``Pair of fours
        (4-4-7-3-2)``; Badugi's ``Badugi (K-T-7-6)`` and ``Three-card hand (K-Q-A)``. Worded in ``lang``."""
        if self.ranking == "badugi":
            cards = self.dashed()
            if self.category == BADUGI:
                return say(lang, "Badugi ({cards})", cards=cards)
            if self.category == 3:
                return say(lang, "Three-card hand ({cards})", cards=cards)
            if self.category == 2:
                return say(lang, "Two-card hand ({cards})", cards=cards)
            return say(lang, "One-card hand ({cards})", cards=cards)
        words = _category_words(self.category, self.ranks, self.is_low, lang)
        return f"{words} ({self.dashed()})" if self.is_low else words


def assassinated_words(twos: Sequence[Card], *, lang: Language = ENGLISH) -> str:
    """Assassin: the name of a hand that holds a two (or a joker), whatever else it makes: ``Assassinated (holds
    a two)``, ``(holds twos)``, ``(holds a joker)``. Worded in ``lang``."""
    if all(c.is_joker for c in twos):
        return say(lang, "Assassinated (holds a joker)") if len(twos) == 1 else say(lang, "Assassinated (holds jokers)")
    return say(lang, "Assassinated (holds a two)") if len(twos) == 1 else say(lang, "Assassinated (holds twos)")


def _category_words(category: int, ranks: tuple[int, ...], low: bool, lang: Language) -> str:
    top = ranks[0]
    one, many = RANK_WORDS[top]
    if category == STRAIGHT_FLUSH:
        return say(lang, "Royal flush") if top == 14 else say(lang, "Straight flush, {rank} high", rank=one)
    if category == QUADS:
        return say(lang, "Four of a kind, {ranks}", ranks=many)
    if category == FULL_HOUSE:
        return say(lang, "Full house, {trips} full of {pair}", trips=many, pair=RANK_WORDS[ranks[3]][1])
    if category == FLUSH:
        return say(lang, "Flush, {rank} high", rank=one)
    if category == STRAIGHT:
        return say(lang, "Straight, {rank} high", rank=one)
    if category == TRIPS:
        return say(lang, "Three of a kind, {ranks}", ranks=many)
    if category == TWO_PAIR:
        return say(lang, "Two pair, {high} and {low}", high=many, low=RANK_WORDS[ranks[2]][1])
    if category == PAIR:
        return say(lang, "Pair of {ranks}", ranks=many)
    if low:  # a low's two top cards, as lowball players say it: "seven-five"
        return capitalized(say(lang, "{high}-{second} low", high=one, second=RANK_WORDS[ranks[1]][0]))
    return capitalized(say(lang, "{rank} high", rank=one))


# How each ranking treats the ace, straights and flushes.
_ACE_LOW: Final = {"high": False, "deuce-to-seven": False, "ace-to-five": True, "ace-to-six": True}
_STRAIGHTS: Final = {"high": True, "deuce-to-seven": True, "ace-to-five": False, "ace-to-six": True}
_WHEEL_IS_STRAIGHT: Final = {"high": True, "deuce-to-seven": False, "ace-to-five": False, "ace-to-six": True}


def _classify(ranking: Ranking, ranks: tuple[int, ...], suited: bool) -> tuple[int, tuple[int, ...]]:
    """(category, ranks in comparison order) of five ranks (2..14) under ``ranking``."""
    if _ACE_LOW[ranking]:
        ranks = tuple(1 if r == 14 else r for r in ranks)
    counts = Counter(ranks)
    ordered = tuple(sorted(ranks, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    flush = suited and _STRAIGHTS[ranking]  # flushes count exactly where straights do
    straight_high = 0
    if len(counts) == 5 and _STRAIGHTS[ranking]:
        top, low = max(ranks), min(ranks)
        if top - low == 4:
            straight_high = top
        elif set(ranks) == {14, 2, 3, 4, 5} and _WHEEL_IS_STRAIGHT[ranking]:
            straight_high = 5
    if straight_high:
        run: tuple[int, ...] = (5, 4, 3, 2, 14) if straight_high == 5 and 14 in ranks else tuple(
            range(straight_high, straight_high - 5, -1)
        )
        return (STRAIGHT_FLUSH if flush else STRAIGHT), run
    if shape == [4, 1]:
        return QUADS, ordered
    if shape == [3, 2]:
        return FULL_HOUSE, ordered
    if flush:
        return FLUSH, ordered
    if shape == [3, 1, 1]:
        return TRIPS, ordered
    if shape == [2, 2, 1]:
        return TWO_PAIR, ordered
    if shape == [2, 1, 1, 1]:
        return PAIR, ordered
    return HIGH_CARD, ordered


def _sort_key(category: int, ranks: tuple[int, ...]) -> tuple[int, ...]:
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        return (category, ranks[0])  # a wheel is five-high
    return (category, *ranks)


_Table = dict[tuple[int, bool], HandValue]


def _build_table(ranking: Ranking) -> _Table:
    entries: list[tuple[tuple[int, ...], int, bool, int, tuple[int, ...]]] = []
    for combo in combinations_with_replacement(range(2, 15), 5):
        if max(Counter(combo).values()) > 4:
            continue
        key = 1
        for r in combo:
            key *= _PRIME_OF_RANK[r]
        for suited in (False, True) if len(set(combo)) == 5 else (False,):
            category, ordered = _classify(ranking, combo, suited)
            sort_key = _sort_key(category, ordered)
            entries.append((sort_key, key, suited, category, ordered))
    low = ranking != "high"
    # Lowball values are the reverse of their "high" order.
    entries.sort(key=lambda e: e[0], reverse=low)
    table: _Table = {}
    strength = 0
    previous: tuple[int, ...] | None = None
    value: HandValue | None = None
    for sort_key, key, suited, category, ordered in entries:
        if sort_key != previous:
            strength += 1
            previous = sort_key
            value = HandValue(ranking, strength, category, ordered)
        assert value is not None
        table[key, suited] = value
    return table


_PRIME_OF_RANK: Final = {r: p for r, p in zip(range(2, 15), (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41))}


def _five_with_flushes(table: _Table) -> Callable[[Sequence[Card]], HandValue]:
    def evaluate_five(cards: Sequence[Card]) -> HandValue:
        a, b, c, d, e = cards
        s = a.suit
        return table[a.prime * b.prime * c.prime * d.prime * e.prime,
                     b.suit == s and c.suit == s and d.suit == s and e.suit == s]
    return evaluate_five


def _five_without_flushes(table: _Table) -> Callable[[Sequence[Card]], HandValue]:
    def evaluate_five(cards: Sequence[Card]) -> HandValue:
        a, b, c, d, e = cards
        return table[a.prime * b.prime * c.prime * d.prime * e.prime, False]
    return evaluate_five


_FIVE: Final[dict[str, Callable[[Sequence[Card]], HandValue]]] = {}  # a ranking's, from its first use


class _Strengths:
    """A ranking's five-card table as plain ints, for the loops over many five-card hands: the strength of
    each product of five rank primes, unsuited and suited, the value of each strength, and the best unsuited
    value of each product of six or more rank primes met so far."""

    __slots__ = ("plain", "suited", "values", "best")

    def __init__(self, table: _Table) -> None:
        self.plain: dict[int, int] = {}
        self.suited: dict[int, int] = {}
        self.values: dict[int, HandValue] = {}
        for (key, suited), value in table.items():
            (self.suited if suited else self.plain)[key] = value.strength
            self.values[value.strength] = value
        self.best: dict[int, HandValue] = {}


_STRENGTHS: Final[dict[str, _Strengths]] = {}


def _five_card(ranking: str) -> Callable[[Sequence[Card]], HandValue] | None:
    """The evaluator of five cards under ``ranking`` (its table built now if this is its first use), None for a
    ranking that is not a five-card one."""
    if ranking not in FIVE_CARD_RANKINGS:
        return None
    if ranking not in _FIVE:
        table = _build_table(ranking)
        _STRENGTHS[ranking] = _Strengths(table)
        make = _five_without_flushes if ranking == "ace-to-five" else _five_with_flushes
        _FIVE[ranking] = make(table)
    return _FIVE[ranking]


def _strengths(ranking: str) -> _Strengths:
    if ranking not in _STRENGTHS:
        _five_card(ranking)
    return _STRENGTHS[ranking]


_ALL_RANKINGS: Final[tuple[Ranking, ...]] = (*RANKINGS, "eight-or-better")
_SUIT_MASKS: Final = tuple(sum(1 << (4 * i + s) for i in range(13)) for s in range(4))  # of Card.bit


def _best_of_many(ranking: str, cards: Sequence[Card]) -> HandValue:
    """The best five of six or more distinct cards under a five-card ranking."""
    tables = _STRENGTHS[ranking]
    product = 1
    bits = 0
    for card in cards:
        product *= card.prime
        bits |= card.bit
    best = tables.best.get(product)
    if best is None:
        plain = tables.plain
        best = tables.values[max([plain[a.prime * b.prime * c.prime * d.prime * e.prime]
                                  for a, b, c, d, e in combinations(cards, 5)])]
        tables.best[product] = best  # the ranks alone decide unless five cards share a suit
    if ranking == "ace-to-five":
        return best
    flushes = 0
    for suit, mask in zip(SUITS, _SUIT_MASKS):
        if (bits & mask).bit_count() >= 5:
            if ranking != "high":  # a flush is bad in the other lows: only the combinations can tell
                return max(_FIVE[ranking](combo) for combo in combinations(cards, 5))
            suited = tables.suited
            flushes = max(flushes, *[suited[a.prime * b.prime * c.prime * d.prime * e.prime]
                                     for a, b, c, d, e in combinations([c for c in cards if c.suit == suit], 5)])
    return tables.values[flushes] if flushes > best.strength else best


# ------------------------------------------------------------------------------------------------------- Badugi

_BADUGI_TABLE: dict[int, HandValue] = {}


def _badugi_value(size: int, low_ranks: int) -> HandValue:
    """The value of a set of ``size`` cards of different suits whose ranks (ace 0, two 1 ... king 12) are the
    bits of ``low_ranks``. More cards are better; then the lower set, compared from the top: the set whose
    rank bits make the smaller number."""
    ranks = tuple(r + 1 for r in range(12, -1, -1) if low_ranks >> r & 1)
    return HandValue("badugi", size << 13 | (8191 - low_ranks), size, ranks)


def _badugi_table() -> dict[int, HandValue]:
    """Every four-card hand's value by the sum of its cards' bits (docs/rules.md section 13.3: a hand plays its
    largest set of cards of different suits and ranks, the lowest such set if there are several)."""
    if _BADUGI_TABLE:
        return _BADUGI_TABLE
    deck = range(52)  # card i of STANDARD_DECK: rank index i // 4 (two ... ace), suit i % 4
    low = [1 << ((i // 4 + 1) % 13) for i in deck]  # rank bits, the ace lowest
    suit = [1 << (i % 4) for i in deck]
    key = [1 << i for i in deck]
    pop = [m.bit_count() for m in range(8192)]

    def strength(size: int, ranks: int) -> int:
        return size << 13 | (8191 - ranks)

    # The strength of every set of one to three cards: its own if its cards differ in suit and rank,
    # else that of its best smaller set.
    best = {key[a]: strength(1, low[a]) for a in deck}
    for a, b in combinations(deck, 2):
        ranks = low[a] | low[b]
        valid = pop[ranks] == 2 and suit[a] != suit[b]
        best[key[a] | key[b]] = strength(2, ranks) if valid else max(best[key[a]], best[key[b]])
    for a, b, c in combinations(deck, 3):
        ranks, suits = low[a] | low[b] | low[c], suit[a] | suit[b] | suit[c]
        ka, kb, kc = key[a], key[b], key[c]
        valid = pop[ranks] == 3 and pop[suits] == 3
        best[ka | kb | kc] = strength(3, ranks) if valid else max(best[ka | kb], best[ka | kc], best[kb | kc])
    values = {v.strength: v for v in (_badugi_value(pop[m], m) for m in range(1, 8192) if pop[m] <= 4)}
    for a, b, c in combinations(deck, 3):
        ka, kb, kc = key[a], key[b], key[c]
        kab, kac, kbc, kabc = ka | kb, ka | kc, kb | kc, ka | kb | kc
        ranks3, suits3, three = low[a] | low[b] | low[c], suit[a] | suit[b] | suit[c], best[kabc]
        for d in range(c + 1, 52):
            kd, ranks = key[d], ranks3 | low[d]
            if pop[ranks] == 4 and suits3 | suit[d] == 15:
                _BADUGI_TABLE[kabc | kd] = values[strength(4, ranks)]
            else:
                _BADUGI_TABLE[kabc | kd] = values[max(three, best[kab | kd], best[kac | kd], best[kbc | kd])]
    return _BADUGI_TABLE


def _evaluate_badugi(cards: Sequence[Card]) -> HandValue:
    table = _BADUGI_TABLE or _badugi_table()
    try:
        if len(cards) == 4:
            a, b, c, d = cards
            return table[a.bit | b.bit | c.bit | d.bit]
        if len(cards) < 4:
            raise ValueError(f"a Badugi hand needs at least four cards, not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise _bad_cards(cards, "badugi")
        return max(table[a.bit | b.bit | c.bit | d.bit] for a, b, c, d in combinations(cards, 4))
    except (KeyError, AttributeError, TypeError):
        raise _bad_cards(cards, "badugi") from None


# ---------------------------------------------------------------------------------------------- eight or better


class NoLow(ValueError):
    """The cards hold no qualifying eight-or-better low."""


# A card's bit among the low ranks (ace 1, two 2 ... eight 128; 0 above eight) by Card.rank; 256 marks the
# unknown card (rank 0), which no table below has.
_LOW_BIT: Final = (256, 0, *(1 << (r - 1) for r in range(2, 9)), 0, 0, 0, 0, 0, 1)


def _low8_values() -> tuple[tuple[HandValue, ...], tuple[HandValue | None, ...], tuple[int, ...]]:
    # Comparing from the top, the lower hand is the one whose rank bits make the smaller number.
    lows = sorted((m for m in range(256) if m.bit_count() == 5), reverse=True)
    values: list[HandValue] = [HandValue("eight-or-better", 0, HIGH_CARD, ())] * 256
    for strength, m in enumerate(lows, start=1):
        ranks = tuple(r + 1 for r in range(7, -1, -1) if m >> r & 1)
        values[m] = HandValue("eight-or-better", strength, HIGH_CARD, ranks)

    def lowest(m: int, count: int) -> int:
        if m.bit_count() < count:
            return 0
        while m.bit_count() > count:
            m &= ~(1 << (m.bit_length() - 1))
        return m

    best = tuple(values[lowest(m, 5)] if m.bit_count() >= 5 else None for m in range(256))
    return tuple(values), best, tuple(lowest(m, 3) for m in range(256))


# The value of each five-rank mask; the best low of each set of low ranks (None: fewer than five); the three
# lowest ranks of each set (0: fewer than three).
_LOW8_VALUES, _LOW8_BEST, _LOWEST_THREE = _low8_values()


def best_low8(cards: Sequence[Card]) -> HandValue | None:
    """The best eight-or-better low among any five of ``cards`` (five or more), None if none qualifies.

    Five cards of different ranks, all eight or lower, aces low; straights and flushes do not count.
    Raises ValueError for fewer than five cards, CardError for repeated or unknown cards.
    """
    if len(cards) < 5:
        raise ValueError(f"a hand needs at least five cards, not {len(cards)}")
    try:
        if len(set(cards)) != len(cards):
            raise _bad_cards(cards, "eight-or-better")
        ranks = 0
        for card in cards:
            ranks |= _LOW_BIT[card.rank]
        return _LOW8_BEST[ranks]
    except (IndexError, AttributeError, TypeError):
        raise _bad_cards(cards, "eight-or-better") from None


# -------------------------------------------------------------------------------------------------------- Omaha


def best_omaha(ranking: str, hole: Sequence[Card], board: Sequence[Card]) -> HandValue | None:
    """The best hand of exactly two of ``hole`` and exactly three of ``board`` (Omaha, Big O).

    ``ranking`` is ``"high"`` or ``"eight-or-better"`` (None when no low qualifies). Raises ValueError for an
    other ranking or fewer than two hole or three board cards, CardError for repeated or unknown cards.
    """
    if ranking not in ("high", "eight-or-better"):
        raise ValueError(f"Omaha is ranked high or eight-or-better, not {ranking!r}")
    if len(hole) < 2 or len(board) < 3:
        raise ValueError(f"Omaha needs two hole cards and three board cards, not {len(hole)} and {len(board)}")
    cards = [*hole, *board]
    try:
        distinct = set(cards)
        if len(distinct) != len(cards) or UNKNOWN in distinct:
            raise _bad_cards(cards, ranking)
        if ranking == "high":
            return _omaha_high(hole, board)
        return _omaha_low8(hole, board)
    except (KeyError, IndexError, AttributeError, TypeError):
        raise _bad_cards(cards, ranking) from None


def _omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    tables = _STRENGTHS.get("high") or _strengths("high")
    pairs = {a.prime * b.prime for a, b in combinations(hole, 2)}
    triples = {a.prime * b.prime * c.prime for a, b, c in combinations(board, 3)}
    plain = tables.plain
    best = max([plain[p * t] for p in pairs for t in triples])
    board_suits = [c.suit for c in board]
    for suit in SUITS:
        if board_suits.count(suit) >= 3:
            suited_hole = [c for c in hole if c.suit == suit]
            if len(suited_hole) >= 2:
                suited = tables.suited
                best = max(best, *[suited[a.prime * b.prime * x.prime * y.prime * z.prime]
                                   for a, b in combinations(suited_hole, 2)
                                   for x, y, z in combinations([c for c in board if c.suit == suit], 3)])
    return tables.values[best]


def _omaha_low8(hole: Sequence[Card], board: Sequence[Card]) -> HandValue | None:
    board_ranks = 0
    for card in board:
        board_ranks |= _LOW_BIT[card.rank]
    low_hole = [_LOW_BIT[c.rank] for c in hole]
    best = 256
    for pair in {a | b for a, b in combinations(low_hole, 2) if a and b and a != b}:
        three = _LOWEST_THREE[board_ranks & ~pair]
        if three and pair | three < best:  # the smaller mask is the lower hand
            best = pair | three
    return None if best == 256 else _LOW8_VALUES[best]


# ---------------------------------------------------------------------------------------------------------- stud


def showing_value(cards: Sequence[Card], low: bool) -> tuple[int, ...]:
    """How strong the up cards of a stud hand show; greater acts first from fourth street (docs/rules.md section 18.1).

    ``low=False`` (stud, stud hi-lo): the highest hand counting pairs, two pair, trips and quads only, aces
    high, then the kickers from the top. ``low=True`` (razz): the lowest ace-to-five hand, aces low. Suits never
    count. Values of the same number of cards compare.
    """
    if not cards:
        raise ValueError("a showing hand needs at least one up card")
    if not all(c.suit in _SUIT_INDEX for c in cards):
        raise CardError(f"{''.join(str(c) for c in cards)}: stud up cards are known cards of a standard deck")
    ranks = [1 if low and c.rank == 14 else c.rank for c in cards]
    counts = Counter(ranks)
    ordered = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    top, second, *_ = (*sorted(counts.values(), reverse=True), 0)
    # High card, pair, two pair, trips, full house (five up cards), quads.
    category = (0, 1, 3, 5)[top - 1] + (top in (2, 3) and second == 2)
    if low:
        return (-category, *(-r for r in ordered))
    return (category, *ordered)


_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}  # clubs lowest, then diamonds, hearts, spades


def bring_in_value(card: Card, low: bool) -> int:
    """Who must bring in on third street: greater brings in (docs/rules.md section 18.2).

    ``low=False`` (stud, stud hi-lo): the lowest up card, aces high, ties to the lower suit (clubs, diamonds,
    hearts, spades). ``low=True`` (razz): the highest up card, aces low, ties to the higher suit.
    """
    suit = _SUIT_INDEX.get(card.suit)
    if suit is None:
        raise CardError(f"{card}: the bring-in is decided by a known card of a standard deck")
    if low:
        return (1 if card.rank == 14 else card.rank) * 4 + suit
    return (14 - card.rank) * 4 + 3 - suit


# ------------------------------------------------------------------------------------------------------ evaluate


def evaluate(ranking: str, cards: Sequence[Card]) -> HandValue:
    """The value of the best hand in ``cards`` under ``ranking``.

    ``ranking`` is ``"high"``, ``"deuce-to-seven"``, ``"ace-to-five"``,
    ``"ace-to-six"``, ``"eight-or-better"`` (the best five of five or more
    cards) or ``"badugi"`` (four or more cards). Jokers play as twos of no
    suit (not in Badugi); unknown cards cannot be evaluated. Raises
    ValueError for an unknown ranking or too few cards, NoLow (a ValueError)
    for an eight-or-better hand that does not qualify, CardError for cards
    no hand can hold.
    """
    five = _FIVE.get(ranking) or _five_card(ranking)
    if five is None:
        if ranking == "badugi":
            return _evaluate_badugi(cards)
        if ranking == "eight-or-better":
            low = best_low8(cards)
            if low is None:
                raise NoLow(f"{''.join(str(c) for c in cards)} holds no eight-or-better low")
            return low
        raise ValueError(f"unknown ranking {ranking!r}; use one of {', '.join(_ALL_RANKINGS)}")
    try:
        if len(cards) == 5:
            if len(set(cards)) != 5:
                raise _bad_cards(cards, ranking)
            return five(cards)
        if len(set(cards)) != len(cards):
            raise _bad_cards(cards, ranking)
        if len(cards) < 5:
            raise ValueError(f"a hand needs at least five cards, not {len(cards)}")
        return _best_of_many(ranking, cards)
    except KeyError:
        raise _bad_cards(cards, ranking) from None
    except (AttributeError, TypeError):
        raise _bad_cards(cards, ranking) from None


def _bad_cards(cards: Sequence[Card], ranking: str) -> Exception:
    if any(isinstance(c, Card) and c.is_unknown for c in cards):
        return CardError("a hand with an unknown card (??) cannot be evaluated")
    if not all(isinstance(c, Card) for c in cards):
        return TypeError("evaluate takes Card objects; read text with parse_cards first")
    if len(set(cards)) != len(cards):
        return CardError(f"{''.join(str(c) for c in cards)} holds the same card twice")
    if ranking == "badugi":
        return CardError(f"{''.join(str(c) for c in cards)}: Badugi is played without jokers")
    if ranking == "eight-or-better":
        return CardError(f"{''.join(str(c) for c in cards)} cannot be evaluated")
    return CardError(f"{''.join(str(c) for c in cards)} is not a hand any ranking knows (five twos?)")
