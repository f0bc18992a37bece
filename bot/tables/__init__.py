"""The table layer: a table over many hands (seats, buy-ins, the hand in play, what happens next), its
settings, and the registry of open tables. No Discord imports; rules are asked of ``bot.poker``.

- ``settings``: ``TableSettings`` and the only copy of every limit a host's choice is checked against.
- ``table``: ``Table`` (each change returns an ``Outcome``: the events, the hand, and ``Next``), and the
  ``TableMode`` it asks before a deal, after a hand and for a player sitting out (a cash game by default).
- ``tournament``: ``TournamentMode``, the mode of a tournament table (its clock, registrations, eliminations).
- ``registry``: ``Tables``, every open table by channel, restored on start.
- ``night``: the night after the cards for the commands: which night, its results, boards by period.
"""

from .registry import Tables
from .settings import SettingsError, TableSettings
from .table import MAX_SEED, Next, Outcome, Table, TableError, Terms, stored_hand

__all__ = [
    "MAX_SEED", "Next", "Outcome", "SettingsError", "Table", "TableError", "TableSettings", "Tables", "Terms",
    "stored_hand",
]
