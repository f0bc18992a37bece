"""Cards and the deck: parsing, the seeded shuffle, burns, the muck and the reshuffle (docs/rules.md section 2.2)."""

from __future__ import annotations

import pickle
import random

import pytest

from bot.poker import Card, CardError, Deck, format_cards, parse_cards
from bot.poker.cards import JOKERS, STANDARD_DECK, UNKNOWN, new_deck


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# --- parse_cards ---------------------------------------------------------------------------------------------------


def test_parse_cards_reads_cards_separated_by_spaces() -> None:
    parsed = parse_cards("As Kd 2c")
    assert [c.code for c in parsed] == ["As", "Kd", "2c"]
    assert [(c.rank, c.suit) for c in parsed] == [(14, "s"), (13, "d"), (2, "c")]


def test_parse_cards_reads_cards_written_together_as_phh_does() -> None:
    assert parse_cards("AsKd2c") == parse_cards("As Kd 2c")


def test_parse_cards_accepts_commas_and_any_case() -> None:
    assert parse_cards("as, KD,tH") == parse_cards("As Kd Th")


def test_parse_cards_of_empty_text_is_no_cards() -> None:
    assert parse_cards("") == []
    assert parse_cards("   ") == []


def test_parse_cards_takes_a_list_of_codes_or_cards() -> None:
    ace = Card("As")
    assert parse_cards(["As", "Kd"]) == parse_cards("AsKd")
    assert parse_cards([ace, "Kd"])[0] is ace


def test_question_marks_are_a_card_nobody_saw() -> None:
    (card,) = parse_cards("??")
    assert card is UNKNOWN
    assert card.is_unknown and not card.is_joker
    assert card.rank == 0
    assert [c.is_unknown for c in parse_cards("As??Kd??")] == [False, True, False, True]


def test_jokers_are_written_x1_and_x2_and_play_as_twos() -> None:
    x1, x2 = parse_cards("X1 x2")
    assert (x1.code, x2.code) == ("X1", "X2")
    assert x1.is_joker and x2.is_joker
    assert x1.rank == 2 and x1.is_two and x2.is_two
    assert not x1.is_unknown
    assert Card("2c").is_two and not Card("3c").is_two


def test_cards_are_interned_so_equal_cards_are_the_same_object() -> None:
    assert Card("As") is parse_cards("as")[0]
    assert pickle.loads(pickle.dumps(Card("Td"))) is Card("Td")
    assert pickle.loads(pickle.dumps(UNKNOWN)) is UNKNOWN


def test_format_cards_writes_cards_as_phh_does() -> None:
    assert format_cards(parse_cards("As Kd 2c")) == "AsKd2c"
    assert format_cards(parse_cards("As Kd ?? X1"), " ") == "As Kd ?? X1"
    assert str(Card("Th")) == repr(Card("Th")) == "Th"


def test_pretty_cards_use_suit_symbols() -> None:
    assert Card("As").pretty() == "A\u2660"
    assert Card("Th").pretty() == "T\u2665"
    assert Card("X1").pretty() == "X1"
    assert UNKNOWN.pretty() == "??"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Zz", "Zz"),
        ("As Kx", "Kx"),
        ("1s", "1s"),
        ("10s", "10"),
        ("AsK", "K"),
        ("X3", "X3"),
        ("A", "A"),
        ("As?", "?"),
    ],
)
def test_parse_cards_rejects_what_is_not_a_card_and_names_it(text: str, named: str) -> None:
    with pytest.raises(CardError) as error:
        parse_cards(text)
    assert repr(named) in str(error.value)


def test_card_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse_cards("nope")
    with pytest.raises(CardError):
        Card("Ax")
    with pytest.raises(CardError):
        parse_cards(["As", "Qx"])


# --- the deck ------------------------------------------------------------------------------------------------------


def test_a_deck_has_52_different_cards_or_54_with_the_jokers() -> None:
    assert len(set(new_deck())) == 52
    assert set(new_deck(jokers=True)) == set(STANDARD_DECK) | set(JOKERS)
    assert sorted(Deck(seed=1).deal(52), key=STANDARD_DECK.index) == list(STANDARD_DECK)
    assert set(Deck(seed=1, jokers=True).deal(54)) == set(STANDARD_DECK) | set(JOKERS)


def test_a_seeded_deck_deals_the_same_cards_every_time() -> None:
    assert Deck(seed=42).deal(52) == Deck(seed=42).deal(52)
    assert Deck(seed=42).deal(52) != Deck(seed=43).deal(52)


def test_a_seeded_deck_is_shuffled_by_its_own_random_generator() -> None:
    expected = new_deck()
    random.Random(2024).shuffle(expected)
    random.seed(1)  # the global generator plays no part
    first = Deck(seed=2024).deal(52)
    random.seed(2)
    assert first == expected
    assert Deck(seed=2024).deal(52) == expected


def test_an_exact_deck_deals_the_given_order() -> None:
    order = cards("As Kd 2c 7h ?? 9s")
    deck = Deck(order=order)
    assert deck.exact and not Deck(seed=1).exact
    assert deck.deal(2) == cards("As Kd")
    assert deck.deal(4) == cards("2c 7h ?? 9s")


def test_a_deck_needs_a_seed_or_an_order_but_not_both() -> None:
    with pytest.raises(ValueError):
        Deck()
    with pytest.raises(ValueError):
        Deck(seed=1, order=cards("As"))


def test_an_exact_order_may_hold_jokers_only_in_a_deck_with_jokers() -> None:
    with pytest.raises(CardError):
        Deck(order=cards("As X1"))
    assert Deck(order=cards("As X1"), jokers=True).deal(2) == cards("As X1")


def test_a_burned_card_comes_off_the_top_into_the_muck() -> None:
    deck = Deck(order=cards("As Kd Qh Jc"))
    assert deck.deal(1) == cards("As")
    assert deck.burn() == Card("Kd")
    assert deck.muck == cards("Kd")
    assert deck.stub_size == 50
    assert deck.deal(1) == cards("Qh")


def test_discards_go_to_the_muck() -> None:
    deck = Deck(seed=3)
    hand = deck.deal(5)
    deck.discard(hand[:2])
    assert deck.muck == hand[:2]
    assert deck.stub_size == 47


def test_dealing_past_the_whole_exact_order_is_an_error() -> None:
    deck = Deck(order=cards("As Kd"))
    deck.deal(2)
    with pytest.raises(CardError, match="run out"):
        deck.deal(1)


def test_a_card_held_by_a_player_cannot_be_dealt_again_in_exact_mode() -> None:
    deck = Deck(order=cards("As Kd As"))
    deck.deal(2)
    with pytest.raises(CardError, match="As cannot be dealt"):
        deck.deal(1)


def test_a_burned_or_discarded_card_cannot_be_dealt_before_the_stub_runs_out() -> None:
    deck = Deck(order=cards("As Kd Qh As Kd"))
    deck.deal(1)
    deck.burn()
    deck.deal(1)
    deck.discard(cards("As"))
    with pytest.raises(CardError, match="not in the stub"):
        deck.deal(1)
    deck = Deck(order=cards("As Kd Qh Kd"))
    deck.deal(1)
    deck.burn()
    deck.deal(1)
    with pytest.raises(CardError, match="Kd cannot be dealt"):
        deck.deal(1)


def _deck_with_small_stub(seed: int, left: int) -> tuple[Deck, list[Card]]:
    """A seeded deck with ``left`` cards in the stub; returns it and the cards dealt so far."""
    deck = Deck(seed=seed)
    dealt = deck.deal(52 - left)
    assert deck.stub_size == left
    return deck, dealt


def test_when_the_stub_runs_out_the_stub_is_dealt_out_then_the_muck_is_reshuffled() -> None:
    deck, dealt = _deck_with_small_stub(seed=5, left=2)
    stub = Deck(seed=5).deal(52)[50:]
    others_discards = dealt[:10]
    deck.discard(others_discards)
    mine = dealt[10:13]
    deck.discard(mine)
    new = deck.deal(3, excluded=mine)
    assert new[:2] == stub  # the stub is dealt out first
    assert new[2] in others_discards  # then the muck, reshuffled
    assert deck.reshuffles == 1
    assert deck.stub_size == len(others_discards) - 1
    assert sorted(deck.muck, key=STANDARD_DECK.index) == sorted(mine, key=STANDARD_DECK.index)


def test_the_reshuffle_never_deals_back_the_served_players_own_discards() -> None:
    for seed in range(200):
        deck, dealt = _deck_with_small_stub(seed=seed, left=seed % 3)
        rng = random.Random(seed)
        sample = rng.sample(dealt, 10)
        others, mine = sample[:5], sample[5:5 + rng.randint(1, 5)]
        deck.discard(others)  # burns, folds, earlier discards
        deck.discard(mine)
        new = deck.deal(len(mine), excluded=mine)
        assert not set(new) & set(mine)
        assert deck.reshuffles == (1 if seed % 3 < len(mine) else 0)


def test_the_served_players_discards_stay_in_the_muck_for_the_next_reshuffle() -> None:
    deck, dealt = _deck_with_small_stub(seed=9, left=0)
    deck.discard(dealt[:3])
    mine = dealt[3:5]
    deck.discard(mine)
    new = deck.deal(3, excluded=mine)
    assert set(new) == set(dealt[:3])
    assert set(deck.muck) == set(mine)
    # The next player may get them.
    assert set(deck.deal(2, excluded=dealt[5:7])) == set(mine)
    assert deck.reshuffles == 2


def test_nothing_to_deal_when_the_muck_holds_only_the_served_players_discards() -> None:
    deck, dealt = _deck_with_small_stub(seed=11, left=1)
    mine = dealt[:3]
    deck.discard(mine)
    with pytest.raises(CardError, match="both empty"):
        deck.deal(3, excluded=mine)


def test_a_burn_with_an_empty_stub_reshuffles_the_whole_muck() -> None:
    deck, dealt = _deck_with_small_stub(seed=13, left=0)
    deck.discard(dealt[:4])
    burned = deck.burn()
    assert burned in dealt[:4]
    assert deck.reshuffles == 1
    assert burned in deck.muck


def test_a_seeded_reshuffle_is_deterministic() -> None:
    def run() -> list[Card]:
        deck, dealt = _deck_with_small_stub(seed=17, left=1)
        deck.discard(dealt[:20])
        return deck.deal(10, excluded=dealt[:2])

    assert run() == run()


def test_an_exact_deck_after_the_reshuffle_deals_only_cards_from_the_muck() -> None:
    order = list(STANDARD_DECK)
    # After the 52 cards, the replay continues with cards from the reshuffled muck.
    deck = Deck(order=[*order, Card("2c"), Card("3c")])
    dealt = deck.deal(50)
    assert dealt == order[:50]
    deck.discard(cards("2c 2d 3c"))
    mine = cards("2d")
    assert deck.deal(3, excluded=mine) == [*order[50:], Card("2c")]
    assert deck.reshuffles == 1
    assert deck.deal(1) == cards("3c")


def test_an_exact_deck_refuses_the_served_players_own_discard_after_the_reshuffle() -> None:
    order = list(STANDARD_DECK)
    deck = Deck(order=[*order, Card("2d")])
    deck.deal(52)
    deck.discard(cards("2c 2d"))
    with pytest.raises(CardError, match="2d cannot be dealt"):
        deck.deal(1, excluded=cards("2d"))


def test_an_exact_deck_refuses_a_held_card_after_the_reshuffle() -> None:
    order = list(STANDARD_DECK)
    deck = Deck(order=[*order, Card("As")])
    deck.deal(52)
    deck.discard(cards("2c 2d"))
    with pytest.raises(CardError, match="As cannot be dealt"):
        deck.deal(1, held=cards("As"))


def test_an_unknown_card_in_the_muck_lets_any_card_not_held_come_back() -> None:
    order = [*STANDARD_DECK[:51], UNKNOWN, Card("Kd")]
    deck = Deck(order=order)
    dealt = deck.deal(52)
    deck.discard([dealt[-1]])  # the ?? card was thrown away
    # Kd was dealt, but nobody knows where it is now unless a player holds it.
    assert deck.deal(1, held=cards("As")) == cards("Kd")
    deck = Deck(order=order)
    deck.deal(52)
    deck.discard([UNKNOWN])
    with pytest.raises(CardError, match="Kd cannot be dealt"):
        deck.deal(1, held=cards("Kd"))
