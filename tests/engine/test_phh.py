"""Hand histories (docs/rules.md section 22.3): the WSOP replays, export/replay round trips and pokerkit's reading."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from bot.poker import DRAW_GAMES, DRAW_LIMITS, STRUCTURES, DrawLimit, Hand, Stakes, Structure
from bot.poker.cards import UNKNOWN, parse_cards
from bot.poker.phh import PHHError, ReplayError, export_phh, parse_phh, phh_seen_by, replay, seen_by
from bot.tools.replay import replay_command
from tests.engine.helpers import choose, deal_after_each_discard, play_randomly, stacked, with_actions

ROOT = Path(__file__).resolve().parents[2]
WSOP = Path(__file__).resolve().parent.parent / "data" / "phh" / "wsop-2023-43"
WSOP_FILES = sorted(WSOP.glob("*.phh"))

def wsop_text(name: str) -> str:
    return (WSOP / name).read_text(encoding="utf-8")


def assert_round_trip(hand: Hand, /, **fields: object) -> Hand:
    text = export_phh(hand, **fields)
    doc = parse_phh(text)
    again = replay(doc)
    assert again.phase == hand.phase
    assert again.stacks == hand.stacks
    assert again.carried_out == hand.carried_out
    assert again.history == hand.history
    assert again.actions == hand.actions
    if hand.is_complete:
        assert doc.finishing_stacks == tuple(hand.stacks)
        assert sum(again.stacks) + again.carried_out == sum(hand.starting_stacks) + hand.carried_in
    return again


# --- the WSOP hands --------------------------------------------------------------------------------------------------


def test_all_eighty_three_wsop_hands_of_the_nine_games_are_here() -> None:
    numbers = sorted(int(p.stem) for p in WSOP_FILES)
    assert numbers == [n for n in range(1, 86) if n not in (19, 70)]
    variants = {parse_phh(p.read_text(encoding="utf-8")).variant for p in WSOP_FILES}
    assert variants == {"NT", "F7S", "FO/8", "FR", "PO", "FT", "N2L1D", "F7S/8", "F2L3D"}


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in WSOP_FILES])
def test_wsop_hand_replays_to_its_finishing_stacks(path: Path) -> None:
    doc = parse_phh(path.read_text(encoding="utf-8"))
    hand = replay(doc)
    assert hand.is_complete
    assert doc.finishing_stacks is not None
    assert hand.stacks == list(doc.finishing_stacks)
    assert hand.carried_out == 0


@pytest.mark.parametrize("path", WSOP_FILES, ids=lambda p: p.name)
def test_wsop_replay_exports_and_replays_again(path: Path) -> None:
    doc = parse_phh(path.read_text(encoding="utf-8"))
    hand = replay(doc)
    again = assert_round_trip(hand, players=list(doc.players) if doc.players else None, hand=doc.extra["hand"])
    assert again.game.id == doc.game.id and again.stakes.structure == doc.structure


def test_wsop_fields_are_read() -> None:
    doc = parse_phh(wsop_text("55.phh"))
    assert doc.variant == "F2L3D" and doc.game.id == "triple-draw-27" and doc.structure == "fixed-limit"
    assert (doc.small_bet, doc.big_bet, doc.raise_cap) == (250000, 500000, None)
    stakes = doc.stakes()
    assert stakes.raise_cap == 5 and stakes.small_blind == 125000 and stakes.big_blind == 250000
    assert doc.players is not None and doc.players[0] == "James Obst"
    assert doc.extra["hand"] == 55 and str(doc.extra["event"]).startswith("2023 World Series of Poker")
    big_blind_ante = parse_phh(wsop_text("45.phh"))
    assert big_blind_ante.stakes().antes == (0, 225000, 0, 0, 0)
    assert big_blind_ante.stakes().min_bet == 150000


def test_replay_command_prints_json_and_exits_0() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(WSOP / "55.phh")],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"finishing_stacks": [4625000, 3000000, 14550000, 4575000, 2950000],
                                         "carried": 0}
    assert result.stdout.count("\n") == 1


def test_replay_command_exits_2_naming_an_illegal_action(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(wsop_text("41.phh").replace("'p4 cbr 200000'", "'p4 cbr 150000'"), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "action 7 'p4 cbr 150000': the smallest raise is to 200,000" in result.stderr


def test_replay_command_exits_1_when_the_finishing_stacks_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "wrong.phh"
    path.write_text(wsop_text("41.phh").replace("[7200000, 2600000,", "[7200001, 2599999,"), encoding="utf-8")
    assert replay_command(str(path)) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["finishing_stacks"] == [7200000, 2600000, 4800000, 775000, 14325000]
    assert "[7200001, 2599999, 4800000, 775000, 14325000]" in err
    assert "[7200000, 2600000, 4800000, 775000, 14325000]" in err


def test_replay_command_exits_0_without_finishing_stacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "open.phh"
    path.write_text(re.sub(r"(?m)^finishing_stacks = .*$", "", wsop_text("57.phh")), encoding="utf-8")
    assert replay_command(str(path)) == 0
    assert json.loads(capsys.readouterr().out) == {
        "finishing_stacks": [14175000, 2325000, 2950000, 5000000, 5250000], "carried": 0,
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "no such file"),
        ("variant = 'F2L3D\nactions = [", "not valid TOML"),
        ("variant = 'F2L3D'\nstarting_stacks = [10, 10]\n", "actions field is missing"),
        ("variant = 'NH'\nstarting_stacks = [10, 10]\nactions = []\n", "unknown PHH variant 'NH'"),
    ],
)
def test_replay_command_exits_2_on_a_file_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, message: str
) -> None:
    path = tmp_path / "hand.phh"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    assert replay_command(str(path)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err


def test_replay_command_exits_2_when_the_history_stops_before_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.phh"
    actions = list(parse_phh(wsop_text("55.phh")).actions)
    cut = actions.index("d dh p2 7s7c5c") + 1  # after the first draw, before p1's bet
    path.write_text(with_actions(wsop_text("55.phh"), actions[:cut]), encoding="utf-8")
    assert replay_command(str(path)) == 2
    assert "ends before the hand is over (p1 is to act, phase betting)" in capsys.readouterr().err


# --- illegal actions and impossible cards ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        pytest.param("41.phh", "'p4 cbr 200000'", "'p4 cbr 150000'",
                     "action 7 'p4 cbr 150000': the smallest raise is to 200,000", id="raise-below-minimum"),
        pytest.param("41.phh", "'p3 f', 'p4 cbr 200000'", "'p4 cbr 200000', 'p3 f'",
                     "action 6 'p4 cbr 200000': it is p3's turn, not p4's", id="out-of-turn"),
        pytest.param("57.phh", "'p5 cbr 1000000', 'p2 cc'", "'p5 cbr 1000000', 'p2 cbr 1400000'",
                     "action 31 'p2 cbr 1400000': you can only raise to 1,500,000", id="fixed-limit-raise-size"),
        pytest.param("42.phh", "'d dh p3 Ah9s8s8c2c'", "'d dh p3 Ah9s8s8cQh'",
                     "action 3 'd dh p3 Ah9s8s8cQh': Qh was already dealt in action 2", id="initial-card-dealt-twice"),
        pytest.param("55.phh", "'d dh p1 As6s'", "'d dh p1 Ks6s'",
                     "action 13 'd dh p1 Ks6s' (the draw of action 11 'p1 sd QdJc'): Ks is in p2's hand",
                     id="draw-card-held-by-another"),
        pytest.param("55.phh", "'d dh p1 As6s'", "'d dh p1 Qd6s'",
                     "action 13 'd dh p1 Qd6s' (the draw of action 11 'p1 sd QdJc'): "
                     "p1 threw Qd in this draw and is never dealt it back", id="card-dealt-back-to-discarder"),
        pytest.param("61.phh", "'d dh p5 Jc'", "'d dh p5 Qh'",
                     "action 26 'd dh p5 Qh' (the draw of action 25 'p5 sd 7d'): Qh cannot be dealt",
                     id="card-thrown-in-an-earlier-draw"),
        pytest.param("55.phh", "'p1 sd QdJc'", "'p1 sd QdJs'", "action 11 'p1 sd QdJs': you do not hold Js",
                     id="discard-not-held"),
        pytest.param("55.phh", "'d dh p1 As6s'", "'d dh p1 As'",
                     "action 13 'd dh p1 As': p1 receives 2 cards for action 11 'p1 sd QdJc', not 1",
                     id="too-few-replacements"),
        pytest.param("55.phh", "'d dh p1 As6s'", "'d dh p1 As6s5s'",
                     "action 13 'd dh p1 As6s5s': p1 receives 2 cards in this draw, not 3", id="too-many"),
        pytest.param("55.phh", "'p2 sm 4c2s7c5c6h'", "'p2 sm'",
                     "action 29 'p2 sm': p2 wins at the showdown and cannot muck", id="winner-mucks"),
        pytest.param("55.phh", "'p2 sm 4c2s7c5c6h'", "'p2 sm 4c2s7c5c6d'",
                     "action 29 'p2 sm 4c2s7c5c6d': p2 holds 4c2s7c5c6h", id="shows-other-cards"),
        pytest.param("56.phh", "'p2 f']", "'p2 f', 'p2 sm']",
                     "action 11 'p2 sm': p2 has folded", id="show-after-folding"),
        pytest.param("56.phh", "'p1 f', 'p2 f'", "'p1 f', 'p2 f', 'p5 cc'",
                     "action 11 'p5 cc': the hand is over", id="action-after-the-end"),
        pytest.param("56.phh", "'p3 f'", "'p3 xx'", "action 6 'p3 xx': 'xx' is not an action", id="unknown-verb"),
        pytest.param("56.phh", "'p3 f'", "'p9 f'", "action 6 'p9 f': there is no player p9", id="no-such-player"),
        pytest.param("56.phh", "'d dh p1 AhKhQs4h3h'", "'d dh p1 AhKhQs4hX1'",
                     "action 1 'd dh p1 AhKhQs4hX1': X1 is not in this deck", id="joker-without-jokers"),
        pytest.param("56.phh", "'d dh p1 AhKhQs4h3h'", "'d dh p1 AhKhQs4h'",
                     "action 1 'd dh p1 AhKhQs4h': p1 is dealt 4 cards", id="short-initial-hand"),
        pytest.param("55.phh", "'d dh p1 As6s'", "'d dh p3 As6s'",
                     "action 13 'd dh p3 As6s': p3 has not discarded in this draw", id="cards-to-a-player-not-drawing"),
    ],
)
def test_an_edited_wsop_hand_is_refused_naming_the_action(name: str, old: str, new: str, message: str) -> None:
    text = wsop_text(name)
    assert old in text
    with pytest.raises(ReplayError) as raised:
        replay(text.replace(old, new))
    assert message in str(raised.value)


def test_an_out_of_turn_fold_is_a_player_leaving() -> None:
    # The engine folds a player who leaves the table at any time, and records it as 'pN f'.
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 1, 2), [50, 50, 50, 50], seed=7)
    hand.act("cc")
    hand.fold(3)
    assert hand.history[-1] == "p4 f"
    play_randomly(hand, 7)
    assert_round_trip(hand)


def test_a_fold_in_a_draw_round_trips() -> None:
    hand = Hand("double-draw-a5", Stakes("fixed-limit", 1, 2), [50, 50, 50], seed=3)
    for action in ("cc", "cc", "cc", "sd", "f"):
        hand.act(action)
    play_randomly(hand, 3)
    assert_round_trip(hand)


# --- export ----------------------------------------------------------------------------------------------------------


def test_export_writes_the_fields_of_rules_section_6() -> None:
    hand = Hand("assassin", Stakes("pot-limit", 1, 2, ante=1), [100, 100, 100], seed=11, jokers=True,
                draw_limit="3-or-4-with-ace", carried_in=9)
    text = export_phh(hand, players=["Ann", 'Bob "the" O\'Neil', "Cé"], hand=12, table="#poker")
    data = tomllib.loads(text)
    assert data["variant"] == "PAS"
    assert data["antes"] == [1, 1, 1] and data["ante_trimming_status"] is True
    assert data["blinds_or_straddles"] == [1, 2, 0]
    assert data["min_bet"] == 2 and "small_bet" not in data
    assert data["starting_stacks"] == [100, 100, 100]
    assert data["actions"] == hand.history and "finishing_stacks" not in data
    assert data["players"] == ["Ann", 'Bob "the" O\'Neil', "Cé"] and data["hand"] == 12 and data["table"] == "#poker"
    assert data["_jokers"] is True and data["_draw_limit"] == "3-or-4-with-ace"
    assert data["_carried_in"] == 9 and data["_seed"] == 11
    assert "_raise_cap" not in data and "_big_bet_round" not in data

    fixed = Hand("double-draw-27", Stakes("fixed-limit", 1, 2, raise_cap=4), [40, 40], seed=1)
    data = tomllib.loads(export_phh(fixed, seed=None, _note="x"))
    assert data["variant"] == "F2L2D" and data["small_bet"] == 2 and data["big_bet"] == 4
    assert data["_raise_cap"] == 4 and data["_big_bet_round"] == 3 and data["_note"] == "x"
    assert "_seed" not in data and "_jokers" not in data and "_draw_limit" not in data and "_carried_in" not in data


def test_export_refuses_unknown_or_computed_fields() -> None:
    hand = Hand("five-card-draw", Stakes("no-limit", 1, 2), [40, 40], seed=1)
    with pytest.raises(ValueError, match="not a PHH field"):
        export_phh(hand, nickname="x")
    with pytest.raises(ValueError, match="written from the hand"):
        export_phh(hand, actions=[])
    with pytest.raises(ValueError, match="one name per seat"):
        export_phh(hand, players=["a"])


def test_an_unfinished_hand_exports_and_replays_to_the_same_spot() -> None:
    hand = Hand("triple-draw-a6", Stakes("fixed-limit", 1, 2), [60, 60, 60], seed=5)
    rng = random.Random(5)
    for _ in range(9):
        hand.act(choose(hand, rng))
    again = assert_round_trip(hand)
    assert not again.is_complete
    assert (again.actor, again.round, again.bets) == (hand.actor, hand.round, hand.bets)
    assert again.holes == hand.holes


def test_an_unfinished_hand_may_stop_as_a_draw_begins() -> None:
    hand = Hand("single-draw-a5", Stakes("fixed-limit", 1, 2), [60, 60, 60], seed=5)
    for action in ("cc", "cc", "cc"):
        hand.act(action)
    assert hand.phase == "drawing"
    assert_round_trip(hand)


# --- round trips -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(DRAW_GAMES))
@pytest.mark.parametrize("structure", STRUCTURES)
def test_round_trip_of_every_game_and_structure(game_id: str, structure: Structure) -> None:
    game = DRAW_GAMES[game_id]
    for seed in range(8):
        rng = random.Random(seed * 1000 + 17)
        n = (2, 3, game.max_players, rng.randint(2, game.max_players))[seed % 4]
        stacks = [rng.randint(8, 400) for _ in range(n)]
        jokers = game.assassin and seed % 2 == 1
        draw_limit: DrawLimit = DRAW_LIMITS[seed % 3] if game.allows_draw_limit else "none"
        if game.ranking == "high" and seed % 4 == 3:  # antes only
            fixed = structure == "fixed-limit"
            stakes = Stakes(structure, ante=rng.randint(1, 3), small_bet=2 if fixed else None,
                            min_bet=None if fixed else 2)
        else:
            stakes = Stakes(structure, 1, 2, ante=seed % 3, raise_cap=4 + seed % 2)
        hand = play_randomly(Hand(game, stakes, stacks, seed=seed, jokers=jokers, draw_limit=draw_limit), seed)
        assert_round_trip(hand)


def test_assassin_with_jokers_face_up_twos_and_a_carried_pot_round_trips() -> None:
    face_up = carried = 0
    for seed in range(400):
        hand = Hand("assassin", Stakes("no-limit", 1, 2), [100] * (3 + seed % 4), seed=seed, jokers=True)
        play_randomly(hand, seed, raise_rate=0.1, face_up_rate=0.5)
        face_up += any(a.split()[1] == "sdu" for a in hand.actions)
        carried += hand.carried_out > 0
        again = assert_round_trip(hand)
        if hand.carried_out:
            assert again.carried_out == hand.carried_out
        if face_up >= 5 and carried >= 2:
            break
    assert face_up >= 5 and carried >= 2


def test_carried_chips_round_trip() -> None:
    hand = play_randomly(Hand("triple-draw-27", Stakes("fixed-limit", 2, 4), [80, 80, 80], seed=2, carried_in=37), 2)
    again = assert_round_trip(hand)
    assert again.carried_in == 37
    assert "_carried_in = 37" in export_phh(hand)
    assert sum(hand.stacks) + hand.carried_out == 240 + 37


def test_per_seat_antes_round_trip() -> None:
    for n in (2, 3, 5):
        antes = tuple(range(1, n + 1))
        hand = play_randomly(Hand("five-card-draw", Stakes("no-limit", 1, 2, antes=antes), [90] * n, seed=n), n)
        data = tomllib.loads(export_phh(hand))
        assert data["ante_trimming_status"] is False
        assert data["antes"] == (list(antes) if n > 2 else [2, 1])  # heads-up: pokerkit's reversed order
        again = assert_round_trip(hand)
        assert again.stakes.antes == antes


def test_heads_up_blinds_and_antes_agree_with_pokerkit() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 2, 4, antes=(3, 1)), [60, 70], seed=4)
    assert hand.contributed == [3 + 4, 1 + 2]  # seat 0 (p1) posts the big blind, the button the small blind
    text = export_phh(hand)
    data = tomllib.loads(text)
    assert data["blinds_or_straddles"] == [2, 4] and data["antes"] == [1, 3]
    state = pokerkit.HandHistory.loads(text).create_state()
    assert [state.get_effective_ante(i) for i in range(2)] == [3, 1]
    assert [state.get_effective_blind_or_straddle(i) for i in range(2)] == [4, 2]
    again = replay(text)
    assert again.contributed == hand.contributed and again.stakes.antes == (3, 1)


def test_heads_up_round_trips_in_every_structure() -> None:
    for structure in STRUCTURES:
        for seed in range(10):
            hand = play_randomly(Hand("double-draw-a6", Stakes(structure, 1, 2), [30, 55], seed=seed), seed)
            assert_round_trip(hand)


def test_a_draw_round_is_written_every_discard_first_then_the_replacements() -> None:
    # docs/rules.md section 22.3: at the table p1 gets his two cards before p2 discards; the history writes it
    # as the standard, pokerkit and the WSOP files do.
    deck = stacked(["7s5d4h3c2s", "KdQcJh9s8d", "AhAdAcKsKh"], "Ts", "6h6d", "5s")
    hand = Hand("single-draw-27", Stakes("no-limit", 1, 2), [100] * 3, deck=deck)
    for action in ("cc", "cc", "cc", "sd", "sd KdQc", "sd Ks", "cc", "cc", "cc"):
        hand.act(action)
    draw = hand.history[hand.history.index("p1 sd"):hand.history.index("p1 sd") + 5]
    assert draw == ["p1 sd", "p2 sd KdQc", "p3 sd Ks", "d dh p2 6h6d", "d dh p3 5s"]
    assert hand.actions[-6:-3] == ["p1 sd", "p2 sd KdQc", "p3 sd Ks"]


def test_a_fold_in_a_draw_round_is_written_among_the_discards() -> None:
    deck = stacked(["7s5d4h3cKs", "AhAdAcQsQh", "8s6d4s3d2h", "9c7d5h4cJd"], "Ts", "2s", "8c6c")
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 1, 2), [100] * 4, deck=deck)
    for action in ("cc", "cc", "cc", "cc", "sd Ks", "f", "sd", "sd Jd9c"):
        hand.act(action)
    start = hand.history.index("p1 sd Ks")
    assert hand.history[start:] == ["p1 sd Ks", "p2 f", "p3 sd", "p4 sd Jd9c", "d dh p1 2s", "d dh p4 8c6c"]
    assert replay(export_phh(hand)).history == hand.history


def test_the_older_layout_with_each_deal_after_its_discard_still_replays() -> None:
    for seed in range(30):
        hand = play_randomly(Hand("triple-draw-a5", Stakes("fixed-limit", 1, 2), [80] * 5, seed=seed), seed)
        older = deal_after_each_discard(hand.history)
        assert older != hand.history
        again = replay(with_actions(export_phh(hand), older))
        assert again.stacks == hand.stacks and again.history == hand.history


# --- deck exhaustion -------------------------------------------------------------------------------------------------


def draw_five_each(hand: Hand) -> Hand:
    """Everyone calls or checks and throws his whole hand at every draw."""
    while not hand.is_complete:
        legal = hand.legal()
        hand.act("sd " + "".join(c.code for c in legal.hand) if legal.phase == "drawing" else "cc")
    return hand


@pytest.mark.parametrize(
    ("game_id", "players"), [("single-draw-27", 7), ("triple-draw-27", 6), ("double-draw-a5", 6), ("assassin", 8)]
)
def test_a_hand_that_runs_out_of_stub_exports_and_replays_exactly(game_id: str, players: int) -> None:
    for seed in range(3):
        hand = draw_five_each(Hand(game_id, Stakes("no-limit", 1, 2), [50] * players, seed=seed))
        assert hand.deck.reshuffles >= 1
        again = assert_round_trip(hand)
        assert again.deck.reshuffles == hand.deck.reshuffles


def exhausted_history() -> tuple[Hand, list[str]]:
    hand = draw_five_each(Hand("single-draw-27", Stakes("no-limit", 1, 2), [50] * 7, seed=0))
    return hand, list(hand.history)


def test_after_a_reshuffle_a_player_still_never_gets_back_what_he_threw() -> None:
    # 35 cards dealt, one burned: 16 left serve p1-p3; p4 gets one card, then the stub is reshuffled.
    hand, history = exhausted_history()
    p4_draw = history.index(next(a for a in history if a.startswith("p4 sd")))
    thrown = parse_cards(history[p4_draw].split()[2])
    dealt = next(a for a in history[p4_draw:] if a.startswith("d dh p4 "))
    served = parse_cards(dealt.split()[3])
    forged = "d dh p4 " + "".join(c.code for c in [*served[:-1], thrown[0]])
    with pytest.raises(ReplayError, match=f"p4 threw {thrown[0]} in this draw and is never dealt it back"):
        replay(export_phh(hand).replace(dealt, forged))


def test_after_a_reshuffle_a_later_player_does_not_get_what_the_reshuffler_threw() -> None:
    hand, history = exhausted_history()
    p4_draw = history.index(next(a for a in history if a.startswith("p4 sd")))
    thrown = parse_cards(history[p4_draw].split()[2])
    p5_deal = next(a for a in history[p4_draw:] if a.startswith("d dh p5 "))
    served = parse_cards(p5_deal.split()[3])
    forged = "d dh p5 " + "".join(c.code for c in [thrown[0], *served[1:]])
    cut = history.index(p5_deal)
    with pytest.raises(ReplayError, match="cannot be dealt"):
        replay(with_actions(export_phh(hand), [*history[:cut], forged]))


# --- cards nobody saw ------------------------------------------------------------------------------------------------


def test_unseen_cards_are_shown_or_mucked_at_the_showdown() -> None:
    # Hand 57 with the initial hands of the two players who reach the showdown unknown.
    text = wsop_text("57.phh").replace("d dh p2 AsKs8s5h4c", "d dh p2 ??????????").replace(
        "d dh p5 AcTd7h3d2s", "d dh p5 ??????????"
    )
    hand = replay(text)
    assert hand.stacks == [14175000, 2325000, 2950000, 5000000, 5250000]
    assert hand.holes[4] == parse_cards("7h3d2s5c6h")
    assert hand.folded[1]  # p2 mucked


def test_a_shown_card_must_be_one_nobody_holds() -> None:
    text = wsop_text("57.phh").replace("d dh p5 AcTd7h3d2s", "d dh p5 ??????????")
    with pytest.raises(ReplayError, match=r"action 32 'p5 sm 7h3dQs5c6h': Qs cannot be in p5's hand"):
        replay(text.replace("'p5 sm 7h3d2s5c6h'", "'p5 sm 7h3dQs5c6h'"))  # Qs was p1's, who folded


def test_a_replay_waits_for_unseen_hands_to_be_shown() -> None:
    text = wsop_text("57.phh").replace("d dh p5 AcTd7h3d2s", "d dh p5 ??????????")
    hand = replay(text.replace(", 'p5 sm 7h3d2s5c6h', 'p2 sm'", ""))
    assert hand.phase == "showdown" and hand.actor == 4


def test_unknown_cards_round_trip_through_export() -> None:
    hand = replay(wsop_text("60.phh"))  # p1's hand and one of p2's cards are unknown
    assert UNKNOWN in hand.holes[0]
    assert_round_trip(hand)


# --- only what was shown --------------------------------------------------------------------------------------------


def shown_hand() -> Hand:
    """2-7 single draw: p1 pat and p2 drawing two go to the showdown; p3 draws one and folds, never showing."""
    deck = stacked(["7s5d4h3c2s", "KdQcJh9s8d", "AhAdAcKsKh"], "Ts", "6h6d", "5s")
    hand = Hand("single-draw-27", Stakes("no-limit", 1, 2), [100] * 3, deck=deck)
    for action in ("cc", "cc", "cc", "sd", "sd KdQc", "sd Ks", "cbr 4", "cc", "f"):
        hand.act(action)
    return hand


def test_a_history_given_to_a_member_shows_the_cards_shown_at_the_table_and_his_own() -> None:
    hand = shown_hand()
    shown = ["p1 sm 7s5d4h3c2s", "p2 sm Jh9s8d6h6d"]
    assert seen_by(hand.history, ()) == [  # a bystander: the showdown only
        "d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????", "p3 cc", "p1 cc", "p2 cc",
        "p1 sd", "p2 sd ????", "p3 sd ??", "d dh p2 ????", "d dh p3 ??", "p1 cbr 4", "p2 cc", "p3 f", *shown,
    ]
    theirs = seen_by(hand.history, (2,))  # p3 sees his own folded hand, and still not p2's draw
    assert theirs[2] == "d dh p3 AhAdAcKsKh" and theirs[8:11] == ["p3 sd Ks", "d dh p2 ????", "d dh p3 5s"]
    assert theirs[1] == "d dh p2 ??????????" and theirs[-2:] == shown
    assert seen_by(hand.history, (0, 1, 2)) == hand.history


def test_cards_written_apart_or_with_a_comment_are_hidden_alike() -> None:
    assert seen_by(["d dh p1 As Kd 2c", "p1 sd As Kd # bluffing", "p2 sd Qs"], (1,)) == [
        "d dh p1 ??????", "p1 sd ????", "p2 sd Qs"]


def test_assassins_face_up_twos_are_shown_to_everyone_and_the_face_down_cards_are_not() -> None:
    assert seen_by(["p2 sdu 2hKsX1", "d dh p2 4c5d6h7s", "p3 sd 2c", "p2 sm 4c5d6h7sQd9c"], ()) == [
        "p2 sdu 2h??X1", "d dh p2 ????????", "p3 sd ??", "p2 sm 4c5d6h7sQd9c",
    ]


def test_a_history_given_to_a_member_leaves_out_the_seed_that_deals_every_card_again() -> None:
    hand = play_randomly(Hand("triple-draw-27", Stakes("fixed-limit", 1, 2), [100] * 4, seed=8), 8)
    text = export_phh(hand, players=["11", "12", "13", "14"], _hand_id=3)
    assert "_seed = 8" in text
    seen = phh_seen_by(text, (1,))
    data, original = tomllib.loads(seen), tomllib.loads(text)
    assert "_seed" not in data and data["actions"] == seen_by(hand.history, (1,))
    assert {k: v for k, v in data.items() if k != "actions"} == {
        k: v for k, v in original.items() if k not in ("actions", "_seed")}


def test_a_history_of_an_earlier_version_is_given_to_a_member_in_the_standard_order() -> None:
    hand = play_randomly(Hand("triple-draw-27", Stakes("fixed-limit", 1, 2), [100] * 4, seed=9), 9)
    older = with_actions(export_phh(hand), deal_after_each_discard(hand.history))  # as the bot kept it before
    assert tomllib.loads(older)["actions"] != hand.history
    assert tomllib.loads(phh_seen_by(older, range(4)))["actions"] == hand.history
    assert tomllib.loads(phh_seen_by(older, ()))["actions"] == seen_by(hand.history, ())


@pytest.mark.parametrize("game_id", sorted(DRAW_GAMES))
def test_a_history_given_to_a_member_still_replays_to_the_same_stacks(game_id: str) -> None:
    hidden = 0
    for seed in range(12):
        rng = random.Random(seed)
        players = rng.randint(2, min(6, DRAW_GAMES[game_id].max_players))
        hand = Hand(game_id, Stakes("no-limit", 1, 2), [rng.choice([6, 40, 200]) for _ in range(players)],
                    seed=seed, jokers=DRAW_GAMES[game_id].assassin and seed % 2 == 0)
        hand = draw_five_each(hand) if seed % 4 == 0 else play_randomly(hand, seed)  # reshuffles too
        for seats in ((), (rng.randrange(players),)):
            again = replay(phh_seen_by(export_phh(hand), seats))
            assert again.is_complete and (again.stacks, again.carried_out) == (hand.stacks, hand.carried_out)
            assert {seat: again.holes[seat] for seat in again.shown} == {seat: hand.holes[seat] for seat in hand.shown}
            hidden += any("??" in a for a in again.history)
    assert hidden


# --- parsing ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("antes = [0, 0, 0, 0, 0]", "antes = [0, 0, 0]"), "antes: expected 5 entries"),
        (("blinds_or_straddles = [125000, 250000, 0, 0, 0]", "blinds_or_straddles = [125000, 250000, 500000, 0, 0]"),
         "straddles are not played here"),
        (("blinds_or_straddles = [125000, 250000, 0, 0, 0]", "blinds_or_straddles = [250000, 125000, 0, 0, 0]"),
         "the small blind cannot be larger than the big blind"),
        (("small_bet = 250000", "small_bet = 'lots'"), "small_bet: expected a whole number"),
        (("variant = 'F2L3D'", "variant = 'F2L3D'\n_draw_limit = 'two'"), "_draw_limit: 'two' is not one of"),
        (("variant = 'F2L3D'", "variant = 'F2L3D'\n_jokers = 1"), "_jokers: write true or false"),
        (("variant = 'F2L3D'", "variant = 'F2L3D'\n_jokers = true"), "jokers are an Assassin option"),
        (("variant = 'F2L3D'", "variant = 'F2L3D'\n_raise_cap = 0"), "_raise_cap"),
        (("starting_stacks = [6125000, 1500000, 14550000, 4575000, 2950000]", "starting_stacks = [6125000]"),
         "at least two players"),
        (("'p3 f'", "3"), "actions: expected text entries"),
        (("'p3 f'", "'d db AsKsQs'"), "action 6 'd db AsKsQs': draw games deal no board cards"),
    ],
)
def test_malformed_documents_are_refused(edit: tuple[str, str], message: str) -> None:
    text = wsop_text("55.phh")
    assert edit[0] in text
    with pytest.raises(PHHError, match=re.escape(message)):
        replay(text.replace(*edit))


def test_comments_in_actions_are_ignored() -> None:
    text = wsop_text("56.phh").replace("'p3 f'", "'p3 f # folds quickly', '# a note'")
    assert replay(text).stacks == [2875000, 14300000, 4575000, 2950000, 5000000]


# --- pokerkit reads our exports ---------------------------------------------------------------------------------------


def test_pokerkit_reads_our_f2l3d_and_n2l1d_exports_to_the_same_stacks() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    from pokerkit.state import CheckingOrCalling, CompletionBettingOrRaisingTo, Folding, StandingPatOrDiscarding

    player_operations = (Folding, CheckingOrCalling, CompletionBettingOrRaisingTo, StandingPatOrDiscarding)
    checked = showdowns = heads_up = all_in = reshuffled = 0
    cases: tuple[tuple[str, Structure, str], ...] = (
        ("triple-draw-27", "fixed-limit", "F2L3D"), ("single-draw-27", "no-limit", "N2L1D"),
    )
    for game_id, structure, variant in cases:
        for seed in range(150):
            rng = random.Random(seed)
            n = rng.randint(2, 6)
            stacks = [2 * rng.randint(10, 300) for _ in range(n)]
            stakes = Stakes(structure, 2, 4, ante=rng.choice((0, 0, 1, 3)), raise_cap=5)
            hand = play_randomly(Hand(game_id, stakes, stacks, seed=seed), seed, pokerkit_safe=True, raise_rate=0.35)
            text = export_phh(hand)
            assert text.startswith(f'variant = "{variant}"')
            history = pokerkit.HandHistory.loads(text)  # as written: every discard of a draw, then the deals
            with warnings.catch_warnings():
                # a reshuffled stub: pokerkit warns that it deals cards back from its muck
                warnings.simplefilter("ignore")
                *_, state = iter(history)
            assert list(state.stacks) == hand.stacks, (seed, text)
            # pokerkit fills in checks and folds it misses: every player action must be read as ours, no more
            ours = sum(a.split()[1] in ("f", "cc", "cbr", "sd") for a in hand.actions)
            assert sum(isinstance(op, player_operations) for op in state.operations) == ours, (seed, text)
            checked += 1
            showdowns += len(hand.shown) > 1
            heads_up += n == 2
            all_in += 0 in hand.stacks
            reshuffled += hand.deck.reshuffles > 0
    assert checked == 300 and showdowns >= 50 and heads_up >= 20 and all_in >= 30 and reshuffled >= 3


def test_pokerkit_reads_the_wsop_hands_we_replay() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    for path in WSOP_FILES:
        text = path.read_text(encoding="utf-8")
        *_, state = iter(pokerkit.HandHistory.loads(text))
        assert list(state.stacks) == list(parse_phh(text).finishing_stacks or ())

