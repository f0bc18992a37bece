"""Blind levels: the default sit-and-go schedules, a host's own list, and the engine stakes they make."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.poker import STRUCTURES, Stakes, Structure
from bot.tournament.levels import (
    MAX_LEVELS,
    Break,
    Level,
    Step,
    default_structure,
    format_levels,
    level_at_or_after,
    level_number,
    next_level,
    parse_levels,
    playing_levels,
    schedule_from_json,
    schedule_to_json,
    validate_schedule,
)

PROFILE = settings(max_examples=300, derandomize=True, deadline=None, database=None)


def blinds(schedule: list[Step]) -> list[tuple[int, int, int]]:
    return [(s.small_blind, s.big_blind, s.ante) for s in schedule if isinstance(s, Level)]


def test_default_no_limit_1500_is_the_classic_ladder() -> None:
    schedule = default_structure("no-limit", 1500, 15)
    assert blinds(schedule)[:8] == [
        (10, 20, 0), (15, 30, 0), (20, 40, 0), (30, 60, 0),
        (40, 80, 10), (50, 100, 10), (75, 150, 15), (100, 200, 20),
    ]
    assert blinds(schedule)[-1] == (750, 1500, 150)  # the big blind has reached the starting stack
    assert all(isinstance(s, Level) and s.minutes == 15 for s in schedule)


def test_default_fixed_limit_has_no_antes_and_bets_rise_with_the_blinds() -> None:
    schedule = default_structure("fixed-limit", 10000, 20, 6)
    levels = [s for s in schedule if isinstance(s, Level)]
    assert [(lv.small_blind, lv.big_blind, lv.ante) for lv in levels] == [
        (50, 100, 0), (75, 150, 0), (100, 200, 0), (150, 300, 0), (200, 400, 0), (300, 600, 0),
    ]
    assert [(lv.small_bet, lv.big_bet) for lv in levels] == [
        (100, 200), (150, 300), (200, 400), (300, 600), (400, 800), (600, 1200),
    ]
    stakes = levels[2].stakes("fixed-limit")
    assert (stakes.small, stakes.big, stakes.small_blind, stakes.big_blind) == (200, 400, 100, 200)


def test_default_small_stacks_use_whole_chips() -> None:
    assert blinds(default_structure("pot-limit", 100, 10, 8)) == [
        (1, 2, 0), (2, 4, 0), (3, 6, 0), (4, 8, 1), (5, 10, 1), (7, 14, 1), (10, 20, 2), (15, 30, 3),
    ]
    assert blinds(default_structure("no-limit", 1000, 10, 3)) == [(5, 10, 0), (7, 14, 0), (10, 20, 0)]


def test_default_breaks_come_after_every_n_levels_but_not_at_the_end() -> None:
    schedule = default_structure("no-limit", 1500, 15, 8, break_every=4, break_minutes=5)
    kinds = ["B" if isinstance(s, Break) else "L" for s in schedule]
    assert kinds == ["L"] * 4 + ["B"] + ["L"] * 4
    assert schedule[4] == Break(5)
    assert level_number(schedule, 4) == 4 and level_number(schedule, 5) == 5
    assert level_at_or_after(schedule, 4) == schedule[5]
    assert next_level(schedule, 3) == schedule[5]
    assert next_level(schedule, len(schedule) - 1) is None


@PROFILE
@given(
    structure=st.sampled_from(STRUCTURES),
    starting=st.integers(100, 10**6),
    minutes=st.floats(0.5, 60),
    levels=st.none() | st.integers(1, MAX_LEVELS),
    break_every=st.integers(0, 6),
)
def test_default_schedules_are_sensible_and_valid_engine_stakes(
    structure: Structure, starting: int, minutes: float, levels: int | None, break_every: int,
) -> None:
    schedule = default_structure(structure, starting, minutes, levels, break_every=break_every)
    assert validate_schedule(schedule) == tuple(schedule)
    played = [s for s in schedule if isinstance(s, Level)]
    if levels is not None:
        assert len(played) == levels
    else:
        assert played[-1].big_blind >= starting
        assert len(played) == 1 or played[-2].big_blind < starting
    first = played[0]
    assert starting / 100 <= first.big_blind <= starting / 50, "players start with 50 to 100 big blinds"
    for before, after in itertools.pairwise(played):
        assert after.small_blind > before.small_blind
        rise = after.small_blind / before.small_blind
        assert 1.25 <= rise <= 1.5 or (before.small_blind == 1 and rise == 2), (before, after)
        assert after.ante >= before.ante
    for level in played:
        assert level.big_blind == 2 * level.small_blind
        assert level.minutes == minutes
        if structure == "fixed-limit" or level.big_blind < 4 * first.big_blind:
            assert level.ante == 0
        else:
            assert 0 < level.ante <= level.big_blind / 8
            assert 2 * level.ante > level.big_blind / 8, "the ante is the ladder figure just below 1/8"
        stakes = Stakes(structure, level.small_blind, level.big_blind, level.ante,
                        small_bet=level.small_bet if structure == "fixed-limit" else None,
                        big_bet=level.big_bet if structure == "fixed-limit" else None)
        assert stakes == level.stakes(structure)
        if structure == "fixed-limit":
            assert (stakes.small, stakes.big) == (level.big_blind, 2 * level.big_blind)
    breaks = [i for i, s in enumerate(schedule) if isinstance(s, Break)]
    if break_every:
        assert [level_number(schedule, i) for i in breaks] == list(range(break_every, len(played), break_every))
    else:
        assert breaks == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"structure": "limit"}, "unknown structure"),
    ({"starting_chips": 99}, "at least 100 starting chips"),
    ({"starting_chips": 1500.0}, "at least 100 starting chips"),
    ({"level_minutes": 0}, "more than 0"),
    ({"level_minutes": float("nan")}, "number of minutes"),
    ({"levels": 0}, "from 1 to 60"),
    ({"levels": 61}, "from 1 to 60"),
    ({"break_every": -1}, "whole number of levels"),
    ({"starting_chips": 10**12, "levels": 60}, "at most"),
])
def test_default_structure_refuses_bad_settings(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"structure": "no-limit", "starting_chips": 1500, "level_minutes": 15, **kwargs}
    with pytest.raises(ValueError, match=message):
        default_structure(**args)  # type: ignore[arg-type]


def test_parse_levels_reads_the_hosts_list() -> None:
    schedule = parse_levels("10/20, 15/30, 25/50/5, break 10, 50/100/10", level_minutes=12)
    assert schedule == [
        Level(10, 20, 0, 12), Level(15, 30, 0, 12), Level(25, 50, 5, 12), Break(10), Level(50, 100, 10, 12),
    ]
    assert playing_levels(schedule) == 4
    assert parse_levels("10/20; 20/40\n40/80 ; Break 7.5 min; 40/80/10") == [
        Level(10, 20), Level(20, 40), Level(40, 80), Break(7.5), Level(40, 80, 10),
    ]
    assert parse_levels(" 5 / 10 ,, 10/20,") == [Level(5, 10), Level(10, 20)]


@pytest.mark.parametrize(("text", "message"), [
    ("", "no levels given"),
    (" , ", "no levels given"),
    ("10/20, 15/x", r"part 2 \('15/x'\): 'x' is not a whole number of chips"),
    ("10/20, 2.5/5", r"part 2 \('2.5/5'\): '2.5' is not a whole number"),
    ("10/20, -5/10", "'-5' is not a whole number"),
    ("10/20, 30", "write a level as small blind/big blind"),
    ("10/20/5/5", "write a level as small blind/big blind"),
    ("20/10", r"part 1 \('20/10'\): the small blind \(20\) cannot be larger than the big blind \(10\)"),
    ("0/10", "the small blind must be at least 1 chip"),
    ("10/20/30", r"the ante \(30\) cannot be larger than the big blind"),
    ("10/20, break", "a break needs its length in minutes"),
    ("10/20, break ten, 20/40", "'ten' is not a number of minutes"),
    ("10/20, break 0, 20/40", "more than 0"),
    ("break 10, 10/20", "cannot start with a break"),
    ("10/20, break 10", "cannot end with a break"),
    ("10/20, break 5, break 5, 20/40", "two breaks in a row"),
    ("10/20, 15/30, 10/40", r"level 3 \(10/40\): the small blind falls from 15 to 10"),
    ("10/20/5, 20/40", "the ante falls from 5 to 0"),
    (", ".join(["10/20"] * 61), "at most 60 blind levels"),
])
def test_parse_levels_names_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_levels(text)


@st.composite
def schedules(draw: st.DrawFn) -> list[Step]:
    """Valid schedules: non-decreasing blinds and antes, breaks between levels only."""
    count = draw(st.integers(1, 12))
    small, big, ante = draw(st.integers(1, 50)), 0, 0
    big = small + draw(st.integers(0, 50))
    steps: list[Step] = []
    for i in range(count):
        if i and draw(st.booleans()) and isinstance(steps[-1], Level):
            steps.append(Break(draw(st.sampled_from([5, 10, 7.5]))))
        steps.append(Level(small, big, ante, 15))
        small += draw(st.integers(0, 40))
        big = max(big, small) + draw(st.integers(0, 40))
        ante = min(big, ante + draw(st.integers(0, 5)))
    return steps


@PROFILE
@given(schedules(), st.sampled_from(STRUCTURES))
def test_host_lists_round_trip_through_text_and_json_and_make_engine_stakes(
    schedule: list[Step], structure: Structure,
) -> None:
    assert parse_levels(format_levels(schedule)) == schedule
    stored = json.loads(json.dumps(schedule_to_json(schedule)))
    assert schedule_from_json(stored) == tuple(schedule)
    for step in schedule:
        if isinstance(step, Level):
            stakes = step.stakes(structure)
            assert (stakes.small_blind, stakes.big_blind, stakes.ante) == (step.small_blind, step.big_blind, step.ante)


def test_level_describes_itself() -> None:
    assert Level(25, 50, 5).describe() == "25/50, ante 5"
    assert Level(25, 50).describe("fixed-limit") == "25/50, bets 50/100"
    assert Break(10).describe() == "break, 10 min"
    assert Level(10, 20).stakes("no-limit", raise_cap=5).raise_cap == 5


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Level(10, True), "whole number of chips"),
    (lambda: Level(10, 20, minutes=-1), "more than 0"),
    (lambda: Level(10, 20, minutes=24 * 60 + 1), "at most 1440"),
    (lambda: Break("10"), "number of minutes"),  # type: ignore[arg-type]
    (lambda: Level(1, 10**15 + 1), "at most"),
])
def test_levels_refuse_bad_values(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]
