"""Rotations of a mixed night (docs/rules.md section 21): HORSE, the 8-game mix, or the host's own list of games.

Pure functions over small values, as ``bot.poker.rotation``: the games a
rotation deals and in which structure, which game the next hand is, how many
hands of it are left, which game comes next, and whether the button moves
after a hand. The table layer keeps a ``MixState`` between hands (it restores
the same game and hand count after a restart) and decides none of this itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from ..i18n.text import Text
from .games import GAMES, Game, Structure, get_structure

Mix = Literal["horse", "eight-game", "rotation"]
MIXES: Final[tuple[Mix, ...]] = ("horse", "eight-game", "rotation")
MAX_ROTATION_GAMES: Final = 20  # games in a host's list: more than any night plays


class MixError(ValueError):
    """A rotation the rules cannot deal; the message (``args[0]``, a ``Text``) says what to change."""


@dataclass(frozen=True, slots=True)
class MixGame:
    """One game of a rotation and the structure it is dealt in."""

    game: Game
    structure: Structure

    def __str__(self) -> str:
        return f"{self.game.id}:{self.structure}"


def _named(*entries: tuple[str, Structure]) -> tuple[MixGame, ...]:
    return tuple(MixGame(GAMES[game_id], structure) for game_id, structure in entries)


HORSE: Final = _named(
    ("holdem", "fixed-limit"), ("omaha-hilo", "fixed-limit"), ("razz", "fixed-limit"), ("stud", "fixed-limit"),
    ("stud-hilo", "fixed-limit"),
)
"""Hold'em, Omaha hi-lo, Razz, Stud, stud hi-lo (Eight or better): fixed limit, in this order."""

EIGHT_GAME: Final = _named(
    ("triple-draw-27", "fixed-limit"), ("holdem", "fixed-limit"), ("omaha-hilo", "fixed-limit"),
    ("razz", "fixed-limit"), ("stud", "fixed-limit"), ("stud-hilo", "fixed-limit"), ("holdem", "no-limit"),
    ("omaha", "pot-limit"),
)
"""2-7 triple draw, the five HORSE games, no-limit hold'em and pot-limit Omaha, in this order."""


@lru_cache(maxsize=256)  # a table's list is read at every deal and every screen: parsed once
def parse_games(text: str) -> tuple[MixGame, ...]:
    """The host's list, e.g. ``"holdem:no-limit, omaha:pot-limit, razz, triple-draw-27"``: game ids separated by
    commas, each with an optional structure after a colon (``fixed``, ``pot``, ``no`` or the long names; by default
    the game's own). MixError naming the entry at fault for an unknown game or structure, or an empty list."""
    entries = [entry.strip() for entry in text.replace(";", ",").split(",")]
    entries = [entry for entry in entries if entry]
    if not entries:
        raise MixError(Text("List the games of the rotation, e.g. `holdem:no-limit, omaha:pot-limit, razz`."))
    if len(entries) > MAX_ROTATION_GAMES:
        raise MixError(Text("A rotation has at most {most} games, not {count}.", most=str(MAX_ROTATION_GAMES),
                            count=str(len(entries))))
    games: list[MixGame] = []
    for entry in entries:
        game_id, _, structure_name = (part.strip().lower() for part in entry.partition(":"))
        game = GAMES.get(game_id)
        if game is None:
            raise MixError(Text("`{game}` is not a game. Choose from: {games}.", game=game_id, games=", ".join(GAMES)))
        if not structure_name:
            games.append(MixGame(game, game.default_structure))
            continue
        try:
            games.append(MixGame(game, get_structure(structure_name)))
        except ValueError:
            raise MixError(Text("`{structure}` (for {game}) is not a structure: use fixed, pot or no "
                                "(or fixed-limit, pot-limit, no-limit).", structure=structure_name,
                                game=game_id)) from None
    return tuple(games)


def mix_games(mix: Mix, games: str | None = None) -> tuple[MixGame, ...]:
    """The games of ``mix`` in order: HORSE's, the 8-game mix's, or the host's list (``games``) for ``rotation``."""
    if mix == "horse":
        return HORSE
    if mix == "eight-game":
        return EIGHT_GAME
    if mix != "rotation":
        raise MixError(Text("`{mix}` is not a rotation: use {mixes}.", mix=mix, mixes=", ".join(MIXES)))
    if games is None:
        raise MixError(Text("A rotation needs its list of games (`games:`)."))
    return parse_games(games)


def most_players(games: Sequence[MixGame]) -> int:
    """The most players every game of the rotation can be dealt to (HORSE: 8, for stud)."""
    return min(entry.game.max_players for entry in games)


@dataclass(frozen=True, slots=True)
class MixState:
    """Where a rotation stands between hands: the game under way (its index in the list), how many hands of it
    have been dealt, and how many it deals in all (set at its first hand; 0 before it)."""

    index: int = 0
    dealt: int = 0
    hands: int = 0

    def current(self, games: Sequence[MixGame]) -> MixGame:
        """The game the next hand is dealt in."""
        return games[self._next_index(games)]

    def upcoming(self, games: Sequence[MixGame]) -> MixGame:
        """The game that follows the current one."""
        return games[(self._next_index(games) + 1) % len(games)]

    def hands_left(self, players: int, hands_per_game: int | None) -> int:
        """Hands of the current game still to deal, the next one included: for a game not yet begun, one orbit
        of the ``players`` about to be dealt in (or the host's ``hands_per_game``)."""
        if self.hands and self.dealt < self.hands:
            return self.hands - self.dealt
        return hands_per_game or players

    def _next_index(self, games: Sequence[MixGame]) -> int:
        if not games:
            raise MixError(Text("The rotation has no games."))
        if self.hands and self.dealt >= self.hands:
            return (self.index + 1) % len(games)
        return self.index % len(games)

    def after_hand(self, games: Sequence[MixGame], players: int, hands_per_game: int | None) -> MixState:
        """The state once a hand of the current game has been dealt to ``players`` (docs/rules.md section 21.4: each
        game for one orbit, as many hands as players were dealt into its first hand, or ``hands_per_game``)."""
        index = self._next_index(games)
        if not self.hands or self.dealt >= self.hands:  # this hand began the game
            return MixState(index, 1, hands_per_game or players)
        return MixState(index, self.dealt + 1, self.hands)


def check_hands_per_game(hands: int | None) -> int | None:
    """A host's number of hands per game (None: one orbit); MixError for fewer than one."""
    if hands is not None and (isinstance(hands, bool) or not isinstance(hands, int) or hands < 1):
        raise MixError(Text("Each game is dealt for at least one hand (`hands_per_game:` 1 or more)."))
    return hands


def button_moves_after(game: Game, in_rotation: bool) -> bool:
    """Whether the button moves one seat after a hand of ``game`` (docs/rules.md section 21.5): always, but in a
    rotation, where it stays put during the stud games and moves on with the next blind game."""
    return not (in_rotation and game.is_stud)
