"""The table deals the flop and stud games and the rotations (docs/rules.md sections 1.3, 1.4 and 21): HORSE and the
8-game mix in order, each game for one orbit or the host's ``hands_per_game``, the button standing still during the stud
games of a rotation, a restart resuming the rotation at the same game and hand count, one stake for every game, and
every bad setting refused with what to change."""

from __future__ import annotations

import random

import pytest

from bot.poker import GAMES, Acted, BringIn, IllegalAction
from bot.store import Store
from bot.tables import Tables, TableSettings
from bot.tables.settings import SettingsError
from bot.tables.table import TableError

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    FRANK,
    GRACE,
    HEIDI,
    HOST,
    G,
    OpenStore,
    deal,
    finish,
    play_hand,
    randomly,
    seat_players,
    settings,
    take_snapshot,
)

HORSE_ORDER = ["holdem", "omaha-hilo", "razz", "stud", "stud-hilo"]


@pytest.mark.parametrize("game", [g for g in GAMES if GAMES[g].family != "draw"])
async def test_each_flop_and_stud_game_is_dealt_and_played_to_its_end(tables: Tables, game: str) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings(game, small_blind=5, big_blind=10, min_buy_in=100,
                                                           max_buy_in=1000))
    await seat_players(table, [ALICE, BOB, CAROL, DAVE], 500)
    rng = random.Random(game)
    for _ in range(3):
        hand = await play_hand(table, randomly(rng))
        assert hand.game.id == game and hand.is_complete
        if not table.can_deal():  # a random player went broke
            break
    stakes = hand.stakes
    if GAMES[game].is_stud:  # one stake for every game: ante BB/5, bring-in BB/4 rounded up, bets BB and 2BB
        assert (stakes.ante, stakes.bring_in, stakes.small, stakes.big) == (2, 3, 10, 20)
        assert (stakes.small_blind, stakes.big_blind) == (0, 0)
    else:
        assert (stakes.small_blind, stakes.big_blind, stakes.structure) == (5, 10, GAMES[game].default_structure)


async def test_horse_deals_its_five_games_in_order_for_one_hand_each(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("horse", hands_per_game=1))
    await seat_players(table, [ALICE, BOB, CAROL])
    dealt = []
    for _ in range(7):
        assert table.mix_hands_left() == 1
        hand = await play_hand(table)
        dealt.append((hand.game.id, hand.stakes.structure))
    assert dealt == [(g, "fixed-limit") for g in [*HORSE_ORDER, *HORSE_ORDER[:2]]]
    game, upcoming = table.mix_game(), table.mix_upcoming()
    assert game is not None and upcoming is not None
    assert (game.game.id, upcoming.game.id) == ("razz", "stud")


async def test_each_game_of_a_rotation_lasts_one_orbit_of_the_players_dealt_into_its_first_hand(
    tables: Tables,
) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("eight-game"))
    await seat_players(table, [ALICE, BOB, CAROL])
    games = []
    for left in (3, 2, 1):
        assert table.mix_hands_left() == left
        games.append((await play_hand(table)).game.id)
    await table.join(DAVE, 100)  # a player joining mid-rotation sits in; the orbit was counted at its start
    assert table.mix_hands_left() == 4  # the next game: one orbit of the four players now
    games.append((await play_hand(table)).game.id)
    assert games == ["triple-draw-27"] * 3 + ["holdem"]
    assert table.live is None and table.mix_hands_left() == 3


async def test_the_button_stands_still_during_the_stud_games_of_a_rotation(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("horse", hands_per_game=2))
    await seat_players(table, [ALICE, BOB, CAROL, DAVE])
    buttons = []
    for _ in range(12):
        hand = await play_hand(table)
        buttons.append((hand.game.id, table.record.button))
    # Hold'em and Omaha hi-lo move it each hand; the first razz hand is dealt after Omaha's last (the button
    # moved); razz, stud and stud hi-lo leave it; hold'em moves it on again.
    assert buttons == [("holdem", 4), ("holdem", 1), ("omaha-hilo", 2), ("omaha-hilo", 3), ("razz", 4),
                       ("razz", 4), ("stud", 4), ("stud", 4), ("stud-hilo", 4), ("stud-hilo", 4),
                       ("holdem", 4), ("holdem", 1)]


async def test_the_button_of_dealers_choice_moves_after_a_stud_hand_too(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice"))
    await seat_players(table, [ALICE, BOB, CAROL])
    await play_hand(table, game="stud")
    first = table.record.button
    await play_hand(table, game="razz")
    assert table.record.button != first


async def test_a_restart_in_the_middle_of_a_rotation_resumes_at_the_same_game_and_hand_count(
    open_store: OpenStore,
) -> None:
    store = await open_store()
    table = await Tables(store, random.Random(3)).create(G, CHANNEL, HOST, settings("horse"))
    await seat_players(table, [ALICE, BOB, CAROL])
    for _ in range(4):  # three hands of hold'em, one of Omaha hi-lo
        await play_hand(table)
    await deal(table)  # Omaha hi-lo's second hand, live when the bot stops
    assert table.hand is not None and table.hand.game.id == "omaha-hilo"
    await store.close()

    store = await open_store()
    [again] = await Tables(store, random.Random(4)).restore()
    assert again.hand is not None and again.hand.game.id == "omaha-hilo" and again.mix == table.mix
    await finish(again)
    assert again.mix_hands_left() == 1
    assert [(await play_hand(again)).game.id for _ in range(2)] == ["omaha-hilo", "razz"]


async def test_a_host_rotation_deals_each_game_in_its_structure(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings(
        "rotation", game_list=" Holdem:no , omaha:pot-limit; razz,triple-draw-27 ", hands_per_game=1))
    assert table.settings.game_list == "holdem:no-limit, omaha:pot-limit, razz:fixed-limit, triple-draw-27:fixed-limit"
    await seat_players(table, [ALICE, BOB])
    dealt = [(h.game.id, h.stakes.structure) for h in [await play_hand(table) for _ in range(4)]]
    assert dealt == [("holdem", "no-limit"), ("omaha", "pot-limit"), ("razz", "fixed-limit"),
                     ("triple-draw-27", "fixed-limit")]


async def test_changing_the_rotation_starts_the_new_one_at_its_first_game(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("horse", hands_per_game=1))
    await seat_players(table, [ALICE, BOB])
    await play_hand(table)
    await table.update_settings(game="eight-game")
    assert (await play_hand(table)).game.id == "triple-draw-27"


async def test_a_host_stud_ante_and_bring_in(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("stud", small_blind=5, big_blind=10, stud_ante=1,
                                                           bring_in=5, min_buy_in=100))
    await seat_players(table, [ALICE, BOB], 200)
    hand = await deal(table)
    assert (hand.stakes.ante, hand.stakes.bring_in, hand.stakes.small) == (1, 5, 10)


@pytest.mark.parametrize(("changes", "message"), [
    ({"game": "rotation"}, "needs its list of games"),
    ({"game": "rotation", "game_list": " , "}, "List the games"),
    ({"game": "rotation", "game_list": "holdem, chess"}, "`chess` is not a game"),
    ({"game": "rotation", "game_list": "holdem:turbo"}, "`turbo` \\(for holdem\\) is not a structure"),
    ({"game": "holdem", "game_list": "holdem"}, "use it with `game:rotation`"),
    ({"game": "horse", "hands_per_game": 0}, "at least one hand"),
    ({"game": "holdem", "hands_per_game": 2}, "an option of the rotations"),
    ({"game": "horse", "structure": "no-limit"}, "each game in its own structure"),
    ({"game": "stud", "bring_in": 3}, "bring-in \\(3\\) cannot be larger than the small bet \\(2"),
    ({"game": "stud", "big_blind": 10, "small_blind": 5, "stud_ante": 4, "bring_in": 3}, "at least the ante"),
    ({"game": "holdem", "bring_in": 1}, "options of the stud games"),
    ({"game": "stud", "seats": 9}, "Seven Card Stud is dealt to at most 8 players"),
    ({"game": "horse", "seats": 9}, "at most 8 players"),
    ({"game": "razz", "small_blind": 0, "big_blind": 0, "ante": 1}, "Razz is played with blinds"),
    ({"game": "holdem", "small_blind": 0, "big_blind": 0, "ante": 1}, "Hold'em is played with blinds"),
    ({"game": "chess"}, "Unknown game `chess`.*horse, eight-game, rotation"),
])
def test_bad_settings_are_refused_with_what_to_change(changes: dict[str, object], message: str) -> None:
    game = changes.pop("game")
    with pytest.raises(SettingsError, match=message):
        settings(str(game), **changes)


async def test_a_game_the_table_cannot_deal_to_so_many_players_is_refused(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice"))
    await seat_players(table, [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GRACE, HEIDI])
    offered = {g.id for g in table.choices()}
    assert {"holdem", "omaha", "stud", "razz", "five-card-draw"} <= offered  # stud: eight players at most
    await table.join(HOST, 100)
    offered = {g.id for g in table.choices()}
    assert offered == {"holdem", "omaha", "omaha-hilo"}  # the others are dealt to eight players at most
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="Seven Card Stud cannot be dealt to 9 players"):
        await table.choose_game(table.chooser() or 0, "stud")
    assert await take_snapshot(store) == before


def test_the_horse_table_seats_eight(tables: Tables) -> None:
    assert TableSettings("horse", 1, 2).max_seats == 8
    assert TableSettings("eight-game", 1, 2).max_seats == 6  # 2-7 triple draw: six at most
    assert TableSettings("holdem", 1, 2).max_seats == 10


async def test_the_open_pair_option_reaches_fixed_limit_stud_hands_only(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("horse", open_pair=True, hands_per_game=1))
    await seat_players(table, [ALICE, BOB])
    options = []
    for _ in range(5):
        hand = await play_hand(table)
        options.append((hand.game.id, hand.open_pair))
    assert options == [("holdem", False), ("omaha-hilo", False), ("razz", False), ("stud", True),
                       ("stud-hilo", False)]
    stored = await table.store.recent_hands(table.id, 2)
    assert [h.settings.get("open_pair", False) for h in stored] == [False, True]
    with pytest.raises(SettingsError, match="open pair option is fixed-limit Seven Card Stud's"):
        settings("holdem", open_pair=True)


async def test_the_bring_in_is_a_move_the_table_takes(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("stud", small_blind=5, big_blind=10, min_buy_in=100))
    await seat_players(table, [ALICE, BOB, CAROL], 200)
    await deal(table)
    legal = table.legal()
    actor = table.actor()
    assert legal is not None and actor is not None and legal.can_bring_in
    outcome = await table.act(actor, BringIn(), table.next_seq())
    assert [e.verb for e in outcome.events if isinstance(e, Acted)] == ["bring in"]
    with pytest.raises(IllegalAction, match="only the player with the lowest up card brings in"):
        await table.act(table.actor() or 0, BringIn(), table.next_seq())
