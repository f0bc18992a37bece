"""A player's own cards in the flop and stud games, for his private message, his DMs and My hand: his cards in the
order dealt (shown large), in stud which are down and which up, the board beside them, and his best hand as
players say it: ``Two pair, kings and sevens · low 8‑6‑4‑2‑A``, or before he has five cards ``Pair of sevens``,
``Ace high``, razz's ``7‑4‑A``. The draw games keep ``_text``'s words.

Pure functions of the engine's hand and a seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from bot.content.cardfaces import card_text
from bot.i18n import ENGLISH, Language, capitalized, say
from bot.poker import BoardDealt, Card, Carried, Dealt, Event, Hand, PotAwarded
from bot.poker.rankings import HIGH_CARD, PAIR, QUADS, RANK_WORDS, TRIPS, TWO_PAIR, rank_char
from cogs.render import CardText, cards, hand_title

from . import _text


def _english(user: int) -> Language:
    return ENGLISH


def cards_line(hand: Hand, seat: int, card: CardText = card_text) -> str:
    """His cards alone, in the order dealt (stud: down and up as they came), for a message of them only, which
    Discord shows large."""
    if hand.game.family == "draw":
        return _text.cards_line(hand, seat, card)
    return cards(hand.holes[seat], card)


def beside_lines(hand: Hand, seat: int, card: CardText = card_text, *, lang: Language = ENGLISH) -> list[str]:
    """What goes under his cards: in stud ``Down A♠ K♠ · up 7♣ 8♥``; the board once dealt (stud's shared card
    when the deck runs short)."""
    lines: list[str] = []
    if hand.game.is_stud:
        down, up = down_and_up(hand, seat)
        lines.append(say(lang, "Down {down} · up {up}", down=cards(down, card), up=cards(up, card)) if up
                     else say(lang, "Down {down}", down=cards(down, card)))
    if hand.board and hand.game.family != "draw":
        board = cards(hand.board, card)
        lines.append(say(lang, "Shared {cards}", cards=board) if hand.game.is_stud
                     else say(lang, "Board {cards}", cards=board))
    return lines


def down_and_up(hand: Hand, seat: int) -> tuple[list[Card], list[Card]]:
    """His cards dealt face down and those dealt face up, each in the order dealt."""
    up = list(hand.up_cards(seat))
    down: list[Card] = []
    waiting = list(up)
    for held in hand.holes[seat]:
        if waiting and held == waiting[0]:
            waiting.pop(0)
        else:
            down.append(held)
    return down, up


def best_hand(hand: Hand, seat: int, *, lang: Language = ENGLISH) -> str:
    """His best hand in a few words (the high, then ``low 8‑6‑4‑2‑A`` in a hi-lo game when he has one); the best he
    has so far before he holds five cards; "" when nothing can be said (unknown cards)."""
    if hand.game.family == "draw":
        return _text.hand_value(hand, seat, lang=lang)
    value = hand.value_of(seat)
    words = value.describe(lang=lang) if value is not None else _partial_words(hand, seat, lang)
    low = hand.low_value_of(seat)
    if low is not None:
        words = " · ".join([words, say(lang, "low {low}", low=low.dashed())]) if words \
            else say(lang, "Low {low}", low=low.dashed())
    return _text.unbroken(words)


def caption(hand: Hand, seat: int, number: int, card: CardText = card_text, *, lang: Language = ENGLISH) -> str:
    """The words under his large cards in his private message: the board or his down and up cards, then which
    hand and what he holds (``Texas Hold'em · #5 · Pair of sevens``)."""
    title = hand_title(hand.game.name, number, lang=lang)
    if hand.game.family == "draw":
        return f"{title} · {_text.hand_value(hand, seat, lang=lang)}"
    best = best_hand(hand, seat, lang=lang)
    heading = title + (f" · {best}" if best else "")
    return "\n".join([*beside_lines(hand, seat, card, lang=lang), heading])


def under_cards(hand: Hand, seat: int, line: str, card: CardText = card_text, *, lang: Language = ENGLISH) -> str:
    """What goes under his large cards after his move or at the hand's end: in stud his down and up cards, the
    board once dealt, then ``line`` (in a draw game, ``line`` alone)."""
    return "\n".join([*beside_lines(hand, seat, card, lang=lang), line])


def acted_line(hand: Hand, seat: int, number: int, what: str, *, lang: Language = ENGLISH) -> str:
    """The one line under his cards after a betting move, as after a draw: which hand, what he did (``what``,
    worded by the caller), what his hand makes (``#5 · You raised to 28 · Pair of sevens``)."""
    best = best_hand(hand, seat, lang=lang)
    return f"#{number} · {what}" + (f" · {best}" if best else "")


def final_line(hand: Hand, seat: int, number: int, *, lang: Language = ENGLISH) -> str:
    """The line under his final hand once the hand is over: what it makes, then what he won (``#5 · Two pair,
    kings and sevens · you won 120``), ``you lost``, or Assassin's pot carried to the next deal."""
    won = sum(share for e in hand.events if isinstance(e, PotAwarded)
              for winner, share in zip(e.winners, e.shares) if winner == seat)
    if won:
        result = say(lang, "you won {amount}", amount=won)
    elif any(isinstance(e, Carried) for e in hand.events):
        result = say(lang, "the pot is carried to the next deal")
    else:
        result = say(lang, "you lost")
    best = best_hand(hand, seat, lang=lang)
    return f"#{number} · " + (f"{best} · " if best else "") + result


def final_hands(hand: Hand, users: Sequence[int], number: int, card_for: Callable[[int], CardText], *,
                lang_for: Callable[[int], Language] = _english) -> dict[int, tuple[str, str]]:
    """At a hand's end, for each player still in it: his final cards alone (shown large) and the words under them
    (``final_line``), in his language (``lang_for``)."""
    return {user: (cards_line(hand, seat, card_for(user)),
                   under_cards(hand, seat, final_line(hand, seat, number, lang=lang_for(user)), card_for(user),
                               lang=lang_for(user)))
            for seat, user in enumerate(users) if not hand.folded[seat]}


def private_hand(hand: Hand, seat: int, card: CardText = card_text, *, lang: Language = ENGLISH) -> str:
    """His cards and what they make, as text (a DM, My hand): in a flop game his cards, the board and his best
    hand; in stud his down and up cards and his best hand."""
    if hand.game.family == "draw":
        return _text.private_hand(hand, seat, card, lang=lang)
    lines = [] if hand.game.is_stud else [cards_line(hand, seat, card)]
    lines += [*beside_lines(hand, seat, card, lang=lang), best_hand(hand, seat, lang=lang)]
    return "\n".join(line for line in lines if line)


# ------------------------------------------------------------------ words


def _partial_words(hand: Hand, seat: int, lang: Language) -> str:
    """The best of fewer than five cards: hold'em before the flop, Omaha's best two of his cards before it, stud's
    third and fourth streets."""
    held = [*hand.holes[seat], *hand.board] if not hand.game.omaha else list(hand.holes[seat])
    if not held or any(c.is_unknown or c.is_joker for c in held):
        return ""
    low = hand.game.ranking == "ace-to-five"  # razz
    ranks = [1 if low and c.rank == 14 else c.rank for c in held]
    if hand.game.omaha:  # only two of his cards play: his best pair, else his two best cards
        ranks = _best_two(ranks)
    return _rank_words(ranks, low, lang)


def _best_two(ranks: Sequence[int]) -> list[int]:
    pairs = [r for r, n in Counter(ranks).items() if n >= 2]
    if pairs:
        return [max(pairs)] * 2
    return sorted(ranks, reverse=True)[:2]


def _rank_words(ranks: Sequence[int], low: bool, lang: Language) -> str:
    """Words for up to four cards' ranks: ``Three of a kind, sevens``, ``Two pair, kings and sevens``, ``Pair of
    sevens``, ``Ace high``; ace-to-five low (razz): ``7‑4‑A``, or ``Pair of fours (4‑4‑7)``."""
    counts = Counter(ranks)
    ordered = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    top = ordered[0]
    if shape[0] == 4:
        category, words = QUADS, say(lang, "Four of a kind, {ranks}", ranks=RANK_WORDS[top][1])
    elif shape[0] == 3:
        category, words = TRIPS, say(lang, "Three of a kind, {ranks}", ranks=RANK_WORDS[top][1])
    elif shape[:2] == [2, 2]:
        category, words = TWO_PAIR, say(lang, "Two pair, {high} and {low}", high=RANK_WORDS[top][1],
                                        low=RANK_WORDS[ordered[2]][1])
    elif shape[0] == 2:
        category, words = PAIR, say(lang, "Pair of {ranks}", ranks=RANK_WORDS[top][1])
    else:
        high = say(lang, "{rank} high", rank=RANK_WORDS[top][0])
        category, words = HIGH_CARD, capitalized(high)
    if not low:
        return words
    dashed = "-".join(rank_char(r) for r in ordered)
    return dashed if category == HIGH_CARD else f"{words} ({dashed})"


def dealt_a_street(hand: Hand | None, events: Sequence[Event]) -> bool:
    """Whether ``events`` dealt a street of a flop or stud game (the board, or a card to each player): what each
    player's private message shows has changed. Never in a draw game (a draw's report shows the new cards)."""
    if hand is None or hand.game.family == "draw":
        return False
    return any(isinstance(e, BoardDealt | Dealt) for e in events)
