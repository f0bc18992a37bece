"""The text of ``/poker rules`` and of docs/rules.md: each game explained, as sections that fit an embed.

Pure: no discord. ``rules_page(game_id)`` returns a ``RulesPage`` (a title, a
one-line summary and a list of ``Section``s, each short enough for an embed
field) for each game of ``bot.poker.GAMES``; ``rules_page(None)`` is the
overview of every game, and the mixes' ids (``horse``, ``eight-game``,
``rotation``) give the page of the mixed games. What a page says of a game
(its cards, streets, rounds, big-bet round, defaults) is read from its
``Game``. Every card shown goes through one ``CardFormat`` (``format_hand`` by
default), so the cogs can pass one that draws card emojis instead.

Every comparison the text states is data (``Beats``, ``BestHands``,
``Order``, collected in ``CLAIMS``, and the worked examples); the tests check
each one with the engine's ``evaluate``, so the text cannot state a wrong
comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Final

from ..poker import GAMES, Game, parse_cards, stud_ante, stud_bring_in
from ..poker.mixes import EIGHT_GAME, HORSE, MAX_ROTATION_GAMES, MIXES, MixGame, most_players
from ..poker.rotation import DEFAULT_BUY_INS, TIMEOUTS_TO_SIT_OUT
from ..tables.settings import DEFAULT_CLOCK
from ..tournament.table_rules import REBUY_WAIT

CardFormat = Callable[[str], str]

_SUITS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_BADUGI: Final = "badugi"


def format_hand(cards: str) -> str:
    """Cards as a player reads them: ``"Ts 9d"`` (or ``"Ts9d"``) becomes ``"10♠ 9♦"``."""
    return " ".join(_rank(c.code[0]) + _SUITS.get(c.suit, "") if not c.is_joker else "Joker"
                    for c in parse_cards(cards))


def _rank(char: str) -> str:
    return "10" if char == "T" else char


def ranks_only(cards: str) -> str:
    """The ranks of some cards, as lowball players write a hand: ``"7s5d4c3h2s"`` becomes ``"7-5-4-3-2"``."""
    return "-".join(_rank(c.code[0]) for c in parse_cards(cards))


# ---------------------------------------------------------------- the structure of a page


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a page: a short title (an embed field's name) and its body (the field's value)."""

    title: str
    body: str


@dataclass(frozen=True, slots=True)
class RulesPage:
    """What ``/poker rules`` shows: an embed's title, its description and its fields."""

    title: str
    summary: str
    sections: tuple[Section, ...]

    def as_markdown(self, level: int = 2, skip: Collection[Section] = (), number: int | None = None) -> str:
        """The page as markdown: its title a heading of ``level``, each section one level below (the sections in
        ``skip``, said already, left out). ``number``: the page's number in a document, its sections numbered
        under it (``2. Five Card Draw``, ``2.1 How a hand goes``), so that a rule can be cited by number."""
        shown = [s for s in self.sections if s not in skip]
        if number is None:
            titles = [self.title, *(s.title for s in shown)]
        else:
            titles = [f"{number}. {self.title}", *(f"{number}.{i} {s.title}" for i, s in enumerate(shown, 1))]
        parts = [f"{'#' * level} {titles[0]}", self.summary]
        parts += [f"{'#' * (level + 1)} {title}\n\n{s.body}" for title, s in zip(titles[1:], shown, strict=True)]
        return "\n\n".join(parts)


# ---------------------------------------------------------------- comparisons the text states


@dataclass(frozen=True, slots=True)
class Beats:
    """``better`` beats ``worse`` under ``ranking``; ``suits``: show the cards (suits matter), not only ranks."""

    ranking: str
    better: str
    worse: str
    why: str = ""
    suits: bool = False

    def render(self, fmt: CardFormat) -> str:
        """``"7-5-4-3-2 beats 7-6-4-3-2 (second card)"``."""
        show = fmt if self.suits else ranks_only
        return f"{show(self.better)} beats {show(self.worse)}" + (f" ({self.why})" if self.why else "")


@dataclass(frozen=True, slots=True)
class BestHands:
    """The best hands of ``ranking`` in order, best first, none left out between them."""

    ranking: str
    hands: tuple[str, ...]

    def render(self, fmt: CardFormat) -> str:
        """The best hand alone, or ``"A, then B, then C"``."""
        return ", then ".join(ranks_only(h) for h in self.hands)


@dataclass(frozen=True, slots=True)
class Step:
    """One kind of hand in an ``Order``: its name and an example of it."""

    name: str
    example: str
    suits: bool = False


@dataclass(frozen=True, slots=True)
class Order:
    """The kinds of hand under ``ranking``, best first (each example beats the next)."""

    ranking: str
    steps: tuple[Step, ...]

    def render_names(self) -> str:
        """``"No pair › one pair › two pair"``."""
        return " › ".join(s.name if i == 0 else s.name.lower() for i, s in enumerate(self.steps))

    def render_examples(self, fmt: CardFormat) -> str:
        """One bullet a kind: ``"- Full house: K-K-K-9-9"``."""
        return "\n".join(f"- {s.name}: {(fmt if s.suits else ranks_only)(s.example)}" for s in self.steps)


Claim = Beats | BestHands | Order


def _steps(*pairs: tuple[str, str]) -> tuple[Step, ...]:
    return tuple(Step(name, cards, suits=name.lower().endswith("flush")) for name, cards in pairs)


_LOW_KINDS: Final = (
    ("No pair", "8s6d4c3h2s"), ("One pair", "2s2d5c4h3s"), ("Two pair", "3s3d2c2h4s"),
    ("Three of a kind", "2s2d2c4h3s"),
)
_LOW_BAD_KINDS: Final = (
    ("Straight", "6s5d4c3h2s"), ("Flush", "7h5h4h3h2h"), ("Full house", "3s3d3c2h2s"),
    ("Four of a kind", "2s2d2c2h3s"), ("Straight flush", "6h5h4h3h2h"),
)

HIGH_ORDER: Final = Order("high", _steps(
    ("Royal flush", "AsKsQsJsTs"), ("Straight flush", "9h8h7h6h5h"), ("Four of a kind", "QsQdQcQh4s"),
    ("Full house", "KsKdKc9h9s"), ("Flush", "Kd9d8d5d3d"), ("Straight", "6s5d4c3h2s"),
    ("Three of a kind", "7s7d7cKh3s"), ("Two pair", "JsJd4c4hAs"), ("One pair", "AsAd9c6h3s"),
    ("High card", "AsJd8c6h3s"),
))
DEUCE_TO_SEVEN_ORDER: Final = Order("deuce-to-seven", _steps(*_LOW_KINDS, *_LOW_BAD_KINDS))
ACE_TO_SIX_ORDER: Final = Order("ace-to-six", _steps(*_LOW_KINDS, *_LOW_BAD_KINDS))
ACE_TO_FIVE_ORDER: Final = Order("ace-to-five", _steps(
    *_LOW_KINDS, ("Full house", "3s3d3c2h2s"), ("Four of a kind", "2s2d2c2h3s"),
))

HIGH_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("high", "AsAdKc7h3s", "AhAcQs9d8c", "the next card decides"),
    Beats("high", "KsKd2c2h3s", "QsQdJcJh9s", "the higher pair counts first"),
    Beats("high", "6s5d4c3h2s", "5h4d3d2cAh", "A-2-3-4-5 is the lowest straight"),
)
DEUCE_TO_SEVEN_BEST: Final = BestHands("deuce-to-seven", ("7s5d4c3h2s", "7s6d4c3h2s", "7s6d5c3h2s", "7s6d5c4h2s",
                                                          "8s5d4c3h2s"))
DEUCE_TO_SEVEN_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("deuce-to-seven", "8s6d5c4h3s", "8h7c4d3d2c", "the second card decides"),
    Beats("deuce-to-seven", "8s7d6c5h3s", "As5d4c3h2s", "the ace is high"),
    Beats("deuce-to-seven", "KsQdJcTh8s", "7s6d5c4h3s", "a straight"),
    Beats("deuce-to-seven", "9s8d6c4s3s", "7h5h4h3h2h", "a flush", suits=True),
    Beats("deuce-to-seven", "AsKdQcJh9s", "2s2d5c4h3s", "no pair beats a pair"),
)
ACE_TO_FIVE_BEST: Final = BestHands("ace-to-five", ("5s4d3c2hAs", "6s4d3c2hAs", "6s5d3c2hAs", "6s5d4c2hAs",
                                                    "6s5d4c3hAs", "6s5d4c3h2s", "7s4d3c2hAs"))
ACE_TO_FIVE_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("ace-to-five", "7s5d4c3h2s", "7h6c3d2dAc", "the second card decides"),
    Beats("ace-to-five", "6s5s4s3s2s", "7h5c4d3dAc", "straights and flushes do not count", suits=True),
    Beats("ace-to-five", "KsJd8c6h4s", "AsAd4c3h2s", "no pair beats a pair"),
    Beats("ace-to-five", "AsAd9c8h7s", "2s2d5c4h3s", "aces are the lowest pair"),
)
ACE_TO_SIX_BEST: Final = BestHands("ace-to-six", ("6s4d3c2hAs", "6s5d3c2hAs", "6s5d4c2hAs", "6s5d4c3hAs",
                                                  "7s4d3c2hAs"))
ACE_TO_SIX_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("ace-to-six", "7s4d3c2hAs", "6s5d4c3h2s", "a straight"),
    Beats("ace-to-six", "8s7d6c4h3s", "5s4d3c2hAs", "A-2-3-4-5 is a straight"),
    Beats("ace-to-six", "9s8d6c4s3s", "7h5h4h3hAh", "a flush", suits=True),
    Beats("ace-to-six", "KsQdJcTh8s", "AsAd4c3h2s", "no pair beats a pair"),
)
BADUGI_BEST: Final = BestHands(_BADUGI, ("4s3h2dAc",))
BADUGI_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats(_BADUGI, "6s4h3dAc", "6d5c2hAs", "both badugis: the 4 beats the 5", suits=True),
    Beats(_BADUGI, "KsQhJdTc", "Ac2d3h3s", "four cards beat three", suits=True),
    Beats(_BADUGI, "Ac2c3h4s", "2d3s4h5h", "three cards each: 4-3-A beats 4-3-2", suits=True),
)

EIGHT_OR_BETTER: Final = "eight-or-better"
EIGHT_OR_BETTER_BEST: Final = BestHands(EIGHT_OR_BETTER, ("5s4d3c2hAs", "6s4d3c2hAs", "6s5d3c2hAs"))
EIGHT_OR_BETTER_WORST: Final = "8s7d6c5h4s"
"""The worst low that qualifies."""
EIGHT_OR_BETTER_NO_LOW: Final = ("9s5d4c3h2s", "7s7d4c3h2s")
"""Hands the text says hold no low: a nine, a pair."""
EIGHT_OR_BETTER_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats(EIGHT_OR_BETTER, "8s5d4c3h2s", "8h6c4d3dAc", "the second card decides"),
    Beats(EIGHT_OR_BETTER, "6s5d4c3h2s", "7h5c4d3dAc", "a straight does not count"),
)

CLAIMS: Final[tuple[Claim, ...]] = (
    HIGH_ORDER, *HIGH_CLAIMS,
    DEUCE_TO_SEVEN_ORDER, DEUCE_TO_SEVEN_BEST, *DEUCE_TO_SEVEN_CLAIMS,
    ACE_TO_FIVE_ORDER, ACE_TO_FIVE_BEST, *ACE_TO_FIVE_CLAIMS,
    ACE_TO_SIX_ORDER, ACE_TO_SIX_BEST, *ACE_TO_SIX_CLAIMS,
    BADUGI_BEST, *BADUGI_CLAIMS,
    EIGHT_OR_BETTER_BEST, *EIGHT_OR_BETTER_CLAIMS,
)


@dataclass(frozen=True, slots=True)
class AssassinExample:
    """The seed's worked example: a dealt two thrown face up for a sixth card, against a hand holding a two."""

    dealt: str = "2cKhKc9s7d"
    face_up: str = "2c"
    face_down: str = "7d"
    received: str = "Ks9h4d"
    plays: str = "KhKcKs9s9h"
    plays_as: str = "kings full of nines"
    other: str = "AsAdAh8c2d"

    def render(self, fmt: CardFormat) -> str:
        """The example as bullets."""
        return "\n".join((
            f"- Ann is dealt {fmt(self.dealt)}.",
            f"- She throws {fmt(self.face_up)} face up and {fmt(self.face_down)} face down: "
            f"2 new cards and 1 extra, {fmt(self.received)}.",
            f"- Her best five: {fmt(self.plays)}, {self.plays_as}.",
            f"- Bo shows {fmt(self.other)}: three aces, and a two. Bo is assassinated; Ann wins.",
        ))


ASSASSIN_EXAMPLE: Final = AssassinExample()


@dataclass(frozen=True, slots=True)
class OmahaExample:
    """Two plus three: one spade in the hand and four on the board make no flush in Omaha (in hold'em they
    would). ``extra``: Big O's fifth hole card."""

    hole: str = "AsKd9h4c"
    extra: str = "7h"
    board: str = "QsJsTs5s2d"
    plays: str = "AsKdQsJsTs"
    plays_as: str = "a straight, ace high"

    def hand(self, hole_cards: int) -> str:
        """The hole cards of a game dealing ``hole_cards`` (four, or five in Big O)."""
        return " ".join(c.code for c in parse_cards(self.hole + self.extra)[:hole_cards])

    def render(self, hole_cards: int, fmt: CardFormat) -> str:
        """The example as bullets."""
        return "\n".join((
            f"- You hold {fmt(self.hand(hole_cards))}; the board is {fmt(self.board)}.",
            "- Four spades on the board and one in your hand: no flush, you need two of your own.",
            f"- Your hand is {fmt(self.plays)}, {self.plays_as} (two of yours, three of the board's).",
        ))


OMAHA_EXAMPLE: Final = OmahaExample()


@dataclass(frozen=True, slots=True)
class BringInExample:
    """Third street's up cards, and the one that brings in (``low``: razz, the highest card)."""

    up: str
    brings_in: str
    why: str
    low: bool = False

    def render(self, fmt: CardFormat) -> str:
        """``"Up cards ...: the 3♣ brings in (...)."``"""
        return f"Up cards {fmt(self.up)}: {fmt(self.brings_in)} brings in ({self.why})."


STUD_BRING_IN_EXAMPLE: Final = BringInExample("Kd3h3cAs9d", "3c", "the lowest card; clubs below hearts")
RAZZ_BRING_IN_EXAMPLE: Final = BringInExample("2dKhKsAc9d", "Ks", "the highest card; spades above hearts", low=True)


# ---------------------------------------------------------------- the games

RULE_GAMES: Final[tuple[str, ...]] = tuple(GAMES)
"""Every game ``/poker rules`` explains: the engine's games (``bot.poker.GAMES``), draw, flop and stud."""

MIXED_PAGE_IDS: Final[tuple[str, ...]] = MIXES
"""The ids that give the page of the mixed games (``horse``, ``eight-game``, ``rotation``: a table's mixes)."""


def rules_game(game_id: str) -> Game:
    """The game of one page; ValueError naming the games if there is none."""
    game = GAMES.get(game_id)
    if game is None:
        raise ValueError(f"There is no game `{game_id}`. Choose one of: {', '.join((*RULE_GAMES, *MIXES))}.")
    return game


GAME_BLURBS: Final[dict[str, str]] = {
    "five-card-draw": "One draw; the best high hand wins",
    "assassin": "Five Card Draw where a two in your hand loses the showdown",
    "single-draw-27": "One draw; lowest wins, aces high, straights and flushes hurt",
    "single-draw-a5": "One draw; lowest wins, aces low, straights and flushes are fine",
    "single-draw-a6": "One draw; lowest wins, aces low, straights and flushes hurt",
    "double-draw-27": "Two draws; lowest wins, aces high, straights and flushes hurt",
    "double-draw-a5": "Two draws; lowest wins, aces low, straights and flushes are fine",
    "double-draw-a6": "Two draws; lowest wins, aces low, straights and flushes hurt",
    "triple-draw-27": "Three draws; lowest wins, aces high, straights and flushes hurt",
    "triple-draw-a5": "Three draws; lowest wins, aces low, straights and flushes are fine",
    "triple-draw-a6": "Three draws; lowest wins, aces low, straights and flushes hurt",
    "badugi": "Four cards, three draws; lowest wins with four suits and four ranks",
    "holdem": "Two cards each and five shared on the board; the best high hand wins",
    "omaha": "Four cards each, five on the board; you play exactly two of yours and three of the board",
    "omaha-hilo": "Omaha with the pot split between the best high and the best low (eight or better)",
    "big-o": "Omaha hi-lo with five cards each; still exactly two of yours and three of the board",
    "stud": "Seven cards each, three down and four up, no board; the best high hand wins",
    "stud-hilo": "Seven card stud with the pot split between high and a low of eight or better",
    "razz": "Seven card stud where the lowest hand wins; aces low, straights and flushes are fine",
}
"""One line a game (at most 100 characters: a select option's description)."""

MIX_BLURBS: Final[dict[str, str]] = {
    "horse": "Hold'em, Omaha hi-lo, Razz, Stud and Stud hi-lo in turn, all fixed limit",
    "eight-game": "2-7 Triple Draw, the five HORSE games, no-limit hold'em and pot-limit Omaha in turn",
    "rotation": "The host's own list of games, each in its structure, in turn",
}
"""One line a mix (at most 100 characters)."""

_STRUCTURE_NAMES: Final = {"fixed-limit": "fixed limit", "pot-limit": "pot limit", "no-limit": "no limit"}
_ORDINALS: Final = ("first", "second", "third")
_NUMBERS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven")
_EXAMPLE_BLINDS: Final = (5, 10)  # the blinds of the stud stakes' example


def _count(n: int) -> str:
    return {2: "two", 3: "three"}.get(n, str(n))


def _bullets(lines: Sequence[str]) -> str:
    return "\n".join(f"- {line}" for line in lines)


def _wins(g: Game) -> str:
    if g.hi_lo:
        return "The best high hand and the best low of eight or better split the pot."
    return "The lowest hand wins." if g.is_lowball else "The best high hand wins."


def _summary(g: Game) -> str:
    if g.family == "draw":
        draws = f"{_NUMBERS[g.draws]} draw" + ("s" if g.draws > 1 else "")
        cards = f"{_NUMBERS[g.hand_size].capitalize()} cards each, {draws}"
    elif g.family == "flop":
        cards = f"{_NUMBERS[g.hole_cards].capitalize()} cards each and {_NUMBERS[g.board_size]} on the board"
        if g.omaha:
            cards += " (you play exactly two of yours and three of the board)"
    else:
        cards = (f"{_NUMBERS[g.hand_size].capitalize()} cards each, {_NUMBERS[g.down_cards]} down and "
                 f"{_NUMBERS[g.hand_size - g.down_cards]} up, no board")
    return (f"{_wins(g)} {cards}, {_NUMBERS[g.betting_rounds]} betting rounds. "
            f"2 to {g.max_players} players; {_STRUCTURE_NAMES[g.default_structure]} unless the host picks another.")


def _winner(g: Game) -> str:
    if g.assassin:
        return "the best hand without a two wins"
    if g.hi_lo:
        return "the best high hand and the best low split the pot (below)"
    return "the lowest hand wins the whole pot (no qualifier)" if g.is_lowball else "the best high hand wins"


_BLINDS: Final = ("Blinds: the small blind left of the button, the big blind next. The host may add an ante from "
                  "everyone")
_SPLIT: Final = "Equal hands split; odd chips go to the first winners left of the button."
_UNCONTESTED: Final = "If everyone else folds, the last player wins without showing."


def _hand_goes(g: Game) -> Section:
    blinds = _BLINDS + ("." if g.is_lowball else ", or play antes only (then betting starts left of the button).")
    if g.draws == 1:
        middle = "Then the draw, and the second betting round."
    else:
        middle = "Then " + ", ".join(f"draw {i}, betting round {i + 1}" for i in range(1, g.draws + 1)) + "."
    lines = [
        "The button moves one seat left each hand.",
        blinds,
        f"Everyone gets {g.hand_size} cards face down, one at a time.",
        "Betting round 1 starts left of the big blind.",
        middle,
        "After each draw, betting starts left of the button.",
        f"Showdown: {_winner(g)}. {_SPLIT}",
        _UNCONTESTED,
        "Heads-up, the button posts the small blind; he acts first before the first draw, last after "
        + ("it." if g.draws == 1 else "every draw."),
    ]
    return Section("How a hand goes", _bullets(lines))


def _flop_hand_goes(g: Game) -> Section:
    if g.omaha:
        hand = (f"Your hand: exactly two of your {_NUMBERS[g.hole_cards]} cards with exactly three of the board, "
                "never more, never fewer.")
    else:
        hand = "Your hand: the best five of your two cards and the five on the board, in any mix (the board alone too)."
    lines = [
        "The button moves one seat left each hand.",
        _BLINDS + ".",
        f"Everyone gets {g.hole_cards} cards face down, one at a time. Betting round 1 starts left of the big blind.",
        "The flop: a burn, then three cards face up in the middle, shared by all. Betting round 2.",
        "The turn: burn, a fourth card on the board. Betting round 3.",
        "The river: burn, a fifth and last card. Betting round 4.",
        "From the flop on, betting starts with the first player still in left of the button.",
        "Nobody draws, and the deck always has cards enough for a full table.",
        hand,
        f"Showdown: {_winner(g)}. {_SPLIT}",
        _UNCONTESTED,
        "Heads-up, the button posts the small blind; he acts first before the flop, last after it.",
    ]
    return Section("How a hand goes", _bullets(lines))


def _omaha(g: Game, fmt: CardFormat) -> Section:
    return Section("Two plus three", OMAHA_EXAMPLE.render(g.hole_cards, fmt))


def _stud_hand_goes(g: Game) -> Section:
    if g.is_lowball:
        first = ("From fourth street on, the lowest hand showing in up cards acts first (aces low; a pair counts "
                 "against you). He may check.")
    else:
        first = ("From fourth street on, the best hand showing in up cards acts first: pairs, two pair, trips and "
                 "quads count; straights and flushes do not. He may check.")
    lines = [
        "No blinds, and no button in the betting: everyone posts the ante before the cards.",
        "Third street: two cards face down and one face up to each player. The bring-in opens the betting (below).",
        "Fourth, fifth and sixth street: one more card face up each, then a betting round.",
        "Seventh street: a last card face down, and a last betting round.",
        "A card is burned before each street from fourth street on.",
        first,
        "Equal showings: the first of them clockwise from the dealer's left acts.",
        "Up cards are on show to everyone, a folded player's too, until the hand ends; down cards stay private.",
        f"Showdown: the best five of your seven cards; {_winner(g)}. {_SPLIT.replace('button', 'dealer')}",
        _UNCONTESTED,
    ]
    return Section("How a hand goes", _bullets(lines))


def _bring_in(g: Game, fmt: CardFormat) -> Section:
    if g.is_lowball:
        who = ("The highest up card brings in: aces are low and kings highest; between equal ranks the higher "
               "suit (spades, then hearts, diamonds, clubs).")
        example, other = RAZZ_BRING_IN_EXAMPLE, "highest"
    else:
        who = ("The lowest up card brings in: aces are high; between equal ranks the lower suit (clubs, then "
               "diamonds, hearts, spades).")
        example, other = STUD_BRING_IN_EXAMPLE, "lowest"
    lines = [
        who,
        example.render(fmt),
        "He posts the bring-in, or completes: puts in a full small bet instead.",
        "The others, in turn to his left, fold, call the bring-in, or complete. After a completion, each raise is "
        "one more small bet.",
        f"All in on your ante: you take no part in the betting, and the bring-in falls to the next {other} card.",
        "Not enough chips for the whole bring-in? Post what you have: you are all in.",
    ]
    return Section("The bring-in", _bullets(lines))


RUNNING_OUT: Final = Section("Running out of cards", _bullets([
    "Eight players can need 56 cards, more than the deck's 52.",
    "Before a street, if the deck cannot give a card to everyone still in plus the burn, no card is burned.",
    "If it still falls short, one card is dealt face up in the middle: a community card that every player still in "
    "uses as his card of that street (and so for any later street).",
]))


def _draws(g: Game) -> Section:
    lines = [
        "A card is burned before each draw, even if everyone stands pat.",
        f"From left of the button, each player throws 0 to {g.hand_size} cards (or stands pat) and gets "
        "all the new ones before the next player draws.",
        "Your draw is final once the new cards are dealt.",
        "Deck used up? The muck (discards, burns, folded hands) is shuffled into a new deck; "
        "you never get back a card you just threw.",
    ]
    if g.allows_draw_limit:
        lines.append("Draw limit (host's choice): none (the default), 3 cards, or 3 and 4 if the card you keep "
                     "is an ace.")
    return Section("The draw" if g.draws == 1 else "The draws", _bullets(lines))


_CAP: Final = "Cap: 4 bets a round (a bet and 3 raises; {first}). The host may change it (up to 5)."
_NO_CAP: Final = "No cap when a round starts with only two players in the hand."


def stud_stakes(big_blind: int) -> tuple[int, int]:
    """The stud ante and bring-in the table computes from its big blind (``bot.poker.stakes``)."""
    ante = stud_ante(big_blind)
    return ante, stud_bring_in(big_blind, ante)


def _stud_stakes_lines() -> list[str]:
    small, big = _EXAMPLE_BLINDS
    ante, bring_in = stud_stakes(big)
    return [
        "The stakes come from the table's blinds. Ante: the big blind / 5, rounded down (at least 1). "
        "Bring-in: the big blind / 4, rounded up (at least the ante).",
        f"Blinds {small}/{big}: ante {ante}, bring-in {bring_in}, small bet {big}, big bet {2 * big}.",
        "The host may set them (`stud_ante:`, `bring_in:`); the bring-in is never more than the small bet.",
    ]


def _fixed_limit(g: Game) -> Section:
    lines: list[str]
    if g.is_stud:
        lines = [
            "Small bet = the big blind, on third and fourth street; big bet = twice that, from fifth street on.",
            *_stud_stakes_lines(),
            "Each bet, completion or raise is exactly one bet.",
            _CAP.format(first="the completion is the first bet; the bring-in does not count"),
            *(["Open pair (host's choice): a pair showing on fourth street lets anyone bet or raise the big bet "
               "there."] if g.offers_open_pair else []),
        ]
    else:
        if g.family == "flop":
            when = "Small bet before the flop and on it, big bet on the turn and the river."
        elif g.draws == 1:
            when = "Small bet before the draw, big bet after it."
        else:
            big, rounds = g.default_big_bet_round, g.betting_rounds
            later = f"rounds {big} and {rounds}" if rounds - big == 1 else f"round {big}"
            when = f"Small bet in rounds 1 and 2, big bet in {later} (after the {_ORDINALS[big - 2]} draw)."
        lines = [
            "Small bet = the big blind; big bet = twice that.",
            when,
            "Blinds 1/2: bets and raises of 2, then of 4.",
            "Each bet or raise is exactly one bet.",
            _CAP.format(first="the big blind is the first bet"),
        ]
    lines.append(_NO_CAP)
    if g.family == "draw":
        lines.append("The host may move the big bet's round; the table message says which.")
    default = " (default)" if g.default_structure == "fixed-limit" else ""
    return Section(f"Fixed limit{default}", _bullets(lines))


def _big_bets(g: Game) -> Section:
    if g.is_stud:
        lines = [
            "Ante and bring-in as in fixed limit. The smallest bet or completion is the small bet (the big blind); "
            "a raise adds at least the last bet or raise of the round.",
        ]
    else:
        lines = [
            "Smallest bet: the big blind. A raise adds at least the last bet or raise of the round "
            "(blinds 1/2: raise to 4 or more).",
        ]
    lines += [
        "No limit: bet up to all your chips.",
        "Pot limit: raise to at most your call plus the pot after it. Blinds 1/2, first to act: "
        "call 2, the pot is 5, so raise to 7 at most." if not g.is_stud else
        "Pot limit: raise to at most your call plus the pot after it.",
    ]
    if g.default_structure == "no-limit":
        title = "No limit (default) and pot limit"
    elif g.default_structure == "pot-limit":
        title = "Pot limit (default) and no limit"
    else:
        title = "Pot limit and no limit"
    return Section(title, _bullets(lines))


def _all_in() -> Section:
    lines = [
        "Short of chips? Go all in: you can win from each player only what you matched. "
        "The rest is a side pot; each pot is won separately.",
        "An all-in that is less than a full raise does not reopen the betting: players who already acted may "
        "only call or fold, unless the raises since add up to a full one (fixed limit: an all-in of half a bet "
        "or more counts as a full bet).",
    ]
    return Section("All in", _bullets(lines))


def _high_ranking(fmt: CardFormat) -> Section:
    body = HIGH_ORDER.render_examples(fmt) + "\n" + _bullets([
        "The ace is high, or low in 5-4-3-2-A. Suits never rank.",
        *(c.render(fmt) for c in HIGH_CLAIMS),
    ])
    return Section("Hands, best first", body)


def _low_ranking(g: Game, fmt: CardFormat) -> tuple[Section, ...]:
    if g.ranking == "deuce-to-seven":
        name, order, best, claims = "2-7 low", DEUCE_TO_SEVEN_ORDER, DEUCE_TO_SEVEN_BEST, DEUCE_TO_SEVEN_CLAIMS
        rules = ["Aces are high: an ace is your worst card.",
                 "Straights and flushes count against you; A-5-4-3-2 is no straight, just ace high.",
                 f"The best hand: {ranks_only(best.hands[0])}, not all one suit."]
    elif g.ranking == "ace-to-five":
        name, order, best, claims = "A-5 low", ACE_TO_FIVE_ORDER, ACE_TO_FIVE_BEST, ACE_TO_FIVE_CLAIMS
        rules = ["Aces are low: an ace is your best card.",
                 "Straights and flushes do not count: only pairs hurt.",
                 f"The best hand: {ranks_only(best.hands[0])} (the wheel), any suits."]
    else:
        name, order, best, claims = "A-6 low", ACE_TO_SIX_ORDER, ACE_TO_SIX_BEST, ACE_TO_SIX_CLAIMS
        rules = ["Aces are low: an ace is your best card.",
                 "Straights and flushes count against you: 5-4-3-2-A is a straight; A-K-Q-J-10 is king high.",
                 f"The best hand: {ranks_only(best.hands[0])}, not all one suit."]
    ranking = Section(f"Which hand wins: {name}", _bullets([
        "The lowest hand wins.",
        *rules,
        "Compare the highest cards first, then the next ones: the lower card wins.",
        f"{order.render_names()}.",
        "Suits never rank.",
    ]))
    examples = Section("Examples", _bullets([f"Best hands: {best.render(fmt)}.", *(c.render(fmt) for c in claims)]))
    return ranking, examples


def _badugi_ranking(fmt: CardFormat) -> tuple[Section, ...]:
    ranking = Section("Which hand wins: Badugi", _bullets([
        "The lowest hand wins; aces are low.",
        "Your hand plays its most cards of different suits and different ranks: a four-card \"badugi\" beats "
        "any three cards, three beat two, two beat one.",
        "If you can make several such sets, the lowest one plays.",
        "Same number of cards: compare the highest card, then the next: the lower card wins.",
        "Suits never rank; equal hands split.",
    ]))
    examples = Section("Examples", _bullets([
        f"Best hand: {fmt(BADUGI_BEST.hands[0])}.",
        *(c.render(fmt) for c in BADUGI_CLAIMS),
    ]))
    return ranking, examples


def _assassin(fmt: CardFormat) -> tuple[Section, ...]:
    twos = Section("Twos kill", _bullets([
        "Twos are \"assassins\", not wild. Jokers option: two jokers join the deck and count as twos.",
        "A hand holding a two loses every showdown, whatever else it holds: dealt, kept or drawn, every two kills.",
        "You may still bet and bluff: if everyone folds, you win without showing.",
        "At the draw, twos you were dealt may be thrown face up (all can see them): throw at least one face up "
        "and you get one extra card, a six-card hand.",
        "Or throw a two face down (no extra card), or keep it.",
        "Face-up twos count toward the draw limit; the extra card does not.",
        "A six-card hand plays its best five, and all six are shown.",
    ]))
    carried = Section("Carried pots", _bullets([
        "Each pot (main and side pots apart) goes to the best hand without a two among its players.",
        "If every hand in a pot holds a two, nobody wins it: it is carried into the next deal here, "
        "whatever game that is. The table message shows carried chips.",
        "If the table closes first, carried chips go back to those who put them in, in proportion (odd chips "
        "first to the left of the button).",
        "A pot with only one player left in it is his, whatever he holds.",
    ]))
    example = Section("Example", ASSASSIN_EXAMPLE.render(fmt))
    return twos, carried, example


def _hi_lo(g: Game, fmt: CardFormat) -> tuple[Section, ...]:
    if g.omaha:
        cards = ("For the low too you play exactly two of your cards and three of the board; the low may use other "
                 "cards of yours than the high.")
    else:
        cards = "High and low each play any five of your seven cards, the same ones or not."
    split = Section("High and low", _bullets([
        "Cards speak: nothing is declared. Each pot, side pots too, is split in two halves.",
        "Half to the best high hand; half to the best low of eight or better.",
        "A low must have five cards of different ranks, all eight or lower. Aces are low; straights and flushes "
        "do not count against it.",
        f"No low: {' or '.join(ranks_only(h) for h in EIGHT_OR_BETTER_NO_LOW)} (a nine, a pair).",
        "Nobody has a low? The best high hand takes the whole pot.",
        "One hand may win both halves: a scoop.",
        "An odd chip goes to the high half; equal hands split their half.",
        cards,
    ]))
    examples = Section("Lows, best first", _bullets([
        f"Best lows: {EIGHT_OR_BETTER_BEST.render(fmt)}; the worst: {ranks_only(EIGHT_OR_BETTER_WORST)}.",
        *(c.render(fmt) for c in EIGHT_OR_BETTER_CLAIMS),
    ]))
    return split, examples


TABLE_CONVENTIONS: Final = Section("At the table", _bullets([
    "Your cards come by DM (or `/poker hand`); nobody's cards are shown before the showdown.",
    f"Clock: {DEFAULT_CLOCK} s a move unless the host sets another. Out of time, you check if you can, else fold; "
    "in a draw you stand pat.",
    f"Time out in {_count(TIMEOUTS_TO_SIT_OUT)} hands in a row and you are sat out until you come back "
    "(`/poker sitin`).",
    "Dealer's choice: before each hand (or orbit) the button picks the game, draw, flop or stud, and the structure "
    "if the host allows; no pick in time, the last game again.",
    "Leaving mid-hand folds you; you are cashed out when the hand ends.",
]))


def _rankings(g: Game, fmt: CardFormat) -> tuple[Section, ...]:
    if g.ranking == "high":
        ranking: tuple[Section, ...] = (_high_ranking(fmt),)
    elif g.ranking == _BADUGI:
        ranking = _badugi_ranking(fmt)
    else:
        ranking = _low_ranking(g, fmt)
    return (*ranking, *(_hi_lo(g, fmt) if g.hi_lo else ()))


def _game_page(game_id: str, fmt: CardFormat) -> RulesPage:
    g = rules_game(game_id)
    if g.family == "draw":
        play: tuple[Section, ...] = (_hand_goes(g), _draws(g))
    elif g.family == "flop":
        play = (_flop_hand_goes(g), *((_omaha(g, fmt),) if g.omaha else ()))
    else:
        play = (_stud_hand_goes(g), _bring_in(g, fmt), RUNNING_OUT)
    betting = (_fixed_limit(g), _big_bets(g))
    if g.default_structure != "fixed-limit":
        betting = betting[::-1]
    sections = (*play, *_rankings(g, fmt), *(_assassin(fmt) if g.assassin else ()), *betting, _all_in(),
                TABLE_CONVENTIONS)
    return RulesPage(g.name, _summary(g), sections)


def _mix_names(games: Sequence[MixGame]) -> str:
    return _bullets([f"{entry.game.name}, {_STRUCTURE_NAMES[entry.structure]}" for entry in games])


def _mixed_page() -> RulesPage:
    small, big = _EXAMPLE_BLINDS
    ante, bring_in = stud_stakes(big)
    sections = (
        Section("HORSE", _mix_names(HORSE) + "\n" + _bullets([f"Up to {most_players(HORSE)} players."])),
        Section("The 8-game mix", _mix_names(EIGHT_GAME) + "\n" + _bullets([
            f"Up to {most_players(EIGHT_GAME)} players."])),
        Section("Your own rotation", _bullets([
            'The host lists the games: `/poker create game:rotation games:"holdem:no-limit, omaha:pot-limit, '
            'razz"`.',
            "Game ids, separated by commas; after a colon the structure (`fixed`, `pot` or `no`), else the game's "
            "own.",
            f"Up to {MAX_ROTATION_GAMES} games; a game may come back in another structure.",
            "The table seats no more players than the game with the fewest seats allows.",
        ])),
        Section("How long each game lasts", _bullets([
            "One orbit: as many hands as there were players dealt into the game's first hand.",
            "Or a set number of hands per game: the host's `hands_per_game:`.",
            "The table message always shows the game, how many hands of it are left, and the next game.",
        ])),
        Section("The button in mixed play", _bullets([
            "In the draw and flop games it moves one seat after every hand.",
            "In a rotation it stays put through the stud games (they bet without a button) and moves on with the "
            "next draw or flop game.",
            "In dealer's choice it moves after every hand, stud too, and the player on it picks the next game.",
        ])),
        Section("One stake for every game", _bullets([
            "The table has one pair of blinds for every game it deals.",
            "Draw and flop games post those blinds; in fixed limit they bet the big blind, then twice it.",
            "Stud games, in any structure: ante = the big blind / 5, rounded down (at least 1); bring-in = the big "
            "blind / 4, rounded up (at least the ante); small bet the big blind, big bet twice it.",
            f"Blinds {small}/{big}: fixed-limit hold'em bets {big}, then {2 * big}; stud antes {ante}, brings in "
            f"{bring_in}, bets {big}, then {2 * big}.",
            "The host may set the stud ante and bring-in (`stud_ante:`, `bring_in:`).",
            "In a tournament each level's blinds carry to every game the same way.",
        ])),
    )
    return RulesPage("Mixed games", "HORSE, the 8-game mix or the host's own list: the table deals one game after "
                     "another, each for an orbit, with one stake for them all.", sections)


def _overview() -> RulesPage:
    def games(ids: Sequence[str]) -> str:
        return _bullets([f"**{GAMES[g].name}**: {GAME_BLURBS[g]}" for g in ids])

    draw = [g for g in RULE_GAMES if GAMES[g].family == "draw"]
    high = [g for g in draw if not GAMES[g].is_lowball]
    sections = (
        Section("Draw games: the best hand wins", games(high)),
        Section("Draw games: the lowest hand wins", games([g for g in draw if g not in high])),
        Section("Flop games", games([g for g in RULE_GAMES if GAMES[g].family == "flop"])),
        Section("Stud games", games([g for g in RULE_GAMES if GAMES[g].is_stud])),
        Section("Mixed games", _bullets([f"**{name}**: {MIX_BLURBS[mix]}" for mix, name in (
            ("horse", "HORSE"), ("eight-game", "8-game"), ("rotation", "Rotation"))])),
        Section("The low rankings", _bullets([
            "2-7: aces high; straights and flushes hurt; best 7-5-4-3-2.",
            "A-5 (and razz): aces low; straights and flushes do not count; best 5-4-3-2-A.",
            "A-6: aces low; straights and flushes hurt; best 6-4-3-2-A.",
            "Badugi: four cards of four suits and four ranks; best 4-3-2-A.",
            "Eight or better (the low half of hi-lo): five different ranks, all 8 or lower, aces low; "
            "best 5-4-3-2-A.",
        ])),
        Section("Betting", _bullets([
            "Fixed limit: every bet is the small bet (the big blind), later the big bet (twice it); "
            "4 bets a round at most.",
            "Pot limit: raise to at most your call plus the pot.",
            "No limit: bet up to all your chips.",
            "One stake for every game: the table's blinds. Stud games ante a fifth of the big blind and bring in "
            "a quarter of it.",
            "A raise nobody can call is not offered: everyone else all in, you call the largest all-in or fold.",
            "A blind or bring-in all in for less is still called in full; heads-up, a big blind all in below the "
            "small blind: the small blind takes back the difference.",
        ])),
        TABLE_CONVENTIONS,
    )
    return RulesPage("The games", "Draw games, flop games and stud games, one at a time or in a rotation. "
                     "`/poker rules game:` explains one game in full.", sections)


def rules_page(game_id: str | None = None, card_format: CardFormat = format_hand) -> RulesPage:
    """The rules of one game (``game_id`` from ``RULE_GAMES``), the mixed games (an id of ``MIXED_PAGE_IDS``),
    or the overview of all games (None).

    ``card_format`` writes every card list shown (``format_hand``'s text, or card emojis).
    Raises ValueError naming the games for an unknown id.
    """
    if game_id is None:
        return _overview()
    if game_id in MIXED_PAGE_IDS:
        return _mixed_page()
    return _game_page(game_id, card_format)


# ---------------------------------------------------------------- the house rules as one document (docs/rules.md)


CHIPS_AND_NIGHTS: Final = Section("Chips and nights", _bullets([
    "You sit down with chips from your balance in the server's bank, and take your stack back when you leave.",
    f"Buy-ins: from {DEFAULT_BUY_INS[0]} to {DEFAULT_BUY_INS[1]} big blinds (antes, at a table without blinds) "
    "unless the host sets others; without an amount you bring the most the table allows that your balance covers.",
    "Rebuy between hands, up to the table's largest buy-in; a stack that is empty needs the smallest buy-in.",
    "A night of play ends when the host starts the next one or closes the table. Chips still carried to the next "
    "deal then go back to those who put them in, in proportion, so that a night's nets add up.",
]))
TOURNAMENTS: Final = Section("Tournaments", _bullets([
    "Everyone buys in once into the prize pool and starts with the same tournament chips; blinds rise on a clock, "
    "between hands, never during one.",
    "A player sitting out is still dealt in: his blinds and antes are posted and the table checks or folds for him "
    "(stands pat in a draw), so that the tournament always ends.",
    "Out of chips during the rebuy levels, you may buy back in until the end of the next hand dealt without you; "
    f"if the table cannot deal without you, it waits {REBUY_WAIT:g} seconds.",
    "An Assassin pot carried when fewer than two players have chips left (or when everyone in it is all in) can "
    "never be played: it goes back to those who put it in.",
    "The last player out places best. Players out in the same hand are placed by the chips they started it "
    "with; equal chips share the places and their prizes. The pool is paid when one player is left.",
]))
HAND_HISTORIES: Final = Section("Hand histories", _bullets([
    "`/poker history` and `/poker session export` give the hands as PHH files, the standard that other poker "
    "programs read and replay.",
    "A file names the seats from the first left of the button, `p1`; heads-up, `p1` is the big blind and `p2` "
    "the button.",
    "A draw round is written as the standard writes it: every discard of the round first, in draw order, then "
    "the new cards in the same order.",
    "No card is ever in two places: a thrown, folded or burned card comes back only after a reshuffle, and never "
    "to the player who threw it in the same draw.",
]))
DOCUMENT_INTRO: Final = (
    "How the bot plays: every game it deals and the conventions of its tables, as `/poker rules` tells them in "
    "Discord. Each comparison of hands stated here is checked against the engine by the tests. The sections are "
    "numbered so that a rule can be cited.\n\n"
    "This file is written by `python -m bot rules` from `bot/content/rules_text.py`; a test fails when they differ."
)


def rules_markdown(card_format: CardFormat = format_hand) -> str:
    """The house rules as one markdown document (``docs/rules.md``): the overview, each game's page (a section
    already said in an earlier page is not said again), the mixed games, then chips, nights and tournaments."""
    parts = ["# House rules", DOCUMENT_INTRO]
    said: list[Section] = []
    pages = (rules_page(None, card_format), *(rules_page(g, card_format) for g in RULE_GAMES),
             rules_page(MIXED_PAGE_IDS[0], card_format))
    for number, page in enumerate(pages, 1):
        parts.append(page.as_markdown(2, said, number))
        said += page.sections
    parts.append(RulesPage("Chips, nights and tournaments", "What the tables do around the cards.",
                           (CHIPS_AND_NIGHTS, TOURNAMENTS, HAND_HISTORIES)).as_markdown(2, number=len(pages) + 1))
    return "\n\n".join(parts) + "\n"
