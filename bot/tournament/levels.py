"""Blind levels and breaks: the default sit-and-go schedules and a host's own list.

A schedule is a sequence of steps, each a :class:`Level` (blinds and ante, played for ``minutes``) or a
:class:`Break` (no hands for ``minutes``). It starts and ends with a level; the last level never ends
(the blinds stop rising there). A level holds no structure: the table builds the engine's stakes for the
structure of each hand with :meth:`Level.stakes`, so dealer's choice may change the structure between hands
while the blinds follow the clock. In fixed limit the small bet is the big blind and the big bet twice that
(docs/rules.md section 2.5), so the bets rise with the blinds.

The default schedule (:func:`default_structure`):

- small blinds on the ladder 1, 1.5, 2, 3, 4, 5, 7.5 times a power of ten (10/20, 15/30, 20/40, 30/60,
  40/80, 50/100, 75/150, 100/200, ...), the big blind twice the small: every level rises 25% to 50%
  (33% on average, about the rate of casino and home-game sit-and-go clocks) and every figure is a round
  number. Below 10 the half steps are not whole chips: 1, 2, 3, 4, 5, 7, then 10.
- the first level is the lowest on the ladder whose big blind is at least 1/100 of the starting stack, so
  players start with 50 to 100 big blinds (1000 chips: 5/10; 1500: 10/20; 10000: 50/100).
- pot and no limit: an ante of about 1/8 of the big blind (the largest ladder figure not above it) from
  the first level whose big blind is four times the first one (usually the fifth level, when a starting
  stack is down to 25 big blinds and antes start to make stealing worth it). Fixed limit: blinds only, as
  limit tournaments are usually played.
- without a level count, levels until the big blind reaches the starting stack (about 15 levels): by then
  the whole table's chips are a few big blinds and the tournament ends within a few hands.
- breaks only when asked: one of ``break_minutes`` after every ``break_every`` levels.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from bot.i18n.text import ENGLISH, Language, Text, say
from bot.poker import STRUCTURES, Stakes, Structure
from bot.poker.hand import MAX_CHIPS
from bot.refusal import reason_of

MAX_LEVELS = 60
MAX_MINUTES = 24 * 60
MIN_DEFAULT_STACK = 100
# The small blind's ladder, in tenths of a power of ten: each step rises 25% to 50%.
_LADDER_TENTHS = (10, 15, 20, 30, 40, 50, 75)

# A level's refusals, a sentence for each of its amounts (a language cannot slot "small blind" or "ante" in one).
_Amount = Literal["small blind", "big blind", "ante"]
_NOT_CHIPS: Final[dict[_Amount, Callable[[str], Text]]] = {
    "small blind": lambda typed: Text("the small blind must be a whole number of chips, not {typed}", typed=typed),
    "big blind": lambda typed: Text("the big blind must be a whole number of chips, not {typed}", typed=typed),
    "ante": lambda typed: Text("the ante must be a whole number of chips, not {typed}", typed=typed),
}
_TOO_MANY_CHIPS: Final[dict[_Amount, Text]] = {
    "small blind": Text("the small blind can be at most {most} chips", most=str(MAX_CHIPS)),
    "big blind": Text("the big blind can be at most {most} chips", most=str(MAX_CHIPS)),
    "ante": Text("the ante can be at most {most} chips", most=str(MAX_CHIPS)),
}
_FALLS: Final[dict[_Amount, Callable[[str, Text, str, str], Text]]] = {
    "small blind": lambda number, level, old, new: Text(
        "level {number} ({level}): the small blind falls from {old} to {new}; blinds and antes must rise or stay equal",
        number=number, level=level, old=old, new=new),
    "big blind": lambda number, level, old, new: Text(
        "level {number} ({level}): the big blind falls from {old} to {new}; blinds and antes must rise or stay equal",
        number=number, level=level, old=old, new=new),
    "ante": lambda number, level, old, new: Text(
        "level {number} ({level}): the ante falls from {old} to {new}; blinds and antes must rise or stay equal",
        number=number, level=level, old=old, new=new),
}


@dataclass(frozen=True, slots=True)
class Level:
    """A blind level: small blind, big blind and an ante from every player, for ``minutes``."""

    small_blind: int
    big_blind: int
    ante: int = 0
    minutes: float = 15.0

    def __post_init__(self) -> None:
        amounts: tuple[tuple[_Amount, int], ...] = (
            ("small blind", self.small_blind), ("big blind", self.big_blind), ("ante", self.ante))
        for name, amount in amounts:
            if not _is_chips(amount):
                raise ValueError(_NOT_CHIPS[name](repr(amount)))
            if amount > MAX_CHIPS:
                raise ValueError(_TOO_MANY_CHIPS[name])
        if self.small_blind < 1:
            raise ValueError(Text("the small blind must be at least 1 chip"))
        if self.small_blind > self.big_blind:
            raise ValueError(Text("the small blind ({small}) cannot be larger than the big blind ({big})",
                                  small=str(self.small_blind), big=str(self.big_blind)))
        if self.ante > self.big_blind:
            raise ValueError(Text("the ante ({ante}) cannot be larger than the big blind ({big})", ante=str(self.ante),
                                  big=str(self.big_blind)))
        _check_minutes(self.minutes, "a level")

    @property
    def small_bet(self) -> int:
        """Fixed limit's small bet: the big blind."""
        return self.big_blind

    @property
    def big_bet(self) -> int:
        """Fixed limit's big bet: twice the small bet."""
        return 2 * self.big_blind

    @property
    def seconds(self) -> float:
        return self.minutes * 60.0

    def stakes(self, structure: Structure, **options: Any) -> Stakes:
        """The engine's stakes for a hand dealt at this level (``options``: raise cap, big bet round...)."""
        if structure == "fixed-limit":
            return Stakes(structure, self.small_blind, self.big_blind, self.ante,
                          small_bet=self.small_bet, big_bet=self.big_bet, **options)
        return Stakes(structure, self.small_blind, self.big_blind, self.ante, **options)

    def describe(self, structure: Structure | None = None, *, lang: Language = ENGLISH) -> str:
        """``25/50, ante 5``; in fixed limit also the bets: ``25/50, bets 50/100``. Worded in ``lang`` (the
        amounts as the host types them, without grouping)."""
        small, big, ante = str(self.small_blind), str(self.big_blind), str(self.ante)
        if structure == "fixed-limit":
            bets = {"small": small, "big": big, "small_bet": str(self.small_bet), "big_bet": str(self.big_bet)}
            if self.ante:
                return say(lang, "{small}/{big}, bets {small_bet}/{big_bet}, ante {ante}", ante=ante, **bets)
            return say(lang, "{small}/{big}, bets {small_bet}/{big_bet}", **bets)
        if self.ante:
            return say(lang, "{small}/{big}, ante {ante}", small=small, big=big, ante=ante)
        return f"{small}/{big}"


@dataclass(frozen=True, slots=True)
class Break:
    """A break: no hands are dealt for ``minutes``."""

    minutes: float = 10.0

    def __post_init__(self) -> None:
        _check_minutes(self.minutes, "a break")

    @property
    def seconds(self) -> float:
        return self.minutes * 60.0

    def describe(self, structure: Structure | None = None, *, lang: Language = ENGLISH) -> str:
        """``break, 10 min``, worded in ``lang``."""
        return say(lang, "break, {minutes} min", minutes=_format_minutes(self.minutes))


Step = Level | Break
Schedule = tuple[Step, ...]


def validate_schedule(steps: Sequence[Step]) -> Schedule:
    """``steps`` as a schedule, checked: it starts and ends with a level, has no two breaks in a row, at most
    :data:`MAX_LEVELS` levels, and its blinds and antes never fall from one level to the next."""
    schedule = tuple(steps)
    levels = [step for step in schedule if isinstance(step, Level)]
    if not levels:
        raise ValueError(Text("a tournament needs at least one blind level"))
    if len(levels) > MAX_LEVELS:
        raise ValueError(Text("a tournament can have at most {most} blind levels, not {count}", most=str(MAX_LEVELS),
                              count=str(len(levels))))
    if isinstance(schedule[0], Break):
        raise ValueError(Text("the schedule cannot start with a break"))
    if isinstance(schedule[-1], Break):
        raise ValueError(Text("the schedule cannot end with a break: the last level lasts until the end"))
    for before, after in itertools.pairwise(schedule):
        if isinstance(before, Break) and isinstance(after, Break):
            raise ValueError(Text("two breaks in a row: make it one longer break"))
    for number, (before, after) in enumerate(itertools.pairwise(levels), start=2):
        changes: tuple[tuple[_Amount, int, int], ...] = (
            ("small blind", before.small_blind, after.small_blind), ("big blind", before.big_blind, after.big_blind),
            ("ante", before.ante, after.ante))
        for name, old, new in changes:
            if new < old:
                raise ValueError(_FALLS[name](str(number), _Described(after), str(old), str(new)))
    return schedule


def playing_levels(schedule: Sequence[Step]) -> int:
    """How many blind levels (breaks not counted) ``schedule`` has."""
    return sum(1 for step in schedule if isinstance(step, Level))


def level_number(schedule: Sequence[Step], index: int) -> int:
    """The 1-based number of the blind level at or last before step ``index`` (breaks are not numbered)."""
    return playing_levels(schedule[: index + 1])


def level_at_or_after(schedule: Sequence[Step], index: int) -> Level:
    """The blind level at step ``index``, or after it when ``index`` is a break (a valid schedule has one)."""
    for step in schedule[index:]:
        if isinstance(step, Level):
            return step
    raise ValueError("no blind level after this break")


def next_level(schedule: Sequence[Step], index: int) -> Level | None:
    """The blind level after step ``index`` (for 'next: 50/100'), or None from the last level."""
    for step in schedule[index + 1:]:
        if isinstance(step, Level):
            return step
    return None


def default_structure(
    structure: Structure,
    starting_chips: int,
    level_minutes: float,
    levels: int | None = None,
    *,
    break_every: int = 0,
    break_minutes: float = 10.0,
) -> list[Step]:
    """The default sit-and-go schedule for ``structure`` (see the module docstring for the choices):
    ``levels`` blind levels (None: until the big blind reaches the starting stack) of ``level_minutes``
    each, and a break of ``break_minutes`` after every ``break_every`` levels (0: no breaks)."""
    if structure not in STRUCTURES:
        raise ValueError(f"unknown structure {structure!r}; use one of {', '.join(STRUCTURES)}")
    if not _is_chips(starting_chips) or starting_chips < MIN_DEFAULT_STACK:
        raise ValueError(Text("the default blinds need at least {least} starting chips (not {chips}); give your own "
                              "levels for smaller stacks", least=str(MIN_DEFAULT_STACK), chips=repr(starting_chips)))
    if levels is not None and (not _is_chips(levels) or not 1 <= levels <= MAX_LEVELS):
        raise ValueError(Text("the number of levels must be from 1 to {most}, not {levels}", most=str(MAX_LEVELS),
                              levels=repr(levels)))
    if not _is_chips(break_every) or break_every < 0:
        raise ValueError(f"breaks come after a whole number of levels, not {break_every!r}")
    _check_minutes(level_minutes, "a level")
    ladder = (small for small in _small_blind_ladder() if 200 * small >= starting_chips)
    first_big = 0
    steps: list[Step] = []
    for count, small in enumerate(ladder, start=1):
        big = 2 * small
        first_big = first_big or big
        ante = 0
        if structure != "fixed-limit" and big >= 4 * first_big:
            ante = max(_ladder_up_to(big // 8), default=0)
        if steps and break_every and (count - 1) % break_every == 0:
            steps.append(Break(break_minutes))
        steps.append(Level(small, big, ante, level_minutes))
        if count == levels or (levels is None and big >= starting_chips):
            break
    return list(validate_schedule(steps))


def parse_levels(text: str, *, level_minutes: float = 15.0) -> list[Step]:
    """A host's schedule, like ``10/20, 15/30, 25/50/5, break 10, 50/100/10``: levels as small/big[/ante]
    of ``level_minutes`` each and ``break MINUTES``, separated by commas, semicolons or new lines."""
    parts = [part.strip() for part in re.split(r"[,;\n]", text) if part.strip()]  # stray commas are harmless
    if not parts:
        raise ValueError(Text("no levels given: write them like 10/20, 15/30, 25/50/5, break 10, 50/100/10"))
    steps: list[Step] = []
    for position, part in enumerate(parts, start=1):
        try:
            steps.append(_parse_step(part, level_minutes))
        except ValueError as error:
            raise ValueError(Text("part {position} ({part}): {reason}", position=str(position), part=repr(part),
                                  reason=reason_of(error))) from None
    return list(validate_schedule(steps))


def format_levels(schedule: Sequence[Step], *, lang: Language = ENGLISH) -> str:
    """``schedule`` in the text form :func:`parse_levels` reads (the level lengths are not part of it); a break's
    word in ``lang`` (:func:`parse_levels` reads the English ``break`` only)."""
    return ", ".join(
        say(lang, "break {minutes}", minutes=_format_minutes(step.minutes)) if isinstance(step, Break)
        else f"{step.small_blind}/{step.big_blind}" + (f"/{step.ante}" if step.ante else "")
        for step in schedule
    )


def schedule_to_json(schedule: Sequence[Step]) -> list[dict[str, Any]]:
    """``schedule`` as JSON-ready data (one object per step)."""
    return [
        {"break": step.minutes} if isinstance(step, Break)
        else {"sb": step.small_blind, "bb": step.big_blind, "ante": step.ante, "minutes": step.minutes}
        for step in schedule
    ]


def schedule_from_json(data: Sequence[dict[str, Any]]) -> Schedule:
    """The schedule written by :func:`schedule_to_json`, checked again."""
    return validate_schedule([
        Break(item["break"]) if "break" in item else Level(item["sb"], item["bb"], item["ante"], item["minutes"])
        for item in data
    ])


def _parse_step(part: str, level_minutes: float) -> Step:
    words = part.lower().split()
    if words[0] == "break":
        if len(words) == 3 and words[2] in ("m", "min", "mins", "minute", "minutes"):
            words.pop()
        if len(words) != 2:
            raise ValueError(Text("a break needs its length in minutes, like 'break 10'"))
        try:
            minutes = float(words[1])
        except ValueError:
            raise ValueError(Text("{typed} is not a number of minutes", typed=repr(words[1]))) from None
        return Break(minutes)
    amounts = part.replace(" ", "").split("/")
    if len(amounts) not in (2, 3):
        raise ValueError(Text("write a level as small blind/big blind or small blind/big blind/ante, like 25/50/5"))
    chips = []
    for amount in amounts:
        if not amount.isdigit():
            raise ValueError(Text("{typed} is not a whole number of chips", typed=repr(amount)))
        chips.append(int(amount))
    small, big, ante = (*chips, 0) if len(chips) == 2 else chips
    return Level(small, big, ante, level_minutes)


def _small_blind_ladder() -> Iterator[int]:
    """1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 40, 50, 75, 100, ...: the ladder in whole chips."""
    previous = 0
    power = 1
    while True:
        for tenths in _LADDER_TENTHS:
            value = tenths * power // 10
            if value > previous:
                yield value
                previous = value
        power *= 10


def _ladder_up_to(limit: int) -> Iterator[int]:
    for value in _small_blind_ladder():
        if value > limit:
            return
        yield value


def _is_chips(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_minutes(minutes: float, what: Literal["a level", "a break"]) -> None:
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not math.isfinite(minutes):
        if what == "a level":
            raise ValueError(Text("the length of a level must be a number of minutes, not {minutes}",
                                  minutes=repr(minutes)))
        raise ValueError(Text("the length of a break must be a number of minutes, not {minutes}",
                              minutes=repr(minutes)))
    if not 0 < minutes <= MAX_MINUTES:
        if what == "a level":
            raise ValueError(Text("the length of a level must be more than 0 and at most {most} minutes, not {minutes}",
                                  most=str(MAX_MINUTES), minutes=str(minutes)))
        raise ValueError(Text("the length of a break must be more than 0 and at most {most} minutes, not {minutes}",
                              most=str(MAX_MINUTES), minutes=str(minutes)))


def _format_minutes(minutes: float) -> str:
    return str(int(minutes)) if float(minutes).is_integer() else str(minutes)


class _Described(Text):
    """A level as a refusal names it (``Level.describe``), worded in the reader's language when shown."""

    __slots__ = ()

    def __init__(self, level: Level) -> None:
        super().__init__("{level}", level=level)  # worded below, by the level itself

    def worded(self, language: Language, member: Callable[[int], str] | None = None) -> str:
        level = self.values["level"]
        assert isinstance(level, Level)
        return level.describe(lang=language)
