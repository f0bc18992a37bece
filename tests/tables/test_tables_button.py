"""The moving button, engine seats, heads-up, and dealer's choice per hand and per orbit."""

from __future__ import annotations

import asyncio

import pytest

from bot.poker import GAMES, Posted
from bot.store import Store
from bot.tables import TableError, Tables

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    FRANK,
    GRACE,
    HOST,
    G,
    deal,
    finish,
    play_hand,
    seat_players,
    settings,
    take_snapshot,
)


async def test_the_button_moves_clockwise_to_the_next_dealt_in_seat(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    for user, seat_no in ((ALICE, 2), (BOB, 3), (CAROL, 5), (DAVE, 7)):
        await table.join(user, 100, seat_no=seat_no)
    await table.sit_out(CAROL)
    buttons: list[int] = []
    orders: list[tuple[int, ...]] = []
    for _ in range(4):
        expected = table.next_button()
        assert expected is not None
        hand = await deal(table)
        assert table.live is not None and table.record.button == expected
        assert table.live.record.settings["button"] == expected
        button_user = table.record.seat_at(expected).user_id  # type: ignore[union-attr]
        assert table.live.users[-1] == button_user  # the button is the last engine seat
        assert table.engine_seat(button_user) == hand.players - 1
        buttons.append(expected)
        orders.append(table.live.users)
        await finish(table)
    assert buttons == [7, 2, 3, 7]  # seat 5 sits out: skipped
    # Engine seat 0 is the first dealt-in seat left of (after) the button.
    assert orders == [(ALICE, BOB, DAVE), (BOB, DAVE, ALICE), (DAVE, ALICE, BOB), (ALICE, BOB, DAVE)]
    await table.sit_in(CAROL)
    assert table.next_button() == 2
    await deal(table)
    assert table.live is not None and table.live.users == (BOB, CAROL, DAVE, ALICE)
    await finish(table)
    # A new player between the button and the next seat is dealt in at his place.
    await table.leave(BOB)
    await table.join(ERIN, 100, seat_no=4)
    assert table.next_button() == 4
    await deal(table)
    assert table.live is not None and table.live.users == (CAROL, DAVE, ALICE, ERIN)
    await finish(table)
    assert [h.settings["button"] for h in reversed(await store.recent_hands(table.id, 10))] == [7, 2, 3, 7, 2, 4]


async def test_the_blinds_are_left_of_the_button(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL])
    hand = await deal(table)
    posted = [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert posted == [(0, "small blind", 1), (1, "big blind", 2)]
    assert table.live is not None and table.live.users == (ALICE, BOB, CAROL)  # CAROL (seat 3) has the button
    assert table.actor() == CAROL  # under the gun, three-handed: the button
    await finish(table)


async def test_heads_up_the_button_posts_the_small_blind_and_acts_first(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB])
    for button_user in (BOB, ALICE, BOB):
        hand = await deal(table)
        assert table.live is not None and table.live.users[1] == button_user
        posted = [(e.player, e.kind) for e in hand.events if isinstance(e, Posted)]
        assert posted == [(1, "small blind"), (0, "big blind")]
        assert table.actor() == button_user
        await table.act(button_user, "cc", table.next_seq())
        other = table.live.users[0]
        assert table.actor() == other
        await table.act(other, "cc", table.next_seq())
        assert table.legal() is not None and table.legal().phase == "drawing"  # type: ignore[union-attr]
        assert table.actor() == other  # after the blinds, the big blind (left of the button) goes first
        await finish(table)


async def test_dealers_choice_the_next_button_chooses_among_the_games_the_players_can_play(
    tables: Tables, store: Store
) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice"))
    await seat_players(table, [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GRACE])
    ids = [g.id for g in table.choices()]
    assert "triple-draw-27" not in ids and "double-draw-a5" not in ids  # 6-max games: not for 7 players
    assert ids == ["five-card-draw", "assassin", "single-draw-27", "single-draw-a5", "single-draw-a6",
                   "holdem", "omaha", "omaha-hilo", "big-o", "stud", "stud-hilo", "razz"]
    assert table.next_button() == 7 and table.chooser() == GRACE
    before = await take_snapshot(store)
    table.check_choice(GRACE, game="omaha")  # the menu's pick is checked as the deal checks it
    for pick in (table.check_choice, table.choose_game):
        with pytest.raises(TableError, match="cannot be dealt to 7 players"):
            await _maybe(pick(GRACE, game="triple-draw-27"))
    with pytest.raises(TableError, match="unknown game"):
        await table.choose_game(GRACE, "chess")
    with pytest.raises(TableError, match=f"It is member {GRACE}'s choice") as refused:
        await table.choose_game(ALICE, "assassin")
    assert refused.value.render(lambda user: f"<@{user}>") == f"It is <@{GRACE}>'s choice."  # named by the cogs
    with pytest.raises(TableError, match="must choose"):  # dealing without a choice
        await table.start_hand()
    assert await take_snapshot(store) == before
    hand = (await table.choose_game(GRACE, "single-draw-a5")).hand
    assert hand.game.id == "single-draw-a5" and hand.stakes.structure == "fixed-limit"
    assert table.chooser() is None  # a hand is live: nothing to choose
    with pytest.raises(TableError, match="No game is to be chosen now"):
        await table.choose_game(ALICE, "assassin")
    await finish(table)
    assert table.chooser() == ALICE  # the button moved to seat 1: ALICE picks the next game
    await table.leave(GRACE)
    ids = [g.id for g in table.choices()]
    assert "triple-draw-27" in ids and "badugi" in ids and len(ids) == len(GAMES) == 19  # six players: every game
    hand = (await table.choose_game(ALICE, "triple-draw-27")).hand
    assert hand.game.draws == 3
    await finish(table)


async def test_dealers_choice_nobody_chooses_while_nothing_can_be_dealt(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice"))
    assert table.chooser() is None and table.choices() == []
    await table.join(ALICE, 100)
    assert table.chooser() is None and table.choices() == []  # one player: no game, no choice
    with pytest.raises(TableError, match="No game is to be chosen"):
        await table.choose_game(ALICE, "assassin")
    await table.join(BOB, 100)
    assert table.chooser() == BOB


async def test_dealers_choice_timeout_deals_the_previous_game(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice"))
    await seat_players(table, [ALICE, BOB, CAROL])
    hand = (await table.choice_timed_out()).hand  # nothing was dealt before: the first game offered
    assert hand.game.id == "five-card-draw"
    await finish(table)
    await play_hand(table, game="double-draw-27")
    for _ in range(2):
        assert table.chooser() is not None
        hand = (await table.choice_timed_out()).hand
        assert hand.game.id == "double-draw-27"
        await finish(table)
    # The previous game is no longer playable (seven players): the first game offered instead.
    await seat_players(table, [DAVE, ERIN, FRANK, GRACE])
    hand = (await table.choice_timed_out()).hand
    assert hand.game.id == "five-card-draw" and hand.players == 7
    await finish(table)


async def test_dealers_choice_structure_only_if_the_host_allows(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice"))
    await seat_players(table, [ALICE, BOB])
    chooser = table.chooser()
    assert chooser is not None
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="has not let the dealer pick the structure"):
        await table.choose_game(chooser, "assassin", "pot-limit")
    assert await take_snapshot(store) == before
    await table.update_settings(dealer_picks_structure=True)
    with pytest.raises(TableError, match="structure must be one of"):
        await table.choose_game(chooser, "assassin", "spread-limit")
    hand = (await table.choose_game(chooser, "assassin", "pot-limit")).hand
    assert hand.stakes.structure == "pot-limit"
    await finish(table)
    hand = (await table.choice_timed_out()).hand  # the previous game again, in the structure it was dealt
    assert (hand.game.id, hand.stakes.structure) == ("assassin", "pot-limit")
    await finish(table)
    await table.update_settings(dealer_picks_structure=False)
    hand = (await table.choice_timed_out()).hand
    assert (hand.game.id, hand.stakes.structure) == ("assassin", "no-limit")
    await finish(table)


async def test_dealers_choice_per_orbit_one_choice_lasts_an_orbit(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice", choice_per="orbit"))
    await seat_players(table, [ALICE, BOB, CAROL])
    assert table.chooser() == CAROL
    await play_hand(table, game="assassin")
    games = []
    for _ in range(2):  # the rest of the orbit: no choice, the same game
        assert table.chooser() is None
        hand = (await table.start_hand()).hand
        games.append(hand.game.id)
        await finish(table)
    assert games == ["assassin", "assassin"]
    # The orbit is over. The button is back on CAROL's seat, but the next orbit is chosen by the
    # player left of CAROL (the first seat): every player gets to choose in turn.
    assert table.chooser() == ALICE
    with pytest.raises(TableError):
        await table.choose_game(CAROL, "five-card-draw")
    await table.choose_game(ALICE, "triple-draw-a6")
    await finish(table)
    assert table.chooser() is None
    # The choice state survives a restart (it is kept in the table's settings row).
    again = Tables(store)
    [restored] = await again.restore()
    assert restored.chooser() is None and restored.choice == table.choice
    hand = (await restored.start_hand()).hand
    assert hand.game.id == "triple-draw-a6"
    await finish(restored)


async def test_dealers_choice_per_orbit_chooses_again_when_the_game_no_longer_fits(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice", choice_per="orbit"))
    await seat_players(table, [ALICE, BOB, CAROL, DAVE, ERIN, FRANK])
    await play_hand(table, game="triple-draw-27")
    assert table.chooser() is None
    await table.join(GRACE, 100)  # seven players: triple draw is off
    assert table.chooser() is not None
    hand = await deal(table, "single-draw-27")
    assert hand.game.id == "single-draw-27"
    await finish(table)


async def _maybe(result: object) -> None:
    """Await ``result`` if it is a coroutine (``choose_game``), so one check covers a query and a move."""
    if asyncio.iscoroutine(result):
        await result
