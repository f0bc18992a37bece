"""Pre-actions (issue 33): while others act, a player chooses on his private message what to do when his turn
comes (Check/Fold, Check, Call this amount, Call any); it is played then, as a normal move on the table, if it
still fits (a raise cancels Call this amount), and it is cleared at each new hand."""

from __future__ import annotations

import pytest

from bot.tables import Table

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, InteractionRecord, StoredMessage
from .players import Players, Turn

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


def labels(message: StoredMessage) -> list[str]:
    return [str(c.get("label")) for row in message.components for c in row.get("components") or []]


async def first_turn(fake: FakeDiscord, poker_bot: PokerBotStarter) -> tuple[Players, Table, Turn]:
    """A three-handed table (the same deck each time) at its first turn."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    return players, table, await players.turn(1)


def seats(players: Players) -> tuple[str, str, str]:
    """The small blind, the big blind and the first to act of the hand being played (three players)."""
    live = players.table.live
    assert live is not None and len(live.users) == 3
    sb, bb, first = (players.name(u) for u in live.users)
    return sb, bb, first


async def pre_buttons(players: Players, name: str) -> tuple[StoredMessage, dict[str, str]]:
    """``name``'s private message at the table once it offers pre-actions, and its buttons by kind."""
    prefix = f"pk:pre:{players.table.id}:"

    def found() -> tuple[StoredMessage, dict[str, str]] | None:
        for message in players.fake.ephemeral_for(name):
            ids = [c for c in message.custom_ids() if c.startswith(prefix)]
            if message.channel_id == players.channel_id and ids:
                return message, {c.split(":")[4]: c for c in ids}
        return None

    return await players.fake.wait_for(found, 10, what=f"{name}'s pre-action buttons")


async def tap(players: Players, name: str, kind: str) -> InteractionRecord:
    """``name`` taps the pre-action ``kind`` on his private message; the answer (that message, edited)."""
    message, buttons = await pre_buttons(players, name)
    answer = await players.fake.reply_to(await players.fake.click(name, message, buttons[kind]))
    assert answer.response_type == 7, answer  # his private message, edited in place
    return answer


async def next_turn(players: Players, turn: Turn) -> Turn:
    turn_after = await players.next_turn(turn)
    assert turn_after is not None
    return turn_after


async def test_check_fold_checks_when_checked_to(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    players, table, turn = await first_turn(fake, poker_bot)
    sb, bb, first = seats(players)
    assert turn.name == first

    chosen = await tap(players, bb, "checkfold")
    assert chosen.message is not None and "✓ Check/Fold" in labels(fake.message(chosen.message.id))
    assert "When your turn comes: check, or fold to a bet." in chosen.content
    await players.act("cc", turn)
    turn = await next_turn(players, turn)
    assert turn.name == sb
    await players.act("cc", turn)
    turn = await next_turn(players, turn)  # the big blind checked by himself: the draw
    hand = table.hand
    assert hand is not None and turn.legal.phase == "drawing"
    assert hand.actions[-1] == "p2 cc" and not hand.folded[1]
    assert f"<@{players.uid(bb)}> checks" in players.description()


async def test_check_fold_folds_to_a_bet(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    players, table, turn = await first_turn(fake, poker_bot)
    sb, bb, _first = seats(players)

    await tap(players, bb, "checkfold")
    await players.act(f"cbr {turn.legal.min_raise_to}", turn)
    turn = await next_turn(players, turn)
    assert turn.name == sb
    await players.act("cc", turn)
    turn = await next_turn(players, turn)
    hand = table.hand
    assert hand is not None and hand.folded[1] and hand.actions[-1] == "p2 f"
    assert turn.name != bb and turn.legal.phase == "drawing"
    assert f"<@{players.uid(bb)}> folds" in players.description()


async def test_a_raise_cancels_call_this_amount(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    players, table, turn = await first_turn(fake, poker_bot)
    sb, bb, _first = seats(players)

    message, _buttons = await pre_buttons(players, sb)
    assert "Call 5" in labels(message)
    chosen = await tap(players, sb, "call")
    assert "When your turn comes: call 5 (a raise clears it)." in chosen.content
    await players.act(f"cbr {turn.legal.min_raise_to}", turn)
    turn = await next_turn(players, turn)
    hand = table.hand
    assert hand is not None
    assert turn.name == sb and hand.bets[0] == 5 and turn.legal.call_amount > 5  # he acts himself
    await players.act("cc", turn)  # and he may
    turn = await next_turn(players, turn)
    assert turn.name == bb


async def test_call_any_calls_the_raise(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    players, table, turn = await first_turn(fake, poker_bot)
    sb, bb, _first = seats(players)

    await tap(players, sb, "callany")
    raised_to = turn.legal.min_raise_to
    await players.act(f"cbr {raised_to}", turn)
    turn = await next_turn(players, turn)
    hand = table.hand
    assert hand is not None
    assert turn.name == bb and hand.bets[0] == raised_to and hand.actions[-1] == "p1 cc"
    assert f"<@{players.uid(sb)}> calls" in players.description()


async def test_tapped_again_it_is_cleared(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    players, table, turn = await first_turn(fake, poker_bot)
    sb, _bb, _first = seats(players)

    await tap(players, sb, "callany")
    cleared = await tap(players, sb, "callany")
    assert cleared.message is not None and "Pre-action cleared." in cleared.content
    assert not any(label.startswith("✓") for label in labels(fake.message(cleared.message.id)))
    await players.act(f"cbr {turn.legal.min_raise_to}", turn)
    turn = await next_turn(players, turn)
    hand = table.hand
    assert hand is not None and turn.name == sb and hand.bets[0] == 5


async def test_cleared_at_the_next_hand(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The big blind chooses Call any, but everyone folds to him: in the next hand nothing is played for him."""
    players, table, turn = await first_turn(fake, poker_bot)
    _sb, bb, _first = seats(players)

    chosen = await tap(players, bb, "callany")
    assert chosen.message is not None and "✓ Call any" in labels(fake.message(chosen.message.id))
    await players.act("f", turn)
    turn = await next_turn(players, turn)
    await players.act("f", turn)  # the big blind wins the blinds without acting
    await players.hand_over(1)

    turn = await players.turn(2, timeout=10)
    _, bb2, _ = seats(players)
    assert bb2 != bb  # the button moved: he is not the big blind
    while turn.name != bb:  # everyone before him raises; Call any would call it
        await players.act(f"cbr {turn.legal.min_raise_to}" if turn.legal.can_raise else "cc", turn)
        turn = await next_turn(players, turn)
    hand = table.hand
    assert hand is not None and turn.number == 2 and turn.legal.call_amount > 0  # asked, nothing played for him
    message, _ = await pre_buttons(players, bb)
    assert not any(label.startswith("✓") for label in labels(message))


async def test_my_hand_gives_the_cards_again_with_the_pre_actions(fake: FakeDiscord, poker_bot: PokerBotStarter
                                                                 ) -> None:
    """My hand, pressed by a player who waits in a betting round, answers with his private message again at the
    bottom of the channel: his cards large and his pre-action buttons, not the cards without them."""
    players, _table, turn = await first_turn(fake, poker_bot)
    _, bb, _ = seats(players)
    await pre_buttons(players, bb)  # his private message offers them
    my_hand = turn.message.button("My hand")
    answer = await fake.reply_to(await fake.click(bb, turn.message, str(my_hand["custom_id"])))
    assert answer.ephemeral and answer.message is not None
    assert answer.content and all(part.startswith("<:") for part in answer.content.split())  # the cards alone
    assert {"Check/Fold", "Call any"} <= set(labels(fake.message(answer.message.id)))
