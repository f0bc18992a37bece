"""The poker engine: pure, deterministic, no discord and no I/O.

``evaluate(ranking, cards)`` ranks hands; ``Hand`` deals one hand of any game
in ``GAMES`` and advances by moves (``Fold()``, ``CheckCall()``,
``BetRaise(to)``, ``BringIn()``, ``Draw(discards)``, ``Show(cards)``, or their PHH text:
``parse_move``); ``bot.poker.phh`` reads and writes hand histories.
"""

from .cards import UNKNOWN, Card, CardError, Deck, format_cards, parse_cards
from .events import (
    Acted,
    BoardDealt,
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
    DRAW_GAMES,
    DRAW_LIMITS,
    FAMILIES,
    GAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STRUCTURES,
    DrawLimit,
    Family,
    Game,
    Street,
    Structure,
    games_for_players,
    get_game,
    get_structure,
)
from .hand import Hand, IllegalAction, Legal, Stakes, describe_shown
from .moves import BetRaise, BringIn, CheckCall, Draw, Fold, Move, Show, parse_move
from .pots import Pot, build_pots, split_pot
from .rankings import RANKINGS, HandValue, evaluate
from .stakes import stakes_for, stud_ante, stud_bring_in

__all__ = [
    "DEALERS_CHOICE", "DRAW_GAMES", "DRAW_LIMITS", "FAMILIES", "GAMES", "MAX_PLAYERS", "MIN_PLAYERS", "RANKINGS",
    "STRUCTURES", "UNKNOWN", "Acted", "BetRaise", "BoardDealt", "BringIn", "Burned", "Card", "CardError", "Carried",
    "CheckCall", "Dealt", "Deck", "Draw", "DrawLimit", "Drew", "Event", "Family", "Fold", "Game", "Hand", "HandEnded",
    "HandValue", "IllegalAction", "Legal", "Move", "Mucked", "Posted", "Pot", "PotAwarded", "Reshuffled", "Returned",
    "RoundEnded", "Show", "Shown", "Stakes", "Street", "Structure", "build_pots", "describe_shown", "evaluate",
    "format_cards", "games_for_players", "get_game", "get_structure", "parse_cards", "parse_move", "split_pot",
    "stakes_for", "stud_ante", "stud_bring_in",
]
