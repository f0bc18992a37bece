"""The flop and stud games against docs/rules.md sections 14 to 21: one test per rule.

Decks are given exactly. ``flop_deck(holes, *later)`` deals the hole cards of each seat one at a time clockwise
from seat 0 (left of the button; the last seat is the button, heads-up the big blind is seat 0), then the
``later`` cards in order: the burn and the flop, the burn and the turn, the burn and the river.
``stud_deck(third, *later)`` deals third street the same way (each seat's three cards: two down, then the up
card), then ``later``: before each of fourth to seventh street one burn, then one card per player still in, in
seat order. Every other card of the deck follows in a fixed order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.poker import (
    GAMES,
    Acted,
    BetRaise,
    BoardDealt,
    BringIn,
    Burned,
    Card,
    CheckCall,
    Dealt,
    Fold,
    Hand,
    IllegalAction,
    Posted,
    PotAwarded,
    Returned,
    Shown,
    Stakes,
    evaluate,
    parse_cards,
    stakes_for,
)
from bot.poker.cards import new_deck
from tests.engine.helpers import of, play, snapshot

FLOP_GAMES = ["holdem", "omaha", "omaha-hilo", "big-o"]
STUD_GAMES = ["stud", "stud-hilo", "razz"]
HOLE_CARDS = {"holdem": 2, "omaha": 4, "omaha-hilo": 4, "big-o": 5}

FL = Stakes("fixed-limit", 1, 2)  # small bet 2, big bet 4
NL = Stakes("no-limit", 1, 2)
PL = Stakes("pot-limit", 1, 2)
STUD = Stakes("fixed-limit", ante=1, bring_in=1, small_bet=4, big_bet=8)  # ante 1, bring-in 1, bets 4 and 8


# --------------------------------------------------------------------------------------------------------- helpers


def exact(cards: Sequence[Card]) -> list[Card]:
    """These cards first, then every other card of the deck in a fixed order."""
    order = list(cards)
    assert len(set(order)) == len(order), "a stacked card appears twice"
    used = set(order)
    return order + [c for c in new_deck() if c not in used]


def flop_deck(holes: Sequence[str], *later: str) -> list[Card]:
    """Hole cards dealt one at a time clockwise from seat 0, then ``later`` (burns and board cards) in order."""
    hands = [parse_cards(h) for h in holes]
    size = len(hands[0])
    assert all(len(h) == size for h in hands), hands
    order = [hands[seat][k] for k in range(size) for seat in range(len(hands))]
    for chunk in later:
        order += parse_cards(chunk)
    return exact(order)


def stud_deck(third: Sequence[str], *later: str) -> list[Card]:
    """Third street (each seat's two down cards then its up card) dealt one at a time from seat 0, then ``later``
    (a burn before each street, then one card per player still in)."""
    return flop_deck(third, *later)


def assert_illegal(hand: Hand, move: Any, match: str) -> None:
    """The move raises IllegalAction with a message matching ``match``, ``can`` says no, and nothing changes."""
    before = snapshot(hand)
    assert not hand.can(move)
    with pytest.raises(IllegalAction, match=match) as raised:
        hand.act(move)
    assert str(raised.value).strip()
    assert snapshot(hand) == before


def posted(hand: Hand) -> list[tuple[int, str, int]]:
    return [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]


def awards(hand: Hand) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...], str]]:
    """(pot, amount, winners, shares, half) of every PotAwarded event."""
    return [(e.pot, e.amount, e.winners, e.shares, e.half) for e in of(hand.events, PotAwarded)]


def check_down(hand: Hand) -> None:
    """Check or call until the hand ends (nobody ever brings in here)."""
    for _ in range(200):
        if hand.is_complete:
            return
        legal = hand.legal()
        hand.act(BringIn() if legal.can_bring_in else CheckCall())
    assert hand.is_complete


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# ================================================================================ flop games: blinds and order


@pytest.mark.parametrize("game", FLOP_GAMES)
def test_flop_blinds_left_of_button_and_first_to_act_left_of_big_blind(game: str) -> None:
    hand = Hand(game, FL, [100] * 4, seed=1)
    assert posted(hand) == [(0, "small blind", 1), (1, "big blind", 2)]
    assert hand.actor == 2
    assert all(len(h) == HOLE_CARDS[game] for h in hand.holes)
    play(hand, "cc", "cc", "cc")
    assert hand.actor == 1  # the big blind's option
    play(hand, "cc")
    assert hand.round == 1 and len(hand.board) == 3
    assert hand.actor == 0  # after the flop: the first player left of the button


def test_flop_after_the_first_round_the_first_player_still_in_left_of_the_button_acts() -> None:
    hand = Hand("holdem", FL, [100] * 4, seed=2)
    play(hand, "cc", "cc", "f", "cc")  # seat 0, the small blind, folds
    assert hand.round == 1
    assert hand.actor == 1
    play(hand, "cc", "cc", "cc")
    assert hand.round == 2 and hand.actor == 1


@pytest.mark.parametrize("game", FLOP_GAMES)
def test_flop_heads_up_button_posts_small_blind_acts_first_preflop_and_last_after(game: str) -> None:
    hand = Hand(game, FL, [100, 100], seed=3)
    assert posted(hand) == [(1, "small blind", 1), (0, "big blind", 2)]
    assert hand.actor == 1  # the button
    play(hand, "cc")
    assert hand.actor == 0  # the big blind's option
    play(hand, "cc")
    for street in (1, 2, 3):
        assert hand.round == street
        assert hand.actor == 0  # the big blind first
        play(hand, "cc")
        assert hand.actor == 1  # the button last
        play(hand, "cc")
    assert hand.is_complete


def test_flop_nothing_is_drawn_and_the_deck_suffices_at_the_maximum_number_of_players() -> None:
    for game in FLOP_GAMES:
        hand = Hand(game, FL, [100] * GAMES[game].max_players, seed=5)
        check_down(hand)
        assert len(hand.board) == 5
        assert all(len(h) == HOLE_CARDS[game] for h in hand.holes)
        assert hand.phase == "complete"


# ================================================================================ flop games: the board


def test_flop_board_burn_flop_burn_turn_burn_river_as_board_dealt_events() -> None:
    deck = flop_deck(["AsAc", "KdKc", "7h7d"], "2s", "QhJhTh", "3c", "9s", "4d", "8s")
    hand = Hand("holdem", FL, [100] * 3, deck=deck)
    assert hand.holes == [list(cards("As Ac")), list(cards("Kd Kc")), list(cards("7h 7d"))]
    assert hand.board == []
    assert hand.legal().board == ()
    events = play(hand, "cc", "cc", "cc")
    assert of(events, Burned) == [Burned(0, 1)]
    assert of(events, BoardDealt) == [BoardDealt(1, cards("Qh Jh Th"), cards("Qh Jh Th"))]
    assert hand.board == list(cards("Qh Jh Th"))
    assert hand.legal().board == cards("Qh Jh Th")
    events = play(hand, "cc", "cc", "cc")
    assert len(of(events, Burned)) == 1
    assert of(events, BoardDealt) == [BoardDealt(2, cards("9s"), cards("Qh Jh Th 9s"))]
    events = play(hand, "cc", "cc", "cc")
    assert len(of(events, Burned)) == 1
    assert of(events, BoardDealt) == [BoardDealt(3, cards("8s"), cards("Qh Jh Th 9s 8s"))]
    assert hand.legal().board == cards("Qh Jh Th 9s 8s")
    assert "d db QhJhTh" in hand.history and "d db 9s" in hand.history and "d db 8s" in hand.history
    # The burned cards are no one's and never on the board.
    assert not {Card("2s"), Card("3c"), Card("4d")} & set(hand.board)


# ================================================================================ flop games: bet sizes


def test_flop_fixed_limit_small_bet_preflop_and_flop_big_bet_turn_and_river() -> None:
    hand = Hand("omaha-hilo", FL, [100] * 3, seed=7)
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 4)  # a raise of the small bet over the big blind
    assert_illegal(hand, BetRaise(6), "only raise to 4")
    play(hand, "cc", "cc", "cc")
    legal = hand.legal()
    assert legal.is_bet and (legal.min_raise_to, legal.max_raise_to) == (2, 2)  # the flop: the small bet
    play(hand, "cbr 2")
    assert (hand.legal().min_raise_to, hand.legal().max_raise_to) == (4, 4)
    play(hand, "cc", "cc")
    legal = hand.legal()
    assert hand.round == 2 and (legal.min_raise_to, legal.max_raise_to) == (4, 4)  # the turn: the big bet
    play(hand, "cbr 4")
    assert (hand.legal().min_raise_to, hand.legal().max_raise_to) == (8, 8)
    play(hand, "cc", "cc")
    legal = hand.legal()
    assert hand.round == 3 and (legal.min_raise_to, legal.max_raise_to) == (4, 4)  # the river: the big bet


def test_flop_fixed_limit_cap_four_bets_big_blind_counts() -> None:
    hand = Hand("holdem", FL, [100] * 4, seed=8)
    play(hand, "cbr 4", "cbr 6", "cbr 8")
    legal = hand.legal()
    assert not legal.can_raise and "capped" in legal.why_no_raise


def test_flop_pot_limit_max_raise_is_call_plus_the_pot_after_calling() -> None:
    hand = Hand("omaha", PL, [200] * 3, seed=9)
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 7)  # blinds 1/2: call 2, pot 5, raise to 7
    play(hand, "cbr 7")
    legal = hand.legal()  # the small blind: call 6, pot 1+2+7+6 = 16, raise to 7+16 = 23
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (6, 12, 23)
    play(hand, "cc", "cc")
    assert hand.round == 1 and hand.pot_total == 21
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (2, 21)  # a bet of the pot; the smallest bet the big blind
    play(hand, "cbr 10")
    legal = hand.legal()  # call 10, pot 31 + 10 = 41: raise to 51
    assert (legal.min_raise_to, legal.max_raise_to) == (20, 51)


def test_flop_no_limit_smallest_bet_is_the_big_blind_largest_the_stack() -> None:
    hand = Hand("holdem", NL, [100] * 3, seed=10)
    play(hand, "cc", "cc", "cc")
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (2, 98)


# ================================================================================ flop games: showdown


def test_omaha_plays_exactly_two_hole_cards_a_suited_hole_card_does_not_complete_a_board_flush() -> None:
    # Board: four hearts. Seat 0 holds one heart (the ace): no flush in Omaha. Seat 1 holds two small hearts.
    holes = ["Ah Kc Kd Qs", "3h 2h 7c 7d"]
    deck = flop_deck(holes, "2c", "Kh 9h 5h", "3c", "Jh", "4c", "8d")
    hand = Hand("omaha", PL, [100, 100], deck=deck)
    check_down(hand)
    assert awards(hand) == [(0, 4, (1,), (4,), "")]
    shown = {e.player: e for e in of(hand.events, Shown)}
    assert "flush" in shown[1].description.lower()
    assert "flush" not in shown[0].description.lower()  # three kings: Kc Kd and the board's king
    assert shown[0].low == shown[1].low == ""


def test_omaha_plays_exactly_three_board_cards_a_board_straight_is_nobodys() -> None:
    # Board 5-6-7-8-9: in hold'em both would play the straight and split; in Omaha it needs two hole cards.
    holes = ["Ac Ad Kc Kd", "Qc Qd Jc Jd"]
    deck = flop_deck(holes, "2c", "5h 6s 7d", "4c", "8h", "4d", "9s")
    hand = Hand("omaha", PL, [100, 100], deck=deck)
    check_down(hand)
    shown = {e.player: e.description.lower() for e in of(hand.events, Shown)}
    assert "straight" not in shown[0] and "straight" not in shown[1]
    assert "aces" in shown[0]
    assert awards(hand) == [(0, 4, (0,), (4,), "")]
    holdem = Hand("holdem", PL, [100, 100], deck=flop_deck(["Ac Ad", "Qc Qd"], "2c", "5h 6s 7d", "4c", "8h", "4d",
                                                                  "9s"))
    check_down(holdem)
    assert awards(holdem) == [(0, 4, (0, 1), (2, 2), "")]  # hold'em: both play the board's straight


def test_holdem_a_player_may_play_the_board_and_equal_hands_split() -> None:
    holes = ["2c 3d", "4c 4d"]
    deck = flop_deck(holes, "5c", "As Ks Qs", "6c", "Js", "7c", "Ts")  # a royal flush on the board
    hand = Hand("holdem", NL, [100, 100], deck=deck)
    check_down(hand)
    assert hand.value_of(0) == hand.value_of(1)
    assert awards(hand) == [(0, 4, (0, 1), (2, 2), "")]


def test_holdem_best_five_of_seven() -> None:
    holes = ["Ah Kd", "Qc Qd"]
    deck = flop_deck(holes, "2c", "Ac 7s 2d", "3c", "Ks", "4c", "9h")
    hand = Hand("holdem", NL, [100, 100], deck=deck)
    check_down(hand)
    assert awards(hand) == [(0, 4, (0,), (4,), "")]  # aces and kings (two of the board's cards) beat queens


# ================================================================================ stud: antes and the bring-in


def stud_ups(ups: Sequence[str], *later: str) -> list[Card]:
    """Third street with these up cards (the down cards are any others), then ``later``."""
    named = set(parse_cards(" ".join([*ups, *later])))
    spare = [c for c in reversed(new_deck()) if c not in named]
    third = [f"{spare[2 * seat]} {spare[2 * seat + 1]} {up}" for seat, up in enumerate(ups)]
    return stud_deck(third, *later)


@pytest.mark.parametrize("game", [*FLOP_GAMES, *STUD_GAMES, "five-card-draw", "badugi"])
def test_a_game_says_how_many_cards_each_player_is_dealt_face_down(game: str) -> None:
    hand = Hand(game, stakes_for(GAMES[game], "fixed-limit", 1, 2), [100] * 3, seed=5)
    down = sum(len(e.cards) - len(e.up) for e in hand.events if isinstance(e, Dealt) and e.player == 0)
    expected = {"stud": 3, "stud-hilo": 3, "razz": 3, "five-card-draw": 5, "badugi": 4, **HOLE_CARDS}[game]
    assert GAMES[game].down_cards == expected
    assert down == min(expected, 2 if GAMES[game].is_stud else expected)  # third street deals two of stud's three


@pytest.mark.parametrize("game", GAMES)
def test_only_seven_card_stud_offers_the_open_pair(game: str) -> None:
    assert GAMES[game].offers_open_pair == (game == "stud")
    stakes = stakes_for(GAMES[game], "fixed-limit", 1, 2)
    if game == "stud":
        assert Hand(game, stakes, [100] * 3, seed=5, open_pair=True).open_pair
    else:
        with pytest.raises(ValueError, match="open pair"):
            Hand(game, stakes, [100] * 3, seed=5, open_pair=True)


@pytest.mark.parametrize("game", STUD_GAMES)
def test_stud_every_player_antes_and_no_one_posts_a_blind(game: str) -> None:
    hand = Hand(game, STUD, [100] * 4, seed=11)
    assert posted(hand) == [(seat, "ante", 1) for seat in range(4)]
    assert hand.pot_total == 4 and hand.bets == [0] * 4


@pytest.mark.parametrize(("big_blind", "ante", "bring_in"), [(2, 1, 1), (4, 1, 1), (10, 2, 3), (25, 5, 7), (40, 8, 10)])
def test_stud_one_stake_for_every_game_ante_a_fifth_bring_in_a_quarter_of_the_big_blind(
        big_blind: int, ante: int, bring_in: int) -> None:
    for structure in ("fixed-limit", "pot-limit", "no-limit"):
        stakes = stakes_for(GAMES["stud"], structure, big_blind // 2, big_blind)
        assert (stakes.ante, stakes.bring_in, stakes.small) == (ante, bring_in, big_blind)
        assert (stakes.small_blind, stakes.big_blind) == (0, 0)
        if structure == "fixed-limit":
            assert stakes.big == 2 * big_blind
        hand = Hand("stud", stakes, [1000] * 3, seed=12)
        assert posted(hand) == [(seat, "ante", ante) for seat in range(3)]
        assert hand.legal().bring_in_amount == bring_in


@pytest.mark.parametrize(
    ("game", "ups", "seat"),
    [
        ("stud", ["9s", "2c", "5d"], 1),  # the lowest up card
        ("stud", ["2d", "2c", "9s"], 1),  # equal ranks: clubs is the lowest suit
        ("stud", ["2s", "2h", "9s"], 1),  # hearts below spades
        ("stud", ["2h", "2d", "9s"], 1),  # diamonds below hearts
        ("stud", ["Ac", "3s", "Kd"], 1),  # aces are high
        ("stud-hilo", ["Kc", "Qd", "4h", "4c"], 3),
        ("razz", ["Qc", "Kh", "5d"], 1),  # razz: the highest up card
        ("razz", ["Kh", "Ks", "Kd"], 1),  # equal ranks: the higher suit, spades highest
        ("razz", ["Ac", "2c", "As"], 1),  # aces are low
        ("razz", ["Jd", "Jc", "3s"], 0),
    ],
)
def test_stud_bring_in_by_the_lowest_up_card_razz_the_highest_suits_break_ties(
        game: str, ups: list[str], seat: int) -> None:
    hand = Hand(game, STUD, [100] * len(ups), deck=stud_ups(ups))
    assert [hand.up_cards(p) for p in range(len(ups))] == [cards(up) for up in ups]
    assert hand.bring_in_player == seat
    assert hand.actor == seat
    legal = hand.legal()
    assert legal.bring_in_player == seat and legal.can_bring_in


def test_stud_legal_for_the_bring_in_player_bring_in_or_complete_no_check_no_fold() -> None:
    hand = Hand("stud", STUD, [100] * 3, deck=stud_ups(["9s", "2c", "5d"]))
    legal = hand.legal()
    assert legal.player == 1
    assert legal.can_bring_in and legal.bring_in_amount == 1
    assert legal.is_completion and legal.can_raise
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 4)  # the completion to the small bet
    assert not legal.can_check and not legal.can_fold
    assert legal.moves() == (BringIn(), BetRaise(4))
    assert hand.default_action() == BringIn()
    assert_illegal(hand, CheckCall(), "p2 brings in: post the bring-in of 1 or complete to 4")
    assert_illegal(hand, Fold(), "brings in")
    assert_illegal(hand, BetRaise(3), "only complete to 4")
    assert_illegal(hand, BetRaise(8), "only complete to 4")


def test_stud_after_the_bring_in_the_others_fold_call_it_or_complete_then_raise_by_the_small_bet() -> None:
    hand = Hand("stud", STUD, [100] * 4, deck=stud_ups(["9s", "2c", "5d", "Kh"]))
    events = play(hand, BringIn())
    assert of(events, Acted) == [Acted(1, "bring in", 1, False, 1)]
    assert hand.actor == 2  # clockwise from the bring-in
    legal = hand.legal()
    assert (legal.call_amount, legal.can_fold, legal.can_check) == (1, True, False)
    assert legal.is_completion and (legal.min_raise_to, legal.max_raise_to) == (4, 4)
    assert legal.moves() == (Fold(), CheckCall(), BetRaise(4))
    assert of(play(hand, "cc"), Acted) == [Acted(2, "call", 1, False, 1)]
    assert of(play(hand, "cbr 4"), Acted) == [Acted(3, "complete", 4, False, 4)]
    legal = hand.legal()
    assert hand.actor == 0 and not legal.is_completion
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (4, 8, 8)
    assert of(play(hand, "f"), Acted) == [Acted(0, "fold", 0, False)]
    assert hand.legal().call_amount == 3  # the bring-in completes his call
    play(hand, "cbr 8")
    assert of(play(hand, "cc", "cc"), Acted) == [Acted(2, "call", 8, False, 7), Acted(3, "call", 8, False, 4)]
    assert hand.round == 1
    assert hand.pot_total == 4 + 8 * 3


def test_stud_a_short_all_in_over_the_bring_in_is_not_the_completion() -> None:
    # Acted's "complete" is the first full bet over a bring-in. Bring-in 2, small bet 10: seat 2 is all in for 4,
    # less than half the small bet, so seat 3 still completes (to 10).
    stakes = Stakes("fixed-limit", ante=1, bring_in=2, small_bet=10, big_bet=20)
    hand = Hand("stud", stakes, [100, 100, 5, 100], deck=stud_ups(["9s", "2c", "5d", "Kh"]))
    play(hand, "pb")
    short = of(play(hand, "cbr 4"), Acted)
    assert [(a.player, a.amount, a.all_in) for a in short] == [(2, 4, True)]
    assert short[0].verb != "complete"
    legal = hand.legal()
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (4, 10, 10)  # this part passes
    assert legal.is_completion
    assert of(play(hand, "cbr 10"), Acted) == [Acted(3, "complete", 10, False, 10)]


def test_stud_bring_in_player_may_complete_at_once() -> None:
    hand = Hand("stud-hilo", STUD, [100] * 3, deck=stud_ups(["9s", "2c", "5d"]))
    assert of(play(hand, "cbr 4"), Acted) == [Acted(1, "complete", 4, False, 4)]
    legal = hand.legal()
    assert (legal.call_amount, legal.min_raise_to) == (4, 8) and not legal.can_bring_in


def test_stud_everyone_folds_to_the_bring_in() -> None:
    hand = Hand("razz", STUD, [100] * 3, deck=stud_ups(["9s", "Kc", "5d"]))
    events = play(hand, "pb", "f", "f")
    assert hand.is_complete
    assert of(events, Returned) == [Returned(1, 1)]  # the uncalled bring-in comes back
    assert awards(hand) == [(0, 3, (1,), (3,), "")]
    assert hand.stacks == [99, 102, 99]


def test_stud_raise_cap_the_bring_in_does_not_count_the_completion_does() -> None:
    hand = Hand("stud", STUD, [200] * 5, deck=stud_ups(["9s", "2c", "5d", "Kh", "Qs"]))
    play(hand, "pb", "cbr 4", "cbr 8", "cbr 12")  # the completion and two raises: three bets
    legal = hand.legal()
    assert legal.can_raise and legal.min_raise_to == 16
    play(hand, "cbr 16")  # the fourth bet
    legal = hand.legal()
    assert not legal.can_raise and "capped at 4 bets" in legal.why_no_raise
    assert_illegal(hand, BetRaise(20), "capped")


def test_stud_raise_cap_does_not_apply_heads_up() -> None:
    hand = Hand("razz", STUD, [200, 200], deck=stud_ups(["9s", "Kc"]))
    play(hand, "pb", "cbr 4", "cbr 8", "cbr 12", "cbr 16", "cbr 20")
    assert hand.legal().can_raise and hand.legal().min_raise_to == 24


def test_stud_fixed_limit_small_bet_third_and_fourth_street_big_bet_from_fifth() -> None:
    hand = Hand("stud", STUD, [200] * 3, deck=stud_ups(["9s", "2c", "5d"]))
    play(hand, "pb", "cc", "cc")
    sizes = []
    while not hand.is_complete:
        legal = hand.legal()
        sizes.append((hand.round, legal.min_raise_to, legal.max_raise_to))
        play(hand, "cc", "cc", "cc")
    assert sizes == [(1, 4, 4), (2, 8, 8), (3, 8, 8), (4, 8, 8)]


def test_stud_pot_and_no_limit_completion_to_at_least_the_small_bet() -> None:
    stakes = stakes_for(GAMES["stud"], "no-limit", 5, 10)  # ante 2, bring-in 3, small bet 10
    hand = Hand("stud", stakes, [200] * 3, deck=stud_ups(["9s", "2c", "5d"]))
    legal = hand.legal()
    assert legal.can_bring_in and legal.bring_in_amount == 3
    assert (legal.min_raise_to, legal.max_raise_to) == (10, 198)
    play(hand, "pb")
    legal = hand.legal()
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (3, 10, 198)
    play(hand, "cbr 10")
    assert hand.legal().min_raise_to == 20  # raises of at least the completion


# ================================================================================ stud: who opens later streets


def test_stud_fourth_street_best_showing_opens_and_may_check_pairs_count() -> None:
    # Third street: seat 0 brings in with the 2c. Fourth street: seat 0 shows K-2, seat 1 5-5, seat 2 A-K.
    deck = stud_ups(["2c", "5d", "Ah"], "3c", "Ks 5h Kh", "3d", "7s 7h 8c")
    hand = Hand("stud", STUD, [100] * 3, deck=deck)
    play(hand, "pb", "cc", "cc")
    assert hand.round == 1
    assert [hand.up_cards(p) for p in range(3)] == [cards("2c Ks"), cards("5d 5h"), cards("Ah Kh")]
    assert hand.actor == 1  # a pair of fives beats ace-king
    legal = hand.legal()
    assert legal.can_check and legal.is_bet and (legal.min_raise_to, legal.max_raise_to) == (4, 4)
    assert legal.up == cards("5d 5h")
    play(hand, "cc", "cc", "cc")
    assert hand.round == 2 and hand.actor == 1  # fifth street: 5-5-7 against K-7-2 and A-K-8


def test_stud_straights_and_flushes_of_up_cards_do_not_count() -> None:
    # Up cards by sixth street: seat 0 4h 5h 6h 7h, seat 1 2c 2d 9c 3s, seat 2 As Kd Qc Jh.
    deck = stud_ups(["4h", "2c", "As"], "Tc", "5h 2d Kd", "Td", "6h 9c Qc", "Th", "7h 3s Jh")
    hand = Hand("stud", STUD, [100] * 3, deck=deck)
    assert hand.bring_in_player == 1
    play(hand, "pb", "cc", "cc")
    for _street in (1, 2, 3):
        assert hand.actor == 1  # the pair of deuces
        play(hand, "cc", "cc", "cc")
    assert hand.up_cards(0) == cards("4h 5h 6h 7h")
    assert hand.round == 4 and hand.actor == 1


def test_stud_without_pairs_the_highest_cards_open() -> None:
    deck = stud_ups(["2c", "5d", "Ah"], "3c", "Ks Qh Kh")
    hand = Hand("stud-hilo", STUD, [100] * 3, deck=deck)
    play(hand, "pb", "cc", "cc")
    assert hand.actor == 2  # A-K beats K-2 and Q-5


def test_stud_equal_showings_go_to_the_first_clockwise_from_seat_zero_suits_never_count() -> None:
    deck = stud_ups(["3c", "Kc", "Ks"], "2c", "4d Qd Qs")
    hand = Hand("stud", STUD, [100] * 3, deck=deck)
    play(hand, "pb", "cc", "cc")
    assert hand.actor == 1  # K-Q against K-Q of higher suits
    deck = stud_ups(["Kd", "3c", "Ks"], "2c", "Qd 4d Qs")
    hand = Hand("stud", STUD, [100] * 3, deck=deck)
    play(hand, "pb", "cc", "cc")
    assert hand.actor == 0


def test_razz_the_lowest_showing_opens_aces_low_pairs_count() -> None:
    # Third street: seat 0 brings in with the king. Fourth: K-K (a pair), A-6, 2-6.
    deck = stud_ups(["Kc", "Ac", "2d"], "3c", "Kd 6h 6s")
    hand = Hand("razz", STUD, [100] * 3, deck=deck)
    assert hand.bring_in_player == 0
    play(hand, "pb", "cc", "cc")
    assert hand.actor == 1  # 6-A is lower than 6-2; the pair of kings is the worst
    deck = stud_ups(["Kc", "Ac", "Qd"], "3c", "7d Ad 9s")
    hand = Hand("razz", STUD, [100] * 3, deck=deck)
    play(hand, "pb", "cc", "cc")
    assert hand.actor == 2  # Q-9 beats a pair of aces


def test_stud_a_best_showing_player_all_in_is_not_asked_to_act() -> None:
    # Seat 2 goes all in on third street and shows the pair of fives on fourth; seat 0 shows A-9, seat 1 K-2.
    stakes = Stakes("fixed-limit", ante=1, bring_in=2, small_bet=4, big_bet=8)
    deck = stud_ups(["9s", "2c", "5d"], "3c", "Ah Kh 5h")
    hand = Hand("stud", stakes, [100, 100, 5], deck=deck)
    play(hand, "pb", "cc", "cbr 4", "cc", "cc")
    assert hand.round == 1 and hand.is_all_in(2)
    assert hand.actor is not None and hand.actor != 2
    check_down(hand)
    assert sum(hand.stacks) == 205


# ================================================================================ stud: short stacks


def test_stud_a_player_all_in_on_his_ante_is_skipped_for_the_bring_in() -> None:
    hand = Hand("stud", STUD, [1, 100, 100], deck=stud_ups(["2c", "5d", "9s"]))
    assert hand.is_all_in(0)
    assert hand.bring_in_player == 1 and hand.actor == 1
    play(hand, "pb", "cc")
    assert hand.round == 1  # seat 0 never acts
    check_down(hand)
    assert sum(hand.stacks) == 201


def test_razz_a_player_all_in_on_his_ante_is_skipped_for_the_bring_in() -> None:
    hand = Hand("razz", STUD, [100, 1, 100], deck=stud_ups(["9s", "Kd", "Qs"]))
    assert hand.bring_in_player == 2


def test_stud_a_bring_in_for_less_than_the_full_amount_is_all_in() -> None:
    stakes = Stakes("fixed-limit", ante=1, bring_in=2, small_bet=4, big_bet=8)
    hand = Hand("stud", stakes, [2, 100, 100], deck=stud_ups(["2c", "5d", "9s"]))
    legal = hand.legal()
    assert legal.can_bring_in and legal.bring_in_amount == 1
    events = play(hand, BringIn())
    assert of(events, Acted) == [Acted(0, "bring in", 1, True, 1)]
    assert hand.is_all_in(0)
    assert hand.actor == 1
    check_down(hand)
    assert sum(hand.stacks) == 202


# ================================================================================ stud: the cards


def test_stud_third_street_two_down_one_up_fourth_to_sixth_up_seventh_down() -> None:
    third = ["As Ks 9s", "Ah Kh 2c", "Ad Kd 5d"]
    deck = stud_deck(third, "3c", "Qs Qh Qd", "4c", "Js Jh Jd", "5c", "Ts Th Td", "6c", "7s 7h 7d")
    hand = Hand("stud", STUD, [100] * 3, deck=deck)
    dealt = of(hand.events, Dealt)
    assert dealt == [Dealt(0, cards("As Ks 9s"), cards("9s")), Dealt(1, cards("Ah Kh 2c"), cards("2c")),
                     Dealt(2, cards("Ad Kd 5d"), cards("5d"))]
    play(hand, "pb", "cc", "cc")
    for street in (1, 2, 3):
        assert hand.round == street
        events = play(hand, "cc", "cc", "cc")
        if street < 3:
            assert [d.up for d in of(events, Dealt)] == [(d.cards[0],) for d in of(events, Dealt)]
    assert hand.round == 4
    seventh = of(hand.events, Dealt)[-3:]
    assert seventh == [Dealt(0, cards("7s"), ()), Dealt(1, cards("7h"), ()), Dealt(2, cards("7d"), ())]
    assert [hand.up_cards(p) for p in range(3)] == [cards("9s Qs Js Ts"), cards("2c Qh Jh Th"), cards("5d Qd Jd Td")]
    assert hand.legal().up == hand.up_cards(hand.actor or 0)
    assert hand.holes[0] == list(cards("As Ks 9s Qs Js Ts 7s"))
    assert of(hand.events, Burned) == [Burned(0, 1), Burned(0, 2), Burned(0, 3), Burned(0, 4)]
    assert hand.board == []
    assert hand.history[:3] == ["d dh p1 AsKs9s", "d dh p2 AhKh2c", "d dh p3 AdKd5d"]


def test_stud_up_cards_stay_public_after_a_fold() -> None:
    deck = stud_ups(["9s", "2c", "5d"], "3c", "Ah Ac 7h")
    hand = Hand("stud", STUD, [100] * 3, deck=deck)
    play(hand, "pb", "cc", "cc", "cc", "f")
    assert hand.folded[1]
    assert hand.up_cards(1) == cards("2c Ac")


def test_stud_seven_players_to_seventh_street_no_burn_but_a_card_each() -> None:
    # 21 cards on third street, a burn and 7 cards on each of fourth to sixth: 45; the stub holds 7 cards, one
    # short of a card each plus the burn.
    hand = Hand("stud-hilo", STUD, [100] * 7, seed=15)
    check_down(hand)
    assert [b.street for b in of(hand.events, Burned)] == [1, 2, 3]
    assert hand.board == [] and not of(hand.events, BoardDealt)
    assert all(len(h) == 7 for h in hand.holes)
    assert hand.deck.stub_size == 0


def test_stud_eight_players_to_seventh_street_one_community_card_no_burn() -> None:
    hand = Hand("stud", STUD, [100] * 8, seed=13)
    play(hand, "pb")
    for _ in range(7):
        play(hand, "cc")
    for street in (1, 2, 3):
        assert hand.round == street
        for _ in range(8):
            play(hand, "cc")
    assert hand.round == 4
    assert hand.deck.stub_size == 0
    burns = of(hand.events, Burned)
    assert [b.street for b in burns] == [1, 2, 3]  # no burn before seventh street
    boards = of(hand.events, BoardDealt)
    assert len(boards) == 1 and boards[0].street == 4 and len(boards[0].cards) == 1
    community = boards[0].cards[0]
    assert hand.board == [community]
    assert hand.legal().board == (community,)
    assert hand.history[-1] == f"d db {community}"
    assert all(len(h) == 6 for h in hand.holes)  # nobody gets a seventh card of his own
    assert not [d for d in of(hand.events, Dealt) if hand.events.index(d) > hand.events.index(boards[0])]
    check_down(hand)
    for p in range(8):
        assert hand.value_of(p) == evaluate("high", [*hand.holes[p], community])
    best = max(hand.value_of(p) for p in range(8))  # type: ignore[type-var]
    assert awards(hand)[0][2] == tuple(p for p in range(8) if hand.value_of(p) == best)


def test_razz_eight_players_community_card_plays_in_the_low() -> None:
    hand = Hand("razz", STUD, [100] * 8, seed=14)
    check_down(hand)
    assert len(hand.board) == 1
    for p in range(8):
        assert hand.value_of(p) == evaluate("ace-to-five", [*hand.holes[p], *hand.board])


# ================================================================================ stud: the open pair option


def open_pair_hand(*, open_pair: bool = True, pair: bool = True) -> Hand:
    fourth = "Ah Kh 5h" if pair else "Ah Kh 6h"
    deck = stud_ups(["9s", "2c", "5d"], "3c", fourth)
    hand = Hand("stud", STUD, [200] * 3, deck=deck, open_pair=open_pair)
    play(hand, "pb", "cc", "cc")
    assert hand.round == 1
    return hand


def test_stud_open_pair_on_fourth_street_a_bet_of_the_small_or_the_big_bet() -> None:
    hand = open_pair_hand()
    assert hand.actor == 2  # the pair of fives
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 8)
    assert BetRaise(4) in legal.moves() and BetRaise(8) in legal.moves()
    assert_illegal(hand, BetRaise(6), "4 \\(the small bet\\) or 8 \\(the big bet\\), nothing between")
    assert_illegal(hand, BetRaise(12), "or 8")
    play(hand, "cbr 8")
    legal = hand.legal()
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (8, 16, 16)  # raises in big bets now
    play(hand, "cbr 16")
    assert (hand.legal().min_raise_to, hand.legal().max_raise_to) == (24, 24)


def test_stud_open_pair_a_small_bet_may_be_raised_by_the_big_bet() -> None:
    hand = open_pair_hand()
    play(hand, "cbr 4")
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (8, 12)
    play(hand, "cbr 12")
    assert (hand.legal().min_raise_to, hand.legal().max_raise_to) == (20, 20)


def test_stud_open_pair_option_off_or_no_pair_only_the_small_bet() -> None:
    for hand in (open_pair_hand(open_pair=False), open_pair_hand(pair=False)):
        legal = hand.legal()
        assert (legal.min_raise_to, legal.max_raise_to) == (4, 4)
        assert_illegal(hand, BetRaise(8), "only bet to 4")
        assert_illegal(hand, BetRaise(6), "only bet to 4")


def test_stud_open_pair_only_on_fourth_street() -> None:
    hand = open_pair_hand()
    play(hand, "cc", "cc", "cc")
    assert hand.round == 2
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (8, 8)


@pytest.mark.parametrize(("game", "stakes"), [("razz", STUD), ("stud-hilo", STUD), ("holdem", FL),
                                              ("stud", stakes_for(GAMES["stud"], "pot-limit", 1, 2)),
                                              ("stud", stakes_for(GAMES["stud"], "no-limit", 1, 2))])
def test_stud_open_pair_is_an_option_of_fixed_limit_seven_card_stud_only(game: str, stakes: Stakes) -> None:
    with pytest.raises(ValueError, match="open pair"):
        Hand(game, stakes, [100] * 3, seed=1, open_pair=True)


# ================================================================================ hi-lo split

# Omaha Hi-Lo boards and hands used below. Board Kd 7s 3c 4h 8c: three low cards (3, 4, 7 or 8).
LOW_BOARD = ("2s", "Kd 7s 3c", "5s", "4h", "6s", "8c")  # burn, flop, burn, turn, burn, river


def test_hilo_pot_split_high_and_low_odd_chip_to_the_high_half() -> None:
    # Seat 0 (small blind) folds: pot 1 + 2 + 2 = 5. Seat 1 has three kings, seat 2 the low 7-4-3-2-A.
    holes = ["9c 9d Tc Td", "Kc Ks Qh Jd", "Ah 2d 6c 6h"]
    hand = Hand("omaha-hilo", FL, [100] * 3, deck=flop_deck(holes, *LOW_BOARD))
    play(hand, "cc", "f", "cc")
    check_down(hand)
    assert awards(hand) == [(0, 3, (1,), (3,), "high"), (0, 2, (2,), (2,), "low")]
    assert hand.stacks == [99, 101, 100]
    shown = {e.player: e for e in of(hand.events, Shown)}
    assert shown[2].low == "7-4-3-2-A"
    assert shown[1].low == ""  # no low
    assert "kings" in shown[1].description.lower()


def test_hilo_no_qualifying_low_the_high_hand_scoops_the_whole_pot() -> None:
    holes = ["9c 9d Tc Td", "Kc Ks Qh Jd", "Ah 2d 6c 6h"]
    board = ("2s", "Kd Qs 9h", "5s", "4h", "6s", "8c")  # only two low cards on the board
    hand = Hand("omaha-hilo", FL, [100] * 3, deck=flop_deck(holes, *board))
    play(hand, "cc", "f", "cc")
    check_down(hand)
    assert awards(hand) == [(0, 5, (1,), (5,), "")]
    assert all(e.low == "" for e in of(hand.events, Shown))


def test_hilo_one_player_scoops_both_halves() -> None:
    # Seat 2's A-2 makes the wheel: a five-high straight for the high and 5-4-3-2-A for the low.
    holes = ["9c 9d Tc Td", "Qh Qd Jc Jd", "Ah 2d Kc Ks"]
    board = ("2s", "3h 4c 5c", "6s", "Kd", "7s", "9h")
    hand = Hand("omaha-hilo", FL, [100] * 3, deck=flop_deck(holes, *board))
    play(hand, "cc", "f", "cc")
    check_down(hand)
    assert awards(hand) == [(0, 3, (2,), (3,), "high"), (0, 2, (2,), (2,), "low")]
    assert hand.stacks == [99, 98, 103]
    shown = {e.player: e for e in of(hand.events, Shown)}
    assert shown[2].low == "5-4-3-2-A"


def test_hilo_tied_lows_split_their_half_odd_chip_clockwise_from_seat_zero() -> None:
    # Four players, the small blind folds: pot 7, high 4, low 3. Seats 1 and 3 tie for low (7-4-3-2-A).
    holes = ["9c 9d Tc Td", "Ah 2d Jc Jd", "Kc Ks Qh Qd", "Ad 2h Js Jh"]
    hand = Hand("omaha-hilo", FL, [100] * 4, deck=flop_deck(holes, *LOW_BOARD))
    play(hand, "cc", "cc", "f", "cc")
    check_down(hand)
    assert awards(hand) == [(0, 4, (2,), (4,), "high"), (0, 3, (1, 3), (2, 1), "low")]
    assert hand.stacks == [99, 100, 102, 99]


def test_hilo_tied_highs_split_the_whole_pot_without_a_low_odd_chip_clockwise_from_seat_zero() -> None:
    # Stud hi-lo: seats 1 and 2 both hold A-K-Q-J-7 and no low; seat 3 folds his ante: the pot is 7.
    third = ["Kd Qd 2c", "Ac Kh Qs", "Ad Ks Qh", "8h 8d Js"]
    later = ["5c", "Tc Jc Jd", "5d", "9h 7s 7h", "5h", "8s 6s 6h", "5s", "3d 4s 4h"]
    hand = Hand("stud-hilo", STUD, [100] * 4, deck=stud_deck(third, *later))
    assert hand.bring_in_player == 0
    play(hand, "pb", "cc", "cc", "f")
    check_down(hand)
    assert hand.value_of(1) == hand.value_of(2)
    assert hand.low_value_of(1) is None and hand.low_value_of(2) is None
    assert awards(hand) == [(0, 7, (1, 2), (4, 3), "")]  # four antes and three bring-ins of 1
    assert hand.stacks == [98, 102, 101, 99]


def test_hilo_each_side_pot_is_split_on_its_own() -> None:
    # Seat 1 is all in on the big blind. Main pot (seats 1-3): 1 + 2 * 3 = 7; side pot (seats 2 and 3): 2 * 2.
    # Seat 1 has the best high, seat 2 the only low, seat 3 a better high than seat 2.
    holes = ["9c 9d Tc Td", "Kc Ks Qh Jd", "Ah 2d 6c 6h", "Qc Qd Js Jc"]
    hand = Hand("omaha-hilo", FL, [100, 2, 100, 100], deck=flop_deck(holes, *LOW_BOARD))
    assert hand.is_all_in(1)
    play(hand, "cc", "cc", "f")
    assert hand.round == 1 and hand.actor == 2
    play(hand, "cbr 2", "cc")
    check_down(hand)
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(7, (1, 2, 3)), (4, (2, 3))]
    assert awards(hand) == [
        (1, 2, (3,), (2,), "high"), (1, 2, (2,), (2,), "low"),  # the side pot first
        (0, 4, (1,), (4,), "high"), (0, 3, (2,), (3,), "low"),
    ]
    assert hand.stacks == [99, 4, 101, 98]


def test_hilo_a_folded_low_wins_nothing_the_high_scoops_each_pot() -> None:
    # As above, but seat 2 (the only low) folds to a raise on the flop: no low is left in either pot.
    holes = ["9c 9d Tc Td", "Kc Ks Qh Jd", "Ah 2d 6c 6h", "Qc Qd Js Jc"]
    hand = Hand("omaha-hilo", FL, [100, 2, 100, 100], deck=flop_deck(holes, *LOW_BOARD))
    play(hand, "cc", "cc", "f", "cbr 2", "cbr 4", "f")
    check_down(hand)
    assert awards(hand) == [(1, 4, (3,), (4,), ""), (0, 7, (1,), (7,), "")]
    assert hand.stacks == [99, 7, 96, 100]


def test_big_o_deals_five_hole_cards_and_plays_two_plus_three_for_high_and_low() -> None:
    # Seat 0 holds A-2-3 and two kings: the low needs exactly two hole cards (A-2 or A-3 or 2-3) and three board.
    holes = ["Ac 2c 3c Kc Kd", "Qc Qd Jc Jd Th"]
    board = ("9s", "4h 5d 8s", "9h", "Ks", "9c", "Qs")
    hand = Hand("big-o", PL, [100, 100], deck=flop_deck(holes, *board))
    assert [len(h) for h in hand.holes] == [5, 5]
    check_down(hand)
    shown = {e.player: e for e in of(hand.events, Shown)}
    assert shown[0].low == "8-5-4-2-A"  # not 5-4-3-2-A: that would play three hole cards
    assert awards(hand) == [(0, 2, (0,), (2,), "high"), (0, 2, (0,), (2,), "low")]  # three kings and the low


def test_stud_hilo_shows_the_low_eight_six_four_two_ace_and_splits_heads_up() -> None:
    # Seat 0: As 2d Kd 4c 6h 8s Kc, kings and the low 8-6-4-2-A. Seat 1: queens and nines, no low.
    third = ["As 2d Kd", "Qs Qh 9c"]
    later = ["3c", "4c 9h", "3d", "6h Jc", "3h", "8s 3s", "5c", "Kc Ts"]
    hand = Hand("stud-hilo", STUD, [100, 100], deck=stud_deck(third, *later))
    assert hand.bring_in_player == 1  # the 9c is lower than the Kd
    play(hand, "pb", "cc")
    check_down(hand)
    shown = {e.player: e for e in of(hand.events, Shown)}
    assert shown[0].low == "8-6-4-2-A"
    assert shown[1].low == ""
    assert awards(hand) == [(0, 2, (1,), (2,), "high"), (0, 2, (0,), (2,), "low")]


def test_razz_lowest_hand_wins_the_whole_pot_no_qualifier() -> None:
    # Seat 0: K-Q-J-T-9 (a straight flush in diamonds, which razz ignores) is the lowest hand; seat 1 holds
    # only kings, queens and jacks: two pair at best.
    third = ["Kc Qc Jd", "Ks Qs Jh"]
    later = ["2c", "Td Js", "2d", "9d Jc", "2h", "Kd Kh", "2s", "Qd Qh"]
    hand = Hand("razz", STUD, [100, 100], deck=stud_deck(third, *later))
    play(hand, "pb", "cc")
    check_down(hand)
    assert awards(hand) == [(0, 4, (0,), (4,), "")]
    assert all(e.low == "" for e in of(hand.events, Shown))


# ================================================================================ errors


def test_error_a_bring_in_in_a_blind_game() -> None:
    hand = Hand("holdem", NL, [100] * 3, seed=20)
    assert_illegal(hand, BringIn(), "no bring-in in Texas Hold'em")
    assert_illegal(hand, "pb", "no bring-in")
    assert hand.legal().bring_in_player is None and not hand.legal().can_bring_in
    with pytest.raises(ValueError, match="bring-in is a stake of the stud games only"):
        Hand("omaha", Stakes("pot-limit", 1, 2, bring_in=1), [100] * 3, seed=1)


def test_error_blinds_in_stud_and_stud_without_a_bring_in() -> None:
    with pytest.raises(ValueError, match="no blinds"):
        Hand("stud", Stakes("fixed-limit", 1, 2, ante=1, bring_in=1), [100] * 3, seed=1)
    with pytest.raises(ValueError, match="need a bring-in"):
        Hand("razz", Stakes("fixed-limit", ante=1, small_bet=4), [100] * 3, seed=1)


def test_error_bring_in_by_the_wrong_player() -> None:
    hand = Hand("stud", STUD, [100] * 3, deck=stud_ups(["9s", "2c", "5d"]))
    assert_illegal(hand, BringIn(player=2), "it is p2's turn, not p3's")
    assert_illegal(hand, "p1 pb", "it is p2's turn, not p1's")
    play(hand, BringIn())
    assert_illegal(hand, BringIn(), "only the player with the lowest up card brings in")
    razz = Hand("razz", STUD, [100] * 3, deck=stud_ups(["9s", "Kc", "5d"]))
    play(razz, "pb")
    assert_illegal(razz, BringIn(), "only the player with the highest up card brings in")


def test_error_no_bring_in_after_third_street() -> None:
    hand = Hand("stud", STUD, [100] * 3, deck=stud_ups(["9s", "2c", "5d"]))
    play(hand, "pb", "cc", "cc")
    assert hand.round == 1
    assert_illegal(hand, BringIn(), "brings in")


def test_error_an_amount_between_the_small_and_the_big_bet_without_an_open_pair() -> None:
    hand = open_pair_hand(open_pair=False)
    assert_illegal(hand, BetRaise(6), "you can only bet to 4")
    assert_illegal(hand, BetRaise(0), "you can only bet to 4")
    holdem = Hand("holdem", FL, [100] * 3, seed=21)
    play(holdem, "cc", "cc", "cc", "cc", "cc", "cc")
    assert holdem.round == 2
    assert_illegal(holdem, BetRaise(3), "you can only bet to 4")


def test_error_refused_moves_change_nothing_during_a_stud_hand() -> None:
    hand = Hand("stud-hilo", STUD, [100] * 3, deck=stud_ups(["9s", "2c", "5d"], "3c", "Ah Kh 5h"))
    for move in (CheckCall(), Fold(), BetRaise(5), BetRaise(2), "sd", BringIn(player=0), Fold(player=7)):
        before = snapshot(hand)
        assert not hand.can(move)
        with pytest.raises(IllegalAction):
            hand.act(move)
        assert snapshot(hand) == before
    play(hand, "pb")
    assert_illegal(hand, BetRaise(8), "only complete to 4")
    assert_illegal(hand, "sd", "not time to draw")


def test_error_stacks_beyond_the_game_maximum() -> None:
    with pytest.raises(ValueError, match="2 to 8 players"):
        Hand("stud", STUD, [100] * 9, seed=1)
    with pytest.raises(ValueError, match="2 to 10 players"):
        Hand("holdem", NL, [100] * 11, seed=1)


def test_stud_a_bring_in_all_in_for_less_is_called_in_full_as_a_short_big_blind_is() -> None:
    # docs/rules.md section 1.7: a blind or a bring-in all in for less is still called in full.
    stakes = Stakes("fixed-limit", ante=1, bring_in=3, small_bet=10, big_bet=20)
    hand = Hand("stud", stakes, [100, 3, 100], deck=stud_ups(["9s", "2c", "5d"]))
    assert hand.legal().can_bring_in and hand.legal().bring_in_amount == 2  # all he has after his ante
    play(hand, "pb")
    assert hand.is_all_in(1) and hand.legal().call_amount == 3
    play(hand, "cc", "cc")  # the full bring-in: 3 each, his 2 matched in the main pot, 1 each in a side pot
    assert [pot.amount for pot in hand.pots()] == [9, 2]


def test_stud_a_bring_in_player_with_no_more_than_the_bring_in_can_only_post_it() -> None:
    # docs/rules.md section 18.2: he posts what he has and is all in; a "completion" for less is no completion.
    stakes = Stakes("fixed-limit", ante=1, bring_in=3, small_bet=10, big_bet=20)
    hand = Hand("stud", stakes, [100, 3, 100], deck=stud_ups(["9s", "2c", "5d"]))
    legal = hand.legal()
    assert legal.can_bring_in and not legal.can_raise and legal.moves() == (BringIn(),)
    assert_illegal(hand, BetRaise(2), "no more than the bring-in")


def test_stud_a_bring_in_player_who_leaves_is_folded_and_the_next_lowest_card_brings_in() -> None:
    # docs/rules.md section 1.8: a player who leaves is folded; section 18.2: the bring-in falls to the lowest up card
    # left.
    hand = Hand("stud", STUD, [100] * 4, deck=stud_ups(["9s", "2c", "5d", "3h"]))
    assert hand.bring_in_player == 1 and not hand.can(Fold())  # on his turn he posts or completes
    assert hand.can(Fold(player=1))  # named: he leaves the table
    play(hand, Fold(player=1))
    assert hand.bring_in_player == 3 and hand.actor == 3 and hand.legal().can_bring_in
    play(hand, "pb", "cc", "cc")
    assert hand.round == 1  # third street is over


def test_a_draw_tables_big_bet_round_leaves_the_flop_and_stud_games_their_own() -> None:
    # docs/rules.md sections 2.5, 14.2 and 18.4: the big bet round is a double and triple draw option; flop games bet
    # big on the turn, stud from fifth street.
    for game_id in ("holdem", "omaha-hilo", "stud", "razz", "triple-draw-27"):
        stakes = stakes_for(GAMES[game_id], "fixed-limit", 1, 2, big_bet_round=2)
        expected = 2 if game_id == "triple-draw-27" else 3
        assert Hand(game_id, stakes, [100, 100], seed=1).big_bet_round == expected, game_id
