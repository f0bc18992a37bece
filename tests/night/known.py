"""Hands played with exact decks and known results, shared by the facts, stats and story tests.

Users: ann 11, bob 22, cat 33 (seat order). Seat 0 is left of the button; the
last seat is the button (heads-up: seat 0 the big blind, seat 1 the button
and small blind).
"""

from __future__ import annotations

from bot.poker import Hand, Stakes

from .hands import FL, NL, play, stacked

ANN, BOB, CAT = 11, 22, 33
NAMES = {ANN: "ann", BOB: "bob", CAT: "cat"}


def heads_up_triple_draw() -> Hand:
    """2-7 Triple Draw 5/10 (bets 10/20), ann in the big blind, bob on the button.

    Bob raises to 20, ann calls; ann draws 2, bob 1; ann checks, bob bets 10, ann calls; ann stands pat, bob
    draws 1; ann bets 20 and bob folds: ann wins the pot of 60 (her 20 comes back).
    """
    deck = stacked(["7c 5d 4h Kc Qd", "8c 6d 4d 3h Ks"], "Ah", "3s 2c", "2d", "Ad", "9h")
    hand = Hand("triple-draw-27", FL, [200, 200], deck=deck)
    return play(hand, "cbr 20", "cc", "sd KcQd", "sd Ks", "cc", "cbr 10", "cc", "sd", "sd 2d", "cbr 20", "f")


def three_way_side_pot() -> Hand:
    """Five Card Draw 1/2 no limit, stacks 50/200/200: ann (small blind) all in for 50, a side pot of 140.

    Cat raises to 10, ann goes all in to 50, bob calls, cat raises to 120, bob calls. Ann stands pat with aces
    full, bob and cat draw 3. Bob bets 40 and cat folds: bob takes the side pot of 140 that only he can win, and
    ann's full house beats his pair of queens for the main pot of 150.
    """
    deck = stacked(["As Ad Ah Kc Kd", "Qs Qd 7c 5h 3s", "Js Jd 9c 8h 4s"], "2h", "2c 6d Ts", "9s 8d 4c")
    hand = Hand("five-card-draw", NL, [50, 200, 200], deck=deck)
    return play(hand, "cbr 10", "cbr 50", "cc", "cbr 120", "cc", "sd", "sd 7c5h3s", "sd 9c8h4s", "cbr 40", "f")


def everyone_folds_to_a_raise() -> Hand:
    """A-5 Single Draw 5/10, three players: cat raises to 20 on the button and both blinds fold."""
    hand = Hand("single-draw-a5", FL, [100, 100, 100], seed=7)
    return play(hand, "cbr 20", "f", "f")


def big_blind_checks() -> Hand:
    """2-7 Single Draw 5/10 heads-up: bob completes the small blind, ann checks, both stand pat and check down.

    Ann's 8-6-4-3-2 beats bob's 9-7-5-4-3.
    """
    deck = stacked(["8c 6d 4h 3s 2c", "9d 7h 5s 4c 3d"])
    hand = Hand("single-draw-27", FL, [100, 100], deck=deck)
    return play(hand, "cc", "cc", "sd", "sd", "cc", "cc")


ASSASSIN = Stakes("no-limit", 1, 2)


def assassin_carry() -> Hand:
    """Assassin 1/2 heads-up: ann shows 2♣ face up and draws 3 for 2 but catches another two; bob holds 2♦.

    Both hands hold a two at the showdown: the pot of 4 is carried to the next deal.
    """
    deck = stacked(["2c Kh Kc 9s 7d", "As Ad Ah 8c 2d"], "3h", "Ks 9h 2s")
    hand = Hand("assassin", ASSASSIN, [100, 100], deck=deck)
    return play(hand, "cc", "cc", "sdu 2c 7d", "sd", "cc", "cc")


def assassin_wins_the_carry() -> Hand:
    """The next deal, with the 4 carried chips: bob bets 10 after the draw and ann calls; bob's two kills his
    aces and ann's kings take the pot of 28 (the 4 carried chips included)."""
    deck = stacked(["Kh Kc 9s 7d 4c", "As Ad Ah 8c 2d"], "3h")
    hand = Hand("assassin", ASSASSIN, [98, 98], deck=deck, carried_in=4)
    return play(hand, "cc", "cc", "sd", "sd", "cc", "cbr 10", "cc")


def split_pot() -> Hand:
    """2-7 Single Draw 5/10 heads-up: both stand pat with 8-6-4-3-2 and check it down: the pot of 20 is split."""
    deck = stacked(["8c 6d 4h 3s 2c", "8d 6h 4c 3d 2h"])
    hand = Hand("single-draw-27", FL, [100, 100], deck=deck)
    return play(hand, "cc", "cc", "sd", "sd", "cc", "cc")


def all_in_call_for_less() -> Hand:
    """Five Card Draw 1/2 no limit heads-up, ann has 30: bob raises to 60, ann calls all in for 30 and 30 goes
    back to bob. Ann draws 1 and makes a flush; bob's kings lose."""
    deck = stacked(["Ah Kh 9h 4h 2c", "Ks Kd 7c 5d 3s"], "Qc", "6h")
    hand = Hand("five-card-draw", NL, [30, 100], deck=deck)
    return play(hand, "cbr 60", "cc", "sd 2c", "sd")


def all_in_on_the_blind() -> Hand:
    """A-5 Triple Draw 5/10 heads-up: ann has 4 chips and is all in on the big blind, less than bob's small blind:
    bob has nothing to do and gets his unmatched chip back (docs/rules.md section 1.7)."""
    hand = Hand("triple-draw-a5", FL, [4, 100], seed=11)
    while not hand.is_complete:
        hand.act("sd" if hand.phase == "drawing" else "cc")
    return hand


def one_winner_two_pots() -> Hand:
    """Five Card Draw 1/2 no limit, stacks 50/200/200: ann all in for 50 with nothing, bob and cat play on to the
    showdown. Bob's queens take the main pot of 150 and the side pot of 80."""
    deck = stacked(["7s 6s 4d 3c 9d", "Qs Qd 7c 5h 3s", "Js Jd 9c 8h 4s"], "2h", "2c 6d Ts", "9s 8d 4c")
    hand = Hand("five-card-draw", NL, [50, 200, 200], deck=deck)
    return play(hand, "cbr 10", "cbr 50", "cc", "cc", "sd", "sd 7c5h3s", "sd 9c8h4s", "cbr 40", "cc")
