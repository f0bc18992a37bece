"""Moves as values: what a player does, as frozen, hashable data (pokerkit's operations, in spirit).

``Fold()``, ``CheckCall()``, ``BetRaise(to)``, ``BringIn()`` (stud),
``Draw(discards, face_up)`` and ``Show(cards)`` (a replayed showdown with cards nobody saw). Each ends with the
keyword field ``player``: None for the player to act, or a 0-based engine
seat (the text then names him, ``p3 f``). ``str(move)`` is the PHH text and
``parse_move(text)`` reads it back; ``Hand.act``, ``Hand.verify`` and
``Hand.can`` take either.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, final

from .cards import Card, CardError, format_cards, parse_cards
from .errors import IllegalAction

MAX_CHIPS: Final = 10**15


def _who(player: int | None) -> str:
    return "" if player is None else f"p{player + 1} "


def _cards(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, tuple):
        return cards
    if isinstance(cards, str):
        try:
            return tuple(parse_cards(cards))
        except CardError as error:
            raise IllegalAction(str(error)) from None
    return tuple(cards)


@final
@dataclass(frozen=True, slots=True)
class Fold:
    """Fold. Naming a player who is not to act folds him out of turn: a player leaving the table."""

    player: int | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        return _who(self.player) + "f"


@final
@dataclass(frozen=True, slots=True)
class CheckCall:
    """Check, or call the bet (all in for less if the stack is short)."""

    player: int | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        return _who(self.player) + "cc"


@final
@dataclass(frozen=True, slots=True)
class BetRaise:
    """Bet, or raise, so that the player's total bet this round is ``to``."""

    to: int
    player: int | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        return f"cbr {self.to}" if self.player is None else f"p{self.player + 1} cbr {self.to}"


@final
@dataclass(frozen=True, slots=True)
class BringIn:
    """Stud's third street: post the bring-in (PHH ``pb``). The player who brings in may instead complete, a
    ``BetRaise`` to the small bet."""

    player: int | None = field(default=None, kw_only=True)

    def __str__(self) -> str:
        return _who(self.player) + "pb"


@final
@dataclass(frozen=True, slots=True)
class Draw:
    """Discard ``discards`` and receive as many cards at once; ``Draw()`` stands pat.

    ``face_up`` (Assassin only) lists the twos and jokers among the discards
    thrown face up: it must be all of them or none, and earns one extra card.
    Lists and card text are accepted and stored as tuples.
    """

    discards: tuple[Card, ...] = ()
    face_up: tuple[Card, ...] = ()
    player: int | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if type(self.discards) is not tuple:
            object.__setattr__(self, "discards", _cards(self.discards))
        if type(self.face_up) is not tuple:
            object.__setattr__(self, "face_up", _cards(self.face_up))

    def __str__(self) -> str:
        verb = "sdu" if self.face_up else "sd"
        if self.discards:
            verb = f"{verb} {format_cards(self.discards)}"
        return verb if self.player is None else _who(self.player) + verb


@final
@dataclass(frozen=True, slots=True)
class Show:
    """At a replayed showdown with cards nobody saw: show ``cards`` (the whole hand), or muck (None)."""

    cards: tuple[Card, ...] | None
    player: int | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if self.cards is not None and type(self.cards) is not tuple:
            object.__setattr__(self, "cards", _cards(self.cards))

    def __str__(self) -> str:
        if self.cards is None:
            return _who(self.player) + "sm"
        return f"{_who(self.player)}sm {format_cards(self.cards)}"


Move = Fold | CheckCall | BetRaise | BringIn | Draw | Show
"""Any one move."""

_CONSTANT: Final[dict[str, Move]] = {"f": Fold(), "cc": CheckCall(), "sd": Draw(), "sm": Show(None), "pb": BringIn()}


def parse_move(text: str) -> Move:
    """The move a PHH text action names: ``f``, ``cc``, ``cbr 40``, ``pb``, ``sd``, ``sd 7s8h``, ``sdu 2c7d``,
    ``sm``, ``sm CARDS``, each optionally after the player (``p3 cc``).

    Raises IllegalAction with a friendly reason for text that is not a move.
    """
    move = _CONSTANT.get(text) if type(text) is str else None
    if move is not None:
        return move
    if not isinstance(text, str):
        raise IllegalAction("an action is text such as 'cc', 'f', 'cbr 20' or 'sd 7s8h'")
    # The other common cases, as the bot writes them: no player, one space.
    if text[:3] == "sd ":
        return Draw(_parse_discards(text[3:]))
    if len(text) <= _REMEMBERED_LENGTH:
        return _parse_remembered(text)
    return _parse_any(text)


_REMEMBERED_LENGTH: Final = 24  # bets, folds and shows of any player; odd input is not remembered


@functools.lru_cache(maxsize=1024)
def _parse_remembered(text: str) -> Move:
    """Moves are values and a table bets the same amounts again and again: read each text once."""
    return _parse_any(text)


def _parse_any(text: str) -> Move:
    words = text.split()
    player: int | None = None
    if len(words) >= 2 and words[0][:1] == "p" and words[0][1:].isascii() and words[0][1:].isdigit():
        player = int(words[0][1:]) - 1
        if player < 0:
            raise IllegalAction(f"there is no player {words[0]}: players are numbered from p1")
        words = words[1:]
    verb = words[0] if words else ""
    arg = " ".join(words[1:])
    if verb == "f" and not arg:
        return Fold(player=player)
    if verb == "cc" and not arg:
        return CheckCall(player=player)
    if verb == "cbr":
        return BetRaise(_parse_amount(arg), player=player)
    if verb == "pb" and not arg:
        return BringIn(player=player)
    if verb == "sd":
        return Draw(_parse_discards(arg), player=player)
    if verb == "sdu":
        discards = _parse_discards(arg)
        twos = tuple(c for c in discards if c.is_two)
        if not twos:
            raise IllegalAction("sdu shows twos face up (Assassin), and these cards hold no two")
        return Draw(discards, twos, player=player)
    if verb == "sm":
        return Show(_parse_discards(arg) if arg else None, player=player)
    rest = " ".join(words)
    raise IllegalAction(f"{rest!r} is not an action; use f, cc, cbr AMOUNT, pb, sd, sd CARDS or sdu CARDS")


def _parse_amount(text: str) -> int:
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise IllegalAction(f"{text!r} is not an amount: give a whole number of chips")
    value = int(text)
    if value > MAX_CHIPS:
        raise IllegalAction(f"{text} chips is more than any table holds")
    return value


def _parse_discards(text: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(text)
    except CardError as error:
        raise IllegalAction(str(error)) from None
    if len(set(cards)) != len(cards):
        known = [c for c in cards if not c.is_unknown]
        if len(set(known)) != len(known):
            raise IllegalAction(f"{text.strip()} lists a card twice")
    return tuple(cards)
