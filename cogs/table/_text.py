"""The words of the table, short enough for a phone (about 40 characters a line): cards, the round, the pot,
each player's line, the log, the showdown and the one-line summary of a finished hand.

Pure functions of the engine's hand and events. Cards are written by a ``CardText`` (the bot's card emojis, or
the text form when they are missing); members by their mention (which Discord shows as the member's name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.content.cardfaces import card_text
from bot.night.story import listed
from bot.poker import (
    Acted,
    BoardDealt,
    Card,
    Carried,
    Drew,
    Event,
    Game,
    Hand,
    HandValue,
    PotAwarded,
    Returned,
    RoundEnded,
    Shown,
)
from bot.poker.rankings import assassinated_words, bring_in_value
from cogs.render import CardText, cards, chips, hand_title, mention

STRUCTURE_SHORT = {"fixed-limit": "Limit", "pot-limit": "Pot limit", "no-limit": "No limit"}
BUTTON_MARK = "(D)"  # the dealer button, in text every phone draws (an emoji disc did not read as one)
TURN_MARK = "▶"
FLOP_STREETS = ("Preflop", "Flop", "Turn", "River")


def stakes_short(hand: Hand) -> str:
    """The stakes in the words players use: ``Limit 10/20`` (fixed limit: the small and the big bet), ``No limit
    5/10`` and ``Pot limit 5/10`` (the blinds), ``Stud: ante 2, bring-in 3, 10/20``; an ante-only table's ``Limit
    5/10 · antes 5`` or ``No limit · antes 5``; a table's ante after the blinds (``No limit 5/10 · ante 1``)."""
    stakes = hand.stakes
    name = STRUCTURE_SHORT[stakes.structure]
    if hand.game.is_stud:
        forced = f"ante {chips(stakes.ante)}, bring-in {chips(stakes.bring_in)}"
        if stakes.structure == "fixed-limit":
            return f"Stud: {forced}, {chips(stakes.small)}/{chips(stakes.big)}"
        return f"Stud, {name.lower()}: {forced}, bets from {chips(stakes.unit(1))}"
    ante = f" · ante {chips(stakes.ante)}" if stakes.ante else ""
    if not stakes.big_blind:
        if stakes.structure == "fixed-limit":
            return f"{name} {chips(stakes.small)}/{chips(stakes.big)} · antes {chips(stakes.ante)}"
        return f"{name} · antes {chips(stakes.ante)}"
    if stakes.structure == "fixed-limit":
        return f"{name} {chips(stakes.small)}/{chips(stakes.big)}{ante}"
    return f"{name} {chips(stakes.small_blind)}/{chips(stakes.big_blind)}{ante}"


def street_name(game_family: str, round_index: int) -> str:
    """A betting round's street: ``Preflop``, ``Flop``, ``Turn``, ``River``; stud's ``3rd street`` to ``7th
    street``; a draw game's ``Betting 2``."""
    if game_family == "flop" and round_index < len(FLOP_STREETS):
        return FLOP_STREETS[round_index]
    if game_family == "stud":
        number = round_index + 3
        return f"{number}{'rd' if number == 3 else 'th'} street"
    return f"Betting {round_index + 1}"


def round_line(hand: Hand) -> str:
    """Where the hand is: ``Betting 3 of 4 · big bet 20``, ``Draw 2 of 3``, ``Turn · big bet 20``, ``5th street ·
    big bet 20`` or ``Showdown``."""
    game = hand.game
    if hand.phase == "drawing":
        return f"Draw {hand.draw_number + 1} of {game.draws}"
    if hand.phase in ("showdown", "complete"):
        return "Showdown" if len(hand.in_hand()) > 1 else "Hand over"
    if game.family == "draw":
        line = f"Betting {hand.round + 1} of {game.betting_rounds}"
    else:
        line = street_name(game.family, hand.round)
    if hand.stakes.structure == "fixed-limit":
        size = hand.stakes.unit(hand.round + 1, game.default_big_bet_round)
        word = "big bet" if size == hand.stakes.big and hand.stakes.big != hand.stakes.small else "bet"
        line += f" · {word} {chips(size)}"
    return line


def board_line(hand: Hand, card: CardText = card_text) -> str | None:
    """The board's cards alone (a flop game once the flop is out; stud's shared card when the deck ran short),
    None when there is none."""
    return cards(hand.board, card) if hand.board else None


def bring_in_line(hand: Hand, users: Sequence[int], card: CardText = card_text) -> str | None:
    """Stud's third street while the bring-in is to be posted: who brings in and why (``@bob brings in: 2♣ is the
    lowest card``; razz: the highest). None otherwise."""
    if hand.bring_in_player is None or hand.round != 0 or hand.phase != "betting" or hand.actor is None:
        return None
    legal = hand.legal()
    if not legal.can_bring_in:
        return None
    seat = hand.bring_in_player
    up = hand.up_cards(seat)
    if not up:
        return None
    low = hand.game.ranking != "high"
    which = "highest" if low else "lowest"
    mine = bring_in_value(up[-1], low)
    # A player all in on his ante cannot bring in: the card is then the lowest among those who still have chips.
    passed = any(bring_in_value(hand.up_cards(i)[-1], low) > mine for i in hand.in_hand()
                 if i != seat and hand.up_cards(i) and not hand.up_cards(i)[-1].is_unknown)
    among = " of the players with chips" if passed else ""
    return f"{mention(users[seat])} brings in: {card(up[-1])} is the {which} card{among}"


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
    """What each player did last in this hand, or in this betting round (``calls 20``, ``checks``, ``draws 2``)."""
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
        # The street's total, as a raise says it ("raises to 40", "calls 40"); the button said what it added.
        return f"calls {chips(event.amount)}{all_in}"
    if event.verb == "bring in":
        return f"brings in {chips(event.amount)}{all_in}"
    if event.verb == "complete":
        return f"completes to {chips(event.amount)}{all_in}"
    return f"{'bets' if event.verb == 'bet' else 'raises to'} {chips(event.amount)}{all_in}"


def _draw_words(event: Drew, card: CardText = card_text) -> str:
    if not event.discarded:
        return "stands pat"
    words = f"draws {event.discarded}"
    if event.face_up:
        words += f" + 1 ({cards(event.face_up, card)} up)"
    return words


def player_lines(hand: Hand, users: Sequence[int], card: CardText = card_text) -> list[str]:
    """One short line per player: the turn and button marks, stack, bet this round (or a check), all in, draws;
    in stud his up cards (a folded player's too: everyone saw them), never his down cards, and no button (the
    dealer does not bet last in stud)."""
    checked = {seat for seat, words in last_actions(hand, this_round=True).items() if words == "checks"}
    stud = hand.game.is_stud
    lines: list[str] = []
    for seat in range(hand.players):
        marks = (TURN_MARK + " " if hand.actor == seat else "") + \
            (BUTTON_MARK + " " if seat == hand.players - 1 and not stud else "")
        parts = [f"{marks}{mention(users[seat])} {chips(hand.stacks[seat])}"]
        up = hand.up_cards(seat) if stud else ()
        if up:
            parts.append(cards(up, card))
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
            parts.append(drew_words(hand.drawn[seat]))
        if hand.face_up[seat]:
            parts.append("up " + cards(hand.face_up[seat], card))
        lines.append(" · ".join(parts))
    return lines


def event_line(event: Event, users: Sequence[int], card: CardText = card_text, game: Game | None = None
               ) -> str | None:
    """One public line for the log, or None for events the channel does not show. A call says the player's total
    for the street (``calls 40`` after ``raises to 40``, the blind he had in included), as a raise does. In stud
    (``game``) a betting round that closes with more to come names the street dealt next (``5th street``)."""
    if isinstance(event, RoundEnded) and game is not None and game.is_stud:
        return street_name("stud", event.round + 1) if event.round + 1 < game.betting_rounds else None
    if isinstance(event, Acted):
        return f"{mention(users[event.player])} {_act_words(event)}"
    if isinstance(event, Drew):
        return f"{mention(users[event.player])} {_draw_words(event, card)}"
    if isinstance(event, Returned):
        return f"{chips(event.amount)} back to {mention(users[event.player])} (uncalled)"
    if isinstance(event, BoardDealt):
        return f"{_board_word(event)}: {cards(event.cards, card)}"
    return None


def starts_street(event: Event, game: Game) -> bool:
    """Whether ``event`` begins a new street of a flop or stud game (the log then keeps only that street's lines:
    the table stays short enough for a phone)."""
    if isinstance(event, BoardDealt):
        return game.family == "flop"
    return isinstance(event, RoundEnded) and game.is_stud and event.round + 1 < game.betting_rounds


def _board_word(event: BoardDealt) -> str:
    """The street a board card came on: the flop, the turn, the river (stud's shared card: "Shared card")."""
    if len(event.board) == len(event.cards) == 3:
        return "Flop"
    if len(event.cards) == 1 and len(event.board) in (4, 5) and event.street in (2, 3):
        return FLOP_STREETS[event.street]
    return "Shared card" if len(event.cards) == 1 else "Board"


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
    """A shown hand's name, the engine's (Assassin's kill said plainly), unbroken by a phone's line wrap."""
    if shown.assassinated:
        return assassinated_words([c for c in shown.cards if c.is_two])
    return unbroken(shown.description)


def showdown_lines(hand: Hand, users: Sequence[int], card: CardText = card_text) -> list[str]:
    """The end of a hand: who won each pot and with what, the hands shown best first, side pots with who could
    win them, Assassin's kills and carried chips in words. A hi-lo game says who won the high and who the low
    (the low written ``8‑6‑4‑2‑A``), or that no low qualified, and what each winner takes in all."""
    lines: list[str] = []
    awards = [e for e in hand.events if isinstance(e, PotAwarded | Carried)]
    several = len({e.pot for e in awards}) > 1
    described = {s.seat: describe_shown(s, hand) for s in shown_hands(hand)}
    lows = {e.player: e.low for e in hand.events if isinstance(e, Shown) and e.low}
    pots = {index: pot for index, pot in enumerate(_final_pots(hand))}
    no_low = False
    for pot_index in sorted({e.pot for e in awards}):  # the main pot first
        name = ("the main pot" if pot_index == 0 else f"side pot {pot_index}") if several else "the pot"
        here = [e for e in awards if e.pot == pot_index]
        carried = next((e for e in here if isinstance(e, Carried)), None)
        if carried is not None:
            lines.append(f"🔁 {name.capitalize()} of {chips(carried.amount)} is carried to the next deal: "
                         "every hand for it holds a two")
            continue
        won = [e for e in here if isinstance(e, PotAwarded)]
        halves: dict[str, PotAwarded] = {e.half: e for e in won if e.half}
        if halves:
            lines += _split_lines(halves, name if several else "", users, described, lows)
        else:
            for event in won:
                lines.append(_award_line(event, name, several, users, described))
                if hand.game.hi_lo and not event.uncontested:
                    no_low = True
        if several and pot_index in pots:
            contenders = [users[i] for i in pots[pot_index] if not hand.folded[i]]
            if len(contenders) > 1:
                lines[-1] += f" ({' vs '.join(mention(u) for u in contenders)})"
    if no_low:
        lines.append("No low qualified: high takes it all.")
    if hand.game.hi_lo:
        lines += _amounts_won(hand, users)
    told = {e.winners[0] for e in awards if isinstance(e, PotAwarded) and not e.uncontested and e.half != "low"}
    for shown in shown_hands(hand):
        lines.append(_shown_line(shown, hand, users, card, described, lows, told))
    if hand.carried_in:
        lines.append(f"The pot held {chips(hand.carried_in)} chips carried from an earlier deal.")
    return lines


def named(users: Sequence[int]) -> str:
    """Members as a list a player reads: ``@a``, ``@a and @b``, ``@a, @b and @c``."""
    return listed([mention(u) for u in users])


def drew_words(drawn: Sequence[int]) -> str:
    """A player's draws in a hand: ``drew 2 then stood pat``."""
    return " then ".join(f"drew {k}" if k else "stood pat" for k in drawn)


def _shown_line(shown: ShownHand, hand: Hand, users: Sequence[int], card: CardText, described: dict[int, str],
                lows: dict[int, str], told: set[int]) -> str:
    """A hand shown down: its cards, what it makes (unless the line of the pot it won said it already), its low,
    in a draw game what its player drew, and why an Assassin hand has six cards."""
    parts = [f"{mention(users[shown.seat])}: {cards(shown.cards, card)}"]
    if shown.seat not in told or shown.assassinated:
        parts.append(described[shown.seat])
    if shown.seat in lows:
        parts.append(f"low {unbroken(lows[shown.seat])}")
    drawn = hand.drawn[shown.seat] if hand.game.family == "draw" else []
    if drawn:
        parts.append(drew_words(drawn))
    if len(shown.cards) > hand.game.hand_size:
        parts.append(f"{len(shown.cards)} cards: a two shown for one more")
    return " · ".join(parts)


def _award_line(event: PotAwarded, name: str, several: bool, users: Sequence[int], described: dict[int, str]) -> str:
    """A whole pot won: ``🏆 @bob wins 120 with Flush, ace high``."""
    who = named([users[w] for w in event.winners])
    amount = chips(event.amount) if len(event.winners) == 1 else " + ".join(chips(s) for s in event.shares)
    with_what = ""
    if not event.uncontested and event.winners[0] in described:
        with_what = f" with {described[event.winners[0]]}"
    verb = "split" if len(event.winners) > 1 else "wins"
    line = f"🏆 {who} {verb} {name} {amount}{with_what}" if several else f"🏆 {who} {verb} {amount}{with_what}"
    if event.uncontested and not several:
        line += " (everyone else folded)"
    return line


def _split_lines(halves: dict[str, PotAwarded], name: str, users: Sequence[int], described: dict[int, str],
                 lows: dict[int, str]) -> list[str]:
    """A hi-lo pot split in halves: one line for a scoop, else the high's line and the low's."""
    high, low = halves.get("high"), halves.get("low")
    of = f" {name}" if name else ""
    if high is not None and low is not None and high.winners == low.winners and len(high.winners) == 1:
        winner = high.winners[0]
        return [f"🏆 {mention(users[winner])} scoops{of} {chips(high.amount + low.amount)}: high "
                f"{described.get(winner, '')}, low {unbroken(lows.get(winner, ''))}"]
    lines: list[str] = []
    for word, event in (("High", high), ("Low", low)):
        if event is None:
            continue
        who = named([users[w] for w in event.winners])
        amount = chips(event.amount)  # a half split: the "Won:" line says each player's share
        verb = "split" if len(event.winners) > 1 else "wins"
        first = event.winners[0]
        what = described.get(first, "") if word == "High" else unbroken(lows.get(first, ""))
        with_what = f" with {what}" if what else ""
        lines.append(f"🏆 {word}{', ' + name if name else ''}: {who} {verb} {amount}{with_what}")
    return lines


def _amounts_won(hand: Hand, users: Sequence[int]) -> list[str]:
    """A hi-lo hand won by more than one player: what each takes in all (``Won: @alice 90 · @bob 30``)."""
    wins: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for winner, share in zip(event.winners, event.shares):
                wins[winner] = wins.get(winner, 0) + share
    if len(wins) < 2:
        return []
    return ["Won: " + " · ".join(f"{mention(users[seat])} {chips(amount)}"
                                 for seat, amount in sorted(wins.items(), key=lambda kv: -kv[1]))]


def _final_pots(hand: Hand) -> list[tuple[int, ...]]:
    return [pot.eligible for pot in hand.pots()]


def summary_line(hand: Hand, users: Sequence[int], number: int) -> str:
    """A finished hand in one line: ``#12 2-7 Triple Draw · 🏆 @dave 160 with Seven‑five low (7‑5‑4‑3‑2)``."""
    wins: dict[int, int] = {}
    halves: dict[int, set[str]] = {}  # a hi-lo hand: the halves each winner took ("" for a whole pot)
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for winner, share in zip(event.winners, event.shares):
                wins[winner] = wins.get(winner, 0) + share
                halves.setdefault(winner, set()).add(event.half)
    carried = hand.carried_out
    shown = {s.seat: s for s in shown_hands(hand)}
    lows = {e.player: e.low for e in hand.events if isinstance(e, Shown) and e.low}
    parts = []
    for seat, amount in sorted(wins.items(), key=lambda kv: -kv[1]):
        what = f" with {unbroken(shown[seat].description)}" if seat in shown and not shown[seat].assassinated else ""
        if halves.get(seat) == {"low"} and seat in lows:  # he won the low only: his low says why
            what = f" with {unbroken(lows[seat])}"
        parts.append(f"{mention(users[seat])} {chips(amount)}{what}")
    text = f"{hand_title(hand.game.name, number)} · " + ("🏆 " + ", ".join(parts) if parts else "no winner")
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


_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def drew_line(hand: Hand, seat: int, received: Sequence[Card], number: int) -> str:
    """The one line under a player's cards (shown large) after his draw: which hand, what he drew and what it
    makes, without the cards again (the new ones are the last of his hand): ``#1 · Draw 1 of 3: you drew 2 (the
    last two) · Pair of tens (T‑T‑J‑9‑5)``."""
    draw = max(1, len(hand.drawn[seat]))
    count = len(received)
    if not count:
        what = "you stand pat"
    elif count >= len(hand.holes[seat]):
        what = f"you drew {count} (all new)"
    else:
        what = f"you drew {count} (the last {_COUNTS.get(count, str(count))})" if count > 1 else \
            "you drew 1 (the last one)"
    value = hand_value(hand, seat)
    return f"#{number} · Draw {draw} of {hand.game.draws}: {what}" + (f" · {value}" if value else "")


def draw_note(hand: Hand, seat: int, thrown: Sequence[Card], received: Sequence[Card],
              card: CardText = card_text) -> str:
    """What a player threw and got at the draw just made."""
    number = max(1, len(hand.drawn[seat]))
    head = f"Draw {number} of {hand.game.draws}: "
    if not thrown:
        return head + "you stand pat."
    return head + f"threw {cards(thrown, card)}\ngot {cards(received, card)}"
