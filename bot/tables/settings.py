"""A table's settings: the game, a rotation (HORSE, the 8-game mix, the host's list) or dealer's choice, stakes,
buy-ins and options.

Checked once, when the host creates or changes the table, with messages a
host can act on; stored as JSON in the table row. This module holds the only
copy of every limit a host's choice is checked against (the cogs offer the
same ranges by importing them from here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

from ..i18n.languages import LANGUAGES
from ..i18n.text import Text
from ..night.money import ChipValue
from ..poker import (
    DEALERS_CHOICE,
    DRAW_LIMITS,
    GAMES,
    MIN_PLAYERS,
    STRUCTURES,
    DrawLimit,
    Game,
    Stakes,
    Structure,
    stakes_for,
)
from ..poker.mixes import MIXES, Mix, MixError, MixGame, check_hands_per_game, mix_games, most_players
from ..poker.rotation import ChoicePer, buy_in_range
from ..refusal import Sentence, reason_of
from ..store import MAX_AMOUNT

MAX_STAKE: Final = 10**9  # the largest blind or ante
MAX_BUY_IN: Final = MAX_AMOUNT  # the largest buy-in (the store's largest single movement)
MIN_CLOCK: Final = 10  # seconds a player has to act, at least
MAX_CLOCK: Final = 3600
DEFAULT_CLOCK: Final = 60
MIN_SEATS: Final = MIN_PLAYERS
TABLE_GAMES: Final = GAMES
MAX_SEATS: Final = max(g.max_players for g in TABLE_GAMES.values())
MIN_RAISE_CAP: Final = 3  # fixed limit: bets a round, the blind included (docs/rules.md section 2.5)
MAX_RAISE_CAP: Final = 5


def needs_blinds(game: Game) -> bool:
    """Whether ``game`` is dealt only at a table with blinds: every game but the five-card high draw games, which
    an ante-only table deals (the stud games' bets are sized from the big blind too, section 5)."""
    return game.family != "draw" or game.is_lowball


def table_game(game_id: str) -> Game:
    """The game with this id among those a table deals; ValueError ("unknown game ...") listing them otherwise."""
    game = TABLE_GAMES.get(game_id)
    if game is None:
        raise ValueError(Text("unknown game {game}; choose one of: {games}", game=repr(game_id),
                              games=", ".join(TABLE_GAMES)))
    return game


class SettingsError(ValueError):
    """Settings a table cannot be played with; the message (``args[0]``, a ``Text``) says what to change."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Everything the host chooses for a table (docs/rules.md sections 1.8, 2.5 and 21).

    ``structure`` None plays each game's default structure. Buy-ins are in
    chips; by default 20 to 100 big blinds. ``chip_value`` is what the host
    says chips are worth ("100 chips = $1.00", ``ChipValue.parse``'s forms;
    kept in its own written form), None when they are worth nothing.
    """

    game: str
    small_blind: int
    big_blind: int
    structure: Structure | None = None
    ante: int = 0
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    seats: int | None = None
    clock: int = DEFAULT_CLOCK
    jokers: bool = False
    draw_limit: DrawLimit = "none"
    game_list: str | None = None  # a rotation's games, as the host listed them (the option `games:`)
    hands_per_game: int | None = None
    stud_ante: int | None = None
    bring_in: int | None = None
    open_pair: bool = False
    raise_cap: int = 4
    big_bet_round: int | None = None
    choice_per: ChoicePer = "hand"
    dealer_picks_structure: bool = False
    chip_value: str | None = None
    language: str | None = None  # what everyone at the table reads in (a catalogue code); None: the server's

    def __post_init__(self) -> None:
        self._check()

    @property
    def is_dealers_choice(self) -> bool:
        """True when the button picks the game before each hand (or orbit)."""
        return self.game == DEALERS_CHOICE

    @property
    def is_mix(self) -> bool:
        """True for a rotation: HORSE, the 8-game mix or the host's list of games."""
        return self.game in MIXES

    @property
    def mix(self) -> tuple[MixGame, ...]:
        """The games of the rotation in order, each with its structure (empty unless ``is_mix``)."""
        if not self.is_mix:
            return ()
        mix: Mix = self.game  # type: ignore[assignment]
        return mix_games(mix, self.game_list)

    @property
    def single_game(self) -> Game | None:
        """The one game the table deals (None for a rotation or dealer's choice)."""
        return None if self.is_mix or self.is_dealers_choice else table_game(self.game)

    @property
    def mixed(self) -> bool:
        """True when hands of several games are dealt: a rotation or dealer's choice."""
        return self.is_mix or self.is_dealers_choice

    @property
    def money(self) -> ChipValue | None:
        """The chip value, if the host set one."""
        return ChipValue.parse(self.chip_value) if self.chip_value is not None else None

    @property
    def max_seats(self) -> int:
        """How many may sit: the setting, or the most the game (or any game) allows."""
        if self.seats is not None:
            return self.seats
        return self._most_seats()

    def _most_seats(self) -> int:
        if self.is_dealers_choice:
            return MAX_SEATS
        if self.is_mix:
            return most_players(self.mix)
        return table_game(self.game).max_players

    @property
    def buy_in_range(self) -> tuple[int, int]:
        """(smallest, largest) buy-in in chips: the host's, or the house's default (``rotation.buy_in_range``)."""
        return buy_in_range(self.big_blind, self.ante, self.min_buy_in, self.max_buy_in)

    def games(self, players: int) -> list[Game]:
        """The games this table may deal to ``players`` players (a rotation's in its order, once each)."""
        candidates = self._named_games() or [g for g in TABLE_GAMES.values() if self._playable(g)]
        return [g for g in candidates if MIN_PLAYERS <= players <= g.max_players]

    def _playable(self, game: Game) -> bool:
        return bool(self.big_blind) or not needs_blinds(game)

    def structure_for(self, game: Game, chosen: Structure | None = None) -> Structure:
        """The structure a hand of ``game`` is played with."""
        return chosen or self.structure or game.default_structure

    def stakes_for(self, game: Game, structure: Structure | None = None) -> Stakes:
        """The engine's stakes for one hand of ``game``: the draw games' as the table always dealt them (an
        ante-only table too), the flop and stud games' through ``bot.poker.stakes_for`` (section 5: one stake
        for every game, the stud ante and bring-in from the blinds unless the host set them)."""
        if game.family != "draw":
            return stakes_for(game, self.structure_for(game, structure), self.small_blind, self.big_blind,
                              ante=self.ante, stud_ante_amount=self.stud_ante, bring_in=self.bring_in,
                              raise_cap=self.raise_cap)
        return Stakes(
            self.structure_for(game, structure),
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            small_bet=self.big_blind or None,
            min_bet=self.big_blind or self.ante,
            raise_cap=self.raise_cap,
            big_bet_round=self.big_bet_round,
        )

    def hand_options(self, game: Game, structure: Structure | None = None) -> dict[str, Any]:
        """Keyword options of ``Hand`` for ``game`` dealt in ``structure`` (Assassin's jokers, the draw limit,
        fixed-limit Seven Card Stud's open pair)."""
        options: dict[str, Any] = {
            "jokers": self.jokers and game.assassin,
            "draw_limit": self.draw_limit if game.allows_draw_limit else "none",
        }
        if self.open_pair and game.offers_open_pair and self.structure_for(game, structure) == "fixed-limit":
            options["open_pair"] = True
        return options

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        """Settings from ``to_json``'s object; keys this version does not know are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def with_changes(self, **changes: Any) -> TableSettings:
        """A copy with some settings changed (checked again)."""
        return replace(self, **changes)

    def _check(self) -> None:
        if self.game != DEALERS_CHOICE and self.game not in TABLE_GAMES and self.game not in MIXES:
            raise SettingsError(Text("Unknown game `{game}`. Choose one of: {games}, {mixes} or {choice}.",
                                     game=self.game, games=", ".join(TABLE_GAMES), mixes=", ".join(MIXES),
                                     choice=DEALERS_CHOICE))
        self._check_mix()
        if self.structure is not None and self.structure not in STRUCTURES:
            raise SettingsError(Text("The structure must be one of: {structures}.", structures=", ".join(STRUCTURES)))
        for name in ("small_blind", "big_blind", "ante"):
            _whole(getattr(self, name), name, 0, MAX_STAKE)
        if self.small_blind > self.big_blind:
            raise SettingsError(Text("The small blind cannot be bigger than the big blind."))
        if self.big_blind and not self.small_blind:
            raise SettingsError(Text("Give a small blind too (it may equal the big blind)."))
        if not self.big_blind:
            if not self.ante:
                raise SettingsError(Text("The table needs blinds, or an ante for a five-card high game."))
            blind_games = [g.name for g in self._named_games() if needs_blinds(g)]
            if blind_games:
                raise SettingsError(Text("{game} is played with blinds: give a small and a big blind (antes alone "
                                         "deal only Five Card Draw and Assassin).", game=blind_games[0]))
        if self.big_blind and self.ante > self.big_blind:
            raise SettingsError(Text("The ante cannot be bigger than the big blind."))
        low, high = self.buy_in_range
        _whole(low, "min_buy_in", 1, MAX_BUY_IN)
        _whole(high, "max_buy_in", 1, MAX_BUY_IN)
        if low > high:
            raise SettingsError(Text("The minimum buy-in cannot be bigger than the maximum."))
        if low < (self.big_blind or self.ante):
            raise SettingsError(Text("The minimum buy-in must cover at least one big blind."))
        if self.seats is not None:
            most = self._most_seats()
            if isinstance(self.seats, int) and not isinstance(self.seats, bool) and self.seats > most:
                fewest = min(self._named_games(), key=lambda game: game.max_players, default=None)
                if fewest is not None:
                    raise SettingsError(Text("{game} is dealt to at most {most} players: this table has at most "
                                             "{most} seats, not {seats}.", game=fewest.name, most=str(most),
                                             seats=str(self.seats)))
            _whole(self.seats, "seats", MIN_SEATS, most)
        _whole(self.clock, "clock", MIN_CLOCK, MAX_CLOCK)
        if not isinstance(self.jokers, bool):
            raise SettingsError(Text("Jokers are on or off."))
        if not isinstance(self.dealer_picks_structure, bool):
            raise SettingsError(Text("Letting the dealer pick the structure is on or off."))
        if self.jokers and not (self.is_dealers_choice or table_game(self.game).assassin):
            raise SettingsError(Text("Jokers are an Assassin option."))
        if self.draw_limit not in DRAW_LIMITS:
            raise SettingsError(Text("The draw limit must be one of: {limits}.", limits=", ".join(DRAW_LIMITS)))
        if self.draw_limit != "none" and not (self.is_dealers_choice or table_game(self.game).allows_draw_limit):
            raise SettingsError(Text("A draw limit is an option of Five Card Draw and Assassin only."))
        _whole(self.raise_cap, "raise_cap", MIN_RAISE_CAP, MAX_RAISE_CAP)
        if self.big_bet_round is not None:
            _whole(self.big_bet_round, "big_bet_round", 1, 4)
        self._check_stud_stakes()
        if not isinstance(self.open_pair, bool):
            raise SettingsError(Text("The open pair option is on or off."))
        if self.open_pair and not (self.is_dealers_choice or any(g.offers_open_pair for g in self._named_games())):
            raise SettingsError(Text("The open pair option is fixed-limit Seven Card Stud's (a stud table, a rotation "
                                     "or dealer's choice with it)."))
        if self.choice_per not in ("hand", "orbit"):
            raise SettingsError(Text("Dealer's choice is per hand or per orbit."))
        if self.chip_value is not None:
            if not isinstance(self.chip_value, str):
                raise SettingsError(Text("The chip value is text, like \"100 chips = $1.00\"."))
            try:
                value = ChipValue.parse(self.chip_value)
            except ValueError as error:
                raise SettingsError(Sentence(reason_of(error))) from None
            object.__setattr__(self, "chip_value", str(value))  # one written form, whatever the host typed
        if self.language is not None and self.language not in LANGUAGES:
            raise SettingsError(Text("The table's language is one of: {languages}.",
                                     languages=", ".join(LANGUAGES)))

    def _named_games(self) -> list[Game]:
        """The games the host named: the table's game, a rotation's; none for dealer's choice (it offers only
        the games the stakes can deal)."""
        if self.is_dealers_choice:
            return []
        if self.is_mix:
            return list(dict.fromkeys(entry.game for entry in self.mix))
        return [table_game(self.game)]

    def _check_mix(self) -> None:
        try:
            if self.game_list is not None and self.game != "rotation":
                raise SettingsError(Text("`games:` lists the games of a rotation: use it with `game:rotation`."))
            if self.is_mix:
                if self.structure is not None:
                    raise SettingsError(Text("A rotation deals each game in its own structure: leave `structure:` "
                                             "empty, or name each game's in `games:` (e.g. `holdem:no-limit`)."))
                if self.game_list is not None and not isinstance(self.game_list, str):
                    raise SettingsError(Text("`games:` is a list like `holdem:no-limit, omaha:pot-limit, razz`."))
                entries = self.mix
                if self.game_list is not None:  # one written form, whatever the host typed
                    object.__setattr__(self, "game_list", ", ".join(str(entry) for entry in entries))
            elif self.hands_per_game is not None:
                raise SettingsError(Text("`hands_per_game:` is an option of the rotations (horse, eight-game, "
                                         "rotation)."))
            check_hands_per_game(self.hands_per_game)
        except MixError as error:
            raise SettingsError(reason_of(error)) from None
        if self.hands_per_game is not None:
            _whole(self.hands_per_game, "hands_per_game", 1, 1000)

    def _check_stud_stakes(self) -> None:
        """The stud ante and bring-in (set, or worked out from the blinds) can deal a hand of each stud game."""
        for name in ("stud_ante", "bring_in"):
            value = getattr(self, name)
            if value is not None:
                _whole(value, name, 0 if name == "stud_ante" else 1, MAX_STAKE)
        studs = [g for g in (self._named_games() or TABLE_GAMES.values()) if g.is_stud]
        if not studs or not self.big_blind:
            if self.stud_ante is not None or self.bring_in is not None:
                if not studs:
                    raise SettingsError(Text("The stud ante and bring-in are options of the stud games (stud, "
                                             "stud-hilo, razz, or a rotation or dealer's choice with them)."))
                raise SettingsError(Text("The stud games are played with blinds: their bets are sized from the big "
                                         "blind."))
            return
        try:
            stakes_for(studs[0], "fixed-limit", self.small_blind, self.big_blind, stud_ante_amount=self.stud_ante,
                       bring_in=self.bring_in)
        except ValueError as error:
            raise SettingsError(Text("In the stud games, {reason}.", reason=reason_of(error))) from None


def _whole(value: object, setting: str, low: int, high: int) -> None:
    """A setting that must be a whole number from ``low`` to ``high``: each refusal a sentence of its own."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise SettingsError(_NOT_WHOLE[setting])
    if not low <= value <= high:
        raise SettingsError(_OUT_OF_RANGE[setting](low, high, value))


# The two refusals of _whole for each setting, a whole sentence each (a language cannot slot the setting's name in).
_NOT_WHOLE: Final[dict[str, Text]] = {
    "small_blind": Text("The small blind must be a whole number."),
    "big_blind": Text("The big blind must be a whole number."),
    "ante": Text("The ante must be a whole number."),
    "min_buy_in": Text("The minimum buy-in must be a whole number."),
    "max_buy_in": Text("The maximum buy-in must be a whole number."),
    "seats": Text("The number of seats must be a whole number."),
    "clock": Text("The clock must be a whole number."),
    "raise_cap": Text("The raise cap must be a whole number."),
    "big_bet_round": Text("The big bet round must be a whole number."),
    "hands_per_game": Text("The number of hands per game must be a whole number."),
    "stud_ante": Text("The stud ante must be a whole number."),
    "bring_in": Text("The bring in must be a whole number."),
}
_Range = Callable[[int, int, int], Text]
_OUT_OF_RANGE: Final[dict[str, _Range]] = {
    "small_blind": lambda low, high, value: Text("The small blind must be from {low} to {high}, not {value}.",
                                                 low=low, high=high, value=value),
    "big_blind": lambda low, high, value: Text("The big blind must be from {low} to {high}, not {value}.",
                                               low=low, high=high, value=value),
    "ante": lambda low, high, value: Text("The ante must be from {low} to {high}, not {value}.",
                                          low=low, high=high, value=value),
    "min_buy_in": lambda low, high, value: Text("The minimum buy-in must be from {low} to {high}, not {value}.",
                                                low=low, high=high, value=value),
    "max_buy_in": lambda low, high, value: Text("The maximum buy-in must be from {low} to {high}, not {value}.",
                                                low=low, high=high, value=value),
    "seats": lambda low, high, value: Text("The number of seats must be from {low} to {high}, not {value}.",
                                           low=low, high=high, value=value),
    "clock": lambda low, high, value: Text("The clock must be from {low} to {high}, not {value}.",
                                           low=low, high=high, value=value),
    "raise_cap": lambda low, high, value: Text("The raise cap must be from {low} to {high}, not {value}.",
                                               low=low, high=high, value=value),
    "big_bet_round": lambda low, high, value: Text("The big bet round must be from {low} to {high}, not {value}.",
                                                   low=low, high=high, value=value),
    "hands_per_game": lambda low, high, value: Text("The number of hands per game must be from {low} to {high}, not "
                                                    "{value}.", low=low, high=high, value=value),
    "stud_ante": lambda low, high, value: Text("The stud ante must be from {low} to {high}, not {value}.",
                                               low=low, high=high, value=value),
    "bring_in": lambda low, high, value: Text("The bring in must be from {low} to {high}, not {value}.",
                                              low=low, high=high, value=value),
}
