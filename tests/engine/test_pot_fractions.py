"""Fractions of the pot (``Legal.pot_fraction_to``): the ½ and ¾ pot bets of pot and no limit, sized as the
pot-sized raise is (a call, then that part of the pot once called), always a legal amount."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker import BetRaise, Hand, Stakes, get_game, stakes_for

HALF, THREE_QUARTERS, POT = Fraction(1, 2), Fraction(3, 4), Fraction(1)


def test_a_raise_of_half_the_pot_is_a_call_then_half_the_pot_once_called() -> None:
    hand = Hand("holdem", Stakes("no-limit", 5, 10), [1000] * 3, seed=1)
    legal = hand.legal()  # first to act, facing the big blind: pot 15, 25 once he has called 10
    assert (legal.call_to, legal.pot_after_call, legal.pot_raise_to) == (10, 25, 35)
    assert legal.any_amount
    assert legal.pot_fraction_to(HALF) == 10 + 12  # 12.5, rounded down to the chip
    assert legal.pot_fraction_to(THREE_QUARTERS) == 10 + 18
    assert legal.pot_fraction_to(POT) == legal.pot_raise_to == 35


def test_a_bet_of_half_the_pot_with_nothing_to_call() -> None:
    hand = Hand("holdem", Stakes("no-limit", 5, 10), [1000] * 3, seed=1)
    for _ in range(3):
        hand.act("cc")
    legal = hand.legal()  # the flop: 30 in the pot, no bet
    assert (legal.is_bet, legal.call_to, legal.pot_after_call) == (True, 0, 30)
    assert [legal.pot_fraction_to(f) for f in (HALF, THREE_QUARTERS, POT)] == [15, 22, 30]


def test_fractions_are_clamped_to_the_smallest_and_largest_amounts() -> None:
    short = Hand("holdem", Stakes("no-limit", 5, 10), [1000, 1000, 24], seed=1)
    legal = short.legal()  # the button, first to act, has 24 in all: ¾ of the pot would be more
    assert legal.max_raise_to == 24
    assert legal.pot_fraction_to(THREE_QUARTERS) == 24
    tiny = Hand("holdem", Stakes("no-limit", 5, 10), [1000] * 3, seed=1).legal()
    assert tiny.pot_fraction_to(Fraction(1, 10)) == tiny.min_raise_to == 20  # 10 + 2: less than a raise


def test_pot_limit_fractions_stay_under_the_pot() -> None:
    legal = Hand("holdem", Stakes("pot-limit", 5, 10), [1000] * 3, seed=1).legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (20, 35)
    assert [legal.pot_fraction_to(f) for f in (HALF, THREE_QUARTERS, POT)] == [22, 28, 35]


def test_fixed_limit_has_no_pot_sized_bets() -> None:
    legal = Hand("holdem", Stakes("fixed-limit", 5, 10), [1000] * 3, seed=1).legal()
    assert not legal.any_amount
    assert legal.pot_fraction_to(HALF) == legal.pot_raise_to == legal.min_raise_to == 20
    no_raise = Hand("holdem", Stakes("no-limit", 5, 10), [1000, 1000, 8], seed=1).legal()  # 8 chips facing 10
    assert not no_raise.can_raise and no_raise.pot_fraction_to(HALF) == no_raise.pot_raise_to


def test_the_completion_over_a_stud_bring_in() -> None:
    game = get_game("stud")
    hand = Hand(game, stakes_for(game, "no-limit", 5, 10), [100] * 3, seed=4)
    legal = hand.legal()
    assert legal.can_bring_in and legal.any_amount
    for f in (HALF, THREE_QUARTERS, POT):
        assert hand.can(BetRaise(legal.pot_fraction_to(f)))


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(["holdem", "omaha", "five-card-draw", "stud", "razz", "badugi"]),
       structure=st.sampled_from(["no-limit", "pot-limit"]), seed=st.integers(0, 10**6),
       stacks=st.lists(st.integers(3, 400), min_size=2, max_size=5), moves=st.lists(st.integers(0, 9), max_size=12),
       fraction=st.fractions(0, 2))
def test_every_fraction_of_the_pot_is_a_legal_amount(game: str, structure: str, seed: int, stacks: list[int],
                                                     moves: list[int], fraction: Fraction) -> None:
    g = get_game(game)
    hand = Hand(g, stakes_for(g, structure, 1, 2), stacks, seed=seed)  # type: ignore[arg-type]
    for pick in moves:
        if hand.is_complete or hand.actor is None:
            return
        legal = hand.legal()
        if legal.phase == "betting" and legal.can_raise:
            assert legal.pot_fraction_to(Fraction(1)) == legal.pot_raise_to
            assert legal.min_raise_to <= legal.pot_fraction_to(fraction) <= legal.max_raise_to
            assert hand.can(BetRaise(legal.pot_fraction_to(fraction)))
        options = legal.moves()
        hand.act(options[pick % len(options)])
