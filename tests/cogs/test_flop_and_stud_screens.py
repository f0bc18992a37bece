"""The table message of the flop and stud games (``cogs.table._text``, ``_screen``, ``_turn``, ``_controls``,
``_choice``): the board and its street, stud's up cards and bring-in, the stakes in players' words, a rotation's
place, a hi-lo showdown, and the buttons of each street. Engine hands dealt from a given deck, or a real table over
the test's store; no Discord."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from bot.poker import (
    GAMES,
    BetRaise,
    BoardDealt,
    BringIn,
    Fold,
    Hand,
    PotAwarded,
    RoundEnded,
    Shown,
    Stakes,
    get_game,
    parse_cards,
    stakes_for,
)
from bot.store import Store
from bot.tables import Table, TableError, Tables, TableSettings
from cogs.table import _choice, _controls, _screen, _text
from cogs.table._turn import TURN_ACTIONS, TYPED, Options

G, CHANNEL, HOST = 5, 55, 500
ALICE, BOB, CAROL = 501, 502, 503
USERS = (ALICE, BOB, CAROL)
NBH = "\u2011"  # the non-breaking hyphen of a hand's ranks

# Three players: seat k is dealt cards k, k + 3 and k + 6 first; the third is stud's up card (Kh, 2c, 2d).
STUD_DECK = ("As Ks Qs Ad Kd Qd Kh 2c 2d 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc 3d 4d 5d 6d 7d 8d 9d Td Jd Qh Jh Th 9h 8h "
             "7h 6h 5h 4h 3h Js Ts 9s 8s 7s 6s 5s 4s 3s 2s 2h Ac Ah Kc")


def text(card: object) -> str:
    return str(card)


def stud(game: str = "stud", stacks: tuple[int, ...] = (100, 100, 100)) -> Hand:
    g = get_game(game)
    return Hand(g, stakes_for(g, "fixed-limit", 5, 10), list(stacks), deck=STUD_DECK)


def offered(hand: Hand) -> list[tuple[str, str]]:
    legal = hand.legal()
    return [(a.name, a.label(legal)) for a in TURN_ACTIONS if a.phase == legal.phase and a.offered(legal)]


# ------------------------------------------------------------------ stakes in the words players use


@pytest.mark.parametrize(("game", "structure", "blinds", "ante", "words"), [
    ("five-card-draw", "fixed-limit", (5, 10), 0, "Limit 10/20"),
    ("triple-draw-27", "fixed-limit", (5, 10), 1, "Limit 10/20 · ante 1"),
    ("five-card-draw", "no-limit", (5, 10), 0, "No limit 5/10"),
    ("five-card-draw", "fixed-limit", (0, 0), 5, "Limit 5/10 · antes 5"),
    ("five-card-draw", "pot-limit", (0, 0), 5, "Pot limit · antes 5"),
    ("holdem", "fixed-limit", (5, 10), 0, "Limit 10/20"),
    ("holdem", "no-limit", (5, 10), 0, "No limit 5/10"),
    ("omaha", "pot-limit", (5, 10), 0, "Pot limit 5/10"),
    ("stud", "fixed-limit", (5, 10), 0, "Stud: ante 2, bring-in 3, 10/20"),
    ("razz", "fixed-limit", (50, 100), 0, "Stud: ante 20, bring-in 25, 100/200"),
    ("stud-hilo", "pot-limit", (5, 10), 0, "Stud, pot limit: ante 2, bring-in 3, bets from 10"),
])
def test_stakes_are_said_as_players_say_them(game: str, structure: str, blinds: tuple[int, int], ante: int,
                                             words: str) -> None:
    settings = TableSettings(game, small_blind=blinds[0], big_blind=blinds[1], ante=ante,
                             structure=structure)  # type: ignore[arg-type]
    g = get_game(game)
    hand = Hand(g, settings.stakes_for(g), [200, 200, 200], seed=1)
    assert _text.stakes_short(hand) == words
    assert "Fixed" not in _text.stakes_short(hand)


# ------------------------------------------------------------------ the board and its street


def test_a_flop_game_shows_its_board_and_street() -> None:
    hand = Hand("holdem", stakes_for(get_game("holdem"), "fixed-limit", 5, 10), [200, 200, 200], seed=7)
    assert _text.board_line(hand, text) is None and _text.round_line(hand) == "Preflop · bet 10"
    while hand.round == 0:
        hand.act("cc")
    assert len(hand.board) == 3
    assert _text.board_line(hand, text) == " ".join(str(c) for c in hand.board)
    assert _text.round_line(hand) == "Flop · bet 10"
    flop = next(e for e in reversed(hand.events) if isinstance(e, BoardDealt))
    assert _text.event_line(flop, USERS, text) == "Flop: " + " ".join(str(c) for c in hand.board)
    while hand.round == 1:
        hand.act("cc")
    assert _text.round_line(hand) == "Turn · big bet 20"
    turn = next(e for e in reversed(hand.events) if isinstance(e, BoardDealt))
    assert _text.event_line(turn, USERS, text) == f"Turn: {hand.board[3]}"
    while hand.round == 2:
        hand.act("cc")
    assert _text.round_line(hand) == "River · big bet 20"
    assert _text.street_name("stud", 0) == "3rd street" and _text.street_name("stud", 4) == "7th street"


# ------------------------------------------------------------------ stud: up cards and the bring-in


def test_stud_lines_show_up_cards_never_down_cards_and_a_folded_players_too() -> None:
    hand = stud()
    hand.act("pb")  # bob (2c) brings in
    hand.act("f")  # carol folds her 2d
    lines = _text.player_lines(hand, USERS, text)
    assert lines[0] == "▶ <@501> 98 · Kh"  # his turn
    assert lines[1] == "<@502> 95 · 2c · bet 3"
    assert lines[2] == "<@503> 98 · 2d · folded"
    down = [c for seat in range(3) for c in hand.holes[seat] if c not in hand.up_cards(seat)]
    assert not any(str(c) in "\n".join(lines) for c in down)
    assert not any(_text.BUTTON_MARK in line for line in lines)  # no button in stud's betting
    assert _text.round_line(hand) == "3rd street · bet 10"
    assert _text.event_line(next(e for e in hand.events if type(e).__name__ == "Acted"), USERS, text) == \
        "<@502> brings in 3"


def test_who_brings_in_and_why() -> None:
    hand = stud()
    assert _text.bring_in_line(hand, USERS, text) == "<@502> brings in: 2c is the lowest card"
    razz = stud("razz")
    assert _text.bring_in_line(razz, USERS, text) == "<@501> brings in: Kh is the highest card"
    hand.act("pb")
    assert _text.bring_in_line(hand, USERS, text) is None  # brought in: the log says so
    # The lowest card is all in on his ante: the bring-in passes on, and the line says among whom.
    short = stud(stacks=(100, 2, 100))
    assert _text.bring_in_line(short, USERS, text) == \
        "<@503> brings in: 2d is the lowest card of the players with chips"


def test_the_bring_in_buttons_and_the_completion() -> None:
    hand = stud()
    assert offered(hand) == [("bringin", "Bring in 3"), ("min", "Complete to 10")]
    assert _screen.asked(hand.legal()) == "bring in 3 or complete to 10"
    legal = hand.legal()
    bring_in = next(a for a in TURN_ACTIONS if a.name == "bringin")
    assert bring_in.move_for(legal) == BringIn()
    hand.act("pb")
    assert offered(hand) == [("fold", "Fold"), ("cc", "Call 3"), ("min", "Complete to 10")]
    assert _screen.asked(hand.legal()) == "call 3, complete or fold"
    hand.act("cbr 10")
    assert [label for _, label in offered(hand)] == ["Fold", "Call 10", "Raise to 20"]  # alice, nothing in
    short = stud(stacks=(100, 3, 100))
    assert offered(short)[0] == ("bringin", "Bring in 1 (all in)")


def test_the_typed_moves_of_the_bring_in() -> None:
    legal = stud().legal()
    assert TYPED["call"][1].move(legal, Options()) == BringIn()
    assert TYPED["bet"][1].move(legal, Options(amount="10")) == BetRaise(10)
    assert TYPED["raise"][1].move(legal, Options(amount="10")) == BetRaise(10)
    with pytest.raises(TableError, match=r"You cannot check: you bring in\. `/poker call` brings in 3, "
                       r"`/poker bet 10` completes to 10\."):
        TYPED["check"][1].move(legal, Options())
    with pytest.raises(TableError, match="You cannot fold: you bring in"):
        TYPED["fold"][1].move(legal, Options())
    after = stud()
    after.act("pb")
    assert TYPED["fold"][1].move(after.legal(), Options()) == Fold()
    # Whatever the buttons say, the engine has the last word: a bring-in out of turn is refused there.
    assert not after.can(BringIn())


def test_no_draw_button_outside_the_draw_games() -> None:
    hand = Hand("omaha", stakes_for(get_game("omaha"), "pot-limit", 5, 10), [200, 200, 200], seed=2)
    while not hand.is_complete:
        assert not {"draw", "pat"} & {name for name, _ in offered(hand)}
        hand.act("cc")


# ------------------------------------------------------------------ a hi-lo showdown


def played_out(game: str, seed: int) -> Hand:
    g = get_game(game)
    hand = Hand(g, stakes_for(g, "fixed-limit", 5, 10), [200, 200, 200], seed=seed)
    while not hand.is_complete:
        hand.act("pb" if hand.legal().can_bring_in else "cc")
    return hand


def first_seed(game: str, fits: Callable[[Hand], bool]) -> Hand:
    for seed in range(500):
        hand = played_out(game, seed)
        if fits(hand):
            return hand
    raise AssertionError("no seed fits")


def halves(hand: Hand) -> dict[str, tuple[int, ...]]:
    return {e.half: e.winners for e in hand.events if isinstance(e, PotAwarded)}


def test_a_hi_lo_split_names_the_high_and_the_low_and_each_amount() -> None:
    hand = first_seed("omaha-hilo", lambda h: len(halves(h)) == 2 and halves(h)["high"] != halves(h)["low"]
                      and len(halves(h)["high"]) == len(halves(h)["low"]) == 1)
    high, low = halves(hand)["high"][0], halves(hand)["low"][0]
    shown = {e.player: e for e in hand.events if isinstance(e, Shown)}
    lines = _text.showdown_lines(hand, USERS, text)
    assert lines[0] == f"🏆 High: <@{USERS[high]}> wins 15 with {shown[high].description.replace('-', NBH)}"
    assert lines[1] == f"🏆 Low: <@{USERS[low]}> wins 15 with {shown[low].low.replace('-', NBH)}"
    assert shown[low].low.endswith("A") or shown[low].low[0] in "45678"  # written "8-6-4-2-A", from the top
    assert lines[2].startswith("Won: ") and f"<@{USERS[high]}> 15" in lines[2] and f"<@{USERS[low]}> 15" in lines[2]
    assert f" · low {shown[low].low.replace('-', NBH)}" in "\n".join(lines)
    assert "No low qualified" not in "\n".join(lines)
    summary = _text.summary_line(hand, USERS, 4)
    assert f"<@{USERS[low]}> 15 with {shown[low].low.replace('-', NBH)}" in summary  # his low, not his high
    assert f"<@{USERS[high]}> 15 with {shown[high].description.replace('-', NBH)}" in summary


def test_no_low_qualified_says_the_high_takes_it_all() -> None:
    hand = first_seed("omaha-hilo", lambda h: halves(h) == {"": halves(h)[""]} and len(h.in_hand()) > 1)
    lines = _text.showdown_lines(hand, USERS, text)
    assert lines[0].startswith("🏆 <@") and " wins 30 with " in lines[0]
    assert lines[1] == "No low qualified: high takes it all."


def test_a_scoop_is_one_line() -> None:
    hand = first_seed("stud-hilo", lambda h: len(halves(h)) == 2 and halves(h)["high"] == halves(h)["low"]
                      and len(halves(h)["high"]) == 1)
    winner = halves(hand)["high"][0]
    shown = {e.player: e for e in hand.events if isinstance(e, Shown)}
    lines = _text.showdown_lines(hand, USERS, text)
    assert lines[0] == (f"🏆 <@{USERS[winner]}> scoops {hand.payouts[winner]}: high "
                        f"{shown[winner].description.replace('-', NBH)}, low {shown[winner].low.replace('-', NBH)}")
    assert not lines[1].startswith("Won: ")


# ------------------------------------------------------------------ the dealer's choice menu


def test_the_menu_groups_every_game_draw_then_flop_then_stud() -> None:
    games = _choice.grouped(list(reversed(GAMES.values())))
    families = [g.family for g in games]
    assert families == sorted(families, key=("draw", "flop", "stud").index) and len(games) == 19 <= 25
    assert _choice.option_label(get_game("badugi")) == "Draw · Badugi"
    assert _choice.option_label(get_game("holdem")) == "Flop · Texas Hold'em"
    assert _choice.option_label(get_game("razz")) == "Stud · Razz"


# ------------------------------------------------------------------ a real table: the rotation's place, the screen


async def horse(store: Store, hands_per_game: int = 2) -> Table:
    settings = TableSettings("horse", small_blind=5, big_blind=10, hands_per_game=hands_per_game)
    table = await Tables(store, random.Random(4)).create(G, CHANNEL, HOST, settings)
    for user in USERS:
        await table.join(user, 200)
    return table


async def play_out(table: Table) -> None:
    while table.live is not None:
        legal = table.legal()
        assert legal is not None and table.actor() is not None
        await table.act(table.actor() or 0, "pb" if legal.can_bring_in else "cc", table.next_seq())


async def test_a_rotation_says_the_hands_left_and_the_next_game(store: Store) -> None:
    table = await horse(store)
    lobby = _screen.embed(table, _screen.Screen())
    assert (lobby.description or "").startswith("HORSE · Limit Hold'em: 2 hands left · next Omaha Hi-Lo\n")
    await table.start_hand()
    shown = _screen.embed(table, _screen.Screen(card=text))
    assert shown.title == "Limit Hold'em · #1"
    assert (shown.description or "").splitlines()[:2] == ["HORSE · 1 more hand · next Omaha Hi-Lo",
                                                          "Limit 10/20 · Preflop · bet 10"]
    await play_out(table)
    await table.start_hand()
    assert (_screen.embed(table, _screen.Screen()).description or "").startswith(
        "HORSE · last hand · next Omaha Hi-Lo\n")
    await play_out(table)
    finished = _screen.embed(table, _screen.Screen(show_finished=True, card=text))
    description = finished.description or ""
    assert description.startswith("Board: ") and "\n🏆" in description  # the board first, then who won
    assert "\nHORSE · Omaha Hi-Lo: 2 hands left · next Razz\n" in description


async def test_a_stud_table_message_and_its_buttons(store: Store) -> None:
    table = await horse(store, hands_per_game=1)
    for _ in range(2):  # Hold'em, then Omaha Hi-Lo: Razz is next
        await table.start_hand()
        await play_out(table)
    await table.start_hand()
    live = table.live
    assert live is not None and live.hand.game.id == "razz"
    hand = live.hand
    embed = _screen.embed(table, _screen.Screen(card=text))
    lines = (embed.description or "").splitlines()
    assert lines[:3] == ["HORSE · last hand · next Stud", "Stud: ante 2, bring-in 3, 10/20",
                         "3rd street · bet 10"]
    seat = hand.bring_in_player
    assert seat is not None
    bring_in = f"<@{live.users[seat]}> brings in: {hand.up_cards(seat)[0]} is the highest card"
    assert bring_in in lines and f"**<@{live.users[seat]}>: bring in 3 or complete to 10**" in lines
    for s in range(3):
        assert any(line.startswith(f"{'▶ ' if s == seat else ''}<@{live.users[s]}> ") and
                   f" · {hand.up_cards(s)[0]}" in line for line in lines)
    view = _controls.view(table, _screen.Screen())
    labels = [getattr(getattr(item, "item", item), "label", "") for item in view.children]
    assert labels[-2:] == ["Bring in 3", "Complete to 10"] and "Draw…" not in labels
    assert not any(label.startswith(("Call", "Check", "Fold")) for label in labels)


def test_a_legal_from_a_replaced_field_still_offers_one_bring_in() -> None:
    legal = dataclasses.replace(stud().legal(), can_raise=False)
    assert [name for name, _ in ((a.name, a) for a in TURN_ACTIONS if a.phase == "betting" and a.offered(legal))] == \
        ["bringin"]
    assert _screen.asked(legal) == "bring in 3"


def test_stakes_of_a_draw_table_with_a_big_bet_round() -> None:
    hand = Hand("five-card-draw", Stakes("fixed-limit", 5, 10), [100, 100], seed=1)
    assert _text.stakes_short(hand) == "Limit 10/20"


def test_a_low_split_three_ways_names_them_as_a_list_and_the_half_once() -> None:
    """The "Won:" line says each share; the low's line says the half and who split it (``@a, @b and @c``)."""
    high = PotAwarded(0, 140, (0,), (140,), False, "high")
    low = PotAwarded(0, 140, (0, 2, 3), (47, 47, 46), False, "low")
    users = (11, 12, 13, 14)
    lines = _text._split_lines({"high": high, "low": low}, "", users, {0: "Two pair, tens and threes"},
                               {0: "8-7-3-2-A", 2: "8-7-3-2-A", 3: "8-7-3-2-A"})
    assert lines == ["🏆 High: <@11> wins 140 with Two pair, tens and threes",
                     "🏆 Low: <@11>, <@13> and <@14> split 140 with 8‑7‑3‑2‑A"]
    assert _text.named([11]) == "<@11>" and _text.named([11, 12]) == "<@11> and <@12>"


def test_stud_streets_are_marked_in_the_log_and_each_street_starts_it_anew() -> None:
    stud, holdem = GAMES["stud"], GAMES["holdem"]
    assert _text.event_line(RoundEnded(0, 30), USERS, text, stud) == "4th street"
    assert _text.event_line(RoundEnded(3, 90), USERS, text, stud) == "7th street"
    assert _text.event_line(RoundEnded(4, 90), USERS, text, stud) is None  # seventh street's: the showdown next
    assert _text.event_line(RoundEnded(0, 30), USERS, text, holdem) is None  # the flop's own line marks it
    assert _text.starts_street(RoundEnded(1, 30), stud) and not _text.starts_street(RoundEnded(4, 30), stud)
    flop = BoardDealt(1, tuple(parse_cards("As Kd 2c")), tuple(parse_cards("As Kd 2c")))
    assert _text.starts_street(flop, holdem) and not _text.starts_street(flop, stud)
    assert not _text.starts_street(RoundEnded(0, 30), GAMES["triple-draw-27"])
