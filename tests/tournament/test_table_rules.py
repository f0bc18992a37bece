"""A tournament's rules at the table (``bot.tournament.table_rules``): absent players blinded off, the wait for a
broke player's rebuy, and a carried pot nobody can play returned."""

from __future__ import annotations

from bot.poker import rotation
from bot.poker.rotation import Seat
from bot.tournament import table_rules
from bot.tournament.table_rules import REBUY_WAIT

ANN, BOB, CAT = 11, 22, 33


def test_a_player_sitting_out_is_dealt_in_and_acted_for() -> None:
    seats = [Seat(1, ANN, 100, sitting_out=True), Seat(2, BOB, 100), Seat(3, CAT, 0, sitting_out=True)]
    assert [s.user for s in rotation.dealt_in(seats)] == [BOB]  # a cash table skips him
    dealt = [table_rules.dealt_seat(s) for s in seats]
    assert [s.user for s in rotation.dealt_in(dealt)] == [ANN, BOB]  # a tournament deals him (not without chips)
    assert table_rules.acts_for(True) and not table_rules.acts_for(False)
    assert table_rules.dealt_seat(seats[1]) is seats[1]


def test_the_table_waits_for_a_rebuy_only_when_it_cannot_deal_without_him() -> None:
    assert table_rules.rebuy_wait_ends(False, False, 100.0, 120.0) is None  # nobody may rebuy
    assert table_rules.rebuy_wait_ends(True, True, 100.0, 120.0) is None  # the others play on meanwhile
    assert table_rules.rebuy_wait_ends(True, False, 100.0, 120.0) == 100.0 + REBUY_WAIT
    assert table_rules.rebuy_wait_ends(True, False, 100.0, 100.0 + REBUY_WAIT + 5) == 100.0 + REBUY_WAIT + 5
    assert REBUY_WAIT == 60.0


def test_a_carried_pot_is_dead_when_fewer_than_two_players_have_chips() -> None:
    assert table_rules.carried_pot_is_dead({ANN: 300, BOB: 0, CAT: 0}, (300, 0))
    assert not table_rules.carried_pot_is_dead({ANN: 150, BOB: 150, CAT: 0}, (150, 150))
    # every player of the hand put all his chips in it, though others sit with chips
    assert table_rules.carried_pot_is_dead({ANN: 0, BOB: 0, CAT: 500}, (0, 0))


def test_a_dead_pot_goes_back_to_the_hands_players_who_put_it_in() -> None:
    order = [BOB, CAT, ANN]
    assert table_rules.dead_pot_refunds(30, {ANN: 20, BOB: 10}, (ANN, BOB), order) == {ANN: 20, BOB: 10}
    # an owner no longer in the hand gets nothing of it; the odd chip goes first left of the button
    assert table_rules.dead_pot_refunds(31, {ANN: 10, BOB: 10, CAT: 10}, (ANN, BOB), order) == {BOB: 16, ANN: 15}
    # with no known owner among them, the hand's players share it equally
    assert table_rules.dead_pot_refunds(9, {CAT: 9}, (ANN, BOB), order) == {BOB: 5, ANN: 4}
