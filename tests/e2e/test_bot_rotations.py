"""The mixes through the fake Discord (docs/rules.md section 21): HORSE dealing its five games in order, a restart in
the middle of a rotation, the 8-game mix, a dealer's choice night where a stud game and a flop game are picked, a
HORSE sit-and-go, and every bad input answered privately with what is allowed, nothing changed."""

from __future__ import annotations

import pytest

from bot.tables import tournament as mode

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, calling_station, carrying, standing_pat

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
HORSE = ["holdem", "omaha-hilo", "razz", "stud", "stud-hilo"]
NAMES = {"holdem": "Hold'em", "omaha-hilo": "Omaha Hi-Lo", "razz": "Razz", "stud": "Stud", "stud-hilo": "Stud Hi-Lo"}


async def played_games(players: Players, count: int) -> list[str]:
    games = []
    for _ in range(count):
        await players.play(calling_station, timeout=15)
        hand = players.table.last_hand
        assert hand is not None
        games.append(hand.game.id)
    return games


async def test_horse_deals_each_of_its_five_games_in_order(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=31)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="horse", hands_per_game=1)
    assert await played_games(players, 6) == [*HORSE, HORSE[0]]
    shown = [m.text() for m in players.showdowns()]
    for game, text in zip([*HORSE, HORSE[0]], shown, strict=True):
        assert NAMES[game] in text.splitlines()[0], (game, text)
    # between hands the table says the game to come, its hands left and the one after it
    assert "HORSE · Omaha Hi-Lo: 1 hand left · next Razz" in shown[-1], shown[-1]
    await players.poker("alice", "table pause")


async def test_a_restart_in_the_middle_of_a_rotation_resumes_it(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=32)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="horse", hands_per_game=2)
    assert await played_games(players, 3) == ["holdem", "holdem", "omaha-hilo"]
    await players.poker("alice", "table pause")
    await fake.settle()
    await poker_bot.restart(seed=33)
    players = Players(fake, poker_bot)
    started = await players.poker("alice", "table resume")
    assert not started.ephemeral or "resume" in started.content.lower(), started.content
    assert await played_games(players, 2) == ["omaha-hilo", "razz"]
    await players.poker("alice", "table pause")


async def test_the_eight_game_mix_begins_with_triple_draw_then_holdem(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=34)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="eight-game", hands_per_game=1)
    games = []
    for _ in range(3):
        await players.play(standing_pat, timeout=15)
        assert players.table.last_hand is not None
        games.append(players.table.last_hand.game.id)
    assert games == ["triple-draw-27", "holdem", "omaha-hilo"]
    await players.poker("alice", "table pause")


async def test_dealers_choice_deals_a_stud_game_and_a_flop_game(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=35)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    for game in ("razz", "omaha"):
        chooser = players.name(await fake.wait_for(table.chooser, what="the chooser"))
        await players.choose(chooser, game)
        await players.play(calling_station, timeout=15)
        assert table.last_hand is not None and table.last_hand.game.id == game
    await players.poker("alice", "table pause")


async def test_a_horse_sit_and_go(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=36)
    players = Players(fake, poker_bot)
    created = await fake.reply_to(await fake.slash(
        "alice", "poker", group="tournament", subcommand="create", channel=players.channel,
        options={"game": "horse", "buy_in": 100, "starting_chips": 300, "level_minutes": 30,
                 "levels": "10/20, 20/40", "hands_per_game": 1}))
    assert created.embeds and created.embeds[0]["title"] == "Tournament: HORSE", created.embeds
    assert created.message is not None
    lobby = created.message
    table = players.table
    t = mode.tournament_of(table)
    assert t is not None
    for name in PLAYERS:
        message = fake.message(lobby.id)
        button = next(b for b in message.buttons() if str(b.get("label", "")).startswith("Register"))
        await fake.reply_to(await fake.click(name, message, str(button["custom_id"])), followups=1)
    started = await fake.reply_to(await fake.slash("alice", "poker", group="tournament", subcommand="start",
                                                   channel=players.channel))
    assert not started.ephemeral, started.content
    games = []
    for _ in range(3):
        await players.play(calling_station, timeout=15)
        assert table.last_hand is not None
        games.append((table.last_hand.game.id, table.last_hand.stakes.bring_in))
    assert games == [("holdem", 0), ("omaha-hilo", 0), ("razz", 5)]  # level 1, 10/20: razz's bring-in 5


@pytest.mark.parametrize(("options", "answer"), [
    ({"game": "rotation"}, "A rotation needs its list of games (`games:`)."),
    ({"game": "rotation", "games": "holdem, chess"}, "`chess` is not a game. Choose from: five-card-draw"),
    ({"game": "rotation", "games": "holdem:fast"}, "`fast` (for holdem) is not a structure"),
    ({"game": "rotation", "games": " , "}, "List the games of the rotation"),
    ({"game": "stud", "bring_in": 20}, "In the stud games, the bring-in (20) cannot be larger than the small bet"),
    ({"game": "stud", "seats": 9}, "Seven Card Stud is dealt to at most 8 players"),
    ({"game": "horse", "structure": "no-limit"}, "A rotation deals each game in its own structure"),
    ({"game": "holdem", "games": "razz"}, "`games:` lists the games of a rotation"),
    ({"game": "omaha", "hands_per_game": 2}, "`hands_per_game:` is an option of the rotations"),
])
async def test_bad_mixed_settings_are_answered_privately_and_change_nothing(
    fake: FakeDiscord, poker_bot: PokerBotStarter, options: dict[str, object], answer: str
) -> None:
    await poker_bot(seed=37)
    players = Players(fake, poker_bot)
    refused = await players.poker("alice", "create", small_blind=5, big_blind=10, **options)
    assert refused.ephemeral and answer in refused.content, refused.content
    bot = poker_bot.bot
    assert bot is not None and bot.tables.get(players.channel_id) is None
    assert not fake.channel_messages(players.channel)


async def test_hands_per_game_zero_is_refused(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Discord's client does not send ``hands_per_game:0`` (its range starts at 1): the fake refuses it as Discord
    would, and the table layer would too (``tests/tables/test_tables_mixed.py``)."""
    await poker_bot(seed=38)
    players = Players(fake, poker_bot)
    with pytest.raises(ValueError, match=r"hands_per_game.*below the minimum 1"):
        await players.poker("alice", "create", game="horse", small_blind=5, big_blind=10, hands_per_game=0)


async def test_a_stud_move_in_a_flop_game_is_refused_privately(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """A forged Bring in button on a hold'em table (the bot never shows one there): a private answer, nothing
    changed."""
    await poker_bot(seed=39)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="holdem")
    turn = await players.turn(1)
    await fake.quiet()
    before = fake.message(turn.message.id).snapshot()
    table = players.table
    forged = f"pk:turn:{table.id}:{turn.hand_id}:{turn.seq}:bringin"
    carried = carrying(turn.message, {"type": 2, "style": 3, "label": "Bring in 3", "custom_id": forged})
    refused = await fake.reply_to(await fake.click(turn.name, carried, forged, force=True))
    assert refused.ephemeral and "There is no bring-in in Texas Hold'em" in refused.content, refused.content
    await fake.quiet()
    assert table.next_seq() == turn.seq and fake.message(turn.message.id).state() == before.state()
    await players.poker("alice", "table pause")
