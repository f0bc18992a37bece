"""A finished hand told in a few short lines, for ``/poker history``::

    #12 · 2-7 Triple Draw · 10/20 fixed
    Bet 1: @bob raises to 20, @ann calls
    Draw 1: @ann 2, @bob 1
    Bet 2: @ann checks, @bob bets 10,
       @ann calls
    Draw 2: @ann pat, @bob 1
    Bet 3: @ann bets 20, @bob folds
    🏆 @ann wins 60 uncontested

One line per betting round and per draw, wrapped between actions to stay
within ``width`` characters (continuation lines are indented). A flop game's
rounds are named by street with the board cards they dealt
(``Flop K♠ 9♦ 8♦: @bob checks``); a stud street first lists the cards dealt
face up to each player (``4th street: @ann Q♠, @bob 9♦``), then its actions
on the next line; down cards are never told, only the hands shown at the
showdown. A hi-lo pot split in halves gets a line for each half
(``🏆 High: ...``, ``🏆 Low: @bob wins 70 with 7-5-3-2-A``), and a pot where no
low qualified says so. Bets and
raises are totals for the round ("raises to 20"); all-ins, folds, uncalled
chips given back while others are still in, Assassin's face-up twos and
kills, side pots with who could win each, and carried chips are said in
words. A winner's hand is on his award line; every other hand shown gets a
line of its own. ``name(user_id)`` writes each player (a mention or a plain
name, the caller's choice); with mentions, pass a larger ``width``, as a
mention's text is longer than the name Discord shows.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Final

from bot.poker import (
    Acted,
    BoardDealt,
    Burned,
    Carried,
    Dealt,
    Drew,
    Hand,
    Mucked,
    Posted,
    PotAwarded,
    Returned,
    RoundEnded,
    Shown,
)

from .pots import pot_contenders
from .stats import game_label

WIDTH: Final = 40
INDENT: Final = "   "
STRUCTURE_WORDS: Final = {"fixed-limit": "fixed", "pot-limit": "pot limit", "no-limit": "no limit"}
_PLURAL: Final = {"checks": "check", "calls": "call", "folds": "fold"}
FLOP_STREETS: Final = ("Preflop", "Flop", "Turn", "River")
STUD_STREETS: Final = ("3rd street", "4th street", "5th street", "6th street", "7th street")

Names = Callable[[int], str]


def hand_story(hand: Hand, users: Sequence[int], name: Names, *, number: int | None = None,
               width: int = WIDTH) -> str:
    """The hand as text, one short line per round, draw and pot (see the module docstring).

    ``users[seat]`` is each seat's user id; ``number`` is the hand's number at the table, shown as ``#12``.
    """
    if len(users) != hand.players:
        raise ValueError(f"the hand has {hand.players} players but {len(users)} users were given")
    seat_name = [name(user) for user in users]
    head = [game_label(hand.game.id), *([f"#{number}"] if number is not None else []), *stakes_text(hand).split(" · ")]
    lines = _pack(head, width, " · ")
    if hand.carried_in:
        lines.append(f"🔁 {hand.carried_in:,} carried in from the last deal")
    rounds = _rounds(hand, seat_name) if hand.game.family == "draw" else _streets(hand, seat_name)
    for label, items, dealt in rounds:
        actions = _merge_runs(items)
        if dealt:  # stud's up cards: the street's first line, its actions under it
            lines += _pack([f"{label}: {dealt[0]}", *dealt[1:]], width, ", ")
            if actions:
                lines += _pack([INDENT + actions[0], *actions[1:]], width, ", ")
        elif actions:
            lines += _pack([f"{label}: {actions[0]}", *actions[1:]], width, ", ")
        else:  # a street dealt with nobody left to bet (every player all in)
            lines += _wrap(label, width)
    for line in _showdown(hand, seat_name) + _pots(hand, seat_name):
        lines += _wrap(line, width)
    return "\n".join(lines)


def stakes_text(hand: Hand) -> str:
    """The stakes in a few words: ``10/20 fixed``, ``1/2 no limit``, ``ante 5 · pot limit``; in stud
    ``10/20 fixed · ante 2 · bring-in 3``."""
    stakes, n = hand.stakes, hand.players
    words = STRUCTURE_WORDS[stakes.structure]
    if stakes.structure == "fixed-limit":
        text = f"{stakes.small:,}/{stakes.big:,} {words}"
    elif stakes.big_blind:
        text = f"{stakes.small_blind:,}/{stakes.big_blind:,} {words}"
    else:
        text = words
    antes = [stakes.ante_for(seat, n) for seat in range(n)]
    big_blind_seat = 0 if n == 2 else 1
    if len(set(antes)) == 1 and antes[0]:
        text += f" · ante {antes[0]:,}"
    elif stakes.big_blind and [seat for seat in range(n) if antes[seat]] == [big_blind_seat]:
        text += f" · big blind ante {antes[big_blind_seat]:,}"
    elif any(antes):
        text += f" · antes up to {max(antes):,}"
    if hand.game.is_stud and stakes.bring_in:
        text += f" · bring-in {stakes.bring_in:,}"
    return text


# ---------------------------------------------------------------------------------------------- rounds and draws


Round = tuple[str, list[str], list[str]]  # its label, its actions, the up cards a stud street dealt


def _rounds(hand: Hand, seat_name: list[str]) -> list[Round]:
    """Each betting round with an action and each draw of a draw game, in order, as (``Bet 1``, its actions)."""
    rounds: list[Round] = []
    label, items = "Bet 1", _short_posts(hand, seat_name)
    betting_round = 0
    drawing: set[int] = set()  # seats yet to draw (or fold) in the draw under way
    in_hand = set(range(hand.players))

    def flush(next_label: str) -> None:
        nonlocal label, items
        if items:
            rounds.append((label, items, []))
        label, items = next_label, []

    for event in hand.events:
        if isinstance(event, Burned):
            flush(f"Draw {event.draw + 1}")
            drawing = set(in_hand)
        elif isinstance(event, Drew):
            items.append(_drew(event, seat_name))
            drawing.discard(event.player)
        elif isinstance(event, Acted):
            if not drawing and label.startswith("Draw"):
                flush(f"Bet {betting_round + 1}")
            items.append(_acted(event, seat_name))
            if event.verb == "fold":
                in_hand.discard(event.player)
                drawing.discard(event.player)
        elif isinstance(event, Returned) and len(in_hand) > 1:
            items.append(f"{event.amount:,} back to {seat_name[event.player]}")
        elif isinstance(event, RoundEnded):
            betting_round = event.round + 1
            flush(f"Bet {betting_round + 1}")
    flush("")
    return rounds


def _streets(hand: Hand, seat_name: list[str]) -> list[Round]:
    """Each street of a flop or stud game, in order, as (its name with the board cards it dealt, its actions, the
    up cards it dealt: ``@ann Q♠``). A street is told when it dealt a card or had an action."""
    names = STUD_STREETS if hand.game.is_stud else FLOP_STREETS
    rounds: list[Round] = []
    street, told = 0, False
    label, items, dealt = names[0], _short_posts(hand, seat_name), list[str]()
    served: set[int] = set()  # the players dealt a card on this street
    in_hand = set(range(hand.players))

    def start(new: int) -> None:
        nonlocal street, told, label, items, dealt
        if new == street:
            return
        if items or dealt or told:
            rounds.append((label, items, dealt))
        street, told = new, False
        label, items, dealt = names[min(new, len(names) - 1)], [], []
        served.clear()

    for event in hand.events:
        if isinstance(event, RoundEnded):
            start(event.round + 1)
        elif isinstance(event, Burned | BoardDealt):
            start(event.street)
        if isinstance(event, BoardDealt):
            told = True
            cards = " ".join(card.pretty() for card in event.cards)
            if hand.game.is_stud:
                dealt.append(f"{cards} in the middle for everyone")
            else:
                label += f" {cards}"
        elif isinstance(event, Dealt):
            if event.player in served:  # a street dealt with no betting before it (every player all in)
                start(street + 1)
            served.add(event.player)
            told = True
            if event.up:
                dealt.append(f"{seat_name[event.player]} {' '.join(card.pretty() for card in event.up)}")
        elif isinstance(event, Acted):
            items.append(_acted(event, seat_name))
            if event.verb == "fold":
                in_hand.discard(event.player)
        elif isinstance(event, Returned) and len(in_hand) > 1:
            items.append(f"{event.amount:,} back to {seat_name[event.player]}")
    if items or dealt or (told and street):
        rounds.append((label, items, dealt))
    return rounds


def _short_posts(hand: Hand, seat_name: list[str]) -> list[str]:
    """Blinds and antes are in the header; only a player all in on his forced bet is said."""
    left = list(hand.starting_stacks)
    items: list[str] = []
    for event in hand.events:
        if isinstance(event, Posted):
            left[event.player] -= event.amount
            if not left[event.player]:
                items.append(f"{seat_name[event.player]} posts {event.amount:,} all in")
    return items


def _acted(event: Acted, seat_name: list[str]) -> str:
    who = seat_name[event.player]
    if event.verb in ("fold", "check"):
        return f"{who} {event.verb}s"
    if event.verb == "bring in":
        return f"{who} brings in {event.amount:,}" + (" all in" if event.all_in else "")
    if event.verb == "call":
        return f"{who} calls all in for {event.amount:,}" if event.all_in else f"{who} calls"
    if event.all_in:
        return f"{who} goes all in for {event.amount:,}"
    verb = {"bet": "bets", "complete": "completes to"}.get(event.verb, "raises to")
    return f"{who} {verb} {event.amount:,}"


def _drew(event: Drew, seat_name: list[str]) -> str:
    who = seat_name[event.player]
    if not event.discarded:
        return f"{who} pat"
    if event.face_up:
        twos = " ".join(card.pretty() for card in event.face_up)
        return f"{who} {event.discarded} ({twos} face up, gets {event.received})"
    return f"{who} {event.discarded}"


def _merge_runs(items: list[str]) -> list[str]:
    """Consecutive players who check, call or fold alike become one item: ``@bob and @cat fold``."""
    out: list[str] = []
    names: list[str] = []
    verb = ""

    def close() -> None:
        if names:
            out.append(f"{listed(names)} {verb if len(names) == 1 else _PLURAL[verb]}")
        names.clear()

    for text in items:
        who, _, word = text.rpartition(" ")
        if word in _PLURAL and who:
            if word != verb:
                close()
                verb = word
            names.append(who)
        else:
            close()
            verb = ""
            out.append(text)
    close()
    return out


# ------------------------------------------------------------------------------------------- showdown and pots


def _showdown(hand: Hand, seat_name: list[str]) -> list[str]:
    """A line for each hand shown that no award line describes (it won no pot it shared with another player),
    and for each muck."""
    contenders = pot_contenders(hand)
    told = {seat for e in hand.events if isinstance(e, PotAwarded) and len(contenders[e.pot]) > 1
            for seat in e.winners}  # winners who split a pot hold hands of the same value, told once
    lines: list[str] = []
    for event in hand.events:
        if isinstance(event, Shown) and event.player not in told:
            who = seat_name[event.player]
            if event.assassinated:
                twos = " ".join(card.pretty() for card in event.cards if card.is_two)
                lines.append(f"💀 {who} is assassinated: holds {twos}")
            else:
                lines.append(f"{who} shows {_shown_words(hand, event)}")
        elif isinstance(event, Mucked):
            lines.append(f"{seat_name[event.player]} mucks")
    return lines


def _pots(hand: Hand, seat_name: list[str]) -> list[str]:
    """A line for each pot, main pot first (in a hi-lo game, for each half of it): who could win it, who won it
    and with what (said once a winner), or that it is carried."""
    results = sorted((e for e in hand.events if isinstance(e, PotAwarded | Carried)), key=lambda e: e.pot)
    shown = [e for e in hand.events if isinstance(e, Shown)]
    described = {
        "": {e.player: e.description for e in shown},
        "high": {e.player: e.description for e in shown},
        "low": {e.player: e.low for e in shown if e.low},
    }
    contenders = pot_contenders(hand)
    still_in = len(contenders[0]) if contenders else 0
    pots = len({e.pot for e in results})
    lines: list[str] = []
    for event in results:
        if pots == 1:
            pot = ""
        elif event.pot == 0:
            pot = "main pot"
        else:
            pot = "side pot" if pots == 2 else f"side pot {event.pot}"
        if isinstance(event, Carried):
            lines.append(f"🔁 {(pot or 'the pot').capitalize()} of {event.amount:,} is carried to the next deal: "
                         f"every hand in it held a two")
            continue
        words = described[event.half]
        if event.half:
            label = f"{pot}, {event.half}" if pot else event.half
            text = _award(event, "", contenders[event.pot], still_in, words, seat_name)
            lines.append(f"🏆 {label[:1].upper()}{label[1:]}: {text}")
        else:
            text = _award(event, pot, contenders[event.pot], still_in, words, seat_name)
            no_low = hand.game.hi_lo and not event.uncontested and len(contenders[event.pot]) > 1
            lines.append("🏆 " + text + (" · no low" if no_low else ""))
        for seat in event.winners:
            words.pop(seat, None)  # a winner's hand is said once
    return lines


def _shown_words(hand: Hand, event: Shown) -> str:
    """A hand shown at the showdown by the engine's name for it (the table's), in a hi-lo game with its low, or
    that it has none."""
    words = event.description
    if not hand.game.hi_lo:
        return words
    return f"{words}, low {event.low}" if event.low else f"{words}, no low"


def _award(event: PotAwarded, pot: str, contenders: tuple[int, ...], still_in: int, described: dict[int, str],
           seat_name: list[str]) -> str:
    """``@ann wins 20 with 8-6-4-3-2``, or with side pots ``Main pot (150, @ann vs @bob): @ann with ...``."""
    winners = listed([seat_name[seat] for seat in event.winners])
    if len(event.winners) > 1:
        shares = (f"{event.shares[0]:,} each" if len(set(event.shares)) == 1
                  else ", ".join(f"{s:,}" for s in event.shares))
        won = f"split {'it' if pot else f'{event.amount:,}'} ({shares})"
    else:
        won = "" if pot else f"wins {event.amount:,}"
    text = f"{winners} {won}".rstrip()
    if pot:
        if len(contenders) == 1:
            could_win = f"{winners} only"
        elif len(contenders) == still_in > 2:
            could_win = f"all {still_in}"
        else:
            could_win = " vs ".join(seat_name[s] for s in contenders)
        text = f"{pot.capitalize()} ({event.amount:,}, {could_win}): {text}"
    if event.uncontested:
        return text + " uncontested"
    hand_words = described.get(event.winners[0])
    return text + (f" with {hand_words}" if hand_words and len(contenders) > 1 else "")


def listed(names: Sequence[str]) -> str:
    """Names as a list a player reads: ``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _pack(items: list[str], width: int, separator: str) -> list[str]:
    """The items joined by ``separator``, broken between items to stay within ``width`` where it can (a broken
    line ends with the separator's mark); the lines after the first are indented."""
    mark = separator.rstrip()
    lines = [items[0]]
    for k, item in enumerate(items[1:], 2):
        room = width - (len(mark) if k < len(items) else 0)
        if len(lines[-1]) + len(separator) + len(item) <= room:
            lines[-1] += separator + item
        else:
            lines[-1] += mark
            lines.append(INDENT + item)
    return [piece for line in lines for piece in _wrap(line, width)]


def _wrap(line: str, width: int) -> list[str]:
    """The line broken at spaces into pieces of at most ``width`` characters, the pieces after the first indented."""
    if len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, initial_indent=INDENT if line.startswith(INDENT) else "",
                         subsequent_indent=INDENT, break_long_words=False, break_on_hyphens=False)
