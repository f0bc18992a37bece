"""The table says each player's state (issue 33, item 6), through Discord: Sit out / in answers with the state he is
in and his own button back; the finished hand's page says who sits out; Leave asks once, saying what he cashes out;
the chooser's Pick the game… is on the finished hand's page that names him."""

from __future__ import annotations

import pytest

from bot.poker import Hand, Legal
from cogs import render

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, calling_station

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
SAT_OUT = "You are sitting out: no cards from the next hand until you sit in."
SAT_IN = "You are in: dealt in from the next hand."
LONG_PAUSE = 30.0  # seconds between hands: the finished hand's page stays while the test looks at it


def folding_to_the_blind(hand: Hand, legal: Legal) -> str:
    return "f" if legal.phase == "betting" and not legal.can_check else "cc"


def labels(components: list[dict[str, object]] | list[object]) -> list[str]:
    return [str(c.get("label")) for row in components if isinstance(row, dict)
            for c in row.get("components", []) if isinstance(c, dict)]  # type: ignore[union-attr]


async def test_sit_out_says_which_you_are_and_gives_you_your_own_sit_in(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """The table's Sit out / in is everyone's: its answer says the state the player is in now and carries his own
    button back (Sit in after a sit out, Sit out after a sit in), which works on that private message; a player who
    holds cards gets the words with his cards (no button to hide them); the finished hand's page says who sits
    out."""
    await poker_bot(seed=14, next_hand_delay=LONG_PAUSE)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    await players.turn(1)
    await players.poker("dave", "join")  # not in hand 1: he holds no cards
    dave = players.uid("dave")
    out = await players.click_seat("dave", "sit")
    assert out.ephemeral and out.content == SAT_OUT and table.seat_of(dave).sitting_out
    assert out.message is not None and labels(out.components) == ["Sit in"]
    back = await fake.reply_to(await fake.click("dave", out.message, players.seat_button("sitin")))
    assert back.response_type == 7 and back.content == SAT_IN, back.content  # the same message, now his state
    assert not table.seat_of(dave).sitting_out and labels(fake.message(out.message.id).components) == ["Sit out"]
    again = await fake.reply_to(await fake.click("dave", fake.message(out.message.id), players.seat_button("sitout")))
    assert again.response_type == 7 and fake.message(out.message.id).content == SAT_OUT
    assert table.seat_of(dave).sitting_out and labels(fake.message(out.message.id).components) == ["Sit in"]
    # Alice holds cards: the answer says her state over them, with no button.
    hers = await players.click_seat("alice", "sit")
    assert hers.content == SAT_OUT and not hers.components and hers.embeds, hers.components
    await players.play(calling_station, number=1)
    assert table.live is None
    text = players.description()
    assert f"<@{players.uid('alice')}> " in text and " · sitting out" in text.split(f"<@{players.uid('alice')}> ")[-1]
    assert f"\n<@{dave}> {render.chips(table.seat_of(dave).stack)} · sitting out" in text, text
    await players.poker("alice", "table pause")


async def test_leave_asks_once_saying_what_you_cash_out(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Leave, on the table message next to the turn's buttons, leaves nobody by itself: it asks, privately, saying
    the chips he cashes out and, in a hand he can still fold, that he folds it; Leave now leaves."""
    await poker_bot(seed=14)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    who = next(n for n in PLAYERS if n != turn.name)
    uid = players.uid(who)
    assert table.live is not None
    seat = table.live.users.index(uid)
    behind = render.chips(table.live.hand.stacks[seat])
    asked = await players.click_seat(who, "leave")
    assert asked.ephemeral and asked.content == f"Leave the table? You fold this hand and cash out {behind} chips."
    assert labels(asked.components) == ["Leave now"] and asked.message is not None
    assert table.seat_of(uid) is not None and not table.live.hand.folded[seat]  # asking changed nothing
    left = await fake.reply_to(await fake.click(who, asked.message, players.seat_button("leaveok")))
    assert left.content.startswith("You fold and leave"), left.content
    assert table.live is not None and table.live.hand.folded[seat]


async def test_the_finished_hands_page_that_names_the_chooser_has_his_button(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """After a dealer's-choice hand, its page says who picks next and has Pick the game… under it: the chooser
    opens his menu and deals from there, without waiting for the next page; anyone else is told whose choice it
    is."""
    await poker_bot(seed=5, next_hand_delay=LONG_PAUSE)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    await players.choose(players.name(table.chooser() or 0), "badugi")
    await players.play(folding_to_the_blind, number=1)
    assert table.live is None and table.last_hand is not None
    chooser = players.name(table.chooser() or 0)
    message = players.message()
    assert f"Next: <@{players.uid(chooser)}> picks the game." in players.description(message)
    found = players.finished_choice_button()
    assert found is not None and found[0].id == message.id and found[1].get("label") == "Pick the game…"
    other = next(n for n in PLAYERS if n != chooser)
    refused = await fake.reply_to(await fake.click(other, message, str(found[1]["custom_id"])))
    assert refused.ephemeral and refused.content.startswith(f"It is <@{players.uid(chooser)}>'s choice.")
    opened = await fake.reply_to(await fake.click(chooser, message, str(found[1]["custom_id"])), followups=1)
    menu = opened.followups[-1]
    assert menu.ephemeral and "pk:game:" in " ".join(menu.custom_ids()), menu.content
    parts = players.menu_parts(menu)
    await fake.reply_to(await fake.select(chooser, menu, str(parts["game"]["custom_id"]), ["five-card-draw"]))
    deal = players.menu_parts(fake.message(menu.id))["deal"]
    dealt = await fake.reply_to(await fake.click(chooser, menu, str(deal["custom_id"])))
    assert dealt.response_type in (6, 7), dealt.content
    assert table.live is not None and table.live.hand.game.id == "five-card-draw" and table.live.record.number == 2
    await players.poker("alice", "table pause")


async def test_the_opening_words_go_once_the_first_hand_is_dealt(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Issue 33, item 1: "Table open… Press Join…" and "Shuffle up and deal!" matter until the first deal; then the
    channel holds the table message, not them."""
    await poker_bot(seed=41)
    players = Players(fake, poker_bot)
    await players.open_table("alice", ("alice", "bob", "carol"))
    await players.turn(1)
    await fake.wait_for(lambda: not [m for m in fake.channel_messages(players.channel)
                                     if m.content.startswith(("Table open", "Shuffle up and deal!"))],
                        5, what="the opening words removed")
    said = [m.content for m in fake.channel_messages(players.channel, include_deleted=True)]
    assert any(t.startswith("Table open") for t in said) and "Shuffle up and deal!" in said  # they were posted
    assert [m for m in fake.channel_messages(players.channel) if m.embeds]  # the table stays
    await players.poker("alice", "table pause")
