"""The hand engine against docs/rules.md sections 2 to 13 and the seed documents.

Each test is named after the rule it checks. Decks are stacked with
``stacked()``: the initial deal gives seat i the cards ``order[i::n]`` of the
first 5n cards (one at a time, clockwise from the seat left of the button),
then every draw burns one card and serves each drawing player in seat order
(Assassin's extra card last). Seat 0 is left of the button; the last seat is
the button (heads-up: seat 0 is the big blind, seat 1 the button and small
blind).

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.poker import (
    DRAW_GAMES,
    STRUCTURES,
    Burned,
    Card,
    Carried,
    CheckCall,
    Dealt,
    Drew,
    Fold,
    Hand,
    HandEnded,
    IllegalAction,
    Posted,
    PotAwarded,
    Reshuffled,
    Returned,
    RoundEnded,
    Shown,
    Stakes,
    parse_cards,
)
from bot.poker.cards import new_deck
from tests.engine.helpers import of, play, snapshot, stacked, to_showdown

FL = Stakes("fixed-limit", 1, 2)  # small bet 2, big bet 4
NL = Stakes("no-limit", 1, 2)
PL = Stakes("pot-limit", 1, 2)

LOWBALL = [g for g in DRAW_GAMES if DRAW_GAMES[g].is_lowball]
FIVE_CARD_LOWBALL = [g for g in LOWBALL if DRAW_GAMES[g].hand_size == 5]
HIGH = [g for g in DRAW_GAMES if not DRAW_GAMES[g].is_lowball]
DOUBLE_DRAW = ["double-draw-27", "double-draw-a5", "double-draw-a6"]


# --------------------------------------------------------------------------------------------------------- helpers


def assert_illegal(hand: Hand, action: str, match: str | None) -> None:
    """The action raises IllegalAction with a message matching ``match`` and changes nothing."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match=match) as raised:
        hand.act(action)
    assert str(raised.value).strip()  # a message that says why
    assert snapshot(hand) == before


def posted(hand: Hand) -> list[tuple[int, str, int]]:
    return [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]


def awards(events: Sequence[Any]) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    return [(e.pot, e.amount, e.winners, e.shares) for e in of(events, PotAwarded)]


# ============================================================== 1. Seats, button, dealing order


def test_seat_zero_is_left_of_button_posts_small_blind_and_last_seat_is_button() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 4, seed=1)
    assert posted(hand) == [(0, "small blind", 1), (1, "big blind", 2)]
    assert hand.actor == 2
    play(hand, "cc")
    assert hand.actor == 3  # the button
    play(hand, "cc")
    assert hand.actor == 0


def test_heads_up_button_posts_small_blind_and_acts_first_before_draw() -> None:
    hand = Hand("single-draw-27", FL, [100, 100], seed=3)
    assert posted(hand) == [(1, "small blind", 1), (0, "big blind", 2)]
    assert hand.actor == 1
    play(hand, "cc")
    assert hand.actor == 0  # the big blind's option
    play(hand, "cc")
    assert hand.phase == "drawing" and hand.actor == 0  # the draw: the big blind (left of the button) first
    play(hand, "sd")
    assert hand.actor == 1


def test_heads_up_button_acts_last_after_every_draw() -> None:
    hand = Hand("triple-draw-a5", FL, [100, 100], seed=4)
    play(hand, "cc", "cc")
    for _ in range(3):
        assert hand.phase == "drawing"
        assert hand.actor == 0
        play(hand, "sd")
        assert hand.actor == 1
        play(hand, "sd")
        assert hand.phase == "betting"
        assert hand.actor == 0  # the big blind first after the draw
        play(hand, "cc")
        assert hand.actor == 1  # the button last
        play(hand, "cc")
    assert hand.is_complete


def test_initial_deal_one_card_at_a_time_clockwise_from_left_of_button() -> None:
    order = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh"
    hand = Hand("five-card-draw", NL, [100] * 3, deck=order)
    assert hand.holes == [parse_cards("As Js 8s 5s 2s"), parse_cards("Ks Ts 7s 4s Ah"),
                          parse_cards("Qs 9s 6s 3s Kh")]
    assert [e.player for e in of(hand.events, Dealt)] == [0, 1, 2]


def test_burn_before_every_draw_even_if_all_stand_pat() -> None:
    deck = stacked(["7c 5d 4h 3s 2c", "8c 6d 4d 3h 2d"], "Kc", "Kd", "Kh", "9s")
    hand = Hand("triple-draw-27", FL, [100, 100], deck=deck)
    events = play(hand, "cc", "cc", "sd", "sd", "cc", "cc", "sd", "sd")
    assert [e.draw for e in of(events, Burned)] == [0, 1]
    events += play(hand, "cc", "cc")
    assert [e.draw for e in of(events, Burned)] == [0, 1, 2]
    play(hand, "sd 7c")
    assert hand.holes[0] == parse_cards("5d 4h 3s 2c 9s")  # three burns (Kc Kd Kh) came before it
    assert set(parse_cards("Kc Kd Kh")) <= set(hand.deck.muck)
    to_showdown(hand)


def test_draw_order_clockwise_from_first_active_left_of_button_each_served_at_once() -> None:
    holes = ["Ac Kc Qc Jc 9c", "7d 5d 4d 3d Kd", "7h 5h 4h 3h Kh", "7s 5s 4s 3s Ks"]
    deck = stacked(holes, "2c", "2d 2h", "2s", "6c 6d 6h")
    hand = Hand("triple-draw-27", FL, [100] * 4, deck=deck)
    play(hand, "cc", "cc", "f", "cc")  # seat 0 (small blind, left of the button) folds
    assert hand.phase == "drawing" and hand.actor == 1
    play(hand, "sd Kd 7d")
    assert hand.holes[1] == parse_cards("5d 4d 3d 2d 2h")  # served before the next player declares
    assert hand.actor == 2
    play(hand, "sd Kh")
    assert hand.holes[2] == parse_cards("7h 5h 4h 3h 2s")
    play(hand, "sd Ks 7s 5s")
    assert hand.holes[3] == parse_cards("4s 3s 6c 6d 6h")
    assert hand.phase == "betting" and hand.actor == 1


def test_declared_draw_is_locked_once_replacements_dealt() -> None:
    hand = Hand("triple-draw-a5", FL, [100] * 3, seed=11)
    play(hand, "cc", "cc", "cc")
    first = list(hand.holes[0])
    play(hand, f"sd {first[0]}")
    assert hand.actor == 1
    assert_illegal(hand, f"p1 sd {hand.holes[0][0]}", "turn")
    assert_illegal(hand, "p1 sd", "turn")


# Reshuffle scenario: 7-handed single draw. 35 cards dealt, the button folds,
# one burn leaves a stub of 16; seats 0, 1 and 2 take 15 of them; seat 3 gets
# the last stub card and then four from the muck (the burn, the folded hand,
# and the discards of seats 0 to 2), and seats 4 and 5 are served from that
# new deck.
D = new_deck()


def _hole(seat: int) -> list[Card]:
    return D[seat:35:7]


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _reshuffle_hand(tail: Sequence[Card]) -> Hand:
    hand = Hand("single-draw-27", FL, [100] * 7, deck=D + list(tail))
    play(hand, "cc", "cc", "cc", "cc", "f", "cc", "cc")
    assert hand.phase == "drawing" and hand.actor == 0
    for seat in range(3):
        play(hand, f"sd {_codes(_hole(seat))}")
    assert hand.holes[0] == D[36:41] and hand.holes[2] == D[46:51]
    return hand


SEAT3_FROM_MUCK = [D[35], D[6], D[0], D[2]]  # the burn, the button's folded card, discards of seats 0 and 2
SEAT4_FROM_MUCK = [D[13], D[1]]
SEAT5_FROM_MUCK = [D[7], D[14], D[8], D[9], D[15]]


def test_reshuffle_stub_dealt_out_then_muck_with_burns_folds_and_earlier_discards() -> None:
    hand = _reshuffle_hand(SEAT3_FROM_MUCK + SEAT4_FROM_MUCK + SEAT5_FROM_MUCK)
    events = play(hand, f"sd {_codes(_hole(3))}")
    assert of(events, Reshuffled)
    assert hand.holes[3] == [D[51], *SEAT3_FROM_MUCK]  # the last stub card first, then the new deck
    play(hand, f"sd {_codes(_hole(4)[:2])}", f"sd {_codes(_hole(5))}")
    assert hand.holes[4] == _hole(4)[2:] + SEAT4_FROM_MUCK
    assert hand.holes[5] == SEAT5_FROM_MUCK
    assert hand.phase == "betting"
    to_showdown(hand)


def test_reshuffle_event_reports_the_size_of_the_new_deck() -> None:
    hand = _reshuffle_hand(SEAT3_FROM_MUCK + SEAT4_FROM_MUCK + SEAT5_FROM_MUCK)
    events = play(hand, f"sd {_codes(_hole(3))}")
    # The muck held the burn, the folded hand (5) and 15 discards: 21 cards.
    assert [e.cards for e in of(events, Reshuffled)] == [21]


def test_reshuffle_never_returns_players_own_discards() -> None:
    # Exact order: seat 3 would get back a card he threw in this draw.
    own = _hole(3)[1]
    hand = _reshuffle_hand([own, *SEAT3_FROM_MUCK[1:]])
    with pytest.raises(IllegalAction):
        hand.act(f"sd {_codes(_hole(3))}")
    # ... nor can a player still waiting be served them from the new deck formed without them.
    hand = _reshuffle_hand([*SEAT3_FROM_MUCK, _hole(3)[0], D[1]])
    play(hand, f"sd {_codes(_hole(3))}")
    with pytest.raises(IllegalAction):
        hand.act(f"sd {_codes(_hole(4)[:2])}")
    # Shuffled decks: six players throwing five cards at each of three draws.
    reshuffles = 0
    for seed in range(40):
        hand = Hand("triple-draw-27", FL, [1000] * 6, seed=seed)
        while not hand.is_complete:
            if hand.phase == "drawing":
                p = hand.actor
                assert p is not None
                thrown = list(hand.holes[p])
                play(hand, f"sd {_codes(thrown)}")
                assert not set(thrown) & set(hand.holes[p]), (seed, p, thrown, hand.holes[p])
                held = [c for i in hand.in_hand() for c in hand.holes[i]]
                assert len(set(held)) == len(held)
            else:
                play(hand, "cc")
        reshuffles += hand.deck.reshuffles
    assert reshuffles >= 40


def test_illegal_draw_the_stacked_deck_cannot_serve_changes_nothing() -> None:
    own = _hole(3)[1]
    hand = _reshuffle_hand([own, *SEAT3_FROM_MUCK[1:]])
    assert_illegal(hand, f"sd {_codes(_hole(3))}", "cannot be dealt")


# ======================================================================================= 2. Betting


@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("game", list(DRAW_GAMES))
def test_every_game_can_be_played_with_any_structure(game: str, structure: str) -> None:
    hand = Hand(game, Stakes(structure, 1, 2), [200] * 3, seed=5)  # type: ignore[arg-type]
    legal = hand.legal()
    expected = {"fixed-limit": (4, 4), "pot-limit": (4, 7), "no-limit": (4, 200)}[structure]
    assert (legal.min_raise_to, legal.max_raise_to) == expected
    events = to_showdown(hand)
    assert len(of(events, Burned)) == DRAW_GAMES[game].draws
    assert len(of(events, RoundEnded)) == DRAW_GAMES[game].betting_rounds
    assert sum(hand.stacks) == 600


def test_forced_bets_small_blind_big_blind_and_ante_from_every_player() -> None:
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 1, 2, ante=1), [100] * 4, seed=2)
    assert sorted(posted(hand)) == sorted([(0, "ante", 1), (1, "ante", 1), (2, "ante", 1), (3, "ante", 1),
                                           (0, "small blind", 1), (1, "big blind", 2)])
    assert hand.contributed == [2, 3, 1, 1]
    assert hand.bets == [1, 2, 0, 0]
    assert hand.pot_total == 7
    assert hand.legal().call_amount == 2


def test_per_seat_antes_are_dead_money_in_the_main_pot() -> None:
    # A big-blind ante: seat 1 antes 3 for the table, everyone calls, seat 2 wins the showdown.
    holes = ["9c 8c 7d 4s 3h", "Kc Qd Jd 5h 7s", "As Ah Ad Ac Kh"]
    hand = Hand("five-card-draw", Stakes("fixed-limit", 1, 2, antes=(0, 3, 0)), [100] * 3, deck=stacked(holes))
    events = to_showdown(hand)
    assert awards(events) == [(0, 9, (2,), (9,))]
    assert hand.stacks == [98, 95, 107]


def test_player_all_in_on_his_ante_can_still_win_the_main_pot() -> None:
    # Seat 1 antes 3 for the table with only 3 chips: all in on the ante, and he holds the best hand.
    holes = ["9c 8c 7d 4s 3h", "As Ah Ad Ac Kh", "Kc Qd Jd 5h 7s"]
    hand = Hand("five-card-draw", Stakes("fixed-limit", 1, 2, antes=(0, 3, 0)), [100, 3, 100], deck=stacked(holes))
    assert hand.is_all_in(1)
    events = to_showdown(hand)
    assert any(1 in e.winners for e in of(events, PotAwarded))
    assert hand.stacks[1] >= 3  # at least the antes (his own included) are his
    assert sum(hand.stacks) == 203


def test_per_seat_antes() -> None:
    hand = Hand("five-card-draw", Stakes("no-limit", 1, 2, antes=(0, 0, 0, 3)), [100] * 4, seed=2)
    assert (3, "ante", 3) in posted(hand)
    assert not any(kind == "ante" and seat != 3 for seat, kind, _ in posted(hand))
    assert hand.contributed == [1, 2, 0, 3]
    hand = Hand("five-card-draw", Stakes("no-limit", ante=1, antes=(1, 2, 3), min_bet=2), [100] * 3, seed=2)
    assert hand.contributed == [1, 2, 3]  # per-seat antes override the common ante
    with pytest.raises(ValueError):
        Hand("five-card-draw", Stakes("no-limit", 1, 2, antes=(1, 1)), [100] * 3, seed=2)


@pytest.mark.parametrize("game", HIGH)
def test_antes_only_first_round_starts_left_of_button(game: str) -> None:
    for stakes in (Stakes("no-limit", ante=1, min_bet=2), Stakes("fixed-limit", ante=1, small_bet=2)):
        hand = Hand(game, stakes, [100] * 4, seed=8)
        assert [kind for _, kind, _ in posted(hand)] == ["ante"] * 4
        assert hand.actor == 0
        legal = hand.legal()
        assert legal.can_check and legal.is_bet and legal.min_raise_to == 2
        play(hand, "cc", "cc", "cc")
        assert hand.actor == 3 and hand.phase == "betting"
        play(hand, "cc")
        assert hand.phase == "drawing"  # no big blind to act last


@pytest.mark.parametrize("game", LOWBALL)
def test_antes_only_is_not_allowed_in_lowball(game: str) -> None:
    with pytest.raises(ValueError):
        Hand(game, Stakes("fixed-limit", ante=1, small_bet=2), [100] * 3, seed=1)


def test_first_round_starts_left_of_big_blind_later_rounds_left_of_button() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 5, seed=9)
    assert hand.actor == 2
    play(hand, "cc", "cc", "cc", "cc", "cc")
    for _ in range(3):
        for _ in range(5):
            play(hand, "sd")
        assert hand.phase == "betting" and hand.actor == 0
        play(hand, *["cc"] * 5)
    assert hand.is_complete


def test_later_rounds_start_with_first_active_player_left_of_button() -> None:
    # Seat 0 folded: seat 1 opens every later round.
    hand = Hand("triple-draw-27", FL, [100] * 5, seed=9)
    play(hand, "cc", "cc", "cc", "f", "cc")
    play(hand, "sd", "sd", "sd", "sd")
    assert hand.phase == "betting" and hand.actor == 1
    # Seat 0 all in on the small blind: he still draws first, but seat 1 opens the betting.
    hand = Hand("triple-draw-27", FL, [1, 100, 100, 100], seed=9)
    assert hand.is_all_in(0)
    play(hand, "cc", "cc", "cc")
    assert hand.phase == "drawing" and hand.actor == 0
    play(hand, "sd", "sd", "sd", "sd")
    assert hand.phase == "betting" and hand.actor == 1


@pytest.mark.parametrize("game", ["single-draw-a5", "single-draw-27", "five-card-draw", "assassin"])
def test_fixed_limit_small_bet_is_big_blind_big_bet_twice_after_single_draw(game: str) -> None:
    hand = Hand(game, FL, [100] * 3, seed=12)
    legal = hand.legal()
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 4)
    assert_illegal(hand, "cbr 5", "only raise to 4")
    play(hand, "cbr 4", "cc", "cc", "sd", "sd", "sd")
    legal = hand.legal()
    assert legal.is_bet and (legal.min_raise_to, legal.max_raise_to) == (4, 4)
    play(hand, "cbr 4")
    assert (hand.legal().min_raise_to, hand.legal().max_raise_to) == (8, 8)


def test_fixed_limit_explicit_small_and_big_bet() -> None:
    hand = Hand("single-draw-a6", Stakes("fixed-limit", 5, 10, small_bet=10, big_bet=20), [500] * 2, seed=1)
    assert hand.legal().min_raise_to == 20
    play(hand, "cc", "cc", "sd", "sd")
    assert hand.legal().min_raise_to == 20


def _bet_size_each_round(game: str, stakes: Stakes) -> list[int]:
    hand = Hand(game, stakes, [1000, 1000], seed=13)
    sizes = [hand.legal().min_raise_to - 2]  # pre-draw: the raise over the big blind
    play(hand, "cc", "cc")
    while not hand.is_complete:
        while hand.phase == "drawing":
            play(hand, "sd")
        legal = hand.legal()
        assert legal.is_bet and legal.min_raise_to == legal.max_raise_to
        sizes.append(legal.min_raise_to)
        play(hand, "cc", "cc")
    return sizes


@pytest.mark.parametrize("game", DOUBLE_DRAW)
def test_big_bet_round_double_draw(game: str) -> None:
    assert _bet_size_each_round(game, FL) == [2, 2, 4]


@pytest.mark.parametrize("game", ["triple-draw-27", "triple-draw-a5", "triple-draw-a6"])
def test_big_bet_round_triple_draw_after_second_and_third_draw(game: str) -> None:
    assert _bet_size_each_round(game, FL) == [2, 2, 4, 4]


def test_big_bet_round_table_option() -> None:
    assert _bet_size_each_round("triple-draw-27", Stakes("fixed-limit", 1, 2, big_bet_round=2)) == [2, 4, 4, 4]
    assert _bet_size_each_round("double-draw-a5", Stakes("fixed-limit", 1, 2, big_bet_round=4)) == [2, 2, 2]
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 1, 2, big_bet_round=2), [100, 100], seed=1)
    assert hand.big_bet_round == 2
    assert Hand("triple-draw-27", FL, [100, 100], seed=1).big_bet_round == 3
    assert Hand("single-draw-27", FL, [100, 100], seed=1).big_bet_round == 2


def test_fixed_limit_cap_four_bets_blind_counts() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 3, seed=14)
    play(hand, "cbr 4", "cbr 6", "cbr 8")  # the big blind and three raises
    legal = hand.legal()
    assert legal.player == 2 and not legal.can_raise and legal.call_amount == 4
    assert_illegal(hand, "cbr 10", "capped")
    play(hand, "cc", "cc")
    assert hand.phase == "drawing"
    play(hand, "sd", "sd", "sd")
    play(hand, "cbr 2", "cbr 4", "cbr 6", "cbr 8")  # after the draw: a bet and three raises
    assert not hand.legal().can_raise
    assert_illegal(hand, "cbr 10", "capped")


def test_fixed_limit_cap_four_bets_antes_only_first_bet_counts() -> None:
    hand = Hand("five-card-draw", Stakes("fixed-limit", ante=1, small_bet=2), [100] * 3, seed=14)
    play(hand, "cbr 2", "cbr 4", "cbr 6", "cbr 8")
    assert hand.actor == 1 and not hand.legal().can_raise


def test_fixed_limit_cap_table_option_five() -> None:
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 1, 2, raise_cap=5), [100] * 3, seed=14)
    play(hand, "cbr 4", "cbr 6", "cbr 8")
    assert hand.legal().can_raise
    play(hand, "cbr 10")
    assert not hand.legal().can_raise
    assert_illegal(hand, "cbr 12", "capped")


def test_cap_does_not_apply_heads_up() -> None:
    hand = Hand("triple-draw-27", FL, [100, 100], seed=15)
    play(hand, "cbr 4", "cbr 6", "cbr 8", "cbr 10", "cbr 12", "cbr 14")
    assert hand.legal().can_raise


def test_cap_does_not_apply_when_round_begins_with_two_players() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 3, seed=15)
    play(hand, "f", "cc", "cc", "sd", "sd")
    play(hand, "cbr 2", "cbr 4", "cbr 6", "cbr 8", "cbr 10", "cbr 12")
    assert hand.legal().can_raise


def test_cap_applies_in_round_that_began_with_three_players_after_a_fold() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 3, seed=15)
    play(hand, "cbr 4", "f", "cbr 6", "cbr 8")
    assert hand.actor == 1 and not hand.legal().can_raise


def test_no_limit_min_raise_is_previous_raise() -> None:
    hand = Hand("five-card-draw", NL, [200] * 3, seed=16)
    assert hand.legal().min_raise_to == 4  # the big blind on the first round
    assert_illegal(hand, "cbr 3", "smallest raise is to 4")
    play(hand, "cbr 10")  # a raise of 8
    assert hand.legal().min_raise_to == 18
    assert_illegal(hand, "cbr 17", "smallest raise is to 18")
    play(hand, "cbr 30")  # a raise of 20
    assert hand.legal().min_raise_to == 50
    play(hand, "cc", "cc", "sd", "sd", "sd")
    legal = hand.legal()
    assert legal.is_bet and legal.min_raise_to == 2 and legal.max_raise_to == 170
    assert_illegal(hand, "cbr 1", "smallest bet is to 2")
    play(hand, "cbr 5")
    assert hand.legal().min_raise_to == 10
    assert_illegal(hand, "cbr 9", "smallest raise is to 10")


def test_no_limit_player_short_of_the_minimum_may_go_all_in() -> None:
    hand = Hand("five-card-draw", NL, [200, 200, 3], seed=16)
    play(hand, "cc", "cc", "cc", "sd", "sd", "sd", "cc", "cc")
    legal = hand.legal()
    assert legal.player == 2 and (legal.min_raise_to, legal.max_raise_to) == (1, 1)
    assert_illegal(hand, "cbr 2", "only bet to 1")
    play(hand, "cbr 1")
    assert hand.is_all_in(2)


def test_pot_limit_max_raise_blinds_1_2_is_7() -> None:
    hand = Hand("five-card-draw", PL, [200] * 3, seed=17)
    legal = hand.legal()
    assert (legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (2, 4, 7)
    assert_illegal(hand, "cbr 8", "largest raise is to 7")
    assert_illegal(hand, "cbr 200", "largest raise is to 7")  # not even all in
    play(hand, "cbr 7")
    # Small blind: call 6 makes the pot 16; he may raise to 7 + 16 = 23.
    assert hand.legal().max_raise_to == 23
    play(hand, "cbr 23")
    # Big blind: call 21 makes the pot 32 + 21 = 53; raise to at most 23 + 53 = 76.
    assert hand.legal().max_raise_to == 76
    play(hand, "cc", "cc", "sd", "sd", "sd")
    legal = hand.legal()
    assert legal.is_bet and (legal.min_raise_to, legal.max_raise_to) == (2, 69)  # a pot-sized bet


def test_pot_limit_min_raise_as_in_no_limit() -> None:
    hand = Hand("single-draw-27", PL, [200] * 3, seed=17)
    assert hand.legal().min_raise_to == 4
    assert_illegal(hand, "cbr 3", "smallest raise is to 4")
    play(hand, "cbr 6")  # a raise of 4
    assert hand.legal().min_raise_to == 10
    assert_illegal(hand, "cbr 9", "smallest raise is to 10")


def test_pot_limit_minimum_bet_allowed_when_the_pot_is_smaller() -> None:
    # Antes only, 1 each, minimum bet 4: the pot is 2, but the smallest bet is as in no limit.
    hand = Hand("five-card-draw", Stakes("pot-limit", ante=1, min_bet=4), [100, 100], seed=1)
    legal = hand.legal()
    assert legal.can_raise and legal.min_raise_to <= legal.max_raise_to
    play(hand, "cbr 4")
    # A short stack below the minimum bet may still bet all in.
    hand = Hand("assassin", Stakes("pot-limit", ante=1, min_bet=4), [4, 2], seed=0)
    legal = hand.legal()
    assert legal.can_raise and legal.min_raise_to <= legal.max_raise_to
    play(hand, f"cbr {legal.min_raise_to}")


def test_pot_limit_counts_antes_and_carried_chips_in_the_pot() -> None:
    hand = Hand("five-card-draw", Stakes("pot-limit", 1, 2, ante=1), [200] * 3, seed=17, carried_in=10)
    # Pot 3 antes + 3 blinds + 10 carried = 16; call 2 makes it 18: raise to 2 + 18 = 20.
    assert hand.legal().max_raise_to == 20


def _post_draw_three_handed(structure: str, stacks: list[int]) -> Hand:
    hand = Hand("single-draw-27", Stakes(structure, 1, 2), stacks, seed=18)  # type: ignore[arg-type]
    play(hand, "cc", "cc", "cc", "sd", "sd", "sd")
    assert hand.phase == "betting" and hand.actor == 0
    return hand


def test_fixed_limit_all_in_half_bet_reopens() -> None:
    hand = _post_draw_three_handed("fixed-limit", [100, 8, 100])  # seat 1 has 6 left; the big bet is 4
    play(hand, "cbr 4")
    assert (hand.legal().min_raise_to, hand.legal().max_raise_to) == (6, 6)  # all in: half a raise
    play(hand, "cbr 6", "cc")
    legal = hand.legal()
    # Seat 0 already acted, but the half-bet all-in reopened the betting for him: the all-in amount plus one bet.
    assert legal.player == 0 and legal.can_raise and legal.min_raise_to == legal.max_raise_to == 10
    play(hand, "cbr 10")


def test_fixed_limit_all_in_half_bet_counts_toward_cap() -> None:
    hand = Hand("triple-draw-27", FL, [100, 100, 100, 5], seed=18)
    play(hand, "cbr 4", "cbr 5")  # seat 3 all in for 5: one more than the 4, half a bet (the small bet is 2)
    assert hand.is_all_in(3)
    play(hand, "cbr 7")
    assert not hand.legal().can_raise  # blind, 4, 5 (a full bet) and 7: four bets


def test_fixed_limit_all_in_less_than_half_bet_does_not_reopen() -> None:
    hand = _post_draw_three_handed("fixed-limit", [100, 7, 100])  # seat 1 has 5 left
    play(hand, "cbr 4", "cbr 5")
    legal = hand.legal()
    assert legal.player == 2 and legal.can_raise and legal.min_raise_to == 8  # seat 2 had not acted
    play(hand, "cc")
    legal = hand.legal()
    assert legal.player == 0 and not legal.can_raise and legal.call_amount == 1
    assert_illegal(hand, "cbr 8", "did not reopen")
    assert_illegal(hand, "cbr 9", "did not reopen")


def test_short_all_in_does_not_reopen_no_limit() -> None:
    hand = _post_draw_three_handed("no-limit", [200, 16, 200])  # seat 1 has 14 left
    play(hand, "cbr 10", "cbr 14")  # a raise of 4, less than the 10 bet
    legal = hand.legal()
    assert legal.player == 2 and legal.can_raise and legal.min_raise_to == 24
    play(hand, "cc")
    legal = hand.legal()
    assert legal.player == 0 and not legal.can_raise and legal.call_amount == 4
    assert_illegal(hand, "cbr 30", "did not reopen")


def test_short_all_in_does_not_reopen_pot_limit() -> None:
    hand = _post_draw_three_handed("pot-limit", [200, 12, 200])  # seat 1 has 10 left; the pot is 6
    play(hand, "cbr 6", "cbr 10")  # a raise of 4, less than the 6 bet
    assert hand.legal().can_raise
    play(hand, "cc")
    legal = hand.legal()
    assert legal.player == 0 and not legal.can_raise
    assert_illegal(hand, "cbr 20", "did not reopen")


def test_full_all_in_raise_reopens_no_limit() -> None:
    hand = _post_draw_three_handed("no-limit", [200, 22, 200])  # seat 1 has 20 left
    play(hand, "cbr 10", "cbr 20", "cc")  # a full raise of 10
    legal = hand.legal()
    assert legal.player == 0 and legal.can_raise and legal.min_raise_to == 30


@pytest.mark.parametrize("game", list(DRAW_GAMES))
def test_check_raise_is_allowed_in_every_game(game: str) -> None:
    for structure in STRUCTURES:
        hand = Hand(game, Stakes(structure, 1, 2), [200, 200, 200], seed=19)
        play(hand, "cc", "cc", "cc", "sd", "sd", "sd", "cc")  # seat 0 checks
        play(hand, f"cbr {hand.legal().min_raise_to}")
        legal = hand.legal()
        assert legal.player == 2 and legal.can_raise
        play(hand, "cc")
        legal = hand.legal()
        assert legal.player == 0 and legal.can_raise
        play(hand, f"cbr {legal.min_raise_to}")


# "No one acts against all-ins alone": a player whose every opponent still in is all in acts only to match the
# largest of those all-ins, by a call or a fold; a raise no one can call is not offered.


@pytest.mark.parametrize("structure", STRUCTURES)
def test_no_one_acts_against_all_ins_alone_heads_up_short_big_blind_leaves_the_small_blind_nothing_to_do(
    structure: str,
) -> None:
    # Blinds 2/4 and an ante of 1: the big blind (seat 0) has 2 chips, so he posts his ante and is all in
    # on 1 chip of blind, less than the button's small blind of 2.
    hand = Hand("single-draw-27", Stakes(structure, 2, 4, ante=1), [2, 100], seed=3)  # type: ignore[arg-type]
    assert hand.is_all_in(0) and hand.bets == [0, 0]  # the first round is already over
    assert hand.phase == "drawing" and hand.legal().player == 0
    assert [(e.player, e.amount) for e in of(hand.events, Returned)] == [(1, 1)]  # his unmatched chip back
    assert hand.contributed == [2, 2]
    assert_illegal(hand, "p2 cc", "not p2's")
    to_showdown(hand)
    assert sum(hand.stacks) == 102


def test_no_one_acts_against_all_ins_alone_heads_up_the_small_blind_only_calls_a_short_big_blind() -> None:
    hand = Hand("single-draw-27", Stakes("no-limit", 2, 4), [3, 100], seed=3)  # the big blind is all in for 3
    legal = hand.legal()
    assert (legal.player, legal.call_amount, legal.can_raise) == (1, 1, False)
    assert legal.why_no_raise == "everyone else is all in: you can only call or fold"
    assert legal.moves() == (Fold(), CheckCall())
    assert_illegal(hand, "cbr 8", "all in")
    play(hand, "cc")
    assert hand.contributed == [3, 3] and not of(hand.events, Returned) and hand.phase == "drawing"


def test_no_one_acts_against_all_ins_alone_the_small_blind_who_matched_a_short_big_blind_is_not_asked() -> None:
    hand = Hand("five-card-draw", NL, [100, 1, 100], seed=4)  # the big blind is all in for 1
    legal = hand.legal()
    # The first to act still has the small blind against him, who is not all in: he calls the full big blind.
    assert (legal.player, legal.call_amount, legal.can_raise) == (2, 2, True)
    play(hand, "f")
    # Only the short big blind is left against the small blind, who has matched his 1 chip: nothing to do.
    assert hand.phase == "drawing" and hand.contributed == [1, 1, 0]


def test_no_one_acts_against_all_ins_alone_a_player_facing_only_a_short_big_blind_calls_only_that_much() -> None:
    hand = Hand("five-card-draw", NL, [100, 1, 100], seed=4)
    play(hand, Fold(player=0))  # the small blind leaves the table
    legal = hand.legal()
    assert (legal.player, legal.call_amount, legal.can_raise) == (2, 1, False)
    assert_illegal(hand, "cbr 4", "all in")
    play(hand, "cc")
    assert hand.contributed == [1, 1, 1] and hand.phase == "drawing"


def test_no_one_acts_against_all_ins_alone_a_raise_no_one_can_call_is_not_offered() -> None:
    # Seat 2 is all in for 30 and the button all in for 20; the big blind has 15 in all. No one could call a
    # raise by the small blind, who may only call the 30 or fold.
    hand = Hand("five-card-draw", NL, [100, 15, 30, 20], seed=5)
    play(hand, "cbr 30", "cc")
    legal = hand.legal()
    assert (legal.player, legal.call_amount, legal.can_raise) == (0, 29, False)
    assert legal.why_no_raise == "no one left can call a raise: you can only call or fold"
    assert_illegal(hand, "cbr 60", "no one left can call a raise")
    play(hand, "cc")
    legal = hand.legal()
    assert (legal.player, legal.call_amount, legal.can_raise) == (1, 13, False)  # all in for 15, less than 30


def test_no_one_acts_against_all_ins_alone_a_raise_someone_can_call_in_part_is_offered() -> None:
    hand = Hand("five-card-draw", NL, [100, 40, 30, 20], seed=5)
    play(hand, "cbr 30", "cc")
    legal = hand.legal()
    assert legal.player == 0 and legal.can_raise and legal.max_raise_to == 100  # the big blind can call 40


SIDE_POT_HOLES = ["As Ah Ad Ac 3c", "Ks Kh Kd Kc 4c", "Qs Qh Qd Qc 5c"]


def _side_pot_hand() -> tuple[Hand, list[Any]]:
    hand = Hand("five-card-draw", NL, [10, 50, 100], deck=stacked(SIDE_POT_HOLES))
    events = play(hand, "cbr 100", "cc", "cc")
    events += to_showdown(hand)
    return hand, events


def test_side_pots_awarded_separately() -> None:
    hand, events = _side_pot_hand()
    assert [(e.player, e.amount) for e in of(events, Returned)] == [(2, 50)]
    assert sorted(awards(events)) == [(0, 30, (0,), (30,)), (1, 80, (1,), (80,))]
    assert hand.stacks == [30, 80, 50]


def test_side_pots_awarded_from_last_side_pot_down_to_main() -> None:
    _, events = _side_pot_hand()
    assert [e.pot for e in of(events, PotAwarded)] == [1, 0]


def test_uncontested_pot_wins_without_showing() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 3, seed=20)
    events = play(hand, "f", "f")
    assert hand.is_complete and hand.stacks == [99, 101, 100]
    assert not of(events, Shown)
    assert [(e.winners, e.uncontested) for e in of(events, PotAwarded)] == [((1,), True)]
    # After a draw: a bet nobody calls is returned and the bettor wins without showing.
    hand = Hand("single-draw-a5", FL, [100] * 2, seed=20)
    events = play(hand, "cc", "cc", "sd", "sd", "cbr 4", "f")
    assert not of(events, Shown)
    assert [(e.player, e.amount) for e in of(events, Returned)] == [(0, 4)]
    assert hand.stacks == [102, 98] and hand.winners == {0}


def test_uncontested_after_fold_in_the_draw() -> None:
    hand = Hand("double-draw-27", FL, [100] * 2, seed=20)
    play(hand, "cc", "cc", "sd")
    events = play(hand, "f")  # the button gives up at the draw
    assert hand.is_complete and hand.stacks == [102, 98] and not of(events, Shown)


def test_split_pot_equal_hands() -> None:
    holes = ["9c 8c 7d 4s 3h", "As Kd Qh Jc 9s", "Ad Ks Qc Jh 9d"]
    hand = Hand("five-card-draw", FL, [100] * 3, deck=stacked(holes))
    events = play(hand, "cc", "cc", "cc")  # pot 6
    events += to_showdown(hand)
    assert awards(events) == [(0, 6, (1, 2), (3, 3))]


def test_odd_chip_first_winner_left_of_button() -> None:
    # Seat 0 folds his small blind: pot 5, seats 1 and 2 tie, seat 1 is first clockwise from the button.
    holes = ["9c 8c 7d 4s 3h", "As Kd Qh Jc 9s", "Ad Ks Qc Jh 9d"]
    hand = Hand("five-card-draw", FL, [100] * 3, deck=stacked(holes))
    events = play(hand, "cc", "f", "cc")
    events += to_showdown(hand)
    assert awards(events) == [(0, 5, (1, 2), (3, 2))]
    # Seats 0 and 2 tie for 7 (the big blind's ante and blind are dead): seat 0 gets the odd chip.
    holes = ["As Kd Qh Jc 9s", "9c 8c 7d 4s 3h", "Ad Ks Qc Jh 9d"]
    hand = Hand("five-card-draw", Stakes("fixed-limit", 1, 2, antes=(0, 1, 0)), [100] * 3, deck=stacked(holes))
    events = play(hand, "cc", "cc", "f")
    events += to_showdown(hand)
    assert awards(events) == [(0, 7, (0, 2), (4, 3))]
    # Heads-up the big blind is left of the button and gets the odd chip (one chip carried in).
    holes = ["7c 5d 4h 3s 2c", "7d 5c 4s 3h 2d"]
    hand = Hand("triple-draw-27", FL, [100] * 2, deck=stacked(holes), carried_in=1)
    events = to_showdown(hand)
    assert awards(events) == [(0, 5, (0, 1), (3, 2))]


def test_odd_chips_three_way_split_go_to_first_winners_clockwise() -> None:
    holes = ["As Kd Qh Jc 9s", "Ad Ks Qc Jh 9d", "Ah Kc Qs Jd 9c", "7c 6d 4h 3s 2c"]
    stakes = Stakes("fixed-limit", 1, 2, antes=(0, 0, 0, 2))
    hand = Hand("five-card-draw", stakes, [100] * 4, deck=stacked(holes))
    events = play(hand, "cc", "f", "cc", "cc")  # 2+2+2 called, the button's 2 ante dead: pot 8
    events += to_showdown(hand)
    assert awards(events) == [(0, 8, (0, 1, 2), (3, 3, 2))]


def test_no_chip_created_or_destroyed() -> None:
    for seed in range(30):
        for game in DRAW_GAMES:
            hand = Hand(game, Stakes("no-limit", 1, 2, ante=1), [3, 50, 200, 11], seed=seed, carried_in=5)
            while not hand.is_complete:
                legal = hand.legal()
                if legal.phase == "drawing":
                    play(hand, f"sd {_codes(legal.hand[: min(2, legal.max_discards)])}")
                elif legal.can_raise and (seed + len(hand.actions)) % 3 == 0:
                    play(hand, f"cbr {legal.max_raise_to}")
                else:
                    play(hand, "cc")
            assert sum(hand.stacks) + hand.carried_out == 264 + 5


# ======================================================================================== 4. Games


RULES_TABLE = {
    # id: (draws, betting rounds, ranking, default structure, max players)
    "five-card-draw": (1, 2, "high", "no-limit", 8),
    "assassin": (1, 2, "high", "no-limit", 8),
    "single-draw-27": (1, 2, "deuce-to-seven", "no-limit", 7),
    "single-draw-a5": (1, 2, "ace-to-five", "fixed-limit", 7),
    "single-draw-a6": (1, 2, "ace-to-six", "fixed-limit", 7),
    "double-draw-27": (2, 3, "deuce-to-seven", "fixed-limit", 6),
    "double-draw-a5": (2, 3, "ace-to-five", "fixed-limit", 6),
    "double-draw-a6": (2, 3, "ace-to-six", "fixed-limit", 6),
    "triple-draw-27": (3, 4, "deuce-to-seven", "fixed-limit", 6),
    "triple-draw-a5": (3, 4, "ace-to-five", "fixed-limit", 6),
    "triple-draw-a6": (3, 4, "ace-to-six", "fixed-limit", 6),
    "badugi": (3, 4, "badugi", "fixed-limit", 6),
}


def test_games_table_matches_rules() -> None:
    assert list(DRAW_GAMES) == list(RULES_TABLE)
    for game_id, (draws, rounds, ranking, structure, max_players) in RULES_TABLE.items():
        game = DRAW_GAMES[game_id]
        assert (game.draws, game.betting_rounds, game.ranking, game.default_structure, game.max_players) == (
            draws, rounds, ranking, structure, max_players), game_id
    assert DRAW_GAMES["assassin"].assassin and not any(DRAW_GAMES[g].assassin for g in DRAW_GAMES if g != "assassin")


@pytest.mark.parametrize("game", list(DRAW_GAMES))
def test_max_players(game: str) -> None:
    most = RULES_TABLE[game][4]
    hand = Hand(game, FL, [100] * most, seed=1)
    to_showdown(hand)
    with pytest.raises(ValueError):
        Hand(game, FL, [100] * (most + 1), seed=1)
    with pytest.raises(ValueError):
        Hand(game, FL, [100], seed=1)


# A-5 wins with the wheel; in 2-7 the wheel is ace-high and in A-6 a straight, so 7-5-4-3-2 wins.
WHEEL, SEVEN_LOW = "Ac 2d 3h 4s 5c", "7d 5h 4c 3d 2s"


@pytest.mark.parametrize("game", FIVE_CARD_LOWBALL)
def test_lowball_showdown_lowest_wins_whole_pot(game: str) -> None:
    hand = Hand(game, FL, [100] * 3, deck=stacked([WHEEL, SEVEN_LOW, "Kc Kd Qs Qh Jd"]))
    events = to_showdown(hand)
    winner = 0 if DRAW_GAMES[game].ranking == "ace-to-five" else 1
    assert [(e.winners, e.amount) for e in of(events, PotAwarded)] == [((winner,), 6)]
    assert hand.stacks[winner] == 104


@pytest.mark.parametrize("game", ["single-draw-a5", "double-draw-27", "triple-draw-a6"])
def test_lowball_no_qualifier_least_junky_junk_wins(game: str) -> None:
    # Kings full against four aces: a full house is the better low in every lowball ranking.
    hand = Hand(game, FL, [100] * 2, deck=stacked(["Kc Kd Ks Qh Qd", "Ac Ad Ah As Kh"]))
    events = to_showdown(hand)
    assert [(e.amount, e.winners) for e in of(events, PotAwarded)] == [(4, (0,))]


@pytest.mark.parametrize("game", LOWBALL)
def test_lowball_no_joker_and_no_draw_limit(game: str) -> None:
    with pytest.raises(ValueError):
        Hand(game, FL, [100] * 2, seed=1, jokers=True)
    for limit in ("3", "3-or-4-with-ace"):
        with pytest.raises(ValueError):
            Hand(game, FL, [100] * 2, seed=1, draw_limit=limit)  # type: ignore[arg-type]
    hand = Hand(game, FL, [100] * 2, seed=1)
    play(hand, "cc", "cc")
    size = DRAW_GAMES[game].hand_size  # five cards, four in Badugi
    assert hand.legal().max_discards == size
    play(hand, f"sd {_codes(hand.holes[0])}")  # 0 to 5 cards (0 to 4 in Badugi)
    assert len(hand.holes[0]) == size


def test_draw_limit_unlimited_by_default() -> None:
    hand = Hand("five-card-draw", NL, [100] * 2, seed=1)
    play(hand, "cc", "cc")
    assert hand.legal().max_discards == 5
    play(hand, f"sd {_codes(hand.holes[0])}")


def test_draw_limit_three() -> None:
    hand = Hand("five-card-draw", NL, [100] * 2, deck=stacked(["Ac Kd 9h 7s 3c", "Qc Jd 9d 6s 2c"]),
                draw_limit="3")
    play(hand, "cc", "cc")
    assert hand.legal().max_discards == 3  # an ace does not help
    assert_illegal(hand, "sd Kd 9h 7s 3c", "three")
    play(hand, "sd 9h 7s 3c")
    assert len(hand.holes[0]) == 5


def test_draw_limit_three_or_four_with_ace() -> None:
    deck = stacked(["Ac Kd 9h 7s 3c", "Qc Jd 9d 6s 2c"])
    hand = Hand("five-card-draw", NL, [100] * 2, deck=deck, draw_limit="3-or-4-with-ace")
    play(hand, "cc", "cc")
    assert hand.legal().max_discards == 4
    assert_illegal(hand, "sd Ac 9h 7s 3c", "ace")  # four, but the card kept is the king
    assert_illegal(hand, "sd Ac Kd 9h 7s 3c", "ace")
    play(hand, "sd Kd 9h 7s 3c")
    assert hand.holes[0][0] == parse_cards("Ac")[0] and len(hand.holes[0]) == 5
    assert hand.legal().max_discards == 3  # the second player has no ace
    assert_illegal(hand, "sd Qc Jd 9d 6s", "ace")
    play(hand, "sd Jd 9d 6s")


# --------------------------------------------------------------------------------- Assassin (seed 000)


def _assassin(holes: Sequence[str], *later: str, stacks: Sequence[int] = (100, 100), jokers: bool = False,
              **options: Any) -> Hand:
    deck = stacked(holes, *later, jokers=jokers)
    return Hand("assassin", NL, list(stacks), deck=deck, jokers=jokers, **options)


def test_assassin_example_a_beats_b() -> None:
    # Player A (seat 0) is dealt 2c Kh Kc 9s 7d, discards the 2c face up and the 7d face down,
    # and receives K♠9♥4♦. Player B (the button) shows A♠A♦A♥8♣2♦.
    hand = _assassin(["2c Kh Kc 9s 7d", "As Ad Ah 8c 2d"], "3h", "Ks 9h 4d")
    play(hand, "cc", "cc")
    events = play(hand, "sdu 2c 7d")
    drew = of(events, Drew)[0]
    assert (drew.discarded, drew.face_up, drew.received) == (2, tuple(parse_cards("2c")), 3)
    assert sorted(c.code for c in hand.holes[0]) == sorted(["Kh", "Kc", "Ks", "9s", "9h", "4d"])
    assert hand.value_of(0) is not None and hand.value_of(0).describe() == "Full house, kings full of nines"
    events = play(hand, "sd") + to_showdown(hand)
    shown = {e.player: e for e in of(events, Shown)}
    assert len(shown[0].cards) == 6 and parse_cards("4d")[0] in shown[0].cards  # A shows the sixth card
    assert not shown[0].assassinated and shown[1].assassinated
    assert [e.winners for e in of(events, PotAwarded)] == [(0,)]
    assert hand.stacks == [102, 98]


def test_assassin_face_up_twos_earn_exactly_one_extra_card() -> None:
    hand = _assassin(["2c 2d Kh Qs Js", "As Ah Ad 9c 8c"], "3h", "Kd Ks Kc")
    play(hand, "cc", "cc")
    events = play(hand, "sdu 2c 2d")
    drew = of(events, Drew)[0]
    assert drew.face_up == tuple(parse_cards("2c 2d"))  # shown to the table
    assert (drew.discarded, drew.received) == (2, 3)  # two replacements and one extra card
    assert hand.holes[0] == parse_cards("Kh Qs Js Kd Ks Kc")
    assert hand.face_up[0] == parse_cards("2c 2d")
    events = play(hand, "sd") + to_showdown(hand)
    assert [e.winners for e in of(events, PotAwarded)] == [(0,)]


def test_assassin_face_down_two_gets_no_extra_card() -> None:
    hand = _assassin(["2c Kh Kc 9s 7d", "As Ad Ah 8c 3d"], "3h", "Ks 4d")
    play(hand, "cc", "cc")
    events = play(hand, "sd 2c")
    drew = of(events, Drew)[0]
    assert (drew.discarded, drew.face_up, drew.received) == (1, (), 1)
    assert hand.holes[0] == parse_cards("Kh Kc 9s 7d Ks")


def test_assassin_sdu_rejected_without_a_two() -> None:
    hand = _assassin(["2c Kh Kc 9s 7d", "As Ad Ah 8c 3d"], "3h")
    play(hand, "cc", "cc")
    assert_illegal(hand, "sdu 7d", "two")
    assert_illegal(hand, "sdu", "two")


def test_sdu_rejected_outside_assassin() -> None:
    hand = Hand("five-card-draw", NL, [100, 100], deck=stacked(["2c Kh Kc 9s 7d", "As Ad Ah 8c 3d"]))
    play(hand, "cc", "cc")
    assert_illegal(hand, "sdu 2c", "Assassin")
    hand = Hand("triple-draw-27", FL, [100, 100], deck=stacked(["2c Kh Kc 9s 7d", "As Ad Ah 8c 3d"]))
    play(hand, "cc", "cc")
    assert_illegal(hand, "sdu 2c", "Assassin")


def test_assassin_face_up_twos_count_toward_draw_limit_extra_card_does_not() -> None:
    hand = _assassin(["2c 2d 7h 8s Ks", "As Ah Ad 9c 8c"], "3h", "Kd Kc Qd Qc", draw_limit="3")
    play(hand, "cc", "cc")
    assert_illegal(hand, "sdu 2c 2d 7h 8s", "three")
    events = play(hand, "sdu 2c 2d 7h")
    assert of(events, Drew)[0].received == 4
    assert hand.holes[0] == parse_cards("8s Ks Kd Kc Qd Qc")


def test_assassin_deadly_two_drawn() -> None:
    hand = _assassin(["Ah Ad Ac Kh Qs", "9c 8d 6h 5s 3c"], "3h", "2h")
    play(hand, "cc", "cc", "sd Qs", "sd")
    assert hand.is_assassinated(0) and not hand.is_assassinated(1)
    events = to_showdown(hand)
    assert [e.winners for e in of(events, PotAwarded)] == [(1,)]


def test_assassin_kept_two_loses_every_showdown() -> None:
    hand = _assassin(["9c 8d 6h 5s 3c", "As Ah Ad Ac 2d"])
    events = to_showdown(hand)
    assert [e.winners for e in of(events, PotAwarded)] == [(0,)]
    assert {e.player: e.assassinated for e in of(events, Shown)} == {0: False, 1: True}


def test_assassin_extra_card_that_is_a_two_assassinates() -> None:
    hand = _assassin(["2c Ah Ad Ac Kh", "9c 8d 6h 5s 3c"], "3h", "As 2h")
    play(hand, "cc", "cc", "sdu 2c", "sd")
    assert hand.holes[0] == parse_cards("Ah Ad Ac Kh As 2h")
    events = to_showdown(hand)
    assert [e.winners for e in of(events, PotAwarded)] == [(1,)]


def test_assassin_six_card_hand_plays_best_five_and_shows_all_six() -> None:
    hand = _assassin(["2c Ah Kh Qh 9s", "Ts 9d 8c 7h 6s"], "3h", "Jh 3c 4h")
    play(hand, "cc", "cc", "sdu 2c 9s", "sd")
    assert hand.value_of(0).describe() == "Flush, ace high"  # type: ignore[union-attr]
    events = to_showdown(hand)
    shown = {e.player: e.cards for e in of(events, Shown)}
    assert len(shown[0]) == 6
    assert [e.winners for e in of(events, PotAwarded)] == [(0,)]


def test_assassin_all_assassinated_pot_carried() -> None:
    hand = _assassin(["Ah Ad Ac Kh 2s", "9c 8d 6h 5s 2c"])
    events = to_showdown(hand)
    assert not of(events, PotAwarded)
    assert [(e.pot, e.amount) for e in of(events, Carried)] == [(0, 4)]
    assert hand.carried_out == 4 and hand.stacks == [98, 98]
    assert of(events, HandEnded)[0].carried == 4
    assert sum(hand.stacks) + hand.carried_out == 200


def test_assassin_assassinated_player_wins_uncontested() -> None:
    hand = _assassin(["9c 8d 6h 5s 3c", "As Ah Ad Ac 2d"])
    play(hand, "cbr 10")
    events = play(hand, "f")
    assert hand.stacks == [98, 102] and not of(events, Shown)
    assert [(e.winners, e.uncontested) for e in of(events, PotAwarded)] == [((1,), True)]


def test_carried_in_added_to_next_pot() -> None:
    hand = _assassin(["9c 8d 6h 5s 3c", "As Ah Ad Kc Qd"], carried_in=30)
    assert hand.pot_total == 33
    events = to_showdown(hand)
    assert [(e.amount, e.winners) for e in of(events, PotAwarded)] == [(34, (1,))]
    assert hand.stacks == [98, 132]
    assert sum(hand.stacks) + hand.carried_out == 200 + 30
    # Uncontested, too.
    hand = _assassin(["9c 8d 6h 5s 3c", "As Ah Ad Kc Qd"], carried_in=30)
    play(hand, "f")
    assert hand.stacks == [131, 99]


@pytest.mark.parametrize("game", ["triple-draw-27", "five-card-draw", "single-draw-a5"])
def test_carried_in_joins_the_next_deal_whatever_game(game: str) -> None:
    hand = Hand(game, FL, [100] * 3, seed=21, carried_in=17)
    assert hand.pot_total == 20
    events = to_showdown(hand)
    assert sum(e.amount for e in of(events, PotAwarded)) == 6 + 17
    assert sum(hand.stacks) == 317


def test_carried_in_an_assassinated_pot_is_carried_again() -> None:
    hand = _assassin(["Ah Ad Ac Kh 2s", "9c 8d 6h 5s 2c"], carried_in=30)
    to_showdown(hand)
    assert hand.carried_out == 34 and sum(hand.stacks) + hand.carried_out == 230


def test_assassin_jokers_play_as_twos() -> None:
    hand = Hand("assassin", NL, [100, 100], seed=1, jokers=True)
    assert len(hand.deck.universe) == 54
    hand = _assassin(["X1 Ah Ad Kc Qs", "X2 9c 8d 6h 5s"], "3h", "As Ac", jokers=True)
    play(hand, "cc", "cc")
    assert hand.legal().face_up_twos == tuple(parse_cards("X1"))
    events = play(hand, "sdu X1")
    assert of(events, Drew)[0].received == 2  # one replacement and the extra card
    assert hand.holes[0] == parse_cards("Ah Ad Kc Qs As Ac")
    events = play(hand, "sd") + to_showdown(hand)
    assert hand.is_assassinated(1)  # the kept joker kills
    assert [e.winners for e in of(events, PotAwarded)] == [(0,)]
    with pytest.raises(ValueError):
        Hand("five-card-draw", NL, [100, 100], seed=1, jokers=True)


def test_assassin_all_jokers_and_twos_hand_carried() -> None:
    hand = _assassin(["X1 X2 2c 2d 2h", "2s 9c 8d 6h 5s"], jokers=True)
    events = to_showdown(hand)
    assert hand.carried_out == 4 and of(events, Carried)


def test_assassin_carried_side_pot_separately() -> None:
    # Seat 0 (short, all in, no two) wins the main pot; seats 1 and 2 both hold a two: the side pot is carried.
    holes = ["9c 8d 6h 5s 3c", "As Ah Ad Ac 2d", "Ks Kh Kd Kc 2h"]
    hand = _assassin(holes, stacks=(10, 100, 100))
    play(hand, "cbr 50", "cc", "cc")
    assert hand.is_all_in(0)
    events = to_showdown(hand)
    assert [(e.pot, e.amount, e.winners) for e in of(events, PotAwarded)] == [(0, 30, (0,))]
    assert [(e.pot, e.amount) for e in of(events, Carried)] == [(1, 80)]
    assert hand.stacks == [30, 50, 50] and hand.carried_out == 80


def test_assassin_main_pot_to_best_live_hand_side_pot_to_other() -> None:
    # Seat 0 (short) holds a two; the main pot goes to the best hand without one, which may not be the best hand.
    holes = ["As Ah Ad Ac 2d", "9c 8d 6h 5s 3c", "Ks Kh Kd Kc Qd"]
    hand = _assassin(holes, stacks=(10, 100, 100))
    play(hand, "cbr 50", "cc", "cc")
    events = to_showdown(hand)
    assert sorted((e.pot, e.amount, e.winners) for e in of(events, PotAwarded)) == [(0, 30, (2,)), (1, 80, (2,))]


# ------------------------------------------------------------------------------ Double Draw (seed 001)


@pytest.mark.parametrize("game", DOUBLE_DRAW)
def test_double_draw_structure_three_betting_rounds_two_draws(game: str) -> None:
    hand = Hand(game, FL, [100] * 3, seed=22)
    phases = []
    while not hand.is_complete:
        if not phases or phases[-1] != hand.phase:
            phases.append(hand.phase)
        hand.act("sd" if hand.phase == "drawing" else "cc")
    assert phases == ["betting", "drawing", "betting", "drawing", "betting"]
    assert len(of(hand.events, Burned)) == 2
    assert DRAW_GAMES[game].default_structure == "fixed-limit"


@pytest.mark.parametrize("game", DOUBLE_DRAW)
def test_double_draw_blinds_small_left_of_dealer_big_equal_to_min_bet(game: str) -> None:
    hand = Hand(game, FL, [100] * 4, seed=22)
    assert posted(hand) == [(0, "small blind", 1), (1, "big blind", 2)]
    assert hand.legal().call_amount == 2 and hand.legal().min_raise_to == 4


@pytest.mark.parametrize("game", DOUBLE_DRAW)
def test_double_draw_blinds_count_as_bets(game: str) -> None:
    hand = Hand(game, FL, [100] * 4, seed=22)
    play(hand, "cbr 4", "cbr 6", "cbr 8")  # big blind + three raises = the cap of four bets
    legal = hand.legal()
    assert legal.player == 1 and not legal.can_raise and legal.call_amount == 6


@pytest.mark.parametrize("game", DOUBLE_DRAW)
def test_double_draw_big_blind_may_raise_when_action_returns(game: str) -> None:
    hand = Hand(game, FL, [100] * 4, seed=22)
    play(hand, "cc", "cc", "cc")
    legal = hand.legal()
    assert legal.player == 1 and legal.can_check and legal.can_raise and legal.min_raise_to == 4
    play(hand, "cbr 4")
    assert hand.phase == "betting" and hand.actor == 2  # everyone acts again
    play(hand, "cc", "cc", "cc")
    assert hand.phase == "drawing"


@pytest.mark.parametrize("game", DOUBLE_DRAW)
def test_double_draw_order(game: str) -> None:
    order = parse_cards(" ".join(c.code for c in new_deck()[:20]))
    hand = Hand(game, FL, [100] * 4, deck=order + [c for c in new_deck() if c not in order])
    assert hand.holes[0] == order[0:20:4]  # dealt one at a time from the dealer's left
    assert hand.actor == 2  # left of the big blind
    play(hand, "cc", "cc", "cc", "cc")
    for _ in range(2):
        drawers = []
        while hand.phase == "drawing":
            drawers.append(hand.actor)
            play(hand, "sd")
        assert drawers == [0, 1, 2, 3]  # clockwise from the dealer's left
        assert hand.actor == 0  # betting starts left of the button
        play(hand, "cc", "cc", "cc", "cc")
    assert hand.is_complete


@pytest.mark.parametrize("game", DOUBLE_DRAW)
def test_double_draw_identical_hands_split(game: str) -> None:
    hand = Hand(game, FL, [100] * 2, deck=stacked(["8c 6d 5h 4s 3c", "8d 6c 5s 4h 3d"]))
    events = to_showdown(hand)
    assert awards(events) == [(0, 4, (0, 1), (2, 2))]


# --------------------------------------------------------------------------- A-5 Triple Draw (seed 004)


@pytest.mark.parametrize(("winner", "loser"), [
    ("5c 4d 3h 2s Ac", "6d 4c 3s 2h Ad"),  # the wheel beats a smooth six
    ("6s 5s 4s 3s 2s", "7d 5h 4c 3d Ah"),  # a suited straight is a perfectly good low
    ("7c 5d 4h 3c 2d", "7h 6s 3s 2h As"),  # compare from the top
    ("Kc Jd 8h 6s 4c", "Ad Ac 2c 3h 4d"),  # any no-pair hand beats any pair
])
def test_a5_triple_draw_worked_examples(winner: str, loser: str) -> None:
    for seats in ((winner, loser), (loser, winner)):
        hand = Hand("triple-draw-a5", FL, [100] * 2, deck=stacked(list(seats)))
        events = to_showdown(hand)
        assert [e.winners for e in of(events, PotAwarded)] == [(seats.index(winner),)]


# ============================================================================== illegal actions


def _three_handed(game: str = "triple-draw-27", stakes: Stakes = FL) -> Hand:
    return Hand(game, stakes, [200] * 3, deck=stacked(["Ac Kd 9h 7s 3c", "Qc Jd 9d 6s 2c", "8h 8d 5c 4h Th"]))


def test_illegal_out_of_turn() -> None:
    hand = _three_handed()
    assert_illegal(hand, "p1 cc", "p3's turn, not p1's")
    assert_illegal(hand, "p2 cbr 4", "p3's turn, not p2's")
    assert_illegal(hand, "p9 cc", "no player p9")
    play(hand, "cc", "cc", "cc")
    assert_illegal(hand, "p3 sd", "p1's turn")


def test_illegal_bet_below_min_above_max_not_a_number_negative() -> None:
    hand = _three_handed("five-card-draw", NL)
    assert_illegal(hand, "cbr 3", "smallest raise is to 4")
    assert_illegal(hand, "cbr 2", "smallest raise is to 4")
    assert_illegal(hand, "cbr 0", "smallest raise is to 4")
    assert_illegal(hand, "cbr 201", "largest raise is to 200")
    assert_illegal(hand, "cbr 10000000000000000000", "more than")
    for text in ("cbr abc", "cbr 4.5", "cbr", "cbr -4", "cbr 4 5", "cbr ４", "cbr 1e3"):
        assert_illegal(hand, text, "amount|number")
    hand = _three_handed("five-card-draw", PL)
    assert_illegal(hand, "cbr 8", "largest raise is to 7")
    hand = _three_handed()
    assert_illegal(hand, "cbr 6", "only raise to 4")
    assert_illegal(hand, "cbr 3", "only raise to 4")


def test_illegal_bet_or_check_in_the_draw_and_draw_in_betting() -> None:
    hand = _three_handed()
    assert_illegal(hand, "sd", "not time to draw")
    assert_illegal(hand, "sd 8h", "not time to draw")
    play(hand, "cc", "cc", "cc")
    assert hand.phase == "drawing"
    assert_illegal(hand, "cc", "time to draw")
    assert_illegal(hand, "cbr 2", "time to draw")


def test_illegal_discard_of_a_card_not_held_or_listed_twice() -> None:
    hand = _three_handed()
    play(hand, "cc", "cc", "cc")
    assert_illegal(hand, "sd Qc", "do not hold Qc")
    assert_illegal(hand, "sd Ac Ac", "twice")
    assert_illegal(hand, "sd Zz", "not a card")
    assert_illegal(hand, "sd ??", "do not hold")


def test_illegal_discarding_more_than_the_limit() -> None:
    hand = Hand("five-card-draw", NL, [100] * 3, deck=stacked(["Ac Kd 9h 7s 3c", "Qc Jd 9d 6s 2c",
                                                                  "8h 8d 5c 4h Th"]), draw_limit="3")
    play(hand, "cc", "cc", "cc")
    assert_illegal(hand, "sd Kd 9h 7s 3c", "three")
    hand = Hand("assassin", NL, [100] * 3, deck=stacked(["Ac 2d 9h 7s 3c", "Qc Jd 9d 6s 2c", "8h 8d 5c 4h Th"]),
                draw_limit="3-or-4-with-ace")
    play(hand, "cc", "cc", "cc")
    assert_illegal(hand, "sdu 2d 9h 7s 3c Ac", "four if the card you keep is an ace")
    assert_illegal(hand, "sdu Ac 2d 9h 7s", "four if the card you keep is an ace")


def test_illegal_acting_after_the_hand_ended() -> None:
    hand = _three_handed()
    play(hand, "f", "f")
    assert hand.is_complete
    for text in ("cc", "f", "sd", "cbr 4", "p2 cc", "p2 f", "sdu 2c"):
        assert_illegal(hand, text, "over|nothing")
    with pytest.raises(IllegalAction, match="over"):
        hand.legal()


def test_illegal_unknown_action_and_fold_when_all_in() -> None:
    hand = _three_handed()
    for text in ("check", "x", "call", "bet 4", "cc 2", "f now", ""):
        assert_illegal(hand, text, "not an action")
    hand = Hand("five-card-draw", NL, [1, 100, 100], seed=1)  # seat 0 all in on the small blind
    assert_illegal(hand, "p1 f", "all in")


def test_illegal_raise_when_nobody_can_call() -> None:
    hand = Hand("five-card-draw", NL, [100, 100, 10], seed=1)
    play(hand, "cbr 10", "f")  # seat 2 all in, seat 0 folds
    legal = hand.legal()
    assert legal.player == 1 and not legal.can_raise
    assert_illegal(hand, "cbr 20", "all in")
