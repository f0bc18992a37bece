"""Names, chips, cards and stakes as text for Discord (no discord imports; the cogs wrap it): the one copy of each
helper every cog writes with (a table's own words are ``cogs.table._text``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.content.cardfaces import card_text
from bot.i18n import ENGLISH, Language, Text, as_sentence, say, say_n
from bot.poker import Card, Game, Structure
from bot.tables.settings import TableSettings

CardText = Callable[[Card], str]  # how a card is written: an emoji, or text
STRUCTURE_NAMES = {"fixed-limit": Text("Fixed limit"), "pot-limit": Text("Pot limit"), "no-limit": Text("No limit")}


MIX_NAMES = {"horse": Text("HORSE"), "eight-game": Text("8-Game"), "rotation": Text("Rotation"),
             "dealers-choice": Text("Dealer's choice")}
SHORT_STRUCTURES = {"fixed-limit": "limit", "pot-limit": "PL", "no-limit": "NL"}


def structure_name(structure: str, lang: Language) -> str:
    """``Fixed limit``, ``Pot limit``, ``No limit`` in ``lang``."""
    name = STRUCTURE_NAMES.get(structure)
    return name.worded(lang) if name is not None else structure


def table_name(settings: TableSettings, *, lang: Language = ENGLISH) -> str:
    """What the table deals, as a title: ``Razz``, ``HORSE``, ``8-Game``, ``Dealer's choice`` or the host's list
    (``Rotation: Hold'em NL, Omaha PL, Razz``)."""
    game = settings.single_game
    if game is not None:
        return game.name
    if settings.game == "rotation":
        return say(lang, "Rotation: {games}",
                   games=", ".join(mix_entry_name(entry.game, entry.structure) for entry in settings.mix))
    return MIX_NAMES[settings.game].worded(lang)


def mix_entry_name(game: Game, structure: Structure) -> str:
    """A game of a rotation with its structure when it is not the game's own: ``Hold'em NL``, ``Razz``."""
    if structure == game.default_structure:
        return game.name
    return f"{game.name} {SHORT_STRUCTURES[structure]}"


def hand_title(game: str, number: int | str, *, lang: Language = ENGLISH) -> str:
    """A hand named, everywhere the same: ``2-7 Triple Draw · #12`` (the table's title, a DM, a private caption)."""
    return say(lang, "{game} · #{number}", game=game, number=str(number))


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter capital, a full stop at the end (the engine's refusals are
    lower-case phrases)."""
    return as_sentence(text)


def mention(user: int) -> str:
    """How a member is named in messages (a mention renders as his name and does not ping in embeds)."""
    return f"<@{user}>"


def channel_mention(channel: int) -> str:
    """How a channel is named in messages (Discord shows its name, as a link)."""
    return f"<#{channel}>"


def cards(hand: Sequence[Card], card: CardText = card_text) -> str:
    """Cards in a row, each written by ``card`` (the bot's card emojis, or text: ``A♠︎ K♦️ 7♣︎``)."""
    return " ".join(card(c) for c in hand)


def chips(amount: int, *, lang: Language = ENGLISH) -> str:
    """A chip amount with the language's thousands separators (``1,000``, ``1.000``, ``1 000``)."""
    return lang.number(amount)


def chip_count(amount: int, *, lang: Language = ENGLISH) -> str:
    """``1 chip``, ``1,000 chips``."""
    return say_n(lang, "{count} chip", "{count} chips", count=amount)


def stakes_line(settings: TableSettings, game: Game | None, structure: Structure | None = None,
                sep: str = " · ", *, lang: Language = ENGLISH) -> str:
    """The structure and stakes, e.g. ``Fixed limit 1/2 · bets 2/4, big bet from round 3 · cap 4 bets``: the
    structure as the table plays ``game`` and the bet sizes of its engine stakes (``game`` None: dealer's choice)."""
    parts: list[str] = []
    chosen = settings.structure_for(game, structure) if game is not None else structure or settings.structure
    blinds = (say(lang, "{small}/{big}", small=settings.small_blind, big=settings.big_blind)
              if settings.big_blind else "")
    if chosen is None and settings.is_mix:  # each game of the rotation at its structure
        parts.append(say(lang, "Blinds {blinds}, each game as listed", blinds=blinds) if settings.big_blind
                     else say(lang, "Antes only, each game as listed"))
    elif chosen is None:  # dealer's choice, each game at its own structure
        parts.append(say(lang, "Blinds {blinds}, each game at its usual limit", blinds=blinds) if settings.big_blind
                     else say(lang, "Antes only, each game at its usual limit"))
    elif settings.big_blind:
        parts.append(say(lang, "{structure} {blinds}", structure=structure_name(chosen, lang), blinds=blinds))
    else:
        parts.append(say(lang, "{structure} antes only", structure=structure_name(chosen, lang)))
    if settings.ante:
        parts.append(say(lang, "ante {amount}", amount=settings.ante))
    stud = next((g for g in (settings.games(2) if game is None else [game]) if g.is_stud), None)
    if stud is not None and settings.big_blind:
        stakes = settings.stakes_for(stud, "fixed-limit")
        parts.append(say(lang, "stud: ante {ante}, bring-in {bring_in}, bets {small}/{big}", ante=stakes.ante,
                         bring_in=stakes.bring_in, small=stakes.small, big=stakes.big))
    if chosen == "fixed-limit" and game is not None and not game.is_stud:
        stakes = settings.stakes_for(game, chosen)
        parts.append(say(lang, "bets {small}/{big}, big bet from round {round}", small=stakes.small, big=stakes.big,
                         round=str(stakes.big_bet_from(game.default_big_bet_round))))
        parts.append(say(lang, "cap {count} bets", count=str(stakes.raise_cap)))
    if game is not None and game.assassin and settings.jokers:
        parts.append(say(lang, "two jokers play as twos"))
    if game is not None and game.allows_draw_limit and settings.draw_limit != "none":
        parts.append(say(lang, "draw limit 3 cards") if settings.draw_limit == "3"
                     else say(lang, "draw limit 3 cards, 4 keeping an ace"))
    return sep.join(parts)
