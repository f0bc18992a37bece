"""The poker engine: pure, deterministic, no discord and no I/O."""

from .cards import Card, CardError, Deck, format_cards, parse_cards
from .rankings import RANKINGS, HandValue, evaluate

__all__ = ["RANKINGS", "Card", "CardError", "Deck", "HandValue", "evaluate", "format_cards", "parse_cards"]
