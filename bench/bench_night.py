"""The night after the cards: chip graph, settle-up, the stats query and the per-hand facts, timed.

    python bench/bench_night.py [--runs N] [--out /tmp/night/graph.png]

* graph: ``chip_graph_png`` for a 300-hand night of 8 players (fixed limit 1/2, random players, rebuys), the
  first call (matplotlib's import included) and the median of ``--runs`` calls; against a bare matplotlib plot of
  the same lines (default style, no legend or labels) in the same process. The PNG goes to ``--out``. And the
  night written through the store, then read back as ``/chips graph`` reads it (``night_results``).
* settle: ``settle`` for 10 and 16 players with random nets (the exact subset search), and 16 players in four
  zero-sum quartets; against the greedy settle-up alone on the same nets.
* stats: the aggregate query of ``bot.night.stats`` for a member with 10,000 hands (among 200,000 fact rows of
  twenty players) in a SQLite file: without an index, with one on (user_id, game), with a covering one (every
  column, user_id and game first) (target: under 50 ms).
* facts: ``hand_facts`` per hand against playing the hand itself (what it adds to finishing a hand).
* store: ``Store.player_stats`` (the query of ``/poker stats``, through the store and its covering index) for a
  member with 10,000 hands among 200,000 fact rows in a real SQLite file with the bot's schema, against the same
  query through bare ``sqlite3`` on that file; and ``Store.net_board`` (``/chips leaderboard``) all time and
  for one night of 300 hands (the 10,000 hands are 34 nights).

Targets (issue 14): a 300-hand graph well under a second, off the event loop; settle under 50 ms for 16 players;
the stats of 10,000 hands under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.night.stats as stats_module
from bot.night.facts import FACT_COLUMNS, PlayerHandFacts, hand_facts
from bot.night.graph import Series, chip_graph_png, net_series
from bot.night.settle import _pay_largest_first, settle
from bot.poker import GAMES
from bot.poker.phh import export_phh
from bot.store import Store
from bot.tables import Tables
from bot.tables.night import night_results, resolve_night
from bot.tools.simulate import default_stakes, play_hand
from tests.night.hands import NightHand, night

NIGHT = 300  # hands a night in the store bench
NAMES = ["ann", "bob", "carmen", "dmitri", "eve", "francesca", "gus", "hiro"]
QUARTETS = [[-18, 11, 53, -46], [59, -25, 5, -39], [-30, -56, -21, 107], [-60, -51, -47, 158]]


def median_seconds(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bare_plot_png(series: Series) -> bytes:
    """The reference: the same lines with matplotlib's defaults, nothing else."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 8), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for points in series.values():
        axes.plot([x for x, _ in points], [y for _, y in points])
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


def bench_graph(runs: int, out: Path) -> None:
    users = list(range(101, 109))
    hands = night(random.Random(14), 300, users, structure="fixed-limit")
    names = dict(zip(users, NAMES))
    start = time.perf_counter()
    series = net_series(hands)
    series_time = time.perf_counter() - start
    start = time.perf_counter()
    png = chip_graph_png(series, names, "Friday night · 300 hands")
    first = time.perf_counter() - start
    ours = median_seconds(lambda: chip_graph_png(series, names, "Friday night · 300 hands"), runs)
    bare = median_seconds(lambda: bare_plot_png(series), runs)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png)
    with tempfile.TemporaryDirectory() as folder:
        read = asyncio.run(_night_in_store(Path(folder) / "night.db", hands, runs))
    print(f"graph, 300 hands x 8 players: net_series {series_time * 1000:.1f} ms; chip_graph_png first call "
          f"{first * 1000:.0f} ms (matplotlib's import included), median of {runs} {ours * 1000:.0f} ms; "
          f"bare matplotlib plot {bare * 1000:.0f} ms (ours / bare {ours / bare:.2f}x); {len(png):,} bytes -> {out}; "
          f"the night read from the store (night_results) {read * 1000:.0f} ms")


async def _night_in_store(path: Path, hands: list[NightHand], runs: int) -> float:
    """The night written through the store (each hand with its facts and PHH, each rebuy a top-up), then
    ``night_results`` (what ``/chips results``, ``settle`` and ``graph`` read: the night's hands and refunds, each
    player's line) timed: the median of ``runs``."""
    store = await Store.open(path)
    try:
        table = await store.create_table(1, 2, 3, {"game": "five-card-draw"})
        for seat, user in enumerate(hands[0].seat_users, 1):
            await store.buy_in(table.id, user, hands[0].stacks_before[seat - 1], seat)
        for played in hands:
            stacks = {s.user_id: s.stack for s in (await store.get_table_by_id(table.id)).seats}
            for user, before in zip(played.seat_users, played.stacks_before):
                if stacks[user] != before:  # night() rebuys a busted player
                    await store.top_up(table.id, user, before - stacks[user])
            record = await store.start_hand(table.id, played.hand.game.id, {}, 0, played.seat_users,
                                            played.stacks_before)
            await store.finish_hand(record.id, played.hand.stacks, 0, {}, export_phh(played.hand),
                                    facts=hand_facts(played.hand, played.seat_users))
        night = await resolve_night(store, 1, 2, None)
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            await night_results(store, Tables(store), night)
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)
    finally:
        await store.close()


def random_nets(rng: random.Random, players: int) -> dict[int, int]:
    values = [rng.randint(-2000, 2000) for _ in range(players - 1)]
    return {1000 + k: v for k, v in enumerate([*values, -sum(values)])}


def bench_settle(runs: int) -> None:
    rng = random.Random(16)
    cases = [(f"{n} players, random nets", [random_nets(rng, n) for _ in range(runs)]) for n in (10, 16)]
    quartets = [v for quartet in QUARTETS for v in quartet]
    cases.append(("16 players, four zero-sum quartets", [dict(enumerate(rng.sample(quartets, 16), 1000))] * runs))
    for label, nets_list in cases:
        exact = statistics.median(_timed(partial(settle, nets)) for nets in nets_list)
        greedy = statistics.median(_timed(partial(_pay_largest_first, sorted(nets.items()))) for nets in nets_list)
        payments = statistics.median(len(settle(nets)) for nets in nets_list)
        greedy_payments = statistics.median(len(_pay_largest_first(sorted(nets.items()))) for nets in nets_list)
        print(f"settle, {label}: median {exact * 1000:.2f} ms, {payments:g} payments; greedy alone "
              f"{greedy * 1000:.3f} ms, {greedy_payments:g} payments (exact / greedy time {exact / greedy:.0f}x)")


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def fake_facts(rng: random.Random, hand: int, user: int) -> PlayerHandFacts:
    vpip = rng.random() < 0.3
    won = rng.random() < 0.2
    draws = rng.randint(0, 3)
    return PlayerHandFacts(
        user_id=user, game=rng.choice(sorted(GAMES)), seat=hand % 6, dealt=1, vpip=vpip,
        raised=vpip and rng.random() < 0.4, showdown=rng.random() < 0.2, won=won,
        won_at_showdown=won and rng.random() < 0.5,
        draws=draws, cards_drawn=sum(rng.randint(0, 3) for _ in range(draws)), pats=rng.randint(0, draws),
        collected=rng.randint(1, 500) if won else 0, net=rng.randint(-200, 300),
    )


def _row(facts: PlayerHandFacts) -> tuple[object, ...]:
    return tuple(getattr(facts, column) for column in FACT_COLUMNS)  # astuple's deep copy is slow for 200,000


def bench_stats_query(runs: int) -> None:
    rng = random.Random(10_000)
    doc = stats_module.__doc__ or ""
    query = doc[doc.index("SELECT"):doc.index("GROUP BY game") + len("GROUP BY game")]
    players = 20  # a busy server: twenty regulars with 10,000 hands each
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(Path(folder) / "facts.sqlite")
        db.execute(f"CREATE TABLE hand_facts (hand_id INTEGER NOT NULL, {', '.join(FACT_COLUMNS)})")
        rows = [(hand, *_row(fake_facts(rng, hand, user))) for hand in range(10_000) for user in range(players)]
        db.executemany(f"INSERT INTO hand_facts VALUES (?, {', '.join('?' * len(FACT_COLUMNS))})", rows)
        db.commit()
        figures = {"no index": median_seconds(lambda: db.execute(query, (3,)).fetchall(), runs)}
        db.execute("CREATE INDEX hand_facts_user_game ON hand_facts (user_id, game)")
        figures["index (user_id, game)"] = median_seconds(lambda: db.execute(query, (3,)).fetchall(), runs)
        db.execute("DROP INDEX hand_facts_user_game")
        db.execute(f"CREATE INDEX hand_facts_covering ON hand_facts ({', '.join(FACT_COLUMNS)})")
        figures["covering index (user_id, game, ...)"] = median_seconds(
            lambda: db.execute(query, (3,)).fetchall(), runs)
        db.close()
    scan = figures["no index"]
    shown = "; ".join(f"{name} {seconds * 1000:.1f} ms ({seconds / scan:.2f}x)" for name, seconds in figures.items())
    print(f"stats, a member's 10,000 hands among {len(rows):,} fact rows, the aggregate query: {shown}")


def bench_facts(runs: int) -> None:
    rng = random.Random(6)
    stakes = default_stakes(GAMES["triple-draw-27"])
    play_times, fact_times = [], []
    for _ in range(max(runs, 200)):
        start = time.perf_counter()
        hand = play_hand("triple-draw-27", stakes, [200] * 6, rng)
        play_times.append(time.perf_counter() - start)
        fact_times.append(_timed(partial(hand_facts, hand, range(6))))
    played, facts = statistics.median(play_times), statistics.median(fact_times)
    print(f"facts, 6-handed 2-7 triple draw: hand_facts {facts * 1e6:.0f} µs a hand, playing the hand "
          f"{played * 1e6:.0f} µs (facts / play {facts / played:.2f}x)")


async def _store_figures(path: Path, runs: int, players: int, hands: int) -> dict[str, float]:
    rng = random.Random(10_001)
    store = await Store.open(path)
    try:
        table = await store.create_table(1, 2, 3, {"game": "five-card-draw"})
        conn = store.connection
        nights = []
        for first in range(1, hands + 1, NIGHT):  # nights of 300 hands
            if first > 1:
                await store.new_night(table.id)
            session = await store.last_night(2)
            assert session is not None
            nights.append(session.id)
            numbers = range(first, min(first + NIGHT, hands + 1))
            await conn.execute("BEGIN")
            await conn.executemany(
                "INSERT INTO hands (id, table_id, number, game, settings, seed, seats, stacks_before, status,"
                " stacks_after, carried_out, started_at, ended_at, session_id) VALUES (?, ?, ?, 'five-card-draw',"
                " '{}', 0, '[]', '[]', 'complete', '[]', 0, ?, ?, ?)",
                [(k, table.id, k, float(k), float(k), session.id) for k in numbers])
            await conn.executemany(
                f"INSERT INTO hand_facts (hand_id, session_id, guild_id, ended_at, {', '.join(FACT_COLUMNS)})"
                f" VALUES (?, ?, 1, ?, {', '.join('?' * len(FACT_COLUMNS))})",
                [(k, session.id, float(k), *_row(replace(fake_facts(rng, k, user), seat=user)))  # a seat each
                 for k in numbers for user in range(players)])
            await conn.execute("COMMIT")
        times: dict[str, float] = {}
        for label, call in (("player_stats", lambda: store.player_stats(1, 3)),
                            ("net_board all time", lambda: store.net_board(1)),
                            ("net_board one night", lambda: store.net_board(1, nights=nights[:1]))):
            samples = []
            for _ in range(runs):
                start = time.perf_counter()
                await call()
                samples.append(time.perf_counter() - start)
            times[label] = statistics.median(samples)
        return times
    finally:
        await store.close()


def bench_store_stats(runs: int) -> None:
    players, hands = 20, 10_000
    doc = stats_module.__doc__ or ""
    query = doc[doc.index("SELECT"):doc.index("GROUP BY game") + len("GROUP BY game")]
    query = query.replace("WHERE user_id = ?", "WHERE guild_id = 1 AND user_id = ?")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.db"
        times = asyncio.run(_store_figures(path, runs, players, hands))
        db = sqlite3.connect(path)
        bare = median_seconds(lambda: db.execute(query, (3,)).fetchall(), runs)
        db.close()
    ours = times["player_stats"]
    print(f"store, a member's {hands:,} hands among {players * hands:,} fact rows: player_stats {ours * 1000:.1f} ms "
          f"(target < 50 ms: {'ok' if ours < 0.05 else 'MISSED'}); the same query through bare sqlite3 "
          f"{bare * 1000:.1f} ms (store / bare {ours / bare:.2f}x); net_board all time "
          f"{times['net_board all time'] * 1000:.1f} ms, one night of {NIGHT} hands "
          f"{times['net_board one night'] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7, help="runs per median (default 7)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/night/graph.png"), help="where the graph goes")
    args = parser.parse_args()
    bench_graph(args.runs, args.out)
    bench_settle(max(args.runs, 25))
    bench_stats_query(args.runs)
    bench_facts(args.runs)
    bench_store_stats(args.runs)


if __name__ == "__main__":
    main()
