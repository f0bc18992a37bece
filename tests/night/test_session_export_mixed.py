"""The night after a mixed night (issue 32): ``/poker session export`` of a HORSE table, and of an 8-game table, plays
in pokerkit as written, every hand with its game's standard PHH code (docs/rules.md section 22.3); ``/poker history``
tells the flop and stud hands (the board, the up cards, a hi-lo pot's halves); the stats count each game and read stud
and hi-lo right; results and settle-up add up as before.

A night is dealt through the table layer over a real store (``Tables``, ``Table.act``), as members play it: the
rotation deals each game for one hand (``hands_per_game=1``) to five players. The export is built as the command
builds it: ``store.night_hands`` then ``bot.tables.night.night_phhs`` (what ``/poker session export`` calls), for a
member who played and for a bystander. pokerkit (``pokerkit.HandHistory``) reads each hand of the ``.phhs`` file
and plays it with no line moved, adding no move of its own, to the ``finishing_stacks`` the table recorded. The
file holds only the cards the member saw: the board, the stud up cards, the hands shown at the showdown and his
own; every other card is ``??``.

The players are scripted (a seeded ``random.Random``, no clock) so that no hand meets a house rule pokerkit plays
otherwise (tests/night/test_pokerkit_plays_mixed_exports.py names them): at most three bets a round (the cap is
four), stacks deep enough that nobody is all in (no side pot, no bring-in passed on), five players at stud (no
community card). The test checks that none was met rather than skipping such hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from bot.night import hand_story
from bot.night.facts import hand_facts
from bot.night.phhs import read_phhs
from bot.poker import Acted, BoardDealt, Dealt, Hand, PotAwarded, RoundEnded, Shown, Stakes, get_game
from bot.poker.cards import Card, parse_cards
from bot.store import HandRecord, Store
from bot.tables import Table, Tables, TableSettings
from bot.tables.night import night_phhs, night_results, rebuild, resolve_night
from cogs import night_views

pokerkit = pytest.importorskip("pokerkit")
from tests.night.pokerkit_oracle import play_in_pokerkit  # noqa: E402  (after the skip)
from tests.night.test_pokerkit_plays_mixed_exports import STANDARD, pokerkit_plays_otherwise  # noqa: E402

G, CHANNEL, HOST = 11, 3201, 100
PLAYERS = (101, 102, 103, 104, 105)
MEMBER, BYSTANDER = PLAYERS[0], 199
CODES = {**STANDARD, ("triple-draw-27", "fixed-limit"): "F2L3D"}
HORSE = ["holdem", "omaha-hilo", "razz", "stud", "stud-hilo"]
EIGHT_GAME = ["triple-draw-27", "holdem", "omaha-hilo", "razz", "stud", "stud-hilo", "holdem", "omaha"]


def scripted(rng: random.Random) -> Callable[[Table], str]:
    """A player who mostly checks and calls, sometimes folds, raises while the round has had fewer than two bets
    (never more than three bets a round), brings in or completes, and draws 0 to 3 cards."""

    def policy(table: Table) -> str:
        hand, legal = table.hand, table.legal()
        assert hand is not None and legal is not None
        if legal.phase == "drawing":
            cards = rng.sample(list(legal.hand), rng.choice([0, 1, 1, 2, 3]))
            return "sd " + "".join(c.code for c in cards) if cards else "sd"
        if legal.can_bring_in:
            return "pb" if rng.random() < 0.7 else f"cbr {legal.min_raise_to}"
        bets = 0
        for event in reversed(hand.events):
            if isinstance(event, RoundEnded):
                break
            bets += isinstance(event, Acted) and event.verb in ("bet", "raise", "complete")
        roll = rng.random()
        if not legal.can_check and roll < 0.12:
            return "f"
        if legal.can_raise and bets < 2 and roll > 0.8:
            return f"cbr {legal.min_raise_to}"
        return "cc"

    return policy


@dataclass
class PlayedNight:
    tables: Tables
    table: Table
    records: list[HandRecord]
    hands: list[Hand]


async def play_night(store: Store, game: str, count: int, seed: int) -> PlayedNight:
    """``count`` hands of the rotation ``game`` (blinds 5/10, one hand a game) at a table of five, each buying in
    1,000 chips (100 big blinds)."""
    tables = Tables(store, random.Random(seed))
    table = await tables.create(G, CHANNEL, HOST, TableSettings(game, 5, 10, hands_per_game=1))
    for user in PLAYERS:
        await table.join(user, 1000)
    policy = scripted(random.Random(seed))
    for _ in range(count):
        outcome = await table.start_hand()
        assert outcome.hand is not None
        for _ in range(500):
            actor = table.actor()
            if actor is None:
                break
            await table.act(actor, policy(table), table.next_seq())
        assert table.hand is None
    night = await store.last_night(CHANNEL)
    assert night is not None
    records = await store.night_hands([night.id])
    assert len(records) == count
    return PlayedNight(tables, table, records, [rebuild(r) for r in records])


def seen_cards(hand: Hand, seat: int | None) -> set[Card]:
    """Every card a member at ``seat`` (None: a bystander) saw at the table: his own, the board, the up cards and
    the hands shown at the showdown."""
    seen: set[Card] = set()
    for event in hand.events:
        if isinstance(event, Dealt):
            seen |= set(event.cards if event.player == seat else event.up)
        elif isinstance(event, BoardDealt | Shown):
            seen |= set(event.cards)
    return seen


def check_cards(full: str, exported: list[str], seat: int | None, up: set[Card]) -> tuple[int, int]:
    """Each action of the export is the stored one with every card the member did not see at the table ``??``: his
    own seat's cards and the up cards (``up``) stay in a ``d dh`` line, the showdown's ``sm`` lines stay whole.
    Returns (up cards of others kept, cards hidden)."""
    actions = read_phhs(f"[1]\n{full}")["1"]["actions"]
    assert len(actions) == len(exported)
    kept = hidden = 0
    for stored, shown in zip(actions, exported, strict=True):
        words, seen_words = stored.split(), shown.split()
        who = words[2] if words[:2] == ["d", "dh"] else words[0]
        mine = seat is not None and who == f"p{seat + 1}"
        if words[:2] == ["d", "dh"] or (len(words) > 2 and words[1] == "sd"):
            cards = parse_cards(words[-1])
            assert seen_words[:-1] == words[:-1]
            shown_cards = [seen_words[-1][k:k + 2] for k in range(0, len(seen_words[-1]), 2)]
            for card, text in zip(cards, shown_cards, strict=True):
                if mine or (words[0] == "d" and card in up):
                    assert text == card.code, (stored, shown)
                    kept += not mine
                else:
                    assert text == "??", (stored, shown)
                    hidden += 1
        else:
            assert shown == stored
    return kept, hidden


async def export_plays_in_pokerkit(store: Store, night: PlayedNight, order: list[str]) -> None:
    hands, records = night.hands, night.records
    assert [h.game.id for h in hands] == [order[k % len(order)] for k in range(len(hands))]
    for hand in hands:
        assert pokerkit_plays_otherwise(hand) is None
    up_kept = down_hidden = 0
    for member in (MEMBER, BYSTANDER):
        document, skipped = night_phhs(records, member)  # what /poker session export sends the member
        assert skipped == 0
        kept = read_phhs(document)
        assert len(kept) == len(records)
        for number, (record, hand) in enumerate(zip(records, hands, strict=True), 1):
            fields = kept[str(number)]
            assert fields["variant"] == CODES[hand.game.id, hand.stakes.structure], number
            assert fields["finishing_stacks"] == list(record.stacks_after or ())
            assert "_seed" not in fields
            stacks, added = play_in_pokerkit(fields)
            assert (stacks, added) == (list(record.stacks_after or ()), []), (number, fields)
            seat = record.seat_users.index(member) if member in record.seat_users else None
            texts = {c.code for a in fields["actions"] for w in a.split()[2:] for c in _cards(w)}
            assert texts <= {c.code for c in seen_cards(hand, seat)}, number
            up = {c for e in hand.events if isinstance(e, Dealt) for c in e.up}
            k, h = check_cards(record.phh or "", fields["actions"], seat, up)
            if hand.game.is_stud:
                up_kept, down_hidden = up_kept + k, down_hidden + h
    assert up_kept and down_hidden  # the stud hands had up cards kept and down cards hidden


def _cards(word: str) -> list[Card]:
    try:
        return [c for c in parse_cards(word) if not c.is_unknown]
    except ValueError:
        return []


async def test_a_horse_nights_export_plays_in_pokerkit_as_written_with_only_the_cards_seen(store: Store) -> None:
    night = await play_night(store, "horse", 20, 1)
    await export_plays_in_pokerkit(store, night, HORSE)


async def test_an_eight_game_nights_export_plays_in_pokerkit_as_written(store: Store) -> None:
    night = await play_night(store, "eight-game", 24, 2)
    await export_plays_in_pokerkit(store, night, EIGHT_GAME)


async def test_a_stud_players_down_cards_never_shown_stay_hidden_and_his_up_cards_stay(store: Store) -> None:
    night = await play_night(store, "horse", 20, 1)
    document, _ = night_phhs(night.records, MEMBER)
    kept = read_phhs(document)
    checked = 0
    for number, (record, hand) in enumerate(zip(night.records, night.hands, strict=True), 1):
        if not hand.game.is_stud:
            continue
        actions = kept[str(number)]["actions"]
        for seat in range(hand.players):
            if record.seat_users[seat] == MEMBER or seat in hand.shown:
                continue
            up = [c.code for c in hand.up[seat]]
            dealt = "".join(a.split()[-1] for a in actions if a.startswith(f"d dh p{seat + 1} "))
            codes = [dealt[k:k + 2] for k in range(0, len(dealt), 2)]
            assert [c for c in codes if c != "??"] == up  # every up card, in order, and nothing else
            assert codes.count("??") == len(codes) - len(up) >= 2
            assert not any(a.startswith(f"p{seat + 1} sm") for a in actions)
            checked += 1
    assert checked >= 5


# ---------------------------------------------------------------------------------------------- /poker history


async def test_history_tells_the_board_the_up_cards_and_a_hi_lo_pots_halves(store: Store) -> None:
    night = await play_night(store, "horse", 20, 1)
    halves = 0
    for record, hand in zip(night.records, night.hands, strict=True):
        story = hand_story(hand, record.seat_users, lambda user: f"@{user}", number=record.number, width=72)
        shown = {c.pretty() for c in seen_cards(hand, None)}
        hidden = {c.pretty() for e in hand.events if isinstance(e, Dealt) for c in e.cards} - shown
        assert not any(card in story for card in hidden), story  # no down card that was never shown
        assert "Draw" not in story and "Bet 1" not in story
        if hand.game.family == "flop":
            board = " ".join(c.pretty() for c in hand.board[:3])
            assert story.count("Preflop: ") == 1 and (f"Flop {board}" in story) == (len(hand.board) >= 3)
        else:
            assert "3rd street: " in story and "bring-in 3" in story.splitlines()[0]
            for seat in range(hand.players):
                assert f"@{record.seat_users[seat]} {hand.up[seat][0].pretty()}" in story
            bring_in = next(e for e in hand.events if isinstance(e, Acted))
            if bring_in.verb == "bring in":
                assert f"@{record.seat_users[bring_in.player]} brings in 3" in story
        awards = [e for e in hand.events if isinstance(e, PotAwarded)]
        if any(e.half == "low" for e in awards):
            halves += 1
            [low] = [e for e in awards if e.half == "low"]
            lows = {e.player: e.low for e in hand.events if isinstance(e, Shown)}
            assert f"🏆 High: @{record.seat_users[awards[0].winners[0]]} " in story
            assert f"🏆 Low: @{record.seat_users[low.winners[0]]} " in story
            assert f"with {lows[low.winners[0]]}" in story
        elif hand.game.hi_lo and any(not e.uncontested for e in awards):
            assert "· no low" in story
    assert halves >= 2
    text, embeds, files = night_views.history_message(
        [(r, h) for r, h in zip(night.records[-3:], night.hands[-3:], strict=True)], MEMBER)
    assert len(embeds) == len(files) == 3 and "Not told" not in text


def test_a_bring_in_and_a_completion_are_told_in_words() -> None:
    hand = Hand("stud", Stakes("fixed-limit", ante=2, bring_in=3, small_bet=10, big_bet=20), [200, 200, 200], seed=5)
    bringer = hand.bring_in_player
    assert bringer is not None
    hand.act("pb")
    hand.act("cbr 10")
    story = hand_story(hand_to_end(hand), [1, 2, 3], lambda user: f"@{user}", width=72)
    assert f"@{bringer + 1} brings in 3" in story and f"@{(bringer + 1) % 3 + 1} completes to 10" in story
    assert story.splitlines()[0] == "Seven Card Stud · 10/20 fixed · ante 2 · bring-in 3"


def hand_to_end(hand: Hand) -> Hand:
    while not hand.is_complete:
        hand.act("cc")
    return hand


# ------------------------------------------------------------------------------------------------- stats


def test_stud_bring_in_is_forced_and_completing_or_calling_it_is_voluntary() -> None:
    stakes = Stakes("fixed-limit", ante=2, bring_in=3, small_bet=10, big_bet=20)
    hand = Hand("stud", stakes, [200, 200, 200], seed=5)
    bringer = hand.bring_in_player
    assert bringer is not None
    hand.act("pb")
    for _ in range(2):
        hand.act("f")
    facts = hand_facts(hand, [1, 2, 3])
    assert [(f.vpip, f.raised) for f in facts] == [(False, False)] * 3  # a bring-in nobody calls: not played
    assert facts[bringer].won and not facts[bringer].won_at_showdown

    hand = Hand("stud", stakes, [200, 200, 200], seed=5)
    completer, caller = (bringer + 1) % 3, (bringer + 2) % 3
    hand.act("pb")
    hand.act("cbr 10")  # the completion
    hand.act("f")
    hand.act("cc")  # the bring-in calls the completion
    facts = hand_facts(hand_to_end(hand), [1, 2, 3])
    assert (facts[completer].vpip, facts[completer].raised) == (True, True)
    assert (facts[bringer].vpip, facts[bringer].raised) == (True, False)
    assert (facts[caller].vpip, facts[caller].raised) == (False, False)


async def test_each_game_of_the_night_is_counted_and_a_half_pot_is_a_hand_won(store: Store) -> None:
    night = await play_night(store, "horse", 20, 1)
    for user in PLAYERS:
        by_game = await store.player_stats(G, user)
        assert sorted(by_game) == sorted(HORSE) and all(s.hands == 4 for s in by_game.values())
        lines = night_views.stats_embed(_Member(user), by_game, "all time", None).description or ""
        assert "Raised in the first round" in lines and "Stud Hi-Lo" in lines
        stud = night_views.stats_embed(_Member(user), {"stud": by_game["stud"]}, "all time", "stud").description
        assert "Raised on 3rd street" in (stud or "")
    split = 0
    for record, hand in zip(night.records, night.hands, strict=True):
        facts = hand_facts(hand, record.seat_users)
        for event in hand.events:
            if isinstance(event, PotAwarded) and event.half:
                split += event.half == "low"
                for seat in event.winners:
                    assert facts[seat].won and facts[seat].won_at_showdown and facts[seat].collected > 0
    assert split >= 2


class _Member:
    """What ``stats_embed`` reads of a member: his name."""

    def __init__(self, user: int) -> None:
        self.display_name = f"member {user}"


# --------------------------------------------------------------------------------------- results, settle-up


async def test_results_and_settle_up_of_a_mixed_night_add_up(store: Store) -> None:
    night = await play_night(store, "eight-game", 24, 2)
    which = await resolve_night(store, G, CHANNEL, None)
    results = await night_results(store, night.tables, which)
    expected: dict[int, int] = {}
    for record in night.records:
        for user, before, after in zip(record.seat_users, record.stacks_before, record.stacks_after or (),
                                       strict=True):
            expected[user] = expected.get(user, 0) + after - before
    assert results.nets == expected and sum(results.nets.values()) == 0
    payments = results.payments()
    paid = dict.fromkeys(expected, 0)
    for p in payments:
        paid[p.payer] -= p.amount
        paid[p.payee] += p.amount
    assert paid == expected
    assert "24 hands" in night_views.results_text(results)
    assert "pays" in night_views.settle_text(results, payments)
    assert get_game("omaha").phh_code  # the games of the night are the engine's
