"""PHH's multi-hand form: a session written as one .phhs file, split back into hands the engine replays."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pokerkit
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.night.phhs import split_phhs, write_phhs
from bot.poker.phh import PHHError, export_phh, parse_phh, replay

from .hands import night, random_hand

WSOP = Path(__file__).resolve().parent.parent / "data" / "phh" / "wsop-2023-43"


def test_a_night_of_our_own_exports_round_trips_and_every_hand_replays_to_its_stacks() -> None:
    users = [101, 102, 103, 104]
    hands = night(random.Random(9), 25, users, game="assassin", buy_in=30)  # busts, rebuys and carried pots
    texts = [export_phh(h.hand, players=[f"user {u}" for u in h.seat_users], hand=k, table="#poker")
             for k, h in enumerate(hands, 1)]
    document = write_phhs(texts)
    assert document.startswith("[1]\nvariant = ")
    assert document.count("\n[") == len(texts) - 1
    back = split_phhs(document)
    assert back == texts  # our exports come back line for line
    for text, played in zip(back, hands):
        replayed = replay(text)
        assert replayed.is_complete
        assert replayed.stacks == played.hand.stacks == list(played.stacks_after or ())
        assert replayed.carried_out == played.carried_out
        assert replayed.carried_in == played.carried_in


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 2**32), min_size=1, max_size=6))
def test_hands_of_every_game_round_trip(seeds: list[int]) -> None:
    hands = [random_hand(random.Random(seed)) for seed in seeds]
    texts = [export_phh(hand, hand=k) for k, hand in enumerate(hands, 1)]
    back = split_phhs(write_phhs(texts))
    assert back == texts
    assert [replay(text).stacks for text in back] == [hand.stacks for hand in hands]


def test_the_wsop_hands_as_one_file_read_by_pokerkit_and_split_back() -> None:
    texts = [path.read_text(encoding="utf-8") for path in sorted(WSOP.glob("*.phh"))]
    assert len(texts) == 83
    document = write_phhs(texts)
    assert [h.hand for h in pokerkit.HandHistory.loads_all(document)] == [
        parse_phh(text).extra["hand"] for text in texts
    ]
    for original, text in zip(texts, split_phhs(document)):
        assert text.strip() == original.strip()
        doc = parse_phh(text)
        assert replay(doc).stacks == list(doc.finishing_stacks or ())


def test_pokerkits_own_phhs_file_splits_into_hands_we_replay() -> None:
    texts = [path.read_text(encoding="utf-8") for path in sorted(WSOP.glob("*.phh"))[:4]]
    document = pokerkit.HandHistory.dumps_all(pokerkit.HandHistory.loads(text) for text in texts)
    back = split_phhs(document)
    assert [parse_phh(text).actions for text in back] == [parse_phh(text).actions for text in texts]
    assert [replay(text).stacks for text in back] == [list(parse_phh(t).finishing_stacks or ()) for t in texts]


def test_a_table_inside_a_hand_is_nested_under_its_number_and_comes_back() -> None:
    hand = 'variant = "F2L3D"\nhand = 1\n\n[_venue]\nname = "the kitchen"\n'
    document = write_phhs([hand, 'variant = "F2L3D"\nhand = 2\n'])
    assert "[1._venue]" in document
    assert tomllib.loads(document)["1"]["_venue"] == {"name": "the kitchen"}
    back = split_phhs(document)
    assert [tomllib.loads(text) for text in back] == [tomllib.loads(hand), {"variant": "F2L3D", "hand": 2}]
    assert "[_venue]" in back[0]


def test_a_hand_whose_lines_cannot_be_cut_out_is_written_again_with_the_same_fields() -> None:
    document = '[1]\nnote = """\n[2]\n"""\nhand = 1\n\n[2]\nhand = 2\n'  # a header-like line in a string
    back = split_phhs(document)
    assert [tomllib.loads(text) for text in back] == [{"note": "[2]\n", "hand": 1}, {"hand": 2}]


def test_a_header_like_line_in_a_string_is_refused_when_writing() -> None:
    with pytest.raises(PHHError, match="hand 1 does not read back the same"):
        write_phhs(['note = """\n[x]\n"""\n'])


def test_a_file_that_is_not_a_phhs_file_gets_a_clear_answer() -> None:
    with pytest.raises(PHHError, match="not valid TOML"):
        split_phhs("[1]\nvariant = ")
    with pytest.raises(PHHError, match="is this a single hand"):
        split_phhs(export_phh(random_hand(random.Random(1))))
    with pytest.raises(PHHError, match="hand 2 is not valid TOML"):
        write_phhs(['variant = "F2L3D"\n', "variant = "])


def test_no_hands_make_an_empty_file() -> None:
    assert write_phhs([]) == ""
    assert split_phhs("") == []
