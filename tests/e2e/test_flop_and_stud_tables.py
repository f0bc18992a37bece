"""The flop and stud games through Discord, as players on a phone see them: a hold'em hand (the board with its
street, no Draw button), a seven card stud hand (every up card in its player's line, who brings in and why, Bring in
and Complete to, /poker call bringing in, a folded player's up cards kept) and an Omaha hi-lo split (who won the
high, who the low, each winner's amount). The bot's rng is seeded, so each hand's deck is known and the engine plays
the same hand first."""

from __future__ import annotations

import pytest

from bot.poker import Hand, Legal, PotAwarded, Shown
from bot.tables import TableSettings

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, calling_station, find_seed, hand_seeds, simulate

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
NBH = "\u2011"  # a hand's ranks are joined by non-breaking hyphens


def turn_ids(players: Players, kinds: object = None) -> list[str]:
    """The kinds of the turn buttons on the table message now (``cc``, ``bringin``, ``min``...)."""
    table = players.table
    assert table.live is not None
    prefix = f"pk:turn:{table.id}:{table.live.record.id}:{table.live.seq}:"
    return [c[len(prefix):] for c in players.message().custom_ids() if c.startswith(prefix)]


def labels(players: Players) -> list[str]:
    return [str(b.get("label")) for b in players.message().buttons()
            if str(b.get("custom_id", "")).startswith("pk:turn:")]


async def test_a_holdem_hand_shows_the_board_and_its_street(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=3)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="holdem")
    first = await players.turn(1)
    assert first.message.embeds[0]["title"] == "Texas Hold'em · #1"
    lines = players.description().splitlines()
    assert lines[0] == "No limit 5/10 · Preflop"  # no board yet, the stakes as players say them
    assert "draw" not in turn_ids(players) and "pat" not in turn_ids(players)  # no Draw button: nothing is drawn

    def on(street: int) -> bool:
        hand = players.table.hand
        return hand is not None and hand.round == street

    for street, word in ((1, "Flop"), (2, "Turn"), (3, "River")):
        await players.play(calling_station, number=1, until=lambda turn, street=street: on(street))
        hand = players.table.hand
        assert hand is not None
        lines = players.description().splitlines()
        message = fake.message(players.table.message_id or 0)
        # the board, alone above the table (Discord draws an emoji-only text large), and not again in it
        assert message.content == players.cards(hand.board) and len(hand.board) == 2 + street
        assert lines[0] == f"No limit 5/10 · {word}"
        log = [line for line in lines if line.startswith("· ")]  # the log: this street's lines only, so far
        assert log[0] == f"· {word}: {players.cards(hand.board[-1:] if street > 1 else hand.board)}", log
        assert set(turn_ids(players)) <= {"fold", "cc", "raise", "allin"}
    await players.play(calling_station, number=1)
    showdown = players.showdown(1)
    hand = players.table.last_hand
    assert hand is not None and showdown.startswith(f"Board: {players.cards(hand.board)}\n🏆 ")  # the board first
    assert fake.message(players.showdowns()[-1].id).content == ""  # the hand over: its board is in the embed


async def test_a_stud_hand_shows_up_cards_and_the_bring_in(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="stud")
    first = await players.turn(1)
    table = players.table
    live = table.live
    assert live is not None
    hand, users = live.hand, live.users
    assert first.legal.can_bring_in and hand.bring_in_player is not None
    bringer = users[hand.bring_in_player]
    up = {user: hand.up_cards(seat) for seat, user in enumerate(users)}
    lines = players.description().splitlines()
    assert lines[:2] == ["Stud: ante 2, bring-in 3, 10/20", "3rd street · bet 10"]
    assert f"<@{bringer}> brings in: {players.cards(up[bringer])} is the lowest card" in lines
    assert f"**<@{bringer}>: bring in 3 or complete to 10**" in lines
    for user in users:  # every up card in its player's line, no down card anywhere (the leak check sees to it)
        assert any(line.lstrip("▶ ").startswith(f"<@{user}> ") and f" · {players.cards(up[user])}" in line
                   for line in lines), (user, lines)
    assert labels(players) == ["Bring in 3", "Complete to 10"]  # no Call, no Check, no Fold, no Draw

    # The bring-in typed: /poker call posts it.
    answer = await players.poker(players.name(bringer), "call")
    assert answer.ephemeral and answer.content == "You bring in 3."
    second = await players.next_turn(first)
    assert second is not None and second.legal.is_completion
    assert labels(players) == ["Fold", "Call 3", "Complete to 10"]
    assert "**: call 3, complete or fold**" in players.description().replace(f"<@{second.user_id}>", "")
    await players.act("cbr 10", turn=second)  # the Complete to 10 button
    third = await players.next_turn(second)
    assert third is not None and third.user_id not in (bringer, second.user_id)
    await players.act("f", turn=third)
    fourth = await players.next_turn(third)
    assert fourth is not None
    text = players.description()
    assert f"· <@{bringer}> brings in 3" in text and f"· <@{second.user_id}> completes to 10" in text
    folded = next(line for line in text.splitlines() if line.startswith(f"<@{third.user_id}> "))
    assert folded.endswith(f" · {players.cards(up[third.user_id])} · folded")  # his up card stays, marked
    await players.play(calling_station, number=1)
    # Fourth to seventh street dealt more up cards: each showed in its player's line as it came.
    ended = players.table.last_hand
    assert ended is not None and len(ended.up_cards(users.index(bringer))) == 4
    showdown = players.showdown(1)
    assert showdown.startswith("🏆 ")


def split(hand: Hand) -> bool:
    halves = {e.half: e.winners for e in hand.events if isinstance(e, PotAwarded)}
    return set(halves) == {"high", "low"} and halves["high"] != halves["low"] and len(halves["high"]) == 1 \
        and len(halves["low"]) == 1


def calling(hand: Hand, legal: Legal) -> str:
    return "cc"


async def test_an_omaha_hi_lo_split_names_the_high_and_the_low(fake: FakeDiscord,
                                                                poker_bot: PokerBotStarter) -> None:
    settings = TableSettings("omaha-hilo", small_blind=5, big_blind=10)
    seed = find_seed(lambda k: split(simulate(settings, "omaha-hilo", [1000] * 3, hand_seeds(k, 1)[0], calling)),
                     limit=400)
    expected = simulate(settings, "omaha-hilo", [1000] * 3, hand_seeds(seed, 1)[0], calling)
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="omaha-hilo")
    await players.turn(1)
    live = players.table.live
    assert live is not None
    users = live.users
    assert players.description().startswith("Limit 10/20 · Preflop · bet 10\n")
    await players.play(calling_station, number=1)

    halves = {e.half: e for e in expected.events if isinstance(e, PotAwarded)}
    high, low = halves["high"], halves["low"]
    shown = {e.player: e for e in expected.events if isinstance(e, Shown)}
    board, *showdown = players.showdown(1).splitlines()
    assert board.startswith("Board: ")
    high_user, low_user = users[high.winners[0]], users[low.winners[0]]
    assert showdown[0] == (f"🏆 High: <@{high_user}> wins {high.amount} with "
                           f"{shown[high.winners[0]].description.replace('-', NBH)}")
    low_words = shown[low.winners[0]].low
    assert showdown[1] == f"🏆 Low: <@{low_user}> wins {low.amount} with {low_words.replace('-', NBH)}"
    assert low_words.count("-") == 4 and low_words[0] in "45678"  # written from the top: "8-6-4-2-A"
    assert showdown[2] == f"Won: <@{high_user}> {high.amount} · <@{low_user}> {low.amount}" or \
        showdown[2] == f"Won: <@{low_user}> {low.amount} · <@{high_user}> {high.amount}"
    assert any(line.startswith(f"<@{low_user}>: ") and line.endswith(f" · low {low_words.replace('-', NBH)}")
               for line in showdown)
    assert "No low qualified" not in "\n".join(showdown)
