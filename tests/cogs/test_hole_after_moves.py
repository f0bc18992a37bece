"""The words under a player's large cards after his move and at the hand's end (``cogs.table._hole``), and the
pre-actions offered once he has drawn (``cogs.table._preactions``): issue 33, "your hand, large, always"."""

from __future__ import annotations

from bot.poker import Card, Hand, Stakes, parse_cards
from bot.poker.cards import new_deck
from cogs.table import _hole, _preactions

NL = Stakes("no-limit", 1, 2)
FL = Stakes("fixed-limit", 5, 10)


def code(card: Card) -> str:
    return card.code


def deck(text: str) -> list[Card]:
    """These cards first (dealt one at a time from seat 0, then burns and board cards), then the rest."""
    order = parse_cards(text)
    return order + [c for c in new_deck() if c not in set(order)]


def test_after_a_bet_the_board_then_one_line_what_he_did_and_what_he_holds() -> None:
    hand = Hand("holdem", NL, [100, 100], deck=deck("7h Ah 7d Kd  2c  Kc 7s 2d"))
    hand.act("cc")
    hand.act("cc")  # the flop
    line = _hole.acted_line(hand, 0, 3, "You bet 4")
    assert line == "#3 · You bet 4 · Three of a kind, sevens"
    assert _hole.under_cards(hand, 0, line, code) == "Board Kc 7s 2d\n#3 · You bet 4 · Three of a kind, sevens"


def test_a_draw_game_has_the_line_alone() -> None:
    hand = Hand("five-card-draw", FL, [100, 100], seed=1)
    assert _hole.under_cards(hand, 1, "#1 · You called 5", code) == "#1 · You called 5"


def test_at_the_end_each_player_still_in_sees_his_final_hand_and_what_he_won() -> None:
    hand = Hand("holdem", NL, [100, 100, 100], deck=deck("7h Ah 5c 7d Kd 5d  2c  Kc 7s 2d  3h 9s  3d Jc"))
    hand.act("f")  # seat 2 (the button) folds
    while hand.phase != "complete":
        hand.act("cc")
    final = _hole.final_hands(hand, [11, 22, 33], 4, lambda user: code)
    assert set(final) == {11, 22}  # the folded player is not shown his hand again
    cards, words = final[11]
    assert cards == "7h 7d"
    assert words == "Board Kc 7s 2d 9s Jc\n#4 · Three of a kind, sevens · you won 4"
    assert final[22][1].endswith("\n#4 · Pair of kings · you lost")


def test_pre_actions_once_he_has_drawn_for_the_betting_after_the_draw() -> None:
    hand = Hand("five-card-draw", FL, [100, 100, 100], seed=1)
    while hand.phase == "betting":
        hand.act("cc")
    first, second = hand.actor, (hand.actor or 0) + 1
    assert first is not None and not _preactions.waiting(hand, second)  # he has not drawn yet
    hand.act("sd")  # the first to draw stands pat
    assert hand.phase == "drawing" and _preactions.waiting(hand, first)
    assert not _preactions.waiting(hand, second)  # to draw now
    assert _preactions.betting_round(hand) == hand.round + 1  # the betting after the draw
    assert _preactions.to_call(hand, first) == 0
    shown = _preactions.view(1, 2, hand, first, None)
    assert shown is not None and [getattr(b, "label", "") for b in shown.children] == \
        ["Check/Fold", "Check", "Call any"]
