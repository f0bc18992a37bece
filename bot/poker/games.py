"""The variant catalogue of RULES.md section 4, as data: twelve games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .rankings import HAND_SIZES, Ranking

Structure = Literal["fixed-limit", "pot-limit", "no-limit"]
STRUCTURES: Final[tuple[Structure, ...]] = ("fixed-limit", "pot-limit", "no-limit")
STRUCTURE_LETTERS: Final[dict[Structure, str]] = {"fixed-limit": "F", "pot-limit": "P", "no-limit": "N"}

DrawLimit = Literal["none", "3", "3-or-4-with-ace"]
DRAW_LIMITS: Final[tuple[DrawLimit, ...]] = ("none", "3", "3-or-4-with-ace")


@dataclass(frozen=True, slots=True)
class Game:
    """One variant: how many draws, which ranking, its defaults and limits."""

    id: str
    name: str
    draws: int
    ranking: Ranking
    default_structure: Structure
    max_players: int
    phh_code: str
    assassin: bool = False

    @property
    def hand_size(self) -> int:
        """Cards in a hand: five, or four in Badugi."""
        return HAND_SIZES[self.ranking]

    @property
    def betting_rounds(self) -> int:
        """Rounds of betting: one before the first draw and one after each draw."""
        return self.draws + 1

    @property
    def is_lowball(self) -> bool:
        """True when the lowest hand wins."""
        return self.ranking != "high"

    @property
    def default_big_bet_round(self) -> int:
        """The 1-based betting round where fixed limit's big bet starts (RULES.md section 2)."""
        return 2 if self.draws == 1 else 3

    @property
    def allows_draw_limit(self) -> bool:
        """Draw limits are a table option of the five-card high games only."""
        return self.ranking == "high"

    def phh_variant(self, structure: Structure) -> str:
        """The PHH variant code, e.g. ``F2L3D`` or ``NAS``."""
        return STRUCTURE_LETTERS[structure] + self.phh_code


GAMES: Final[dict[str, Game]] = {
    g.id: g
    for g in (
        Game("five-card-draw", "Five Card Draw", 1, "high", "no-limit", 8, "5D"),
        Game("assassin", "Assassin", 1, "high", "no-limit", 8, "AS", assassin=True),
        Game("single-draw-27", "2-7 Single Draw", 1, "deuce-to-seven", "no-limit", 7, "2L1D"),
        Game("single-draw-a5", "A-5 Single Draw (California lowball)", 1, "ace-to-five", "fixed-limit", 7, "AL1D"),
        Game("single-draw-a6", "A-6 Single Draw", 1, "ace-to-six", "fixed-limit", 7, "6L1D"),
        Game("double-draw-27", "2-7 Double Draw", 2, "deuce-to-seven", "fixed-limit", 6, "2L2D"),
        Game("double-draw-a5", "A-5 Double Draw", 2, "ace-to-five", "fixed-limit", 6, "AL2D"),
        Game("double-draw-a6", "A-6 Double Draw", 2, "ace-to-six", "fixed-limit", 6, "6L2D"),
        Game("triple-draw-27", "2-7 Triple Draw", 3, "deuce-to-seven", "fixed-limit", 6, "2L3D"),
        Game("triple-draw-a5", "A-5 Triple Draw", 3, "ace-to-five", "fixed-limit", 6, "AL3D"),
        Game("triple-draw-a6", "A-6 Triple Draw", 3, "ace-to-six", "fixed-limit", 6, "6L3D"),
        Game("badugi", "Badugi", 3, "badugi", "fixed-limit", 6, "B"),
    )
}
DEALERS_CHOICE: Final = "dealers-choice"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = max(g.max_players for g in GAMES.values())  # the most seats any table has


def get_game(game_id: str) -> Game:
    """The game with this id; ValueError listing the ids if there is none."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; choose one of: {', '.join(GAMES)}") from None


def games_for_players(count: int) -> list[Game]:
    """The games that ``count`` players can play (dealer's choice offers these)."""
    return [g for g in GAMES.values() if MIN_PLAYERS <= count <= g.max_players]


def game_from_phh_variant(code: str) -> tuple[Game, Structure]:
    """The game and structure of a PHH variant code such as ``F2L3D``."""
    found = _BY_PHH_VARIANT.get(code)
    if found is None:
        raise ValueError(f"unknown PHH variant {code!r}")
    return found


_BY_PHH_VARIANT: Final[dict[str, tuple[Game, Structure]]] = {
    letter + game.phh_code: (game, structure)
    for structure, letter in STRUCTURE_LETTERS.items() for game in GAMES.values()
}
