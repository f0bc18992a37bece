"""A player knocked out of a tournament (issue 33, item 9) is told what is true: he is out, in which place, and the
table plays on without him. Not "press Join" (a tournament table has no Join button) and not that registration is
closed (he did register)."""

from __future__ import annotations

import pytest

from bot.poker import Hand, Legal
from bot.tables import tournament as mode

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, Policy
from .test_bot_tournament import DealClock, press, tournament
from .test_bot_tournament import dealt as dealt  # the fixture

pytestmark = pytest.mark.e2e

ENTRANTS = ("alice", "bob", "carol", "dave")


def heads_up_all_in() -> Policy:
    """In each hand the first player to act moves all in, the next one calls, and the others fold (or check): one
    of the two is out (or both still in, after a split), never the whole field at once."""
    committed: dict[int, int] = {}

    def policy(hand: Hand, legal: Legal) -> str:
        if legal.phase == "drawing":
            return "sd"
        done = committed.get(id(hand), 0)
        if done < 2:
            committed[id(hand)] = done + 1
            return f"cbr {legal.max_raise_to}" if legal.can_raise else "cc"
        return "cc" if legal.can_check else "f"

    return policy


async def test_a_knocked_out_player_is_told_he_is_out_not_to_press_join(
    fake: FakeDiscord, poker_bot: PokerBotStarter, dealt: DealClock
) -> None:
    await poker_bot(seed=7)
    players = Players(fake, poker_bot)
    _, lobby = await tournament(players, "alice", game="five-card-draw", buy_in=100, starting_chips=400,
                                level_minutes=1, levels="10/20, 20/40, 40/80, 80/160", structure="no-limit")
    for name in ENTRANTS:
        await press(players, name, lobby, "Register")
    started = await players.fake.reply_to(await fake.slash("alice", "poker", group="tournament",
                                                           subcommand="start", channel=players.channel))
    assert "The tournament starts" in started.content, started.content

    def state() -> mode.Tournament:
        t = mode.tournament_of(players.table)
        assert t is not None
        return t.state

    policy = heads_up_all_in()
    for _ in range(30):  # all-in hands until somebody is out
        if state().placings():
            break
        await players.play(policy, timeout=15)
    placings = state().placings()
    assert placings and state().stage == "running", (placings, state().stage)
    placing = placings[-1]
    out = players.name(placing.players[0])
    place = {1: "1st", 2: "2nd", 3: "3rd"}.get(placing.place, f"{placing.place}th")
    expected = f"You are out of this tournament ({place} place). The table plays on; you can watch."
    await fake.settle()
    assert players.table.seat_of(players.uid(out)) is None

    sit = await players.click_seat(out, "sit")  # Sit out / in, on the table message
    assert sit.ephemeral and sit.content == expected, sit.content
    joined = await players.poker(out, "join")
    assert joined.ephemeral and joined.content == expected, joined.content
    sat_out = await players.poker(out, "sitout")
    assert sat_out.ephemeral and sat_out.content == expected, sat_out.content
    rebuy = await players.poker(out, "rebuy", amount=100)
    assert rebuy.ephemeral and rebuy.content == expected, rebuy.content
    # Someone who never entered is not sent to a Join button either.
    stranger = await players.click_seat("erin", "sit")
    assert stranger.ephemeral and "press Join" not in stranger.content, stranger.content
