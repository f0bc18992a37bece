"""The hole-card leak check of every bot test sees a card in each form the bot may write it."""

from __future__ import annotations

from bot.cardfaces import card_text
from bot.poker import Card

from .conftest_bot import card_pattern


def test_a_card_is_seen_as_an_emoji_as_text_and_in_the_old_form() -> None:
    ten = card_pattern(Card("Ts"))
    for shown in ("<:c_Ts_1a2b3c:1577449550812020736>", card_text(Card("Ts")), "10♠", "T♠", "hand: T♠ 9♦"):
        assert ten.search(shown), shown
    for other in ("<:c_Th_1a2b3c:1>", "<:c_Ts_back:1>", "9♠", "10♥", "110♠", "Ts"):
        assert not ten.search(other), other
    assert card_pattern(Card("X1")).search("<:c_X1_0a0b0c:5>") and not card_pattern(Card("X1")).search("X2")
