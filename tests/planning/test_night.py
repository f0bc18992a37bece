"""The rules of a planned night (bot.planning.night): the roster and its waiting list, Interested members, the
reminders, the next step, the seats held for those who signed up, clashes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.planning import (
    NIGHT_LENGTH,
    SEAT_HOLD,
    Signup,
    clash,
    due_reminders,
    event_name,
    holds_seats,
    interested_changes,
    next_step,
    planned_buy_ins,
    roster,
    seats_held,
)

START = 1_800_000_000


def test_the_first_in_play_the_rest_wait_and_a_tap_beats_the_event() -> None:
    signups = [Signup(3, "in", 30.0), Signup(1, "in", 10.0), Signup(2, "interested", 20.0), Signup(4, "out", 5.0),
               Signup(5, "in", 30.0)]
    r = roster(signups, seats=2)
    assert (r.playing, r.waiting, r.out) == ((1, 2), (3, 5), (4,))
    assert r.place(2) == ("playing", 2) and r.place(5) == ("waiting", 2) and r.place(4) is None
    added, dropped = interested_changes(signups, {2, 4, 6})
    assert (added, dropped) == ([6], [])  # 4 said he cannot make it: marking the event does not change that
    assert interested_changes(signups, set()) == ([], [2])


@given(st.lists(st.tuples(st.integers(1, 20), st.sampled_from(["in", "out", "interested"]),
                          st.integers(0, 5)), unique_by=lambda t: t[0]), st.integers(2, 8))
def test_everyone_in_is_playing_or_waiting_in_order(rows: list[tuple[int, str, int]], seats: int) -> None:
    signups = [Signup(u, a, float(t)) for u, a, t in rows]  # type: ignore[arg-type]
    r = roster(signups, seats)
    assert len(r.playing) == min(seats, len(r.order)) and set(r.order) == {s.user for s in signups if s.is_in}
    times = {s.user: (s.at, s.user) for s in signups}
    assert [times[u] for u in r.order] == sorted(times[u] for u in r.order)


def test_reminders_are_due_from_their_time_until_the_start_once_each() -> None:
    signups = [Signup(1, "in", 1.0), Signup(2, "in", 2.0, reminded=True), Signup(3, "out", 3.0),
               Signup(4, "interested", 4.0)]
    remind = START - 3600
    assert due_reminders(signups, START, 60, remind - 1) == []
    assert due_reminders(signups, START, 60, remind) == [1, 4]
    assert due_reminders(signups, START, 60, START) == []  # after the start: the channel's mention, no DM
    assert due_reminders(signups, START, 0, remind) == []  # remind 0: none


def test_the_next_step_of_a_night() -> None:
    assert next_step(START, 60, False, START - 7200) == next_step(START, 60, False, START - 1)
    assert next_step(START, 60, False, START - 7200).kind == "remind"
    assert next_step(START, 60, False, START - 7200).at == START - 3600
    assert next_step(START, 60, True, START - 1800).kind == "open"
    assert next_step(START, 0, False, START - 7200).at == START  # no reminders: the start
    late = next_step(START, 60, False, START + 60)  # the bot came back after the start: open now, no reminder
    assert late.kind == "open" and late.at == START
    assert next_step(START, 60, False, START + NIGHT_LENGTH).kind == "missed"


def test_seats_are_held_for_those_signed_up_while_they_are_short() -> None:
    order = (1, 2, 3)
    assert seats_held(order, seated=(), free=3, user=9) == 3  # three to come, three seats: held
    assert seats_held(order, seated=(), free=4, user=9) == 0  # a seat more than they need
    assert seats_held(order, seated=(1,), free=2, user=9) == 2
    assert seats_held(order, seated=(), free=1, user=3) == 2  # the last on the list waits for those before him
    assert seats_held(order, seated=(), free=1, user=1) == 0
    assert holds_seats(START, START + SEAT_HOLD - 1) and not holds_seats(START, START + SEAT_HOLD)


def test_nights_in_one_channel_clash_when_they_overlap() -> None:
    others = [(7, START - NIGHT_LENGTH), (8, START + NIGHT_LENGTH - 1)]
    assert clash(START, others) == 8
    assert clash(START, others[:1]) is None


def test_the_events_name() -> None:
    assert event_name("Dealer's choice", 1, 2) == "Poker night: Dealer's choice 1/2"
    assert event_name("Badugi", 1000, 2000) == "Poker night: Badugi 1,000/2,000"
    assert len(event_name("x" * 200, 1, 2)) == 100


def test_a_planned_buy_in_is_the_largest_and_the_smallest_stays_the_houses_unless_it_is_less() -> None:
    assert planned_buy_ins(10, None) == (None, None)  # the house's default range
    assert planned_buy_ins(10, 1000) == (200, 1000)  # 20 big blinds to the planned buy-in
    assert planned_buy_ins(10, 150) == (150, 150)  # less than 20 big blinds: that buy-in only
    assert planned_buy_ins(0, 50) == (20, 50)  # no big blind: counted in chips
