"""The words of the table, short enough for a phone (about 40 characters a line): cards, the round, the pot,
each player's line, the log, the showdown and the one-line summary of a finished hand.

Pure functions of the engine's hand and events. Cards are written by a ``CardText`` (the bot's card emojis, or
the text form when they are missing); members by their mention (which Discord shows as the member's name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.cardfaces import card_text
from bot.poker import (
    Acted,
    Card,
    Carried,
    Drew,
    Event,
    Hand,
    HandValue,
    PotAwarded,
    Returned,
    RoundEnded,
    Shown,
)
from cogs.render import CardText, cards, chips, mention

STRUCTURE_SHORT = {"fixed-limit": "Fixed", "pot-limit": "Pot limit", "no-limit": "No limit"}
BUTTON_MARK = "🔘"
TURN_MARK = "▶"


def stakes_short(hand: Hand) -> str:
    """``Fixed 10/20``, ``No limit 5/10`` or ``Antes 5``."""
    stakes = hand.stakes
    name = STRUCTURE_SHORT[stakes.structure]
    if stakes.big_blind:
        return f"{name} {chips(stakes.small_blind)}/{chips(stakes.big_blind)}"
    return f"{name} · antes {chips(stakes.ante)}"


def round_line(hand: Hand) -> str:
    """Where the hand is: ``Betting 3 of 4 · big bet 20``, ``Draw 2 of 3`` or ``Showdown``."""
    game = hand.game
    if hand.phase == "drawing":
        return f"Draw {hand.draw_number + 1} of {game.draws}"
    if hand.phase in ("showdown", "complete"):
        return "Showdown" if len(hand.in_hand()) > 1 else "Hand over"
    line = f"Betting {hand.round + 1} of {game.betting_rounds}"
    if hand.stakes.structure == "fixed-limit":
        size = hand.stakes.unit(hand.round + 1, game.default_big_bet_round)
        word = "big bet" if size == hand.stakes.big and hand.stakes.big != hand.stakes.small else "bet"
        line += f" · {word} {chips(size)}"
    return line


def pot_line(hand: Hand, users: Sequence[int]) -> str:
    """The pot as one number while betting goes on; the main and side pots with their players once a player is
    all in and the pots are settled for this round."""
    carried = f" (+{chips(hand.carried_in)} carried in)" if hand.carried_in else ""
    all_in = any(hand.is_all_in(i) for i in range(hand.players))
    settled = hand.phase != "betting" or not any(hand.bets)
    pots = hand.pots()
    if not all_in or not settled or len(pots) < 2:
        return f"Pot {chips(hand.pot_total)}{carried}"
    parts = [f"Main {chips(pots[0].amount)}{carried}"]
    for number, pot in enumerate(pots[1:], start=1):
        who = ", ".join(mention(users[i]) for i in pot.eligible)
        parts.append(f"Side {number}: {chips(pot.amount)} ({who})")
    return "\n".join(parts)


def last_actions(hand: Hand, *, this_round: bool = False) -> dict[int, str]:
    """What each player did last in this hand, or in this betting round (``calls 15``, ``checks``, ``draws 2``)."""
    last: dict[int, str] = {}
    for event in hand.events:
        if isinstance(event, Acted):
            last[event.player] = _act_words(event)
        elif isinstance(event, Drew):
            last[event.player] = _draw_words(event)
        elif isinstance(event, RoundEnded) and this_round:
            last.clear()
    return last


def _act_words(event: Acted) -> str:
    if event.verb in ("fold", "check"):
        return f"{event.verb}s"
    all_in = " (all in)" if event.all_in else ""
    if event.verb == "call":
        return f"calls {chips(event.added)}{all_in}"
    return f"{'bets' if event.verb == 'bet' else 'raises to'} {chips(event.amount)}{all_in}"


def _draw_words(event: Drew, card: CardText = card_text) -> str:
    if not event.discarded:
        return "stands pat"
    words = f"draws {event.discarded}"
    if event.face_up:
        words += f" + 1 ({cards(event.face_up, card)} up)"
    return words


def player_lines(hand: Hand, users: Sequence[int], card: CardText = card_text) -> list[str]:
    """One short line per player: the turn and button marks, stack, bet this round (or a check), all in, draws."""
    checked = {seat for seat, words in last_actions(hand, this_round=True).items() if words == "checks"}
    lines: list[str] = []
    for seat in range(hand.players):
        marks = (TURN_MARK + " " if hand.actor == seat else "") + \
            (BUTTON_MARK + " " if seat == hand.players - 1 else "")
        parts = [f"{marks}{mention(users[seat])} {chips(hand.stacks[seat])}"]
        if hand.folded[seat]:
            parts.append("folded")
        else:
            if hand.bets[seat]:
                parts.append(f"bet {chips(hand.bets[seat])}")
            elif seat in checked and hand.phase == "betting":
                parts.append("checks")
            if hand.stacks[seat] == 0:
                parts.append("**all in**")
        if hand.drawn[seat]:
            parts.append("drew " + " then ".join(str(k) if k else "pat" for k in hand.drawn[seat]))
        if hand.face_up[seat]:
            parts.append("up " + cards(hand.face_up[seat], card))
        lines.append(" · ".join(parts))
    return lines


def event_line(event: Event, users: Sequence[int], card: CardText = card_text) -> str | None:
    """One public line for the log, or None for events the channel does not show. A call says what it added
    (``calls 15``), as its button did."""
    if isinstance(event, Acted):
        return f"{mention(users[event.player])} {_act_words(event)}"
    if isinstance(event, Drew):
        return f"{mention(users[event.player])} {_draw_words(event, card)}"
    if isinstance(event, Returned):
        return f"{chips(event.amount)} back to {mention(users[event.player])} (uncalled)"
    return None


# ------------------------------------------------------------------ the end of a hand


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at the showdown, for ranking them."""

    seat: int
    cards: tuple[Card, ...]
    description: str
    assassinated: bool
    value: HandValue | None


def shown_hands(hand: Hand) -> list[ShownHand]:
    """The hands shown, best first (assassinated hands last, in the order shown)."""
    shown = [ShownHand(e.player, e.cards, e.description, e.assassinated, hand.shown.get(e.player))
             for e in hand.events if isinstance(e, Shown)]
    live = [s for s in shown if not s.assassinated and s.value is not None]
    live.sort(key=lambda s: s.value, reverse=True)  # type: ignore[arg-type, return-value]
    dead = [s for s in shown if s not in live]
    return live + dead


NON_BREAKING_HYPHEN = "\u2011"


def unbroken(description: str) -> str:
    """A hand's description that a phone does not wrap inside its ranks: ``7‑5‑4‑3‑2`` stays on one line."""
    return description.replace("-", NON_BREAKING_HYPHEN)


def describe_shown(shown: ShownHand, hand: Hand) -> str:
    """What a shown hand makes, in words (Assassin's kill said plainly), unbroken by a phone's line wrap."""
    if shown.assassinated:
        twos = [c for c in shown.cards if c.is_two]
        what = "a joker" if all(c.is_joker for c in twos) else "a two" if len(twos) == 1 else "twos"
        return f"assassinated (holds {what})"
    return unbroken(shown.description)


def showdown_lines(hand: Hand, users: Sequence[int], card: CardText = card_text) -> list[str]:
    """The end of a hand: who won each pot and with what, the hands shown best first, side pots with who could
    win them, Assassin's kills and carried chips in words."""
    lines: list[str] = []
    awards = [e for e in hand.events if isinstance(e, PotAwarded | Carried)]
    several = len(awards) > 1
    described = {s.seat: describe_shown(s, hand) for s in shown_hands(hand)}
    pots = {index: pot for index, pot in enumerate(_final_pots(hand))}
    for event in sorted(awards, key=lambda e: e.pot):  # the main pot first
        name = ("the main pot" if event.pot == 0 else f"side pot {event.pot}") if several else "the pot"
        if isinstance(event, Carried):
            lines.append(f"🔁 {name.capitalize()} of {chips(event.amount)} is carried to the next deal: "
                         "every hand for it holds a two")
            continue
        who = " and ".join(mention(users[w]) for w in event.winners)
        amount = chips(event.amount) if len(event.winners) == 1 else \
            " + ".join(chips(s) for s in event.shares)
        with_what = ""
        if not event.uncontested and event.winners[0] in described:
            with_what = f" with {described[event.winners[0]]}"
        verb = "split" if len(event.winners) > 1 else "wins"
        line = f"🏆 {who} {verb} {name} {amount}{with_what}" if several else f"🏆 {who} {verb} {amount}{with_what}"
        if several and event.pot in pots:
            contenders = [users[i] for i in pots[event.pot] if not hand.folded[i]]
            if len(contenders) > 1:
                line += f" ({' vs '.join(mention(u) for u in contenders)})"
        if event.uncontested and not several:
            line += " (everyone else folded)"
        lines.append(line)
    for shown in shown_hands(hand):
        lines.append(f"{mention(users[shown.seat])}: {cards(shown.cards, card)} · {described[shown.seat]}")
    if hand.carried_in:
        lines.append(f"The pot held {chips(hand.carried_in)} chips carried from an earlier deal.")
    return lines


def _final_pots(hand: Hand) -> list[tuple[int, ...]]:
    return [pot.eligible for pot in hand.pots()]


def summary_line(hand: Hand, users: Sequence[int], number: int) -> str:
    """A finished hand in one line: ``#12 2-7 Triple Draw · 🏆 @dave 160 with 7‑5‑4‑3‑2``."""
    wins: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for winner, share in zip(event.winners, event.shares):
                wins[winner] = wins.get(winner, 0) + share
    carried = hand.carried_out
    shown = {s.seat: s for s in shown_hands(hand)}
    parts = []
    for seat, amount in sorted(wins.items(), key=lambda kv: -kv[1]):
        what = f" with {unbroken(shown[seat].description)}" if seat in shown and not shown[seat].assassinated else ""
        parts.append(f"{mention(users[seat])} {chips(amount)}{what}")
    text = f"#{number} {hand.game.name} · " + ("🏆 " + ", ".join(parts) if parts else "no winner")
    if carried:
        text += f" · 🔁 {chips(carried)} carried"
    return text


# ------------------------------------------------------------------ a player's own cards


def private_hand(hand: Hand, seat: int, card: CardText = card_text) -> str:
    """A player's own cards and what they make (DM or ephemeral only)."""
    return f"{cards_line(hand, seat, card)}\n{hand_value(hand, seat)}".rstrip("\n")


def cards_line(hand: Hand, seat: int, card: CardText = card_text) -> str:
    """A player's own cards, alone (a message of them only shows them large)."""
    return cards(hand.holes[seat], card)


def hand_value(hand: Hand, seat: int) -> str:
    """What a player's own cards make ("Pair of fives (5-5-A-T-9)"); Assassin's two says it loses."""
    if hand.game.assassin and hand.is_assassinated(seat):
        return "Holds a two: it loses at a showdown."
    value = hand.value_of(seat)
    return unbroken(value.describe()) if value is not None else ""


def draw_report(hand: Hand, seat: int, thrown: Sequence[Card], received: Sequence[Card],
                card: CardText = card_text) -> str:
    """What a player threw and got at the draw just made, and his hand now."""
    return f"{draw_note(hand, seat, thrown, received, card)}\nNow: {private_hand(hand, seat, card)}"


def draw_note(hand: Hand, seat: int, thrown: Sequence[Card], received: Sequence[Card],
              card: CardText = card_text) -> str:
    """What a player threw and got at the draw just made."""
    number = max(1, len(hand.drawn[seat]))
    head = f"Draw {number} of {hand.game.draws}: "
    if not thrown:
        return head + "you stand pat."
    return head + f"threw {cards(thrown, card)}\ngot {cards(received, card)}"
