"""The tournament's lines on the table message, its registration message's buttons and the news posted in the
channel (cogs/tournament_views.py), from a real tournament table at chosen times."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.store import Store
from bot.tables import Table, Tables
from bot.tables import tournament as mode
from bot.tables.tournament import Broke, Eliminated, Finished, Wake, new_tournament
from bot.tournament import Placing
from cogs.table._tournament import lobby_view
from cogs.tournament_views import lobby_embed, news_text, tournament_field

T0 = 1_800_000_000.0
G, CHANNEL, HOST = 5, 55, 500
ALICE, BOB, CAROL = 501, 502, 503


class Stopped(mode.Clock):
    def __init__(self) -> None:
        self.t = T0

    def now(self) -> float:
        return self.t


@pytest.fixture
def stopped(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stopped]:
    clock = Stopped()
    monkeypatch.setattr(mode, "CLOCK", clock)
    yield clock


async def open_table(store: Store, game: str = "single-draw-a5") -> Table:
    settings, tournament = new_tournament(game, 100, 1000, 1, levels="10/20, 20/40, break 5, 40/80",
                                          late_registration_levels=1, rebuys=1)
    table = await Tables(store).create(G, CHANNEL, HOST, settings, tournament=tournament)
    assert mode.tournament_of(table) is not None
    for user in (ALICE, BOB):
        await mode.tournament_of(table).register(table, user)
    return table


def labels(table: Table) -> list[str]:
    return [str(getattr(getattr(item, "item", item), "label", "")) for item in lobby_view(table).children]


async def test_the_level_lines_follow_the_clock(store: Store, stopped: Stopped) -> None:
    table = await open_table(store)
    t = mode.tournament_of(table)
    assert t is not None
    field = tournament_field(table)
    assert field is not None and field.name == "Tournament: registration open"
    assert "2 registered · prize pool 200" in field.value and "First level 10/20, bets 20/40" in field.value
    assert labels(table) == ["Register", "Unregister"]
    await t.start(table)
    field = tournament_field(table, T0 + 15)
    assert field is not None and field.value.splitlines() == [
        "Level 1 of 3: 10/20, bets 20/40", f"Next: 20/40, bets 40/80 <t:{int(T0 + 60)}:R>",
        "2 of 2 players left · prize pool 200"]
    assert labels(table) == ["Register"]  # late registration, during level 1
    field = tournament_field(table, T0 + 150)  # the break after level 2
    assert field is not None
    assert field.value.splitlines()[0] == f"Break: play resumes <t:{int(T0 + 420)}:R> at 40/80, bets 80/160"
    field = tournament_field(table, T0 + 500)
    assert field is not None and field.value.splitlines()[:2] == ["Level 3 of 3: 40/80, bets 80/160",
                                                                 "Last level: the blinds rise no more"]
    stopped.t = T0 + 30
    await t.pause(table)
    field = tournament_field(table, T0 + 1000)  # paused: no time runs out, the time left stays
    assert field is not None and field.value.splitlines()[1:3] == ["Next: 20/40, bets 40/80",
                                                                  "Paused by the host (0:30 left in this level)"]
    assert "Paused by the host." in str(lobby_embed(table).to_dict())


async def test_a_cash_table_has_no_tournament_lines(store: Store) -> None:
    assert tournament_field(await Tables(store).create(G, CHANNEL, HOST, new_tournament(
        "five-card-draw", 1, 100, 1)[0])) is None


def test_the_news_lines() -> None:
    assert news_text(Eliminated((Placing(5, (ALICE,)),))) == f"<@{ALICE}> is out of the tournament in 5th place."
    assert news_text(Eliminated((Placing(11, (ALICE, BOB, CAROL)),))) == (
        f"<@{ALICE}> and <@{BOB}> and <@{CAROL}> are out of the tournament, sharing in 11th, 12th and 13th places.")
    assert news_text(Eliminated((Placing(21, (ALICE,)), Placing(22, (BOB,))))) == (
        f"<@{ALICE}> is out of the tournament in 21st place.\n<@{BOB}> is out of the tournament in 22nd place.")
    assert "has no chips left" in (news_text(Broke((BOB,))) or "")
    assert news_text(Finished((Placing(1, (ALICE,)), Placing(2, (BOB, CAROL))), {ALICE: 200, BOB: 50, CAROL: 50})) \
        == f"**Final standings**\n1st. <@{ALICE}> — 200\n2nd. <@{BOB}> and <@{CAROL}> (tied) — 50 / 50"
    assert news_text(Wake(T0)) is None
