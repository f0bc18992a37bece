"""Each player's own cards in the flop and stud games, through the fake Discord: his private message under the
table (his cards alone, drawn large; the board or his down and up cards and his best hand in the small embed
under them) and his DM, after the deal and, in a flop game, after the flop."""

from __future__ import annotations

import pytest

from bot.poker import Hand
from bot.poker.rankings import HIGH_CARD
from cogs.table import _hole
from cogs.table._text import unbroken

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, StoredMessage
from .players import Players, channel_texts

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


def _embed_text(message: StoredMessage) -> str:
    return "\n".join(str(e.get("description") or "") for e in message.embeds)


async def _private(fake: FakeDiscord, players: Players, name: str, content: str, embed: str,
                   what: str) -> StoredMessage:
    """Wait until ``name``'s one private message in the table's channel shows ``content`` over ``embed``."""
    def shown() -> StoredMessage | None:
        mine = [m for m in fake.ephemeral_for(name) if m.channel_id == players.channel_id]
        ok = len(mine) == 1 and mine[0].content == content and _embed_text(mine[0]) == embed
        return mine[0] if ok else None

    def now() -> str:
        return repr([(m.content, _embed_text(m)) for m in fake.ephemeral_for(name)])

    try:
        return await fake.wait_for(shown, 5, what=f"{name}'s private message {what}")
    except Exception as error:  # say what it showed instead
        raise AssertionError(f"{name}'s private message {what}: wanted {(content, embed)!r}, saw {now()}") from error


def _best_words(hand: Hand, seat: int) -> str:
    """His best hand, checked against the engine's own values (not only ``_hole``'s words for them)."""
    words = _hole.best_hand(hand, seat)
    low = hand.low_value_of(seat)
    assert ("· low " in words) == (low is not None), words
    if low is not None:
        assert words.endswith(unbroken(f"low {low.dashed()}")), words
    return words


@pytest.mark.parametrize("game", ["holdem", "omaha-hilo"])
async def test_flop_game_private_message_and_dm_show_his_cards_then_the_board_and_his_best_hand(
    fake: FakeDiscord, poker_bot: PokerBotStarter, game: str
) -> None:
    await poker_bot(seed=7)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game=game)
    turn = await players.turn(1)
    hand = table.hand
    assert hand is not None and not hand.board
    name_of_game = hand.game.name
    for name in PLAYERS:
        seat = table.engine_seat(players.uid(name))
        assert seat is not None
        held = players.cards(hand.holes[seat])
        best = _best_words(hand, seat)
        if game == "holdem":  # before the flop: his pair, or his high card
            first, second = sorted((c.rank for c in hand.holes[seat]), reverse=True)
            assert best == (f"Pair of {_plural(first)}" if first == second else f"{_name(first).capitalize()} high")
        await _private(fake, players, name, held, f"{name_of_game} · #1 · {best}", "after the deal")
        dm = await fake.wait_for_dm(name)
        assert dm.content == f"{name_of_game} · #1 at <#{players.channel_id}>\n{held}\n{best}"

    while len(hand.board) < 3:  # everyone calls to the flop
        await players.act("cc", turn=turn)
        after = await players.next_turn(turn)
        assert after is not None
        turn = after
    board = players.cards(hand.board)
    for name in PLAYERS:
        seat = table.engine_seat(players.uid(name))
        assert seat is not None
        value = hand.value_of(seat)
        assert value is not None  # his best five: two of his cards and three of the board in Omaha
        best = _best_words(hand, seat)
        said = f"{_name(value.ranks[0]).capitalize()} high" if value.category == HIGH_CARD else value.describe()
        assert best.split(" · ")[0] == unbroken(said)
        # still his cards alone (drawn large), the board beside them, what he holds now
        await _private(fake, players, name, players.cards(hand.holes[seat]),
                       f"Board {board}\n{name_of_game} · #1 · {best}", "after the flop")
    assert len(fake.dms("alice")) == 1  # the board is on the table and in his private message: no DM per street


async def test_stud_private_message_and_dm_show_his_cards_as_dealt_and_which_are_down_and_up(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=7)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="stud")

    def dealt() -> Hand | None:
        hand = table.hand
        return hand if hand is not None and all(len(h) == 3 for h in hand.holes) else None

    hand = await fake.wait_for(dealt, 5, what="third street")
    for name in PLAYERS:
        seat = table.engine_seat(players.uid(name))
        assert seat is not None
        holes = hand.holes[seat]
        assert list(hand.up_cards(seat)) == holes[2:]  # two down, one up
        down, up = players.cards(holes[:2]), players.cards(holes[2:])
        best = _hole.best_hand(hand, seat)
        assert best and "low" not in best
        await _private(fake, players, name, players.cards(holes),  # large, in the order dealt
                       f"Down {down} · up {up}\nSeven Card Stud · #1 · {best}", "after the deal")
        dm = await fake.wait_for_dm(name)
        assert dm.content == f"Seven Card Stud · #1 at <#{players.channel_id}>\nDown {down} · up {up}\n{best}"
    await fake.quiet()
    public = "\n".join(channel_texts(fake))
    for seat in range(hand.players):  # his up card may be on the table; his down cards never
        for down_card in hand.holes[seat][:2]:
            assert players.cards([down_card]) not in public


_NAMES = {11: "jack", 12: "queen", 13: "king", 14: "ace", 6: "six"}
_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _name(rank: int) -> str:
    return _NAMES.get(rank) or _WORDS[rank]


def _plural(rank: int) -> str:
    return "sixes" if rank == 6 else f"{_name(rank)}s"
