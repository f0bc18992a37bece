"""Tournaments survive SIGKILL (issue 15): a worker process plays tournaments on a fast clock and is killed at
a level change, inside the payout's transaction, and at random moments. After every kill the file audits clean
(the prize pool held, or paid exactly once), no hand is voided, and every hand any run dealt was dealt at the
level a clock never interrupted would give: the clock resumes from the stored start of the level, losing no
time."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.tables import Tables
from bot.tournament import ClockState, Tournament, level_for_next_hand

WORKER = Path(__file__).with_name("tournament_worker.py")
SPEED = 120.0  # a one-minute level lasts half a second


@dataclass
class Run:
    """What one worker process printed before it died."""

    deals: list[tuple[int, int, float, float]] = field(default_factory=list)  # hand, small blind, before, after
    acts: int = 0
    finished: list[int] = field(default_factory=list)
    lines: int = 0


def run_worker(path: Path, seed: int, t0: float, kill: str, *, after: float | None = None,
               until: str | None = None) -> Run:
    """Start the worker; it dies by itself (``kill``), or is killed ``after`` seconds of play, or once it
    printed a line starting with ``until``."""
    env = {**os.environ, "PYTHONPATH": str(WORKER.parents[2])}
    proc = subprocess.Popen([sys.executable, str(WORKER), str(path), str(seed), repr(t0), str(SPEED), kill],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    run = Run()
    playing, seen = threading.Event(), threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not line.endswith("\n"):
                break  # cut off by the kill: not reported
            word, *rest = line.split()
            run.lines += 1
            if word == "deal":
                run.deals.append((int(rest[0]), int(rest[1]), float(rest[2]), float(rest[3])))
                playing.set()
            elif word == "act":
                run.acts += 1
            elif word == "finished":
                run.finished.append(int(rest[0]))
            if until is not None and word == until:
                seen.set()
        playing.set()
        seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if kill == "none":
        if until is not None:
            assert seen.wait(60), "the worker never printed " + until
        else:
            assert playing.wait(30), "the worker did not start playing"
            time.sleep(after or 0.0)
        proc.send_signal(signal.SIGKILL)
    proc.wait(60)
    reader.join(10)
    stderr = proc.stderr.read()
    assert proc.returncode == -signal.SIGKILL, f"the worker died by itself ({proc.returncode}):\n{stderr}"
    return run


async def check_file(path: Path, t0: float, deals: list[tuple[int, int, float, float]]) -> dict[str, Any]:
    """The checks after a kill; returns what the file holds (tournaments by status, live hands)."""
    store = await Store.open(path)
    try:
        for report in await store.audit_all():
            assert report.ok, (report.summary(), report.problems)
        conn = store.connection
        tournaments = await conn.execute_fetchall("SELECT id, table_id, status, pool, state FROM tournaments")
        paid = {r[0]: (r[1], r[2]) for r in await conn.execute_fetchall(
            "SELECT t.id, count(l.id), coalesce(sum(l.delta), 0) FROM tournaments t LEFT JOIN ledger l"
            " ON l.table_id = t.table_id AND l.kind = 'tournament-prize' GROUP BY t.id")}
        winners = {r[0]: r[1] for r in await conn.execute_fetchall(
            "SELECT tournament_id, count(*) FROM tournament_entries WHERE prize > 0 GROUP BY tournament_id")}
        starts: dict[int, tuple[Tournament, float]] = {}
        for tid, table_id, status, pool, state in tournaments:
            rows, amount = paid[tid]
            t = Tournament.from_json(json.loads(state))
            if status == "finished":  # paid exactly once: one row per winner, the whole pool
                assert pool == 0 and rows == winners.get(tid, 0) and amount == t.prize_pool, (tid, rows, amount)
            else:
                assert rows == 0 and amount == 0, f"tournament {tid} ({status}) paid {amount} in {rows} rows"
            if t.clock is not None:  # no pauses here: the level's start, back to the tournament's start
                start = t.clock.started - sum(step.seconds for step in t.schedule[:t.clock.step])
                starts[table_id] = (t, start)
        def blinds_at(table_id: int, *times: float) -> set[int]:
            """The small blinds a never-interrupted clock gives at ``times``."""
            t, start = starts[table_id]
            return {level_for_next_hand(t.schedule, ClockState(0, start), at).level.small_blind for at in times}

        hands = await conn.execute_fetchall("SELECT id, table_id, started_at, settings FROM hands")
        for hand, table_id, started_at, settings in hands:  # every hand, those of killed runs included
            at = t0 + (started_at - t0) * SPEED  # stamped just after the level was read: a few ms of slack
            small_blind = json.loads(settings)["stakes"]["small_blind"]
            assert small_blind in blinds_at(table_id, at - 2.0, at), (hand, small_blind, at)
        hand_tables = {r[0]: r[1] for r in hands}
        for hand, small_blind, before, after in deals:  # what the runs reported: read exactly around the deal
            assert small_blind in blinds_at(hand_tables[hand], before, after), (hand, small_blind, before, after)
        assert await conn.execute_fetchall("SELECT id FROM hands WHERE status = 'void'") == []
        live = await store.live_hands()
        restored = {t.id: t for t in await Tables(store).restore()}
        for record in live:  # every interrupted hand is rebuilt from its log, at the stakes it was dealt with
            table = restored[record.table_id]
            assert table.live is not None and table.hand is not None and table.hand.actions == list(record.actions)
            assert table.hand.stakes.small_blind == record.settings["stakes"]["small_blind"]
        for report in await store.audit_all():  # restoring writes nothing that breaks the books
            assert report.ok, (report.summary(), report.problems)
        return {"status": {r[0]: r[2] for r in tournaments}, "live": len(live)}
    finally:
        await store.close()


def test_a_kill_at_a_level_change_loses_no_time(tmp_path: Path, _audited_paths: dict[Path, Any]) -> None:
    path = tmp_path / "tournament.db"
    _audited_paths[path] = None
    t0 = time.time()
    deals: list[tuple[int, int, float, float]] = []
    rng = random.Random(5)
    for round_no, kill in enumerate(("level", "none", "level", "level", "none")):
        run = run_worker(path, 100 + round_no, t0, kill, after=rng.uniform(0.3, 0.9))
        deals += run.deals
        asyncio.run(check_file(path, t0, deals))
    levels = {small_blind for _, small_blind, _, _ in deals}
    assert len(deals) > 5 and len(levels) > 1, (len(deals), levels)  # hands were dealt across level changes


def test_a_kill_inside_the_payout_pays_nothing_then_exactly_once(tmp_path: Path,
                                                                 _audited_paths: dict[Path, Any]) -> None:
    path = tmp_path / "tournament.db"
    _audited_paths[path] = None
    t0 = time.time()
    deals: list[tuple[int, int, float, float]] = []
    run = run_worker(path, 200, t0, "payout")  # killed inside the first payout
    deals += run.deals
    held = asyncio.run(check_file(path, t0, deals))
    assert list(held["status"].values()) == ["running"] and held["live"] == 1 and not run.finished
    run = run_worker(path, 201, t0, "none", until="finished")  # the last hand played again, and paid
    deals += run.deals
    done = asyncio.run(check_file(path, t0, deals))
    assert next(iter(done["status"].values())) == "finished" and run.finished
    run = run_worker(path, 202, t0, "payout")  # the next tournament, killed in its payout too
    deals += run.deals
    again = asyncio.run(check_file(path, t0, deals))
    assert sorted(again["status"].values()) == ["finished", "running"]
