"""Assassin through Discord: twos thrown face up for an extra card, and a pot carried when every hand holds a two.

The decks are found with the engine: the bot's rng is seeded, so each hand's deck is known before it is dealt.
"""

from __future__ import annotations

import pytest

from bot.poker import Carried, Drew, Hand, PotAwarded
from bot.tables import TableSettings
from cogs.table._text import showdown_lines

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, Policy, Turn, calling_station, find_seed, hand_seeds, simulate, standing_pat

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
SETTINGS = TableSettings(game="assassin", small_blind=5, big_blind=10)


def first_hand(seed: int, policy: Policy) -> Hand:
    return simulate(SETTINGS, "assassin", [1000] * 3, hand_seeds(seed, 1)[0], policy)


async def test_twos_thrown_face_up_earn_an_extra_card(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    def throws_a_two_face_up(k: int) -> bool:
        return any(isinstance(e, Drew) and e.face_up for e in first_hand(k, calling_station).events)

    seed = find_seed(throws_a_two_face_up)
    expected = first_hand(seed, calling_station)
    drew = next(e for e in expected.events if isinstance(e, Drew) and e.face_up)
    name, twos = PLAYERS[drew.player], drew.face_up
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="assassin")

    def before_his_draw(turn: Turn) -> bool:
        return turn.name == name and turn.legal.phase == "drawing"

    await players.play(calling_station, until=before_his_draw)
    turn = await players.turn(1)
    assert turn.legal.face_up_twos == twos
    opened = await players.open_draw(turn)
    picker = opened.message
    assert picker is not None
    hand = list(turn.legal.hand)
    # The picker offers his cards and nothing else: a card he does not hold cannot even be tapped.
    toggles, confirms = players.picker_buttons(picker)
    assert sorted(toggles) == list(range(len(hand))) and list(confirms) == ["Stand pat"]
    # He marks his twos: the picker offers the obvious choice, face up for one card more, or face down.
    for two in twos:
        toggles, _ = players.picker_buttons(fake.message(picker.id))
        await fake.reply_to(await fake.click(name, fake.message(picker.id), toggles[hand.index(two)]))
    _, confirms = players.picker_buttons(fake.message(picker.id))
    count = len(twos)
    face_up = f"Throw {count} · {'two' if count == 1 else 'twos'} face up, draw {count + 1}"
    assert list(confirms) == [face_up, f"Throw {count} · face down, draw {count}"]
    answer = await fake.reply_to(await fake.click(name, fake.message(picker.id), confirms[face_up]))
    assert answer.response_type == 7  # the picker shows what came, right where he drew; the table is edited
    assert table.hand is not None
    held = table.hand.holes[drew.player]
    assert len(held) == 6  # five, less the twos, plus one card for each two and one extra: the best five play
    # His new hand alone (drawn large), one line under it: what he drew (one more card than he threw), what it makes.
    assert answer.content == players.cards(held) and answer.message is not None
    assert f"you drew {count + 1} (the last" in str(answer.message.embeds[0]["description"])
    dm = await fake.wait_for_dm(name, lambda m: players.cards(held) in m.content)
    assert dm.content.startswith(f"Assassin · #1 at <#{players.channel_id}>\nDraw 1 of 1: threw ")

    def shows_the_twos() -> str | None:
        text = players.message().text()
        return text if f"up {players.cards(twos)}" in text else None

    text = await fake.wait_for(shows_the_twos, what="the face-up twos on the table")
    assert f"<@{players.uid(name)}> draws {count} + 1 ({players.cards(twos)} up)" in text
    await players.play(calling_station, number=1)
    users = [players.uid(n) for n in PLAYERS]
    showdown = players.showdown(1)
    assert showdown.startswith("\n".join(showdown_lines(expected, users, players.bot.card_emojis.card)))
    assert players.cards(expected.holes[drew.player]) in showdown and len(expected.holes[drew.player]) == 6


def carried_hand(k: int) -> bool:
    """Every hand at the showdown holds a two: the pot is carried."""
    return any(isinstance(e, Carried) for e in first_hand(k, standing_pat).events)


async def test_a_pot_carried_to_the_next_deal(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    seed = find_seed(carried_hand)
    expected = first_hand(seed, standing_pat)
    [carried] = [e for e in expected.events if isinstance(e, Carried)]
    assert carried.amount == 30 and not any(isinstance(e, PotAwarded) for e in expected.events)
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="assassin")
    await players.play(standing_pat)
    showdown = players.showdown(1)
    assert showdown.splitlines()[0] == "🔁 The pot of 30 is carried to the next deal: every hand for it holds a two"
    assert showdown.count("· Assassinated (holds ") == 3  # the kills, in words
    assert table.record.carried_pot == 30
    # The next hand plays the carried pot, and says so.
    turn = await players.turn(2)
    assert "\nPot 45 (+30 carried in)\n" in players.description(turn.message)
    await players.play(calling_station, number=2)
    record = (await players.bot.store.recent_hands(table.id, 1))[0]
    assert record.number == 2 and record.carried_in == 30 and record.status == "complete"
    assert sum(players.stacks().values()) + table.record.carried_pot == 3000


async def test_closing_the_table_returns_a_carried_pot(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    seed = find_seed(carried_hand)
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="assassin")
    await players.turn(1)
    paused = await players.poker("alice", "table pause")
    assert paused.content == "The table pauses after this hand."
    await players.play(standing_pat)
    assert table.live is None and table.record.carried_pot == 30
    message_id = table.message_id
    closed = await players.poker("alice", "close")
    assert closed.followups[-1].ephemeral and closed.followups[-1].content.startswith("Done: everyone is cashed out")
    assert fake.message(message_id).embeds[0]["title"] == "Table closed"
    for name in PLAYERS:  # each put 10 in the carried pot and gets it back: nobody won or lost
        balance = await players.chips(name, "balance")
        assert balance.content == f"<@{players.uid(name)}> has 1,000 chips in the bank.", balance.content
    assert players.bot.tables.get(players.channel_id) is None
