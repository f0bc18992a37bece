"""The level clock: levels, breaks, pauses, late registration, and the same answers after a restart."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.clock import (
    ClockState,
    LevelNow,
    NextHand,
    advance_due,
    current_level,
    level_for_next_hand,
    open_through_level,
    pause,
    resume,
    start_clock,
)
from bot.tournament.levels import Break, Level, Step

PROFILE = settings(max_examples=300, derandomize=True, deadline=None, database=None)
T0 = 1_700_000_000.0
# 10/20 and 20/40 for 10 minutes, a 5-minute break, then 40/80 until the end.
FIRST, SECOND, LAST = Level(10, 20, 0, 10), Level(20, 40, 0, 10), Level(40, 80, 5, 10)
SCHEDULE: tuple[Step, ...] = (FIRST, SECOND, Break(5), LAST)


def restarted(state: ClockState) -> ClockState:
    """The state as a restarted bot reads it back from the store."""
    return ClockState.from_json(json.loads(json.dumps(state.to_json())))


def test_levels_follow_the_clock_and_the_last_one_never_ends() -> None:
    clock = start_clock(T0)
    assert current_level(SCHEDULE, clock, T0) == LevelNow(0, 600.0)
    assert current_level(SCHEDULE, clock, T0 + 599.5) == LevelNow(0, 0.5)
    assert current_level(SCHEDULE, clock, T0 + 600) == LevelNow(1, 600.0)
    assert current_level(SCHEDULE, clock, T0 + 1250) == LevelNow(2, 250.0)
    assert current_level(SCHEDULE, clock, T0 + 1500) == LevelNow(3, None)
    assert current_level(SCHEDULE, clock, T0 + 10**7) == LevelNow(3, None)


def test_the_next_hand_is_dealt_at_the_level_in_force_and_nothing_is_dealt_on_a_break() -> None:
    clock = start_clock(T0)
    assert level_for_next_hand(SCHEDULE, clock, T0 + 599) == NextHand("deal", 0, FIRST, 1.0)
    # A hand dealt at 599 s is played at 10/20 to its end; the next one, dealt after 600 s, at 20/40.
    assert level_for_next_hand(SCHEDULE, clock, T0 + 640) == NextHand("deal", 1, SECOND, 560.0)
    on_break = level_for_next_hand(SCHEDULE, clock, T0 + 1201)
    assert on_break == NextHand("break", 2, LAST, 299.0)
    assert level_for_next_hand(SCHEDULE, clock, T0 + 1500).status == "deal"
    paused = pause(clock, T0 + 1300)
    assert level_for_next_hand(SCHEDULE, paused, T0 + 5000) == NextHand("paused", 2, LAST, 200.0)


def test_a_pause_stops_the_clock_and_does_not_count_against_the_level() -> None:
    clock = pause(start_clock(T0), T0 + 300)
    assert clock.is_paused
    assert current_level(SCHEDULE, clock, T0 + 300) == current_level(SCHEDULE, clock, T0 + 9000) == LevelNow(0, 300.0)
    clock = resume(clock, T0 + 900)
    assert not clock.is_paused and clock.paused == 600
    assert current_level(SCHEDULE, clock, T0 + 900) == LevelNow(0, 300.0)
    assert current_level(SCHEDULE, clock, T0 + 1200) == LevelNow(1, 600.0)
    # A second pause, in the next level: both pauses shift every later level.
    clock = resume(pause(clock, T0 + 1500), T0 + 1600)
    assert current_level(SCHEDULE, clock, T0 + 1900) == LevelNow(2, 300.0)
    assert current_level(SCHEDULE, clock, T0 + 2200) == LevelNow(3, None)


def test_pause_and_resume_refuse_the_wrong_state() -> None:
    with pytest.raises(ValueError, match="already paused"):
        pause(pause(start_clock(T0), T0 + 1), T0 + 2)
    with pytest.raises(ValueError, match="not paused"):
        resume(start_clock(T0), T0 + 1)


def test_a_clock_set_back_counts_no_time() -> None:
    clock = start_clock(T0)
    assert current_level(SCHEDULE, clock, T0 - 50) == LevelNow(0, 600.0)
    assert resume(pause(clock, T0 + 10), T0 + 5).paused == 0


def test_late_registration_and_rebuys_close_when_their_last_level_runs_out() -> None:
    clock = start_clock(T0)
    assert not open_through_level(SCHEDULE, clock, T0, 0)
    assert open_through_level(SCHEDULE, clock, T0 + 599, 1)
    assert not open_through_level(SCHEDULE, clock, T0 + 600, 1)
    assert open_through_level(SCHEDULE, clock, T0 + 1199, 2)
    assert not open_through_level(SCHEDULE, clock, T0 + 1200, 2), "the break after level 2 is closed"
    assert open_through_level(SCHEDULE, clock, T0 + 10**7, 3), "the last level never ends"
    assert open_through_level(SCHEDULE, pause(clock, T0 + 500), T0 + 10**5, 1), "a paused clock keeps it open"


def test_advance_due_moves_the_stored_step_on() -> None:
    clock = advance_due(SCHEDULE, resume(pause(start_clock(T0), T0 + 100), T0 + 160), T0 + 1300)
    assert clock == ClockState(2, T0 + 60 + 1200, 0.0, None)
    assert advance_due(SCHEDULE, clock, T0 + 1300) is clock
    with pytest.raises(ValueError, match="step 4 of a schedule of 4"):
        advance_due(SCHEDULE, ClockState(4, T0), T0)


@pytest.mark.parametrize("bad", [
    {"step": -1, "started": T0, "paused": 0.0, "paused_since": None},
    {"step": 0, "started": float("nan"), "paused": 0.0, "paused_since": None},
    {"step": 0, "started": T0, "paused": -1.0, "paused_since": None},
    {"step": 0, "started": T0, "paused": 0.0, "paused_since": float("inf")},
])
def test_a_corrupt_stored_clock_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="clock"):
        ClockState.from_json(bad)


@st.composite
def timelines(draw: st.DrawFn) -> tuple[tuple[Step, ...], list[tuple[int, str]]]:
    """A schedule of whole-minute steps and events at whole seconds: pause, resume, a restart (the state read
    back from JSON), an advance_due stored, or a query. Whole seconds keep every sum exact, so the clock must
    agree exactly with a model that just adds up the time it ran."""
    steps: list[Step] = []
    for i in range(draw(st.integers(1, 6))):
        if i and isinstance(steps[-1], Level) and draw(st.booleans()):
            steps.append(Break(draw(st.integers(1, 5))))
        steps.append(Level(10, 20, 0, draw(st.integers(1, 5))))
    events = draw(st.lists(st.tuples(st.integers(0, 400), st.sampled_from(
        ["toggle", "restart", "advance", "query", "query"])), max_size=40))
    return tuple(steps), events


@PROFILE
@given(timelines())
def test_the_clock_agrees_with_the_time_it_ran_through_pauses_and_restarts(
    timeline: tuple[tuple[Step, ...], list[tuple[int, str]]],
) -> None:
    schedule, events = timeline
    now = T0
    clock = start_clock(now)
    ran = 0  # the model: seconds the clock has run
    for delay, event in events:
        if not clock.is_paused:
            ran += delay
        now += delay
        if event == "toggle":
            clock = resume(clock, now) if clock.is_paused else pause(clock, now)
        elif event == "restart":
            clock = restarted(clock)
        elif event == "advance":
            clock = advance_due(schedule, clock, now)
        index, left = 0, ran
        while index < len(schedule) - 1 and left >= schedule[index].seconds:
            left -= int(schedule[index].seconds)
            index += 1
        expected = LevelNow(index, None if index == len(schedule) - 1 else schedule[index].seconds - left)
        assert current_level(schedule, clock, now) == expected


@PROFILE
@given(
    index=st.integers(0, 3),
    started=st.floats(0, 2e9),
    paused=st.floats(0, 1e5),
    paused_for=st.none() | st.floats(0, 1e5),
    t1=st.floats(0, 1e5),
    t2=st.floats(0, 1e5),
)
def test_any_stored_state_gives_the_same_answers_after_a_restart_or_an_advance(
    index: int, started: float, paused: float, paused_for: float | None, t1: float, t2: float,
) -> None:
    paused_since = None if paused_for is None else started + paused_for
    clock = ClockState(index, started, paused, paused_since)
    t1, t2 = sorted((started + t1, started + t2))
    advanced = advance_due(SCHEDULE, clock, t1)
    for now in (t1, t2):
        answer = current_level(SCHEDULE, clock, now)
        assert current_level(SCHEDULE, restarted(clock), now) == answer
        assert current_level(SCHEDULE, advanced, now) == answer
        assert current_level(SCHEDULE, restarted(advanced), now) == answer
        assert answer.seconds_left is None or 0 < answer.seconds_left <= SCHEDULE[answer.step].seconds
    assert current_level(SCHEDULE, clock, t2).step >= current_level(SCHEDULE, clock, t1).step
