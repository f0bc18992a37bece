"""The poker engine: pure, deterministic, no discord and no I/O.

``evaluate(ranking, cards)`` ranks hands; ``Hand`` deals one hand of any game
in ``GAMES`` and advances by moves (``Fold()``, ``CheckCall()``,
``BetRaise(to)``, ``Draw(discards)``, ``Show(cards)``, or their PHH text:
``parse_move``); ``bot.poker.phh`` reads and writes hand histories.
"""

from .cards import UNKNOWN, Card, CardError, Deck, format_cards, parse_cards
from .events import (
    Acted,
    Burned,
    Carried,
    Dealt,
    Drew,
    Event,
    HandEnded,
    Mucked,
    Posted,
    PotAwarded,
    Reshuffled,
    Returned,
    RoundEnded,
    Shown,
)
from .games import (
    DEALERS_CHOICE,
    DRAW_LIMITS,
    GAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STRUCTURES,
    DrawLimit,
    Game,
    Structure,
    games_for_players,
    get_game,
)
from .hand import Hand, IllegalAction, Legal, Stakes
from .moves import BetRaise, CheckCall, Draw, Fold, Move, Show, parse_move
from .pots import Pot, build_pots, split_pot
from .rankings import RANKINGS, HandValue, evaluate

__all__ = [
    "DEALERS_CHOICE", "DRAW_LIMITS", "GAMES", "MAX_PLAYERS", "MIN_PLAYERS", "RANKINGS", "STRUCTURES", "UNKNOWN",
    "Acted", "BetRaise", "Burned", "Card", "CardError", "Carried", "CheckCall", "Dealt", "Deck", "Draw", "DrawLimit",
    "Drew", "Event", "Fold", "Game", "Hand", "HandEnded", "HandValue", "IllegalAction", "Legal", "Move", "Mucked",
    "Posted", "Pot", "PotAwarded", "Reshuffled", "Returned", "RoundEnded", "Show", "Shown", "Stakes", "Structure",
    "build_pots", "evaluate", "format_cards", "games_for_players", "get_game", "parse_cards", "parse_move",
    "split_pot",
]
