"""The dealer button in the table's player lines (``cogs.table._text``, issue 33 item 6): a mark that reads as the
dealer button on a phone, in text every phone draws: ``(D)``, not an emoji disc."""

from __future__ import annotations

from bot.poker import Hand, get_game, stakes_for
from cogs.table import _text

USERS = (501, 502, 503)


def text(card: object) -> str:
    return str(card)


def test_the_button_is_marked_D_on_the_dealers_line_only() -> None:
    game = get_game("five-card-draw")
    hand = Hand(game, stakes_for(game, "fixed-limit", 5, 10), [1000, 1000, 1000], seed=1)
    lines = _text.player_lines(hand, USERS, text)
    button = hand.players - 1  # the engine's last seat is the button
    assert _text.BUTTON_MARK == "(D)"
    assert lines[button].startswith("(D) <@503> ") or lines[button].startswith("▶ (D) <@503> "), lines
    assert not any("(D)" in line for seat, line in enumerate(lines) if seat != button), lines
    assert "🔘" not in "\n".join(lines)
