"""Property tests of the flop and stud games with hypothesis (docs/rules.md sections 2.6, 14 to 20 and 21).

Random game among hold'em, Omaha, Omaha Hi-Lo, Big O, Seven Card Stud, Stud Hi-Lo and Razz, random structure
(fixed, pot or no limit), 2 players to the game's maximum, random stakes (blinds and antes, or stud's ante and
bring-in, the open pair option) and random stacks, some short enough to go all in on the forced bets, so that
side pots and all-ins happen. Each hand is played by moves that hypothesis draws, legal ones from
``legal()`` and, now and then, moves the rules refuse; after every move no chip is created or lost and no card is
in two places, ``can(move)`` said yes exactly when ``act(move)`` succeeded, and a refused move changed nothing.
At the end every pot is paid exactly, each pot (main and side pots on their own) is split as docs/rules.md says,
high and low in the hi-lo games, recomputed here from the contributions and the hands' values, and the hand's
PHH export replays to the same stacks and history.

Hypothesis runs derandomized with a fixed number of examples, so CI sees the same cases every time.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any, Final

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.poker import (
    GAMES,
    STRUCTURES,
    Acted,
    BetRaise,
    BringIn,
    CheckCall,
    Draw,
    Fold,
    Hand,
    IllegalAction,
    Legal,
    Move,
    PotAwarded,
    RoundEnded,
    Shown,
    Structure,
    stakes_for,
)
from bot.poker.phh import export_phh, replay
from bot.tools.simulate import check_hand, play_hand, random_decision
from tests.engine.helpers import snapshot

MIXED: Final = sorted(g for g, game in GAMES.items() if game.family in ("flop", "stud"))
MAX_STEPS: Final = 600

PROFILE = settings(
    max_examples=600,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def tables(
    draw: st.DrawFn,
    games: tuple[str, ...] = tuple(MIXED),
    structures: tuple[Structure, ...] = STRUCTURES,
    most: bool = False,
    open_pair: bool | None = None,
    deep: bool = False,
) -> dict[str, Any]:
    """The arguments of a Hand of a flop or stud game: game, stakes, stacks, seed and the open pair option
    (``most``: the game's maximum of players; ``deep``: no short stack)."""
    game_id = draw(st.sampled_from(games))
    game = GAMES[game_id]
    structure: Structure = draw(st.sampled_from(structures))
    if most:
        players = game.max_players
    else:
        players = draw(st.sampled_from([2, game.max_players, *range(2, game.max_players + 1)]))  # the ends often
    big = draw(st.sampled_from([2, 4, 5, 10]))
    small = draw(st.sampled_from([big // 2, big]))
    cap = draw(st.sampled_from([4, 5]))
    if game.is_stud:
        ante = draw(st.one_of(st.none(), st.integers(1, big)))
        bring_in = None if ante is None else draw(st.integers(ante, max(ante, big)))
        stakes = stakes_for(game, structure, small, big, stud_ante_amount=ante, bring_in=bring_in, raise_cap=cap)
    else:
        ante = draw(st.sampled_from([0, 0, 0, 1, big // 2]))
        stakes = stakes_for(game, structure, small, big, ante=ante, raise_cap=cap)
    stack = st.integers(60 * big, 100 * big) if deep else st.one_of(st.integers(1, 3 * big),
                                                                     st.integers(big, 60 * big))
    option = game_id == "stud" and structure == "fixed-limit"
    return {
        "game": game_id,
        "stakes": stakes,
        "stacks": draw(st.lists(stack, min_size=players, max_size=players)),
        "seed": draw(st.integers(0, 2**32 - 1)),
        "open_pair": option and (draw(st.booleans()) if open_pair is None else open_pair),
    }


def new_hand(table: dict[str, Any]) -> Hand:
    return Hand(table["game"], table["stakes"], table["stacks"], seed=table["seed"], open_pair=table["open_pair"])


# ------------------------------------------------------------------------------------------------ choosing moves


def choose(data: st.DataObject, hand: Hand, legal: Legal, *, passive: bool = False) -> Move:
    """A move for the player to act: one of ``legal.moves()``, a bet of any allowed size, or a move that may
    well be refused (a bet of any size, a check, a bring-in, a draw, an out-of-turn fold). ``passive``: mostly
    check, call or bring in, so that many players see the last street."""
    kinds = ["listed"] * 5 + ["amount"] * 2 + ["any"]
    if passive:
        kinds = ["call"] * 12 + kinds
    kind = data.draw(st.sampled_from(kinds), label="kind")
    if kind == "call":
        return BringIn() if legal.can_bring_in else CheckCall()
    if kind == "listed":
        return data.draw(st.sampled_from(legal.moves()), label="move")
    if kind == "amount" and legal.can_raise:
        if legal.min_raise_to < legal.max_raise_to and hand.stakes.structure != "fixed-limit":
            return BetRaise(data.draw(st.integers(legal.min_raise_to, legal.max_raise_to), label="amount"))
        return BetRaise(data.draw(st.sampled_from([legal.min_raise_to, legal.max_raise_to]), label="amount"))
    top = max(legal.max_raise_to, legal.all_in_to) + 3
    moves: st.SearchStrategy[Move] = st.one_of(
        st.builds(BetRaise, st.integers(0, top)),
        st.sampled_from([CheckCall(), Fold(), BringIn(), Draw()]),
        st.builds(lambda p: Fold(player=p), st.integers(0, hand.players - 1)),
        st.builds(lambda p: BringIn(player=p), st.integers(0, hand.players - 1)),
    )
    return data.draw(moves, label="any move")


# ------------------------------------------------------------------------------------------------------ checks


def check_chips(hand: Hand, start: int) -> None:
    assert all(s >= 0 for s in hand.stacks)
    if hand.is_complete:
        assert sum(hand.stacks) == start
    else:
        assert sum(hand.stacks) + sum(hand.contributed) == start
        assert hand.pot_total == sum(hand.contributed)


def check_cards(hand: Hand) -> None:
    """Live hands, the board, the muck and the stub hold every card of the deck exactly once."""
    every = [c for i in hand.in_hand() for c in hand.holes[i]] + list(hand.board) + list(hand.deck.muck)
    every += hand.deck.stub()
    assert len(every) == len(set(every)), "a card is in two places"
    assert set(every) == set(hand.deck.universe), "a card went missing"
    for seat in range(hand.players):
        assert set(hand.up_cards(seat)) <= set(hand.holes[seat])  # up cards are the player's own cards


def check_legal(hand: Hand, legal: Legal) -> None:
    """The player to act has something legal to do, and what ``legal`` offers is allowed."""
    assert legal.player == hand.actor and legal.phase == "betting"
    assert not hand.folded[legal.player] and hand.stacks[legal.player] > 0
    assert 0 <= legal.call_amount <= hand.stacks[legal.player]
    if legal.can_raise:
        assert 0 < legal.min_raise_to <= legal.max_raise_to <= hand.bets[legal.player] + hand.stacks[legal.player]
    assert legal.board == tuple(hand.board)
    assert legal.up == hand.up_cards(legal.player)
    for move in legal.moves():
        assert hand.can(move), f"legal() offers {move} but can() refuses it"


def split(amount: int, winners: list[int]) -> tuple[int, ...]:
    """Equal shares, odd chips one each to the first winners clockwise from seat 0 (section 2)."""
    share, odd = divmod(amount, len(winners))
    return tuple(share + (1 if k < odd else 0) for k in range(len(winners)))


Award = tuple[int, int, tuple[int, ...], tuple[int, ...], str]
"""(pot, amount, winners, shares, half) of a PotAwarded event."""


def expected_awards(hand: Hand) -> list[Award]:
    """Every pot's award as docs/rules.md sections 2.6 and 16.2 say, recomputed from what each seat put in and the
    hands' values: one pot per level a player still in put in (folded chips above the top level join the last pot), the
    last side pot first; a pot with one eligible player is his; otherwise the best high hand wins it, or in a hi-lo game
    half of it (the odd chip with the high half) when an eligible hand qualifies for low."""
    put_in = hand.contributed
    contenders = [i for i in range(hand.players) if not hand.folded[i]]
    levels = sorted({put_in[i] for i in contenders if put_in[i] > 0})
    pots: list[tuple[int, list[int]]] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in put_in)
        pots.append((amount, [i for i in contenders if put_in[i] >= level]))
        previous = level
    above = sum(max(0, c - previous) for c in put_in)
    if above:
        amount, eligible = pots[-1]
        pots[-1] = (amount + above, eligible)
    awards: list[Award] = []
    for index in reversed(range(len(pots))):
        amount, eligible = pots[index]
        if len(eligible) == 1:
            awards.append((index, amount, tuple(eligible), (amount,), ""))
            continue
        highs = {i: hand.value_of(i) for i in eligible}
        best = max(v for v in highs.values() if v is not None)
        high_winners = [i for i in eligible if highs[i] == best]
        lows = {i: hand.low_value_of(i) for i in eligible}
        qualified = {i: v for i, v in lows.items() if v is not None}
        if not qualified:
            awards.append((index, amount, tuple(high_winners), split(amount, high_winners), ""))
            continue
        low_best = max(qualified.values())
        low_winners = [i for i in eligible if lows[i] == low_best]
        low_half = amount // 2
        awards.append((index, amount - low_half, tuple(high_winners), split(amount - low_half, high_winners), "high"))
        awards.append((index, low_half, tuple(low_winners), split(low_half, low_winners), "low"))
    return awards


def check_settlement(hand: Hand) -> None:
    """Every pot paid exactly, as docs/rules.md splits it, and the stacks are what the awards make them."""
    events = [e for e in hand.events if isinstance(e, PotAwarded)]
    awarded: list[Award] = [(e.pot, e.amount, e.winners, e.shares, e.half) for e in events]
    assert sum(e.amount for e in events) == sum(hand.contributed)
    for e in events:
        assert sum(e.shares) == e.amount and len(e.shares) == len(e.winners)
    by_pot: dict[int, int] = defaultdict(int)
    for e in events:
        by_pot[e.pot] += e.amount
    assert dict(by_pot) == {k: p.amount for k, p in enumerate(hand.pots()) if p.amount}
    assert awarded == expected_awards(hand)
    payouts = [0] * hand.players
    for e in events:
        for seat, share in zip(e.winners, e.shares, strict=True):
            payouts[seat] += share
    assert payouts == hand.payouts
    assert hand.stacks == [s - c + p for s, c, p in zip(hand.starting_stacks, hand.contributed, payouts)]
    contenders = hand.in_hand()
    shown = [e for e in hand.events if isinstance(e, Shown)]
    assert sorted(e.player for e in shown) == (contenders if len(contenders) > 1 else [])
    for show in shown:
        low = hand.low_value_of(show.player)
        assert show.low == (low.dashed() if low is not None else "")
        if not hand.game.hi_lo:
            assert show.low == ""


def check_replays(hand: Hand, table: dict[str, Any]) -> None:
    """The same moves on the same deck give the same hand; the PHH export replays to the same stacks."""
    again = new_hand(table)
    for action in hand.actions:
        again.act(action)
    assert again.events == hand.events and again.history == hand.history
    replayed = replay(export_phh(hand))
    assert replayed.is_complete
    assert replayed.stacks == hand.stacks
    assert replayed.history == hand.history
    assert replayed.board == hand.board and replayed.holes == hand.holes


# ------------------------------------------------------------------------------------------------------- tests


def play_checked(table: dict[str, Any], data: st.DataObject, *, passive: bool = False) -> Hand:
    """Play a hand by drawn moves, checking every move (see the module docstring) and the end of the hand."""
    hand = new_hand(table)
    start = sum(table["stacks"])
    check_chips(hand, start)
    check_cards(hand)
    steps = refused = 0
    while not hand.is_complete:
        legal = hand.legal()
        check_legal(hand, legal)
        move = choose(data, hand, legal, passive=passive)
        allowed = hand.can(move)
        if allowed:
            hand.act(move)
            steps += 1
        else:
            before = snapshot(hand)
            try:
                hand.act(move)
            except IllegalAction as error:
                assert str(error).strip()
            else:
                raise AssertionError(f"can({move}) said no but act({move}) succeeded")
            assert snapshot(hand) == before, f"the refused {move} changed the hand"
            refused += 1
        assert steps + refused <= MAX_STEPS, "the hand did not end"
        check_chips(hand, start)
        check_cards(hand)
    assert hand.actor is None
    assert check_hand(hand) == []
    check_settlement(hand)
    check_replays(hand, table)
    event(f"refused moves: {min(refused, 3)}")
    return hand


@PROFILE
@given(table=tables(), data=st.data())
def test_random_hands_conserve_chips_and_cards_pay_every_pot_and_replay(
        table: dict[str, Any], data: st.DataObject) -> None:
    hand = play_checked(table, data)
    event(f"game: {hand.game.id}")
    event("showdown" if len(hand.in_hand()) > 1 else "uncontested")
    event(f"pots: {min(len(hand.pots()), 3)}")
    event(f"halves: {sorted({e.half for e in hand.events if isinstance(e, PotAwarded)})}")
    event(f"players: {'2' if hand.players == 2 else 'max' if hand.players == hand.game.max_players else 'between'}")


@settings(PROFILE, max_examples=60)
@given(table=tables(games=("stud", "stud-hilo", "razz"), most=True, deep=True), data=st.data())
def test_stud_full_tables_run_out_of_cards_and_share_a_community_card(
        table: dict[str, Any], data: st.DataObject) -> None:
    """Eight stud players who mostly call: the deck runs out before seventh street (docs/rules.md section 18.3)."""
    hand = play_checked(table, data, passive=True)
    event(f"community card: {bool(hand.board)}")
    if hand.board:
        assert len(hand.board) == 1 and hand.history.count(f"d db {hand.board[0]}") == 1


@settings(PROFILE, max_examples=80)
@given(table=tables(games=("stud",), structures=("fixed-limit",), open_pair=True), data=st.data())
def test_fixed_limit_stud_with_the_open_pair_option(table: dict[str, Any], data: st.DataObject) -> None:
    hand = play_checked(table, data)
    assert hand.open_pair
    pair = any(len(up) >= 2 and up[0].rank == up[1].rank for up in map(hand.up_cards, range(hand.players)))
    ended = [k for k, e in enumerate(hand.events) if isinstance(e, RoundEnded)]
    fourth = hand.events[ended[0]:ended[1]] if len(ended) > 1 else []
    big_bet = any(isinstance(e, Acted) and e.verb == "bet" and e.amount == hand.stakes.big for e in fourth)
    assert pair or not big_bet, "a big bet on fourth street without an open pair"
    event(f"open pair on fourth street: {pair}, a big bet: {big_bet}")


@PROFILE
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_simulated_players_every_game_and_structure(table: dict[str, Any], seed: int) -> None:
    """``bot.tools.simulate``'s random player: every decision it takes from ``legal()`` is accepted, and the hand
    checks."""
    game = GAMES[table["game"]]
    hand = play_hand(game, table["stakes"], table["stacks"], random.Random(seed), seed=table["seed"],
                     policy=random_decision)
    assert check_hand(hand) == []
    check_settlement(hand)
