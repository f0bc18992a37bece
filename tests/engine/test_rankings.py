"""Hand rankings (docs/rules.md sections 1.6 and 2.3).

High, deuce-to-seven and ace-to-five are checked against pokerkit over all
2,598,960 five-card hands; ace-to-six, which pokerkit does not have, against
the rules by explicit tests and against an independent reference classifier
written below over every class of hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import partial
from itertools import combinations, combinations_with_replacement
from operator import attrgetter
from typing import Any

import pytest

from bot.poker import Card, CardError, evaluate, parse_cards
from bot.poker.cards import RANKS, STANDARD_DECK
from bot.poker.rankings import (
    FIVE_CARD_RANKINGS,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    RANKINGS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from tests.engine.helpers import beats, best_to_worst, ties, value

ALL_HANDS = 2_598_960


# --- agreement with pokerkit over every five-card hand ------------------------------------------------------------

# Our category numbers and pokerkit's label names.
_LABELS = {
    HIGH_CARD: "HIGH_CARD",
    PAIR: "ONE_PAIR",
    TWO_PAIR: "TWO_PAIR",
    TRIPS: "THREE_OF_A_KIND",
    STRAIGHT: "STRAIGHT",
    FLUSH: "FLUSH",
    FULL_HOUSE: "FULL_HOUSE",
    QUADS: "FOUR_OF_A_KIND",
    STRAIGHT_FLUSH: "STRAIGHT_FLUSH",
}

# Hands per category among all 2,598,960 (high: the textbook figures; 2-7 moves the
# ten five-high straights and four steel wheels to ace-high and flush; A-5 has no
# straights or flushes; A-6 has the same nine straights as 2-7, A-2-3-4-5 to 9-T-J-Q-K).
_HIGH_COUNTS = {
    HIGH_CARD: 1_302_540, PAIR: 1_098_240, TWO_PAIR: 123_552, TRIPS: 54_912, STRAIGHT: 10_200,
    FLUSH: 5_108, FULL_HOUSE: 3_744, QUADS: 624, STRAIGHT_FLUSH: 40,
}
_CATEGORY_COUNTS = {
    "high": _HIGH_COUNTS,
    "deuce-to-seven": {**_HIGH_COUNTS, HIGH_CARD: 1_303_560, STRAIGHT: 9_180, FLUSH: 5_112, STRAIGHT_FLUSH: 36},
    "ace-to-five": {
        HIGH_CARD: 1_302_540 + 10_200 + 5_108 + 40, PAIR: 1_098_240, TWO_PAIR: 123_552, TRIPS: 54_912,
        FULL_HOUSE: 3_744, QUADS: 624,
    },
}
_CATEGORY_COUNTS["ace-to-six"] = _CATEGORY_COUNTS["deuce-to-seven"]
# Distinct hand values: 7,462 where straights and flushes count, 6,175 rank multisets for A-5.
_CLASSES = {"high": 7462, "deuce-to-seven": 7462, "ace-to-five": 6175, "ace-to-six": 7462}


def _pokerkit_hand_class(ranking: str) -> type:
    pokerkit = pytest.importorskip("pokerkit")
    classes: dict[str, type] = {
        "high": pokerkit.StandardHighHand,
        "deuce-to-seven": pokerkit.StandardLowHand,
        "ace-to-five": pokerkit.RegularLowHand,
    }
    return classes[ranking]


def _pokerkit_deck() -> list[object]:
    pokerkit = pytest.importorskip("pokerkit")
    deck = [pokerkit.Card.clean(card.code)[0] for card in STANDARD_DECK]
    assert [repr(c) for c in deck] == [c.code for c in STANDARD_DECK]
    return deck


@pytest.mark.parametrize(
    ("ranking", "better", "worse"),
    [
        ("high", "AsAdAcKhKs", "KsKdKcAhAs"),
        ("deuce-to-seven", "7s5d4c3h2s", "8s5d4c3h2s"),
        ("ace-to-five", "5s4d3c2hAs", "6s4d3c2hAs"),
    ],
)
def test_pokerkit_compares_greater_for_the_better_hand_as_we_assume(ranking: str, better: str, worse: str) -> None:
    """Pins how pokerkit orders hands (for low hands a smaller lookup index is better)."""
    hand = _pokerkit_hand_class(ranking)
    assert hand(better) > hand(worse)
    assert hand(worse) < hand(better)
    low_sign = -1 if hand.low else 1
    assert low_sign * hand.lookup.get_entry(better).index > low_sign * hand.lookup.get_entry(worse).index
    assert beats(ranking, better, worse)


_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # one per rank: a product names a multiset of ranks


@pytest.mark.slow
@pytest.mark.parametrize("ranking", ["high", "deuce-to-seven", "ace-to-five"])
def test_rankings_agree_with_pokerkit_on_all_five_card_hands(ranking: str) -> None:
    """For any two of the 2,598,960 hands, ours compares <, == or > exactly when pokerkit's does.

    Each hand is evaluated by both; the pairs (our strength, pokerkit's lookup index)
    are counted. The orders agree iff each of our strengths meets exactly one pokerkit
    index and vice versa, and sorting by ours sorts pokerkit's the same way (reversed
    for low hands, where pokerkit's smaller index is the better hand).

    pokerkit's lookup takes 6 microseconds a hand, so it is asked once per class of hands with the same ranks
    and the same answer to "one suit?" (its lookup is keyed by exactly that; 20,000 random hands below check it
    on the real thing), and our evaluation is asked for every hand.
    """
    hand_class = _pokerkit_hand_class(ranking)
    pokerkit_card = dict(zip(STANDARD_DECK, _pokerkit_deck(), strict=True))
    prime = {card: _PRIMES[card.rank - 2] for card in STANDARD_DECK}
    entry_of_class: dict[tuple[int, bool], Any] = {}

    def entry(five: tuple[Card, ...]) -> Any:
        a, b, c, d, e = five
        key = (prime[a] * prime[b] * prime[c] * prime[d] * prime[e], a.suit == b.suit == c.suit == d.suit == e.suit)
        found = entry_of_class.get(key)
        if found is None:
            found = entry_of_class[key] = hand_class.lookup.get_entry([pokerkit_card[card] for card in five])
        return found

    ours = map(attrgetter("strength", "category"), map(partial(evaluate, ranking), combinations(STANDARD_DECK, 5)))
    theirs = map(attrgetter("index", "label"), map(entry, combinations(STANDARD_DECK, 5)))
    pairs = Counter(zip(ours, theirs))
    for five in random.Random(5).sample(list(combinations(STANDARD_DECK, 5)), 20_000):
        assert hand_class.lookup.get_entry([pokerkit_card[card] for card in five]) == entry(five), five

    assert pairs.total() == ALL_HANDS
    assert len(pairs) == _CLASSES[ranking]
    our_strengths = Counter(strength for (strength, _), _ in pairs)
    their_indices = Counter(index for _, (index, _) in pairs)
    assert max(our_strengths.values()) == 1, "one of our values covers hands that pokerkit ranks differently"
    assert max(their_indices.values()) == 1, "we rank differently hands that pokerkit finds equal"
    sign = -1 if hand_class.low else 1
    by_ours = sorted(pairs)
    theirs_in_our_order = [sign * index for _, (index, _) in by_ours]
    assert theirs_in_our_order == sorted(theirs_in_our_order)
    # The categories agree too, and hold the expected number of hands.
    assert all(_LABELS[category] == label.name for (_, category), (_, label) in pairs)
    per_category: Counter[int] = Counter()
    for ((_, category), _), count in pairs.items():
        per_category[category] += count
    assert per_category == _CATEGORY_COUNTS[ranking]


# --- ace-to-six: the rules, and an independent reference classifier ------------------------------------------------

A6 = "ace-to-six"


def _reference_ace_to_six(ranks: Sequence[int], suited: bool) -> tuple[int, tuple[int, ...]]:
    """How bad a hand is under ace-to-six (smaller is better), written straight from docs/rules.md section 6.1.

    The ace is always low (1); straights and flushes count against you; A-K-Q-J-T
    is not a straight. Categories from best to worst as in 2-7: no pair, one pair,
    two pair, trips, straight, flush, full house, quads, straight flush. Within a
    category the highest group decides first (the pair before the kickers, a
    straight by its top card), then the next, and so on.
    """
    values = [1 if r == 14 else r for r in ranks]
    count_of = {v: values.count(v) for v in values}
    groups = sorted(count_of, key=lambda v: (count_of[v], v), reverse=True)
    shape = sorted(count_of.values(), reverse=True)
    straight = len(count_of) == 5 and max(values) - min(values) == 4
    if straight and suited:
        badness = 8
    elif shape == [4, 1]:
        badness = 7
    elif shape == [3, 2]:
        badness = 6
    elif suited:
        badness = 5
    elif straight:
        badness = 4
    elif shape == [3, 1, 1]:
        badness = 3
    elif shape == [2, 2, 1]:
        badness = 2
    elif shape == [2, 1, 1, 1]:
        badness = 1
    else:
        badness = 0
    return badness, tuple(groups)


def _one_hand_of_each_class() -> list[tuple[str, tuple[int, ...], bool]]:
    """One concrete hand for every rank multiset, suited and not (where it can be)."""
    hands = []
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        for suited in (False, True) if len(set(ranks)) == 5 else (False,):
            seen: Counter[int] = Counter()
            codes = []
            for r in ranks:
                suit = "h" if suited else "cdhs"[seen[r]]
                seen[r] += 1
                codes.append(RANKS[r - 2] + suit)
            if not suited and len(set(ranks)) == 5:
                codes[-1] = codes[-1][0] + "d"  # not all one suit
            hands.append(("".join(codes), ranks, suited))
    return hands


def test_ace_to_six_agrees_with_a_reference_classifier_on_every_class_of_hand() -> None:
    hands = _one_hand_of_each_class()
    assert len(hands) == 6175 + 1287
    reference_of: dict[int, set[tuple[int, tuple[int, ...]]]] = {}
    for text, ranks, suited in hands:
        reference_of.setdefault(value(A6, text).strength, set()).add(_reference_ace_to_six(ranks, suited))
    assert len(reference_of) == _CLASSES[A6]
    assert all(len(keys) == 1 for keys in reference_of.values()), "hands we call equal differ in the reference"
    badness_from_worst = [next(iter(reference_of[s])) for s in sorted(reference_of)]
    assert badness_from_worst == sorted(badness_from_worst, reverse=True)
    assert len(set(badness_from_worst)) == len(badness_from_worst), "hands we call different tie in the reference"


@pytest.mark.slow
def test_ace_to_six_categories_over_all_five_card_hands() -> None:
    categories = Counter(map(attrgetter("category"), map(partial(evaluate, A6), combinations(STANDARD_DECK, 5))))
    assert categories == _CATEGORY_COUNTS[A6]


def test_ace_to_six_wheel_is_a_straight() -> None:
    wheel = value(A6, "5s4d3c2hAs")
    assert wheel.category == STRAIGHT
    assert beats(A6, "KsQdJc9h8s", "5s4d3c2hAs")  # any no-pair hand beats it
    assert beats(A6, "2s2d2c3h4s", "5s4d3c2hAs")  # trips beat it too
    assert beats(A6, "5s4d3c2hAs", "6s5d4c3h2s")  # and it is the lowest straight


def test_ace_to_six_ace_king_queen_jack_ten_is_king_high() -> None:
    hand = value(A6, "AsKdQcJhTs")
    assert hand.category == HIGH_CARD
    assert hand.describe() == "King-queen low (K-Q-J-T-A)"
    assert beats(A6, "AsKdQcJhTs", "2s2dKcJhTs")  # no pair beats a pair
    assert beats(A6, "AsKdQcJhTs", "KsQdJcTh2s")  # the ace is the lowest card
    assert beats(A6, "AsKdQcJhTs", "KsQdJcTh9s")  # K-Q-J-T-9 is a straight


def test_ace_to_six_best_hand_is_six_four_three_two_ace_not_all_one_suit() -> None:
    best = value(A6, "6s4d3c2hAs")
    assert max(map(partial(evaluate, A6), combinations(STANDARD_DECK, 5))) == best
    assert best.describe() == "Six-four low (6-4-3-2-A)"
    assert beats(A6, "6s4d3c2hAs", "6s5d3c2hAs")
    assert beats(A6, "6s4d3c2hAs", "6s4s3s2sAs")  # all one suit it is a flush


def test_ace_to_six_flushes_count_against_you() -> None:
    assert value(A6, "Kh9h7h5h3h").category == FLUSH
    assert beats(A6, "Kh9h7h5h3s", "Kh9h7h5h3h")
    assert beats(A6, "2s2d2c3h4s", "7h5h4h3h2h")  # trips beat a flush
    assert beats(A6, "5s4d3c2hAs", "7h5h4h3h2h")  # a straight beats a flush
    assert value(A6, "6h5h4h3h2h").category == STRAIGHT_FLUSH


def test_ace_to_six_category_order_is_as_in_deuce_to_seven() -> None:
    from_best = [
        "Ks9d7c5h3s",  # no pair
        "AsAd7c5h3s",  # one pair
        "2s2d3c3h4s",  # two pair
        "AsAdAc2h3s",  # trips
        "5s4d3c2hAs",  # straight
        "Kh9h7h5h3h",  # flush
        "AsAdAc2h2s",  # full house
        "AsAdAcAh2s",  # quads
        "5s4s3s2sAs",  # straight flush
    ]
    assert best_to_worst(A6, from_best)
    assert best_to_worst("deuce-to-seven", ["Ks9d7c5h3s", "2s2d7c5h3s", "2s2d3c3h5s", "2s2d2c3h5s",
                                            "6s5d4c3h2s", "Kh9h7h5h3h", "2s2d2c3h3s", "2s2d2c2h3s", "6s5s4s3s2s"])
    assert [value(A6, h).category for h in from_best] == list(range(9))


def test_ace_to_six_compares_from_the_top_with_the_ace_lowest() -> None:
    assert beats(A6, "7s5d4c3h2s", "7s6d3c2hAs")
    assert beats(A6, "7s4d3c2hAs", "7s5d3c2hAs")
    assert beats(A6, "AsAd7c5h3s", "2s2d7c5h3s")  # a pair of aces is the lowest pair
    assert ties(A6, "7s4d3c2hAs", "7h4c3d2sAd")  # suits never break ties


# --- ace-to-five ---------------------------------------------------------------------------------------------------

A5 = "ace-to-five"


def test_ace_to_five_wheel_beats_a_six_four() -> None:
    """Worked example: Ann's 5-4-3-2-A beats Bo's 6-4-3-2-A."""
    assert beats(A5, "5h4c3d2sAh", "6d4s3h2cAd")


def test_ace_to_five_suited_six_five_four_three_two_beats_seven_five_four_three_ace() -> None:
    """Worked example: Cy's 2-3-4-5-6 in spades is just a six-low and beats Di's 7-5-4-3-A."""
    assert beats(A5, "6s5s4s3s2s", "7h5d4c3hAc")


def test_ace_to_five_compares_from_the_top_seven_five_beats_seven_six() -> None:
    """Worked example: Eli's 7-5-4-3-2 beats Fay's 7-6-3-2-A (the second card decides)."""
    assert beats(A5, "7s5d4c3h2s", "7h6c3d2sAh")


def test_ace_to_five_no_pair_beats_a_pair_king_jack_beats_aces() -> None:
    """Worked example: Gus's K-J-8-6-4 beats Hal's A-A-2-3-4."""
    assert beats(A5, "KsJd8c6h4s", "AsAd2c3h4d")


def test_ace_to_five_best_hands_in_order() -> None:
    """The seed's list: 5-4-3-2-A, 6-4-3-2-A, 6-5-3-2-A, 6-5-4-2-A, 6-5-4-3-A, 6-5-4-3-2, then 7-4-3-2-A."""
    ladder = ["5s4d3c2hAs", "6s4d3c2hAs", "6s5d3c2hAs", "6s5d4c2hAs", "6s5d4c3hAs", "6s5d4c3h2s", "7s4d3c2hAs"]
    assert best_to_worst(A5, ladder)
    nine_or_lower = [c for c in STANDARD_DECK if c.rank <= 9 or c.rank == 14]
    values = sorted(set(map(partial(evaluate, A5), combinations(nine_or_lower, 5))), reverse=True)
    assert [v.dashed() for v in values[:7]] == [value(A5, h).dashed() for h in ladder]


def test_ace_to_five_wheel_is_best_suited_or_not() -> None:
    assert ties(A5, "5h4h3h2hAh", "5s4d3c2hAs")
    assert value(A5, "5h4h3h2hAh").describe() == "Five-four low (5-4-3-2-A)"
    assert value(A5, "5h4h3h2hAh").category == HIGH_CARD


def test_ace_to_five_straights_and_flushes_do_not_count() -> None:
    assert ties(A5, "9s8d7c6h5s", "9h8h7h6h5h")
    assert beats(A5, "9h8h7h6h5h", "9s9d7c6h4s")
    assert beats(A5, "KhQhJhTh9h", "2s2d3c4h5s")


def test_ace_to_five_paired_hands_lower_pair_first_then_kickers_from_the_top() -> None:
    assert beats(A5, "AsAdKcQhJs", "2s2d3c4h5s")  # a pair of aces beats a pair of deuces
    assert beats(A5, "3s3d7c5h2s", "3h3c8d4hAs")  # same pair: the kickers from the top
    assert beats(A5, "2s2d3c3hKs", "AsAd4c4h5s")  # two pair: the higher pair first
    assert beats(A5, "AsAd4c4hKs", "2s2d4d4sQs")  # then the lower pair
    assert beats(A5, "2s2d3c3h4s", "2h2c3d3s5h")  # then the kicker
    assert best_to_worst(A5, ["KsQdJcTh8s", "KsKdQcJhTs", "2s2d3c3h4s", "AsAdAc2h3s", "AsAdAc2h2s", "AsAdAcAh2s"])


# --- deuce-to-seven ------------------------------------------------------------------------------------------------

D7 = "deuce-to-seven"


def test_deuce_to_seven_best_hand_is_seven_five_four_three_two_not_all_one_suit() -> None:
    best = value(D7, "7s5d4c3h2s")
    assert max(map(partial(evaluate, D7), combinations(STANDARD_DECK[:32], 5))) == best
    assert best.describe() == "Seven-five low (7-5-4-3-2)"
    assert beats(D7, "7s5d4c3h2s", "7s6d4c3h2s")
    assert beats(D7, "7s5d4c3h2s", "7h5h4h3h2h")  # all one suit it is a flush


def test_deuce_to_seven_ace_is_high_and_the_wheel_is_not_a_straight() -> None:
    wheel = value(D7, "As5d4c3h2s")
    assert wheel.category == HIGH_CARD
    assert wheel.describe() == "Ace-five low (A-5-4-3-2)"
    assert beats(D7, "Ks9d7c5h3s", "As5d4c3h2s")  # ace-high loses to king-high
    assert beats(D7, "As5d4c3h2s", "2s2d4c5h7s")  # but beats a pair


def test_deuce_to_seven_ace_king_queen_jack_ten_is_a_straight() -> None:
    assert value(D7, "AsKdQcJhTs").category == STRAIGHT
    assert beats(D7, "AsAdKcQhJs", "AsKdQcJhTs")  # worse than a pair of aces


def test_deuce_to_seven_is_the_reverse_of_high_without_the_five_high_straight() -> None:
    rng = random.Random(27)
    wheels = {frozenset({14, 5, 4, 3, 2})}
    for _ in range(2000):
        a, b = (rng.sample(STANDARD_DECK, 5) for _ in range(2))
        if any(frozenset(c.rank for c in hand) in wheels for hand in (a, b)):
            continue
        high_a, high_b = evaluate("high", a), evaluate("high", b)
        low_a, low_b = evaluate(D7, a), evaluate(D7, b)
        assert (high_a < high_b) == (low_a > low_b)
        assert (high_a == high_b) == (low_a == low_b)


# --- high ----------------------------------------------------------------------------------------------------------


def test_high_category_order() -> None:
    assert best_to_worst("high", [
        "AsKsQsJsTs", "9h8h7h6h5h", "5s4s3s2sAs", "2s2d2c2hAs", "AsAdAcKhKs", "Kh9h7h5h3h",
        "AsKdQcJhTs", "6s5d4c3h2s", "5s4d3c2hAs", "AsAdAc3h2s", "AsAdKcKh2s", "AsAd4c3h2s", "AsKd9c7h2s",
    ])


def test_high_ace_plays_low_only_in_the_five_high_straight() -> None:
    assert value("high", "5s4d3c2hAs").category == STRAIGHT
    assert value("high", "5s4d3c2hAs").describe() == "Straight, five high"
    assert beats("high", "6s5d4c3h2s", "5s4d3c2hAs")
    assert value("high", "As3d4c5h6s").category == HIGH_CARD  # no wrap-around, no gaps


def test_suits_never_rank_and_never_break_ties() -> None:
    for ranking in FIVE_CARD_RANKINGS:  # Badugi: tests/engine/test_badugi.py
        assert ties(ranking, "AsKd9c7h2s", "AhKc9d7s2d")
        assert ties(ranking, "AhKh9h7h2h", "AsKs9s7s2s")


# --- describe ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "hand", "words"),
    [
        ("high", "KsKdKh9c9d", "Full house, kings full of nines"),
        ("high", "AsKsQsJsTs", "Royal flush"),
        ("high", "5s4s3s2sAs", "Straight flush, five high"),
        ("high", "2s2d2c2hAs", "Four of a kind, twos"),
        ("high", "Kh9h7h5h3h", "Flush, king high"),
        ("high", "Ts9d8c7h6s", "Straight, ten high"),
        ("high", "QsQdQc3h2s", "Three of a kind, queens"),
        ("high", "JsJd4c4h9s", "Two pair, jacks and fours"),
        ("high", "AsAd7c4h2s", "Pair of aces"),
        ("high", "AsKd9c7h2s", "Ace high"),
        ("deuce-to-seven", "7s5d4c3h2s", "Seven-five low (7-5-4-3-2)"),
        ("deuce-to-seven", "2s5d7c3h4s", "Seven-five low (7-5-4-3-2)"),
        ("deuce-to-seven", "AsKdQcJhTs", "Straight, ace high (A-K-Q-J-T)"),
        ("ace-to-five", "Ah2s3d4c5h", "Five-four low (5-4-3-2-A)"),
        ("ace-to-five", "AsAd2c3h4s", "Pair of aces (A-A-4-3-2)"),
        ("ace-to-six", "6s4d3c2hAs", "Six-four low (6-4-3-2-A)"),
        ("ace-to-six", "5s4d3c2hAs", "Straight, five high (5-4-3-2-A)"),
        ("ace-to-six", "6s4s3s2sAs", "Flush, six high (6-4-3-2-A)"),
    ],
)
def test_describe_names_the_hand(ranking: str, hand: str, words: str) -> None:
    assert value(ranking, hand).describe() == words


# --- more than five cards, and bad input ---------------------------------------------------------------------------


def test_six_card_hands_play_the_best_five() -> None:
    assert value("high", "AsAdAcKhKs2c").describe() == "Full house, aces full of kings"
    assert value("deuce-to-seven", "7s5d4c3h2sKd").describe() == "Seven-five low (7-5-4-3-2)"
    assert value("ace-to-five", "KdAs2d3c4h5s").describe() == "Five-four low (5-4-3-2-A)"
    assert value("ace-to-six", "5s4d3c2hAs6c").describe() == "Six-four low (6-4-3-2-A)"
    assert value("high", "9h8h7h6h5hAs") == value("high", "9s8s7s6s5s")
    rng = random.Random(6)
    for ranking in RANKINGS:
        for _ in range(300):
            six = rng.sample(STANDARD_DECK, 6)
            assert evaluate(ranking, six) == max(evaluate(ranking, five) for five in combinations(six, 5))


def test_a_joker_plays_exactly_as_a_two() -> None:
    assert ties("deuce-to-seven", "X1 7s 5d 4c 3h", "2c 7s 5d 4c 3h")
    assert ties("high", "X1 X2 Ks Kd 9c", "2c 2d Ks Kd 9c")


def test_values_of_different_rankings_do_not_compare() -> None:
    high, low = value("high", "AsKd9c7h2s"), value("deuce-to-seven", "AsKd9c7h2s")
    assert high != low
    with pytest.raises(TypeError):
        _ = high < low


def test_evaluate_rejects_an_unknown_ranking() -> None:
    with pytest.raises(ValueError, match="unknown ranking 'razz'"):
        evaluate("razz", parse_cards("AsKd9c7h2s"))


def test_evaluate_rejects_fewer_than_five_cards() -> None:
    with pytest.raises(ValueError, match="at least five cards"):
        evaluate("high", parse_cards("AsKd9c7h"))
    with pytest.raises(ValueError, match="at least five cards"):
        evaluate("ace-to-five", [])


def test_evaluate_rejects_an_unknown_card() -> None:
    with pytest.raises(CardError, match="unknown card"):
        evaluate("high", parse_cards("AsKd9c7h??"))
    with pytest.raises(CardError, match="unknown card"):
        evaluate("deuce-to-seven", parse_cards("??AsKd9c7h2s"))
    with pytest.raises(TypeError, match="parse_cards"):
        evaluate("high", ["As", "Kd", "9c", "7h", "2s"])  # type: ignore[list-item]
