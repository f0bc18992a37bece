"""The rankings of the flop and stud games (docs/rules.md sections 1.6, 15.2 and 18.1): the eight-or-better low, Omaha's
two hole cards and three board cards, the best five of seven (hold'em, stud, razz), and stud's showing hands and
bring-in.

Each rule has its own tests; pokerkit is the oracle on random hands: the order of any two of our values must
be pokerkit's order of the same cards (better, worse or equal), and a low must exist exactly when pokerkit
finds one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, pairwise
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker.cards import STANDARD_DECK, UNKNOWN, Card, CardError, parse_cards
from bot.poker.rankings import (
    FLUSH,
    HAND_SIZES,
    HIGH_CARD,
    PAIR,
    STRAIGHT_FLUSH,
    TWO_PAIR,
    HandValue,
    NoLow,
    best_low8,
    best_omaha,
    bring_in_value,
    evaluate,
    showing_value,
)

pokerkit = pytest.importorskip("pokerkit")

LOW8: Final = "eight-or-better"


def low8(cards: str) -> HandValue | None:
    return best_low8(parse_cards(cards))


def a_low(cards: str) -> HandValue:
    value = low8(cards)
    assert value is not None, cards
    return value


def omaha_low(hole: str, board: str) -> HandValue:
    value = omaha(LOW8, hole, board)
    assert value is not None, (hole, board)
    return value


def omaha(ranking: str, hole: str, board: str) -> HandValue | None:
    return best_omaha(ranking, parse_cards(hole), parse_cards(board))


def brute_omaha(ranking: str, hole: Sequence[Card], board: Sequence[Card]) -> HandValue | None:
    """Every two of the hole cards with every three of the board, valued one five-card hand at a time."""
    values = [best_low8([*two, *three]) if ranking == LOW8 else evaluate(ranking, [*two, *three])
              for two in combinations(hole, 2) for three in combinations(board, 3)]
    found = [v for v in values if v is not None]
    return max(found) if found else None


# --- eight or better ------------------------------------------------------------------------------------------


def test_the_eight_or_better_low_is_a_five_card_lowball_ranking() -> None:
    assert HAND_SIZES[LOW8] == 5
    value = low8("8s6d4h2cAs")
    assert value is not None and value.is_low and value.ranking == LOW8
    assert value.describe() == "Eight-six low (8-6-4-2-A)" and value.dashed() == "8-6-4-2-A"
    assert value.category == HIGH_CARD and value.ranks == (8, 6, 4, 2, 1)
    assert evaluate(LOW8, parse_cards("8s6d4h2cAs")) == value


def test_the_wheel_is_the_best_low_and_eight_seven_six_five_four_the_worst() -> None:
    every = {best_low8(list(five)) for five in combinations([c for c in STANDARD_DECK if c.suit == "s"
                                                             and (c.rank <= 8 or c.rank == 14)], 5)}
    assert len(every) == 56  # C(8, 5): one hand per set of five ranks ace to eight
    ordered = sorted(v for v in every if v is not None)
    assert ordered[-1] == low8("5h4d3c2sAs") and ordered[-1].describe() == "Five-four low (5-4-3-2-A)"
    assert ordered[0] == low8("8s7d6c5h4s") and ordered[0].describe() == "Eight-seven low (8-7-6-5-4)"


def test_lows_compare_from_the_top_card_down() -> None:
    assert a_low("7s5d4c3h2s") > a_low("7d6c3s2hAd")  # docs/rules.md section 5.2: 7-5-4-3-2 beats 7-6-3-2-A
    assert a_low("6s4d3c2hAs") > a_low("6d5c3s2hAd") > a_low("7s4d3c2hAs") > a_low("8s3d4c2hAs")
    assert low8("8s6d4h2cAs") == low8("8d6c4s2hAd")  # suits never count


def test_straights_and_flushes_do_not_hurt_the_low() -> None:
    assert low8("5s4s3s2sAs") == low8("5h4d3c2sAs")
    assert low8("8h7h6h5h4h") == low8("8s7d6c5h4s")


def test_a_low_needs_five_different_ranks_eight_or_lower() -> None:
    assert low8("9s6d4h2cAs") is None  # nine high never qualifies
    assert low8("9s8d7c6h5s") is None
    assert low8("2s2d4h6c8s") is None  # a pair leaves four ranks
    assert low8("KsQdJcTh9s") is None
    with pytest.raises(NoLow):
        evaluate(LOW8, parse_cards("9s6d4h2cAs"))
    with pytest.raises(ValueError, match="no eight-or-better low"):
        evaluate(LOW8, parse_cards("2s2d4h6c8sKdQc"))


def test_of_seven_cards_the_five_lowest_ranks_play() -> None:
    assert a_low("2s2d4h6c8sAs3d").describe() == "Six-four low (6-4-3-2-A)"  # a pair among them: five ranks remain
    assert low8("2s2d4h6c8sKdQc") is None  # only four low ranks
    assert a_low("8s7d6c5h4sKdQc").describe() == "Eight-seven low (8-7-6-5-4)"
    assert a_low("8s8d8c5h4s3d2c").describe() == "Eight-five low (8-5-4-3-2)"
    assert low8("KsQdJc9h7s5d3c") is None
    assert evaluate(LOW8, parse_cards("As2d3c4h5s6d7c")).describe() == "Five-four low (5-4-3-2-A)"
    assert len(parse_cards("As2d3c4h5s6d7cKd")) == 8 and low8("As2d3c4h5s6d7cKd") == low8("5h4d3c2sAs")


def test_bad_eight_or_better_hands_are_refused() -> None:
    with pytest.raises(ValueError, match="at least five cards"):
        low8("As2d3c4h")
    with pytest.raises(CardError, match="same card twice"):
        low8("As2d3c4hAs")
    with pytest.raises(CardError, match="unknown"):
        best_low8([*parse_cards("As2d3c4h"), UNKNOWN])
    with pytest.raises(TypeError):
        best_low8(["As", "2d", "3c", "4h", "5s"])  # type: ignore[list-item]


# --- Omaha -----------------------------------------------------------------------------------------------------


def test_omaha_makes_no_flush_with_one_suited_hole_card() -> None:
    hole, board = "Ah5s5d7c", "Kh9h6h2h3c"  # a four-flush board and the ace of hearts
    assert evaluate("high", parse_cards(hole + board)).category == FLUSH  # hold'em's rule would play it
    value = omaha("high", hole, board)
    assert value is not None and value.category == PAIR and value.describe() == "Pair of fives"


def test_omaha_makes_no_flush_with_two_suited_board_cards() -> None:
    value = omaha("high", "AsKsQsJs", "Ts9s4d3c2h")  # four spades in the hand, two on the board
    assert value is not None and value.category == HIGH_CARD and value.dashed() == "A-K-T-9-4"
    flush = omaha("high", "AsKsQdJd", "Ts9s4s3c2h")  # two and three: a flush
    assert flush is not None and flush.describe() == "Flush, ace high"


def test_omaha_plays_a_board_straight_only_with_two_hole_cards() -> None:
    value = omaha("high", "AdAcKhKs", "9s8d7c6h5s")
    assert value is not None and value.describe() == "Pair of aces"
    straight = omaha("high", "Td2c2hKs", "9s8d7c6h5s")  # the ten alone cannot make T-9-8-7-6
    assert straight is not None and straight.describe() == "Pair of twos"
    straight = omaha("high", "TdJc2hKs", "9s8d7c6h5s")
    assert straight is not None and straight.describe() == "Straight, jack high"
    royal = omaha("high", "AsKs2d3c", "QsJsTs4d5c")
    assert royal is not None and royal.category == STRAIGHT_FLUSH and royal.describe() == "Royal flush"


def test_omaha_low_needs_two_different_low_hole_cards_and_three_low_board_cards() -> None:
    assert omaha_low("As2dKhKc", "3s4s5s8h8d").describe() == "Five-four low (5-4-3-2-A)"
    assert omaha(LOW8, "AsKdKhQc", "2s3s4s5s6s") is None  # one low hole card
    assert omaha(LOW8, "AsAdKcQc", "2h3h4hKdQd") is None  # two aces are one low rank
    assert omaha(LOW8, "As2dKhQc", "3s4sKdQdJh") is None  # two low board cards
    assert omaha_low("As2d3c4h", "5s6s7s8sKh").describe() == "Seven-six low (7-6-5-2-A)"
    assert omaha(LOW8, "As2d3c4h", "Ah2h3h9s9d") is None  # counterfeited: the board's ranks repeat the hole's
    assert omaha_low("As2d3c4h", "Ah2h5h9s9d").describe() == "Five-four low (5-4-3-2-A)"


def test_big_o_plays_two_of_five_hole_cards() -> None:
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(STANDARD_DECK, 10)
        hole, board = cards[:5], cards[5:]
        assert len(list(combinations(hole, 2))) * len(list(combinations(board, 3))) == 100
        for ranking in ("high", LOW8):
            assert best_omaha(ranking, hole, board) == brute_omaha(ranking, hole, board)


def test_omaha_on_the_flop_and_the_turn() -> None:
    rng = random.Random(9)
    for size in (3, 4):
        for _ in range(100):
            cards = rng.sample(STANDARD_DECK, 4 + size)
            for ranking in ("high", LOW8):
                assert best_omaha(ranking, cards[:4], cards[4:]) == brute_omaha(ranking, cards[:4], cards[4:])


def test_bad_omaha_hands_are_refused() -> None:
    with pytest.raises(ValueError, match="two hole cards and three board cards"):
        omaha("high", "As", "2s3s4s")
    with pytest.raises(ValueError, match="two hole cards and three board cards"):
        omaha(LOW8, "AsKd", "2s3s")
    with pytest.raises(ValueError, match="high or eight-or-better"):
        omaha("ace-to-five", "AsKd2c3d", "2s3s4s")
    with pytest.raises(CardError, match="same card twice"):
        omaha("high", "AsKd2c3d", "2c3s4s")
    with pytest.raises(CardError, match="unknown"):
        best_omaha("high", [*parse_cards("AsKd2c"), UNKNOWN], parse_cards("5s3s4s"))


# --- six and seven cards ---------------------------------------------------------------------------------------


def test_seven_card_high_plays_the_best_five() -> None:
    assert evaluate("high", parse_cards("AsKsQsJsTs2c3d")).describe() == "Royal flush"
    assert evaluate("high", parse_cards("AsKdQsJsTs2s3s")).describe() == "Flush, ace high"
    assert evaluate("high", parse_cards("9s9d9cKsKd2h2c")).describe() == "Full house, nines full of kings"
    assert evaluate("high", parse_cards("5s4d3c2hAs9dKc")).describe() == "Straight, five high"
    assert evaluate("high", parse_cards("6s5s4s3s2sAsKs")).describe() == "Straight flush, six high"
    assert evaluate("high", parse_cards("AsAdKh9s7d4c2h")) == evaluate("high", parse_cards("AhAcKs9d7c4d2s"))
    # Ten cards may hold two flushes: the better one plays, whichever suit comes first.
    assert evaluate("high", parse_cards("2h4h6h8hThAsKsQsJs9s")).describe() == "Flush, ace high"
    assert evaluate("high", parse_cards("2s4s6s8sTsAhKhQhJh9h")).describe() == "Flush, ace high"


def test_razz_plays_the_lowest_five_of_seven() -> None:
    assert evaluate("ace-to-five", parse_cards("AsAdKc2h3s4c5d")).describe() == "Five-four low (5-4-3-2-A)"
    # Flushes do not count.
    assert evaluate("ace-to-five", parse_cards("5s4s3s2sAs6s7s")).describe() == "Five-four low (5-4-3-2-A)"
    two_pair = evaluate("ace-to-five", parse_cards("AsAdAh2c2d3s3h"))
    assert two_pair.category == TWO_PAIR and two_pair.ranks == (2, 2, 1, 1, 3)
    assert evaluate("ace-to-five", parse_cards("KsKdQcQhJsJdTc")).category == PAIR  # K-Q-J-T plus a pair
    # The straight is fine.
    assert evaluate("ace-to-five", parse_cards("8s7d6c5h4sKdQc")).describe() == "Eight-seven low (8-7-6-5-4)"


@pytest.mark.parametrize("ranking", ["high", "deuce-to-seven", "ace-to-five", "ace-to-six"])
def test_six_and_seven_cards_are_the_best_of_their_fives(ranking: str) -> None:
    rng = random.Random(ranking)
    spades = [c for c in STANDARD_DECK if c.suit == "s"]
    for n in range(400):
        size = 6 + n % 2
        # Every third hand holds five or more cards of one suit: the flush paths.
        cards = rng.sample(STANDARD_DECK, size) if n % 3 else [*rng.sample(spades, 5), *rng.sample(
            [c for c in STANDARD_DECK if c.suit != "s"], size - 5)]
        rng.shuffle(cards)
        expected = max(evaluate(ranking, list(five)) for five in combinations(cards, 5))
        assert evaluate(ranking, cards) == expected, cards
        assert evaluate(ranking, cards[::-1]) == expected  # the remembered value is the same


def test_bad_seven_card_hands_are_refused_as_before() -> None:
    with pytest.raises(CardError, match="unknown"):
        evaluate("high", [*parse_cards("AsKdQcJhTs9d"), UNKNOWN])
    with pytest.raises(CardError, match="same card twice"):
        evaluate("ace-to-five", parse_cards("AsKdQcJhTs9dAs"))
    with pytest.raises(CardError, match="five twos"):
        evaluate("high", parse_cards("2s2d2c2hX1X2As"))
    assert evaluate("high", parse_cards("2s2dX1KsKdQc3h")).describe() == "Full house, twos full of kings"


# --- stud: the showing hand and the bring-in ----------------------------------------------------------------


def show(cards: str, low: bool) -> tuple[int, ...]:
    return showing_value(parse_cards(cards), low)


def test_stud_showing_hands_count_pairs_and_trips_not_straights_or_flushes() -> None:
    assert show("2c2d", False) > show("AsKs", False)  # any pair beats no pair
    assert show("AsKd", False) > show("KsQd", False)  # aces high
    assert show("3c3d2h2s", False) > show("AsAdKhQs", False)  # two pair beats one pair
    assert show("5c5d5h", False) > show("AsAdKh", False)
    assert show("4c4d4h4s", False) > show("AsAdAhKs", False)
    assert show("Ks9d4c", False) > show("Kd9s3h", False)  # kickers from the top
    assert show("KsKd4c", False) > show("QsQdAc", False)  # the pair first
    assert show("Kc2d4h6s", False) > show("8s7s6s5s", False)  # no straight, no flush
    assert show("AsKd", False) == show("AhKc", False)  # suits never count
    assert show("Ts", False) > show("9s", False)


def test_razz_showing_hands_the_lowest_acts_first() -> None:
    assert show("7s5d", True) > show("8s2d", True)  # compared from the top card
    assert show("As2d", True) > show("2s3d", True)  # aces low
    assert show("KsQd", True) > show("2s2d", True)  # a pair is bad
    assert show("KsQdJcTh", True) > show("AsAd2c3h", True)
    assert show("AsAd3c", True) > show("2s2dAc", True)  # the lower pair
    assert show("2s2d3c3h", True) > show("AsAdAc2h", True)  # two pair beats trips
    assert show("5s4s3s2s", True) > show("6s4d3c2h", True)  # a four-straight flush is just 5-4-3-2
    assert show("Ks", True) < show("Qs", True) and show("As", True) > show("2c", True)
    assert show("7s5d", True) == show("7c5h", True)


def test_stud_bring_in_is_the_lowest_card_with_clubs_the_lowest_suit() -> None:
    def order(codes: str) -> list[str]:
        return [c.code for c in sorted(parse_cards(codes), key=lambda c: bring_in_value(c, False), reverse=True)]

    assert order("As 3c 2s 2h 2d 2c Kd") == ["2c", "2d", "2h", "2s", "3c", "Kd", "As"]


def test_razz_bring_in_is_the_highest_card_aces_low_spades_the_highest_suit() -> None:
    def order(codes: str) -> list[str]:
        return [c.code for c in sorted(parse_cards(codes), key=lambda c: bring_in_value(c, True), reverse=True)]

    assert order("As Kc Ks Kh Kd Qs 2c") == ["Ks", "Kh", "Kd", "Kc", "Qs", "2c", "As"]


def test_stud_helpers_refuse_unknown_cards_and_jokers() -> None:
    with pytest.raises(CardError):
        bring_in_value(UNKNOWN, False)
    with pytest.raises(CardError):
        bring_in_value(Card("X1"), True)
    with pytest.raises(CardError):
        showing_value([Card("As"), UNKNOWN], False)
    with pytest.raises(ValueError):
        showing_value([], True)


# --- pokerkit as the oracle --------------------------------------------------------------------------------


def theirs(cards: Sequence[Card]) -> Any:
    return pokerkit.Card.clean("".join(c.code for c in cards))


def assert_same_order(ours: Sequence[Any], pk: Sequence[Any], hands: Sequence[Any]) -> None:
    """Our values and pokerkit's order the hands alike: sorted by ours, each neighbour is better or equal in
    pokerkit exactly as in ours (None, no hand, being the worst in both)."""
    assert len(ours) == len(pk) == len(hands)
    present = [i for i in range(len(hands)) if ours[i] is not None]
    assert present == [i for i in range(len(hands)) if pk[i] is not None], "a low exists in one and not the other"
    present.sort(key=lambda i: ours[i])
    for i, j in pairwise(present):
        if ours[i] == ours[j]:
            assert pk[i] == pk[j], (hands[i], hands[j])
        else:
            assert pk[i] < pk[j], (hands[i], hands[j])


def deals(seed: int, count: int, size: int, deck: Sequence[Card] = STANDARD_DECK) -> list[list[Card]]:
    rng = random.Random(seed)
    return [rng.sample(deck, size) for _ in range(count)]


LOWISH = [c for c in STANDARD_DECK if c.rank <= 9 or c.rank == 14]  # deals that often hold a low


def test_seven_card_high_orders_hands_as_pokerkit() -> None:
    hands = deals(71, 3000, 7)
    ours = [evaluate("high", h) for h in hands]
    pk = [pokerkit.StandardHighHand.from_game(theirs(h[:2]), theirs(h[2:])) for h in hands]
    assert_same_order(ours, pk, hands)


def test_razz_orders_hands_as_pokerkit() -> None:
    hands = deals(72, 2000, 7) + deals(73, 1000, 7, LOWISH)
    ours = [evaluate("ace-to-five", h) for h in hands]
    pk = [pokerkit.RegularLowHand.from_game(theirs(h[:3]), theirs(h[3:])) for h in hands]
    assert_same_order(ours, pk, hands)


def test_seven_card_eight_or_better_orders_hands_as_pokerkit() -> None:
    hands = deals(74, 1000, 7) + deals(75, 2000, 7, LOWISH)
    ours = [best_low8(h) for h in hands]
    pk = [pokerkit.EightOrBetterLowHand.from_game_or_none(theirs(h[:3]), theirs(h[3:])) for h in hands]
    assert sum(v is not None for v in ours) > 500
    assert_same_order(ours, pk, hands)


@pytest.mark.parametrize(("hole", "count"), [(4, 1000), (5, 400)])
def test_omaha_high_orders_hands_as_pokerkit(hole: int, count: int) -> None:
    hands = deals(76 + hole, count, hole + 5)
    ours = [best_omaha("high", h[:hole], h[hole:]) for h in hands]
    pk = [pokerkit.OmahaHoldemHand.from_game(theirs(h[:hole]), theirs(h[hole:])) for h in hands]
    assert_same_order(ours, pk, hands)


@pytest.mark.parametrize(("hole", "count"), [(4, 1000), (5, 400)])
def test_omaha_low_orders_hands_as_pokerkit(hole: int, count: int) -> None:
    hands = deals(78 + hole, count // 2, hole + 5) + deals(80 + hole, count - count // 2, hole + 5, LOWISH)
    ours = [best_omaha(LOW8, h[:hole], h[hole:]) for h in hands]
    pk = [pokerkit.OmahaEightOrBetterLowHand.from_game_or_none(theirs(h[:hole]), theirs(h[hole:])) for h in hands]
    assert sum(v is not None for v in ours) > count // 5
    assert_same_order(ours, pk, hands)


def test_showing_hands_order_as_pokerkits_openers() -> None:
    from pokerkit.state import _HighHandOpeningLookup, _LowHandOpeningLookup

    for low, lookup in ((False, _HighHandOpeningLookup()), (True, _LowHandOpeningLookup())):
        for size in range(1, 5):
            hands = deals(90 + size, 1500, size, LOWISH if low else STANDARD_DECK)
            ours = [showing_value(h, low) for h in hands]
            entries = [lookup.get_entry(theirs(h)) for h in hands]
            # pokerkit's low opener is the least entry: negate its index so that greater acts first in both.
            pk = [-e.index if low else e.index for e in entries]
            assert_same_order(ours, pk, hands)


def test_bring_in_orders_as_pokerkits_opening_card() -> None:
    # pokerkit: the lowest (rank, suit) opens stud (Opening.LOW_CARD, aces high), the highest opens razz
    # (Opening.HIGH_CARD, aces low); its suits order alphabetically, clubs < diamonds < hearts < spades.
    standard, regular = pokerkit.RankOrder.STANDARD, pokerkit.RankOrder.REGULAR
    cards = list(STANDARD_DECK)
    for low, order, sign in ((False, standard, -1), (True, regular, 1)):
        def key(card: Card, order: Any = order) -> tuple[int, Any]:
            [pk] = theirs([card])
            return order.index(pk.rank), pk.suit

        ours = sorted(cards, key=lambda c: bring_in_value(c, low))
        pk = sorted(cards, key=key, reverse=sign < 0)
        assert ours == pk
        assert len({bring_in_value(c, low) for c in cards}) == 52


# --- properties ----------------------------------------------------------------------------------------------

hands_of = st.integers(min_value=5, max_value=9).flatmap(
    lambda n: st.lists(st.sampled_from(STANDARD_DECK), min_size=n, max_size=n, unique=True))


@settings(max_examples=200, deadline=None)
@given(hands_of)
def test_the_best_low_is_the_best_of_the_five_card_lows(cards: list[Card]) -> None:
    lows = [v for v in (best_low8(list(five)) for five in combinations(cards, 5)) if v is not None]
    assert best_low8(cards) == (max(lows) if lows else None)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=7, max_size=9, unique=True), st.sampled_from(["high", LOW8]))
def test_omaha_is_the_best_of_two_and_three(cards: list[Card], ranking: str) -> None:
    hole, board = cards[:-5], cards[-5:]
    assert best_omaha(ranking, hole, board) == brute_omaha(ranking, hole, board)
