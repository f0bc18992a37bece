"""Hands told as text: known hands word for word, and every line short for random hands of every game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.night.story import WIDTH, hand_story, stakes_text
from bot.poker import Hand, Stakes

from . import known
from .hands import random_hand
from .known import ANN, BOB, CAT, NAMES


def story(hand: Hand, number: int | None = None) -> list[str]:
    users = [ANN, BOB, CAT][:hand.players]
    return hand_story(hand, users, lambda user: "@" + NAMES[user], number=number).splitlines()


def test_heads_up_each_round_and_draw_on_its_line() -> None:
    assert story(known.heads_up_triple_draw(), 12) == [
        "2-7 Triple Draw · #12 · 10/20 fixed",
        "Bet 1: @bob raises to 20, @ann calls",
        "Draw 1: @ann 2, @bob 1",
        "Bet 2: @ann checks, @bob bets 10,",
        "   @ann calls",
        "Draw 2: @ann pat, @bob 1",
        "Bet 3: @ann bets 20, @bob folds",
        "🏆 @ann wins 60 uncontested",
    ]


def test_multiway_all_in_with_a_side_pot_says_who_could_win_each_pot() -> None:
    assert story(known.three_way_side_pot()) == [
        "Five Card Draw · 1/2 no limit",
        "Bet 1: @cat raises to 10,",
        "   @ann goes all in for 50, @bob calls,",
        "   @cat raises to 120, @bob calls",
        "Draw 1: @ann pat, @bob 3, @cat 3",
        "Bet 2: @bob bets 40, @cat folds,",
        "   40 back to @bob",
        "@bob shows Pair of queens",
        "🏆 Main pot (150, @ann vs @bob): @ann",
        "   with Full house, aces full of kings",
        "🏆 Side pot (140, @bob only): @bob",
    ]


def test_everyone_folds_to_a_raise() -> None:
    assert story(known.everyone_folds_to_a_raise(), 3) == [
        "A-5 Single Draw · #3 · 10/20 fixed",
        "Bet 1: @cat raises to 20,",
        "   @ann and @bob fold",
        "🏆 @cat wins 25 uncontested",
    ]


def test_assassin_face_up_two_kills_and_the_carry_are_said_in_words() -> None:
    assert story(known.assassin_carry()) == [
        "Assassin · 1/2 no limit",
        "Bet 1: @bob calls, @ann checks",
        "Draw 1: @ann 2 (2♣ face up, gets 3),",
        "   @bob pat",
        "Bet 2: @ann and @bob check",
        "💀 @ann is assassinated: holds 2♠",
        "💀 @bob is assassinated: holds 2♦",
        "🔁 The pot of 4 is carried to the next",
        "   deal: every hand in it held a two",
    ]
    assert story(known.assassin_wins_the_carry()) == [
        "Assassin · 1/2 no limit",
        "🔁 4 carried in from the last deal",
        "Bet 1: @bob calls, @ann checks",
        "Draw 1: @ann pat, @bob pat",
        "Bet 2: @ann checks, @bob bets 10,",
        "   @ann calls",
        "💀 @bob is assassinated: holds 2♦",
        "🏆 @ann wins 28 with Pair of kings",
    ]


def test_a_split_pot_gives_each_share() -> None:
    assert story(known.split_pot())[-2:] == [
        "🏆 @ann and @bob split 20 (10 each) with",
        "   Eight-six low (8-6-4-3-2)",
    ]


def test_an_all_in_call_for_less_and_the_uncalled_chips_back() -> None:
    assert story(known.all_in_call_for_less()) == [
        "Five Card Draw · 1/2 no limit",
        "Bet 1: @bob raises to 60,",
        "   @ann calls all in for 30,",
        "   30 back to @bob",
        "Draw 1: @ann 1, @bob pat",
        "@bob shows Pair of kings",
        "🏆 @ann wins 60 with Flush, ace high",
    ]


def test_a_player_all_in_on_his_blind_is_said_and_rounds_without_bets_have_no_line() -> None:
    lines = story(known.all_in_on_the_blind())
    assert lines[1] == "Bet 1: @ann posts 4 all in,"
    assert lines[2] == "   1 back to @bob"
    assert [line for line in lines if line.startswith("Bet")] == [lines[1]]
    assert [line.split(":")[0] for line in lines if line.startswith("Draw")] == ["Draw 1", "Draw 2", "Draw 3"]


@pytest.mark.parametrize(("stakes", "text"), [
    (Stakes("fixed-limit", 5, 10), "10/20 fixed"),
    (Stakes("no-limit", 1, 2, ante=1), "1/2 no limit · ante 1"),
    (Stakes("pot-limit", ante=5, min_bet=10), "pot limit · ante 5"),
    (Stakes("no-limit", 1, 2, antes=(0, 2, 0)), "1/2 no limit · big blind ante 2"),
    (Stakes("no-limit", 1, 2, antes=(1, 0, 2)), "1/2 no limit · antes up to 2"),
])
def test_the_stakes_in_a_few_words(stakes: Stakes, text: str) -> None:
    assert stakes_text(Hand("five-card-draw", stakes, [100, 100, 100], seed=1)) == text


def test_a_long_header_breaks_between_its_parts() -> None:
    text = hand_story(known.three_way_side_pot(), [ANN, BOB, CAT], lambda user: NAMES[user], number=1234, width=30)
    lines = text.splitlines()
    assert lines[:2] == ["Five Card Draw · #1234 ·", "   1/2 no limit"]
    assert all(len(line) <= 30 for line in lines)


def test_the_winner_of_two_pots_has_his_hand_said_once() -> None:
    assert story(known.one_winner_two_pots())[-5:] == [
        "@cat shows Pair of jacks",
        "@ann shows Nine high",
        "🏆 Main pot (150, all 3): @bob with Pair",
        "   of queens",
        "🏆 Side pot (80, @bob vs @cat): @bob",
    ]


def test_names_come_from_the_callers_function_and_a_seat_per_user() -> None:
    hand = known.everyone_folds_to_a_raise()
    text = hand_story(hand, [ANN, BOB, CAT], lambda user: f"<@{user}>", width=80)
    assert "<@33> raises to 20, <@11> and <@22> fold" in text
    with pytest.raises(ValueError, match="3 players but 2 users"):
        hand_story(hand, [ANN, BOB], str)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_every_line_is_short_and_every_player_is_in_the_story(seed: int) -> None:
    hand = random_hand(random.Random(seed))
    users = list(range(hand.players))
    text = hand_story(hand, users, lambda seat: f"P{seat + 1}", number=seed % 1000)
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines), text
    for seat in users:
        assert f"P{seat + 1}" in text
    awards = [line for line in lines if line.startswith(("🏆", "🔁 The", "🔁 Main", "🔁 Side"))]
    assert awards, text
