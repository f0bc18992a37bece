"""The chip graph's data (buy-ins and rebuys are no jump) and its PNG."""

from __future__ import annotations

import random
import struct

import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.night.graph import SIZE_PX, chip_graph_png, net_series

from .hands import NightHand, night

ANN, BOB, CAT = 11, 22, 33


def record(users: tuple[int, ...], before: tuple[int, ...], after: tuple[int, ...] | None) -> NightHand:
    return NightHand(users, before, after, 0, 0, None)  # type: ignore[arg-type]


def test_each_line_adds_up_what_each_hand_changed_and_a_rebuy_is_no_jump() -> None:
    hands = [
        record((ANN, BOB), (200, 200), (0, 400)),  # ann busts
        record((BOB, ANN), (400, 200), (350, 250)),  # ann rebought 200 before this hand: no jump
        record((ANN, BOB, CAT), (250, 350, 100), (150, 350, 200)),  # cat joins
        record((ANN, BOB, CAT), (150, 350, 200), None),  # voided: skipped, numbers no hand
        record((BOB, CAT), (350, 200), (300, 250)),  # ann left
    ]
    assert net_series(hands) == {
        ANN: [(0, 0), (1, -200), (2, -150), (3, -250)],
        BOB: [(0, 0), (1, 200), (2, 150), (3, 150), (4, 100)],
        CAT: [(2, 0), (3, 100), (4, 150)],
    }


def test_refunded_carried_chips_end_the_line_at_the_session_net() -> None:
    hands = [record((ANN, BOB), (100, 100), (98, 98))]  # 4 chips carried and never played
    assert net_series(hands, refunds={ANN: 2, BOB: 2}) == {ANN: [(0, 0), (1, 0)], BOB: [(0, 0), (1, 0)]}


def test_a_hand_whose_stacks_do_not_match_its_players_is_refused() -> None:
    with pytest.raises(ValueError, match="hand 1 names 2 players for 2 stacks before and 3 after"):
        net_series([record((ANN, BOB), (100, 100), (50, 50, 100))])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["five-card-draw", "assassin", "triple-draw-a5"]))
def test_a_nights_lines_end_at_each_players_net_and_add_up_to_the_carried_chips(seed: int, game: str) -> None:
    users = [101, 102, 103, 104, 105]
    hands = night(random.Random(seed), 60, users, game=game, buy_in=40)  # small stacks: rebuys happen
    series = net_series(hands)
    for user in users:
        won = sum(a - b for h in hands for u, b, a in zip(h.seat_users, h.stacks_before, h.stacks_after or ())
                  if u == user)
        assert series[user][-1] == (60, won)
        assert [x for x, _ in series[user]] == list(range(61))
    assert sum(points[-1][1] for points in series.values()) == -hands[-1].carried_out


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_the_graph_is_a_png_of_the_size_a_phone_shows_well_and_leaves_matplotlib_as_it_was() -> None:
    settings_before = dict(matplotlib.rcParams)
    hands = night(random.Random(3), 40, [101, 102, 103])
    png = chip_graph_png(net_series(hands), {101: "ann", 102: "bob"}, "Tonight")  # 103 has no name: his id
    assert png_size(png) == SIZE_PX
    assert dict(matplotlib.rcParams) == settings_before


def test_a_night_without_hands_still_draws() -> None:
    assert png_size(chip_graph_png({}, {}, "Nothing yet")) == SIZE_PX
