"""Moves by slash command (issue 16): /poker fold, check, call, bet, raise, allin, draw and pat, through the fake
Discord: each goes the buttons' way (the same turn check, store write, table update and DM), answers the caller
ephemerally, and every refusal changes nothing (the hand's stored actions, the stacks and the store's audit are
compared before and after). A command and a click for the same turn at once: exactly one is applied.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.poker import Card, Drew, format_cards, parse_cards
from bot.tables import TableSettings
from cogs.table._move_commands import LATE, read_cards, readable
from pokerdev.fakediscord import ApiError

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, InteractionRecord
from .players import Players, Turn, calling_station, find_seed, hand_seeds, simulate

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


def said(rec: InteractionRecord) -> str:
    """What the caller was told (a command acknowledged first is answered by a follow-up)."""
    return rec.followups[-1].content if rec.followups else rec.content


def told(rec: InteractionRecord) -> str:
    """What the caller was told, with the words of its embeds (a draw's answer: his cards alone, then a line)."""
    message = rec.followups[-1] if rec.followups else rec.message
    if message is None:
        return said(rec)
    return "\n".join([message.content, *(str(e.get("description") or "") for e in message.embeds)])


def private(rec: InteractionRecord) -> bool:
    """Only the caller sees the answer."""
    return (rec.followups[-1].ephemeral_to if rec.followups else rec.original.ephemeral_to if rec.original
            else None) == rec.user.id


async def state(players: Players) -> tuple[Any, ...]:
    """What a refused command must leave as it was: the hand's stored actions, the stacks and balances."""
    store = players.bot.store
    balances = tuple([await store.balance(players.fake.guild_id, players.uid(n)) for n in (*PLAYERS, "dave")])
    table = players.bot.tables.get(players.channel_id)
    if table is None:
        return (balances,)
    hands = await store.recent_hands(table.id, 1)
    return (tuple(hands[0].actions) if hands else (), table.live.seq if table.live else None,
            tuple(s.stack for s in table.record.seats), balances)


async def audited(players: Players) -> None:
    report = await players.bot.store.audit(players.fake.guild_id)
    assert not report.problems, report.problems


async def refused(players: Players, user: str, sub: str, expected: str, **options: Any) -> None:
    """``/poker sub`` by ``user`` is refused with ``expected``, privately, and changes nothing."""
    before = await state(players)
    rec = await players.poker(user, sub, **options)
    assert said(rec) == expected, (sub, options, said(rec))
    assert private(rec)
    assert await state(players) == before
    await audited(players)


async def test_every_option_says_what_it_is(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Discord shows "…" under an option without a description: every option of every command the bot registers
    has one, and it is more than the option's own name ("small_blind": "Small blind" said nothing)."""
    await poker_bot(seed=1)

    def options(node: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
        found = []
        for option in node.get("options") or []:
            if option.get("type") in (1, 2):  # a subcommand or a group
                found += options(option, f"{path} {option['name']}")
            else:
                found.append((f"{path} {option['name']}", option))
        return found

    every = [found for name, command in fake.global_commands.items() for found in options(command, name)]
    assert len(every) > 40
    for path, option in every:
        said = str(option.get("description") or "")
        assert said not in ("", "…") and said.lower().replace(" ", "_") != option["name"].lower(), (path, said)


async def test_the_poker_group_fits_discord(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Discord allows 25 subcommands and groups in /poker: the bot registers 25 (start and export moved into the
    table and session groups made room for night and cards: /poker is full), and the fake refuses a tree of 26, as
    Discord refuses its sync."""
    bot = await poker_bot(seed=1)
    poker = bot.tree.get_command("poker")
    assert poker is not None
    data = poker.to_dict(bot.tree)
    names = [o["name"] for o in data["options"]]
    assert len(names) == 25, names
    for move in ("fold", "check", "call", "bet", "raise", "allin", "draw", "pat", "table", "session", "night",
                 "cards"):
        assert move in names
    assert "start" not in names and "export" not in names
    groups = {o["name"]: sorted(sub["name"] for sub in o.get("options", [])) for o in data["options"]}
    assert groups["table"] == ["chipvalue", "kick", "language", "pause", "resume", "settings", "show", "start"]
    assert groups["session"] == ["export", "new"]
    assert groups["night"] == ["cancel", "list", "plan", "timezone"]
    extra = [{"type": 1, "name": "extra", "description": "one too many"}]
    with pytest.raises(ApiError):
        fake.register_commands([dict(data, options=[*data["options"], *extra])])
    fake.register_commands([data])


def test_cards_are_read_as_players_type_them() -> None:
    assert read_cards("Ks 9d") == parse_cards("Ks9d")
    assert read_cards("ks9d") == parse_cards("Ks9d")
    assert read_cards("10h Th") == parse_cards("ThTh")
    assert read_cards("K♠ 9♦️, 10♣") == parse_cards("Ks9dTc")
    assert [readable(c) for c in parse_cards("KsTd2cX1")] == ["K♠", "10♦", "2♣", "Joker"]


async def test_betting_by_command_and_every_refusal(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=31)
    players = Players(fake, poker_bot)
    await refused(players, "alice", "call", "There is no table in this channel; `/poker create` opens one.")
    await players.open_table("alice", PLAYERS, start=False)
    await refused(players, "dave", "fold", "You are not seated at this table.")
    await refused(players, "bob", "call", "No hand is being played now.")
    await players.poker("alice", "table start")

    turn = await players.turn(1)
    others = [n for n in PLAYERS if n != turn.name]
    legal = turn.legal
    assert legal.call_amount == 10 and legal.can_raise
    low, high = legal.min_raise_to, legal.max_raise_to
    bounds = f"from {low:,} to {high:,}"
    await refused(players, others[0], "call", "It is not your turn.")
    await refused(players, "dave", "raise", "You are not seated at this table.", amount="50")
    await refused(players, turn.name, "check", "You cannot check: you face a bet of 10. Call it, raise, or fold.")
    betting = ("It is not time to draw: this is a betting round. Call 10 (`/poker call`), raise (`/poker raise`) "
               "or fold (`/poker fold`).")  # says what to do, as the check's refusal does
    await refused(players, turn.name, "pat", betting)
    await refused(players, turn.name, "draw", betting, cards="Ks")
    await refused(players, turn.name, "raise", f"“lots” is not an amount: give a whole number of chips, {bounds}.",
                  amount="lots")
    await refused(players, turn.name, "bet", f"An amount cannot be negative: give a whole number of chips, {bounds}.",
                  amount="-30")
    too_small = f"The smallest raise is to {low}: you can raise to any total {bounds}."
    await refused(players, turn.name, "raise", too_small, amount=str(low - 1))
    before = await state(players)
    form = await players.bet_amount(str(low - 1), turn=turn)  # the Amount… form refuses it in the same words
    assert form.ephemeral and form.content == too_small and await state(players) == before
    await refused(players, turn.name, "raise", f"The largest raise is to {high:,}: you can raise to any total "
                  f"{bounds}.", amount=str(high + 1))

    # The moves: each answered privately, stored as the button's would be, and shown on the table message.
    called = await players.poker(turn.name, "call")
    assert said(called) == "You call 10." and private(called)
    assert players.table.live is not None and players.table.live.hand.actions[-1].endswith("cc")
    turn = await players.turn(1)
    assert turn.seq == called_seq(players) and turn.name == others[0]
    raised = await players.poker(turn.name, "raise", amount=" 40 ")
    assert said(raised) == "You raise to 40." and players.table.live.hand.actions[-1].endswith("cbr 40")
    turn = await players.turn(1)
    folded = await players.poker(turn.name, "fold")
    assert said(folded) == "You fold."
    turn = await players.turn(1)
    await refused(players, turn.name, "check", "You cannot check: you face a bet of 30. Call it, raise, or fold.")
    bet = await players.poker(turn.name, "bet", amount="1,000")  # bet and raise are one move: all in here
    assert said(bet) == f"You raise to {1000:,} (all in)."
    turn = await players.turn(1)
    allin = await players.poker(turn.name, "allin")
    assert said(allin) == "You call 960, all in."
    while players.table.live is not None and players.table.live.record.number == 1:  # all in: the draw is left
        turn = await players.turn(1)
        assert turn.legal.phase == "drawing"
        patted = await players.poker(turn.name, "pat")
        assert ": you stand pat" in told(patted)
    await players.turn(2, timeout=10)  # the hand was played to its end by commands; the next one is dealt
    record = (await players.bot.store.recent_hands(players.table.id, 2))[1]
    assert record.status == "complete"
    await audited(players)


def called_seq(players: Players) -> int:
    live = players.table.live
    assert live is not None
    return live.seq


async def test_checking_and_calling_refused_when_they_do_not_fit(fake: FakeDiscord,
                                                                 poker_bot: PokerBotStarter) -> None:
    """In the big blind, checked to: call is refused (nothing to call), check is made."""
    await poker_bot(seed=32)
    players = Players(fake, poker_bot)
    await players.open_table("alice", ("alice", "bob"))
    turn = await players.turn(1)
    first = await players.poker(turn.name, "call")
    assert said(first) == "You call 5."
    turn = await players.turn(1)
    assert turn.legal.can_check
    await refused(players, turn.name, "call", "There is no bet to call: check (`/poker check`) or bet.")
    checked = await players.poker(turn.name, "check")
    assert said(checked) == "You check." and players.table.live.hand.actions[-1].endswith("cc")
    await audited(players)


async def test_all_in_by_command(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Typed, all in needs no confirmation (the button asks once more); the call of it is all in too."""
    await poker_bot(seed=35)
    players = Players(fake, poker_bot)
    await players.open_table("alice", ("alice", "bob"))
    turn = await players.turn(1)
    shoved = await players.poker(turn.name, "allin")
    assert said(shoved) == f"You are all in for {1000:,}." and private(shoved)
    assert players.table.live is not None and players.table.live.hand.actions[-1].endswith("cbr 1000")
    turn = await players.turn(1)
    assert not turn.legal.can_raise and turn.legal.call_is_all_in
    called = await players.poker(turn.name, "allin")
    assert said(called) == "You call 990, all in."
    await audited(players)


async def test_fixed_limit_amounts_by_command(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=36)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, structure="fixed-limit")
    turn = await players.turn(1)
    only = turn.legal.min_raise_to
    assert only == turn.legal.max_raise_to
    await refused(players, turn.name, "raise", f"You can only raise to {only}.", amount=str(only + 5))
    await refused(players, turn.name, "allin", f"You can only raise to {only}.")
    raised = await players.poker(turn.name, "bet", amount=str(only))
    assert said(raised) == f"You raise to {only}."
    await audited(players)


async def test_drawing_by_command_autocomplete_and_refusals(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=33)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, draw_limit="3")

    def at_the_draw(turn: Turn) -> bool:
        return turn.legal.phase == "drawing"

    await players.play(calling_station, until=at_the_draw)
    turn = await players.turn(1)
    hand = list(turn.legal.hand)
    other = next(n for n in PLAYERS if n != turn.name)
    other_hand = list(players.table.hand.holes[players.table.engine_seat(players.uid(other))])

    # Autocomplete: the drawer's own cards, within Discord's limits, what he typed kept in each suggestion.
    shown = await choices(players, turn.name, "")
    assert 0 < len(shown) <= 25
    for choice in shown:
        assert 1 <= len(choice["name"]) <= 100
        cards = parse_cards(choice["value"].replace(" ", ""))
        assert set(cards) <= set(hand) and len(cards) <= 3
        assert choice["name"] == " ".join(readable(c) for c in cards)
    typed = hand[1].code.lower()
    for choice in await choices(players, turn.name, typed):
        assert hand[1].code in choice["value"].split()
    # Another player sees only his own cards; a spectator none; nobody sees the drawer's.
    for choice in await choices(players, other, ""):
        assert set(parse_cards(choice["value"].replace(" ", ""))) <= set(other_hand)
    # Not at his draw, no limit applies to him yet: the throws of four and of all five are offered too (they came
    # after the 25 choices of one, two and three cards).
    sizes = [len(choice["value"].split()) for choice in await choices(players, other, "")]
    assert sizes.count(4) == 5 and sizes.count(5) == 1 and sizes.count(1) == 5 and len(sizes) == 25
    assert await choices(players, "dave", "") == []
    offered = {c for ch in await choices(players, other, "K") for c in parse_cards(ch["value"].replace(" ", ""))}
    assert offered <= set(other_hand) and not offered & set(hand)

    # Refusals, each changing nothing.
    held = ", ".join(readable(c) for c in hand)
    outside = next(c for c in map(Card, ("As", "Kd", "Qh", "Jc", "2s", "3d")) if c not in hand)
    await refused(players, other, "draw", "It is not your turn.", cards=" ".join(c.code for c in other_hand[:1]))
    await refused(players, "dave", "pat", "You are not seated at this table.")
    await refused(players, turn.name, "call", "It is time to draw, not to bet.")
    await refused(players, turn.name, "draw", f"You do not hold {readable(outside)}. Your hand: {held}.",
                  cards=outside.code)
    await refused(players, turn.name, "draw", "“zz” is not a list of cards: write them like `Ks 9d` (a ten as 10 "
                  f"or T). Your hand: {held}.", cards="zz")
    await refused(players, turn.name, "draw", "This table's draw limit is three cards, not 4.",
                  cards=" ".join(c.code for c in hand[:4]))
    not_two = next(c for c in hand if not c.is_two)
    await refused(players, turn.name, "draw", "You chose to throw twos face up, but the cards you picked hold no "
                  "two.", cards=not_two.code, twos="face-up")

    # The draw, typed lower case and run together: the new cards privately, and by DM as from the buttons.
    thrown = [c for c in hand if not c.is_two][:2]
    dms = len(fake.dms(turn.name))
    drew = await players.poker(turn.name, "draw", cards="".join(c.code.lower() for c in thrown))
    live = players.table.live
    assert live is not None and live.hand.actions[-1] == f"p{turn.legal.player + 1} sd {format_cards(thrown)}"
    hand_now = players.cards(live.hand.holes[turn.legal.player])
    # In the channel: his new hand alone (drawn large), one line under it: what he drew, what it makes.
    assert private(drew) and said(drew) == hand_now and drew.message is not None
    assert str(drew.message.embeds[0]["description"]).startswith("#1 · Draw 1 of 1: you drew 2 (the last two)")
    # The hand's one DM, the deal's, edited (no new DM): which hand, what he threw and got, his hand now.
    await fake.wait_for(lambda: f"Now: {hand_now}" in fake.dms(turn.name)[-1].content, what="the draw's DM edited")
    assert len(fake.dms(turn.name)) == dms
    assert fake.dms(turn.name)[-1].content.startswith(
        f"Five Card Draw · #1 at <#{players.channel_id}>\nDraw 1 of 1: threw ")
    turn = await players.turn(1)
    patted = await players.poker(turn.name, "pat")
    assert ": you stand pat" in told(patted) and private(patted)
    await audited(players)


async def choices(players: Players, user: str, typed: str) -> list[dict[str, Any]]:
    rec = await players.fake.reply_to(await players.fake.autocomplete(
        user, "poker", "cards", subcommand="draw", options={"cards": typed}, channel=players.channel))
    assert rec.choices is not None
    return list(rec.choices)


async def test_assassin_twos_by_command(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    settings = TableSettings(game="assassin", small_blind=5, big_blind=10)

    def first(k: int) -> Any:
        return simulate(settings, "assassin", [1000] * 3, hand_seeds(k, 1)[0], calling_station)

    seed = find_seed(lambda k: any(isinstance(e, Drew) and e.face_up for e in first(k).events))
    drew = next(e for e in first(seed).events if isinstance(e, Drew) and e.face_up)
    name = PLAYERS[drew.player]
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="assassin")
    await players.play(calling_station, until=lambda t: t.name == name and t.legal.phase == "drawing")
    turn = await players.turn(1)
    twos = " ".join(c.code for c in turn.legal.face_up_twos)
    await refused(players, name, "draw", "You throw a two: say how, with `twos:face-up` (one extra card after the "
                  "draw) or `twos:face-down`.", cards=twos)
    done = await players.poker(name, "draw", cards=twos, twos="face-up")
    assert ": you drew " in told(done)
    event = next(e for e in players.table.hand.events if isinstance(e, Drew) and e.player == drew.player)
    assert event.face_up == drew.face_up
    await audited(players)


async def test_a_command_and_a_click_for_one_turn_at_once(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The player to act presses the button and types the command at the same moment, many times: the click
    first, the command first, and the command a few milliseconds ahead (so that each gets past its checks and
    they meet at the table's lock). Exactly one is applied (one stored action); the other is refused as late."""
    await poker_bot(seed=34)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    ahead = (None, 0.0, 0.001, 0.002, 0.004, 0.006, 0.01, 0.02)  # None: the click first; else the command first
    winners = {"click": 0, "command": 0, "after its acknowledgement": 0}
    for rounds in range(24):
        turn = await players.turn(timeout=10)
        drawing = turn.legal.phase == "drawing"
        kind, sub = ("pat", "pat") if drawing else ("cc", "check" if turn.legal.can_check else "call")
        button, seen = players.button_id(turn, kind), turn.message.snapshot()  # what his client shows
        before = len((await players.bot.store.recent_hands(players.table.id, 1))[0].actions)
        lead = ahead[rounds % len(ahead)]
        if lead is None:
            async with fake.together():
                clicked = await fake.click(turn.name, seen, button)
                typed = await fake.slash(turn.name, "poker", subcommand=sub, channel="poker")
        elif lead == 0.0:
            async with fake.together():
                typed = await fake.slash(turn.name, "poker", subcommand=sub, channel="poker")
                clicked = await fake.click(turn.name, seen, button)
        else:
            typed = await fake.slash(turn.name, "poker", subcommand=sub, channel="poker")
            await asyncio.sleep(lead)
            clicked = await fake.click(turn.name, seen, button)
        click, command = await fake.reply_to(clicked), await fake.reply_to(typed)
        await fake.settle()
        stored = await players.bot.store.recent_hands(players.table.id, 2)
        hand_record = next(h for h in stored if h.id == turn.hand_id)
        assert len(hand_record.actions) == before + 1, (rounds, hand_record.actions)
        # the refusal as it was sent (a hand's end then shows his final hand in that private message)
        first = click.original.history[0]["content"] if click.original else ""
        late_click = click.ephemeral and first in (
            "That button is from an earlier moment of the hand; use the current one.", "That hand is over.")
        late_command = said(command) == LATE
        assert late_click != late_command, (rounds, click.content, said(command))
        if late_click:
            assert said(command).startswith(("You ", "<:c_")), said(command)  # a draw: his new cards
        winners["command" if late_click else "click"] += 1
        if late_command and command.response_type == 5:
            winners["after its acknowledgement"] += 1  # it got past its checks (or waited for the click to be stored)
    assert all(winners.values()), winners  # every way of losing was met
    await audited(players)
