"""Eliminations and places: simultaneous bust-outs, ties sharing prizes, odd chips, sums exact."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.placements import Placing, Standing, final_prizes, knock_out, placings, record_eliminations

PROFILE = settings(max_examples=300, derandomize=True, deadline=None, database=None)


def hand(standing: Standing, start: dict[int, int], end: dict[int, int]) -> Standing:
    """One hand, the seats in the order the stacks are listed."""
    return record_eliminations(standing, start, end, list(start))


def test_the_player_out_first_places_last_and_the_last_one_standing_wins() -> None:
    standing = Standing((1, 2, 3))
    standing = hand(standing, {1: 500, 2: 300, 3: 200}, {1: 700, 2: 300, 3: 0})
    assert standing.alive == (1, 2) and standing.is_out(3)
    standing = hand(standing, {2: 300, 1: 700}, {2: 0, 1: 1000})
    assert placings(standing) == [Placing(1, (1,)), Placing(2, (2,)), Placing(3, (3,))]
    assert final_prizes(standing, [70, 30]) == {1: 70, 2: 30, 3: 0}


def test_two_out_in_one_hand_are_placed_by_the_chips_they_started_it_with() -> None:
    standing = hand(Standing((1, 2, 3, 4)), {1: 100, 2: 400, 3: 250, 4: 250}, {1: 0, 2: 1000, 3: 0, 4: 0})
    # 1 started with 100: fourth; 3 and 4 started with 250 each: they share second and third.
    assert placings(standing) == [Placing(1, (2,)), Placing(2, (3, 4)), Placing(4, (1,))]
    assert final_prizes(standing, [50, 31, 20]) == {2: 50, 3: 26, 4: 25, 1: 0}
    assert Placing(2, (3, 4)).places == range(2, 4)


def test_odd_chips_of_a_tie_go_in_seat_order_from_left_of_the_button() -> None:
    standing = Standing((1, 2, 3, 4))
    # Seat order of the hand: 4 is first left of the button, then 2, then 3 and 1.
    standing = record_eliminations(standing, {1: 10, 2: 50, 3: 50, 4: 50}, {1: 160, 2: 0, 3: 0, 4: 0}, [4, 2, 3, 1])
    assert placings(standing)[1] == Placing(2, (4, 2, 3))
    assert final_prizes(standing, [50, 30, 12, 8]) == {1: 50, 4: 17, 2: 17, 3: 16}


def test_a_tie_across_the_paid_places_shares_the_last_prize() -> None:
    standing = Standing((1, 2, 3, 4))
    standing = hand(standing, {1: 600, 2: 600, 3: 400, 4: 400}, {1: 1000, 2: 1000, 3: 0, 4: 0})
    standing = hand(standing, {1: 1000, 2: 1000}, {1: 2000, 2: 0})
    # 3 and 4 tie for third and fourth with only three places paid: they share the third prize.
    prizes = final_prizes(standing, [50, 30, 21])
    assert prizes == {1: 50, 2: 30, 3: 11, 4: 10}
    assert sum(prizes.values()) == 101


def test_a_late_entrant_after_the_first_elimination_does_not_lift_it() -> None:
    standing = hand(Standing((1, 2, 3)), {1: 100, 2: 100, 3: 100}, {1: 200, 2: 100, 3: 0})
    standing = standing.with_player(4)
    standing = hand(standing, {1: 200, 2: 100, 4: 100}, {1: 400, 2: 0, 4: 0})
    assert placings(standing) == [Placing(1, (1,)), Placing(2, (2, 4)), Placing(4, (3,))]


def test_spared_players_stay_in_until_knocked_out_with_the_chips_they_started_with() -> None:
    standing = Standing((1, 2, 3, 4))
    standing = record_eliminations(standing, {1: 50, 2: 80, 3: 80, 4: 10}, {1: 220, 2: 0, 3: 0, 4: 0}, [1, 2, 3, 4],
                                   spared=[2, 3])
    assert standing.alive == (1, 2, 3) and placings(standing) == [Placing(4, (4,))]
    standing = knock_out(standing, [(2, 80), (3, 80)])
    assert placings(standing) == [Placing(1, (1,)), Placing(2, (2, 3)), Placing(4, (4,))]
    with pytest.raises(ValueError, match="goes out once"):
        knock_out(standing, [(2, 80)])


def test_places_so_far_leave_the_players_still_in_unplaced() -> None:
    standing = hand(Standing((1, 2, 3)), {1: 100, 2: 100, 3: 100}, {1: 200, 2: 100, 3: 0})
    assert placings(standing) == [Placing(3, (3,))]
    with pytest.raises(ValueError, match="not over: 2 players are still in"):
        final_prizes(standing, [100])


@pytest.mark.parametrize(("start", "end", "seats", "message"), [
    ({1: 10, 2: 10}, {1: 20, 2: 0}, [1, 2, 2], "same players"),
    ({1: 10, 2: 10}, {1: 20}, [1, 2], "same players"),
    ({1: 10, 2: 10}, {1: 20, 2: 0}, [1, 3], "same players"),
    ({1: 10, 3: 10}, {1: 20, 3: 0}, [1, 3], "player 3 is not in the tournament"),
    ({1: 10, 2: 0}, {1: 10, 2: 0}, [1, 2], "player 2 had no chips"),
    ({1: 10, 2: 10}, {1: 21, 2: -1}, [1, 2], "whole numbers of chips"),
    ({1: 10, 2: 10}, {1: 20.0, 2: 0}, [1, 2], "whole numbers of chips"),
    ({1: 10, 2: 10}, {1: 0, 2: 0}, [1, 2], "return the carried pot first"),
    ({1: 10}, {1: 10}, [1], "at least two players"),
])
def test_record_eliminations_refuses_an_impossible_hand(
    start: dict[int, int], end: dict[int, int], seats: list[int], message: str,
) -> None:
    standing = hand(Standing((1, 2, 3, 4)), {3: 5, 4: 5}, {3: 0, 4: 10})
    with pytest.raises(ValueError, match=message):
        record_eliminations(standing, start, end, seats)


def test_standing_refuses_corrupt_data_and_round_trips_through_json() -> None:
    for players, out in [((1, 1), ()), ((1, 2), ((1,), (1,))), ((1, 2), ((3,),)), ((1, 2), ((),))]:
        with pytest.raises(ValueError, match=r"once|entrant"):
            Standing(players, out)
    standing = hand(Standing((1, 2, 3)), {1: 5, 2: 5, 3: 9}, {1: 0, 2: 0, 3: 19})
    assert Standing.from_json(json.loads(json.dumps(standing.to_json()))) == standing
    with pytest.raises(ValueError, match="already entered"):
        standing.with_player(2)
    with pytest.raises(ValueError, match="still in"):
        standing.without_player(1)
    assert standing.without_player(3).players == (1, 2)
    with pytest.raises(ValueError, match="places paid among"):
        final_prizes(standing, [1, 1, 1, 1])


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Standing, list[int]]:
    """A whole tournament of random hands (random seats, stacks and bust-outs, ties likely) and its prizes."""
    players = draw(st.integers(2, 10))
    standing = Standing(tuple(range(100, 100 + players)))
    while len(standing.alive) > 1:
        seats = draw(st.permutations(standing.alive))
        start = {p: draw(st.sampled_from([5, 10, 10, 40])) for p in seats}
        survivor = draw(st.sampled_from(seats))
        busted = {p for p in seats if p != survivor and not draw(st.booleans())}  # simplest: all bust
        end = {p: 0 if p in busted else start[p] for p in seats}
        end[survivor] += sum(start[p] for p in busted)
        standing = record_eliminations(standing, start, end, seats)
    paid = draw(st.integers(1, players))
    prizes = sorted(draw(st.lists(st.integers(0, 1000), min_size=paid, max_size=paid)), reverse=True)
    return standing, prizes


@PROFILE
@given(tournaments())
def test_final_prizes_sum_exactly_and_never_pay_a_worse_place_more(tournament: tuple[Standing, list[int]]) -> None:
    standing, prizes = tournament
    paid = final_prizes(standing, prizes)
    assert set(paid) == set(standing.players)
    assert sum(paid.values()) == sum(prizes)
    ranked = placings(standing)
    assert [place for placing in ranked for place in placing.places] == list(range(1, len(standing.players) + 1))
    for better, worse in itertools.pairwise(ranked):
        assert min(paid[p] for p in better.players) >= max(paid[p] for p in worse.players)
    for placing in ranked:
        shares = [paid[p] for p in placing.players]
        assert max(shares) - min(shares) <= 1
        assert shares == sorted(shares, reverse=True), "odd chips to the first seats"
