"""The games of docs/rules.md sections 1.1 to 1.4 as declarations: every game is a list of streets.

A ``Street`` says what happens on it, in order: a burn, cards dealt to each
player (down or up), cards dealt to the board, a draw, then a betting round
with its opener. ``Hand`` plays any declaration; draw, flop and stud games
differ only here (pokerkit's ``Street``, in spirit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .rankings import HAND_SIZES, Ranking

Structure = Literal["fixed-limit", "pot-limit", "no-limit"]
STRUCTURES: Final[tuple[Structure, ...]] = ("fixed-limit", "pot-limit", "no-limit")
STRUCTURE_LETTERS: Final[dict[Structure, str]] = {"fixed-limit": "F", "pot-limit": "P", "no-limit": "N"}
STRUCTURE_ALIASES: Final[dict[str, Structure]] = {
    **{s: s for s in STRUCTURES}, "fixed": "fixed-limit", "pot": "pot-limit", "no": "no-limit",
}

DrawLimit = Literal["none", "3", "3-or-4-with-ace"]
DRAW_LIMITS: Final[tuple[DrawLimit, ...]] = ("none", "3", "3-or-4-with-ace")

Family = Literal["draw", "flop", "stud"]
FAMILIES: Final[tuple[Family, ...]] = ("draw", "flop", "stud")

Opener = Literal["blinds", "button", "bring-in", "best-showing"]
"""Who opens a betting round: left of the big blind (the first round of a blind game), the first player left of
the button, the player who must bring in (stud's third street), or the best showing hand of up cards (stud from
fourth street)."""


@dataclass(frozen=True, slots=True)
class Street:
    """One street: an optional burn, the cards dealt to every player still in (``hole``: one entry per card,
    True when it is dealt face up), the cards dealt to the board, an optional draw, then a betting round opened
    by ``opener``. ``shared_when_short``: when the stub cannot give every player his card, the burn is skipped,
    then one card is dealt face up to the board for everyone (stud, docs/rules.md section 18.3)."""

    hole: tuple[bool, ...] = ()
    board: int = 0
    burn: bool = False
    draw: bool = False
    opener: Opener = "button"
    shared_when_short: bool = False


def _draw_streets(hand_size: int, draws: int) -> tuple[Street, ...]:
    first = Street(hole=(False,) * hand_size, opener="blinds")
    return (first, *(Street(burn=True, draw=True) for _ in range(draws)))


_FLOP_BOARD: Final = (3, 1, 1)


def _flop_streets(hole_cards: int) -> tuple[Street, ...]:
    return (Street(hole=(False,) * hole_cards, opener="blinds"),
            *(Street(board=count, burn=True) for count in _FLOP_BOARD))


STUD_STREETS: Final[tuple[Street, ...]] = (
    Street(hole=(False, False, True), opener="bring-in"),
    *(Street(hole=(up,), burn=True, opener="best-showing", shared_when_short=True) for up in (True, True, True, False)),
)


@dataclass(frozen=True, slots=True)
class Game:
    """One variant: its streets, its ranking (and eight-or-better low half when ``hi_lo``), defaults and limits.

    ``ranking`` is the ranking of the whole pot, or of the high half in a hi-lo game. ``omaha``: a hand plays
    exactly two hole cards and three board cards. ``default_big_bet_round`` is the 1-based betting round where
    fixed limit's big bet starts. ``offers_open_pair``: the host may let an open pair on fourth street bring the
    big bet forward (fixed-limit Seven Card Stud's table option).
    """

    id: str
    name: str
    family: Family
    streets: tuple[Street, ...]
    ranking: Ranking
    default_structure: Structure
    max_players: int
    phh_code: str
    default_big_bet_round: int
    assassin: bool = False
    hi_lo: bool = False
    omaha: bool = False
    offers_open_pair: bool = False

    @property
    def draws(self) -> int:
        """How many draws the game has (none outside the draw games)."""
        return sum(1 for street in self.streets if street.draw)

    @property
    def hand_size(self) -> int:
        """Cards a player holds at the end: five (four in Badugi) in a draw game, every hole card otherwise."""
        if self.family == "draw":
            return HAND_SIZES[self.ranking]
        return sum(len(street.hole) for street in self.streets)

    @property
    def down_cards(self) -> int:
        """Cards each player is dealt face down in a whole hand (stud: three of seven; every card elsewhere)."""
        return sum(1 for street in self.streets for up in street.hole if not up)

    @property
    def hole_cards(self) -> int:
        """Cards dealt to each player on the first street."""
        return len(self.streets[0].hole)

    @property
    def board_size(self) -> int:
        """Board cards a complete hand deals (flop games: five)."""
        return sum(street.board for street in self.streets)

    @property
    def betting_rounds(self) -> int:
        """Rounds of betting: one per street."""
        return len(self.streets)

    @property
    def is_lowball(self) -> bool:
        """True when the lowest hand wins the whole pot (the draw lowball games, Badugi, razz)."""
        return self.ranking != "high"

    @property
    def is_stud(self) -> bool:
        """True for the stud games: antes and a bring-in, no blinds, no button in the betting."""
        return self.streets[0].opener == "bring-in"

    @property
    def allows_draw_limit(self) -> bool:
        """Draw limits are a table option of the five-card high draw games only."""
        return self.family == "draw" and self.ranking == "high"

    def phh_variant(self, structure: Structure) -> str:
        """The PHH variant code, e.g. ``F2L3D``, ``NT`` or ``F7S/8``."""
        return STRUCTURE_LETTERS[structure] + self.phh_code


def _draw(game_id: str, name: str, draws: int, ranking: Ranking, structure: Structure, most: int, code: str,
          *, assassin: bool = False) -> Game:
    big_bet_round = 2 if draws == 1 else 3
    return Game(game_id, name, "draw", _draw_streets(HAND_SIZES[ranking], draws), ranking, structure, most, code,
                big_bet_round, assassin=assassin)


def _flop(game_id: str, name: str, hole_cards: int, structure: Structure, most: int, code: str, *,
          hi_lo: bool = False, omaha: bool = False) -> Game:
    return Game(game_id, name, "flop", _flop_streets(hole_cards), "high", structure, most, code, 3,
                hi_lo=hi_lo, omaha=omaha)


def _stud(game_id: str, name: str, ranking: Ranking, code: str, *, hi_lo: bool = False,
          offers_open_pair: bool = False) -> Game:
    return Game(game_id, name, "stud", STUD_STREETS, ranking, "fixed-limit", 8, code, 3, hi_lo=hi_lo,
                offers_open_pair=offers_open_pair)


GAMES: Final[dict[str, Game]] = {
    g.id: g
    for g in (
        _draw("five-card-draw", "Five Card Draw", 1, "high", "no-limit", 8, "5D"),
        _draw("assassin", "Assassin", 1, "high", "no-limit", 8, "AS", assassin=True),
        _draw("single-draw-27", "2-7 Single Draw", 1, "deuce-to-seven", "no-limit", 7, "2L1D"),
        _draw("single-draw-a5", "A-5 Single Draw (California lowball)", 1, "ace-to-five", "fixed-limit", 7, "AL1D"),
        _draw("single-draw-a6", "A-6 Single Draw", 1, "ace-to-six", "fixed-limit", 7, "6L1D"),
        _draw("double-draw-27", "2-7 Double Draw", 2, "deuce-to-seven", "fixed-limit", 6, "2L2D"),
        _draw("double-draw-a5", "A-5 Double Draw", 2, "ace-to-five", "fixed-limit", 6, "AL2D"),
        _draw("double-draw-a6", "A-6 Double Draw", 2, "ace-to-six", "fixed-limit", 6, "6L2D"),
        _draw("triple-draw-27", "2-7 Triple Draw", 3, "deuce-to-seven", "fixed-limit", 6, "2L3D"),
        _draw("triple-draw-a5", "A-5 Triple Draw", 3, "ace-to-five", "fixed-limit", 6, "AL3D"),
        _draw("triple-draw-a6", "A-6 Triple Draw", 3, "ace-to-six", "fixed-limit", 6, "6L3D"),
        _draw("badugi", "Badugi", 3, "badugi", "fixed-limit", 6, "B"),
        _flop("holdem", "Texas Hold'em", 2, "no-limit", 10, "T"),
        _flop("omaha", "Omaha", 4, "pot-limit", 9, "O", omaha=True),
        _flop("omaha-hilo", "Omaha Hi-Lo (eight or better)", 4, "fixed-limit", 9, "O/8", hi_lo=True, omaha=True),
        _flop("big-o", "Big O (five-card Omaha hi-lo)", 5, "pot-limit", 8, "O5/8", hi_lo=True, omaha=True),
        _stud("stud", "Seven Card Stud", "high", "7S", offers_open_pair=True),
        _stud("stud-hilo", "Seven Card Stud Hi-Lo (eight or better)", "high", "7S/8", hi_lo=True),
        _stud("razz", "Razz", "ace-to-five", "R"),
    )
}
DRAW_GAMES: Final[dict[str, Game]] = {gid: g for gid, g in GAMES.items() if g.family == "draw"}
"""The draw family: the games a table deals until the mixed games reach the table layer."""
DEALERS_CHOICE: Final = "dealers-choice"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = max(g.max_players for g in GAMES.values())  # the most seats any table has


def get_game(game_id: str) -> Game:
    """The game with this id; ValueError listing the ids if there is none."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; choose one of: {', '.join(GAMES)}") from None


def get_structure(name: str) -> Structure:
    """The structure named ``fixed-limit``, ``pot-limit`` or ``no-limit`` (or ``fixed``, ``pot``, ``no``)."""
    try:
        return STRUCTURE_ALIASES[name]
    except KeyError:
        raise ValueError(f"unknown structure {name!r}; use fixed, pot or no (or fixed-limit, pot-limit, "
                         "no-limit)") from None


def games_for_players(count: int) -> list[Game]:
    """The games that ``count`` players can play (dealer's choice offers these)."""
    return [g for g in GAMES.values() if MIN_PLAYERS <= count <= g.max_players]


def game_from_phh_variant(code: str) -> tuple[Game, Structure]:
    """The game and structure of a PHH variant code such as ``F2L3D`` or ``FO/8``."""
    found = _BY_PHH_VARIANT.get(code)
    if found is None:
        raise ValueError(f"unknown PHH variant {code!r}")
    return found


_BY_PHH_VARIANT: Final[dict[str, tuple[Game, Structure]]] = {
    letter + game.phh_code: (game, structure)
    for structure, letter in STRUCTURE_LETTERS.items() for game in GAMES.values()
}
