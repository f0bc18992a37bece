"""Whole hands through Discord: every game, dealer's choice, a fold win, a split pot, an all-in with a side pot.

Each hand is played with buttons, the amount modal, Stand pat and the draw form, and the dealer's-choice select,
as players would, and compared with the engine playing the same deck (the bot's rng is seeded, so each hand's
deck is known).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.poker import DRAW_GAMES, GAMES, Card, Dealt, Hand, Legal, PotAwarded, Shown, get_game, parse_cards
from bot.tables import TableSettings
from cogs import render
from cogs.table._choice import grouped
from cogs.table._text import showdown_lines, unbroken

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import (
    FastClockFor,
    Players,
    bettor,
    calling_station,
    channel_texts,
    find_seed,
    hand_seeds,
    simulate,
    versions_text,
)

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
SEATS = ["My hand", "Sit out / in", "Leave"]  # for everyone, on the table message during a hand: on top


@pytest.mark.parametrize("game", list(DRAW_GAMES))
async def test_a_hand_of_every_game(fake: FakeDiscord, poker_bot: PokerBotStarter, game: str) -> None:
    await poker_bot(seed=11)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game=game)
    first = await players.turn(1)
    assert first.message.embeds[0]["title"] == f"{DRAW_GAMES[game].name} · #1"
    settings = TableSettings(game=game, small_blind=5, big_blind=10)
    expected = simulate(settings, game, [1000] * 3, hand_seeds(11, 1)[0], bettor)
    dealt = {name: (await fake.wait_for_dm(name)).content for name in PLAYERS}

    number = await players.play(bettor)

    assert number == 1
    record = (await players.bot.store.recent_hands(table.id, 5))[-1]
    assert record.status == "complete" and record.number == 1
    assert list(record.stacks_after or ()) == expected.stacks, "the bot and the engine played different hands"
    assert same_moves(record.actions, expected.actions)
    draws = [a.split() for a in record.actions if a.split()[1] in ("sd", "sdu")]
    assert len(draws) == 3 * DRAW_GAMES[game].draws and all(len(d) == 3 for d in draws), "real cards thrown each draw"
    # Private hands, as card pictures: each player's first DM named his cards, his last one his final hand.
    for seat, name in enumerate(PLAYERS):
        assert dealt[name].startswith(f"{DRAW_GAMES[game].name} · #1 at <#{players.channel_id}>\n")
        assert players.cards(expected_initial(expected, seat)) in dealt[name]
        assert players.cards(expected.holes[seat]) in fake.dms(name)[-1].content
        assert "Now: " + players.cards(expected.holes[seat]) in fake.dms(name)[-1].content
    # The showdown is the hand's own message: who won with what, every hand shown, best first.
    users = [players.uid(n) for n in PLAYERS]
    showdown = players.showdown(1)
    assert showdown.startswith("\n".join(showdown_lines(expected, users, players.bot.card_emojis.card)))
    for seat in range(3):
        assert players.cards(expected.holes[seat]) in showdown
    for award in (e for e in expected.events if isinstance(e, PotAwarded)):
        assert f"🏆 <@{users[award.winners[0]]}> wins {render.chips(award.shares[0])}" in showdown
    # The channel showed where the hand was (the round and the draw, the bet size), the draws (how many cards),
    # never the cards (checked after every test).
    texts = versions_text(fake, table.message_id)
    stakes = {"fixed-limit": "Limit 10/20", "pot-limit": "Pot limit 5/10", "no-limit": "No limit 5/10"}[
        DRAW_GAMES[game].default_structure]  # the words players use: a limit game by its bets, the others by blinds
    assert any(t.startswith(f"{DRAW_GAMES[game].name} · #1\n{stakes} · Betting 1 of "
                            f"{DRAW_GAMES[game].betting_rounds}") for t in texts)
    assert any(f"Draw {DRAW_GAMES[game].draws} of {DRAW_GAMES[game].draws}" in t for t in texts)
    assert any("drew 2" in t for t in texts)
    if DRAW_GAMES[game].default_structure == "fixed-limit":
        game_facts = DRAW_GAMES[game]
        assert any(f"Betting {game_facts.default_big_bet_round} of {game_facts.betting_rounds} · big bet 20" in t
                   for t in texts)


def same_moves(actions: Sequence[str], expected: Sequence[str]) -> bool:
    """The same moves, a draw's cards in any order (the picker throws them in the order of the hand)."""
    def move(action: str) -> tuple[str, ...]:
        player, verb, *rest = action.split()
        if verb in ("sd", "sdu") and rest:
            return (player, verb, *sorted(c.code for c in parse_cards(rest[0])))
        return (player, verb, *rest)
    return [move(a) for a in actions] == [move(a) for a in expected]


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
    created = next(m for m in fake.channel_messages("poker") if m.content.startswith("Table open"))
    assert "Blinds" not in created.content and "10/20" not in created.content  # the stakes are the table's
    lobby = await fake.wait_for(lambda: next((m for m in fake.channel_messages("poker") if m.embeds), None),
                                what="the table message")
    assert str(lobby.embeds[0]["description"]).startswith(
        "Blinds 5/10, each game at its usual limit\nstud: ante 2, bring-in 3, bets 10/20\n"), \
        lobby.embeds[0]  # not "Each game's default structure 5/10"
    chooser = players.name(table.record.seats[-1].user_id)  # the first button: the last seat

    async def choose(who: str, game: str) -> None:
        message, button = await fake.wait_for(players.choice_button, what="the dealer's choice button")
        assert f"**<@{players.uid(who)}> picks the next game**\n⏱ <t:" in message.text()  # his clock, on its own line
        other = next(n for n in PLAYERS if n != who)
        refused = await fake.reply_to(await fake.click(other, message, str(button["custom_id"])))
        assert refused.ephemeral and f"It is <@{players.uid(who)}>'s choice." in refused.content
        _, parts = await players.open_menu(who)
        offered = parts["game"]["options"]
        assert [o["value"] for o in offered] == [g.id for g in grouped(GAMES.values())], \
            "three players can play every game, draw, flop then stud"
        assert offered[0]["label"] == "Draw · Five Card Draw" and offered[-1]["label"] == "Stud · Razz"
        assert all(o.get("description") for o in offered), "each game says what it is in one line"
        await players.choose(who, game)

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
    chooser = players.name(players.table.chooser() or 0)
    menu, parts = await players.open_menu(chooser)
    offered = [o["value"] for o in parts["game"]["options"]]
    assert offered == [g.id for g in grouped(GAMES.values()) if g.max_players >= 7]
    assert offered[:5] == ["five-card-draw", "assassin", "single-draw-27", "single-draw-a5", "single-draw-a6"]
    assert {"holdem", "omaha", "stud", "razz"} <= set(offered) and "triple-draw-27" not in offered
    assert parts["deal"].get("disabled") and parts["deal"]["label"] == "Pick a game first"  # nothing to deal yet
    select_id = str(parts["game"]["custom_id"])
    with pytest.raises(ValueError, match="no option"):  # the client offers no such choice
        await fake.select(chooser, menu, select_id, ["triple-draw-27"])
    # A forged pick of a game seven players cannot play is refused, and nothing is dealt.
    forged = await fake.reply_to(await fake.select(chooser, menu, select_id, ["triple-draw-27"], force=True))
    assert forged.ephemeral and "2-7 Triple Draw cannot be dealt to 7 players here; choose from: " in forged.content
    # A forged Deal with nothing picked deals nothing either.
    deal = await fake.reply_to(await fake.click(chooser, menu, str(parts["deal"]["custom_id"]), force=True))
    assert deal.ephemeral and deal.content == "Pick a game in the menu first."
    assert players.table.live is None
    # Pausing before the deal ends the test with no hand to play out.
    await players.poker("alice", "table pause")


async def test_dealers_choice_with_antes_only_offers_the_high_games(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="dealers-choice", small_blind=0, big_blind=0, ante=5)

    _, parts = await players.open_menu(players.name(players.table.chooser() or 0))
    assert [o["value"] for o in parts["game"]["options"]] == ["five-card-draw", "assassin"]
    await players.poker("alice", "table pause")


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
    showdown = players.showdown(1)
    assert showdown.splitlines()[0] == f"🏆 <@{players.uid('carol')}> wins 25 (everyone else folded)"
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
    showdown = players.showdown(1)
    names = [PLAYERS[w] for w in award.winners]
    who = " and ".join(f"<@{players.uid(n)}>" for n in names)
    shares = " + ".join(render.chips(s) for s in award.shares)
    best = next(e.description for e in expected.events if isinstance(e, Shown) and e.player == award.winners[0])
    assert showdown.splitlines()[0] == f"🏆 {who} split {shares} with {unbroken(best)}"
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
    menu = (await players.open_bet_menu(turn)).message
    assert menu is not None
    assert turn.name == "carol" and menu.button("Raise to 1,000 (all in)").get("style") == 4  # red: a big step
    await players.play(shove)
    texts = versions_text(fake, table.message_id)
    alice, bob = players.uid("alice"), players.uid("bob")
    carol = players.uid("carol")
    # While the betting goes on the pot is one number; once everyone is all in, the pots and who can win them.
    assert any("\nPot 1,210\n" in t for t in texts)  # carol's 1,000 over the blinds, before the calls
    assert any(f"Main 600\nSide 1: 600 (<@{bob}>, <@{carol}>)" in t for t in texts)
    assert any("**all in**" in t for t in texts)
    showdown = players.showdown(1)
    awards = {e.pot: e for e in expected.events if isinstance(e, PotAwarded)}
    main, side = awards[0], awards[1]
    assert f"🏆 <@{players.uid(PLAYERS[main.winners[0]])}> wins the main pot 600 with " in showdown
    assert f"🏆 <@{players.uid(PLAYERS[side.winners[0]])}> wins side pot 1 600 with " in showdown
    assert f"(<@{bob}> vs <@{carol}>)" in showdown and f"(<@{alice}> vs <@{bob}> vs <@{carol}>)" in showdown
    assert f"500 back to <@{carol}> (uncalled)" in "\n".join(texts)
    assert players.stacks() == dict(zip(PLAYERS, expected.stacks))
    assert sum(players.stacks().values()) == 1700


def test_the_game_ids_are_the_twelve() -> None:
    assert len(DRAW_GAMES) == 12 and "badugi" in DRAW_GAMES and all(get_game(g).id == g for g in DRAW_GAMES)


async def test_dealers_choice_timeout_deals_the_previous_game(
    fake: FakeDiscord, poker_bot: PokerBotStarter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carol (the first button) and bob (the third) let the clock run out; alice picks in between."""
    await poker_bot(seed=6)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice", start=False)
    slow = {players.uid("carol"), players.uid("bob")}
    monkeypatch.setattr(table, "settings", FastClockFor(table, 0.2, choosing=slow))
    await players.poker("alice", "table start")
    # Nobody chose before the first hand: with no previous game, the first game on the list is dealt.
    await players.play(folding_to_the_blind, number=1)
    assert await hand_game(players, 1) == "five-card-draw"

    await fake.wait_for(lambda: table.chooser() == players.uid("alice") and players.choice_button(),
                        what="alice's menu")
    await players.choose("alice", "triple-draw-27")
    await players.play(folding_to_the_blind, number=2)
    await players.play(folding_to_the_blind, number=3)  # bob lets the clock run out
    assert await hand_game(players, 2) == await hand_game(players, 3) == "triple-draw-27"
    assert any("No choice in time: the previous game is dealt again" in t for t in channel_texts(fake))


@pytest.mark.parametrize(
    ("game", "structure", "labels"),
    [
        ("five-card-draw", None, [*SEATS, "Fold", "Call 10", "Raise…"]),
        ("five-card-draw", "pot-limit", [*SEATS, "Fold", "Call 10", "Raise…"]),
        ("triple-draw-a6", None, [*SEATS, "Fold", "Call 10", "Raise to 20"]),
        ("single-draw-27", "fixed-limit", [*SEATS, "Fold", "Call 10", "Raise to 20"]),
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
    await players.poker("alice", "table pause")
    await players.play(folding_to_the_blind)


async def test_the_dealer_picks_the_structure_when_the_host_allows_it(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """With dealer_picks_structure, the menu has a second select: the chooser picks pot limit and the game (each
    shown in his menu, nothing dealt), then Deal deals that game pot limit; only the chooser may pick; the next
    choice starts from the default."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice", dealer_picks_structure=True)
    assert table.settings.dealer_picks_structure
    chooser = players.name(table.chooser() or 0)
    menu, parts = await players.open_menu(chooser)
    structures = parts["structure"]
    assert [o["value"] for o in structures["options"]] == ["default", "fixed-limit", "pot-limit", "no-limit"]
    other = next(n for n in PLAYERS if n != chooser)
    refused = await fake.reply_to(await fake.select(other, menu, str(structures["custom_id"]), ["pot-limit"],
                                                    force=True))  # (a menu he cannot see: forged)
    assert refused.ephemeral and f"It is <@{players.uid(chooser)}>'s choice." in refused.content
    forged = await fake.reply_to(await fake.select(chooser, menu, str(structures["custom_id"]), ["no-such"],
                                                   force=True))
    assert forged.ephemeral and "The structure must be one of" in forged.content
    picked = await fake.reply_to(await fake.select(chooser, menu, str(structures["custom_id"]), ["pot-limit"]))
    assert picked.response_type == 7 and table.live is None
    parts = players.menu_parts(fake.message(menu.id))
    assert [o["value"] for o in parts["structure"]["options"] if o.get("default")] == ["pot-limit"]
    game = await fake.reply_to(await fake.select(chooser, menu, str(parts["game"]["custom_id"]), ["triple-draw-27"]))
    assert game.response_type == 7 and table.live is None  # the pick is shown; nothing is dealt before Deal
    parts = players.menu_parts(fake.message(menu.id))
    assert [o["value"] for o in parts["structure"]["options"] if o.get("default")] == ["pot-limit"]  # kept
    assert [o["value"] for o in parts["game"]["options"] if o.get("default")] == ["triple-draw-27"]
    deal = parts["deal"]
    assert deal["label"] == "Deal 2-7 Triple Draw"
    refused = await fake.reply_to(await fake.click(other, menu, str(deal["custom_id"]), force=True))
    assert refused.ephemeral and f"It is <@{players.uid(chooser)}>'s choice." in refused.content
    dealt = await fake.reply_to(await fake.click(chooser, menu, str(deal["custom_id"])))
    assert dealt.response_type in (6, 7)
    assert table.hand is not None and table.hand.game.id == "triple-draw-27"
    assert table.hand.stakes.structure == "pot-limit"  # not the game's own fixed limit
    await players.play(folding_to_the_blind, number=1)
    menu, parts = await players.open_menu(players.name(table.chooser() or 0))
    assert [o["value"] for o in parts["structure"]["options"] if o.get("default")] == ["default"]  # for that deal only
