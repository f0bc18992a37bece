"""The words of the table, short enough for a phone (about 40 characters a line): cards, the round, the pot,
each player's line, the log, the showdown and the one-line summary of a finished hand.

Pure functions of the engine's hand and events. Cards are written by a ``CardText`` (the bot's card emojis, or
the text form when they are missing); members by their mention (which Discord shows as the member's name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.content.cardfaces import card_text
from bot.i18n import ENGLISH, Language, Text, say
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
    Structure,
)
from bot.poker import describe_shown as shown_words
from bot.poker.rankings import assassinated_words, bring_in_value
from cogs.render import CardText, cards, chips, hand_title, mention

BUTTON_MARK = "(D)"  # the dealer button, in text every phone draws (an emoji disc did not read as one)
TURN_MARK = "▶"
FLOP_STREETS = (Text("Preflop"), Text("Flop"), Text("Turn"), Text("River"))
STUD_STREETS = {3: Text("3rd street"), 4: Text("4th street"), 5: Text("5th street"), 6: Text("6th street"),
                7: Text("7th street")}


def stakes_short(hand: Hand, *, lang: Language = ENGLISH) -> str:
    """The stakes in the words players use: ``Limit 10/20`` (fixed limit: the small and the big bet), ``No limit
    5/10`` and ``Pot limit 5/10`` (the blinds), ``Stud: ante 2, bring-in 3, 10/20``; an ante-only table's ``Limit
    5/10 · antes 5`` or ``No limit · antes 5``; a table's ante after the blinds (``No limit 5/10 · ante 1``)."""
    stakes = hand.stakes
    structure = stakes.structure
    if hand.game.is_stud:
        if structure == "fixed-limit":
            return say(lang, "Stud: ante {ante}, bring-in {bring_in}, {small}/{big}", ante=stakes.ante,
                       bring_in=stakes.bring_in, small=stakes.small, big=stakes.big)
        if structure == "pot-limit":
            return say(lang, "Stud, pot limit: ante {ante}, bring-in {bring_in}, bets from {amount}",
                       ante=stakes.ante, bring_in=stakes.bring_in, amount=stakes.unit(1))
        return say(lang, "Stud, no limit: ante {ante}, bring-in {bring_in}, bets from {amount}",
                   ante=stakes.ante, bring_in=stakes.bring_in, amount=stakes.unit(1))
    if not stakes.big_blind:
        antes = say(lang, "antes {amount}", amount=stakes.ante)
        if structure == "fixed-limit":
            return f"{_limit(structure, stakes.small, stakes.big, lang)} · {antes}"
        first = say(lang, "Pot limit") if structure == "pot-limit" else say(lang, "No limit")
        return f"{first} · {antes}"
    if structure == "fixed-limit":
        line = _limit(structure, stakes.small, stakes.big, lang)
    else:
        line = _limit(structure, stakes.small_blind, stakes.big_blind, lang)
    return " · ".join([line, say(lang, "ante {amount}", amount=stakes.ante)]) if stakes.ante else line


def _limit(structure: Structure, small: int, big: int, lang: Language) -> str:
    """``Limit 10/20``, ``Pot limit 5/10``, ``No limit 5/10``."""
    if structure == "fixed-limit":
        return say(lang, "Limit {small}/{big}", small=small, big=big)
    if structure == "pot-limit":
        return say(lang, "Pot limit {small}/{big}", small=small, big=big)
    return say(lang, "No limit {small}/{big}", small=small, big=big)


def street_name(game_family: str, round_index: int, *, lang: Language = ENGLISH) -> str:
    """A betting round's street: ``Preflop``, ``Flop``, ``Turn``, ``River``; stud's ``3rd street`` to ``7th
    street``; a draw game's ``Betting 2``."""
    if game_family == "flop" and round_index < len(FLOP_STREETS):
        return FLOP_STREETS[round_index].worded(lang)
    if game_family == "stud" and round_index + 3 in STUD_STREETS:
        return STUD_STREETS[round_index + 3].worded(lang)
    return say(lang, "Betting {number}", number=str(round_index + 1))


def round_line(hand: Hand, *, lang: Language = ENGLISH) -> str:
    """Where the hand is: ``Betting 3 of 4 · big bet 20``, ``Draw 2 of 3``, ``Turn · big bet 20``, ``5th street ·
    big bet 20`` or ``Showdown``."""
    game = hand.game
    if hand.phase == "drawing":
        return say(lang, "Draw {number} of {count}", number=str(hand.draw_number + 1), count=str(game.draws))
    if hand.phase in ("showdown", "complete"):
        return say(lang, "Showdown") if len(hand.in_hand()) > 1 else say(lang, "Hand over")
    if game.family == "draw":
        line = say(lang, "Betting {number} of {count}", number=str(hand.round + 1), count=str(game.betting_rounds))
    else:
        line = street_name(game.family, hand.round, lang=lang)
    if hand.stakes.structure == "fixed-limit":
        size = hand.stakes.unit(hand.round + 1, game.default_big_bet_round)
        big = size == hand.stakes.big and hand.stakes.big != hand.stakes.small
        line += " · " + (say(lang, "big bet {amount}", amount=size) if big else say(lang, "bet {amount}", amount=size))
    return line


def board_line(hand: Hand, card: CardText = card_text) -> str | None:
    """The board's cards alone (a flop game once the flop is out; stud's shared card when the deck ran short),
    None when there is none."""
    return cards(hand.board, card) if hand.board else None


def bring_in_line(hand: Hand, users: Sequence[int], card: CardText = card_text, *, lang: Language = ENGLISH
                  ) -> str | None:
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
    mine = bring_in_value(up[-1], low)
    # A player all in on his ante cannot bring in: the card is then the lowest among those who still have chips.
    passed = any(bring_in_value(hand.up_cards(i)[-1], low) > mine for i in hand.in_hand()
                 if i != seat and hand.up_cards(i) and not hand.up_cards(i)[-1].is_unknown)
    who, shown = mention(users[seat]), card(up[-1])
    if low:
        return (say(lang, "{who} brings in: {card} is the highest card of the players with chips", who=who, card=shown)
                if passed else say(lang, "{who} brings in: {card} is the highest card", who=who, card=shown))
    return (say(lang, "{who} brings in: {card} is the lowest card of the players with chips", who=who, card=shown)
            if passed else say(lang, "{who} brings in: {card} is the lowest card", who=who, card=shown))


def pot_line(hand: Hand, users: Sequence[int], *, lang: Language = ENGLISH) -> str:
    """The pot as one number while betting goes on; the main and side pots with their players once a player is
    all in and the pots are settled for this round."""
    carried = hand.carried_in
    all_in = any(hand.is_all_in(i) for i in range(hand.players))
    settled = hand.phase != "betting" or not any(hand.bets)
    pots = hand.pots()
    if not all_in or not settled or len(pots) < 2:
        if carried:
            return say(lang, "Pot {amount} (+{carried} carried in)", amount=hand.pot_total, carried=carried)
        return say(lang, "Pot {amount}", amount=hand.pot_total)
    parts = [say(lang, "Main {amount} (+{carried} carried in)", amount=pots[0].amount, carried=carried) if carried
             else say(lang, "Main {amount}", amount=pots[0].amount)]
    for number, pot in enumerate(pots[1:], start=1):
        who = ", ".join(mention(users[i]) for i in pot.eligible)
        parts.append(say(lang, "Side {number}: {amount} ({players})", number=str(number), amount=pot.amount,
                         players=who))
    return "\n".join(parts)


def _checked(hand: Hand) -> set[int]:
    """The seats whose last move in this betting round is a check."""
    last: dict[int, bool] = {}
    for event in hand.events:
        if isinstance(event, Acted):
            last[event.player] = event.verb == "check"
        elif isinstance(event, Drew):
            last[event.player] = False
        elif isinstance(event, RoundEnded):
            last.clear()
    return {seat for seat, checked in last.items() if checked}


def _acted_line(event: Acted, who: str, lang: Language) -> str:
    """A betting move in the log. A call says the street's total, as a raise says it (``raises to 40``, ``calls
    40``); the button said what it added."""
    amount, all_in = event.amount, event.all_in
    if event.verb == "fold":
        return say(lang, "{who} folds", who=who)
    if event.verb == "check":
        return say(lang, "{who} checks", who=who)
    if event.verb == "call":
        return (say(lang, "{who} calls {amount} (all in)", who=who, amount=amount) if all_in
                else say(lang, "{who} calls {amount}", who=who, amount=amount))
    if event.verb == "bring in":
        return (say(lang, "{who} brings in {amount} (all in)", who=who, amount=amount) if all_in
                else say(lang, "{who} brings in {amount}", who=who, amount=amount))
    if event.verb == "complete":
        return (say(lang, "{who} completes to {amount} (all in)", who=who, amount=amount) if all_in
                else say(lang, "{who} completes to {amount}", who=who, amount=amount))
    if event.verb == "bet":
        return (say(lang, "{who} bets {amount} (all in)", who=who, amount=amount) if all_in
                else say(lang, "{who} bets {amount}", who=who, amount=amount))
    return (say(lang, "{who} raises to {amount} (all in)", who=who, amount=amount) if all_in
            else say(lang, "{who} raises to {amount}", who=who, amount=amount))


def _drew_line(event: Drew, who: str, card: CardText, lang: Language) -> str:
    """A draw in the log: ``@bob draws 2``, ``@bob stands pat``; a card dealt face up too (``+ 1 (2♣ up)``)."""
    if not event.discarded:
        return say(lang, "{who} stands pat", who=who)
    if event.face_up:
        return say(lang, "{who} draws {count} + 1 ({cards} up)", who=who, count=event.discarded,
                   cards=cards(event.face_up, card))
    return say(lang, "{who} draws {count}", who=who, count=event.discarded)


def player_lines(hand: Hand, users: Sequence[int], card: CardText = card_text, *, lang: Language = ENGLISH
                 ) -> list[str]:
    """One short line per player: the turn and button marks, stack, bet this round (or a check), all in, draws;
    in stud his up cards (a folded player's too: everyone saw them), never his down cards, and no button (the
    dealer does not bet last in stud)."""
    checked = _checked(hand)
    stud = hand.game.is_stud
    lines: list[str] = []
    for seat in range(hand.players):
        marks = (TURN_MARK + " " if hand.actor == seat else "") + \
            (BUTTON_MARK + " " if seat == hand.players - 1 and not stud else "")
        parts = [f"{marks}{mention(users[seat])} {chips(hand.stacks[seat], lang=lang)}"]
        up = hand.up_cards(seat) if stud else ()
        if up:
            parts.append(cards(up, card))
        if hand.folded[seat]:
            parts.append(say(lang, "folded"))
        else:
            if hand.bets[seat]:
                parts.append(say(lang, "bet {amount}", amount=hand.bets[seat]))
            elif seat in checked and hand.phase == "betting":
                parts.append(say(lang, "checks"))
            if hand.stacks[seat] == 0:
                parts.append(say(lang, "**all in**"))
        if hand.drawn[seat]:
            parts.append(drew_words(hand.drawn[seat], lang=lang))
        if hand.face_up[seat]:
            parts.append(say(lang, "up {cards}", cards=cards(hand.face_up[seat], card)))
        lines.append(" · ".join(parts))
    return lines


def event_line(event: Event, users: Sequence[int], card: CardText = card_text, game: Game | None = None, *,
               lang: Language = ENGLISH) -> str | None:
    """One public line for the log, or None for events the channel does not show. A call says the player's total
    for the street (``calls 40`` after ``raises to 40``, the blind he had in included), as a raise does. In stud
    (``game``) a betting round that closes with more to come names the street dealt next (``5th street``)."""
    if isinstance(event, RoundEnded) and game is not None and game.is_stud:
        return street_name("stud", event.round + 1, lang=lang) if event.round + 1 < game.betting_rounds else None
    if isinstance(event, Acted):
        return _acted_line(event, mention(users[event.player]), lang)
    if isinstance(event, Drew):
        return _drew_line(event, mention(users[event.player]), card, lang)
    if isinstance(event, Returned):
        return say(lang, "{amount} back to {who} (uncalled)", amount=event.amount, who=mention(users[event.player]))
    if isinstance(event, BoardDealt):
        return _board_line(event, cards(event.cards, card), lang)
    return None


def starts_street(event: Event, game: Game) -> bool:
    """Whether ``event`` begins a new street of a flop or stud game (the log then keeps only that street's lines:
    the table stays short enough for a phone)."""
    if isinstance(event, BoardDealt):
        return game.family == "flop"
    return isinstance(event, RoundEnded) and game.is_stud and event.round + 1 < game.betting_rounds


def _board_line(event: BoardDealt, dealt: str, lang: Language) -> str:
    """Board cards dealt, with the street they came on: the flop, the turn, the river (stud's shared card:
    "Shared card")."""
    if len(event.board) == len(event.cards) == 3:
        return say(lang, "Flop: {cards}", cards=dealt)
    if len(event.cards) == 1 and len(event.board) in (4, 5) and event.street in (2, 3):
        return (say(lang, "Turn: {cards}", cards=dealt) if event.street == 2
                else say(lang, "River: {cards}", cards=dealt))
    return (say(lang, "Shared card: {cards}", cards=dealt) if len(event.cards) == 1
            else say(lang, "Board: {cards}", cards=dealt))


# ------------------------------------------------------------------ the end of a hand


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at the showdown, for ranking them (``description``: what it makes, worded)."""

    seat: int
    cards: tuple[Card, ...]
    description: str
    assassinated: bool
    value: HandValue | None


def shown_hands(hand: Hand, *, lang: Language = ENGLISH) -> list[ShownHand]:
    """The hands shown, best first (assassinated hands last, in the order shown), described in ``lang``."""
    shown = [ShownHand(e.player, e.cards, shown_words(e, lang=lang), e.assassinated, hand.shown.get(e.player))
             for e in hand.events if isinstance(e, Shown)]
    live = [s for s in shown if not s.assassinated and s.value is not None]
    live.sort(key=lambda s: s.value, reverse=True)  # type: ignore[arg-type, return-value]
    dead = [s for s in shown if s not in live]
    return live + dead


NON_BREAKING_HYPHEN = "\u2011"


def unbroken(description: str) -> str:
    """A hand's description that a phone does not wrap inside its ranks: ``7‑5‑4‑3‑2`` stays on one line."""
    return description.replace("-", NON_BREAKING_HYPHEN)


def describe_shown(shown: ShownHand, hand: Hand, *, lang: Language = ENGLISH) -> str:
    """A shown hand's name, the engine's (Assassin's kill said plainly), unbroken by a phone's line wrap."""
    if shown.assassinated:
        return assassinated_words([c for c in shown.cards if c.is_two], lang=lang)
    return unbroken(shown.description)


@dataclass(frozen=True, slots=True)
class _Pot:
    """One of several pots of a hand: ``index`` 0 the main pot, then the side pots."""

    index: int


def showdown_lines(hand: Hand, users: Sequence[int], card: CardText = card_text, *, lang: Language = ENGLISH
                   ) -> list[str]:
    """The end of a hand: who won each pot and with what, the hands shown best first, side pots with who could
    win them, Assassin's kills and carried chips in words. A hi-lo game says who won the high and who the low
    (the low written ``8‑6‑4‑2‑A``), or that no low qualified, and what each winner takes in all."""
    lines: list[str] = []
    awards = [e for e in hand.events if isinstance(e, PotAwarded | Carried)]
    several = len({e.pot for e in awards}) > 1
    described = {s.seat: describe_shown(s, hand, lang=lang) for s in shown_hands(hand, lang=lang)}
    lows = {e.player: e.low for e in hand.events if isinstance(e, Shown) and e.low}
    pots = {index: pot for index, pot in enumerate(_final_pots(hand))}
    no_low = False
    for pot_index in sorted({e.pot for e in awards}):  # the main pot first
        pot = _Pot(pot_index) if several else None
        here = [e for e in awards if e.pot == pot_index]
        carried = next((e for e in here if isinstance(e, Carried)), None)
        if carried is not None:
            lines.append(_carried_line(pot, carried.amount, lang))
            continue
        won = [e for e in here if isinstance(e, PotAwarded)]
        halves: dict[str, PotAwarded] = {e.half: e for e in won if e.half}
        if halves:
            lines += _split_lines(halves, pot, users, described, lows, lang=lang)
        else:
            for event in won:
                lines.append(_award_line(event, pot, users, described, lang))
                if hand.game.hi_lo and not event.uncontested:
                    no_low = True
        if several and pot_index in pots:
            contenders = [mention(users[i]) for i in pots[pot_index] if not hand.folded[i]]
            if len(contenders) > 1:
                lines[-1] += f" ({_versus(contenders, lang)})"
    if no_low:
        lines.append(say(lang, "No low qualified: high takes it all."))
    if hand.game.hi_lo:
        lines += _amounts_won(hand, users, lang)
    told = {e.winners[0] for e in awards if isinstance(e, PotAwarded) and not e.uncontested and e.half != "low"}
    for shown in shown_hands(hand, lang=lang):
        lines.append(_shown_line(shown, hand, users, card, described, lows, told, lang))
    if hand.carried_in:
        lines.append(say(lang, "The pot held {amount} chips carried from an earlier deal.", amount=hand.carried_in))
    return lines


def _versus(names: Sequence[str], lang: Language) -> str:
    """Who could win a side pot: ``@a vs @b vs @c``."""
    line = names[0]
    for name in names[1:]:
        line = say(lang, "{first} vs {second}", first=line, second=name)
    return line


def _carried_line(pot: _Pot | None, amount: int, lang: Language) -> str:
    """Assassin: a pot no hand could win, carried to the next deal."""
    if pot is None:
        return say(lang, "🔁 The pot of {amount} is carried to the next deal: every hand for it holds a two",
                   amount=amount)
    if pot.index == 0:
        return say(lang, "🔁 The main pot of {amount} is carried to the next deal: every hand for it holds a two",
                   amount=amount)
    return say(lang, "🔁 Side pot {number} of {amount} is carried to the next deal: every hand for it holds a two",
               number=str(pot.index), amount=amount)


def named(users: Sequence[int], *, lang: Language = ENGLISH) -> str:
    """Members as a list a player reads: ``@a``, ``@a and @b``, ``@a, @b and @c``."""
    return listed([mention(u) for u in users], lang=lang)


def drew_words(drawn: Sequence[int], *, lang: Language = ENGLISH) -> str:
    """A player's draws in a hand: ``drew 2 then stood pat``."""
    words = [say(lang, "drew {count}", count=k) if k else say(lang, "stood pat") for k in drawn]
    line = words[0] if words else ""
    for then in words[1:]:
        line = say(lang, "{before} then {after}", before=line, after=then)
    return line


def _shown_line(shown: ShownHand, hand: Hand, users: Sequence[int], card: CardText, described: dict[int, str],
                lows: dict[int, str], told: set[int], lang: Language) -> str:
    """A hand shown down: its cards, what it makes (unless the line of the pot it won said it already), its low,
    in a draw game what its player drew, and why an Assassin hand has six cards."""
    parts = [f"{mention(users[shown.seat])}: {cards(shown.cards, card)}"]
    if shown.seat not in told or shown.assassinated:
        parts.append(described[shown.seat])
    if shown.seat in lows:
        parts.append(say(lang, "low {low}", low=unbroken(lows[shown.seat])))
    drawn = hand.drawn[shown.seat] if hand.game.family == "draw" else []
    if drawn:
        parts.append(drew_words(drawn, lang=lang))
    if len(shown.cards) > hand.game.hand_size:
        parts.append(say(lang, "{count} cards: a two shown for one more", count=len(shown.cards)))
    return " · ".join(parts)


def _award_line(event: PotAwarded, pot: _Pot | None, users: Sequence[int], described: dict[int, str],
                lang: Language) -> str:
    """A whole pot won: ``🏆 @bob wins 120 with Flush, ace high`` (``pot``: which of several pots)."""
    who = named([users[w] for w in event.winners], lang=lang)
    split = len(event.winners) > 1
    amount = " + ".join(chips(s, lang=lang) for s in event.shares) if split else chips(event.amount, lang=lang)
    hand = described[event.winners[0]] if not event.uncontested and event.winners[0] in described else ""
    if pot is None:
        if hand:
            return (say(lang, "🏆 {who} split {amount} with {hand}", who=who, amount=amount, hand=hand) if split
                    else say(lang, "🏆 {who} wins {amount} with {hand}", who=who, amount=amount, hand=hand))
        if event.uncontested:
            return (say(lang, "🏆 {who} split {amount} (everyone else folded)", who=who, amount=amount) if split
                    else say(lang, "🏆 {who} wins {amount} (everyone else folded)", who=who, amount=amount))
        return (say(lang, "🏆 {who} split {amount}", who=who, amount=amount) if split
                else say(lang, "🏆 {who} wins {amount}", who=who, amount=amount))
    if pot.index == 0:
        if hand:
            return (say(lang, "🏆 {who} split the main pot {amount} with {hand}", who=who, amount=amount, hand=hand)
                    if split else
                    say(lang, "🏆 {who} wins the main pot {amount} with {hand}", who=who, amount=amount, hand=hand))
        return (say(lang, "🏆 {who} split the main pot {amount}", who=who, amount=amount) if split
                else say(lang, "🏆 {who} wins the main pot {amount}", who=who, amount=amount))
    number = str(pot.index)
    if hand:
        return (say(lang, "🏆 {who} split side pot {number} {amount} with {hand}", who=who, number=number,
                    amount=amount, hand=hand) if split else
                say(lang, "🏆 {who} wins side pot {number} {amount} with {hand}", who=who, number=number,
                    amount=amount, hand=hand))
    return (say(lang, "🏆 {who} split side pot {number} {amount}", who=who, number=number, amount=amount) if split
            else say(lang, "🏆 {who} wins side pot {number} {amount}", who=who, number=number, amount=amount))


def _split_lines(halves: dict[str, PotAwarded], pot: _Pot | None, users: Sequence[int], described: dict[int, str],
                 lows: dict[int, str], *, lang: Language = ENGLISH) -> list[str]:
    """A hi-lo pot split in halves: one line for a scoop, else the high's line and the low's (``pot``: which of
    several pots)."""
    high, low = halves.get("high"), halves.get("low")
    if high is not None and low is not None and high.winners == low.winners and len(high.winners) == 1:
        winner = high.winners[0]
        who, amount = mention(users[winner]), high.amount + low.amount
        best, worst = described.get(winner, ""), unbroken(lows.get(winner, ""))
        if not pot:
            return [say(lang, "🏆 {who} scoops {amount}: high {high}, low {low}", who=who, amount=amount, high=best,
                        low=worst)]
        if pot.index == 0:
            return [say(lang, "🏆 {who} scoops the main pot {amount}: high {high}, low {low}", who=who, amount=amount,
                        high=best, low=worst)]
        return [say(lang, "🏆 {who} scoops side pot {number} {amount}: high {high}, low {low}", who=who,
                    number=str(pot.index), amount=amount, high=best, low=worst)]
    lines: list[str] = []
    for half, event in (("high", high), ("low", low)):
        if event is None:
            continue
        who = named([users[w] for w in event.winners], lang=lang)
        amount = event.amount  # a half split: the "Won:" line says each player's share
        first = event.winners[0]
        what = described.get(first, "") if half == "high" else unbroken(lows.get(first, ""))
        if len(event.winners) > 1:
            won = (say(lang, "{who} split {amount} with {hand}", who=who, amount=amount, hand=what) if what
                   else say(lang, "{who} split {amount}", who=who, amount=amount))
        else:
            won = (say(lang, "{who} wins {amount} with {hand}", who=who, amount=amount, hand=what) if what
                   else say(lang, "{who} wins {amount}", who=who, amount=amount))
        lines.append(say(lang, "🏆 {half}: {won}", half=_half_name(half, pot, lang), won=won))
    return lines


def _half_name(half: str, pot: _Pot | None, lang: Language) -> str:
    """A hi-lo pot's half: ``High``, ``Low, the main pot``, ``High, side pot 2``."""
    high = half == "high"
    if not pot:
        return say(lang, "High") if high else say(lang, "Low")
    if pot.index == 0:
        return say(lang, "High, the main pot") if high else say(lang, "Low, the main pot")
    number = str(pot.index)
    return (say(lang, "High, side pot {number}", number=number) if high
            else say(lang, "Low, side pot {number}", number=number))


def _amounts_won(hand: Hand, users: Sequence[int], lang: Language) -> list[str]:
    """A hi-lo hand won by more than one player: what each takes in all (``Won: @alice 90 · @bob 30``)."""
    wins: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for winner, share in zip(event.winners, event.shares):
                wins[winner] = wins.get(winner, 0) + share
    if len(wins) < 2:
        return []
    return [say(lang, "Won: {amounts}", amounts=" · ".join(
        f"{mention(users[seat])} {chips(amount, lang=lang)}"
        for seat, amount in sorted(wins.items(), key=lambda kv: -kv[1])))]


def _final_pots(hand: Hand) -> list[tuple[int, ...]]:
    return [pot.eligible for pot in hand.pots()]


def summary_line(hand: Hand, users: Sequence[int], number: int, *, lang: Language = ENGLISH) -> str:
    """A finished hand in one line: ``#12 2-7 Triple Draw · 🏆 @dave 160 with Seven‑five low (7‑5‑4‑3‑2)``."""
    wins: dict[int, int] = {}
    halves: dict[int, set[str]] = {}  # a hi-lo hand: the halves each winner took ("" for a whole pot)
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for winner, share in zip(event.winners, event.shares):
                wins[winner] = wins.get(winner, 0) + share
                halves.setdefault(winner, set()).add(event.half)
    carried = hand.carried_out
    shown = {s.seat: s for s in shown_hands(hand, lang=lang)}
    lows = {e.player: e.low for e in hand.events if isinstance(e, Shown) and e.low}
    parts = []
    for seat, amount in sorted(wins.items(), key=lambda kv: -kv[1]):
        what = unbroken(shown[seat].description) if seat in shown and not shown[seat].assassinated else ""
        if halves.get(seat) == {"low"} and seat in lows:  # he won the low only: his low says why
            what = unbroken(lows[seat])
        who = mention(users[seat])
        parts.append(say(lang, "{who} {amount} with {hand}", who=who, amount=amount, hand=what) if what
                     else f"{who} {chips(amount, lang=lang)}")
    won = "🏆 " + ", ".join(parts) if parts else say(lang, "no winner")
    text = f"{hand_title(hand.game.name, number, lang=lang)} · {won}"
    if carried:
        text += " · " + say(lang, "🔁 {amount} carried", amount=carried)
    return text


# ------------------------------------------------------------------ a player's own cards


def private_hand(hand: Hand, seat: int, card: CardText = card_text, *, lang: Language = ENGLISH) -> str:
    """A player's own cards and what they make (DM or ephemeral only)."""
    return f"{cards_line(hand, seat, card)}\n{hand_value(hand, seat, lang=lang)}".rstrip("\n")


def cards_line(hand: Hand, seat: int, card: CardText = card_text) -> str:
    """A player's own cards, alone (a message of them only shows them large)."""
    return cards(hand.holes[seat], card)


def hand_value(hand: Hand, seat: int, *, lang: Language = ENGLISH) -> str:
    """What a player's own cards make ("Pair of fives (5-5-A-T-9)"); Assassin's two says it loses."""
    if hand.game.assassin and hand.is_assassinated(seat):
        return say(lang, "Holds a two: it loses at a showdown.")
    value = hand.value_of(seat)
    return unbroken(value.describe(lang=lang)) if value is not None else ""


def draw_report(hand: Hand, seat: int, thrown: Sequence[Card], received: Sequence[Card],
                card: CardText = card_text, *, lang: Language = ENGLISH) -> str:
    """What a player threw and got at the draw just made, and his hand now."""
    now = say(lang, "Now: {hand}", hand=private_hand(hand, seat, card, lang=lang))
    return f"{draw_note(hand, seat, thrown, received, card, lang=lang)}\n{now}"


# "You drew 2 (the last two)": the new cards are the last of his hand, named by their count.
_LAST = {2: Text("you drew 2 (the last two)"), 3: Text("you drew 3 (the last three)"),
         4: Text("you drew 4 (the last four)"), 5: Text("you drew 5 (the last five)"),
         6: Text("you drew 6 (the last six)"), 7: Text("you drew 7 (the last seven)")}


def drew_line(hand: Hand, seat: int, received: Sequence[Card], number: int, *, lang: Language = ENGLISH) -> str:
    """The one line under a player's cards (shown large) after his draw: which hand, what he drew and what it
    makes, without the cards again (the new ones are the last of his hand): ``#1 · Draw 1 of 3: you drew 2 (the
    last two) · Pair of tens (T‑T‑J‑9‑5)``."""
    draw = max(1, len(hand.drawn[seat]))
    count = len(received)
    if not count:
        what = say(lang, "you stand pat")
    elif count >= len(hand.holes[seat]):
        what = say(lang, "you drew {count} (all new)", count=count)
    elif count == 1:
        what = say(lang, "you drew 1 (the last one)")
    else:
        last = _LAST.get(count)
        what = last.worded(lang) if last is not None else \
            say(lang, "you drew {count} (the last {count})", count=count)
    line = say(lang, "#{number} · Draw {draw} of {count}: {what}", number=str(number), draw=str(draw),
               count=str(hand.game.draws), what=what)
    value = hand_value(hand, seat, lang=lang)
    return f"{line} · {value}" if value else line


def draw_note(hand: Hand, seat: int, thrown: Sequence[Card], received: Sequence[Card],
              card: CardText = card_text, *, lang: Language = ENGLISH) -> str:
    """What a player threw and got at the draw just made."""
    number, draws = str(max(1, len(hand.drawn[seat]))), str(hand.game.draws)
    if not thrown:
        return say(lang, "Draw {number} of {count}: you stand pat.", number=number, count=draws)
    return say(lang, "Draw {number} of {count}: threw {thrown}\ngot {received}", number=number, count=draws,
               thrown=cards(thrown, card), received=cards(received, card))
