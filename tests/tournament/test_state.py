"""The tournament value: registration, the start, hands, rebuys, late registration, pause, cancel, payout."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from bot.tournament.levels import Break, Level, parse_levels
from bot.tournament.placements import Placing
from bot.tournament.state import Bust, Entry, Tournament

T0 = 1_700_000_000.0
# One-minute levels, then a one-minute break after level 2: level 3 starts at 180 s.
SCHEDULE = tuple(parse_levels("5/10, 10/20, break 1, 20/40, 40/80, 80/160", level_minutes=1))


def tournament(players: Sequence[int] = (1, 2, 3, 4), **settings: object) -> Tournament:
    t = Tournament(20, 1000, SCHEDULE, **settings)  # type: ignore[arg-type]
    for player in players:
        t = t.register(player)
    return t


def stored(t: Tournament) -> Tournament:
    """``t`` as a restarted bot reads it back from its JSON column."""
    again = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert again == t
    return again


def bust(t: Tournament, loser: int, winner: int, now: float, chips: int = 1000) -> Tournament:
    """A heads-up pot in which ``loser`` loses his ``chips`` to ``winner``."""
    return t.hand_finished({loser: chips, winner: chips}, {loser: 0, winner: 2 * chips}, [loser, winner], now)


def test_a_whole_sit_and_go_from_registration_to_the_payout() -> None:
    t = tournament()
    assert t.status == "registering" and t.entrants == 4 and t.prize_pool == 80
    assert stored(t).standing.players == (1, 2, 3, 4)
    t = t.start(T0)
    assert t.status == "running"
    hand = t.next_hand(T0 + 5)
    assert (hand.status, hand.level) == ("deal", Level(5, 10, 0, 1))
    t = t.hand_finished({1: 1000, 2: 1000, 3: 1000, 4: 1000}, {1: 0, 2: 2000, 3: 1000, 4: 1000}, [1, 2, 3, 4], T0 + 50)
    assert t.standing.is_out(1) and t.placings() == [Placing(4, (1,))]
    assert stored(t).next_hand(T0 + 70).level == Level(10, 20, 0, 1)
    t = t.hand_finished({2: 2000, 3: 1000, 4: 1000}, {2: 4000, 3: 0, 4: 0}, [3, 4, 2], T0 + 200)
    assert t.status == "finished"
    assert t.placings() == [Placing(1, (2,)), Placing(2, (3, 4)), Placing(4, (1,))]
    # 65/35 of 80 chips: 52 and 28; 3 and 4 tied for second and third share 28.
    assert t.prizes() == {2: 52, 3: 14, 4: 14, 1: 0}
    assert t.pool_held == 0 and t.prize_pool == 80
    assert stored(t).prizes() == t.prizes()


def test_unregister_only_before_the_start_and_it_gives_the_buy_in_back() -> None:
    t, refund = tournament().unregister(3)
    assert refund == 20 and t.entrants == 3 and t.prize_pool == 60 and t.standing.players == (1, 2, 4)
    with pytest.raises(ValueError, match="not in the tournament"):
        t.unregister(3)
    with pytest.raises(ValueError, match="only before the tournament starts"):
        t.start(T0).unregister(1)


def test_start_needs_two_players_and_happens_once() -> None:
    with pytest.raises(ValueError, match="at least 2 players; 1 registered"):
        tournament([1]).start(T0)
    t = tournament().start(T0)
    with pytest.raises(ValueError, match="cannot start again"):
        t.start(T0 + 1)
    with pytest.raises(ValueError, match="already registered"):
        t.register(1, T0)


def test_late_registration_is_open_until_its_last_level_runs_out() -> None:
    t = tournament([1, 2], late_registration_levels=2).start(T0)
    t = t.register(3, T0 + 119)
    assert sum(e.late for e in t.entries) == 1 and t.entries[-1] == Entry(3, 0, True) and t.prize_pool == 60
    with pytest.raises(ValueError, match="late registration is closed"):
        t.register(4, T0 + 120)
    with pytest.raises(ValueError, match="registration is closed: the tournament has started"):
        tournament([1, 2]).start(T0).register(3, T0)
    t = bust(t, 3, 1, T0 + 30)
    with pytest.raises(ValueError, match="knocked out"):
        t.register(3, T0 + 40)


def test_a_full_table_refuses_more_players_but_a_bust_frees_a_seat() -> None:
    t = tournament([1, 2], seats=2, late_registration_levels=1)
    with pytest.raises(ValueError, match=r"full \(2 players\)"):
        t.register(3)
    t = tournament([1, 2, 3], seats=3, late_registration_levels=1).start(T0)
    t = t.hand_finished({1: 1000, 2: 1000}, {1: 2000, 2: 0}, [1, 2], T0 + 10)
    assert t.register(4, T0 + 20).standing.alive == (1, 3, 4)


def test_a_broke_player_may_rebuy_during_the_rebuy_levels() -> None:
    t = tournament([1, 2, 3], rebuy_levels=2, max_rebuys=1).start(T0)
    t = bust(t, 1, 2, T0 + 10)
    assert t.awaiting_rebuy == (Bust(1, 1000),) and not t.standing.is_out(1) and t.status == "running"
    assert stored(t).awaiting_rebuy == t.awaiting_rebuy
    with pytest.raises(ValueError, match="only when you have no chips"):
        t.rebuy(3)
    t = t.rebuy(1)
    assert t.rebuys == 1 and t.prize_pool == 80 and t.paid_in(1) == 40 and t.awaiting_rebuy == ()
    # His one rebuy used, the next time he goes broke he is out at once.
    t = bust(t, 1, 3, T0 + 20)
    assert t.standing.is_out(1) and t.awaiting_rebuy == ()
    with pytest.raises(ValueError, match="out of the tournament"):
        t.rebuy(1)
    with pytest.raises(ValueError, match="not in this tournament"):
        t.rebuy(9)


def test_after_the_rebuy_levels_a_broke_player_is_out() -> None:
    t = tournament([1, 2, 3], rebuy_levels=2).start(T0)
    t = bust(t, 1, 2, T0 + 120)  # level 2 ran out at 120 s; the break after it is closed
    assert t.standing.is_out(1) and t.awaiting_rebuy == ()


def test_players_who_do_not_rebuy_go_out_together_placed_by_their_chips() -> None:
    t = tournament([1, 2, 3, 4], rebuy_levels=1).start(T0)
    t = t.hand_finished({1: 300, 2: 700, 3: 1000, 4: 2000}, {1: 0, 2: 0, 3: 2000, 4: 2000}, [4, 1, 2, 3], T0 + 9)
    assert t.awaiting_rebuy == (Bust(1, 300), Bust(2, 700))
    t = t.settle_busts()
    assert t.placings() == [Placing(3, (2,)), Placing(4, (1,))]
    assert t.settle_busts() is t


def test_a_player_waiting_to_rebuy_keeps_the_tournament_going() -> None:
    t = bust(tournament([1, 2], rebuy_levels=1).start(T0), 1, 2, T0 + 5)
    assert t.status == "running" and t.standing.alive == (1, 2)
    finished = t.settle_busts()
    assert finished.status == "finished" and finished.prizes() == {2: 40, 1: 0}
    # Or he rebuys, and the next hand is played; had the table dealt without settling, the hand settles first.
    t = t.rebuy(1)
    assert bust(t, 2, 1, T0 + 61, 2000).prizes() == {1: 60, 2: 0}  # level 2: no more rebuys
    t = tournament([1, 2, 3], rebuy_levels=1).start(T0)
    t = bust(t, 1, 2, T0 + 5)
    t = t.hand_finished({2: 2000, 3: 1000}, {2: 3000, 3: 0}, [2, 3], T0 + 8)
    assert t.placings() == [Placing(3, (1,))] and t.awaiting_rebuy == (Bust(3, 1000),)


def test_pause_stops_the_deal_and_the_clock() -> None:
    t = tournament().start(T0).pause(T0 + 30)
    assert t.status == "paused" and t.next_hand(T0 + 500).status == "paused"
    t = t.hand_finished({1: 1000, 2: 1000}, {1: 1500, 2: 500}, [1, 2], T0 + 40)  # the hand in play ends
    assert stored(t).status == "paused"
    t = t.resume(T0 + 600)
    assert t.next_hand(T0 + 600).seconds_left == 30 and t.status == "running"
    with pytest.raises(ValueError, match="needs a running tournament; this one is registering"):
        tournament().pause(T0)


def test_a_break_deals_nothing() -> None:
    hand = tournament().start(T0).next_hand(T0 + 150)
    assert (hand.status, hand.level, hand.seconds_left) == ("break", Level(20, 40, 0, 1), 30)
    assert isinstance(SCHEDULE[2], Break)


def test_cancel_returns_every_buy_in_and_rebuy_exactly() -> None:
    t = tournament([1, 2, 3], rebuy_levels=2, late_registration_levels=1).start(T0)
    t = bust(t, 1, 2, T0 + 5).rebuy(1)
    t = bust(t, 1, 3, T0 + 6).rebuy(1)
    t = t.register(4, T0 + 7)
    cancelled, refunds = t.cancel()
    assert refunds == {1: 60, 2: 20, 3: 20, 4: 20} and sum(refunds.values()) == t.prize_pool == 120
    assert cancelled.status == "cancelled" and cancelled.pool_held == 0
    assert stored(cancelled) == cancelled
    with pytest.raises(ValueError, match="cancelled: it cannot be cancelled"):
        cancelled.cancel()
    _, refunds = tournament().cancel()
    assert refunds == {1: 20, 2: 20, 3: 20, 4: 20}
    with pytest.raises(ValueError, match="when the tournament is over"):
        t.prizes()


def test_the_hosts_payouts_with_fewer_entrants_than_places_keep_their_proportions() -> None:
    t = tournament([1, 2], payouts=(5_000, 3_000, 2_000)).start(T0)
    assert t.payout_amounts() == [25, 15]
    assert bust(t, 1, 2, T0 + 1).prizes() == {2: 25, 1: 15}


def test_a_finished_or_cancelled_tournament_takes_no_more_hands() -> None:
    done = bust(tournament([1, 2]).start(T0), 1, 2, T0 + 1)
    with pytest.raises(ValueError, match="running tournament; this one is finished"):
        bust(done, 2, 1, T0 + 2)
    with pytest.raises(ValueError, match="registration is closed: the tournament is finished"):
        done.register(5)
    with pytest.raises(ValueError, match="finished: it cannot be cancelled"):
        done.cancel()


@pytest.mark.parametrize(("settings", "message"), [
    ({"buy_in": -1}, "buy-in must be a whole number"),
    ({"buy_in": 2.5}, "buy-in must be a whole number"),
    ({"starting_chips": 0}, "starting chips must be a whole number above zero"),
    ({"starting_chips": 9}, r"must cover the first big blind \(10\)"),
    ({"schedule": ()}, "at least one blind level"),
    ({"payouts": (5_000, 4_000)}, "summing to 100%"),
    ({"payouts": (4_000, 6_000)}, "falling shares"),
    ({"late_registration_levels": 6}, "from 0 to 5 levels"),
    ({"rebuy_levels": -1}, "from 0 to 5 levels"),
    ({"max_rebuys": 0}, "at least 1"),
    ({"seats": 1}, "at least 2 seats"),
    ({"stage": "dealing"}, "unknown tournament stage"),
    ({"stage": "running"}, "a clock from its start"),
])
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"buy_in": 20, "starting_chips": 1000, "schedule": SCHEDULE, **settings}
    with pytest.raises(ValueError, match=message):
        Tournament(**args)  # type: ignore[arg-type]


def test_corrupt_stored_data_is_refused() -> None:
    data = tournament().start(T0).to_json()
    with pytest.raises(ValueError, match="unknown tournament data version"):
        Tournament.from_json({**data, "version": 99})
    with pytest.raises(ValueError, match="only a player still in"):
        Tournament.from_json({**data, "awaiting_rebuy": [{"player": 9, "chips": 5}]})
    with pytest.raises(ValueError, match="exactly one player left"):
        Tournament.from_json({**data, "stage": "finished"})
    with pytest.raises(ValueError, match="whole numbers"):
        Tournament.from_json({**data, "entries": [{"player": 1, "rebuys": -1, "late": False}, *data["entries"][1:]]})
