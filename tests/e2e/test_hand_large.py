"""Your hand, large, always (issue 33): after a bet and at a hand's end, as after a draw, a player's private message
is his hand alone (the message's text is only the card emojis, which Discord draws large) with one short line
under it (what he did or what he won, and what his hand makes; in a flop game the board above it), with no more
than two rows of buttons; and a draw-game player who has drawn is offered his pre-actions for the betting after
the draw. None of it costs a bet a Discord call more: the private message of a click is its own answer."""

from __future__ import annotations

import re

import pytest

from bot.poker import PotAwarded

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, StoredMessage
from .players import Players, calling_station

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
CARDS_ONLY = re.compile(r"(?:<:c_\w+:\d+>)(?: <:c_\w+:\d+>)*")  # emojis alone: Discord draws them large
PRE_ACTIONS = ["Check/Fold", "Check", "Call any"]


def words(message: StoredMessage) -> str:
    """The line(s) under the cards: the message's embed."""
    return "\n".join(str(e.get("description") or "") for e in message.embeds)


def rows(message: StoredMessage) -> list[list[str]]:
    return [[str(c.get("label")) for c in row.get("components") or []] for row in message.components]


def private_now(players: Players, name: str) -> StoredMessage:
    """``name``'s one private message at the table."""
    mine = [m for m in players.fake.ephemeral_for(name) if m.channel_id == players.channel_id]
    assert len(mine) == 1, [m.content for m in mine]
    return mine[0]


async def test_a_bet_on_the_flop_is_answered_with_the_hand_large_the_board_and_one_line(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="holdem", structure="no-limit")
    await players.play(calling_station, until=lambda t: t.legal.phase == "betting" and t.legal.is_bet)
    turn = await players.turn(1)
    hand = table.hand
    assert hand is not None and len(hand.board) == 3  # the flop, checked to him
    await fake.wait_for(lambda: all("Board " in words(private_now(players, name)) for name in PLAYERS), 5,
                        what="the flop shown in each private message")
    await fake.settle()
    calls = len(fake.calls)
    done = await players.bet_from_menu(turn.legal.min_raise_to, turn)
    seat = turn.legal.player
    assert done.response_type == 7 and done.message is not None  # the menu, edited into his hand
    assert done.content == players.cards(hand.holes[seat]) and CARDS_ONLY.fullmatch(done.content)
    board, line = words(done.message).split("\n")
    assert board == f"Board {players.cards(hand.board)}"
    assert line.startswith(f"#1 · You bet {turn.legal.min_raise_to} · "), line
    assert rows(fake.message(done.message.id)) == [PRE_ACTIONS]  # while the others act: one row
    await fake.settle()
    made = [c.route for c in fake.calls[calls:]]
    # Raise…'s menu (it replaces his previous private message), the table edited, the size tapped: as before
    assert len(made) == 4 and sum("/callback" in c for c in made) == 2, made


async def test_a_call_in_a_new_hand_puts_the_hand_large_under_the_table_in_the_same_calls(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """A new hand is a new table message: the first click of each player there puts his private message under
    it, now his hand large with what he did, and his pre-actions; one follow-up, as before."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    await players.act("f", turn)
    turn = await players.turn(1)
    await players.act("f", turn)
    turn = await players.turn(2, timeout=10)
    await fake.settle()
    assert turn.legal.call_amount == 10
    calls = len(fake.calls)
    await players.act("cc", turn)
    follow_up = await fake.wait_for(
        lambda: next((m for m in fake.ephemeral_for(turn.name) if m.channel_id == players.channel_id
                      and m.id > turn.message.id), None), 5, what="his private message under the table")
    await fake.settle()
    live = table.live
    assert live is not None
    seat = live.users.index(turn.user_id)
    assert follow_up.content == players.cards(live.hand.holes[seat]) and CARDS_ONLY.fullmatch(follow_up.content)
    assert words(follow_up).startswith("#2 · You called 10 · ") and "\n" not in words(follow_up)
    assert rows(follow_up) == [["Check/Fold", f"Call {live.hand.high_bet - live.hand.bets[seat]:,}", "Call any"]] \
        or rows(follow_up) == [PRE_ACTIONS]
    made = [c.route for c in fake.calls[calls:]]
    answer, under = "POST /interactions/{interaction_id}/{token}/callback", "POST /webhooks/{app_id}/{token}"
    older = "DELETE /webhooks/{app_id}/{token}/messages/{message_id}"  # (his previous one, if its token works)
    assert sorted(c for c in made if c != older) == [answer, under] and made.count(older) <= 1, made


async def test_at_the_hands_end_each_player_in_it_sees_his_final_hand_large_and_what_he_won(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=4, next_hand_delay=30)  # (no next deal to replace it)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="triple-draw-27")
    await players.play(calling_station)
    hand, users = table.last_hand, table.last_users
    assert hand is not None and not any(hand.folded)  # a showdown of the three
    won = {w for e in hand.events if isinstance(e, PotAwarded) for w in e.winners}
    assert won

    def final(name: str) -> StoredMessage | None:
        mine = private_now(players, name)
        return mine if re.search(r" · you (won [\d,]+|lost)$", words(mine)) else None

    for seat, user in enumerate(users):
        name = players.name(user)
        mine = await fake.wait_for(lambda name=name: final(name), 5, what="the final hand shown")
        assert mine.content == players.cards(hand.holes[seat]) and CARDS_ONLY.fullmatch(mine.content)
        line = words(mine)
        assert line.startswith("#1 · ") and "\n" not in line, line
        if seat in won:
            assert re.search(r" · you won [\d,]+$", line), line
        else:
            assert line.endswith(" · you lost"), line
        assert not mine.components  # nothing to press: the hand is over


async def test_after_his_draw_a_player_gets_his_pre_actions_for_the_betting_after_it(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """The second to draw chooses Check/Fold on his hand as the draw left it, while the third draws; the first
    checks after the draw, and the check is made for him."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="triple-draw-27")
    await players.play(calling_station, until=lambda t: t.legal.phase == "drawing")
    first = await players.turn(1)
    await players.draw(first.legal.hand[:1], turn=first)
    second = await players.turn(1)
    assert second.legal.phase == "drawing" and second.name != first.name
    thrown = await players.draw(second.legal.hand[:2], turn=second)
    assert thrown.message is not None
    live = table.live
    assert live is not None and live.hand.phase == "drawing"  # the third still to draw
    seat = live.users.index(second.user_id)
    assert thrown.content == players.cards(live.hand.holes[seat])  # his new hand, large
    assert words(thrown.message).startswith("#1 · Draw 1 of 3: you drew 2")
    assert rows(fake.message(thrown.message.id)) == [PRE_ACTIONS]  # no more than the one row
    message = fake.message(thrown.message.id)
    chosen = await fake.reply_to(await fake.click(second.name, message, next(
        c for c in message.custom_ids() if c.endswith(":checkfold:0"))))
    assert chosen.response_type == 7 and "When your turn comes: check, or fold to a bet." in chosen.content
    assert rows(fake.message(thrown.message.id)) == [["✓ Check/Fold", "Check", "Call any"]]

    third = await players.turn(1)
    await players.draw([], turn=third)
    opener = await players.turn(1)
    assert opener.legal.phase == "betting" and opener.name == first.name
    await players.act("cc", opener)
    after = await players.next_turn(opener)
    assert after is not None and after.name == third.name  # his check was made for him
    hand = table.hand
    assert hand is not None and hand.actions[-1] == f"p{seat + 1} cc"
    assert f"<@{second.user_id}> checks" in players.description()
