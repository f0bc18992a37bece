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
mention's text is longer than the name Discord shows. ``lang`` words the story
in the reader's language (English by default); game names, names, cards and
hands written as ranks are the same in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.i18n.text import ENGLISH, Language, Text, say, say_n, shown_length
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
    describe_shown,
)

from .pots import pot_contenders
from .stats import game_label

WIDTH: Final = 40
INDENT: Final = "   "
FLOP_STREETS: Final = (Text("Preflop"), Text("Flop"), Text("Turn"), Text("River"))
STUD_STREETS: Final = (Text("3rd street"), Text("4th street"), Text("5th street"), Text("6th street"),
                       Text("7th street"))

Names = Callable[[int], str]
# An action as a round lists it: its words, or (verb, player) for a fold, a check or a call, which consecutive
# players make alike and which are said together ("@bob and @cat fold").
Item = str | tuple[str, str]


def hand_story(hand: Hand, users: Sequence[int], name: Names, *, number: int | None = None,
               width: int = WIDTH, lang: Language = ENGLISH) -> str:
    """The hand as text, one short line per round, draw and pot (see the module docstring), in ``lang``.

    ``users[seat]`` is each seat's user id; ``number`` is the hand's number at the table, shown as ``#12``.
    """
    if len(users) != hand.players:
        raise ValueError(f"the hand has {hand.players} players but {len(users)} users were given")
    seat_name = [name(user) for user in users]
    head = [game_label(hand.game.id), *([f"#{number}"] if number is not None else []), *_stakes_parts(hand, lang)]
    lines = _pack(head, width, " · ")
    if hand.carried_in:
        lines.append(say(lang, "🔁 {amount} carried in from the last deal", amount=hand.carried_in))
    rounds = _rounds(hand, seat_name, lang) if hand.game.family == "draw" else _streets(hand, seat_name, lang)
    for label, items, dealt in rounds:
        actions = _merge_runs(items, lang)
        if dealt:  # stud's up cards: the street's first line, its actions under it
            lines += _pack([f"{label}: {dealt[0]}", *dealt[1:]], width, ", ")
            if actions:
                lines += _pack([INDENT + actions[0], *actions[1:]], width, ", ")
        elif actions:
            lines += _pack([f"{label}: {actions[0]}", *actions[1:]], width, ", ")
        else:  # a street dealt with nobody left to bet (every player all in)
            lines += _wrap(label, width)
    for line in _showdown(hand, seat_name, lang) + _pots(hand, seat_name, lang):
        lines += _wrap(line, width)
    return "\n".join(lines)


def stakes_text(hand: Hand, *, lang: Language = ENGLISH) -> str:
    """The stakes in a few words: ``10/20 fixed``, ``1/2 no limit``, ``ante 5 · pot limit``; in stud
    ``10/20 fixed · ante 2 · bring-in 3``. Worded in ``lang``."""
    return " · ".join(_stakes_parts(hand, lang))


def _stakes_parts(hand: Hand, lang: Language) -> list[str]:
    """The stakes' phrases (``stakes_text``), each a whole phrase: the blinds and the structure, the antes, the
    bring-in."""
    stakes, n = hand.stakes, hand.players
    if stakes.structure == "fixed-limit":
        parts = [say(lang, "{small}/{big} fixed", small=stakes.small, big=stakes.big)]
    elif stakes.big_blind and stakes.structure == "pot-limit":
        parts = [say(lang, "{small}/{big} pot limit", small=stakes.small_blind, big=stakes.big_blind)]
    elif stakes.big_blind:
        parts = [say(lang, "{small}/{big} no limit", small=stakes.small_blind, big=stakes.big_blind)]
    else:
        parts = [say(lang, "pot limit") if stakes.structure == "pot-limit" else say(lang, "no limit")]
    antes = [stakes.ante_for(seat, n) for seat in range(n)]
    big_blind_seat = 0 if n == 2 else 1
    if len(set(antes)) == 1 and antes[0]:
        parts.append(say(lang, "ante {amount}", amount=antes[0]))
    elif stakes.big_blind and [seat for seat in range(n) if antes[seat]] == [big_blind_seat]:
        parts.append(say(lang, "big blind ante {amount}", amount=antes[big_blind_seat]))
    elif any(antes):
        parts.append(say(lang, "antes up to {amount}", amount=max(antes)))
    if hand.game.is_stud and stakes.bring_in:
        parts.append(say(lang, "bring-in {amount}", amount=stakes.bring_in))
    return parts


# ---------------------------------------------------------------------------------------------- rounds and draws


Round = tuple[str, list[Item], list[str]]  # its label, its actions, the up cards a stud street dealt


def _rounds(hand: Hand, seat_name: list[str], lang: Language) -> list[Round]:
    """Each betting round with an action and each draw of a draw game, in order, as (``Bet 1``, its actions)."""
    rounds: list[Round] = []
    label, items, in_draw = _bet(1, lang), _short_posts(hand, seat_name, lang), False
    betting_round = 0
    drawing: set[int] = set()  # seats yet to draw (or fold) in the draw under way
    in_hand = set(range(hand.players))

    def flush(next_label: str, next_is_draw: bool) -> None:
        nonlocal label, items, in_draw
        if items:
            rounds.append((label, items, []))
        label, items, in_draw = next_label, [], next_is_draw

    for event in hand.events:
        if isinstance(event, Burned):
            flush(say(lang, "Draw {number}", number=str(event.draw + 1)), True)
            drawing = set(in_hand)
        elif isinstance(event, Drew):
            items.append(_drew(event, seat_name, lang))
            drawing.discard(event.player)
        elif isinstance(event, Acted):
            if not drawing and in_draw:
                flush(_bet(betting_round + 1, lang), False)
            items.append(_acted(event, seat_name, lang))
            if event.verb == "fold":
                in_hand.discard(event.player)
                drawing.discard(event.player)
        elif isinstance(event, Returned) and len(in_hand) > 1:
            items.append(_back(event, seat_name, lang))
        elif isinstance(event, RoundEnded):
            betting_round = event.round + 1
            flush(_bet(betting_round + 1, lang), False)
    flush("", False)
    return rounds


def _bet(number: int, lang: Language) -> str:
    return say(lang, "Bet {number}", number=str(number))


def _streets(hand: Hand, seat_name: list[str], lang: Language) -> list[Round]:
    """Each street of a flop or stud game, in order, as (its name with the board cards it dealt, its actions, the
    up cards it dealt: ``@ann Q♠``). A street is told when it dealt a card or had an action."""
    names = [street.worded(lang) for street in (STUD_STREETS if hand.game.is_stud else FLOP_STREETS)]
    rounds: list[Round] = []
    street, told = 0, False
    label, items, dealt = names[0], _short_posts(hand, seat_name, lang), list[str]()
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
                dealt.append(say(lang, "{cards} in the middle for everyone", cards=cards))
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
            items.append(_acted(event, seat_name, lang))
            if event.verb == "fold":
                in_hand.discard(event.player)
        elif isinstance(event, Returned) and len(in_hand) > 1:
            items.append(_back(event, seat_name, lang))
    if items or dealt or (told and street):
        rounds.append((label, items, dealt))
    return rounds


def _short_posts(hand: Hand, seat_name: list[str], lang: Language) -> list[Item]:
    """Blinds and antes are in the header; only a player all in on his forced bet is said."""
    left = list(hand.starting_stacks)
    items: list[Item] = []
    for event in hand.events:
        if isinstance(event, Posted):
            left[event.player] -= event.amount
            if not left[event.player]:
                items.append(say(lang, "{who} posts {amount} all in", who=seat_name[event.player],
                                 amount=event.amount))
    return items


def _back(event: Returned, seat_name: list[str], lang: Language) -> str:
    return say(lang, "{amount} back to {who}", amount=event.amount, who=seat_name[event.player])


def _acted(event: Acted, seat_name: list[str], lang: Language) -> Item:
    who = seat_name[event.player]
    if event.verb in ("fold", "check"):
        return event.verb, who
    if event.verb == "bring in":
        if event.all_in:
            return say(lang, "{who} brings in {amount} all in", who=who, amount=event.amount)
        return say(lang, "{who} brings in {amount}", who=who, amount=event.amount)
    if event.verb == "call":
        return say(lang, "{who} calls all in for {amount}", who=who, amount=event.amount) if event.all_in \
            else ("call", who)
    if event.all_in:
        return say(lang, "{who} goes all in for {amount}", who=who, amount=event.amount)
    if event.verb == "bet":
        return say(lang, "{who} bets {amount}", who=who, amount=event.amount)
    if event.verb == "complete":
        return say(lang, "{who} completes to {amount}", who=who, amount=event.amount)
    return say(lang, "{who} raises to {amount}", who=who, amount=event.amount)


def _drew(event: Drew, seat_name: list[str], lang: Language) -> str:
    who = seat_name[event.player]
    if not event.discarded:
        return say(lang, "{who} pat", who=who)
    if event.face_up:
        twos = " ".join(card.pretty() for card in event.face_up)
        return say(lang, "{who} {count} ({twos} face up, gets {received})", who=who, count=str(event.discarded),
                   twos=twos, received=str(event.received))
    return f"{who} {event.discarded}"  # how many cards he drew: a number, in every language


def _merge_runs(items: list[Item], lang: Language) -> list[str]:
    """Consecutive players who check, call or fold alike become one item: ``@bob and @cat fold``."""
    out: list[str] = []
    names: list[str] = []
    verb = ""

    def close() -> None:
        if names:
            out.append(_alike(verb, names, lang))
        names.clear()

    for item in items:
        if isinstance(item, tuple):
            if item[0] != verb:
                close()
                verb = item[0]
            names.append(item[1])
        else:
            close()
            verb = ""
            out.append(item)
    close()
    return out


def _alike(verb: str, names: list[str], lang: Language) -> str:
    """Players who fold, check or call one after the other: ``@bob folds``, ``@bob and @cat fold``."""
    who = listed(names, lang=lang)
    if verb == "fold":
        return say_n(lang, "{who} folds", "{who} fold", count=len(names), who=who)
    if verb == "check":
        return say_n(lang, "{who} checks", "{who} check", count=len(names), who=who)
    return say_n(lang, "{who} calls", "{who} call", count=len(names), who=who)


# ------------------------------------------------------------------------------------------- showdown and pots


def _showdown(hand: Hand, seat_name: list[str], lang: Language) -> list[str]:
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
                lines.append(say(lang, "💀 {who} is assassinated: holds {twos}", who=who, twos=twos))
            else:
                lines.append(_shows(hand, event, who, lang))
        elif isinstance(event, Mucked):
            lines.append(say(lang, "{who} mucks", who=seat_name[event.player]))
    return lines


def _shows(hand: Hand, event: Shown, who: str, lang: Language) -> str:
    """A hand shown at the showdown by the engine's name for it (the table's), in a hi-lo game with its low, or
    that it has none."""
    words = describe_shown(event, lang=lang)
    if not hand.game.hi_lo:
        return say(lang, "{who} shows {hand}", who=who, hand=words)
    if event.low:
        return say(lang, "{who} shows {hand}, low {low}", who=who, hand=words, low=event.low)
    return say(lang, "{who} shows {hand}, no low", who=who, hand=words)


def _pots(hand: Hand, seat_name: list[str], lang: Language) -> list[str]:
    """A line for each pot, main pot first (in a hi-lo game, for each half of it): who could win it, who won it
    and with what (said once a winner), or that it is carried."""
    results = sorted((e for e in hand.events if isinstance(e, PotAwarded | Carried)), key=lambda e: e.pot)
    shown = [e for e in hand.events if isinstance(e, Shown)]
    described = {
        "": {e.player: describe_shown(e, lang=lang) for e in shown},
        "high": {e.player: describe_shown(e, lang=lang) for e in shown},
        "low": {e.player: e.low for e in shown if e.low},
    }
    contenders = pot_contenders(hand)
    still_in = len(contenders[0]) if contenders else 0
    pots = len({e.pot for e in results})
    lines: list[str] = []
    for event in results:
        # Which pot: None when there is one, else 0 for the main pot, the side pot's number, or -1 for the one
        # side pot (not numbered).
        pot = None if pots == 1 else (event.pot if event.pot == 0 or pots > 2 else -1)
        if isinstance(event, Carried):
            lines.append(_carried(pot, event.amount, lang))
            continue
        words = described[event.half]
        if event.half:
            text = _award(event, None, contenders[event.pot], still_in, words, seat_name, lang)
            lines.append(f"🏆 {_half(pot, event.half, lang)}: {text}")
        else:
            text = _award(event, pot, contenders[event.pot], still_in, words, seat_name, lang)
            no_low = hand.game.hi_lo and not event.uncontested and len(contenders[event.pot]) > 1
            lines.append("🏆 " + text + (" · " + say(lang, "no low") if no_low else ""))
        for seat in event.winners:
            words.pop(seat, None)  # a winner's hand is said once
    return lines


def _carried(pot: int | None, amount: int, lang: Language) -> str:
    if pot is None:
        return say(lang, "🔁 The pot of {amount} is carried to the next deal: every hand in it held a two",
                   amount=amount)
    if pot == 0:
        return say(lang, "🔁 Main pot of {amount} is carried to the next deal: every hand in it held a two",
                   amount=amount)
    if pot < 0:
        return say(lang, "🔁 Side pot of {amount} is carried to the next deal: every hand in it held a two",
                   amount=amount)
    return say(lang, "🔁 Side pot {number} of {amount} is carried to the next deal: every hand in it held a two",
               number=str(pot), amount=amount)


def _half(pot: int | None, half: str, lang: Language) -> str:
    """The name of a half of a pot split in a hi-lo game: ``High``, ``Side pot 2, low``."""
    high = half == "high"
    if pot is None:
        return say(lang, "High") if high else say(lang, "Low")
    if pot == 0:
        return say(lang, "Main pot, high") if high else say(lang, "Main pot, low")
    if pot < 0:
        return say(lang, "Side pot, high") if high else say(lang, "Side pot, low")
    if high:
        return say(lang, "Side pot {number}, high", number=str(pot))
    return say(lang, "Side pot {number}, low", number=str(pot))


def _pot_name(pot: int, lang: Language) -> str:
    if pot == 0:
        return say(lang, "Main pot")
    if pot < 0:
        return say(lang, "Side pot")
    return say(lang, "Side pot {number}", number=str(pot))


def _award(event: PotAwarded, pot: int | None, contenders: tuple[int, ...], still_in: int,
           described: dict[int, str], seat_name: list[str], lang: Language) -> str:
    """``@ann wins 20 with 8-6-4-3-2``, or with side pots ``Main pot (150, @ann vs @bob): @ann with ...``
    (``pot`` as in ``_pots``: None for the one pot)."""
    who = listed([seat_name[seat] for seat in event.winners], lang=lang)
    hand_words = described.get(event.winners[0])
    hand = hand_words if hand_words and len(contenders) > 1 and not event.uncontested else None
    shares = ""
    if len(event.winners) > 1:
        shares = (say(lang, "{amount} each", amount=event.shares[0]) if len(set(event.shares)) == 1
                  else ", ".join(lang.number(share) for share in event.shares))
    if pot is None:
        if shares:
            if hand is not None:
                return say(lang, "{who} split {amount} ({shares}) with {hand}", who=who, amount=event.amount,
                           shares=shares, hand=hand)
            return say(lang, "{who} split {amount} ({shares})", who=who, amount=event.amount, shares=shares)
        if event.uncontested:
            return say(lang, "{who} wins {amount} uncontested", who=who, amount=event.amount)
        if hand is not None:
            return say(lang, "{who} wins {amount} with {hand}", who=who, amount=event.amount, hand=hand)
        return say(lang, "{who} wins {amount}", who=who, amount=event.amount)
    if shares:
        if hand is not None:
            result = say(lang, "{who} split it ({shares}) with {hand}", who=who, shares=shares, hand=hand)
        else:
            result = say(lang, "{who} split it ({shares})", who=who, shares=shares)
    elif event.uncontested:
        result = say(lang, "{who} uncontested", who=who)
    elif hand is not None:
        result = say(lang, "{who} with {hand}", who=who, hand=hand)
    else:
        result = who
    if len(contenders) == 1:
        could_win = say(lang, "{who} only", who=who)
    elif len(contenders) == still_in > 2:
        could_win = say(lang, "all {count}", count=still_in)
    else:
        could_win = seat_name[contenders[0]]
        for seat in contenders[1:]:
            could_win = say(lang, "{first} vs {second}", first=could_win, second=seat_name[seat])
    return say(lang, "{pot} ({amount}, {contenders}): {result}", pot=_pot_name(pot, lang), amount=event.amount,
               contenders=could_win, result=result)


def listed(names: Sequence[str], *, lang: Language = ENGLISH) -> str:
    """Names as a list a player reads: ``a``, ``a and b``, ``a, b and c`` (in ``lang``)."""
    if len(names) == 1:
        return names[0]
    return say(lang, "{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def _pack(items: list[str], width: int, separator: str) -> list[str]:
    """The items joined by ``separator``, broken between items to stay within ``width`` where it can (a broken
    line ends with the separator's mark); the lines after the first are indented."""
    mark = separator.rstrip()
    lines = [items[0]]
    for k, item in enumerate(items[1:], 2):
        room = width - (len(mark) if k < len(items) else 0)
        if shown_length(lines[-1]) + len(separator) + shown_length(item) <= room:
            lines[-1] += separator + item
        else:
            lines[-1] += mark
            lines.append(INDENT + item)
    return [piece for line in lines for piece in _wrap(line, width)]


def _wrap(line: str, width: int) -> list[str]:
    """The line broken at spaces into pieces of at most ``width`` characters shown (a word longer than that stays
    whole), the pieces after the first indented."""
    if shown_length(line) <= width:
        return [line]
    indent = INDENT if line.startswith(INDENT) else ""
    first, *words = [word for word in line.split(" ") if word]  # a no-break space (French "jetons :") holds
    pieces = [indent + first]
    for word in words:
        if shown_length(pieces[-1]) + 1 + shown_length(word) <= width:
            pieces[-1] += " " + word
        else:
            pieces.append(INDENT + word)
    return pieces
