"""What the night-after commands show, for the cases a short night through Discord does not reach: chips still
carried and a hand in play, a square night, money rounded per payment, boards of other servers' nights, too many
stories for one message, the session option's suggestions."""

from __future__ import annotations

import datetime as dt
import re

from hypothesis import given
from hypothesis import strategies as st

from bot.night import ChipValue
from bot.poker.phh import export_phh, phh_seen_by
from bot.store import HandRecord, NetEntry, NightRecord
from bot.tables.night import Board, Night, NightResults
from cogs import night_views
from tests.night.known import ANN, BOB, CAT, heads_up_triple_draw

DAY = dt.datetime(2026, 11, 27, 20, tzinfo=dt.UTC).timestamp()


def session(id_: int = 7, *, open_: bool = True, hands: int = 3, channel: int = 500) -> NightRecord:
    return NightRecord(id_, 1, 42, channel, 1, DAY, None if open_ else DAY + 3600, hands)


def results(nets: dict[int, int], *, pending: dict[int, int] | None = None, live: list[int] | None = None,
            value: ChipValue | None = None) -> NightResults:
    series = {user: [(0, 0), (1, net)] for user, net in nets.items()}
    return NightResults(Night((session(),)), [], series, nets, {}, pending or {}, live or [], value)


def test_results_say_what_is_still_carried_and_what_is_being_played() -> None:
    text = night_views.results_text(results({ANN: 30, BOB: -28, CAT: -2}, pending={BOB: 2, CAT: 2}, live=[4]))
    assert text.splitlines() == [
        "**Night 7 at <#500> (running)** · 0 hands",
        f"<@{ANN}> +30 · 1 hand", f"<@{CAT}> -2 · 1 hand", f"<@{BOB}> -28 · 1 hand",
        f"🔁 4 chips still carried to the next deal count as returned to those who put them in, as closing the "
        f"table now would: <@{BOB}> 2, <@{CAT}> 2.",
        "⏳ Hand #4 is being played: it counts once it ends.",
    ]


def test_a_square_night_and_money_rounded_once_for_the_night() -> None:
    assert "Everyone is square: nobody pays anybody." in night_views.settle_text(results({ANN: 0, BOB: 0}), [])
    thirds = ChipValue(3, 10, "$")  # 3 chips = $0.10: a chip is not a whole number of cents
    night = results({ANN: 2, BOB: -1, CAT: -1}, value=thirds)
    text = night_views.settle_text(night, night.payments())
    # Ann's +2 chips are $0.0667: $0.07, and the others' -$0.0333 each round so that the money adds up.
    assert f"<@{BOB}> pays <@{ANN}> 1 ($0.04)" in text and f"<@{CAT}> pays <@{ANN}> 1 ($0.03)" in text
    assert f"Nets: <@{ANN}> +2 (+$0.07) · <@{BOB}> -1 (-$0.04) · <@{CAT}> -1 (-$0.03)" in text
    assert night_views.results_text(night).splitlines()[1:] == [
        f"<@{ANN}> +2 (+$0.07) · 1 hand", f"<@{BOB}> -1 (-$0.04) · 1 hand", f"<@{CAT}> -1 (-$0.03) · 1 hand"]


MONEY = re.compile(r"<@(\d+)> ([+-][\d,]+) \(([+-]?)\$([\d,]+\.\d\d)\)")
PAID = re.compile(r"<@(\d+)> pays <@(\d+)> [\d,]+ \(\$([\d,]+\.\d\d)\)")


def cents_of(sign: str, text: str) -> int:
    return (-1 if sign == "-" else 1) * int(text.replace(",", "").replace(".", ""))


@given(st.integers(1, 400), st.integers(1, 400), st.lists(st.integers(-10**5, 10**5), min_size=1, max_size=9))
def test_a_players_money_is_the_same_in_results_and_settle_up_and_the_payments_add_up(
    chips: int, cents: int, values: list[int],
) -> None:
    nets = {1000 + k: v for k, v in enumerate(values)}
    nets[999] = -sum(values)
    night = results(nets, value=ChipValue(chips, cents, "$"))
    shown = {int(m[1]): cents_of(m[3], m[4]) for m in MONEY.finditer(night_views.results_text(night))}
    settle_up = night_views.settle_text(night, night.payments())
    nets_line = settle_up.split("Nets: ")[1] if "Nets: " in settle_up else ""
    assert {int(m[1]): cents_of(m[3], m[4]) for m in MONEY.finditer(nets_line)} == {
        u: c for u, c in shown.items() if nets[u]}
    paid = dict.fromkeys(nets, 0)
    for m in PAID.finditer(settle_up):
        paid[int(m[1])] -= cents_of("", m[3])
        paid[int(m[2])] += cents_of("", m[3])
    assert paid == shown and sum(shown.values()) == 0


def test_boards_name_their_nights() -> None:
    entries = [NetEntry(1, ANN, 120, 30), NetEntry(2, BOB, -120, 30)]
    here = night_views.board_text(Board("tonight", entries, Night((session(),)), here=True), ChipValue(100, 100, "$"))
    assert here.splitlines() == ["**Tonight** · Night 7 at <#500> (running) · chips won at tables",
                                 f"1. <@{ANN}> +120 (+$1.20) · 30 hands", f"2. <@{BOB}> -120 (-$1.20) · 30 hands"]
    server = night_views.board_text(Board("tonight", entries, Night((session(1), session(2)))))
    assert server.startswith("**Tonight** · this server's 2 nights of the last 12 hours")
    month = night_views.board_text(Board("month", [], since=dt.datetime(2026, 11, 1, tzinfo=dt.UTC).timestamp()))
    assert month == "**This month** · since 01 Nov (UTC)\nNobody has played a hand yet."


def test_stories_that_do_not_fit_are_named_and_every_file_is_attached() -> None:
    hand = heads_up_triple_draw()
    phh = export_phh(hand, players=[str(ANN), str(BOB)])
    record = HandRecord(1, 1, 9, hand.game.id, {}, 0, (ANN, BOB), (200, 200), 0, "complete", tuple(hand.stacks), 0,
                        {}, phh, None, DAY, DAY, tuple(hand.actions))
    told = [(record, hand)] * 40 + [(record, None)]
    text, embeds, files = night_views.history_message(told, BOB)
    assert sum(len(e.description or "") for e in embeds) <= night_views.EMBED_TEXT < 6000
    assert len(embeds) < 40 and len(files) == 41
    assert {f.fp.read().decode() for f in files} == {phh_seen_by(phh, [1])}  # as bob saw the hand
    assert text.startswith("The last 41 hands at this table") and "Not told here: #9" in text


def test_the_session_option_suggests_nights_and_since() -> None:
    nights = [session(9, hands=1), session(3, open_=False, hands=42, channel=501)]
    names = {500: "poker", 501: "poker-2"}.__getitem__
    all_ = night_views.night_choices(nights, names, "")
    assert [(c.name, c.value) for c in all_] == [
        ("Night 9 · #poker · Fri 27 Nov 2026 · 1 hand · running", "9"),
        ("Night 3 · #poker-2 · Fri 27 Nov 2026 · 42 hands", "3"),
    ]
    assert [c.value for c in night_views.night_choices(nights, names, "poker-2")] == ["3"]
    assert [c.value for c in night_views.night_choices(nights, names, "#9")] == ["9"]
    assert [c.value for c in night_views.night_choices(nights, names, "since 2026-11")] == ["since 2026-11"]
