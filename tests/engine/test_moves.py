"""Moves as values (issue 10, section 3): their text, ``act``/``verify``/``can``, ``default_action`` and ``Legal``."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from bot.poker import (
    DRAW_GAMES,
    STRUCTURES,
    UNKNOWN,
    BetRaise,
    CheckCall,
    Draw,
    Fold,
    Hand,
    IllegalAction,
    Move,
    Show,
    Stakes,
    parse_cards,
    parse_move,
)
from bot.poker.cards import new_deck
from bot.poker.phh import replay
from tests.engine.helpers import play, snapshot, stacked

NL = Stakes("no-limit", 1, 2)
FL = Stakes("fixed-limit", 1, 2)


def cards(text: str) -> tuple[Any, ...]:
    return tuple(parse_cards(text))


# --- values and text -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Fold(), "f"),
        (CheckCall(), "cc"),
        (BetRaise(40), "cbr 40"),
        (Draw(), "sd"),
        (Draw(cards("2c7d")), "sd 2c7d"),
        (Draw(cards("2c7d"), cards("2c")), "sdu 2c7d"),
        (Draw(cards("X1 2c 7d"), cards("X1 2c")), "sdu X12c7d"),
        (Show(cards("2c7d8h9sTc")), "sm 2c7d8h9sTc"),
        (Show(None), "sm"),
        (Fold(player=1), "p2 f"),
        (CheckCall(player=0), "p1 cc"),
        (BetRaise(7, player=4), "p5 cbr 7"),
        (Draw(player=2), "p3 sd"),
        (Draw(cards("??As"), player=2), "p3 sd ??As"),
        (Show(None, player=5), "p6 sm"),
    ],
)
def test_a_move_is_its_phh_text_and_reads_back(move: Move, text: str) -> None:
    assert str(move) == text
    assert parse_move(text) == move
    assert parse_move(" ".join(text.replace("p", "p", 1).split()) + "  ") == move  # spacing does not matter


def test_moves_are_frozen_slotted_hashable_values() -> None:
    moves: list[Move] = [Fold(), CheckCall(), BetRaise(4), Draw(cards("As")), Show(None), Fold(player=2)]
    for move in moves:
        assert dataclasses.is_dataclass(move) and not hasattr(move, "__dict__")
        with pytest.raises(dataclasses.FrozenInstanceError):
            move.player = 3  # type: ignore[misc]
    assert len(set([*moves, Fold(), BetRaise(4), Draw(cards("As"))])) == len(moves)
    assert BetRaise(4) != BetRaise(4, player=0) and Fold() != Fold(player=0)


def test_the_player_is_the_last_keyword_field() -> None:
    for kind in (Fold, CheckCall, BetRaise, Draw, Show):
        last = dataclasses.fields(kind)[-1]
        assert last.name == "player" and last.kw_only and last.default is None


def test_a_draw_keeps_its_cards_as_tuples_from_lists_or_text() -> None:
    draw = Draw(list(cards("2c 7d")), face_up=[parse_cards("2c")[0]])  # type: ignore[arg-type]
    assert draw == Draw(cards("2c7d"), cards("2c")) and hash(draw) == hash(Draw(cards("2c7d"), cards("2c")))
    assert Draw("2c 7d") == Draw(cards("2c7d"))  # type: ignore[arg-type]
    assert Show(list(cards("2c7d8h9sTc"))) == Show(cards("2c7d8h9sTc"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("check", "'check' is not an action; use f, cc, cbr AMOUNT"),
        ("", "is not an action"),
        ("f now", "is not an action"),
        ("cc 2", "is not an action"),
        ("p3", "is not an action"),
        ("cbr", "is not an amount"),
        ("cbr 4.5", "is not an amount"),
        ("cbr -4", "is not an amount"),
        ("cbr 10000000000000000000", "more than any table holds"),
        ("sd Zz", "not a card"),
        ("sd AcAc", "lists a card twice"),
        ("sdu 7d8h", "these cards hold no two"),
        ("p0 cc", "no player p0"),
    ],
)
def test_parse_move_refuses_text_that_is_not_a_move_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        parse_move(text)


def test_parse_move_refuses_what_is_not_text() -> None:
    with pytest.raises(IllegalAction, match="an action is text"):
        parse_move(42)  # type: ignore[arg-type]


# --- act, verify, can ------------------------------------------------------------------------------------------------


def test_a_move_and_its_text_play_the_same_hand() -> None:
    rng = random.Random(5)
    for game in ("assassin", "triple-draw-27", "five-card-draw"):
        by_move = Hand(game, NL, [100] * 4, seed=9, jokers=game == "assassin")
        by_text = Hand(game, NL, [100] * 4, seed=9, jokers=game == "assassin")
        while not by_move.is_complete:
            legal = by_move.legal()
            move: Move
            if legal.phase == "drawing":
                thrown = tuple(rng.sample(legal.hand, rng.randint(0, 3)))
                twos = tuple(c for c in thrown if c.is_two) if legal.face_up_twos else ()
                move = Draw(thrown, twos)
            else:
                move = rng.choice(legal.moves())
            assert by_move.act(move) == by_text.act(str(move))
        assert by_move.history == by_text.history and by_move.stacks == by_text.stacks


def test_verify_raises_the_reason_and_changes_nothing_can_answers() -> None:
    hand = Hand("five-card-draw", NL, [100] * 3, seed=3)
    before = snapshot(hand)
    for move, message in [
        (BetRaise(3), "smallest raise is to 4"),
        (BetRaise(101), "largest raise is to 100"),
        (Draw(), "not time to draw"),
        (CheckCall(player=0), "p3's turn, not p1's"),
        (Show(None), "nothing to show"),
        (BetRaise(True), "whole number"),  # type: ignore[arg-type]
        (CheckCall(player=7), "no player p8"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            hand.verify(move)
        assert not hand.can(move)
        with pytest.raises(IllegalAction, match=message):
            hand.act(move)
        assert snapshot(hand) == before
    for move in (CheckCall(), BetRaise(4), BetRaise(100), Fold(), Fold(player=0), "cbr 10", "p3 cc"):
        hand.verify(move)
        assert hand.can(move)
    assert snapshot(hand) == before
    assert not hand.can("check")


def test_a_leaving_player_can_be_folded_out_of_turn_unless_folded_or_all_in() -> None:
    hand = Hand("five-card-draw", NL, [100, 100, 100, 10], seed=1)
    assert hand.actor == 2
    assert hand.can(Fold(player=0)) and hand.can(Fold(player=3))
    play(hand, "cbr 10", "cc")  # seat 3 calls all in
    assert not hand.can(Fold(player=3))
    with pytest.raises(IllegalAction, match="all in"):
        hand.verify(Fold(player=3))
    hand.act(Fold(player=1))  # the big blind leaves while seat 0 is to act
    assert hand.folded[1] and hand.actor == 0 and hand.actions[-1] == "p2 f"
    assert not hand.can(Fold(player=1))
    with pytest.raises(IllegalAction, match="already folded"):
        hand.verify(Fold(player=1))
    play(hand, "cc")
    assert hand.phase == "drawing" and hand.can(Fold(player=2)) and hand.can(Fold())
    play(hand, "f", "f")  # seat 0 folds at his draw, then seat 2: seat 3 (all in) wins
    assert hand.is_complete
    assert not any(hand.can(Fold(player=p)) for p in range(4))
    with pytest.raises(IllegalAction, match="over"):
        hand.verify(Fold(player=2))


def test_assassin_face_up_must_be_exactly_the_twos_thrown() -> None:
    hand = Hand("assassin", NL, [100, 100], deck=stacked(["2c 2d Kh Qs Js", "As Ah Ad 9c 8c"], "3h", "Kd Ks Kc"))
    play(hand, "cc", "cc")
    for move, message in [
        (Draw(cards("2c 2d"), cards("2c")), "every two"),
        (Draw(cards("2c Kh"), cards("2c Kh")), "every two"),
        (Draw(cards("Kh"), cards("Kh")), "every two"),
        (Draw(cards("2c"), cards("2c 2c")), "every two"),
        (Draw((), cards("2c")), "every two"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            hand.verify(move)
        assert not hand.can(move)
    assert hand.can(Draw(cards("2d 2c"), cards("2c 2d")))  # in any order
    events = hand.act(Draw(cards("2c 2d"), cards("2c 2d")))
    assert hand.actions[-1] == "p1 sdu 2c2d" and len(hand.holes[0]) == 6 and events


def test_face_up_is_refused_outside_assassin() -> None:
    hand = Hand("five-card-draw", NL, [100, 100], deck=stacked(["2c Kh Kc 9s 7d", "As Ad Ah 8c 3d"]))
    play(hand, "cc", "cc")
    with pytest.raises(IllegalAction, match="only Assassin"):
        hand.verify(Draw(cards("2c"), cards("2c")))
    assert hand.can(Draw(cards("2c")))


def test_a_draw_of_cards_not_held_or_listed_twice_is_refused() -> None:
    hand = Hand("triple-draw-27", FL, [100, 100], deck=stacked(["2c Kh Kc 9s 7d", "As Ad Ah 8c 3d"]))
    play(hand, "cc", "cc")
    for move, message in [(Draw(cards("As")), "do not hold As"), (Draw(cards("2c 2c")), "twice"),
                          (Draw(("2c",)), "discards are cards")]:  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match=message):
            hand.verify(move)


def test_a_replayed_draw_the_deck_cannot_serve_is_refused_by_verify_and_can_first() -> None:
    # An exact deck whose card after the burn is As, which p2 holds.
    order = [*parse_cards("2c As 3c Ad 4c Ah 5c 8c 7d 3d"), UNKNOWN, parse_cards("As")[0], *new_deck()]
    hand = Hand("triple-draw-27", FL, [100, 100], deck=order)
    play(hand, "cc", "cc")
    assert not hand.can(Draw(cards("7d")))
    with pytest.raises(IllegalAction, match="cannot be dealt"):
        hand.verify(Draw(cards("7d")))
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match="cannot be dealt"):
        hand.act(Draw(cards("7d")))
    assert snapshot(hand) == before
    assert hand.can(Draw())


def test_a_call_that_ends_the_round_is_refused_whole_when_the_given_deck_cannot_burn() -> None:
    # The card after the deal is As, which p2 holds: the burn before the draw cannot be made. The call that
    # closes the betting is refused, and the hand is as it was (its bets, events and history included).
    order = [*parse_cards("2c As 3c Ad 4c Ah 5c 8c 7d 3d As"), *new_deck()]
    hand = Hand("triple-draw-27", FL, [100, 100], deck=order)
    play(hand, "cc")
    before = snapshot(hand)
    assert not hand.can(CheckCall())
    with pytest.raises(IllegalAction, match="cannot be dealt"):
        hand.act("cc")
    assert snapshot(hand) == before
    assert hand.can(Fold())


# --- the clock's move and Legal --------------------------------------------------------------------------------------


def test_default_action_is_a_move() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 3, seed=2)
    assert hand.default_action() == Fold()  # facing the big blind
    play(hand, "cc", "cc")
    assert hand.default_action() == CheckCall()  # the big blind checks
    play(hand, "cc")
    assert hand.default_action() == Draw()
    text = replay_showdown_text()
    shown = replay(text)
    assert shown.phase == "showdown" and shown.default_action() == Show(None)


def replay_showdown_text() -> str:
    return '''variant = "F2L3D"
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100]
actions = ["d dh p1 ??????????", "d dh p2 AsAdAh8c3d", "p2 cc", "p1 cc", "p1 sd", "p2 sd", "p1 cc", "p2 cc",
  "p1 sd", "p2 sd", "p1 cc", "p2 cc", "p1 sd", "p2 sd", "p1 cc", "p2 cc"]
'''


def test_legal_tells_a_ui_everything_it_needs_to_build_moves() -> None:
    hand = Hand("five-card-draw", Stakes("pot-limit", 1, 2), [100, 100, 30], seed=17)
    legal = hand.legal()
    assert (legal.call_amount, legal.min_raise_to, legal.pot_raise_to, legal.max_raise_to) == (2, 4, 7, 7)
    assert legal.can_fold and not legal.is_bet and not legal.call_is_all_in and legal.all_in_to == 30
    assert legal.moves() == (Fold(), CheckCall(), BetRaise(4), BetRaise(7))
    play(hand, "cbr 7")
    legal = hand.legal()
    assert (legal.player, legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (0, 6, 12, 23)
    play(hand, "cc", "cc")
    assert hand.phase == "drawing"
    legal = hand.legal()
    assert legal.moves() == (Draw(),) and legal.can_fold and legal.max_discards == 5 and not legal.max_needs_ace


def test_legal_explains_why_no_raise_and_offers_no_raise_moves() -> None:
    hand = Hand("five-card-draw", NL, [100, 100, 10], seed=1)
    play(hand, "cbr 10", "f")  # seat 2 all in, seat 0 folds
    legal = hand.legal()
    assert not legal.can_raise and "all in" in legal.why_no_raise
    assert legal.moves() == (Fold(), CheckCall())
    assert legal.call_is_all_in is False and legal.call_amount == 8


def test_legal_call_all_in_and_fixed_limit_single_amount() -> None:
    hand = Hand("triple-draw-27", FL, [100, 100, 3], seed=1)
    legal = hand.legal()
    assert legal.moves() == (Fold(), CheckCall(), BetRaise(3))  # all in for 3: less than the raise to 4
    assert legal.min_raise_to == legal.max_raise_to == legal.all_in_to == 3
    hand = Hand("triple-draw-27", FL, [100, 100, 2], seed=1)
    legal = hand.legal()
    assert legal.call_is_all_in and not legal.can_raise


def test_legal_draw_limit_three_or_four_keeping_an_ace() -> None:
    hand = Hand("five-card-draw", NL, [100, 100], deck=stacked(["Ac Kd 9h 7s 3c", "Qc Jd 9d 6s 2c"]),
                draw_limit="3-or-4-with-ace")
    play(hand, "cc", "cc")
    legal = hand.legal()
    assert legal.max_discards == 4 and legal.max_needs_ace
    assert hand.can(Draw(cards("Kd 9h 7s 3c"))) and not hand.can(Draw(cards("Ac 9h 7s 3c")))


# --- property: can agrees with act, a refused act changes nothing --------------------------------------------------

PROFILE = settings(max_examples=150, derandomize=True, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def any_move(draw: st.DrawFn, hand: Hand) -> Move:
    """A move that may or may not be legal: from ``legal()``, near its bounds, or anything at all."""
    n = hand.players
    player = draw(st.one_of(st.none(), st.integers(-1, n)), label="player")
    universe = [*sorted(hand.deck.universe, key=str), UNKNOWN]
    held = [c for h in hand.holes for c in h]
    some_cards = st.lists(st.sampled_from(held + universe), max_size=6).map(tuple)
    kind = draw(st.sampled_from(["legal", "legal", "fold", "cc", "cbr", "draw", "show"]), label="kind")
    if kind == "legal" and hand.actor is not None:
        legal = hand.legal()
        if legal.phase == "drawing":
            thrown = tuple(draw(st.permutations(legal.hand))[: draw(st.integers(0, len(legal.hand)))])
            up = tuple(c for c in thrown if c.is_two) if draw(st.booleans()) else ()
            return Draw(thrown, up)
        return draw(st.sampled_from(legal.moves()))
    if kind == "fold":
        return Fold(player=player)
    if kind == "cc":
        return CheckCall(player=player)
    if kind == "cbr":
        base = hand.legal().min_raise_to if hand.actor is not None else 0
        return BetRaise(draw(st.integers(-2, 3)) + base + draw(st.sampled_from([0, 0, 1, 50, 1000])), player=player)
    if kind == "draw":
        thrown = draw(some_cards)
        return Draw(thrown, tuple(c for c in thrown if c.is_two) if draw(st.booleans()) else (), player=player)
    return Show(draw(st.one_of(st.none(), some_cards)), player=player)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    game = draw(st.sampled_from(sorted(DRAW_GAMES)))
    structure = draw(st.sampled_from(STRUCTURES))
    players = draw(st.integers(2, min(4, DRAW_GAMES[game].max_players)))
    stacks = draw(st.lists(st.integers(1, 60), min_size=players, max_size=players))
    jokers = DRAW_GAMES[game].assassin and draw(st.booleans())
    if draw(st.booleans()):
        return Hand(game, Stakes(structure, 1, 2), stacks, seed=draw(st.integers(0, 2**16)), jokers=jokers)
    # An exact deck as a replay gives one: cards may repeat and some are unseen, so deals can be refused.
    pool = new_deck(jokers) + [UNKNOWN] * 4
    order = draw(st.lists(st.sampled_from(pool), min_size=60, max_size=90))
    deck = draw(st.permutations(new_deck(jokers)))[: 5 * players] + order
    try:
        return Hand(game, Stakes(structure, 1, 2), stacks, deck=deck, jokers=jokers)
    except IllegalAction:  # all in on the blinds, and the first burn is a card the deck cannot give
        assume(False)
        raise


@PROFILE
@given(hand=hands(), data=st.data())
def test_can_is_true_exactly_when_act_succeeds_and_a_refused_act_changes_nothing(
    hand: Hand, data: st.DataObject
) -> None:
    refused = applied = deck_refusals = 0
    for _ in range(80):
        if hand.is_complete:
            break
        move = data.draw(any_move(hand), label="move")
        allowed = hand.can(move)
        before = snapshot(hand)
        try:
            hand.act(move)
        except IllegalAction as error:
            assert not allowed, f"can({move}) said yes, act refused: {error}"
            assert str(error)
            assert snapshot(hand) == before
            refused += 1
            deck_refusals += "dealt" in str(error) or "stub" in str(error) or "run out" in str(error)
        else:
            assert allowed, f"can({move}) said no, act applied it"
            applied += 1
    assert applied + refused > 0
    event(f"given deck order: {hand.deck.exact}")
    event(f"refused a move: {refused > 0}")
    event(f"the deck refused a card: {deck_refusals > 0}")
    event(f"hand over: {hand.is_complete}")


def test_legal_says_how_to_go_all_in() -> None:
    hand = Hand("five-card-draw", NL, [100, 100, 30], seed=1)
    assert hand.legal().all_in() == BetRaise(30)  # the button, first to act, raises every chip he has
    hand = Hand("triple-draw-27", FL, [100, 100, 2], seed=1)
    legal = hand.legal()
    assert legal.all_in() == CheckCall() and not legal.can_raise  # calling takes every chip: that is all in
    hand.act(legal.all_in())
    assert hand.stacks[legal.player] == 0


def test_legal_builds_a_draw_with_assassins_twos_face_up_or_not() -> None:
    two, joker, king, nine = parse_cards("2c X1 Ks 9d")
    legal = dataclasses.replace(Hand("five-card-draw", NL, [100, 100], seed=1).legal(), phase="drawing",
                                hand=(two, joker, king, nine), face_up_twos=(two, joker))
    assert legal.draw([king, nine]) == Draw((king, nine))
    assert legal.draw([two, king]) == Draw((two, king))  # face down
    assert legal.draw([two, joker, king], face_up=True) == Draw((two, joker, king), (two, joker))
    assert legal.face_up_among([king, joker]) == (joker,) and legal.face_up_among([king]) == ()
    with pytest.raises(IllegalAction, match="face up, but the cards you picked hold no two"):
        legal.draw([king, nine], face_up=True)


def test_legal_says_why_a_move_of_the_other_moment_is_refused_in_the_moves_own_words() -> None:
    hand = Hand("triple-draw-27", FL, [100] * 3, seed=3)
    legal = hand.legal()
    assert legal is not None and legal.phase == "betting"
    assert legal.refusal_for("betting") is None
    with pytest.raises(IllegalAction) as refused:
        hand.verify(Draw())
    assert legal.refusal_for("drawing") == str(refused.value)
    to_draw(hand)
    legal = hand.legal()
    assert legal is not None and legal.phase == "drawing" and legal.refusal_for("drawing") is None
    with pytest.raises(IllegalAction) as refused:
        hand.verify(CheckCall())
    assert legal.refusal_for("betting") == str(refused.value)


def to_draw(hand: Hand) -> None:
    """Call or check until the first draw."""
    while (legal := hand.legal()) is not None and legal.phase == "betting":
        hand.act(CheckCall())
