"""Hand histories in the PHH format (docs/rules.md section 22.3): export, read and replay.

``export_phh(hand)`` writes any hand, finished or not, as a PHH (TOML)
document; ``phh_seen_by(text, seats)`` turns it into the history a member may
have (the cards he saw at the table, every other card ``??``);
``parse_phh(text)`` reads one into a ``PHHDocument``; ``replay(doc)`` deals the
recorded cards and feeds the recorded actions to a new ``Hand``, checking
every action and every card on the way. Pure functions of text: the
command ``python -m bot replay FILE`` (reading the file, printing) is
``bot.tools.replay``.

Conventions (the same as pokerkit's, so that its ``HandHistory`` plays our
files of the games it knows, ``F2L3D``, ``N2L1D`` and ``FB``, as written):

- ``p1`` is engine seat 0, the first seat left of the button.
- A draw round is every discard of the round (``pN sd ...``, in draw order),
  then the replacements (``d dh pN ...``) in the same order (``Hand.history``
  writes it so). A replay also reads each deal right after its discard, as
  files of earlier versions have it.
- ``blinds_or_straddles`` is ``[small, big, 0, ...]``. Heads-up, pokerkit
  reverses both ``blinds_or_straddles`` and ``antes`` (player ``i`` posts entry
  ``1 - i``): ``p1`` posts the big blind and ``antes[1]``, ``p2`` (the button)
  the small blind and ``antes[0]``. The engine posts heads-up blinds the same
  way (the button, seat 1, posts the small blind).
- ``ante_trimming_status`` is pokerkit's reading of antes: true, they are live
  chips layered into side pots like any bet; false, they are dead money in the
  main pot (a big-blind ante, as in the WSOP files). It maps to the engine's
  ``Stakes.dead_antes``; without it, antes are dead exactly when seats ante
  different amounts.
- Actions are numbered from 1 in error messages: ``action 12 'p3 cbr 100'`` is
  the twelfth entry of ``actions``.

Histories do not record burned cards: a replay burns a card nobody saw
(``??``) before every draw.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .cards import STANDARD_DECK, UNKNOWN, Card, CardError, format_cards, parse_cards
from .games import DRAW_LIMITS, MAX_PLAYERS, DrawLimit, Game, Structure, game_from_phh_variant
from .hand import Hand, IllegalAction, Stakes
from .moves import Draw, Move, parse_move

DEFAULT_RAISE_CAP: Final = 5
"""Bets per round in fixed limit when a file has no ``_raise_cap`` (the WSOP cap: a bet and four raises)."""

# Standard PHH fields that export_phh accepts as keyword arguments (the rest it computes from the hand).
OPTIONAL_FIELDS: Final = frozenset({
    "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time",
    "time_zone", "day", "month", "year", "hand", "level", "seats", "seat_count", "table", "players",
    "winnings", "currency", "currency_symbol", "time_limit", "time_banks",
})
_COMPUTED_FIELDS: Final = frozenset({
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet",
    "min_bet", "starting_stacks", "actions", "finishing_stacks",
    "_jokers", "_draw_limit", "_raise_cap", "_big_bet_round", "_carried_in", "_open_pair",
})
_OUR_FIELDS: Final = frozenset({
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet",
    "min_bet", "starting_stacks", "actions", "finishing_stacks", "players",
    "_jokers", "_draw_limit", "_raise_cap", "_big_bet_round", "_carried_in", "_seed", "_open_pair",
})
_PLAYER_VERBS: Final = frozenset({"f", "cc", "cbr", "pb", "sd", "sdu", "sm"})
_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")
_SEATS: Final = {f"p{seat + 1}": seat for seat in range(MAX_PLAYERS)}  # "p3" -> engine seat 2

TomlValue = str | int | float | bool | Sequence["TomlValue"]


class PHHError(ValueError):
    """A PHH document cannot be read: not TOML, or a field is missing or malformed."""


class ReplayError(PHHError):
    """A hand history cannot be replayed: an illegal action or an impossible card.

    The message names the action (``action 12 'p3 cbr 100': ...``) and says why.
    """


# ---------------------------------------------------------------------------------------------------------- export


def export_phh(hand: Hand, /, **fields: object) -> str:
    """The hand as a PHH (TOML) document; ``hand`` may be finished or not.

    Keyword arguments add optional fields: standard PHH ones (``players`` in
    seat order, ``hand``, ``table``, ``event``, ...), user-defined ones with a
    leading underscore, and ``seed`` (written ``_seed``; by default the hand's
    own seed). ``finishing_stacks`` is written once the hand is complete.
    """
    n = hand.players
    stakes = hand.stakes
    game = hand.game
    doc: dict[str, TomlValue] = {"variant": game.phh_variant(stakes.structure)}
    # pokerkit's reading of antes: trimmed (live, side pots layer them) or dead money in the main pot.
    doc["ante_trimming_status"] = not stakes.antes_are_dead(n)
    doc["antes"] = _pokerkit_order([stakes.ante_for(seat, n) for seat in range(n)])
    if game.is_stud:
        doc["bring_in"] = stakes.bring_in
    elif stakes.blinds is not None:
        doc["blinds_or_straddles"] = _pokerkit_order(list(stakes.blinds))
    elif stakes.big_blind:
        doc["blinds_or_straddles"] = [stakes.small_blind, stakes.big_blind] + [0] * (n - 2)
    else:
        doc["blinds_or_straddles"] = [0] * n
    if stakes.structure == "fixed-limit":
        doc["small_bet"] = stakes.small
        doc["big_bet"] = stakes.big
    else:
        doc["min_bet"] = stakes.small if game.is_stud else stakes.unit(1)
    doc["starting_stacks"] = list(hand.starting_stacks)
    doc["actions"] = list(hand.history)
    if hand.is_complete:
        doc["finishing_stacks"] = list(hand.stacks)

    seed: object = fields.pop("seed", hand.seed)
    extra: dict[str, TomlValue] = {}
    for key, value in fields.items():
        if key in _COMPUTED_FIELDS:
            raise ValueError(f"{key} is written from the hand and cannot be given")
        if key not in OPTIONAL_FIELDS and not key.startswith("_"):
            raise ValueError(f"{key!r} is not a PHH field (user-defined fields start with '_')")
        if value is not None:
            extra[key] = _toml_value(key, value)
    players = extra.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != n):
        raise ValueError(f"players lists one name per seat ({n})")
    doc.update({k: v for k, v in extra.items() if not k.startswith("_")})

    if stakes.structure == "fixed-limit":
        doc["_raise_cap"] = stakes.raise_cap
        doc["_big_bet_round"] = hand.big_bet_round
    if game.assassin:
        doc["_jokers"] = hand.jokers
    if game.allows_draw_limit:
        doc["_draw_limit"] = hand.draw_limit
    if hand.open_pair:
        doc["_open_pair"] = True
    if hand.carried_in:
        doc["_carried_in"] = hand.carried_in
    if seed is not None:
        doc["_seed"] = _toml_value("seed", seed)
    doc.update({k: v for k, v in extra.items() if k.startswith("_")})
    return "".join(_toml_line(key, value) for key, value in doc.items())


def _pokerkit_order(per_seat: list[int]) -> list[int]:
    """Per-seat amounts in PHH order: heads-up, pokerkit reads entry ``1 - i`` for player ``i``."""
    return per_seat[::-1] if len(per_seat) == 2 else per_seat


def _toml_value(key: str, value: object) -> TomlValue:
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{key}: {value} is not a number PHH can hold")
        return value
    if isinstance(value, list | tuple):
        return [_toml_value(key, item) for item in value]
    raise ValueError(f"{key}: a PHH field holds text, numbers, true/false or lists of them, not {value!r}")


def _toml_line(key: str, value: TomlValue) -> str:
    if not isinstance(value, str) and isinstance(value, Sequence) and key == "actions":
        items = "".join(f"    {_toml_scalar(item)},\n" for item in value)
        return f"{key} = [\n{items}]\n"
    return f"{key} = {_toml_scalar(value)}\n"


def _toml_scalar(value: TomlValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    return "[" + ", ".join(_toml_scalar(item) for item in value) + "]"


def _toml_string(text: str) -> str:
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


# ------------------------------------------------------------------------------------------------- what was shown


def seen_by(actions: Sequence[str], seats: Collection[int], game: Game | None = None) -> list[str]:
    """A history's actions as the players of ``seats`` (0-based; none for a bystander) saw them at the table.

    The cards shown to everyone stay (every hand at the showdown, ``pN sm CARDS``; Assassin's twos thrown face
    up, in ``pN sdu``; the board; the stud games' up cards, when ``game`` says which are up) and so do the cards
    of those players: what they were dealt and what they threw. Every other card is ``??``, the PHH card nobody
    saw, so that the history still replays, here and (for the standard variants) in pokerkit.
    """
    faces = [up for street in game.streets for up in street.hole] if game is not None and game.is_stud else []
    dealt: dict[str, int] = {}  # stud: how many cards each player has been dealt, to know which are up
    return [_seen_by(action, seats, faces, dealt) for action in actions]


def _seen_by(action: str, seats: Collection[int], faces: Sequence[bool] = (), dealt: dict[str, int] | None = None,
             ) -> str:
    words = action.split("#", 1)[0].split()
    if words[:2] == ["d", "dh"] and len(words) > 3:
        who, verb, cards = words[2], "d dh", "".join(words[3:])
    elif len(words) > 2 and words[1] in ("sd", "sdu"):
        who, verb, cards = words[0], words[1], "".join(words[2:])
    else:
        return action  # no card in it, or the cards shown at the showdown
    seat = _SEATS.get(who)
    if seat is not None and seat in seats:
        return action
    up: Sequence[bool] = ()
    if faces and dealt is not None and verb == "d dh":  # the k-th card a stud player is dealt: up or down
        first = dealt.get(who, 0)
        dealt[who] = first + len(cards) // 2
        up = faces[first:]
    try:
        hidden = "".join(c.code if (verb == "sdu" and c.is_two) or (k < len(up) and up[k]) else "??"
                         for k, c in enumerate(parse_cards(cards)))
    except CardError:
        hidden = "??" * (len(cards) // 2)
    return f"{verb} {who} {hidden}" if verb == "d dh" else f"{who} {verb} {hidden}"


def phh_seen_by(text: str, seats: Collection[int]) -> str:
    """A PHH document (as ``export_phh`` writes it) as the players of ``seats`` saw the hand (``seen_by``), and
    without ``_seed``, which would deal every card again. Each draw round is written as the standard writes it,
    also in a file of an earlier version (the hand is replayed: its ``Hand.history``). PHHError if the text is
    not such a document."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PHHError(f"not valid TOML: {error}") from None
    document = phh_document(data)
    try:
        actions: Sequence[str] = replay(document).history
    except PHHError:
        actions = document.actions  # a history that does not replay is shown as it is, its cards hidden alike
    data["actions"] = seen_by(actions, seats, document.game)
    data.pop("_seed", None)
    lines = []
    for key, value in data.items():
        if not _BARE_KEY.fullmatch(key):
            raise PHHError(f"{key!r} is not a field export_phh writes")
        try:
            lines.append(_toml_line(key, _toml_value(key, value)))
        except ValueError as error:
            raise PHHError(str(error)) from None
    return "".join(lines)


# ----------------------------------------------------------------------------------------------------------- parse


@dataclass(frozen=True, slots=True)
class PHHDocument:
    """The fields of one PHH hand history, checked for type and length.

    ``antes`` and ``blinds_or_straddles`` are as written (heads-up in
    pokerkit's reversed order); ``seat_antes`` gives the antes by engine seat.
    ``ante_trimming_status`` false makes antes dead money (``Stakes.dead_antes``).
    ``raise_cap`` and ``big_bet_round`` are None when the file does not give
    them. ``extra`` holds every other field as read (``hand``, ``event``, ...).
    """

    variant: str
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    ante_trimming_status: bool | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    finishing_stacks: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None
    jokers: bool = False
    draw_limit: DrawLimit = "none"
    raise_cap: int | None = None
    big_bet_round: int | None = None
    carried_in: int = 0
    seed: int | None = None
    extra: Mapping[str, object] = field(default_factory=dict)
    bring_in: int = 0
    open_pair: bool = False

    @property
    def game(self) -> Game:
        """The game of the variant code."""
        return game_from_phh_variant(self.variant)[0]

    @property
    def structure(self) -> Structure:
        """The betting structure of the variant code."""
        return game_from_phh_variant(self.variant)[1]

    @property
    def seat_antes(self) -> tuple[int, ...]:
        """The ante of each engine seat (heads-up, the file's list reversed)."""
        return tuple(_pokerkit_order(list(self.antes)))

    def stakes(self) -> Stakes:
        """The engine's stakes for this history; PHHError if the fields do not make any."""
        seat_blinds = tuple(_pokerkit_order(list(self.blinds_or_straddles)))
        sb, bb = self.blinds_or_straddles[0], self.blinds_or_straddles[1]
        blinds: tuple[int, ...] | None = None
        if any(self.blinds_or_straddles[2:]):
            raise PHHError("blinds_or_straddles: straddles are not played here; give [small, big, 0, ...]")
        if sb and not bb and len(seat_blinds) > 2:
            blinds, sb, bb = seat_blinds, 0, sb  # a lone blind, on p1: the first to act sits left of it
        antes = self.seat_antes
        same = len(set(antes)) == 1
        dead = None if self.ante_trimming_status is None else not self.ante_trimming_status
        stud = self.game.is_stud
        if stud and (sb or bb):
            raise PHHError("blinds_or_straddles: the stud games have no blinds")
        common: dict[str, Any] = {
            "ante": antes[0] if same else 0, "antes": None if same else antes, "dead_antes": dead, "blinds": blinds,
            "raise_cap": self.raise_cap if self.raise_cap is not None else DEFAULT_RAISE_CAP,
            "bring_in": self.bring_in if stud else 0,
        }
        try:
            if self.structure == "fixed-limit":
                return Stakes("fixed-limit", sb, bb, small_bet=self.small_bet, big_bet=self.big_bet,
                              big_bet_round=self.big_bet_round, **common)
            # Stud in pot and no limit: the minimum bet is the small bet, which the completion reaches.
            return Stakes(self.structure, sb, bb, min_bet=self.min_bet, small_bet=self.min_bet if stud else None,
                          **common)
        except ValueError as error:
            raise PHHError(f"the stakes cannot be played: {error}") from None


def parse_phh(text: str) -> PHHDocument:
    """Read one PHH hand history; PHHError says which field is wrong and why."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PHHError(f"not valid TOML: {error}") from None
    return phh_document(data)


def phh_document(data: Mapping[str, object]) -> PHHDocument:
    """One hand history from its fields as TOML reads them (a hand of a ``.phhs`` file is read with the file);
    PHHError says which field is wrong and why."""
    variant = _get_str(data, "variant")
    if variant is None:
        raise PHHError("the variant field is missing")
    try:
        game_from_phh_variant(variant)
    except ValueError as error:
        raise PHHError(f"variant: {error}") from None
    stacks = _get_ints(data, "starting_stacks")
    if stacks is None:
        raise PHHError("the starting_stacks field is missing")
    n = len(stacks)
    if n < 2:
        raise PHHError("starting_stacks: a hand needs at least two players")
    actions = _get_strs(data, "actions")
    if actions is None:
        raise PHHError("the actions field is missing")
    antes = _get_ints(data, "antes", n) or (0,) * n
    blinds = _get_ints(data, "blinds_or_straddles", n) or (0,) * n
    draw_limit = _get_str(data, "_draw_limit") or "none"
    if draw_limit not in DRAW_LIMITS:
        raise PHHError(f"_draw_limit: {draw_limit!r} is not one of {', '.join(map(repr, DRAW_LIMITS))}")
    jokers = _get_bool(data, "_jokers") or False
    players = _get_strs(data, "players", n)
    raise_cap = _get_int(data, "_raise_cap")
    if raise_cap is not None and raise_cap < 1:
        raise PHHError("_raise_cap: at least one bet a round")
    big_bet_round = _get_int(data, "_big_bet_round")
    if big_bet_round is not None and big_bet_round < 1:
        raise PHHError("_big_bet_round: rounds are numbered from 1")
    return PHHDocument(
        variant=variant,
        starting_stacks=stacks,
        actions=actions,
        antes=antes,
        blinds_or_straddles=blinds,
        ante_trimming_status=_get_bool(data, "ante_trimming_status"),
        small_bet=_get_int(data, "small_bet"),
        big_bet=_get_int(data, "big_bet"),
        min_bet=_get_int(data, "min_bet"),
        finishing_stacks=_get_ints(data, "finishing_stacks", n),
        players=players,
        jokers=jokers,
        draw_limit=draw_limit,
        raise_cap=raise_cap,
        big_bet_round=big_bet_round,
        carried_in=_get_int(data, "_carried_in") or 0,
        seed=_get_int(data, "_seed", allow_negative=True),
        extra={k: v for k, v in data.items() if k not in _OUR_FIELDS},
        bring_in=_get_int(data, "bring_in") or 0,
        open_pair=_get_bool(data, "_open_pair") or False,
    )


def _get_str(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise PHHError(f"{key}: expected text, not {value!r}")
    return value


def _get_bool(data: Mapping[str, object], key: str) -> bool | None:
    value = data.get(key)
    if value is not None and not isinstance(value, bool):
        raise PHHError(f"{key}: write true or false, not {value!r}")
    return value


def _get_int(data: Mapping[str, object], key: str, *, allow_negative: bool = False) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not allow_negative):
        raise PHHError(f"{key}: expected a whole number of chips, not {value!r}")
    return value


def _get_list(data: Mapping[str, object], key: str, count: int | None) -> list[object] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list):
        raise PHHError(f"{key}: expected a list, not {value!r}")
    if count is not None and len(value) != count:
        raise PHHError(f"{key}: expected {count} entries, one per player, not {len(value)}")
    return value


def _get_ints(data: Mapping[str, object], key: str, count: int | None = None) -> tuple[int, ...] | None:
    values = _get_list(data, key, count)
    if values is None:
        return None
    numbers: list[int] = []
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise PHHError(f"{key}: expected whole numbers of chips, not {value!r}")
        numbers.append(value)
    return tuple(numbers)


def _get_strs(data: Mapping[str, object], key: str, count: int | None = None) -> tuple[str, ...] | None:
    values = _get_list(data, key, count)
    if values is None:
        return None
    texts: list[str] = []
    for value in values:
        if not isinstance(value, str):
            raise PHHError(f"{key}: expected text entries, not {value!r}")
        texts.append(value)
    return tuple(texts)


# ---------------------------------------------------------------------------------------------------------- replay


class _Action(NamedTuple):
    """One entry of ``actions``: its 1-based number, its text, and what it says."""

    number: int
    text: str
    player: int  # 0-based seat
    verb: str  # "dh" for the dealer's ``d dh``, else the player's verb
    cards: tuple[Card, ...] = ()
    move: Move | str = ""  # a player's move (its text when it is not one: the hand then says why)

    def where(self) -> str:
        return _where(self.number, self.text)


@dataclass(slots=True)
class _Draw:
    """One draw round as the history records it: the discards in order and the cards dealt for them."""

    discards: list[tuple[_Action, int]] = field(default_factory=list)  # (the sd/sdu action, cards it receives)
    dealt: dict[int, list[_Action]] = field(default_factory=dict)  # player -> his d dh actions

    def cards_for(self, player: int) -> list[Card]:
        return [c for action in self.dealt.get(player, ()) for c in action.cards]


@dataclass(slots=True)
class _Plan:
    """The deck order a history implies, and the player actions to feed."""

    deck: list[Card]
    actions: list[_Action]
    dealt_at: dict[int, list[_Action]]  # sd/sdu action number -> the d dh actions that serve it


def replay(doc_or_text: PHHDocument | str) -> Hand:
    """Replay a hand history through the engine and return the hand (complete if the history is).

    Raises ReplayError (a PHHError) naming the first action that is illegal or
    deals an impossible card, and PHHError for a malformed document.
    """
    doc = parse_phh(doc_or_text) if isinstance(doc_or_text, str) else doc_or_text
    game, n = doc.game, len(doc.starting_stacks)
    stakes = doc.stakes()
    if game.family == "draw":
        plan = _plan(doc.actions, n, jokers=doc.jokers, hand_size=game.hand_size)
    else:
        plan = _plan_streets(doc.actions, n, game)
    try:
        hand = Hand(
            game, stakes, doc.starting_stacks, deck=plan.deck, carried_in=doc.carried_in,
            jokers=doc.jokers, draw_limit=doc.draw_limit, open_pair=doc.open_pair,
        )
    except ValueError as error:  # IllegalAction and CardError included
        raise ReplayError(f"the hand cannot be dealt: {error}") from None
    muckers: list[_Action] = []
    for action in plan.actions:
        if action.verb == "sm":
            _replay_show(hand, action, muckers)
            continue
        drawing = action.verb in ("sd", "sdu")
        try:
            hand.act(action.move)
        except (IllegalAction, CardError) as error:
            # The engine turns the deck's CardError into IllegalAction: then the dealt cards are at fault. A
            # refused move changes nothing, so the hand is as it was before the draw.
            if drawing and isinstance(error.__context__, CardError):
                raise ReplayError(_bad_deal(hand, action, plan, hand.holes, str(error))) from None
            raise ReplayError(f"{action.where()}: {error}") from None
        if drawing:
            _check_not_dealt_back(action, plan)
    if hand.is_complete:
        for action in muckers:
            if action.player in hand.winners:
                raise ReplayError(
                    f"{action.where()}: p{action.player + 1} wins at the showdown and cannot muck: "
                    "the engine shows every hand still in"
                )
    return hand


def _replay_show(hand: Hand, action: _Action, muckers: list[_Action]) -> None:
    """``pN sm [CARDS]``: show unseen cards, or check the cards the engine has shown."""
    p = action.player
    if hand.folded[p]:
        raise ReplayError(f"{action.where()}: p{p + 1} has folded")
    if hand.phase in ("betting", "drawing"):
        raise ReplayError(f"{action.where()}: there is no showdown yet")
    if hand.is_complete and p not in hand.shown:
        raise ReplayError(f"{action.where()}: the hand ended without a showdown")
    holes = hand.holes[p]
    if hand.phase == "showdown" and any(c.is_unknown for c in holes):
        try:
            hand.show(p, list(action.cards) if action.cards else None)
        except (IllegalAction, CardError) as error:
            raise ReplayError(f"{action.where()}: {error}") from None
        return
    if not action.cards:
        muckers.append(action)
    elif not set(action.cards) <= set(holes) or (len(action.cards) != len(holes) and hand.game.family == "draw"):
        # Every player all in: the hands may be shown before the last cards are dealt (flop and stud games).
        raise ReplayError(f"{action.where()}: p{p + 1} holds {format_cards(holes)}")


def _bad_deal(hand: Hand, action: _Action, plan: _Plan, holes: list[list[Card]], reason: str) -> str:
    """The message for replacement cards the deck refused, naming the ``d dh`` action that deals them."""
    p = action.player
    dealt = plan.dealt_at.get(action.number, [])
    discards = set(action.cards)
    served: set[Card] = set()
    for deal in dealt:
        for card in deal.cards:
            if card.is_unknown:
                continue
            if card in served:
                reason = f"p{p + 1} is dealt {card} twice"
                return f"{deal.where()} (the draw of {action.where()}): {reason}"
            served.add(card)
            if card in discards:
                reason = f"p{p + 1} threw {card} in this draw and is never dealt it back"
            elif card in holes[p]:
                reason = f"p{p + 1} still holds {card}"
            else:
                owner = next(
                    (q for q in range(hand.players) if q != p and not hand.folded[q] and card in holes[q]), None
                )
                if owner is None:
                    continue
                reason = f"{card} is in p{owner + 1}'s hand"
            return f"{deal.where()} (the draw of {action.where()}): {reason}"
    if dealt:
        return f"{dealt[0].where()} (the draw of {action.where()}): {reason}"
    return f"{action.where()}: {reason}"


def _check_not_dealt_back(action: _Action, plan: _Plan) -> None:
    """docs/rules.md section 2.2: a player never receives a card he threw in the same draw (even after a reshuffle)."""
    thrown = {c for c in action.cards if not c.is_unknown}
    for deal in plan.dealt_at.get(action.number, []):
        back = [c for c in deal.cards if c in thrown]
        if back:
            raise ReplayError(
                f"{deal.where()} (the draw of {action.where()}): "
                f"p{action.player + 1} threw {back[0]} in this draw and is never dealt it back"
            )


def _parse_action(number: int, raw: str, n: int) -> _Action | None:
    words = (raw.split("#", 1)[0] if "#" in raw else raw).split()
    if not words:
        return None  # a comment
    text = " ".join(words)
    if words[0] == "d":
        if len(words) >= 3 and words[1] == "db":
            return _Action(number, text, -1, "db", _cards(words[2:], number, raw))
        if len(words) < 3 or words[1] != "dh" or not words[2].startswith("p"):
            raise ReplayError(f"{_where(number, raw)}: the dealer's action is 'd dh pN CARDS' or 'd db CARDS'")
        player = _player(words[2], n, number, raw)
        return _Action(number, text, player, "dh", _cards(words[3:], number, raw))
    if not words[0].startswith("p") or len(words) < 2:
        raise ReplayError(f"{_where(number, raw)}: expected 'd dh pN CARDS' or 'pN ACTION'")
    player = _player(words[0], n, number, raw)
    verb = words[1]
    if verb not in _PLAYER_VERBS:
        raise ReplayError(f"{_where(number, raw)}: {verb!r} is not an action of these games "
                          "(f, cc, cbr, pb, sd, sdu, sm)")
    move: Move | str = text
    if verb == "sd":
        cards = _cards(words[2:], number, raw)
        move = Draw(cards, player=player)
    elif verb in ("sdu", "sm"):
        cards = _cards(words[2:], number, raw)
    else:
        cards = ()
        try:
            move = parse_move(text)
        except IllegalAction:
            pass  # the hand says why, at this action's turn
    return _Action(number, text, player, verb, cards, move)


def _where(number: int, raw: str) -> str:
    return f"action {number} {raw!r}"



def _player(word: str, n: int, number: int, raw: str) -> int:
    seat = _SEATS.get(word)
    if seat is not None and seat < n:
        return seat
    digits = word[1:]
    if not digits.isascii() or not digits.isdigit() or not 1 <= int(digits) <= n:
        raise ReplayError(f"{_where(number, raw)}: there is no player {word} in a hand of {n}")
    return int(digits) - 1


def _cards(words: Sequence[str], number: int, raw: str) -> tuple[Card, ...]:
    try:
        return tuple(parse_cards(words[0] if len(words) == 1 else " ".join(words)))
    except CardError as error:
        raise ReplayError(f"{_where(number, raw)}: {error}") from None


def _plan(raw_actions: Sequence[str], n: int, *, jokers: bool, hand_size: int = 5) -> _Plan:
    """Read the history once: the initial deal, each draw's discards and replacements, the player actions.

    The deck order is the initial deal, one card at a time from p1, then for
    every draw a burned card nobody saw followed by each drawing player's
    replacements in the order the players discard. Replacements may follow
    each discard or all the round's discards. A draw starts at a discard after
    a bet or call, or at a discard by a player who already drew (or sits left
    of one who did) in the current draw: players draw in seat order.
    """
    initial: dict[int, list[_Action]] = {}
    seen: dict[Card, _Action] = {}
    draws: list[_Draw] = []
    actions: list[_Action] = []
    started = False
    betting_since_draw = True
    for number, raw in enumerate(raw_actions, start=1):
        action = _parse_action(number, raw, n)
        if action is None:
            continue
        if not jokers and "X" in action.text:  # every other card read is in the deck
            for card in action.cards:
                if card.is_joker:
                    raise ReplayError(f"{action.where()}: {card} is not in this deck "
                                      "(jokers need _jokers = true, an Assassin option)")
        if action.verb == "db":
            raise ReplayError(f"{action.where()}: draw games deal no board cards")
        if action.verb == "dh" and not started:
            for card in action.cards:
                if card in seen and not card.is_unknown:
                    raise ReplayError(f"{action.where()}: {card} was already dealt in {seen[card].where()}")
                seen[card] = action
            initial.setdefault(action.player, []).append(action)
            continue
        if not started:
            started = True
            _check_initial(initial, hand_size)
        if action.verb == "dh":
            draw = draws[-1] if draws else None
            drawers = {a.player: count for a, count in draw.discards} if draw else {}
            if draw is None or action.player not in drawers:
                raise ReplayError(f"{action.where()}: p{action.player + 1} has not discarded in this draw")
            have = len(draw.cards_for(action.player))
            if have + len(action.cards) > drawers[action.player]:
                raise ReplayError(
                    f"{action.where()}: p{action.player + 1} receives {drawers[action.player]} "
                    f"card{'s' if drawers[action.player] != 1 else ''} in this draw, not {have + len(action.cards)}"
                )
            draw.dealt.setdefault(action.player, []).append(action)
            continue
        actions.append(action)
        if action.verb in ("cc", "cbr"):
            betting_since_draw = True
        elif action.verb in ("sd", "sdu"):
            last = draws[-1].discards[-1][0].player if draws and draws[-1].discards else n
            if betting_since_draw or action.player <= last:
                draws.append(_Draw())
                betting_since_draw = False
            count = len(action.cards)
            if action.verb == "sdu" and any(c.is_two for c in action.cards):
                count += 1  # Assassin: a face-up two earns one extra card
            draws[-1].discards.append((action, count))
    if not started:
        _check_initial(initial, hand_size)

    holes = [_initial_cards(initial, seat, hand_size) for seat in range(n)]
    deck = [holes[seat][k] for k in range(hand_size) for seat in range(n)]
    dealt_at: dict[int, list[_Action]] = {}
    for draw in draws:
        deck.append(UNKNOWN)  # the burn: histories do not record it
        for discard, count in draw.discards:
            cards = draw.cards_for(discard.player)
            if not cards:
                cards = [UNKNOWN] * count
            elif len(cards) != count:
                last_deal = draw.dealt[discard.player][-1]
                raise ReplayError(
                    f"{last_deal.where()}: p{discard.player + 1} receives {count} "
                    f"card{'s' if count != 1 else ''} for {discard.where()}, not {len(cards)}"
                )
            deck.extend(cards)
            dealt_at[discard.number] = draw.dealt.get(discard.player, [])
    deck.append(UNKNOWN)  # a history that stops as a draw begins still needs its burn
    return _Plan(deck, actions, dealt_at)


def _plan_streets(raw_actions: Sequence[str], n: int, game: Game) -> _Plan:
    """The deck order of a flop or stud game's history, and the player actions to feed.

    The first street is dealt one card at a time from p1; every later street
    is a burn nobody saw, then its cards: each ``d db`` is a street of the
    board, and in stud a street is one ``d dh`` for each player still in (in
    seat order), or a ``d db`` community card when the deck runs out (no burn
    then, nor before a street the stub cannot serve with a burn, docs/rules.md
    section 18.3). No card is ever dealt twice: these games never reshuffle.
    """
    per = game.hole_cards
    initial: dict[int, list[_Action]] = {}
    seen: dict[Card, _Action] = {}
    groups: list[list[_Action]] = []
    actions: list[_Action] = []
    started = False
    dealing = False  # the last action was the dealer's (a street's deals follow one another)
    for number, raw in enumerate(raw_actions, start=1):
        action = _parse_action(number, raw, n)
        if action is None:
            continue
        if action.verb not in ("dh", "db"):
            if not started:
                started = True
                _check_initial(initial, per)
            dealing = False
            actions.append(action)
            continue
        for card in action.cards:
            if card in seen and not card.is_unknown:
                raise ReplayError(f"{action.where()}: {card} was already dealt in {seen[card].where()}")
            seen[card] = action
        if not started:
            have = sum(len(a.cards) for a in initial.get(action.player, ()))
            if action.verb == "dh" and have < per:
                initial.setdefault(action.player, []).append(action)
                continue
            started = True
            _check_initial(initial, per)
        group = groups[-1] if groups and dealing else None
        if (group is None or action.verb == "db" or any(a.verb == "db" for a in group)
                or any(a.player == action.player for a in group)):
            groups.append([action])
        else:
            group.append(action)
        dealing = True
    if not started:
        _check_initial(initial, per)
    if len(groups) >= len(game.streets):
        extra = groups[len(game.streets) - 1][0]
        raise ReplayError(f"{extra.where()}: {game.name} deals {len(game.streets)} streets; this is one more")
    holes = [_initial_cards(initial, seat, per) for seat in range(n)]
    deck = [holes[seat][k] for k in range(per) for seat in range(n)]
    size = len(STANDARD_DECK)
    for index, group in enumerate(groups, start=1):
        street = game.streets[index]
        if group[0].verb == "db" and street.shared_when_short:
            burn = False  # a community card: the stub could not serve everyone
        elif street.shared_when_short:
            burn = street.burn and size - len(deck) >= len(group) * len(street.hole) + 1
        else:
            burn = street.burn
        if burn:
            deck.append(UNKNOWN)
        for action in sorted(group, key=lambda a: a.player):
            deck.extend(action.cards)
    return _Plan(deck, actions, {})


def _check_initial(initial: dict[int, list[_Action]], hand_size: int) -> None:
    for seat, deals in initial.items():
        count = sum(len(a.cards) for a in deals)
        if count != hand_size:
            words = {2: "two", 3: "three", 4: "four", 5: "five"}.get(hand_size, str(hand_size))
            raise ReplayError(f"{deals[-1].where()}: p{seat + 1} is dealt {count} cards; a hand starts with {words}")


def _initial_cards(initial: dict[int, list[_Action]], seat: int, hand_size: int) -> list[Card]:
    deals = initial.get(seat)
    if deals is None:
        return [UNKNOWN] * hand_size  # the history does not say: cards nobody saw
    return [c for a in deals for c in a.cards]
