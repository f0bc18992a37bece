"""The bot's words in the reader's language: ``Text`` (pure, for every layer) and the catalogues that word it."""

from .text import (
    ENGLISH,
    Language,
    Member,
    Plural,
    Text,
    as_sentence,
    capitalized,
    english_number,
    say,
    say_n,
    shown_length,
    without_full_stop,
)

__all__ = ["ENGLISH", "Language", "Member", "Plural", "Text", "as_sentence", "capitalized", "english_number", "say",
           "say_n", "shown_length", "without_full_stop"]
