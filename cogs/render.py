"""Names, chips, cards and stakes as text for Discord (no discord imports; the cogs wrap it).

Nothing here shows a player's hole cards (a table's text is ``cogs.table._text``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.poker import Card, Game
from bot.tables.settings import TableSettings

STRUCTURE_NAMES = {"fixed-limit": "Fixed limit", "pot-limit": "Pot limit", "no-limit": "No limit"}


def mention(user: int) -> str:
    """How a member is named in messages (a mention renders as his name and does not ping in embeds)."""
    return f"<@{user}>"


def cards(hand: Sequence[Card]) -> str:
    """Cards with suit symbols: ``A♠ K♦ 7♣``."""
    return " ".join(c.pretty() for c in hand)


def chips(amount: int) -> str:
    """A chip amount with thousands separators."""
    return f"{amount:,}"


def chip_count(amount: int) -> str:
    """``1 chip``, ``1,000 chips``."""
    return f"{amount:,} chip" + ("" if amount == 1 else "s")


def stakes_line(settings: TableSettings, game: Game | None, structure: str | None = None, sep: str = " · ") -> str:
    """The structure and stakes, e.g. ``Fixed limit 1/2 · bets 2/4 · big bet from the 3rd betting round``."""
    parts: list[str] = []
    chosen = structure or settings.structure or (game.default_structure if game else None)
    blinds = f"{chips(settings.small_blind)}/{chips(settings.big_blind)}" if settings.big_blind else "antes only"
    parts.append(f"{STRUCTURE_NAMES.get(chosen or '', 'Each game’s default structure')} {blinds}")
    if settings.ante:
        parts.append(f"ante {chips(settings.ante)}")
    if chosen == "fixed-limit" and game is not None:
        small = settings.big_blind or settings.ante
        big_round = settings.big_bet_round or game.default_big_bet_round
        parts.append(f"bets {chips(small)}/{chips(2 * small)}, big bet from round {big_round}")
        parts.append(f"cap {settings.raise_cap} bets")
    if game is not None and game.assassin and settings.jokers:
        parts.append("two jokers play as twos")
    if game is not None and game.allows_draw_limit and settings.draw_limit != "none":
        limit = "3 cards" if settings.draw_limit == "3" else "3 cards, 4 keeping an ace"
        parts.append(f"draw limit {limit}")
    return sep.join(parts)
