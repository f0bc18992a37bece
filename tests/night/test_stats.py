"""Player stats from hand facts: known hands, the store's aggregate query, and phone-width lines."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.night.stats as stats_module
from bot.night.facts import FACT_COLUMNS, PlayerHandFacts, hand_facts
from bot.night.stats import (
    WIDTH,
    PlayerStats,
    game_label,
    games_table,
    percent,
    stats_by_game,
    stats_by_player,
    stats_lines,
    total,
)

from .hands import random_hand
from .known import (
    ANN,
    BOB,
    CAT,
    assassin_carry,
    assassin_wins_the_carry,
    big_blind_checks,
    everyone_folds_to_a_raise,
    heads_up_triple_draw,
    three_way_side_pot,
)

KNOWN = [heads_up_triple_draw, three_way_side_pot, everyone_folds_to_a_raise, big_blind_checks, assassin_carry,
         assassin_wins_the_carry]


def known_facts() -> list[PlayerHandFacts]:
    facts: list[PlayerHandFacts] = []
    for build in KNOWN:
        hand = build()
        facts += hand_facts(hand, [ANN, BOB, CAT][:hand.players])
    return facts


def random_facts(rng: random.Random, hands: int) -> list[PlayerHandFacts]:
    facts: list[PlayerHandFacts] = []
    for _ in range(hands):
        hand = random_hand(rng)
        users = rng.sample([ANN, BOB, CAT, 44, 55, 66], hand.players)
        facts += hand_facts(hand, users)
    return facts


def test_anns_night_per_game_and_in_total() -> None:
    by_game = stats_by_game(f for f in known_facts() if f.user_id == ANN)
    assert by_game == {
        "assassin": PlayerStats(hands=2, played=0, raised=0, won=1, showdowns=2, won_at_showdown=1, draws=2,
                                cards_drawn=2, pats=1, biggest_pot=28, net=14),
        "five-card-draw": PlayerStats(1, 1, 1, 1, 1, 1, 1, 0, 1, 150, 100),
        "single-draw-27": PlayerStats(1, 0, 0, 1, 1, 1, 1, 0, 1, 20, 10),
        "single-draw-a5": PlayerStats(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5),
        "triple-draw-27": PlayerStats(1, 1, 0, 1, 0, 0, 2, 2, 1, 60, 30),
    }
    night = total(by_game.values())
    assert night == PlayerStats(hands=6, played=2, raised=1, won=4, showdowns=4, won_at_showdown=3, draws=6,
                                cards_drawn=4, pats=4, biggest_pot=150, net=149)
    assert (night.vpip, night.raise_rate, night.pat_rate) == (33, 17, 67)
    assert night.cards_per_draw == pytest.approx(4 / 6)


def test_bob_and_cat_on_the_board() -> None:
    board = stats_by_player(known_facts())
    assert sorted(board) == [ANN, BOB, CAT]
    assert board[BOB] == PlayerStats(hands=6, played=5, raised=1, won=1, showdowns=4, won_at_showdown=0, draws=6,
                                     cards_drawn=5, pats=3, biggest_pot=140, net=-44)
    assert board[CAT] == PlayerStats(hands=2, played=2, raised=2, won=1, showdowns=0, won_at_showdown=0, draws=1,
                                     cards_drawn=3, pats=0, biggest_pot=25, net=-105)


def test_stats_of_several_players_are_refused_where_one_players_are_expected() -> None:
    with pytest.raises(ValueError, match="3 players"):
        stats_by_game(known_facts())


def test_no_hands_have_no_rates() -> None:
    empty = PlayerStats()
    assert (empty.vpip, empty.raise_rate, empty.pat_rate, empty.cards_per_draw) == (None, None, None, None)
    assert stats_lines(empty) == ["No hands yet"]
    assert total([]) == empty


@pytest.mark.parametrize(("part", "whole", "rate"), [(1, 3, 33), (2, 3, 67), (1, 8, 13), (1, 200, 1), (0, 5, 0)])
def test_percentages_round_half_up(part: int, whole: int, rate: int) -> None:
    assert percent(part, whole) == rate


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40))
def test_stats_add_up_the_same_whether_split_by_game_or_by_session(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    facts = [f for f in random_facts(rng, 40) if f.user_id == ANN]
    whole = total(PlayerStats.of(f) for f in facts)
    assert total(stats_by_game(facts).values()) == whole
    assert total(stats_by_game(facts[:cut]).values()) + total(stats_by_game(facts[cut:]).values()) == whole
    assert whole.hands == len(facts)
    assert whole.biggest_pot == max((f.collected for f in facts), default=0)
    assert whole.net == sum(f.net for f in facts)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_the_documented_aggregate_query_gives_the_same_stats(seed: int) -> None:
    rng = random.Random(seed)
    facts = random_facts(rng, 60)
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    db.execute(f"CREATE TABLE hand_facts (hand_id INTEGER, {', '.join(FACT_COLUMNS)})")
    db.execute("CREATE INDEX hand_facts_user ON hand_facts (user_id, game)")
    db.executemany(f"INSERT INTO hand_facts VALUES (?, {', '.join('?' * len(FACT_COLUMNS))})",
                   [(k, *astuple(f)) for k, f in enumerate(facts)])
    doc = stats_module.__doc__ or ""
    query = doc[doc.index("SELECT"):doc.index("GROUP BY game") + len("GROUP BY game")]
    rows = db.execute(query, (ANN,)).fetchall()
    sums = [dict(row) for row in rows]
    from_sql = {row.pop("game"): PlayerStats(**row) for row in sums}
    assert from_sql == stats_by_game(f for f in facts if f.user_id == ANN)


# ------------------------------------------------------------------------------------------------- formatting


def test_stats_lines_for_a_night() -> None:
    night = total(stats_by_game(f for f in known_facts() if f.user_id == ANN).values())
    assert stats_lines(night) == [
        "Hands 6 · played 2 (33%)",
        "Raised before the draw 17%",
        "Won 4 hands · 3 of 4 showdowns",
        "Drew 0.7 cards a draw · pat 67%",
        "Biggest pot won 150 · net +149",
    ]


def test_a_player_who_never_drew_has_no_draw_line() -> None:
    lines = stats_lines(PlayerStats(hands=3, played=1, net=-30))
    assert lines == ["Hands 3 · played 1 (33%)", "Raised before the draw 0%", "No hand won", "Net -30"]


@pytest.mark.parametrize(("stats", "won", "last"), [
    (PlayerStats(hands=5, showdowns=2, draws=2, net=-95), "No hand won · lost 2 showdowns", "Net -95"),
    (PlayerStats(hands=5, showdowns=1, draws=2, net=-10), "No hand won · lost 1 showdown", "Net -10"),
    (PlayerStats(hands=5, won=1, draws=2, biggest_pot=12, net=7), "Won 1 hand · no showdown",
     "Biggest pot won 12 · net +7"),
    (PlayerStats(hands=5, won=2, showdowns=1, won_at_showdown=1, draws=2, biggest_pot=40, net=25),
     "Won 2 hands · 1 of 1 showdown", "Biggest pot won 40 · net +25"),
])
def test_the_stats_say_in_words_what_a_player_won_and_nothing_reads_as_an_error(
    stats: PlayerStats, won: str, last: str,
) -> None:
    lines = stats_lines(stats)
    assert lines[2] == won and lines[-1] == last
    assert not any(" 0 · " in line or line.endswith(" 0") for line in lines)


@given(st.builds(PlayerStats, *[st.integers(0, 10**7)] * 10, st.integers(-10**12, 10**12)))
def test_every_line_fits_a_phone(stats: PlayerStats) -> None:
    assert all(len(line) <= WIDTH for line in stats_lines(stats))


def test_games_table_lines_up_with_a_total() -> None:
    by_game = stats_by_game(f for f in known_facts() if f.user_id == ANN)
    assert games_table(by_game) == [
        "Game              Hands VPIP        Net",
        "Assassin              2   0%        +14",
        "Five Card Draw        1 100%       +100",
        "2-7 Single Draw       1   0%        +10",
        "A-5 Single Draw       1   0%         -5",
        "2-7 Triple Draw       1 100%        +30",
        "Total                 6  33%       +149",
    ]
    assert games_table({"triple-draw-27": by_game["triple-draw-27"]})[1:] == [
        "2-7 Triple Draw       1 100%        +30",  # one game needs no total
    ]


def test_games_table_shortens_what_does_not_fit() -> None:
    huge = {"a-game-with-a-long-id": PlayerStats(12_345_678, 10, net=-12_345_678_901)}
    assert games_table(huge)[1] == "a-game-with-a-…   12.3M   0%     -12.3B"
    assert games_table({"assassin": PlayerStats(999_999, net=999_999_999)})[1] == (
        "Assassin        999,999   0%      +1.0B"
    )


def test_game_labels_are_short_and_unknown_games_keep_their_id() -> None:
    assert game_label("single-draw-a5") == "A-5 Single Draw"
    assert game_label("a-game-of-next-year") == "a-game-of-next-year"
