"""The text of ``/poker rules`` and of docs/rules.md: each game explained, as sections that fit an embed.

Pure: no discord. ``rules_page(game_id, lang=...)`` returns a ``RulesPage`` (a
title, a one-line summary and a list of ``Section``s, each short enough for an
embed field) for each game of ``bot.poker.GAMES``, worded in the reader's
language; ``rules_page(None)`` is the overview of every game, and the mixes'
ids (``horse``, ``eight-game``, ``rotation``) give the page of the mixed games.
What a page says of a game (its cards, streets, rounds, big-bet round,
defaults) is read from its ``Game``. Every card shown goes through one
``CardFormat`` (``format_hand`` by default), so the cogs can pass one that
draws card emojis instead.

Every paragraph, title and line is one ``say``/``Text`` source (a whole line, its markdown inside), worded in the
language given; where a line differs between games, each variant is its own whole sentence. Game names, cards
and hands written as ranks (``7-5-4-3-2``) are values, the same in every language. docs/rules.md is the English.

Every comparison the text states is data (``Beats``, ``BestHands``,
``Order``, collected in ``CLAIMS``, and the worked examples); the tests check
each one with the engine's ``evaluate``, so the text cannot state a wrong
comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Final

from ..i18n.text import ENGLISH, Language, Text, capitalized, say, say_n
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


def _capitalised(words: str) -> str:
    """``words`` starting a line: its first letter upper case (the rest as the language writes it)."""
    return capitalized(words)


# ---------------------------------------------------------------- the structure of a page


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a page: a short title (an embed field's name) and its body (the field's value), worded."""

    title: str
    body: str


@dataclass(frozen=True, slots=True)
class RulesPage:
    """What ``/poker rules`` shows: an embed's title, its description and its fields, worded."""

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
    """``better`` beats ``worse`` under ``ranking``; ``why``: what decides, shown in brackets; ``suits``: show the
    cards (suits matter), not only ranks."""

    ranking: str
    better: str
    worse: str
    why: Text | None = None
    suits: bool = False

    def render(self, fmt: CardFormat, *, lang: Language) -> str:
        """``"7-5-4-3-2 beats 7-6-4-3-2 (second card)"``."""
        show = fmt if self.suits else ranks_only
        if self.why is None:
            return say(lang, "{better} beats {worse}", better=show(self.better), worse=show(self.worse))
        return say(lang, "{better} beats {worse} ({why})", better=show(self.better), worse=show(self.worse),
                   why=self.why)


@dataclass(frozen=True, slots=True)
class BestHands:
    """The best hands of ``ranking`` in order, best first, none left out between them."""

    ranking: str
    hands: tuple[str, ...]

    def render(self, fmt: CardFormat, *, lang: Language) -> str:
        """The best hand alone, or ``"A, then B, then C"``."""
        shown = ranks_only(self.hands[0])
        for hand in self.hands[1:]:
            shown = say(lang, "{hands}, then {next}", hands=shown, next=ranks_only(hand))
        return shown


@dataclass(frozen=True, slots=True)
class Step:
    """One kind of hand in an ``Order``: its English name (a key of ``_KINDS``) and an example of it."""

    name: str
    example: str
    suits: bool = False


_KINDS: Final[dict[str, Text]] = {
    # The kinds of hand as a line names them within a sentence; a line starting with one capitalises it.
    "Royal flush": Text("royal flush"),
    "Straight flush": Text("straight flush"),
    "Four of a kind": Text("four of a kind"),
    "Full house": Text("full house"),
    "Flush": Text("flush"),
    "Straight": Text("straight"),
    "Three of a kind": Text("three of a kind"),
    "Two pair": Text("two pair"),
    "One pair": Text("one pair"),
    "High card": Text("high card"),
    "No pair": Text("no pair"),
}


@dataclass(frozen=True, slots=True)
class Order:
    """The kinds of hand under ``ranking``, best first (each example beats the next)."""

    ranking: str
    steps: tuple[Step, ...]

    def render_names(self, *, lang: Language) -> str:
        """``"No pair › one pair › two pair"``."""
        names = [_KINDS[s.name].worded(lang) for s in self.steps]
        return " › ".join([_capitalised(names[0]), *names[1:]])

    def render_examples(self, fmt: CardFormat, *, lang: Language) -> str:
        """One bullet a kind: ``"- Full house: K-K-K-9-9"``."""
        return _bullets([say(lang, "{kind}: {cards}", kind=_capitalised(_KINDS[s.name].worded(lang)),
                             cards=(fmt if s.suits else ranks_only)(s.example)) for s in self.steps])


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

_SECOND_CARD: Final = Text("the second card decides")
_NO_PAIR_BEATS_A_PAIR: Final = Text("no pair beats a pair")
_A_STRAIGHT: Final = Text("a straight")
_A_FLUSH: Final = Text("a flush")

HIGH_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("high", "AsAdKc7h3s", "AhAcQs9d8c", Text("the next card decides")),
    Beats("high", "KsKd2c2h3s", "QsQdJcJh9s", Text("the higher pair counts first")),
    Beats("high", "6s5d4c3h2s", "5h4d3d2cAh", Text("A-2-3-4-5 is the lowest straight")),
)
DEUCE_TO_SEVEN_BEST: Final = BestHands("deuce-to-seven", ("7s5d4c3h2s", "7s6d4c3h2s", "7s6d5c3h2s", "7s6d5c4h2s",
                                                          "8s5d4c3h2s"))
DEUCE_TO_SEVEN_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("deuce-to-seven", "8s6d5c4h3s", "8h7c4d3d2c", _SECOND_CARD),
    Beats("deuce-to-seven", "8s7d6c5h3s", "As5d4c3h2s", Text("the ace is high")),
    Beats("deuce-to-seven", "KsQdJcTh8s", "7s6d5c4h3s", _A_STRAIGHT),
    Beats("deuce-to-seven", "9s8d6c4s3s", "7h5h4h3h2h", _A_FLUSH, suits=True),
    Beats("deuce-to-seven", "AsKdQcJh9s", "2s2d5c4h3s", _NO_PAIR_BEATS_A_PAIR),
)
ACE_TO_FIVE_BEST: Final = BestHands("ace-to-five", ("5s4d3c2hAs", "6s4d3c2hAs", "6s5d3c2hAs", "6s5d4c2hAs",
                                                    "6s5d4c3hAs", "6s5d4c3h2s", "7s4d3c2hAs"))
ACE_TO_FIVE_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("ace-to-five", "7s5d4c3h2s", "7h6c3d2dAc", _SECOND_CARD),
    Beats("ace-to-five", "6s5s4s3s2s", "7h5c4d3dAc", Text("straights and flushes do not count"), suits=True),
    Beats("ace-to-five", "KsJd8c6h4s", "AsAd4c3h2s", _NO_PAIR_BEATS_A_PAIR),
    Beats("ace-to-five", "AsAd9c8h7s", "2s2d5c4h3s", Text("aces are the lowest pair")),
)
ACE_TO_SIX_BEST: Final = BestHands("ace-to-six", ("6s4d3c2hAs", "6s5d3c2hAs", "6s5d4c2hAs", "6s5d4c3hAs",
                                                  "7s4d3c2hAs"))
ACE_TO_SIX_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats("ace-to-six", "7s4d3c2hAs", "6s5d4c3h2s", _A_STRAIGHT),
    Beats("ace-to-six", "8s7d6c4h3s", "5s4d3c2hAs", Text("A-2-3-4-5 is a straight")),
    Beats("ace-to-six", "9s8d6c4s3s", "7h5h4h3hAh", _A_FLUSH, suits=True),
    Beats("ace-to-six", "KsQdJcTh8s", "AsAd4c3h2s", _NO_PAIR_BEATS_A_PAIR),
)
BADUGI_BEST: Final = BestHands(_BADUGI, ("4s3h2dAc",))
BADUGI_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats(_BADUGI, "6s4h3dAc", "6d5c2hAs", Text("both badugis: the 4 beats the 5"), suits=True),
    Beats(_BADUGI, "KsQhJdTc", "Ac2d3h3s", Text("four cards beat three"), suits=True),
    Beats(_BADUGI, "Ac2c3h4s", "2d3s4h5h", Text("three cards each: 4-3-A beats 4-3-2"), suits=True),
)

EIGHT_OR_BETTER: Final = "eight-or-better"
EIGHT_OR_BETTER_BEST: Final = BestHands(EIGHT_OR_BETTER, ("5s4d3c2hAs", "6s4d3c2hAs", "6s5d3c2hAs"))
EIGHT_OR_BETTER_WORST: Final = "8s7d6c5h4s"
"""The worst low that qualifies."""
EIGHT_OR_BETTER_NO_LOW: Final = ("9s5d4c3h2s", "7s7d4c3h2s")
"""Hands the text says hold no low: a nine, a pair."""
EIGHT_OR_BETTER_CLAIMS: Final[tuple[Beats, ...]] = (
    Beats(EIGHT_OR_BETTER, "8s5d4c3h2s", "8h6c4d3dAc", _SECOND_CARD),
    Beats(EIGHT_OR_BETTER, "6s5d4c3h2s", "7h5c4d3dAc", Text("a straight does not count")),
)

CLAIMS: Final[tuple[Claim, ...]] = (
    HIGH_ORDER, *HIGH_CLAIMS,
    DEUCE_TO_SEVEN_ORDER, DEUCE_TO_SEVEN_BEST, *DEUCE_TO_SEVEN_CLAIMS,
    ACE_TO_FIVE_ORDER, ACE_TO_FIVE_BEST, *ACE_TO_FIVE_CLAIMS,
    ACE_TO_SIX_ORDER, ACE_TO_SIX_BEST, *ACE_TO_SIX_CLAIMS,
    BADUGI_BEST, *BADUGI_CLAIMS,
    EIGHT_OR_BETTER_BEST, *EIGHT_OR_BETTER_CLAIMS,
)


_KINGS_FULL: Final = Text("kings full of nines")
_ACE_HIGH_STRAIGHT: Final = Text("a straight, ace high")


@dataclass(frozen=True, slots=True)
class AssassinExample:
    """The seed's worked example: a dealt two thrown face up for a sixth card, against a hand holding a two."""

    dealt: str = "2cKhKc9s7d"
    face_up: str = "2c"
    face_down: str = "7d"
    received: str = "Ks9h4d"
    plays: str = "KhKcKs9s9h"
    plays_as: Text = _KINGS_FULL
    other: str = "AsAdAh8c2d"

    def render(self, fmt: CardFormat, *, lang: Language) -> str:
        """The example as bullets."""
        return _bullets([
            say(lang, "Ann is dealt {cards}.", cards=fmt(self.dealt)),
            say(lang, "She throws {face_up} face up and {face_down} face down: 2 new cards and 1 extra, {received}.",
                face_up=fmt(self.face_up), face_down=fmt(self.face_down), received=fmt(self.received)),
            say(lang, "Her best five: {cards}, {hand}.", cards=fmt(self.plays), hand=self.plays_as),
            say(lang, "Bo shows {cards}: three aces, and a two. Bo is assassinated; Ann wins.", cards=fmt(self.other)),
        ])


ASSASSIN_EXAMPLE: Final = AssassinExample()


@dataclass(frozen=True, slots=True)
class OmahaExample:
    """Two plus three: one spade in the hand and four on the board make no flush in Omaha (in hold'em they
    would). ``extra``: Big O's fifth hole card."""

    hole: str = "AsKd9h4c"
    extra: str = "7h"
    board: str = "QsJsTs5s2d"
    plays: str = "AsKdQsJsTs"
    plays_as: Text = _ACE_HIGH_STRAIGHT

    def hand(self, hole_cards: int) -> str:
        """The hole cards of a game dealing ``hole_cards`` (four, or five in Big O)."""
        return " ".join(c.code for c in parse_cards(self.hole + self.extra)[:hole_cards])

    def render(self, hole_cards: int, fmt: CardFormat, *, lang: Language) -> str:
        """The example as bullets."""
        return _bullets([
            say(lang, "You hold {hand}; the board is {board}.", hand=fmt(self.hand(hole_cards)), board=fmt(self.board)),
            say(lang, "Four spades on the board and one in your hand: no flush, you need two of your own."),
            say(lang, "Your hand is {cards}, {hand} (two of yours, three of the board's).", cards=fmt(self.plays),
                hand=self.plays_as),
        ])


OMAHA_EXAMPLE: Final = OmahaExample()


@dataclass(frozen=True, slots=True)
class BringInExample:
    """Third street's up cards, and the one that brings in (``low``: razz, the highest card)."""

    up: str
    brings_in: str
    why: Text
    low: bool = False

    def render(self, fmt: CardFormat, *, lang: Language) -> str:
        """``"Up cards ...: the 3♣ brings in (...)."``"""
        return say(lang, "Up cards {up}: {card} brings in ({why}).", up=fmt(self.up), card=fmt(self.brings_in),
                   why=self.why)


STUD_BRING_IN_EXAMPLE: Final = BringInExample("Kd3h3cAs9d", "3c", Text("the lowest card; clubs below hearts"))
RAZZ_BRING_IN_EXAMPLE: Final = BringInExample("2dKhKsAc9d", "Ks", Text("the highest card; spades above hearts"),
                                              low=True)


# ---------------------------------------------------------------- the games

RULE_GAMES: Final[tuple[str, ...]] = tuple(GAMES)
"""Every game ``/poker rules`` explains: the engine's games (``bot.poker.GAMES``), draw, flop and stud."""

MIXED_PAGE_IDS: Final[tuple[str, ...]] = MIXES
"""The ids that give the page of the mixed games (``horse``, ``eight-game``, ``rotation``: a table's mixes)."""


def rules_game(game_id: str) -> Game:
    """The game of one page; ValueError (a ``Text``) naming the games if there is none."""
    game = GAMES.get(game_id)
    if game is None:
        raise ValueError(Text("There is no game `{game}`. Choose one of: {games}.", game=game_id,
                              games=", ".join((*RULE_GAMES, *MIXES))))
    return game


GAME_BLURB_TEXTS: Final[dict[str, Text]] = {
    "five-card-draw": Text("One draw; the best high hand wins"),
    "assassin": Text("Five Card Draw where a two in your hand loses the showdown"),
    "single-draw-27": Text("One draw; lowest wins, aces high, straights and flushes hurt"),
    "single-draw-a5": Text("One draw; lowest wins, aces low, straights and flushes are fine"),
    "single-draw-a6": Text("One draw; lowest wins, aces low, straights and flushes hurt"),
    "double-draw-27": Text("Two draws; lowest wins, aces high, straights and flushes hurt"),
    "double-draw-a5": Text("Two draws; lowest wins, aces low, straights and flushes are fine"),
    "double-draw-a6": Text("Two draws; lowest wins, aces low, straights and flushes hurt"),
    "triple-draw-27": Text("Three draws; lowest wins, aces high, straights and flushes hurt"),
    "triple-draw-a5": Text("Three draws; lowest wins, aces low, straights and flushes are fine"),
    "triple-draw-a6": Text("Three draws; lowest wins, aces low, straights and flushes hurt"),
    "badugi": Text("Four cards, three draws; lowest wins with four suits and four ranks"),
    "holdem": Text("Two cards each and five shared on the board; the best high hand wins"),
    "omaha": Text("Four cards each, five on the board; you play exactly two of yours and three of the board"),
    "omaha-hilo": Text("Omaha with the pot split between the best high and the best low (eight or better)"),
    "big-o": Text("Omaha hi-lo with five cards each; still exactly two of yours and three of the board"),
    "stud": Text("Seven cards each, three down and four up, no board; the best high hand wins"),
    "stud-hilo": Text("Seven card stud with the pot split between high and a low of eight or better"),
    "razz": Text("Seven card stud where the lowest hand wins; aces low, straights and flushes are fine"),
}
"""One line a game (at most 100 characters in every language: a select option's description)."""

MIX_BLURB_TEXTS: Final[dict[str, Text]] = {
    "horse": Text("Hold'em, Omaha hi-lo, Razz, Stud and Stud hi-lo in turn, all fixed limit"),
    "eight-game": Text("2-7 Triple Draw, the five HORSE games, no-limit hold'em and pot-limit Omaha in turn"),
    "rotation": Text("The host's own list of games, each in its structure, in turn"),
}
"""One line a mix (at most 100 characters)."""

GAME_BLURBS: Final[dict[str, str]] = {game: str(text) for game, text in GAME_BLURB_TEXTS.items()}
"""The games' lines in English (``game_blurb`` words one in a reader's language)."""
MIX_BLURBS: Final[dict[str, str]] = {mix: str(text) for mix, text in MIX_BLURB_TEXTS.items()}
"""The mixes' lines in English."""


def game_blurb(game_id: str, *, lang: Language = ENGLISH) -> str:
    """A game's line (``GAME_BLURB_TEXTS``) in ``lang``; "" for a game without one."""
    text = GAME_BLURB_TEXTS.get(game_id)
    return text.worded(lang) if text is not None else ""


_EXAMPLE_BLINDS: Final = (5, 10)  # the blinds of the stud stakes' example


def _bullets(lines: Sequence[str]) -> str:
    return "\n".join(f"- {line}" for line in lines)


def _wins(g: Game, lang: Language) -> str:
    if g.hi_lo:
        return say(lang, "The best high hand and the best low of eight or better split the pot.")
    if g.is_lowball:
        return say(lang, "The lowest hand wins.")
    return say(lang, "The best high hand wins.")


_DEALS: Final[dict[tuple[str, int, int, int], Text]] = {
    # A game's deal (``_deal``): draw games by cards, draws and betting rounds; flop games (Omaha apart) by hole
    # cards, board and rounds; stud by cards, down cards and rounds. A new kind of game needs its sentence here.
    ("draw", 5, 1, 2): Text("Five cards each, one draw, two betting rounds."),
    ("draw", 5, 2, 3): Text("Five cards each, two draws, three betting rounds."),
    ("draw", 5, 3, 4): Text("Five cards each, three draws, four betting rounds."),
    ("draw", 4, 3, 4): Text("Four cards each, three draws, four betting rounds."),
    ("flop", 2, 5, 4): Text("Two cards each and five on the board, four betting rounds."),
    ("omaha", 4, 5, 4): Text("Four cards each and five on the board (you play exactly two of yours and three of "
                             "the board), four betting rounds."),
    ("omaha", 5, 5, 4): Text("Five cards each and five on the board (you play exactly two of yours and three of "
                             "the board), four betting rounds."),
    ("stud", 7, 3, 5): Text("Seven cards each, three down and four up, no board, five betting rounds."),
}


def _deal(g: Game, lang: Language) -> str:
    """The summary's sentence of the cards and the betting rounds (one of ``_DEALS``)."""
    if g.family == "draw":
        shape = ("draw", g.hand_size, g.draws, g.betting_rounds)
    elif g.family == "flop":
        shape = ("omaha" if g.omaha else "flop", g.hole_cards, g.board_size, g.betting_rounds)
    else:
        shape = ("stud", g.hand_size, g.down_cards, g.betting_rounds)
    return _DEALS[shape].worded(lang)


def _players(g: Game, lang: Language) -> str:
    if g.default_structure == "fixed-limit":
        return say(lang, "2 to {players} players; fixed limit unless the host picks another.", players=g.max_players)
    if g.default_structure == "pot-limit":
        return say(lang, "2 to {players} players; pot limit unless the host picks another.", players=g.max_players)
    return say(lang, "2 to {players} players; no limit unless the host picks another.", players=g.max_players)


def _summary(g: Game, lang: Language) -> str:
    return " ".join((_wins(g, lang), _deal(g, lang), _players(g, lang)))


def _showdown(g: Game, lang: Language) -> str:
    """The showdown's line of a draw or flop game."""
    if g.assassin:
        return say(lang, "Showdown: the best hand without a two wins. Equal hands split; odd chips go to the first "
                   "winners left of the button.")
    if g.hi_lo:
        return say(lang, "Showdown: the best high hand and the best low split the pot (below). Equal hands split; "
                   "odd chips go to the first winners left of the button.")
    if g.is_lowball:
        return say(lang, "Showdown: the lowest hand wins the whole pot (no qualifier). Equal hands split; odd chips "
                   "go to the first winners left of the button.")
    return say(lang, "Showdown: the best high hand wins. Equal hands split; odd chips go to the first winners left "
               "of the button.")


def _stud_showdown(g: Game, lang: Language) -> str:
    """The showdown's line of a stud game (no button: odd chips go left of the dealer)."""
    if g.hi_lo:
        return say(lang, "Showdown: the best five of your seven cards; the best high hand and the best low split the "
                   "pot (below). Equal hands split; odd chips go to the first winners left of the dealer.")
    if g.is_lowball:
        return say(lang, "Showdown: the best five of your seven cards; the lowest hand wins the whole pot (no "
                   "qualifier). Equal hands split; odd chips go to the first winners left of the dealer.")
    return say(lang, "Showdown: the best five of your seven cards; the best high hand wins. Equal hands split; odd "
               "chips go to the first winners left of the dealer.")


_BLINDS: Final = Text("Blinds: the small blind left of the button, the big blind next. The host may add an ante from "
                      "everyone.")
_BLINDS_OR_ANTES: Final = Text("Blinds: the small blind left of the button, the big blind next. The host may add an "
                               "ante from everyone, or play antes only (then betting starts left of the button).")
_UNCONTESTED: Final = Text("If everyone else folds, the last player wins without showing.")
_BUTTON_MOVES: Final = Text("The button moves one seat left each hand.")
_DRAW_ROUNDS: Final[dict[int, Text]] = {
    1: Text("Then the draw, and the second betting round."),
    2: Text("Then draw 1, betting round 2, draw 2, betting round 3."),
    3: Text("Then draw 1, betting round 2, draw 2, betting round 3, draw 3, betting round 4."),
}


def _hand_goes(g: Game, lang: Language) -> Section:
    if g.draws == 1:
        heads_up = say(lang, "Heads-up, the button posts the small blind; he acts first before the first draw, last "
                       "after it.")
    else:
        heads_up = say(lang, "Heads-up, the button posts the small blind; he acts first before the first draw, last "
                       "after every draw.")
    lines = [
        _BUTTON_MOVES.worded(lang),
        (_BLINDS if g.is_lowball else _BLINDS_OR_ANTES).worded(lang),
        say(lang, "Everyone gets {cards} cards face down, one at a time.", cards=g.hand_size),
        say(lang, "Betting round 1 starts left of the big blind."),
        _DRAW_ROUNDS[g.draws].worded(lang),
        say(lang, "After each draw, betting starts left of the button."),
        _showdown(g, lang),
        _UNCONTESTED.worded(lang),
        heads_up,
    ]
    return Section(say(lang, "How a hand goes"), _bullets(lines))


_OMAHA_HANDS: Final[dict[int, Text]] = {
    4: Text("Your hand: exactly two of your four cards with exactly three of the board, never more, never fewer."),
    5: Text("Your hand: exactly two of your five cards with exactly three of the board, never more, never fewer."),
}


def _flop_hand_goes(g: Game, lang: Language) -> Section:
    if g.omaha:
        hand = _OMAHA_HANDS[g.hole_cards].worded(lang)
    else:
        hand = say(lang, "Your hand: the best five of your two cards and the five on the board, in any mix (the board "
                   "alone too).")
    lines = [
        _BUTTON_MOVES.worded(lang),
        _BLINDS.worded(lang),
        say(lang, "Everyone gets {cards} cards face down, one at a time. Betting round 1 starts left of the big blind.",
            cards=g.hole_cards),
        say(lang, "The flop: a burn, then three cards face up in the middle, shared by all. Betting round 2."),
        say(lang, "The turn: burn, a fourth card on the board. Betting round 3."),
        say(lang, "The river: burn, a fifth and last card. Betting round 4."),
        say(lang, "From the flop on, betting starts with the first player still in left of the button."),
        say(lang, "Nobody draws, and the deck always has cards enough for a full table."),
        hand,
        _showdown(g, lang),
        _UNCONTESTED.worded(lang),
        say(lang, "Heads-up, the button posts the small blind; he acts first before the flop, last after it."),
    ]
    return Section(say(lang, "How a hand goes"), _bullets(lines))


def _omaha(g: Game, fmt: CardFormat, lang: Language) -> Section:
    return Section(say(lang, "Two plus three"), OMAHA_EXAMPLE.render(g.hole_cards, fmt, lang=lang))


def _stud_hand_goes(g: Game, lang: Language) -> Section:
    if g.is_lowball:
        first = say(lang, "From fourth street on, the lowest hand showing in up cards acts first (aces low; a pair "
                    "counts against you). He may check.")
    else:
        first = say(lang, "From fourth street on, the best hand showing in up cards acts first: pairs, two pair, trips "
                    "and quads count; straights and flushes do not. He may check.")
    lines = [
        say(lang, "No blinds, and no button in the betting: everyone posts the ante before the cards."),
        say(lang, "Third street: two cards face down and one face up to each player. The bring-in opens the betting "
            "(below)."),
        say(lang, "Fourth, fifth and sixth street: one more card face up each, then a betting round."),
        say(lang, "Seventh street: a last card face down, and a last betting round."),
        say(lang, "A card is burned before each street from fourth street on."),
        first,
        say(lang, "Equal showings: the first of them clockwise from the dealer's left acts."),
        say(lang, "Up cards are on show to everyone, a folded player's too, until the hand ends; down cards stay "
            "private."),
        _stud_showdown(g, lang),
        _UNCONTESTED.worded(lang),
    ]
    return Section(say(lang, "How a hand goes"), _bullets(lines))


def _bring_in(g: Game, fmt: CardFormat, lang: Language) -> Section:
    if g.is_lowball:
        who = say(lang, "The highest up card brings in: aces are low and kings highest; between equal ranks the higher "
                  "suit (spades, then hearts, diamonds, clubs).")
        example = RAZZ_BRING_IN_EXAMPLE
        short = say(lang, "All in on your ante: you take no part in the betting, and the bring-in falls to the next "
                    "highest card.")
    else:
        who = say(lang, "The lowest up card brings in: aces are high; between equal ranks the lower suit (clubs, then "
                  "diamonds, hearts, spades).")
        example = STUD_BRING_IN_EXAMPLE
        short = say(lang, "All in on your ante: you take no part in the betting, and the bring-in falls to the next "
                    "lowest card.")
    lines = [
        who,
        example.render(fmt, lang=lang),
        say(lang, "He posts the bring-in, or completes: puts in a full small bet instead."),
        say(lang, "The others, in turn to his left, fold, call the bring-in, or complete. After a completion, each "
            "raise is one more small bet."),
        short,
        say(lang, "Not enough chips for the whole bring-in? Post what you have: you are all in."),
    ]
    return Section(say(lang, "The bring-in"), _bullets(lines))


def _running_out(lang: Language) -> Section:
    return Section(say(lang, "Running out of cards"), _bullets([
        say(lang, "Eight players can need 56 cards, more than the deck's 52."),
        say(lang, "Before a street, if the deck cannot give a card to everyone still in plus the burn, no card is "
            "burned."),
        say(lang, "If it still falls short, one card is dealt face up in the middle: a community card that every "
            "player still in uses as his card of that street (and so for any later street)."),
    ]))


def _draws(g: Game, lang: Language) -> Section:
    lines = [
        say(lang, "A card is burned before each draw, even if everyone stands pat."),
        say(lang, "From left of the button, each player throws 0 to {cards} cards (or stands pat) and gets all the new "
            "ones before the next player draws.", cards=g.hand_size),
        say(lang, "Your draw is final once the new cards are dealt."),
        say(lang, "Deck used up? The muck (discards, burns, folded hands) is shuffled into a new deck; you never get "
            "back a card you just threw."),
    ]
    if g.allows_draw_limit:
        lines.append(say(lang, "Draw limit (host's choice): none (the default), 3 cards, or 3 and 4 if the card you "
                         "keep is an ace."))
    return Section(say(lang, "The draw") if g.draws == 1 else say(lang, "The draws"), _bullets(lines))


def stud_stakes(big_blind: int) -> tuple[int, int]:
    """The stud ante and bring-in the table computes from its big blind (``bot.poker.stakes``)."""
    ante = stud_ante(big_blind)
    return ante, stud_bring_in(big_blind, ante)


def _stud_stakes_lines(lang: Language) -> list[str]:
    small, big = _EXAMPLE_BLINDS
    ante, bring_in = stud_stakes(big)
    return [
        say(lang, "The stakes come from the table's blinds. Ante: the big blind / 5, rounded down (at least 1). "
            "Bring-in: the big blind / 4, rounded up (at least the ante)."),
        say(lang, "Blinds {small}/{big}: ante {ante}, bring-in {bring_in}, small bet {big}, big bet {big_bet}.",
            small=small, big=big, ante=ante, bring_in=bring_in, big_bet=2 * big),
        say(lang, "The host may set them (`stud_ante:`, `bring_in:`); the bring-in is never more than the small bet."),
    ]


_MULTI_DRAW_BETS: Final[dict[tuple[int, int], Text]] = {
    # (the big bet's first round, the betting rounds) of a game of two or more draws.
    (3, 3): Text("Small bet in rounds 1 and 2, big bet in round 3 (after the second draw)."),
    (3, 4): Text("Small bet in rounds 1 and 2, big bet in rounds 3 and 4 (after the second draw)."),
}


def _fixed_limit(g: Game, lang: Language) -> Section:
    lines: list[str]
    if g.is_stud:
        lines = [
            say(lang, "Small bet = the big blind, on third and fourth street; big bet = twice that, from fifth street "
                "on."),
            *_stud_stakes_lines(lang),
            say(lang, "Each bet, completion or raise is exactly one bet."),
            say(lang, "Cap: 4 bets a round (a bet and 3 raises; the completion is the first bet; the bring-in does not "
                "count). The host may change it (up to 5)."),
        ]
        if g.offers_open_pair:
            lines.append(say(lang, "Open pair (host's choice): a pair showing on fourth street lets anyone bet or "
                             "raise the big bet there."))
    else:
        if g.family == "flop":
            when = say(lang, "Small bet before the flop and on it, big bet on the turn and the river.")
        elif g.draws == 1:
            when = say(lang, "Small bet before the draw, big bet after it.")
        else:
            when = _MULTI_DRAW_BETS[g.default_big_bet_round, g.betting_rounds].worded(lang)
        lines = [
            say(lang, "Small bet = the big blind; big bet = twice that."),
            when,
            say(lang, "Blinds 1/2: bets and raises of 2, then of 4."),
            say(lang, "Each bet or raise is exactly one bet."),
            say(lang, "Cap: 4 bets a round (a bet and 3 raises; the big blind is the first bet). The host may change "
                "it (up to 5)."),
        ]
    lines.append(say(lang, "No cap when a round starts with only two players in the hand."))
    if g.family == "draw":
        lines.append(say(lang, "The host may move the big bet's round; the table message says which."))
    if g.default_structure == "fixed-limit":
        return Section(say(lang, "Fixed limit (default)"), _bullets(lines))
    return Section(say(lang, "Fixed limit"), _bullets(lines))


def _big_bets(g: Game, lang: Language) -> Section:
    if g.is_stud:
        lines = [
            say(lang, "Ante and bring-in as in fixed limit. The smallest bet or completion is the small bet (the big "
                "blind); a raise adds at least the last bet or raise of the round."),
            say(lang, "No limit: bet up to all your chips."),
            say(lang, "Pot limit: raise to at most your call plus the pot after it."),
        ]
    else:
        lines = [
            say(lang, "Smallest bet: the big blind. A raise adds at least the last bet or raise of the round (blinds "
                "1/2: raise to 4 or more)."),
            say(lang, "No limit: bet up to all your chips."),
            say(lang, "Pot limit: raise to at most your call plus the pot after it. Blinds 1/2, first to act: call 2, "
                "the pot is 5, so raise to 7 at most."),
        ]
    if g.default_structure == "no-limit":
        title = say(lang, "No limit (default) and pot limit")
    elif g.default_structure == "pot-limit":
        title = say(lang, "Pot limit (default) and no limit")
    else:
        title = say(lang, "Pot limit and no limit")
    return Section(title, _bullets(lines))


def _all_in(lang: Language) -> Section:
    lines = [
        say(lang, "Short of chips? Go all in: you can win from each player only what you matched. The rest is a side "
            "pot; each pot is won separately."),
        say(lang, "An all-in that is less than a full raise does not reopen the betting: players who already acted "
            "may only call or fold, unless the raises since add up to a full one (fixed limit: an all-in of half a "
            "bet or more counts as a full bet)."),
    ]
    return Section(say(lang, "All in"), _bullets(lines))


def _high_ranking(fmt: CardFormat, lang: Language) -> Section:
    body = HIGH_ORDER.render_examples(fmt, lang=lang) + "\n" + _bullets([
        say(lang, "The ace is high, or low in 5-4-3-2-A. Suits never rank."),
        *(c.render(fmt, lang=lang) for c in HIGH_CLAIMS),
    ])
    return Section(say(lang, "Hands, best first"), body)


def _low_ranking(g: Game, fmt: CardFormat, lang: Language) -> tuple[Section, ...]:
    if g.ranking == "deuce-to-seven":
        order, best, claims = DEUCE_TO_SEVEN_ORDER, DEUCE_TO_SEVEN_BEST, DEUCE_TO_SEVEN_CLAIMS
        title = say(lang, "Which hand wins: 2-7 low")
        rules = [say(lang, "Aces are high: an ace is your worst card."),
                 say(lang, "Straights and flushes count against you; A-5-4-3-2 is no straight, just ace high."),
                 say(lang, "The best hand: {hand}, not all one suit.", hand=ranks_only(best.hands[0]))]
    elif g.ranking == "ace-to-five":
        order, best, claims = ACE_TO_FIVE_ORDER, ACE_TO_FIVE_BEST, ACE_TO_FIVE_CLAIMS
        title = say(lang, "Which hand wins: A-5 low")
        rules = [say(lang, "Aces are low: an ace is your best card."),
                 say(lang, "Straights and flushes do not count: only pairs hurt."),
                 say(lang, "The best hand: {hand} (the wheel), any suits.", hand=ranks_only(best.hands[0]))]
    else:
        order, best, claims = ACE_TO_SIX_ORDER, ACE_TO_SIX_BEST, ACE_TO_SIX_CLAIMS
        title = say(lang, "Which hand wins: A-6 low")
        rules = [say(lang, "Aces are low: an ace is your best card."),
                 say(lang, "Straights and flushes count against you: 5-4-3-2-A is a straight; A-K-Q-J-10 is king "
                     "high."),
                 say(lang, "The best hand: {hand}, not all one suit.", hand=ranks_only(best.hands[0]))]
    ranking = Section(title, _bullets([
        say(lang, "The lowest hand wins."),
        *rules,
        say(lang, "Compare the highest cards first, then the next ones: the lower card wins."),
        order.render_names(lang=lang) + ".",
        say(lang, "Suits never rank."),
    ]))
    examples = Section(say(lang, "Examples"), _bullets([
        say(lang, "Best hands: {hands}.", hands=best.render(fmt, lang=lang)),
        *(c.render(fmt, lang=lang) for c in claims),
    ]))
    return ranking, examples


def _badugi_ranking(fmt: CardFormat, lang: Language) -> tuple[Section, ...]:
    ranking = Section(say(lang, "Which hand wins: Badugi"), _bullets([
        say(lang, "The lowest hand wins; aces are low."),
        say(lang, "Your hand plays its most cards of different suits and different ranks: a four-card \"badugi\" "
            "beats any three cards, three beat two, two beat one."),
        say(lang, "If you can make several such sets, the lowest one plays."),
        say(lang, "Same number of cards: compare the highest card, then the next: the lower card wins."),
        say(lang, "Suits never rank; equal hands split."),
    ]))
    examples = Section(say(lang, "Examples"), _bullets([
        say(lang, "Best hand: {cards}.", cards=fmt(BADUGI_BEST.hands[0])),
        *(c.render(fmt, lang=lang) for c in BADUGI_CLAIMS),
    ]))
    return ranking, examples


def _assassin(fmt: CardFormat, lang: Language) -> tuple[Section, ...]:
    twos = Section(say(lang, "Twos kill"), _bullets([
        say(lang, "Twos are \"assassins\", not wild. Jokers option: two jokers join the deck and count as twos."),
        say(lang, "A hand holding a two loses every showdown, whatever else it holds: dealt, kept or drawn, every two "
            "kills."),
        say(lang, "You may still bet and bluff: if everyone folds, you win without showing."),
        say(lang, "At the draw, twos you were dealt may be thrown face up (all can see them): throw at least one face "
            "up and you get one extra card, a six-card hand."),
        say(lang, "Or throw a two face down (no extra card), or keep it."),
        say(lang, "Face-up twos count toward the draw limit; the extra card does not."),
        say(lang, "A six-card hand plays its best five, and all six are shown."),
    ]))
    carried = Section(say(lang, "Carried pots"), _bullets([
        say(lang, "Each pot (main and side pots apart) goes to the best hand without a two among its players."),
        say(lang, "If every hand in a pot holds a two, nobody wins it: it is carried into the next deal here, whatever "
            "game that is. The table message shows carried chips."),
        say(lang, "If the table closes first, carried chips go back to those who put them in, in proportion (odd "
            "chips first to the left of the button)."),
        say(lang, "A pot with only one player left in it is his, whatever he holds."),
    ]))
    example = Section(say(lang, "Example"), ASSASSIN_EXAMPLE.render(fmt, lang=lang))
    return twos, carried, example


def _hi_lo(g: Game, fmt: CardFormat, lang: Language) -> tuple[Section, ...]:
    if g.omaha:
        cards = say(lang, "For the low too you play exactly two of your cards and three of the board; the low may use "
                    "other cards of yours than the high.")
    else:
        cards = say(lang, "High and low each play any five of your seven cards, the same ones or not.")
    nine, pair = EIGHT_OR_BETTER_NO_LOW
    split = Section(say(lang, "High and low"), _bullets([
        say(lang, "Cards speak: nothing is declared. Each pot, side pots too, is split in two halves."),
        say(lang, "Half to the best high hand; half to the best low of eight or better."),
        say(lang, "A low must have five cards of different ranks, all eight or lower. Aces are low; straights and "
            "flushes do not count against it."),
        say(lang, "No low: {nine} or {pair} (a nine, a pair).", nine=ranks_only(nine), pair=ranks_only(pair)),
        say(lang, "Nobody has a low? The best high hand takes the whole pot."),
        say(lang, "One hand may win both halves: a scoop."),
        say(lang, "An odd chip goes to the high half; equal hands split their half."),
        cards,
    ]))
    examples = Section(say(lang, "Lows, best first"), _bullets([
        say(lang, "Best lows: {hands}; the worst: {worst}.", hands=EIGHT_OR_BETTER_BEST.render(fmt, lang=lang),
            worst=ranks_only(EIGHT_OR_BETTER_WORST)),
        *(c.render(fmt, lang=lang) for c in EIGHT_OR_BETTER_CLAIMS),
    ]))
    return split, examples


def _sitting_out(lang: Language) -> str:
    if TIMEOUTS_TO_SIT_OUT == 2:
        return say(lang, "Time out in two hands in a row and you are sat out until you come back (`/poker sitin`).")
    return say_n(lang, "Time out in {count} hand in a row and you are sat out until you come back (`/poker sitin`).",
                 "Time out in {count} hands in a row and you are sat out until you come back (`/poker sitin`).",
                 TIMEOUTS_TO_SIT_OUT)


def _table_conventions(lang: Language) -> Section:
    """The conventions of every table: the last section of each page (said once in docs/rules.md)."""
    return Section(say(lang, "At the table"), _bullets([
        say(lang, "Your cards come by DM (or `/poker hand`); nobody's cards are shown before the showdown."),
        say(lang, "Clock: {seconds} s a move unless the host sets another. Out of time, you check if you can, else "
            "fold; in a draw you stand pat.", seconds=DEFAULT_CLOCK),
        _sitting_out(lang),
        say(lang, "Dealer's choice: before each hand (or orbit) the button picks the game, draw, flop or stud, and the "
            "structure if the host allows; no pick in time, the last game again."),
        say(lang, "Leaving mid-hand folds you; you are cashed out when the hand ends."),
    ]))


def _rankings(g: Game, fmt: CardFormat, lang: Language) -> tuple[Section, ...]:
    if g.ranking == "high":
        ranking: tuple[Section, ...] = (_high_ranking(fmt, lang),)
    elif g.ranking == _BADUGI:
        ranking = _badugi_ranking(fmt, lang)
    else:
        ranking = _low_ranking(g, fmt, lang)
    return (*ranking, *(_hi_lo(g, fmt, lang) if g.hi_lo else ()))


def _game_page(game_id: str, fmt: CardFormat, lang: Language) -> RulesPage:
    g = rules_game(game_id)
    if g.family == "draw":
        play: tuple[Section, ...] = (_hand_goes(g, lang), _draws(g, lang))
    elif g.family == "flop":
        play = (_flop_hand_goes(g, lang), *((_omaha(g, fmt, lang),) if g.omaha else ()))
    else:
        play = (_stud_hand_goes(g, lang), _bring_in(g, fmt, lang), _running_out(lang))
    betting = (_fixed_limit(g, lang), _big_bets(g, lang))
    if g.default_structure != "fixed-limit":
        betting = betting[::-1]
    sections = (*play, *_rankings(g, fmt, lang), *(_assassin(fmt, lang) if g.assassin else ()), *betting,
                _all_in(lang), _table_conventions(lang))
    return RulesPage(g.name, _summary(g, lang), sections)


def _mix_game(entry: MixGame, lang: Language) -> str:
    """``"Razz, fixed limit"``: a game of a mix and its structure."""
    if entry.structure == "fixed-limit":
        return say(lang, "{game}, fixed limit", game=entry.game.name)
    if entry.structure == "pot-limit":
        return say(lang, "{game}, pot limit", game=entry.game.name)
    return say(lang, "{game}, no limit", game=entry.game.name)


def _mix_section(title: str, games: Sequence[MixGame], lang: Language) -> Section:
    return Section(title, _bullets([
        *(_mix_game(entry, lang) for entry in games),
        say(lang, "Up to {players} players.", players=most_players(games)),
    ]))


def _mixed_page(lang: Language) -> RulesPage:
    small, big = _EXAMPLE_BLINDS
    ante, bring_in = stud_stakes(big)
    sections = (
        _mix_section(say(lang, "HORSE"), HORSE, lang),
        _mix_section(say(lang, "The 8-game mix"), EIGHT_GAME, lang),
        Section(say(lang, "Your own rotation"), _bullets([
            say(lang, "The host lists the games: `/poker create game:rotation games:\"holdem:no-limit, "
                "omaha:pot-limit, razz\"`."),
            say(lang, "Game ids, separated by commas; after a colon the structure (`fixed`, `pot` or `no`), else the "
                "game's own."),
            say(lang, "Up to {games} games; a game may come back in another structure.", games=MAX_ROTATION_GAMES),
            say(lang, "The table seats no more players than the game with the fewest seats allows."),
        ])),
        Section(say(lang, "How long each game lasts"), _bullets([
            say(lang, "One orbit: as many hands as there were players dealt into the game's first hand."),
            say(lang, "Or a set number of hands per game: the host's `hands_per_game:`."),
            say(lang, "The table message always shows the game, how many hands of it are left, and the next game."),
        ])),
        Section(say(lang, "The button in mixed play"), _bullets([
            say(lang, "In the draw and flop games it moves one seat after every hand."),
            say(lang, "In a rotation it stays put through the stud games (they bet without a button) and moves on "
                "with the next draw or flop game."),
            say(lang, "In dealer's choice it moves after every hand, stud too, and the player on it picks the next "
                "game."),
        ])),
        Section(say(lang, "One stake for every game"), _bullets([
            say(lang, "The table has one pair of blinds for every game it deals."),
            say(lang, "Draw and flop games post those blinds; in fixed limit they bet the big blind, then twice it."),
            say(lang, "Stud games, in any structure: ante = the big blind / 5, rounded down (at least 1); bring-in = "
                "the big blind / 4, rounded up (at least the ante); small bet the big blind, big bet twice it."),
            say(lang, "Blinds {small}/{big}: fixed-limit hold'em bets {big}, then {big_bet}; stud antes {ante}, brings "
                "in {bring_in}, bets {big}, then {big_bet}.", small=small, big=big, big_bet=2 * big, ante=ante,
                bring_in=bring_in),
            say(lang, "The host may set the stud ante and bring-in (`stud_ante:`, `bring_in:`)."),
            say(lang, "In a tournament each level's blinds carry to every game the same way."),
        ])),
    )
    return RulesPage(say(lang, "Mixed games"), say(lang, "HORSE, the 8-game mix or the host's own list: the table "
                                                   "deals one game after another, each for an orbit, with one stake "
                                                   "for them all."), sections)


_MIX_NAMES: Final[tuple[tuple[str, Text], ...]] = (
    ("horse", Text("HORSE")), ("eight-game", Text("8-game")), ("rotation", Text("Rotation")))


def _overview(lang: Language) -> RulesPage:
    def games(ids: Sequence[str]) -> str:
        return _bullets([say(lang, "**{game}**: {blurb}", game=GAMES[g].name, blurb=GAME_BLURB_TEXTS[g]) for g in ids])

    draw = [g for g in RULE_GAMES if GAMES[g].family == "draw"]
    high = [g for g in draw if not GAMES[g].is_lowball]
    sections = (
        Section(say(lang, "Draw games: the best hand wins"), games(high)),
        Section(say(lang, "Draw games: the lowest hand wins"), games([g for g in draw if g not in high])),
        Section(say(lang, "Flop games"), games([g for g in RULE_GAMES if GAMES[g].family == "flop"])),
        Section(say(lang, "Stud games"), games([g for g in RULE_GAMES if GAMES[g].is_stud])),
        Section(say(lang, "Mixed games"), _bullets([
            say(lang, "**{game}**: {blurb}", game=name, blurb=MIX_BLURB_TEXTS[mix]) for mix, name in _MIX_NAMES])),
        Section(say(lang, "The low rankings"), _bullets([
            say(lang, "2-7: aces high; straights and flushes hurt; best 7-5-4-3-2."),
            say(lang, "A-5 (and razz): aces low; straights and flushes do not count; best 5-4-3-2-A."),
            say(lang, "A-6: aces low; straights and flushes hurt; best 6-4-3-2-A."),
            say(lang, "Badugi: four cards of four suits and four ranks; best 4-3-2-A."),
            say(lang, "Eight or better (the low half of hi-lo): five different ranks, all 8 or lower, aces low; best "
                "5-4-3-2-A."),
        ])),
        Section(say(lang, "Betting"), _bullets([
            say(lang, "Fixed limit: every bet is the small bet (the big blind), later the big bet (twice it); 4 bets a "
                "round at most."),
            say(lang, "Pot limit: raise to at most your call plus the pot."),
            say(lang, "No limit: bet up to all your chips."),
            say(lang, "One stake for every game: the table's blinds. Stud games ante a fifth of the big blind and "
                "bring in a quarter of it."),
            say(lang, "A raise nobody can call is not offered: everyone else all in, you call the largest all-in or "
                "fold."),
            say(lang, "A blind or bring-in all in for less is still called in full; heads-up, a big blind all in below "
                "the small blind: the small blind takes back the difference."),
        ])),
        _table_conventions(lang),
    )
    return RulesPage(say(lang, "The games"), say(lang, "Draw games, flop games and stud games, one at a time or in a "
                                                 "rotation. `/poker rules game:` explains one game in full."), sections)


def rules_page(game_id: str | None = None, card_format: CardFormat = format_hand, *,
               lang: Language = ENGLISH) -> RulesPage:
    """The rules of one game (``game_id`` from ``RULE_GAMES``), the mixed games (an id of ``MIXED_PAGE_IDS``),
    or the overview of all games (None), worded in ``lang``.

    ``card_format`` writes every card list shown (``format_hand``'s text, or card emojis).
    Raises ValueError (a ``Text``) naming the games for an unknown id.
    """
    if game_id is None:
        return _overview(lang)
    if game_id in MIXED_PAGE_IDS:
        return _mixed_page(lang)
    return _game_page(game_id, card_format, lang)


# ---------------------------------------------------------------- the house rules as one document (docs/rules.md)


def _chips_and_nights(lang: Language) -> Section:
    least, most = DEFAULT_BUY_INS
    return Section(say(lang, "Chips and nights"), _bullets([
        say(lang, "You sit down with chips from your balance in the server's bank, and take your stack back when you "
            "leave."),
        say(lang, "Buy-ins: from {least} to {most} big blinds (antes, at a table without blinds) unless the host sets "
            "others; without an amount you bring the most the table allows that your balance covers.",
            least=least, most=most),
        say(lang, "Rebuy between hands, up to the table's largest buy-in; a stack that is empty needs the smallest "
            "buy-in."),
        say(lang, "A night of play ends when the host starts the next one or closes the table. Chips still carried to "
            "the next deal then go back to those who put them in, in proportion, so that a night's nets add up."),
    ]))


def _tournaments(lang: Language) -> Section:
    # The rebuy wait is a whole number of seconds (60): a quantity, written the reader's way.
    wait = int(REBUY_WAIT) if REBUY_WAIT.is_integer() else f"{REBUY_WAIT:g}"
    return Section(say(lang, "Tournaments"), _bullets([
        say(lang, "Everyone buys in once into the prize pool and starts with the same tournament chips; blinds rise on "
            "a clock, between hands, never during one."),
        say(lang, "A player sitting out is still dealt in: his blinds and antes are posted and the table checks or "
            "folds for him (stands pat in a draw), so that the tournament always ends."),
        say(lang, "Out of chips during the rebuy levels, you may buy back in until the end of the next hand dealt "
            "without you; if the table cannot deal without you, it waits {seconds} seconds.",
            seconds=wait),
        say(lang, "An Assassin pot carried when fewer than two players have chips left (or when everyone in it is all "
            "in) can never be played: it goes back to those who put it in."),
        say(lang, "The last player out places best. Players out in the same hand are placed by the chips they started "
            "it with; equal chips share the places and their prizes. The pool is paid when one player is left."),
    ]))


def _hand_histories(lang: Language) -> Section:
    return Section(say(lang, "Hand histories"), _bullets([
        say(lang, "`/poker history` and `/poker session export` give the hands as PHH files, the standard that other "
            "poker programs read and replay."),
        say(lang, "A file names the seats from the first left of the button, `p1`; heads-up, `p1` is the big blind "
            "and `p2` the button."),
        say(lang, "A draw round is written as the standard writes it: every discard of the round first, in draw "
            "order, then the new cards in the same order."),
        say(lang, "No card is ever in two places: a thrown, folded or burned card comes back only after a reshuffle, "
            "and never to the player who threw it in the same draw."),
    ]))


def rules_markdown(card_format: CardFormat = format_hand, *, lang: Language = ENGLISH) -> str:
    """The house rules as one markdown document (``docs/rules.md``, in English): the overview, each game's page (a
    section already said in an earlier page is not said again), the mixed games, then chips, nights and
    tournaments."""
    parts = [
        "# " + say(lang, "House rules"),
        say(lang, "How the bot plays: every game it deals and the conventions of its tables, as `/poker rules` tells "
            "them in Discord. Each comparison of hands stated here is checked against the engine by the tests. The "
            "sections are numbered so that a rule can be cited."),
        say(lang, "This file is written by `python -m bot rules` from `bot/content/rules_text.py`; a test fails when "
            "they differ."),
    ]
    said: list[Section] = []
    pages = (rules_page(None, card_format, lang=lang), *(rules_page(g, card_format, lang=lang) for g in RULE_GAMES),
             rules_page(MIXED_PAGE_IDS[0], card_format, lang=lang))
    for number, page in enumerate(pages, 1):
        parts.append(page.as_markdown(2, said, number))
        said += page.sections
    around = RulesPage(say(lang, "Chips, nights and tournaments"), say(lang, "What the tables do around the cards."),
                       (_chips_and_nights(lang), _tournaments(lang), _hand_histories(lang)))
    parts.append(around.as_markdown(2, number=len(pages) + 1))
    return "\n\n".join(parts) + "\n"
