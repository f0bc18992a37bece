"""Tournament mode of a table (issue 15): the level clock between hands, eliminations and places, rebuys, late
registration, breaks, pauses, absent players blinded off, cancel, a restart, the payout. The store's audit runs
after every test (``tests/conftest.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bot.poker import Hand, Stakes
from bot.store import Store
from bot.tables import Table, TableError, Tables
from bot.tables import tournament as mode
from bot.tables.tournament import Broke, Eliminated, Finished, News, Wake, new_tournament
from bot.tournament import Level, Placing, table_rules

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, HOST, G, ScriptedSeeds, find_seed, finish, passive

T0 = 1_800_000_000.0


class Clock(mode.Clock):
    """The tournament's clock, moved by hand."""

    def __init__(self) -> None:
        self.t = T0

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def tclock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock()
    monkeypatch.setattr(mode, "CLOCK", fake)
    yield fake


def all_in(table: Table) -> str:
    """Everybody all in before the draw (no limit), then stand pat."""
    legal = table.legal()
    assert legal is not None
    if legal.phase == "drawing":
        return "sd"
    return f"cbr {legal.max_raise_to}" if legal.can_raise else "cc"


async def open_tournament(tables: Tables, players: tuple[int, ...] = (ALICE, BOB, CAROL), *,
                          levels: str = "10/20, 20/40, break 1, 40/80, 80/160", **options: object) -> Table:
    settings, tournament = new_tournament("five-card-draw", 100, 1000, 1, levels=levels, **options)  # type: ignore[arg-type]
    table = await tables.create(G, CHANNEL, HOST, settings, tournament=tournament)
    assert mode.tournament_of(table) is not None
    for user in players:
        await mode.tournament_of(table).register(table, user)
    return table


def mode_of(table: Table) -> mode.TournamentMode:
    assert mode.tournament_of(table) is not None
    return mode.tournament_of(table)


def collect(table: Table) -> list[News]:
    news: list[News] = []
    mode_of(table).listen(news.append)
    return news


async def test_registration_moves_the_buy_in_and_seats_the_starting_chips(store: Store, tables: Tables,
                                                                        tclock: Clock) -> None:
    table = await open_tournament(tables)
    t = mode_of(table)
    assert [s.stack for s in table.record.seats] == [1000, 1000, 1000]
    assert await store.balance(G, ALICE) == 900 and t.state.prize_pool == 300
    assert await t.unregister(table, CAROL) == 100 and await store.balance(G, CAROL) == 1000
    assert table.next().kind == "idle"  # nothing is dealt before the start
    with pytest.raises(TableError, match="has not started"):
        await table.start_hand()
    # Cash-table moves are refused: tournament chips never reach the bank; the table says it has none of them.
    assert not any(table.offers(doing) for doing in ("join", "rebuy", "leave", "start", "pause", "resume"))
    for refused in (table.join(DAVE, 100), table.rebuy(ALICE, 100), table.leave(ALICE), table.start(),
                    table.pause()):
        with pytest.raises(TableError):
            await refused
    await t.start(table)
    with pytest.raises(TableError, match="already registered"):
        await t.register(table, ALICE)
    with pytest.raises(TableError, match="Registration is closed"):
        await t.register(table, CAROL)  # no late registration here
    with pytest.raises(TableError, match="only before the tournament starts"):
        await t.unregister(table, ALICE)


async def test_levels_change_between_hands_never_during_one(tables: Tables, tclock: Clock) -> None:
    table = await open_tournament(tables, (ALICE, BOB))
    t = mode_of(table)
    await t.start(table)
    first = (await table.start_hand()).hand
    assert first is not None and (first.stakes.small_blind, first.stakes.big_blind) == (10, 20)
    tclock.advance(61)  # level 2 starts during the hand: the hand keeps its stakes
    legal = table.legal()
    assert legal is not None and legal.min_raise_to == 40  # the big blind of level 1 is still the minimum raise
    await finish(table)
    second = (await table.start_hand()).hand
    assert second is not None and (second.stakes.small_blind, second.stakes.big_blind) == (20, 40)
    assert (table.settings.small_blind, table.settings.big_blind) == (20, 40)  # the table shows the level
    hands = await table.store.recent_hands(table.id, 2)
    assert [h.settings["stakes"]["big_blind"] for h in hands] == [40, 20]
    await finish(table)


async def test_a_break_deals_nothing_and_says_when_to_try_again(tables: Tables, tclock: Clock) -> None:
    table = await open_tournament(tables, (ALICE, BOB))
    t = mode_of(table)
    news = collect(table)
    await t.start(table)
    tclock.advance(150)  # levels 1 and 2 (two minutes) are over: the break runs to 180 s
    assert table.next().kind == "deal"  # tried, and refused with the time to retry
    with pytest.raises(TableError, match="break"):
        await table.start_hand()
    assert news == [Wake(T0 + 180)]
    tclock.advance(30)
    hand = (await table.start_hand()).hand
    assert hand is not None and hand.stakes.big_blind == 80
    await finish(table)


async def test_pause_stops_the_clock(tables: Tables, tclock: Clock) -> None:
    table = await open_tournament(tables, (ALICE, BOB))
    t = mode_of(table)
    await t.start(table)
    tclock.advance(20)
    await t.pause(table)
    tclock.advance(500)  # a long pause counts for nothing
    assert table.next().kind == "idle"
    level = t.state.next_hand(t.now())  # what the table message shows (cogs/tournament_views.py)
    assert level.status == "paused" and level.seconds_left == pytest.approx(40)
    await t.resume(table)
    level = t.state.next_hand(t.now())
    assert (level.status, level.step, level.seconds_left) == ("deal", 0, pytest.approx(40))


async def test_a_restart_resumes_the_clock_from_the_store(store: Store, tables: Tables, tclock: Clock) -> None:
    table = await open_tournament(tables, (ALICE, BOB))
    t = mode_of(table)
    await t.start(table)
    await table.start_hand()
    tclock.advance(30)
    await t.pause(table)
    tclock.advance(100)
    await t.resume(table)
    tclock.advance(45)  # 75 s of play: level 2, 45 s left
    again = Tables(store)
    [restored] = await again.restore()
    assert restored.live is not None and restored.hand is not None and restored.hand.stakes.big_blind == 20
    restored_tournament = mode_of(restored)
    level = restored_tournament.state.next_hand(restored_tournament.now())
    assert (level.step, level.seconds_left) == (1, pytest.approx(45))
    await finish(restored)
    hand = (await restored.start_hand()).hand
    assert hand is not None and hand.stakes.big_blind == 40
    await finish(restored)


def three_way(seed: int, stacks: list[int]) -> Hand:
    hand = Hand("five-card-draw", Stakes("no-limit", 10, 20), stacks, seed=seed)
    while not hand.is_complete:
        legal = hand.legal()
        hand.act("sd" if legal.phase == "drawing" else f"cbr {legal.max_raise_to}" if legal.can_raise else "cc")
    return hand


async def test_two_out_in_one_hand_are_placed_by_their_starting_chips(store: Store, tclock: Clock) -> None:
    # The first hand: the button (Carol, the last seat) left of... seat 0 is Alice. Find a deck where Alice wins
    # everything and Bob and Carol, all in with equal stacks, both go out: they tie for second and share.
    seed = find_seed(lambda h: h.stacks == [3000, 0, 0], lambda s: three_way(s, [1000, 1000, 1000]))
    tables = Tables(store, ScriptedSeeds([seed]))
    table = await open_tournament(tables, levels="10/20", payouts="60/30/10")
    news = collect(table)
    t = mode_of(table)
    await t.start(table)
    await table.start_hand()
    assert table.live is not None and table.live.users == (ALICE, BOB, CAROL)
    await finish(table, all_in)
    assert t.state.status == "finished"
    assert t.state.placings() == [Placing(1, (ALICE,)), Placing(2, (BOB, CAROL))]
    # 300 in the pool: Alice 180; Bob and Carol share 90 + 30.
    assert [await store.balance(G, u) for u in (ALICE, BOB, CAROL)] == [1080, 960, 960]
    assert news == [Eliminated((Placing(2, (BOB, CAROL)),)),
                    Finished((Placing(1, (ALICE,)), Placing(2, (BOB, CAROL))), {ALICE: 180, BOB: 60, CAROL: 60})]
    assert table.record.seats == () and table.next().kind == "idle"
    record = await store.get_tournament(table.id)
    assert record is not None and (record.status, record.pool) == ("finished", 0)


def button_folds(hand: Hand) -> str:
    """The button folds before the draw; the others check down and stand pat."""
    legal = hand.legal()
    if legal.phase == "drawing":
        return "sd"
    return "f" if hand.actor == hand.players - 1 and not legal.can_check else "cc"


def played(seed: int, stacks: list[int], policy: str) -> Hand:
    hand = Hand("five-card-draw", Stakes("no-limit", 10, 20), stacks, seed=seed)
    while not hand.is_complete:
        legal = hand.legal()
        if policy == "all in":
            hand.act("sd" if legal.phase == "drawing" else f"cbr {legal.max_raise_to}" if legal.can_raise else "cc")
        else:
            hand.act(button_folds(hand))
    return hand


async def test_unequal_stacks_out_together_take_different_places(store: Store, tclock: Clock) -> None:
    # Hand 1 (Carol on the button folds): Alice wins Bob's big blind. Hand 2 (the button moves to Alice; Bob is
    # left of it): all in, Alice wins everything; Carol, who started it with more chips than Bob, is second.
    first = find_seed(lambda h: h.stacks == [1020, 980, 1000], lambda s: played(s, [1000] * 3, "fold"))
    second = find_seed(lambda h: h.stacks == [0, 0, 3000], lambda s: played(s, [980, 1000, 1020], "all in"))
    table = await open_tournament(Tables(store, ScriptedSeeds([first, second])), levels="10/20")
    t = mode_of(table)
    await t.start(table)
    await table.start_hand()
    await finish(table, lambda tb: button_folds(tb.hand) if tb.hand else "cc")
    assert {s.user_id: s.stack for s in table.record.seats} == {ALICE: 1020, BOB: 980, CAROL: 1000}
    await table.start_hand()
    assert table.live is not None and table.live.users == (BOB, CAROL, ALICE)
    await finish(table, all_in)
    assert t.state.placings() == [Placing(1, (ALICE,)), Placing(2, (CAROL,)), Placing(3, (BOB,))]
    assert t.state.prizes() == {ALICE: 210, CAROL: 90, BOB: 0}  # 70/30 for three


async def test_a_broke_player_may_rebuy_during_the_rebuy_levels(store: Store, tclock: Clock) -> None:
    # Hand 1: Alice is the big blind (seat 0), Bob the button. Hand 2: the button moves to Alice.
    first = find_seed(lambda h: h.stacks == [2000, 0], lambda s: heads_up(s, [1000, 1000]))
    second = find_seed(lambda h: h.stacks == [0, 3000], lambda s: heads_up(s, [1000, 2000]))
    table = await open_tournament(Tables(store, ScriptedSeeds([first, second])), (ALICE, BOB),
                                  levels="10/20, 20/40", rebuys=1)
    t = mode_of(table)
    news = collect(table)
    await t.start(table)
    await table.start_hand()
    await finish(table, all_in)
    assert t.state.status == "running" and [b.player for b in t.state.awaiting_rebuy] == [BOB]
    assert table.record.seat_of(BOB) is not None and table.next().kind == "deal"
    with pytest.raises(TableError, match="rebuy"):  # heads-up: the table waits for Bob
        await table.start_hand()
    assert news == [Broke((BOB,)), Wake(T0 + table_rules.REBUY_WAIT)]
    seat = await t.rebuy(table, BOB)
    assert seat.stack == 1000 and await store.balance(G, BOB) == 800 and t.state.prize_pool == 300
    await table.start_hand()
    assert table.live is not None and table.live.users == (BOB, ALICE)
    await finish(table, all_in)
    assert [b.player for b in t.state.awaiting_rebuy] == [BOB]  # still level 1: he may rebuy again
    tclock.advance(table_rules.REBUY_WAIT + 1)  # he does not: the next deal puts him out and ends the tournament
    with pytest.raises(TableError, match="over"):
        await table.start_hand()
    assert t.state.status == "finished" and t.state.prizes() == {ALICE: 300, BOB: 0}
    assert await store.balance(G, ALICE) == 1200


def heads_up(seed: int, stacks: list[int]) -> Hand:
    """Heads-up, all in: seat 0 is the big blind, seat 1 the button (docs/rules.md section 22.3)."""
    hand = Hand("five-card-draw", Stakes("no-limit", 10, 20), stacks, seed=seed)
    while not hand.is_complete:
        legal = hand.legal()
        hand.act("sd" if legal.phase == "drawing" else f"cbr {legal.max_raise_to}" if legal.can_raise else "cc")
    return hand


async def test_late_registration_and_cancel_returns_every_buy_in(store: Store, tables: Tables, tclock: Clock) -> None:
    table = await open_tournament(tables, (ALICE, BOB), levels="10/20, 20/40, 40/80", late_registration_levels=1,
                                  rebuys=2)
    t = mode_of(table)
    await t.start(table)
    await table.start_hand()
    await t.register(table, CAROL)  # during a hand: dealt in from the next one
    assert table.record.seat_of(CAROL) is not None and CAROL not in (table.live.users if table.live else ())
    tclock.advance(61)
    with pytest.raises(TableError, match="Late registration is closed"):
        await t.register(table, DAVE)
    cashes = await tables.close(CHANNEL)  # the host closes an unfinished tournament: it is cancelled
    assert sorted((c.user_id, c.amount) for c in cashes) == [(ALICE, 100), (BOB, 100), (CAROL, 100)]
    assert [await store.balance(G, u) for u in (ALICE, BOB, CAROL)] == [1000, 1000, 1000]
    assert (await store.get_table_by_id(table.id)).status == "closed"
    assert (await store.recent_hands(table.id, 1))[0].status == "void"


async def test_a_player_sitting_out_is_blinded_off(tables: Tables, tclock: Clock) -> None:
    table = await open_tournament(tables, (ALICE, BOB, CAROL))
    await mode_of(table).start(table)
    await table.sit_out(BOB)
    await table.start_hand()
    assert table.live is not None and BOB in table.live.users  # dealt in anyway
    while (actor := table.actor()) is not None:
        assert actor != BOB  # the table acts for him at once
        await table.act(actor, passive(table), table.next_seq())
    [hand] = await table.store.recent_hands(table.id, 1)
    bob = hand.seat_users.index(BOB)
    assert hand.status == "complete" and any(a.startswith(f"p{bob + 1} ") for a in hand.actions)


async def test_the_tournament_json_keeps_the_table_extras(store: Store, tables: Tables, tclock: Clock) -> None:
    table = await open_tournament(tables, (ALICE, BOB))
    record = await store.get_tournament(table.id)
    assert record is not None
    data = json.loads(json.dumps(record.state))
    assert data["table"] == {"broke_at": 0.0} and data["buy_in"] == 100
    assert mode_of(table).state.schedule[0] == Level(10, 20, 0, 1)


async def test_dealers_choice_deals_the_chosen_game_at_the_level(tables: Tables, tclock: Clock) -> None:
    settings, tournament = new_tournament("dealers-choice", 100, 1000, 1, levels="10/20, 20/40")
    table = await tables.create(G, CHANNEL, HOST, settings, tournament=tournament)
    t = mode_of(table)
    for user in (ALICE, BOB, CAROL):
        await t.register(table, user)
    assert table.chooser() is None  # nothing to choose before the start
    await t.start(table)
    chooser = table.chooser()
    assert chooser is not None and table.next().kind == "choose"
    hand = (await table.choose_game(chooser, "triple-draw-a5")).hand
    assert hand is not None and (hand.stakes.structure, hand.stakes.small, hand.stakes.big) == ("fixed-limit", 20, 40)
    tclock.advance(61)
    await finish(table)
    chooser = table.chooser()
    assert chooser is not None
    hand = (await table.choose_game(chooser, "five-card-draw")).hand
    assert hand is not None and (hand.stakes.structure, hand.stakes.big_blind) == ("no-limit", 40)
    await finish(table)


def assassins(seed: int) -> Hand:
    hand = Hand("assassin", Stakes("no-limit", 10, 20), [1000, 1000], seed=seed)
    while not hand.is_complete:
        legal = hand.legal()
        hand.act("sd" if legal.phase == "drawing" else f"cbr {legal.max_raise_to}" if legal.can_raise else "cc")
    return hand


async def test_a_carried_pot_nobody_can_play_goes_back(store: Store, tclock: Clock) -> None:
    # Heads-up, both all in and both holding a two: the whole pot is carried, and nobody is left with chips to
    # play for it. It goes back to those who put it in (docs/rules.md section 22.2: carried chips when no deal follows).
    seed = find_seed(lambda h: h.carried_out == 2000, assassins)
    settings, tournament = new_tournament("assassin", 100, 1000, 1, levels="10/20")
    table = await Tables(store, ScriptedSeeds([seed])).create(G, CHANNEL, HOST, settings, tournament=tournament)
    t = mode_of(table)
    for user in (ALICE, BOB):
        await t.register(table, user)
    await t.start(table)
    await table.start_hand()
    await finish(table, all_in)
    assert t.state.status == "running" and not t.state.standing.out
    assert {s.user_id: s.stack for s in table.record.seats} == {ALICE: 1000, BOB: 1000}
    assert table.record.carried_pot == 0 and table.carried_owners == {}
    [hand] = await store.recent_hands(table.id, 1)
    assert hand.carried_out == 0 and hand.result["carried_refunds"] == {str(ALICE): 1000, str(BOB): 1000}


@pytest.mark.parametrize(("options", "refusal"), [
    ({"levels": "10/20, 5/10"}, "falls from 10 to 5"),
    ({"levels": "20/10"}, "cannot be larger than the big blind"),
    ({"payouts": "50/60"}, "cannot pay more than place 1"),
    ({"late_registration_levels": 9, "levels": "10/20"}, "from 0 to 1 levels"),
    ({"structure": "spread-limit"}, "structure must be one of"),
])
def test_a_bad_tournament_is_refused_with_a_reason(options: dict[str, object], refusal: str) -> None:
    with pytest.raises(TableError, match=refusal):
        new_tournament("five-card-draw", 100, 1000, 10, **options)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="Unknown game"):
        new_tournament("go-fish", 100, 1000, 10)
    settings, tournament = new_tournament("single-draw-a5", 100, 1500, 10, levels="12")
    assert tournament.schedule[0] == Level(10, 20, 0, 10) and len(tournament.schedule) == 12
    assert (settings.small_blind, settings.big_blind, settings.ante) == (10, 20, 0)


async def test_a_horse_sit_and_go_maps_each_level_to_every_game(tables: Tables, tclock: Clock) -> None:
    """docs/rules.md section 21.6: a level's blinds apply to each game as a cash table's do (stud: ante BB/5, bring-in
    BB/4 rounded up, bets BB and 2BB); the rotation goes on across levels, played to one winner."""
    settings, tournament = new_tournament("horse", 100, 1000, 1, levels="10/20, 20/40, 50/100, 100/200",
                                          hands_per_game=1)
    table = await tables.create(G, CHANNEL, HOST, settings, tournament=tournament)
    t = mode_of(table)
    for user in (ALICE, BOB, CAROL):
        await t.register(table, user)
    await t.start(table)
    dealt = []
    for _ in range(5):
        hand = (await table.start_hand()).hand
        assert hand is not None
        stakes = hand.stakes
        dealt.append((hand.game.id, stakes.structure, stakes.small_blind, stakes.big_blind, stakes.ante,
                      stakes.bring_in, stakes.small, stakes.big))
        await finish(table)
    assert dealt == [
        ("holdem", "fixed-limit", 10, 20, 0, 0, 20, 40),
        ("omaha-hilo", "fixed-limit", 10, 20, 0, 0, 20, 40),
        ("razz", "fixed-limit", 0, 0, 4, 5, 20, 40),
        ("stud", "fixed-limit", 0, 0, 4, 5, 20, 40),
        ("stud-hilo", "fixed-limit", 0, 0, 4, 5, 20, 40),
    ]
    tclock.advance(61)  # level 2: the rotation goes on at the new level
    hand = (await table.start_hand()).hand
    assert hand is not None and (hand.game.id, hand.stakes.big_blind) == ("holdem", 40)
    await finish(table, all_in)
    for _ in range(60):  # all in every hand: the sit-and-go ends with one player left
        if t.state.stage == "finished":
            break
        tclock.advance(61)
        hand = (await table.start_hand()).hand
        assert hand is not None
        await finish(table, all_in)
    assert t.state.stage == "finished" and len([s for s in table.record.seats if s.stack]) <= 1


def test_a_rotation_tournament_names_its_games_or_is_refused() -> None:
    settings, _ = new_tournament("rotation", 100, 1000, 1, games="razz, holdem:no")
    assert [(e.game.id, e.structure) for e in settings.mix] == [("razz", "fixed-limit"), ("holdem", "no-limit")]
    with pytest.raises(TableError, match="needs its list of games"):
        new_tournament("rotation", 100, 1000, 1)
    with pytest.raises(TableError, match="`chess` is not a game"):
        new_tournament("rotation", 100, 1000, 1, games="chess")
