"""The table layer: a table over many hands (seats, buy-ins, the hand in play, what happens next), its
settings, and the registry of open tables. No Discord imports; rules are asked of ``bot.poker``.

- ``settings``: ``TableSettings`` and the only copy of every limit a host's choice is checked against.
- ``table``: ``Table`` (each change returns an ``Outcome``: the events, the hand, and ``Next``).
- ``registry``: ``Tables``, every open table by channel, restored on start.
- ``night``: the night after the cards for the commands: which night, its results, boards by period.
"""

from ..poker.rotation import carried_refunds
from .registry import Tables
from .settings import SettingsError, TableSettings
from .table import MAX_SEED, Next, Outcome, Table, TableError, stored_hand

__all__ = [
    "MAX_SEED", "Next", "Outcome", "SettingsError", "Table", "TableError", "TableSettings", "Tables",
    "carried_refunds", "stored_hand",
]
