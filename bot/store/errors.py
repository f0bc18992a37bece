"""Errors raised by the store.

Every refusal is a :class:`StoreError` whose ``str()`` is a friendly sentence
in English ("You only have 250 chips; you tried to move 400."). What a person
may meet in play is a ``Text`` (``bot.i18n.text``): its English source and its
values, worded in the reader's language by the cogs; the guards of arguments
(which fire only on a bug) and what only an operator reads (start-up, schema)
stay plain English. A refused operation changes nothing: the store checks
before it writes, and anything that fails mid-way rolls the whole transaction
back.

The hierarchy, for callers that want to react to a kind of refusal::

    StoreError
    ├── InvalidArgument          a bad id, page, seat number, JSON...
    │   └── InvalidAmount        zero, negative, not an int, or above the bound
    ├── InsufficientFunds        more than the balance (``needed``, ``available``)
    ├── SelfTransfer
    ├── NotFound                 unknown table, hand or account
    ├── TableExists              a second open table in one channel
    ├── TableClosed              acting on a closed table
    ├── TableNotEmpty            closing a table with seats, a carried pot or a live hand
    ├── AlreadySeated / SeatTaken / NotSeated
    ├── BuyInOutOfRange          outside the range the caller passed
    ├── HandInProgress           a chip or seat change that must wait for the hand to end
    ├── HandNotLive              appending to / finishing a finished or void hand
    ├── ActionOutOfOrder         a duplicate (stale click) or a gap in the action log
    ├── TournamentError          a tournament move its state does not allow
    ├── ChipsNotConserved        a hand result that creates or destroys chips
    ├── StoreBusy                another process held the database longer than the caller could wait
    ├── StoreUnavailable         the disk is full or read-only, an I/O error, a damaged file (``cause``)
    └── SchemaError              a database file the code cannot use
        └── SchemaTooNew         written by a newer version of the bot
"""

from __future__ import annotations

from ..i18n.text import Text
from ..refusal import Refusal

__all__ = [
    "ActionOutOfOrder",
    "AlreadySeated",
    "BuyInOutOfRange",
    "ChipsNotConserved",
    "HandInProgress",
    "HandNotLive",
    "InsufficientFunds",
    "InvalidAmount",
    "InvalidArgument",
    "NotFound",
    "NotSeated",
    "SchemaError",
    "SchemaTooNew",
    "SeatTaken",
    "SelfTransfer",
    "StoreBusy",
    "StoreError",
    "StoreUnavailable",
    "TableClosed",
    "TableExists",
    "TableNotEmpty",
    "TournamentError",
]


class StoreError(Refusal):
    """Base class of every refusal or failure of the store; ``render(mention)`` is fit to show a user."""


class InvalidArgument(StoreError):
    """An argument that is not acceptable: a bad id, page, seat number, JSON value..."""


class InvalidAmount(InvalidArgument):
    """A chip amount that is not a whole number from 1 to the store's upper bound."""


class InsufficientFunds(StoreError):
    """A movement larger than the chips available."""

    def __init__(self, message: str | Text, *, needed: int, available: int, **members: int) -> None:
        super().__init__(message, **members)
        self.needed = needed
        self.available = available


class SelfTransfer(StoreError):
    """A transfer whose sender and recipient are the same member."""


class NotFound(StoreError):
    """An unknown table, hand or account."""


class TableExists(StoreError):
    """The channel already has an open (or paused) table."""


class TableClosed(StoreError):
    """The table is closed; nothing more can happen at it."""


class TableNotEmpty(StoreError):
    """The table cannot close yet: seats still hold chips, a pot is carried or a hand is live."""


class AlreadySeated(StoreError):
    """The member already has a seat at this table."""


class SeatTaken(StoreError):
    """Somebody else sits in that seat."""


class NotSeated(StoreError):
    """The member has no seat at this table."""


class BuyInOutOfRange(StoreError):
    """A buy-in or top-up outside the range allowed by the table."""


class HandInProgress(StoreError):
    """The change must wait until the live hand at the table is over."""


class HandNotLive(StoreError):
    """The hand is already complete or void."""


class ActionOutOfOrder(StoreError):
    """An action whose sequence number is not the next one: a repeat (stale click) or a gap."""

    def __init__(self, message: str | Text, *, expected: int, got: int) -> None:
        super().__init__(message)
        self.expected = expected
        self.got = got

    @property
    def is_duplicate(self) -> bool:
        """True when the action was already recorded (a double click), False for a gap."""
        return self.got < self.expected


class TournamentError(StoreError):
    """A tournament move that its state does not allow (registration closed, not broke for a rebuy...)."""


class ChipsNotConserved(StoreError):
    """A hand result whose chips do not add up to the chips that went in."""


class StoreBusy(StoreError):
    """The database stayed locked by another connection for longer than the busy timeout."""


class StoreUnavailable(StoreError):
    """The database cannot be written (or read) now, for a reason the host must fix: ``cause`` is "disk full",
    "read-only", "I/O error"... Nothing was changed."""

    def __init__(self, message: str | Text, *, cause: str) -> None:
        super().__init__(message)
        self.cause = cause


class SchemaError(StoreError):
    """The database file cannot be used by this code (not a database, bad migrations...)."""


class SchemaTooNew(SchemaError):
    """The database file was written by a newer version of the bot."""

    def __init__(self, message: str | Text, *, found: int, known: int) -> None:
        super().__init__(message)
        self.found = found
        self.known = known
