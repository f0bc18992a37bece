"""Names, chips, cards and stakes as text for Discord (no discord imports; the cogs wrap it): the one copy of each
helper every cog writes with (a table's own words are ``cogs.table._text``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.content.cardfaces import card_text
from bot.poker import Card, Game, Structure
from bot.tables.settings import TableSettings

CardText = Callable[[Card], str]  # how a card is written: an emoji, or text
STRUCTURE_NAMES = {"fixed-limit": "Fixed limit", "pot-limit": "Pot limit", "no-limit": "No limit"}


MIX_NAMES = {"horse": "HORSE", "eight-game": "8-Game", "rotation": "Rotation", "dealers-choice": "Dealer's choice"}
SHORT_STRUCTURES = {"fixed-limit": "limit", "pot-limit": "PL", "no-limit": "NL"}


def table_name(settings: TableSettings) -> str:
    """What the table deals, as a title: ``Razz``, ``HORSE``, ``8-Game``, ``Dealer's choice`` or the host's list
    (``Rotation: Hold'em NL, Omaha PL, Razz``)."""
    game = settings.single_game
    if game is not None:
        return game.name
    if settings.game == "rotation":
        return "Rotation: " + ", ".join(mix_entry_name(entry.game, entry.structure) for entry in settings.mix)
    return MIX_NAMES[settings.game]


def mix_entry_name(game: Game, structure: Structure) -> str:
    """A game of a rotation with its structure when it is not the game's own: ``Hold'em NL``, ``Razz``."""
    if structure == game.default_structure:
        return game.name
    return f"{game.name} {SHORT_STRUCTURES[structure]}"


def hand_title(game: str, number: int | str) -> str:
    """A hand named, everywhere the same: ``2-7 Triple Draw · #12`` (the table's title, a DM, a private caption)."""
    return f"{game} · #{number}"


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter capital, a full stop at the end (the engine's refusals are
    lower-case phrases)."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def mention(user: int) -> str:
    """How a member is named in messages (a mention renders as his name and does not ping in embeds)."""
    return f"<@{user}>"


def cards(hand: Sequence[Card], card: CardText = card_text) -> str:
    """Cards in a row, each written by ``card`` (the bot's card emojis, or text: ``A♠︎ K♦️ 7♣︎``)."""
    return " ".join(card(c) for c in hand)


def chips(amount: int) -> str:
    """A chip amount with thousands separators."""
    return f"{amount:,}"


def chip_count(amount: int) -> str:
    """``1 chip``, ``1,000 chips``."""
    return f"{amount:,} chip" + ("" if amount == 1 else "s")


def stakes_line(settings: TableSettings, game: Game | None, structure: Structure | None = None,
                sep: str = " · ") -> str:
    """The structure and stakes, e.g. ``Fixed limit 1/2 · bets 2/4, big bet from round 3 · cap 4 bets``: the
    structure as the table plays ``game`` and the bet sizes of its engine stakes (``game`` None: dealer's choice)."""
    parts: list[str] = []
    chosen = settings.structure_for(game, structure) if game is not None else structure or settings.structure
    blinds = f"{chips(settings.small_blind)}/{chips(settings.big_blind)}" if settings.big_blind else "antes only"
    if chosen is None and settings.is_mix:  # each game of the rotation at its structure
        parts.append(f"Blinds {blinds}, each game as listed")
    elif chosen is None:  # dealer's choice, each game at its own structure
        parts.append(f"Blinds {blinds}, each game at its usual limit" if settings.big_blind
                     else "Antes only, each game at its usual limit")
    else:
        parts.append(f"{STRUCTURE_NAMES.get(chosen, chosen)} {blinds}")
    if settings.ante:
        parts.append(f"ante {chips(settings.ante)}")
    stud = next((g for g in (settings.games(2) if game is None else [game]) if g.is_stud), None)
    if stud is not None and settings.big_blind:
        stakes = settings.stakes_for(stud, "fixed-limit")
        parts.append(f"stud: ante {chips(stakes.ante)}, bring-in {chips(stakes.bring_in)}, "
                     f"bets {chips(stakes.small)}/{chips(stakes.big)}")
    if chosen == "fixed-limit" and game is not None and not game.is_stud:
        stakes = settings.stakes_for(game, chosen)
        parts.append(f"bets {chips(stakes.small)}/{chips(stakes.big)}, big bet from round "
                     f"{stakes.big_bet_from(game.default_big_bet_round)}")
        parts.append(f"cap {stakes.raise_cap} bets")
    if game is not None and game.assassin and settings.jokers:
        parts.append("two jokers play as twos")
    if game is not None and game.allows_draw_limit and settings.draw_limit != "none":
        limit = "3 cards" if settings.draw_limit == "3" else "3 cards, 4 keeping an ace"
        parts.append(f"draw limit {limit}")
    return sep.join(parts)
