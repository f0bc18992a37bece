"""Whole hands through Discord: every game, dealer's choice, a fold win, a split pot, an all-in with a side pot.

Each hand is played with buttons, the amount modal, Stand pat and the draw form, and the dealer's-choice select,
as players would, and compared with the engine playing the same deck (the bot's rng is seeded, so each hand's
deck is known).
"""

from __future__ import annotations

import pytest

from bot import render
from bot.poker import GAMES, Card, Dealt, Hand, Legal, PotAwarded, get_game
from bot.tables import TableSettings

from .conftest_bot import PokerBotStarter
from .fakediscord import STRING_SELECT, FakeDiscord
from .players import FastClockFor, Players, bettor, calling_station, find_seed, hand_seeds, simulate, versions_text

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_hand_of_every_game(fake: FakeDiscord, poker_bot: PokerBotStarter, game: str) -> None:
    await poker_bot(seed=11)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game=game)
    first = await players.turn(1)
    assert first.message.embeds[0]["title"] == f"{GAMES[game].name} — hand #1"
    settings = TableSettings(game=game, small_blind=5, big_blind=10)
    expected = simulate(settings, game, [1000] * 3, hand_seeds(11, 1)[0], bettor)
    dealt = {name: (await fake.wait_for_dm(name)).content for name in PLAYERS}

    number = await players.play(bettor)

    assert number == 1
    record = (await players.bot.store.recent_hands(table.id, 5))[-1]
    assert record.status == "complete" and record.number == 1
    assert list(record.stacks_after or ()) == expected.stacks, "the bot and the engine played different hands"
    assert record.actions == tuple(expected.actions)
    draws = [a.split() for a in record.actions if a.split()[1] in ("sd", "sdu")]
    assert len(draws) == 3 * GAMES[game].draws and all(len(d) == 3 for d in draws), "real cards thrown each draw"
    # Private hands: each player's first DM named his five cards; the showdown shows every hand in.
    for seat, name in enumerate(PLAYERS):
        assert render.cards(expected_initial(expected, seat)) in dealt[name]
        assert render.cards(expected.holes[seat]) in fake.dms(name)[-1].content
    showdown = players.showdowns()[-1].content
    for seat in range(3):
        assert render.cards(expected.holes[seat]) in showdown
    users = [players.uid(n) for n in PLAYERS]
    assert showdown == render.showdown(expected, users)
    for award in (e for e in expected.events if isinstance(e, PotAwarded)):
        assert f"<@{users[award.winners[0]]}> ({render.chips(award.shares[0])})" in showdown
    # The channel showed the draws (how many cards) and the stakes, never the cards (checked after every test).
    texts = versions_text(fake, table.message_id)
    assert any("drew 2" in t for t in texts)
    structure = render.STRUCTURE_NAMES[GAMES[game].default_structure]
    assert any(t.startswith(f"{GAMES[game].name} — hand #1\n{structure} 5/10") for t in texts)
    if GAMES[game].default_structure == "fixed-limit":
        assert any(f"big bet from betting round {GAMES[game].default_big_bet_round}" in t for t in texts)


def expected_initial(hand: Hand, seat: int) -> list[Card]:
    """The five cards first dealt to ``seat`` (from the hand's events)."""
    return list(next(e.cards for e in hand.events if isinstance(e, Dealt) and e.player == seat))


async def test_dealers_choice_orbit(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Per orbit: the button picks, the game is dealt once on each player's button without asking, then the
    player left of the last chooser picks the next orbit's game."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice", choice_per="orbit")
    assert table.settings.choice_per == "orbit"
    chooser = players.name(table.record.seats[-1].user_id)  # the first button: the last seat

    async def choose(who: str, game: str) -> None:
        def select_shown() -> object:
            message = players.message()
            selects = [c for c in message.all_components() if c.get("type") == STRING_SELECT]
            return (message, selects[0]) if selects and table.live is None else None

        message, select = await fake.wait_for(select_shown, what="the dealer's choice select")
        assert f"<@{players.uid(who)}> picks the next game" in message.text()
        offered = [o["value"] for o in select["options"]]
        assert offered == list(GAMES), "three players can play every game"
        other = next(n for n in PLAYERS if n != who)
        refused = await fake.reply_to(await fake.select(other, message, str(select["custom_id"]), [game]))
        assert refused.ephemeral and f"It is <@{players.uid(who)}>'s choice." in refused.content
        picked = await fake.reply_to(await fake.select(who, message, str(select["custom_id"]), [game]))
        assert picked.response_type == 7 and picked.message is message  # the table message, edited in place

    await choose(chooser, "triple-draw-a5")
    for number in (1, 2, 3):  # one orbit: the game is dealt once on each button, nobody is asked again
        await players.play(folding_to_the_blind, number=number)
        assert await hand_game(players, number) == "triple-draw-a5"
    # The orbit is over: the button is back on the first chooser, but the next orbit is chosen by the player
    # on his left (every player gets to choose in turn).
    seats = [s.seat_no for s in table.record.seats]
    first = table.record.seats[-1].seat_no
    left = table.record.seat_at(next((n for n in seats if n > first), seats[0]))
    assert left is not None and players.name(left.user_id) != chooser
    await choose(players.name(left.user_id), "single-draw-27")
    await players.play(folding_to_the_blind, number=4)
    assert await hand_game(players, 4) == "single-draw-27"


async def hand_game(players: Players, number: int) -> str:
    hands = await players.bot.store.recent_hands(players.table.id, 20)
    return next(h.game for h in hands if h.number == number)


def folding_to_the_blind(hand: Hand, legal: Legal) -> str:
    """Everyone folds to the big blind (a fold win, quickly)."""
    return "f" if legal.phase == "betting" and not legal.can_check else "cc"


async def test_dealers_choice_offers_only_the_games_for_the_players(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    seven = ("alice", "bob", "carol", "dave", "erin", "frank", "manager")
    await players.open_table("alice", seven, game="dealers-choice")

    def select_options() -> list[str] | None:
        selects = [c for c in players.message().all_components() if c.get("type") == STRING_SELECT]
        return [o["value"] for o in selects[0]["options"]] if selects else None

    offered = await fake.wait_for(select_options, what="the dealer's choice select")
    assert offered == [g.id for g in GAMES.values() if g.max_players >= 7]
    assert offered == ["five-card-draw", "assassin", "single-draw-27", "single-draw-a5", "single-draw-a6"]
    message = players.message()
    chooser = players.name(players.table.chooser() or 0)
    select_id = next(str(c["custom_id"]) for c in message.all_components() if c.get("type") == STRING_SELECT)
    with pytest.raises(ValueError, match="no option"):  # the client offers no such choice
        await fake.select(chooser, message, select_id, ["triple-draw-27"])
    # A forged pick of a game seven players cannot play is refused, and nothing is dealt.
    forged = await fake.reply_to(await fake.select(chooser, message, select_id, ["triple-draw-27"], force=True))
    assert forged.ephemeral and "cannot be dealt to 7 players" in forged.content
    assert players.table.live is None
    # Pausing before the deal ends the test with no hand to play out.
    await players.poker("alice", "pause")


async def test_dealers_choice_with_antes_only_offers_the_high_games(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="dealers-choice", small_blind=0, big_blind=0, ante=5)

    def select_options() -> list[str] | None:
        selects = [c for c in players.message().all_components() if c.get("type") == STRING_SELECT]
        return [o["value"] for o in selects[0]["options"]] if selects else None

    assert await fake.wait_for(select_options, what="the select") == ["five-card-draw", "assassin"]
    await players.poker("alice", "pause")


async def test_a_fold_win(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=2)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    assert turn.name == "carol"  # three-handed, the button acts first before the draw
    await players.act(f"cbr {turn.legal.pot_raise_to}")  # the Pot button
    await players.act("f")
    await players.act("f")
    await players.hand_over(1)
    showdown = players.showdowns()[-1].content
    assert showdown == f"<@{players.uid('carol')}> (25) wins the pot of 25 (uncontested)"
    assert players.stacks() == {"alice": 995, "bob": 990, "carol": 1015}
    record = (await players.bot.store.recent_hands(table.id, 1))[0]
    assert record.status == "complete" and record.result["winners"] == [players.uid("carol")]


async def test_a_split_pot(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Found with the engine: a seed whose first hand, played by calling stations, splits the pot."""
    settings = TableSettings(game="single-draw-27", small_blind=5, big_blind=10)

    def splits(k: int) -> bool:
        hand = simulate(settings, "single-draw-27", [1000] * 3, hand_seeds(k, 1)[0], calling_station)
        return any(isinstance(e, PotAwarded) and len(e.winners) > 1 for e in hand.events)

    seed = find_seed(splits)
    expected = simulate(settings, "single-draw-27", [1000] * 3, hand_seeds(seed, 1)[0], calling_station)
    [award] = [e for e in expected.events if isinstance(e, PotAwarded)]
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="single-draw-27")
    await players.play(calling_station)
    showdown = players.showdowns()[-1].content
    names = [PLAYERS[w] for w in award.winners]
    shares = " and ".join(f"<@{players.uid(n)}> ({render.chips(s)})" for n, s in zip(names, award.shares))
    assert f"{shares} win the pot of {render.chips(award.amount)} (split)" in showdown
    assert players.stacks() == dict(zip(PLAYERS, expected.stacks))


async def test_an_all_in_with_a_side_pot(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """No limit, stacks 200 / 500 / 1,000: carol moves all in, both call all in; the main pot and a side pot
    go to different players (a seed found with the engine)."""
    settings = TableSettings(game="five-card-draw", small_blind=5, big_blind=10)
    stacks = [200, 500, 1000]

    def shove(hand: Hand, legal: Legal) -> str:
        if legal.phase == "drawing":
            return calling_station(hand, legal)
        return f"cbr {legal.max_raise_to}" if legal.can_raise and hand.actor == 2 else "cc"

    def side_pot_to_another(k: int) -> bool:
        hand = simulate(settings, "five-card-draw", stacks, hand_seeds(k, 1)[0], shove)
        awards = {e.pot: e.winners for e in hand.events if isinstance(e, PotAwarded)}
        return len(awards) == 2 and awards[0] != awards[1]

    seed = find_seed(side_pot_to_another)
    expected = simulate(settings, "five-card-draw", stacks, hand_seeds(seed, 1)[0], shove)
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, buy_ins=dict(zip(PLAYERS, stacks)))
    turn = await players.turn(1)
    assert turn.name == "carol" and turn.message.button("All in").get("label") == "All in 1,000"
    await players.play(shove)
    texts = versions_text(fake, table.message_id)
    assert any("Pots 600, 600" in t for t in texts), "the pots line shows the main pot and the side pot"
    assert any("all in" in t for t in texts)
    showdown = players.showdowns()[-1].content
    awards = {e.pot: e for e in expected.events if isinstance(e, PotAwarded)}
    main, side = awards[0], awards[1]
    assert f"<@{players.uid(PLAYERS[main.winners[0]])}> (600) wins the main pot of 600" in showdown
    assert f"<@{players.uid(PLAYERS[side.winners[0]])}> (600) wins side pot 1 of 600" in showdown
    assert "500 uncalled returned to" in "\n".join(texts)
    assert players.stacks() == dict(zip(PLAYERS, expected.stacks))
    assert sum(players.stacks().values()) == 1700


def test_the_game_ids_are_the_eleven() -> None:
    assert len(GAMES) == 11 and all(get_game(g).id == g for g in GAMES)


async def test_dealers_choice_timeout_deals_the_previous_game(
    fake: FakeDiscord, poker_bot: PokerBotStarter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carol (the first button) and bob (the third) let the clock run out; alice picks in between."""
    await poker_bot(seed=6)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice", start=False)
    slow = {players.uid("carol"), players.uid("bob")}
    monkeypatch.setattr(table, "settings", FastClockFor(table, 0.2, choosing=slow))
    await players.poker("alice", "start")
    # Nobody chose before the first hand: with no previous game, the first game on the list is dealt.
    await players.play(folding_to_the_blind, number=1)
    assert await hand_game(players, 1) == "five-card-draw"

    def select_for(who: int) -> object:
        message = players.message()
        selects = [c for c in message.all_components() if c.get("type") == STRING_SELECT]
        return (message, selects[0]) if selects and table.chooser() == who and table.live is None else None

    message, select = await fake.wait_for(lambda: select_for(players.uid("alice")), what="alice's select")
    await fake.reply_to(await fake.select("alice", message, str(select["custom_id"]), ["triple-draw-27"]))
    await players.play(folding_to_the_blind, number=2)
    await players.play(folding_to_the_blind, number=3)  # bob lets the clock run out
    assert await hand_game(players, 2) == await hand_game(players, 3) == "triple-draw-27"
    assert any("No choice in time: the previous game is dealt again" in t
               for t in versions_text(fake, table.message_id))


@pytest.mark.parametrize(
    ("game", "structure", "labels"),
    [
        ("five-card-draw", None, ["Fold", "Call 10", "Raise to 20", "Pot 35", "All in 1,000", "Amount…", "My hand"]),
        ("five-card-draw", "pot-limit", ["Fold", "Call 10", "Raise to 20", "Max 35", "Amount…", "My hand"]),
        ("triple-draw-a6", None, ["Fold", "Call 10", "Raise to 20", "My hand"]),
        ("single-draw-27", "fixed-limit", ["Fold", "Call 10", "Raise to 20", "My hand"]),
    ],
)
async def test_the_buttons_of_each_structure(
    fake: FakeDiscord, poker_bot: PokerBotStarter, game: str, structure: str | None, labels: list[str]
) -> None:
    await poker_bot(seed=7)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game=game, **({"structure": structure} if structure else {}))
    turn = await players.turn(1)
    assert [b.get("label") for b in turn.message.buttons()] == labels
    await players.poker("alice", "pause")
    await players.play(folding_to_the_blind)


async def test_the_dealer_picks_the_structure_when_the_host_allows_it(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """With dealer_picks_structure, the choice screen has a second select: the chooser picks pot limit, then the
    game, and that game is dealt pot limit; only the chooser may pick; the next choice starts from the default."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice", dealer_picks_structure=True)
    assert table.settings.dealer_picks_structure

    def selects_shown() -> object:
        message = players.message()
        found = {str(c["custom_id"]).split(":")[1]: c for c in message.all_components()
                 if c.get("type") == STRING_SELECT}
        return (message, found) if len(found) == 2 and table.live is None else None

    message, selects = await fake.wait_for(selects_shown, what="the game and structure selects")
    chooser = players.name(table.chooser() or 0)
    assert f"<@{players.uid(chooser)}> picks the next game and its structure" in message.text()
    structures = selects["s"]
    assert [o["value"] for o in structures["options"]] == ["default", "fixed-limit", "pot-limit", "no-limit"]
    other = next(n for n in PLAYERS if n != chooser)
    refused = await fake.reply_to(await fake.select(other, message, str(structures["custom_id"]), ["pot-limit"]))
    assert refused.ephemeral and f"It is <@{players.uid(chooser)}>'s choice." in refused.content
    forged = await fake.reply_to(await fake.select(chooser, message, str(structures["custom_id"]), ["no-such"],
                                                   force=True))
    assert forged.ephemeral and "The structure must be one of" in forged.content
    picked = await fake.reply_to(await fake.select(chooser, message, str(structures["custom_id"]), ["pot-limit"]))
    assert picked.response_type == 7 and "(structure: Pot limit)" in message.text()
    assert table.live is None  # nothing dealt until the game is picked
    [shown] = [c for c in message.all_components() if str(c.get("custom_id")).startswith("pk:s:")]
    assert [o["value"] for o in shown["options"] if o.get("default")] == ["pot-limit"]
    game = await fake.reply_to(await fake.select(chooser, message, str(selects["c"]["custom_id"]),
                                                 ["triple-draw-27"]))
    assert game.response_type == 7
    assert table.hand is not None and table.hand.game.id == "triple-draw-27"
    assert table.hand.stakes.structure == "pot-limit"  # not the game's own fixed limit
    await players.play(folding_to_the_blind, number=1)
    message, _ = await fake.wait_for(selects_shown, what="the next choice")
    assert "picks the next game and its structure" in message.text()  # the pick was for that deal only
