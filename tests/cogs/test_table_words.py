"""The table's words a player reads in one style (issue 33, item 7): a draw is "drew 2", a pat "stood pat", and
the player to act on the shared table is asked what he may do ("draw or stand pat"), never "your draw"."""

from __future__ import annotations

import pytest

from bot.night.story import hand_story
from bot.poker import GAMES, BetRaise, BringIn, CheckCall, Draw, Hand, Legal, Posted, Stakes, parse_cards, stakes_for
from bot.poker.rankings import assassinated_words, evaluate
from cogs.table import _draw, _hole, _screen, _text

# Three players: seat k is dealt cards k, k + 3 and k + 6 first; the third is stud's up card (Kh, 2c, 2d).
STUD_DECK = ("As Ks Qs Ad Kd Qd Kh 2c 2d 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc 3d 4d 5d 6d 7d 8d 9d Td Jd Qh Jh Th 9h 8h "
             "7h 6h 5h 4h 3h Js Ts 9s 8s 7s 6s 5s 4s 3s 2s 2h Ac Ah Kc")

USERS = (301, 302, 303)
NBH = _text.NON_BREAKING_HYPHEN


def text(card: object) -> str:
    return str(card)


def to_the_draw(hand: Hand) -> None:
    while hand.phase == "betting":
        hand.act(CheckCall())


def test_a_players_line_says_drew_and_stood_pat_as_the_log_does() -> None:
    hand = Hand(GAMES["triple-draw-27"], Stakes("fixed-limit", 5, 10), [1000] * 3, seed=4)
    to_the_draw(hand)
    assert hand.phase == "drawing"
    assert _screen.asked(hand.legal()) == "draw or stand pat"
    first = hand.actor
    assert first is not None
    hand.act(Draw(tuple(hand.holes[first][:2])))
    while hand.phase == "drawing":
        hand.act(Draw())
    to_the_draw(hand)
    hand.act(Draw())  # the first player stands pat at the second draw
    line = _text.player_lines(hand, USERS, text)[first]
    assert "drew 2 then stood pat" in line, line
    others = [line for seat, line in enumerate(_text.player_lines(hand, USERS, text)) if seat != first]
    assert all("stood pat" in line and "drew" not in line for line in others), others



def test_a_showdown_tells_each_hand_once_with_what_its_player_drew() -> None:
    hand = Hand(GAMES["triple-draw-27"], Stakes("fixed-limit", 5, 10), [1000] * 3, seed=9)
    while not hand.is_complete:
        if hand.phase == "drawing":
            seat = hand.actor
            assert seat is not None
            hand.act(Draw(tuple(hand.holes[seat][:1])) if seat == 0 else Draw())
        else:
            hand.act(CheckCall())
    lines = _text.showdown_lines(hand, USERS, text)
    award = next(line for line in lines if line.startswith("🏆"))
    winner = next(seat for seat, user in enumerate(USERS) if award.startswith(f"🏆 <@{user}> "))
    shown = {seat: next(line for line in lines if line.startswith(f"<@{USERS[seat]}>: ")) for seat in range(3)}
    said = award.split(" with ", 1)[1]
    assert said not in shown[winner]  # the winner's hand is said once, in the pot's line
    for seat in range(3):
        if seat != winner:
            described = _text.describe_shown(next(s for s in _text.shown_hands(hand) if s.seat == seat), hand)
            assert described in shown[seat]
    assert shown[0].endswith("drew 1 then drew 1 then drew 1")
    assert shown[1].endswith("stood pat then stood pat then stood pat")


def test_a_six_card_assassin_hand_says_why() -> None:
    """Assassin: a two thrown face up draws one card more, so that hand shows six cards; the line says why."""
    for seed in range(300):
        hand = Hand(GAMES["assassin"], Stakes("no-limit", 5, 10), [1000] * 2, seed=seed)
        to_the_draw(hand)
        if hand.is_complete or not hand.legal().face_up_twos:
            continue
        seat = hand.actor
        hand.act(hand.legal().draw(hand.legal().face_up_twos, face_up=True))
        while not hand.is_complete:
            hand.act(Draw() if hand.phase == "drawing" else CheckCall())
        shown = [s for s in _text.shown_hands(hand) if s.seat == seat]
        if shown and len(shown[0].cards) == 6:
            lines = _text.showdown_lines(hand, USERS, text)
            line = next(line for line in lines if line.startswith(f"<@{USERS[seat]}>"))
            assert "6 cards: a two shown for one more" in line, line
            return
    raise AssertionError("no seed gives a six-card Assassin hand at the showdown")


def log(hand: Hand, mark: int = 0) -> list[str]:
    lines = [_text.event_line(e, USERS, text) for e in hand.events[mark:]]
    return [line for line in lines if line]


def test_a_call_is_logged_as_the_streets_total_like_the_raise_it_calls() -> None:
    """The log speaks in totals for the street: "@bob raises to 40" then "@ann calls 40", whatever the caller had
    in already (a blind, the bring-in); a short all-in call gives his total too. The button says what it adds."""
    hand = Hand(GAMES["five-card-draw"], Stakes("no-limit", 5, 10), [1000, 1000, 25], seed=1)
    assert hand.legal().player == 2
    hand.act(BetRaise(20))  # the button raises to 20
    hand.act(CheckCall())  # the small blind adds 15
    hand.act(BetRaise(40))  # the big blind raises to 40
    mark = len(hand.events)
    hand.act(CheckCall())  # the button is all in for 25 in all
    hand.act(CheckCall())  # the small blind adds 20
    assert log(hand)[:2] == ["<@303> raises to 20", "<@301> calls 20"]
    assert log(hand, mark) == ["<@303> calls 25 (all in)", "<@301> calls 40"]
    # Heads-up: the big blind who calls a raise has put 30 in, not the 20 he added.
    heads_up = Hand(GAMES["five-card-draw"], Stakes("no-limit", 5, 10), [1000, 1000], seed=1)
    big_blind = next(e.player for e in heads_up.events if isinstance(e, Posted) and e.kind == "big blind")
    heads_up.act(BetRaise(30))
    mark = len(heads_up.events)
    assert heads_up.legal().player == big_blind and heads_up.legal().call_amount == 20
    heads_up.act(CheckCall())
    assert log(heads_up, mark)[0] == f"<@{USERS[big_blind]}> calls 30"


def test_a_call_of_a_stud_completion_counts_the_bring_in() -> None:
    hand = Hand(GAMES["stud"], stakes_for(GAMES["stud"], "fixed-limit", 5, 10), [100] * 3,
                deck=STUD_DECK)
    hand.act("pb")  # bob (2c) brings in 3
    hand.act("cbr 10")  # carol completes to 10
    hand.act("f")
    mark = len(hand.events)
    hand.act("cc")  # bob adds 7 to his bring-in
    assert log(hand, mark)[0] == "<@302> calls 10"


def test_assassins_throw_buttons_say_what_face_up_twos_get() -> None:
    """Twos thrown face up draw one card more than thrown, however many twos (docs/rules.md, Assassin); the
    buttons say so in words a player reads at a glance, short enough for a phone."""
    legal = Legal(0, "drawing", max_discards=5, face_up_twos=tuple(parse_cards("2c 2d X1")))

    def labels(cards: str) -> list[str]:
        return [label for label, _, _ in _draw._confirmations(legal, parse_cards(cards))]

    assert labels("2c 7h 9s") == ["Throw 3 · two face up, draw 4", "Throw 3 · face down, draw 3"]
    assert labels("2c 2d") == ["Throw 2 · twos face up, draw 3", "Throw 2 · face down, draw 2"]
    assert labels("X1") == ["Throw 1 · joker face up, draw 2", "Throw 1 · face down, draw 1"]
    assert labels("7h") == ["Throw 1"] and labels("") == ["Stand pat"]
    assert all(len(label) <= 31 for cards in ("2c 2d X1 7h 9s", "X1 7h") for label in labels(cards))


@pytest.mark.parametrize(("game", "structure", "seed"), [
    ("five-card-draw", "no-limit", 3), ("triple-draw-27", "fixed-limit", 5), ("badugi", "fixed-limit", 7),
    ("triple-draw-a5", "fixed-limit", 2), ("holdem", "no-limit", 4), ("razz", "fixed-limit", 6)])
def test_a_hand_is_named_the_same_on_the_table_in_the_private_message_and_in_the_story(
        game: str, structure: str, seed: int) -> None:
    """One style for hand names (issue 33, item 7): the engine's ``describe()`` (``King high``, ``Seven-five low
    (7-5-4-3-2)``, ``Badugi (K-T-7-6)``), word for word on the showdown, under the player's own cards and in the
    night's story (a phone's unbreakable hyphens aside)."""
    rules = GAMES[game]
    hand = Hand(rules, stakes_for(rules, structure, 5, 10), [1000] * 3, seed=seed)
    while not hand.is_complete:
        legal = hand.legal()
        hand.act(Draw() if legal.phase == "drawing" else BringIn() if legal.can_bring_in else CheckCall())
    showdown = "\n".join(_text.showdown_lines(hand, USERS, text)).replace(NBH, "-")
    told = hand_story(hand, USERS, lambda user: f"<@{user}>", width=500)
    shown = [seat for seat in range(3) if hand.shown.get(seat) is not None]
    assert len(shown) == 3
    for seat in shown:
        value = hand.shown[seat]
        assert value is not None
        name = value.describe()
        assert name[:1].isupper() and not name.startswith(("High card", "three-card")) and "badugi" not in name
        assert name in showdown, (name, showdown)
        assert name in told, (name, told)
        assert _hole.best_hand(hand, seat).replace(NBH, "-") == name  # the private message's words
        if rules.family == "draw":
            assert _text.hand_value(hand, seat).replace(NBH, "-") == name


def test_the_hand_names_as_players_say_them() -> None:
    def named(ranking: str, held: str) -> str:
        return evaluate(ranking, parse_cards(held)).describe()

    assert named("high", "Kh 9d 7c 5s 3h") == "King high"
    assert named("high", "6h 6d Kc 9s 3h") == "Pair of sixes"
    assert named("high", "Kh Kd 9c 9s 3h") == "Two pair, kings and nines"
    assert named("deuce-to-seven", "7h 5d 4c 3s 2h") == "Seven-five low (7-5-4-3-2)"
    assert named("deuce-to-seven", "4h 4d 7c 3s 2h") == "Pair of fours (4-4-7-3-2)"
    assert named("badugi", "Ks Td 7c 6h") == "Badugi (K-T-7-6)"
    assert named("badugi", "Ks Qd Ac Ad") == "Three-card hand (K-Q-A)"
    assert assassinated_words(parse_cards("2c")) == "Assassinated (holds a two)"
    assert assassinated_words(parse_cards("2c 2d")) == "Assassinated (holds twos)"
