"""The table's words a player reads in one style (issue 33, item 7): a draw is "drew 2", a pat "stood pat", and
the player to act on the shared table is asked what he may do ("draw or stand pat"), never "your draw"."""

from __future__ import annotations

from bot.poker import GAMES, CheckCall, Draw, Hand, Stakes
from cogs.table import _screen, _text

USERS = (301, 302, 303)


def text(card: object) -> str:
    return str(card)


def to_the_draw(hand: Hand) -> None:
    while hand.phase == "betting":
        hand.act(CheckCall())


def test_a_players_line_says_drew_and_stood_pat_as_the_log_does() -> None:
    hand = Hand(GAMES["triple-draw-27"], Stakes("fixed-limit", 5, 10), [1000] * 3, seed=4)
    to_the_draw(hand)
    assert hand.phase == "drawing"
    assert _screen.asked(hand.legal()) == "draw or stand pat"
    first = hand.actor
    assert first is not None
    hand.act(Draw(tuple(hand.holes[first][:2])))
    while hand.phase == "drawing":
        hand.act(Draw())
    to_the_draw(hand)
    hand.act(Draw())  # the first player stands pat at the second draw
    line = _text.player_lines(hand, USERS, text)[first]
    assert "drew 2 then stood pat" in line, line
    others = [line for seat, line in enumerate(_text.player_lines(hand, USERS, text)) if seat != first]
    assert all("stood pat" in line and "drew" not in line for line in others), others

