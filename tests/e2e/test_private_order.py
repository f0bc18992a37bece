"""Which private message is a player's current one when Discord answers his clicks out of order (issue 33, item 8):
the click that came last decides, not the answer that finished last. A slow answer that returns after a newer one
does not delete the newer message; the stale message it produced is the one removed."""

from __future__ import annotations

import pytest

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, RestCall
from .players import Players

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
SLOW = 2.0  # seconds the slow answer's callback takes (within Discord's 3 s)


async def test_a_slow_answer_does_not_delete_the_newer_private_message(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """A player not to act taps My hand, and Discord takes 2 s over its answer; meanwhile he taps a button of the
    turn (not his): "It is not your turn." is his private message. When My hand's answer lands, the refusal
    stays (it answers his last tap) and My hand's message goes."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    name = next(n for n in PLAYERS if n != turn.name)
    uid = players.uid(name)
    slow_ids: list[int] = []

    def his_first_callback(call: RestCall) -> bool:
        iid = call.interaction_id
        if call.method != "POST" or not call.path.startswith("/interactions/") or iid is None:
            return False
        if fake.interaction(iid).user.id != uid:
            return False
        slow_ids.append(iid)
        return True

    slow = fake.inject(his_first_callback, delay=SLOW, times=1)
    my_hand = await fake.click(name, players.message(), players.seat_button("hand"))
    await fake.wait_for(lambda: fake.calls_to("POST", f"/interactions/{my_hand}/*"), 5, what="My hand answered")
    wrong = await fake.reply_to(await fake.click(name, turn.message, players.button_id(turn, "cc")))
    assert wrong.ephemeral and wrong.content == "It is not your turn.", wrong.content
    assert wrong.message is not None and not fake.message(wrong.message.id).deleted
    late = await fake.reply_to(my_hand, timeout=10)  # (the fault holds it back 2 s)
    assert slow.exhausted and slow_ids == [my_hand]
    assert late.message is not None and late.ephemeral
    await fake.settle()

    def current() -> list[int]:
        return [m.id for m in fake.ephemeral_for(name) if m.channel_id == players.channel_id]

    await fake.wait_for(lambda: current() == [wrong.message.id], 5,
                        what=f"{name}'s refusal (his last tap) as his one private message, the late answer gone")
    assert fake.message(late.message.id).deleted
