"""Bets in two taps (issue 33): in pot and no limit the table offers one Raise… (Bet…) button, which opens a menu
only the player sees of the sizes, each labelled with the total it bets to (min, ½ pot, ¾ pot, pot, all in) and
Other amount… (the form); a size tapped there is played, and the menu becomes his cards again."""

from __future__ import annotations

import pytest

from cogs.table._text import unbroken

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, StoredMessage
from .players import Players

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
SEATS = ["My hand", "Sit out / in", "Leave"]


def labels(message: StoredMessage) -> list[list[str]]:
    return [[str(c.get("label")) for c in row.get("components") or []] for row in message.components]


async def test_a_half_pot_raise_is_two_taps(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, structure="no-limit")
    turn = await players.turn(1)
    assert labels(turn.message) == [SEATS, ["Fold", "Call 10", "Raise…"]]  # two rows, as a phone shows them
    before = len(fake.interactions)

    opened = await players.click("raise", turn=turn)  # tap 1: Raise…
    menu = opened.message
    assert opened.ephemeral and menu is not None
    assert opened.content == "Raise how much? Pot 15, 10 to call."
    assert labels(menu) == [["Raise to 20 (min)", "Raise to 22 (½ pot)"],
                            ["Raise to 28 (¾ pot)", "Raise to 35 (pot)"],
                            ["Raise to 1,000 (all in)", "Other amount…"]]
    assert table.live is not None and table.live.seq == turn.seq  # opening the menu changes nothing

    done = await fake.reply_to(await fake.click(turn.name, menu, players.bet_sizes(menu)[22]))  # tap 2: ½ pot
    hand = table.hand
    assert hand is not None and hand.bets[turn.legal.player] == 22
    seat = turn.legal.player
    value = hand.value_of(seat)
    assert value is not None
    assert done.response_type == 7 and done.content == players.cards(hand.holes[seat])  # the menu, now his cards
    assert [e.get("description") for e in done.embeds] == [f"#1 · You raised to 22 · {unbroken(value.describe())}"]
    assert labels(fake.message(menu.id)) == [["Check/Fold", "Check", "Call any"]]  # his pre-actions, one row
    assert len(fake.interactions) - before == 2
    after = await players.turn(1)
    assert after.name != turn.name and after.legal.call_amount == 22 - hand.bets[after.legal.player]
    assert "raises to 22" in players.description(after.message)


async def test_the_harness_bets_through_the_menu_and_its_form(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """``act("cbr N")`` taps the size when the menu has it, else types N in Other amount…; a bet with nothing to
    call is Bet…, its sizes "Bet N"."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, structure="pot-limit")
    turn = await players.turn(1)
    await players.act("cbr 35", turn)  # pot, from the menu
    turn = await players.turn(1)
    await players.act("cbr 71", turn)  # not a size: Other amount… and the form
    hand = table.hand
    assert hand is not None and sorted(hand.bets)[-2:] == [35, 71]
    while (turn := await players.turn(1)).legal.call_amount:
        await players.act("cc", turn)
    while not turn.legal.can_check:  # the draw
        await players.act("sd", turn)
        turn = await players.turn(1)
    opened = await players.open_bet_menu(turn)
    assert opened.message is not None and opened.content.startswith("Bet how much? Pot ")
    assert all(label.startswith("Bet ") or label == "Other amount…" for row in labels(opened.message)
               for label in row)
    assert labels(opened.message)[-1][-1] == "Other amount…"
