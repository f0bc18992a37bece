"""The draw picker: the player's cards as buttons; a tap marks a card to throw, one more tap draws.

Drawing k cards takes k + 2 taps (Draw…, the k cards, then Throw k); standing pat takes one (the table's Stand
pat button). The cards marked travel in the buttons' custom_ids as a bit mask, so the picker keeps no state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import discord

from bot.poker import Card, Legal

from ._text import CardText, cards
from ._transport import DISCORD_ERRORS
from ._views import CardToggle, DrawConfirm
from ._writer import token_usable

log = logging.getLogger(__name__)

EmojiOf = Callable[[Card], discord.PartialEmoji | None]


def thrown(legal: Legal, mask: int) -> tuple[Card, ...]:
    """The cards a mask marks, in the order of the hand."""
    return tuple(card for i, card in enumerate(legal.hand) if mask >> i & 1)


def picker(table: int, hand: int, seq: int, legal: Legal, mask: int, *, draw: int, draws: int,
           card: CardText, emoji: EmojiOf, describe: str | None) -> tuple[str, discord.ui.View]:
    """The picker's text and buttons for the cards marked in ``mask``."""
    picked = thrown(legal, mask)
    limit = legal.max_discards
    head = f"Draw {draw} of {draws} · tap the cards to throw"
    if limit < len(legal.hand):
        head += f" (up to {limit}{', four only keeping an ace' if legal.max_needs_ace else ''})"
    lines = [head, cards(legal.hand, card) + (f" · {describe}" if describe else "")]
    if picked:
        lines.append(f"Throwing {cards(picked, card)}")
    result = discord.ui.View(timeout=None)
    full = len(picked) >= limit
    for i, held in enumerate(legal.hand):
        marked = bool(mask >> i & 1)
        face = emoji(held)
        result.add_item(CardToggle(table, hand, seq, mask ^ (1 << i), i, label=None if face else card(held),
                                   emoji=face, thrown=marked, disabled=full and not marked))
    for label, up, style in _confirmations(legal, picked):
        result.add_item(DrawConfirm(table, hand, seq, mask, up, label, style))
    return "\n".join(lines), result


def _confirmations(legal: Legal, picked: Sequence[Card]) -> list[tuple[str, bool, discord.ButtonStyle]]:
    if not picked:
        return [("Stand pat", False, discord.ButtonStyle.secondary)]
    count = len(picked)
    twos = [c for c in picked if c in legal.face_up_twos]
    if not twos:
        return [(f"Throw {count}", False, discord.ButtonStyle.primary)]
    return [(f"Throw {count} · twos face up, +1 card", True, discord.ButtonStyle.primary),
            (f"Throw {count} · face down", False, discord.ButtonStyle.secondary)]


class Reports:
    """Each player's last draw report (the picker after its Throw, ephemeral, under the hand's message): removed
    when he opens his next picker in the same hand, so a hand leaves one report under the table, not one a draw
    pushing it off a phone's screen. (A report of an earlier hand is above the new hand's message: it stays.)
    Removed through the Throw's own token (an interaction endpoint), while it is young."""

    def __init__(self) -> None:
        self._last: dict[tuple[int, int], tuple[int, discord.Interaction]] = {}  # (table, user) -> (hand, Throw)

    def shown(self, table: int, hand: int, interaction: discord.Interaction) -> None:
        """``interaction``, a Throw in ``hand``, was answered with the report."""
        self._last[(table, interaction.user.id)] = (hand, interaction)

    async def remove(self, table: int, hand: int, user: int) -> None:
        """The player opens a new picker in ``hand``: his previous report of that hand goes (a failure is only
        logged: it stays)."""
        last = self._last.pop((table, user), None)
        if last is None or last[0] != hand:
            return
        interaction = last[1]
        if not token_usable(interaction):
            return
        try:
            await interaction.delete_original_response()
        except DISCORD_ERRORS as error:
            log.info("could not remove the draw report of interaction %s (%r)", interaction.id, error)

    def forget_table(self, table: int) -> None:
        """The table closed."""
        for key in [k for k in self._last if k[0] == table]:
            del self._last[key]
