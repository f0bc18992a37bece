"""A player's own cards in the flop and stud games (``cogs.table._hole``): his cards, the board beside them, which
are down and which up, and his best hand in a few words, the low too in a hi-lo game when he has one."""

from __future__ import annotations

from bot.poker import Card, Hand, Stakes, parse_cards
from bot.poker.cards import new_deck
from cogs.table import _hole, _text

NL = Stakes("no-limit", 1, 2)
FL = Stakes("fixed-limit", 1, 2)
STUD = Stakes("fixed-limit", ante=1, bring_in=1, small_bet=4, big_bet=8)
H = "\u2011"  # the non-breaking hyphen a phone does not wrap at


def code(card: Card) -> str:
    return card.code


def deck(text: str) -> list[Card]:
    """These cards first (dealt one at a time from seat 0, then burns and board or street cards), then the rest."""
    order = parse_cards(text)
    return order + [c for c in new_deck() if c not in set(order)]


def to_next_street(hand: Hand) -> None:
    """Everyone calls (the bring-in brings in) until the next cards are dealt."""
    dealt = len(hand.board) + sum(len(h) for h in hand.holes)
    while len(hand.board) + sum(len(h) for h in hand.holes) == dealt:
        hand.act(hand.default_action() if hand.legal().can_bring_in else "cc")


def test_holdem_before_the_flop_a_pair_or_the_high_card_then_the_board_and_his_best_five() -> None:
    hand = Hand("holdem", NL, [100, 100], deck=deck("7h Ah 7d Kd  2c  Kc 7s 2d  3h 9s 3d Jc"))
    assert _hole.cards_line(hand, 0, code) == "7h 7d"
    assert _hole.caption(hand, 0, 3, code) == "Texas Hold'em · #3 · Pair of sevens"
    assert _hole.caption(hand, 1, 3, code) == "Texas Hold'em · #3 · Ace high"
    assert _hole.private_hand(hand, 1, code) == "Ah Kd\nAce high"
    to_next_street(hand)  # the flop
    assert _hole.cards_line(hand, 0, code) == "7h 7d"  # his cards alone, large; the board beside them
    assert _hole.caption(hand, 0, 3, code) == "Board Kc 7s 2d\nTexas Hold'em · #3 · Three of a kind, sevens"
    assert _hole.private_hand(hand, 1, code) == "Ah Kd\nBoard Kc 7s 2d\nPair of kings"
    to_next_street(hand)
    to_next_street(hand)  # the river: 9s, then Jc after a burn
    assert hand.board == parse_cards("Kc 7s 2d 9s Jc")
    assert _hole.best_hand(hand, 1) == "Pair of kings"
    assert _hole.best_hand(hand, 0) == "Three of a kind, sevens"


def test_holdem_two_pair_and_ace_high_as_players_say_them() -> None:
    hand = Hand("holdem", NL, [100, 100], deck=deck("Kh Ah 7d Qd  2c  Kc 7s 2d"))
    to_next_street(hand)
    assert _hole.best_hand(hand, 0) == "Two pair, kings and sevens"
    assert _hole.best_hand(hand, 1) == "Ace high"  # the engine's name, as the showdown's


def test_omaha_hilo_the_best_two_plus_three_and_the_low_when_he_has_one() -> None:
    # seat 0: As 2s Kd Kc (a low with A-2); seat 1: 9c 9d Qh Qs (no low card in his hand)
    hand = Hand("omaha-hilo", FL, [100, 100], deck=deck("As 9c 2s 9d Kd Qh Kc Qs  3c  4h 6c 8d"))
    assert _hole.caption(hand, 0, 7, code) == "Omaha Hi-Lo (eight or better) · #7 · Pair of kings"  # best two
    to_next_street(hand)
    assert _hole.cards_line(hand, 0, code) == "As 2s Kd Kc"
    assert _hole.best_hand(hand, 0) == f"Pair of kings · low 8{H}6{H}4{H}2{H}A"
    assert _hole.caption(hand, 0, 7, code).splitlines() == [
        "Board 4h 6c 8d", f"Omaha Hi-Lo (eight or better) · #7 · Pair of kings · low 8{H}6{H}4{H}2{H}A"]
    assert _hole.best_hand(hand, 1) == "Pair of queens"  # no low: nothing said of one
    assert "low" not in _hole.private_hand(hand, 1, code)


def test_omaha_plays_exactly_two_of_his_cards() -> None:
    # Four kings and a board of two more: he holds three of a kind at best (two of his, three of the board)...
    hand = Hand("omaha", Stakes("pot-limit", 1, 2), [100, 100],
                deck=deck("Ks 2c Kh 3c Kd 4c 9c 5c  6d  Kc Qh Jd"))
    assert _hole.best_hand(hand, 0) == "Pair of kings"  # before the flop: his best two
    to_next_street(hand)
    assert _hole.best_hand(hand, 0) == "Three of a kind, kings"  # not four of a kind: two of his cards play


def test_stud_his_cards_in_the_order_dealt_and_which_are_down_and_up() -> None:
    hand = Hand("stud", STUD, [100] * 3, deck=deck("Ah 2c 3c Kd 4d 5d 7c 9s Ts"))
    assert _hole.cards_line(hand, 0, code) == "Ah Kd 7c"
    assert _hole.caption(hand, 0, 2, code) == "Down Ah Kd · up 7c\nSeven Card Stud · #2 · Ace high"
    assert _hole.private_hand(hand, 0, code) == "Down Ah Kd · up 7c\nAce high"
    for _ in range(4):  # fourth to seventh street
        to_next_street(hand)
    held = hand.holes[0]
    assert len(held) == 7 and _hole.cards_line(hand, 0, code) == " ".join(c.code for c in held)
    down, up = _hole.down_and_up(hand, 0)
    assert down == [*held[:2], held[6]] and up == held[2:6] == list(hand.up_cards(0))
    assert _hole.beside_lines(hand, 0, code) == [f"Down {' '.join(c.code for c in down)} · "
                                                 f"up {' '.join(c.code for c in up)}"]


def test_stud_a_pair_on_third_street_and_a_stud_hilo_low_once_he_has_one() -> None:
    hand = Hand("stud", STUD, [100] * 2, deck=deck("7h 2c 7d 3c Ks 9s"))
    assert _hole.best_hand(hand, 0) == "Pair of sevens"
    hilo = Hand("stud-hilo", STUD, [100] * 2, deck=deck("Ah Kc 2h Kd 3h Qs  9c  4d Js  9d  5s Jh"))
    assert _hole.best_hand(hilo, 0) == "Ace high"
    to_next_street(hilo)
    assert _hole.best_hand(hilo, 0) == "Ace high"  # four cards: no low yet
    to_next_street(hilo)
    assert _hole.best_hand(hilo, 0) == f"Straight, five high · low 5{H}4{H}3{H}2{H}A"
    assert _hole.best_hand(hilo, 1) == "Two pair, kings and jacks"  # no low: none said


def test_razz_the_low_as_players_say_it_and_a_pair_said_so() -> None:
    hand = Hand("razz", STUD, [100] * 3, deck=deck("2c Ac Qs 4d Ad Qh 7h 5h Kd"))
    assert _hole.caption(hand, 0, 1, code) == f"Down 2c 4d · up 7h\nRazz · #1 · 7{H}4{H}2"
    assert _hole.best_hand(hand, 1) == f"Pair of aces (A{H}A{H}5)"
    hand = Hand("razz", STUD, [100] * 2, deck=deck("Ac 9c 2d Td 5h Kh  Qc  3s Jd  Qd  8c Js"))
    to_next_street(hand)
    to_next_street(hand)  # fifth street: five cards
    assert _hole.best_hand(hand, 0) == f"Eight{H}five low (8{H}5{H}3{H}2{H}A)"  # the engine's name, as everywhere


def test_the_draw_games_are_written_as_before() -> None:
    hand = Hand("five-card-draw", NL, [100, 100], deck=deck("Ah 2c Kh 3c 5h 9c 5d Tc 5s Jc"))
    for seat in (0, 1):
        assert _hole.cards_line(hand, seat, code) == _text.cards_line(hand, seat, code)
        assert _hole.private_hand(hand, seat, code) == _text.private_hand(hand, seat, code)
        assert _hole.caption(hand, seat, 4, code) == f"Five Card Draw · #4 · {_text.hand_value(hand, seat)}"
        assert _hole.best_hand(hand, seat) == _text.hand_value(hand, seat)
    assert not _hole.dealt_a_street(hand, hand.events)


def test_a_street_dealt_is_told_from_the_events() -> None:
    hand = Hand("holdem", NL, [100, 100], deck=deck("7h Ah 7d Kd"))
    assert not _hole.dealt_a_street(hand, hand.act("cc"))  # the small blind calls: nothing dealt
    assert _hole.dealt_a_street(hand, hand.act("cc"))  # the big blind checks: the flop
    assert not _hole.dealt_a_street(None, hand.events)
