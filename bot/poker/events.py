"""What a hand reports as it goes: everything a table must show.

``Dealt`` carries hole cards and is private to its player until the
showdown: the table layer sends it by DM only. Every other event is public
(``Drew`` shows only the count and Assassin's face-up twos).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .cards import Card
from .rankings import HandValue


@dataclass(slots=True)
class Posted:
    """A forced bet: an ante, the small blind or the big blind."""

    player: int
    kind: Literal["ante", "small blind", "big blind"]
    amount: int


@dataclass(slots=True)
class Dealt:
    """Cards dealt to a player: the initial hand, a draw's replacements or a stud street. Private, except the
    cards among them in ``up`` (stud's cards dealt face up), which everyone sees."""

    player: int
    cards: tuple[Card, ...]
    up: tuple[Card, ...] = ()


@dataclass(slots=True)
class BoardDealt:
    """Cards dealt face up to the middle (public): the flop, the turn, the river, or stud's community card when
    the deck runs out. ``board`` is the whole board after them."""

    street: int
    cards: tuple[Card, ...]
    board: tuple[Card, ...]


@dataclass(slots=True)
class Acted:
    """A betting action. ``amount`` is the player's total bet this round after it; ``added`` the chips this
    action put in (what a call costs: ``Call 15`` is ``added`` 15 even when ``amount`` is 20). Stud's third
    street adds ``bring in`` and ``complete`` (the first full bet over a bring-in)."""

    player: int
    verb: Literal["fold", "check", "call", "bet", "raise", "bring in", "complete"]
    amount: int
    all_in: bool
    added: int = 0


@dataclass(slots=True)
class RoundEnded:
    """A betting round closed; ``pot`` is every chip in the middle."""

    round: int
    pot: int


@dataclass(slots=True)
class Returned:
    """An uncalled bet went back to the player who made it."""

    player: int
    amount: int


@dataclass(slots=True)
class Burned:
    """One card burned before a draw (``draw``, 0-based) or a street (``street``: the 0-based betting round it
    opens; for a draw, the round after it)."""

    draw: int
    street: int = 0


@dataclass(slots=True)
class Reshuffled:
    """The stub ran out and the muck became the new stub."""

    cards: int


@dataclass(slots=True)
class Drew:
    """A player's draw: how many cards he threw, the twos he showed face up
    (Assassin), and how many he received (an extra one for a face-up two)."""

    player: int
    draw: int
    discarded: int
    face_up: tuple[Card, ...]
    received: int


@dataclass(slots=True)
class Shown:
    """A hand shown at the showdown, with its description under the game's ranking (English; ``value`` is the
    hand's value, None when it cannot be valued, for ``bot.poker.hand.describe_shown`` to word it in a reader's
    language); in a hi-lo game ``low`` describes its eight-or-better low ("8-6-4-2-A"), empty when it has none."""

    player: int
    cards: tuple[Card, ...]
    description: str
    assassinated: bool
    low: str = ""
    value: HandValue | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Mucked:
    """A player gave up his hand at the showdown without showing it (replays only)."""

    player: int


@dataclass(slots=True)
class PotAwarded:
    """A pot (or half of it) and who won it; ``shares`` are in the order of ``winners``. ``half`` is ``"high"`` or
    ``"low"`` for each half of a pot split in a hi-lo game, empty for a whole pot (a scoop with no low
    included)."""

    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    uncontested: bool
    half: Literal["", "high", "low"] = ""


@dataclass(slots=True)
class Carried:
    """Assassin: every hand eligible for this pot held a two; it goes to the next deal.

    ``paid_in`` is what each seat put into this pot; the main pot also holds
    the chips carried into this hand (``with_carried_in``).
    """

    pot: int
    amount: int
    paid_in: tuple[int, ...] = ()
    with_carried_in: bool = False


@dataclass(slots=True)
class HandEnded:
    """The hand is over: final stacks and the chips carried to the next deal."""

    stacks: tuple[int, ...]
    carried: int


Event = (
    Posted | Dealt | BoardDealt | Acted | RoundEnded | Returned | Burned | Reshuffled | Drew | Shown | Mucked
    | PotAwarded | Carried | HandEnded
)
