"""Load benchmark: the real bot, in its own process, against the fake Discord, with N tables of six players.

    python bench/load.py                                  the matrix: paced and saturated, N = 1, 10, 100, 500
    python bench/load.py --mode paced --tables 100 --seconds 30
    python bench/load.py --mode saturated --tables 10 --profile /tmp/bot.prof
    python bench/load.py --mode paced --tables 100 --db sqlite postgresql        the two engines, same run
    python bench/load.py --mode saturated --tables 20 --db postgresql --processes 1 2 --shards 2

The bot runs as ``python -m pokerdev.launch`` (a subprocess, on a fresh SQLite file) and the fake Discord in
this process, on 127.0.0.1 only. Each table has its own channel and six scripted players
(:mod:`pokerdev.autoplay`) who play dealer's choice from what the table message shows: the player to act
clicks a button (a draw through Stand pat or the draw form, the chooser through Pick the game… and his menu),
out-of-chips players rebuy.

* paced: each player answers one second after his turn starts (a brisk real game);
* saturated: players act as soon as the table message shows their turn.

After the tables are open, a warm-up, and once every player has had a first private hand (the bot opens each
DM channel once), figures are taken over ``--seconds``:

* latency: from the fake sending INTERACTION_CREATE to the bot's callback request reaching it (median, p99), for
  every interaction (clicks, selects, forms, commands);
* actions/s: player decisions the bot took (bets, calls, checks, folds, draws, games chosen);
* CPU ms/action: the bot process's user+system CPU time (``/proc/PID/stat``, every thread) per action;
* REST/action: every REST call the bot made (callbacks, edits, posts, DMs) per action;
* memory: the bot's peak RSS (VmHWM), and per table: the RSS growth from the bot's start to N open tables with
  six seated players and no hand dealt (idle), divided by N.

``--db postgresql`` keeps the bank in a throwaway PostgreSQL server (``pokerdev.pgserver``, a new database per run)
instead of an SQLite file; the server's CPU is counted apart (``db CPU``: all its processes), since with SQLite the
same work is in the bot's own process. ``--processes 2`` runs two bot processes over that one bank, each with one of
``--shards`` gateway shards (``SHARD_COUNT``/``SHARD_IDS``) and half the tables, each against a fake Discord of its
own whose server is on its shard; ``--processes 1 --shards 2`` is one process running both shards, the comparison.
CPU ms/action is then the processes' CPU over all their decisions, and ``per process`` gives each one's.

Targets (issue 6, 2-core machine): paced, 100 tables, p99 under 100 ms; saturated, at least 500 actions/s; at most
1.5 REST calls per action; under 200 KB per idle table; the CPU per action flat from 10 to 500 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerdev.autoplay import Policy, TablePlayers
from pokerdev.fakediscord import FakeConfig, RateLimitModel, StoredMessage, UserSpec
from pokerdev.observed import CallTally, ObservedFake

ROOT = Path(__file__).resolve().parents[1]
SEATS = 6
BUY_IN = 500
TABLE_OPTIONS = {"game": "dealers-choice", "small_blind": 1, "big_blind": 2, "max_buy_in": BUY_IN}
PACED_DELAY = 1.0  # paced: seconds from a turn starting to the player's click
SETUP_CONCURRENCY = 24  # tables being opened at once
# Discord answers message routes with rate-limit headers; without them discord.py serialises a channel's edits
# through a one-request bucket (see tests/e2e/conftest_bot.py). A limit no table reaches here.
UNREACHABLE_LIMIT = RateLimitModel(limit=1_000_000, period=1.0)
TICK = os.sysconf("SC_CLK_TCK")
IDLE_SAMPLE = 3.0  # seconds of the bot's idle CPU measured with the tables open

TARGET_P99_MS = 100.0
TARGET_ACTIONS = 500.0
TARGET_GLOBAL_PER_DECISION = 0.5  # issue 13: paced, REST calls other than interaction answers, per decision
TARGET_REST = 1.5
TARGET_IDLE_KB = 200.0
GLOBAL_LIMIT = 50  # Discord's requests/s per bot, interaction endpoints excepted


# ------------------------------------------------------------------ the bot process


class BotProcess:
    """``python -m pokerdev.launch`` on the fake's port; its CPU time and memory from /proc."""

    def __init__(self, port: int, db: Path | str, *, seed: int, next_hand_delay: float, profile: Path | None,
                 log: Path, variant: str = "", sample: Path | None = None,
                 memory_trace: Path | None = None, shards: str | None = None) -> None:
        command = [sys.executable]
        if profile is not None:
            command += ["-m", "cProfile", "-o", str(profile)]
        if variant or sample or memory_trace:
            command += [str(ROOT / "bench" / "variants.py"), "--variant", variant]
            if sample:
                command += ["--sample", str(sample)]
            if memory_trace:
                command += ["--tracemalloc", str(memory_trace)]
        else:
            command += ["-m", "pokerdev.launch"]
        command += ["--port", str(port), "--db", str(db), "--seed", str(seed),
                    "--next-hand-delay", str(next_hand_delay)]
        if shards is not None:
            command += ["--shards", shards]
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.log = log
        self.sampling = sample is not None
        self.tracing = memory_trace is not None
        self._log_file = log.open("wb")
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self._log_file, stderr=subprocess.STDOUT)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def cpu(self) -> float:
        """User + system CPU seconds of the process so far (all its threads)."""
        return _stat_cpu(Path(f"/proc/{self.pid}/stat"))

    def main_thread_cpu(self) -> float:
        """CPU seconds of the main thread (the event loop; the others are SQLite's and the resolver's)."""
        return _stat_cpu(Path(f"/proc/{self.pid}/task/{self.pid}/stat"))

    def memory(self) -> dict[str, int]:
        """VmRSS and VmHWM (peak) in KB."""
        out = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                out[name] = int(value.split()[0])
        return out

    def window(self, *, start: bool) -> None:
        """Tell a sampling bot that the measured window starts (SIGUSR1) or ends (SIGUSR2)."""
        if self.sampling and self.alive():
            self.proc.send_signal(signal.SIGUSR1 if start else signal.SIGUSR2)

    def dump_memory(self) -> None:
        """Tell a bot tracing its allocations to write them (SIGHUP)."""
        if self.tracing and self.alive():
            self.proc.send_signal(signal.SIGHUP)

    def alive(self) -> bool:
        return self.proc.poll() is None

    async def stop(self) -> None:
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            for _ in range(200):
                if not self.alive():
                    break
                await asyncio.sleep(0.05)
            else:
                self.proc.kill()
        self.proc.wait()
        self._log_file.close()

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def _stat_cpu(path: Path) -> float:
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class DatabaseServer:
    """A throwaway PostgreSQL server for the runs (``pokerdev.pgserver``): a new database per run, and the CPU of
    all the server's processes."""

    def __init__(self) -> None:
        from pokerdev.pgserver import start_server

        self.server = start_server()
        self.made = 0

    async def new_database(self) -> str:
        import asyncpg

        self.made += 1
        name = f"bench_{self.made}"
        conn = await asyncpg.connect(self.server.url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return f"{self.server.url.rsplit('/', 1)[0]}/{name}"

    def cpu(self) -> float:
        """User + system CPU seconds of the postmaster and its children (backends, writer, WAL) so far; a backend
        that ended meanwhile is not counted (the bots keep theirs for the whole run)."""
        postmaster = int((self.server.data / "postmaster.pid").read_text().split()[0])
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(stat.parent.name) == postmaster or int(fields[1]) == postmaster:
                    total += (int(fields[11]) + int(fields[12])) / TICK
        return total

    def stop(self) -> None:
        self.server.stop()


def machine_busy() -> float:
    """CPU seconds every process of the machine used so far (/proc/stat: all but idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK


def own_cpu() -> float:
    times = os.times()
    return times.user + times.system


# ------------------------------------------------------------------ one run


@dataclass
class Figures:
    mode: str
    tables: int
    seconds: float
    actions: int
    interactions: int
    rest_calls: int
    latency_median_ms: float
    latency_p99_ms: float
    latency_max_ms: float
    actions_per_second: float
    cpu_ms_per_action: float
    net_cpu_ms_per_action: float  # less the bot's idle CPU (heartbeats, timers) over the same time
    idle_cpu_share: float
    bot_cpu_share: float  # of one core
    loop_cpu_share: float  # the bot's main thread (its event loop), of one core
    fake_cpu_share: float
    rest_per_action: float
    rss_base_kb: int
    rss_idle_kb: int
    idle_kb_per_table: float
    peak_rss_kb: int
    rss_after_kb: int  # once the play stopped (every table waits for a player, hands live)
    after_kb_per_table: float  # RSS growth from the start to then, per table (includes fixed costs: caches)
    window_growth_kb: int = 0  # RSS growth during the measured window (a leak shows here on long runs)
    refused: int = 0
    stale: int = 0
    rebuys: int = 0
    other_cpu_share: float = 0.0  # CPU other processes of the machine used meanwhile, of one core
    draws: int = 0  # draw decisions among the actions
    picks: int = 0  # draws that threw cards (Draw, the select, then Discard: three interactions)
    errors: dict[str, int] = field(default_factory=dict)
    violations: dict[str, int] = field(default_factory=dict)  # kind -> count, in the measured window
    warmup_violations: int = 0
    violation_kinds: dict[str, int] = field(default_factory=dict)  # what the violated interactions were
    refusals: dict[str, int] = field(default_factory=dict)  # what refused clicks were told
    routes: dict[str, int] = field(default_factory=dict)
    engine: str = "sqlite"
    processes: int = 1
    shards: int = 0  # SHARD_COUNT (0: unsharded)
    db_cpu_share: float = 0.0  # the PostgreSQL server's processes, of one core (SQLite's work is the bot's)
    per_process: list[dict[str, float]] = field(default_factory=list)  # each bot: actions/s, CPU ms/action
    tables_dealt: int = 0  # tables with hands, each dealt by the process of its server (the only one it reaches)
    audit: list[str] = field(default_factory=list)  # the audit of every server after the run: its problems


def _what(detail: str) -> str:
    """A violation's interaction, without its ids: ``button pk:turn:…:cc`` or ``modal 'pk:w:…'``."""
    inside = detail.partition("(")[2].partition(")")[0] or detail
    return re.sub(r"\d+", "…", inside)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def wait_until(condition: object, timeout: float, what: str, bot: BotProcess) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if not bot.alive():
            raise RuntimeError(f"the bot stopped while waiting for {what}:\n{bot.tail()}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}:\n{bot.tail()}")
        await asyncio.sleep(0.05)


@dataclass
class Room:
    """One bot process, the fake Discord it talks to (a server on its shard) and the players of its tables."""

    fake: ObservedFake
    bot: BotProcess
    agents: list[TablePlayers] = field(default_factory=list)
    tally: CallTally = field(default_factory=CallTally)


async def run(mode: str, tables: int, seconds: float, *, warmup: float, seed: int, next_hand_delay: float | None,
              folder: Path, profile: Path | None = None, quiet: bool = False, variant: str = "",
              sample: Path | None = None, memory_trace: Path | None = None, pace: float = PACED_DELAY,
              database: DatabaseServer | None = None, processes: int = 1, shards: int = 0) -> Figures:
    """Open ``tables`` tables on a fresh bot (on an SQLite file, or a new database of ``database``; ``processes``
    bots with ``shards`` shards between them), play ``warmup`` then ``seconds`` seconds, and measure (paced: each
    player acts ``pace`` seconds after his turn starts)."""
    pace = pace if mode == "paced" else 0.0
    label = mode if pace in (0.0, PACED_DELAY) else f"paced {pace:g}s"
    delay = next_hand_delay if next_hand_delay is not None else (1.0 if mode == "paced" else 0.05)
    db: Path | str = folder / f"load-{mode}-{tables}.db" if database is None else await database.new_database()
    rooms: list[Room] = []
    rng = random.Random(seed)
    agents: list[TablePlayers] = []
    ids = [list(range(shards))[p::processes] for p in range(processes)] if shards else [[]] * processes
    try:
        for p in range(processes):
            count = tables // processes + (1 if p < tables % processes else 0)
            users = [UserSpec("owner")] + [UserSpec(f"t{t}p{s}") for t in range(count) for s in range(SEATS)]
            config = FakeConfig(channels=[f"table-{t}" for t in range(count)], users=users,
                                rate_limit=UNREACHABLE_LIMIT, check_deferred=False, spec_checks=False,
                                shard=(ids[p][0], shards) if shards else None)  # CPU figures: bodies unchecked
            fake = ObservedFake(config, lean=True)
            await fake.start()
            bot = BotProcess(fake.port, db, seed=seed + p, next_hand_delay=delay, profile=profile,
                             log=folder / f"bot-{mode}-{tables}-{p}.log", variant=variant, sample=sample,
                             memory_trace=memory_trace,
                             shards=f"{shards}:{','.join(map(str, ids[p]))}" if shards else None)
            rooms.append(Room(fake, bot))
        return await _measure(rooms, mode, label, tables, seconds, warmup=warmup, pace=pace, rng=rng, quiet=quiet,
                              memory_trace=memory_trace, database=database, db=db, agents=agents, shards=shards)
    finally:
        for agent in agents:
            agent.active = False
        await asyncio.gather(*(a.stop() for a in agents), return_exceptions=True)
        for room in rooms:
            with contextlib.suppress(TimeoutError):
                await room.fake.quiet(period=0.5, timeout=10)  # the bot finishes what it was sending, then stops
            await room.bot.stop()
            await room.fake.stop()


def _cpu(rooms: Sequence[Room]) -> list[float]:
    return [room.bot.cpu() for room in rooms]


async def _measure(rooms: list[Room], mode: str, label: str, tables: int, seconds: float, *, warmup: float,
                   pace: float, rng: random.Random, quiet: bool, memory_trace: Path | None,
                   database: DatabaseServer | None, db: Path | str, agents: list[TablePlayers],
                   shards: int) -> Figures:
    """Open the tables of every room, warm up, measure ``seconds``; the figures (``agents``: filled, for the caller
    to stop them)."""

    def say(text: str) -> None:
        if not quiet:
            print(f"  [{mode} {tables}] {text}", file=sys.stderr, flush=True)

    bot = rooms[0].bot  # the memory figures and the profile are the first process's
    for room in rooms:
        fake = room.fake
        await wait_until(lambda f=fake: f.global_commands and f.connected(), 60, "the bot to connect", room.bot)
    await asyncio.sleep(1.0)  # GUILD_CREATE handled, the bot idle
    rss_base = bot.memory()["VmRSS"]
    for room in rooms:
        count = len([c for c in room.fake.channels.values() if not c.is_dm and c.name.startswith("table-")])
        room.agents = [
            TablePlayers(room.fake, f"table-{t}", [f"t{t}p{s}" for s in range(SEATS)], pace=pace, buy_in=BUY_IN,
                         policy=Policy(random.Random(rng.randrange(1 << 30))), forget=True)
            for t in range(count)
        ]
        agents += room.agents
        by_channel = {a.channel.id: a for a in room.agents}

        def watch(message: StoredMessage, created: bool, by_channel: dict[int, TablePlayers] = by_channel) -> None:
            agent = by_channel.get(message.channel_id)
            if agent is not None:
                agent.watch(message, created)

        room.fake.watchers.append(watch)
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def gated(coro: object) -> None:
        async with gate:
            await coro  # type: ignore[misc]

    async def staggered(agent: TablePlayers, offset: float) -> None:
        # Paced tables start spread over the pace, as a room of real tables would be; not all at one instant.
        await asyncio.sleep(offset)
        async with gate:
            await agent.start()

    async def together(agent: TablePlayers) -> None:
        async with gate:
            await agent.start(play=False)

    started = time.monotonic()
    await asyncio.gather(*(gated(a.open_table(start=False, **TABLE_OPTIONS)) for a in agents))
    await asyncio.sleep(1.0)
    rss_idle = bot.memory()["VmRSS"]
    idle0 = sum(_cpu(rooms))
    await asyncio.sleep(IDLE_SAMPLE)
    idle_share = (sum(_cpu(rooms)) - idle0) / IDLE_SAMPLE  # the bots' CPU with every table open and nothing dealt
    say(f"{tables} tables open in {time.monotonic() - started:.1f} s; RSS {rss_base:,} -> {rss_idle:,} KB")
    if pace > 0:
        await asyncio.gather(*(staggered(a, rng.uniform(0, pace)) for a in agents))
    else:  # saturated: every table is dealt first, then all play at once (no start waits behind the play)
        await asyncio.gather(*(together(a) for a in agents))
        for agent in agents:
            agent.play()
    await asyncio.sleep(warmup)
    # Steady state: every player has had a private hand, so each DM channel is open (the bot opens it once
    # per player, then remembers it); at 500 tables the first deals take longer than the warm-up.
    for room in rooms:
        with contextlib.suppress(TimeoutError):
            await wait_until(lambda r=room: r.fake.dm_channel_count() >= SEATS * len(r.agents), 60,
                             "every player's first DM", room.bot)

    warmup_violations = []
    for room in rooms:
        room.fake.reset_counters()
        warmup_violations += room.fake.take_violations()
    for agent in agents:
        agent.refusals.clear()
    before = {id(a): asdict(a.counts) for a in agents}
    bot.window(start=True)
    rss0 = bot.memory()["VmRSS"]
    cpu0, main0, own0, busy0 = _cpu(rooms), bot.main_thread_cpu(), own_cpu(), machine_busy()
    db0, t0 = database.cpu() if database else 0.0, time.monotonic()
    end = t0 + seconds
    while (now := time.monotonic()) < end:
        await asyncio.sleep(min(1.0, end - now))
        for room in rooms:
            if not room.bot.alive():
                raise RuntimeError(f"the bot died:\n{room.bot.tail()}")
            room.fake.prune()
        for agent in agents:
            agent.poke()
    cpu1, main1, own1, busy1 = _cpu(rooms), bot.main_thread_cpu(), own_cpu(), machine_busy()
    db1, t1 = database.cpu() if database else 0.0, time.monotonic()
    bot.window(start=False)
    tally = CallTally()
    for room in rooms:
        room.tally = room.fake.reset_counters()
        tally.total += room.tally.total
        tally.by_route.update(room.tally.by_route)
        tally.errors.update(room.tally.errors)
        tally.latencies += room.tally.latencies
        tally.interactions += room.tally.interactions
    memory = bot.memory()
    rss1 = memory["VmRSS"]
    counts: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    decisions: list[int] = []
    for room in rooms:
        made = 0
        for agent in room.agents:
            for name, value in asdict(agent.counts).items():
                counts[name] += value - before[id(agent)][name] if isinstance(value, int) else 0
            made += agent.counts.decisions - before[id(agent)]["decisions"]
            refusals.update(agent.refusals)
        decisions.append(made)
    for agent in agents:
        agent.active = False
    await asyncio.gather(*(a.stop() for a in agents))
    for room in rooms:
        with contextlib.suppress(TimeoutError):
            await room.fake.quiet(period=1.0, timeout=20)  # what was in flight is done; every table waits
    rss_after = bot.memory()["VmRSS"]
    if memory_trace is not None:
        bot.dump_memory()
        await asyncio.sleep(3.0)  # the snapshot is written before the bot is stopped
    elapsed = t1 - t0
    actions = counts["decisions"]
    latencies = tally.latencies
    spent = sum(cpu1) - sum(cpu0)
    violations = [v for room in rooms for v in room.fake.violations]
    dealt, audit = await _bank_after(db, [room.fake.guild.id for room in rooms])
    figures = Figures(
        mode=label, tables=tables, seconds=round(elapsed, 2), actions=actions,
        interactions=tally.interactions, rest_calls=tally.total,
        latency_median_ms=1000 * statistics.median(latencies) if latencies else float("nan"),
        latency_p99_ms=1000 * percentile(latencies, 0.99),
        latency_max_ms=1000 * max(latencies, default=float("nan")),
        actions_per_second=actions / elapsed,
        cpu_ms_per_action=1000 * spent / actions if actions else float("nan"),
        net_cpu_ms_per_action=1000 * max(0.0, spent - idle_share * elapsed) / actions
        if actions else float("nan"), idle_cpu_share=idle_share,
        bot_cpu_share=spent / elapsed, loop_cpu_share=(main1 - main0) / elapsed,
        fake_cpu_share=(own1 - own0) / elapsed,
        rest_per_action=tally.total / actions if actions else float("nan"),
        rss_base_kb=rss_base, rss_idle_kb=rss_idle, idle_kb_per_table=(rss_idle - rss_base) / tables,
        peak_rss_kb=memory["VmHWM"], rss_after_kb=rss_after, after_kb_per_table=(rss_after - rss_base) / tables,
        window_growth_kb=rss1 - rss0,
        refused=counts["refused"], stale=counts["stale"],
        rebuys=counts["rebuys"], draws=counts["draws"], picks=counts["picks"],
        other_cpu_share=max(0.0, (busy1 - busy0) - spent - (own1 - own0) - (db1 - db0)) / elapsed,
        errors={str(k): v for k, v in tally.errors.items()},
        violations=dict(Counter(v.kind for v in violations)), warmup_violations=len(warmup_violations),
        violation_kinds=dict(Counter(_what(v.detail) for v in violations).most_common(5)),
        refusals=dict(refusals.most_common(5)), routes=dict(tally.by_route.most_common()),
        engine="sqlite" if database is None else "postgresql", processes=len(rooms), shards=shards,
        db_cpu_share=(db1 - db0) / elapsed,
        per_process=[{"actions/s": made / elapsed, "CPU ms/action": 1000 * (c1 - c0) / made if made else float("nan"),
                      "tables dealt": dealt[room.fake.guild.id]}
                     for made, c0, c1, room in zip(decisions, cpu0, cpu1, rooms)],
        tables_dealt=sum(dealt.values()), audit=audit,
    )
    say(f"{actions} actions in {elapsed:.1f} s")
    return figures


async def _bank_after(db: Path | str, guilds: Sequence[int]) -> tuple[Counter[int], list[str]]:
    """After the run: the tables with hands dealt, by server (each process's fake Discord has only its own server,
    whose tables only that process deals), and the audit of every server in the bank (its problems; none: clean)."""
    from bot.store import Store

    store = await Store.open_readonly(db)
    try:
        rows = await store.db.fetch("SELECT t.guild_id, count(DISTINCT h.table_id) FROM hands h"
                                    " JOIN tables t ON t.id = h.table_id GROUP BY t.guild_id")
        dealt = Counter({int(guild): int(count) for guild, count in rows})
        problems = [f"guild {guild}: tables dealt in a server no process plays" for guild in dealt
                    if guild not in guilds]
        for report in await store.audit_all():
            problems += [f"guild {report.guild_id}: {problem}" for problem in report.problems]
        return dealt, problems
    finally:
        await store.close()


# ------------------------------------------------------------------ the report


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


COLUMNS: tuple[tuple[str, str, Callable[[Figures], str]], ...] = (
    ("mode", "<9", lambda f: f.mode),
    ("bank", "<10", lambda f: f.engine),
    ("processes", ">9", lambda f: f"{f.processes}" + (f"/{f.shards}sh" if f.shards else "")),
    ("tables", ">6", lambda f: f"{f.tables}"),
    ("actions/s", ">9", lambda f: f"{f.actions_per_second:.0f}"),
    ("interactions/s", ">14", lambda f: f"{f.interactions / f.seconds:.0f}"),
    ("p50 ms", ">7", lambda f: f"{f.latency_median_ms:.1f}"),
    ("p99 ms", ">7", lambda f: f"{f.latency_p99_ms:.1f}"),
    ("CPU ms/action", ">13", lambda f: f"{f.cpu_ms_per_action:.2f}"),
    ("net CPU ms/action", ">17", lambda f: f"{f.net_cpu_ms_per_action:.2f}"),
    ("bot CPU", ">7", lambda f: f"{100 * f.bot_cpu_share:.0f}%"),
    ("fake CPU", ">8", lambda f: f"{100 * f.fake_cpu_share:.0f}%"),
    ("db CPU", ">6", lambda f: f"{100 * f.db_cpu_share:.0f}%"),
    ("other CPU", ">9", lambda f: f"{100 * f.other_cpu_share:.0f}%"),
    ("REST/action", ">11", lambda f: f"{f.rest_per_action:.2f}"),
    ("REST/interaction", ">16", lambda f: f"{f.rest_calls / f.interactions:.2f}" if f.interactions else "-"),
    ("peak RSS MB", ">11", lambda f: f"{f.peak_rss_kb / 1024:.0f}"),
    ("idle KB/table", ">13", lambda f: f"{f.idle_kb_per_table:.1f}"),
    ("after play MB", ">13", lambda f: f"{f.rss_after_kb / 1024:.0f}"),
    ("RSS growth KB/1k actions", ">24", lambda f: f"{1000 * f.window_growth_kb / f.actions:.0f}" if f.actions else "-"),
    ("problems", ">8", lambda f: f"{f.refused + sum(f.violations.values()) + sum(f.errors.values())}"),
)


def table_text(results: Sequence[Figures], *, markdown: bool = False) -> str:
    """The figures as a table (``markdown``: a Markdown table)."""
    if markdown:
        lines = ["| " + " | ".join(name for name, _, _ in COLUMNS) + " |",
                 "|" + "|".join("---" if align.startswith("<") else "---:" for _, align, _ in COLUMNS) + "|"]
        lines += ["| " + " | ".join(cell(f) for _, _, cell in COLUMNS) + " |" for f in results]
        return "\n".join(lines)
    header = " ".join(f"{name:{align}}" for name, align, _ in COLUMNS)
    lines = [header, "-" * len(header)]
    lines += [" ".join(f"{cell(f):{align}}" for _, align, cell in COLUMNS) for f in results]
    return "\n".join(lines)


def interaction_calls(f: Figures) -> int:
    """Calls to the interaction endpoints (answers, and the interaction webhook: follow-ups, edits of a click's
    message through its token), which Discord's global rate limit does not count."""
    return f.routes.get("POST interaction callback", 0) + sum(
        n for name, n in f.routes.items() if name.endswith("interaction webhook"))


def targets_text(results: Sequence[Figures]) -> str:
    lines = []
    for f in results:
        if f.mode == "paced" and f.tables == 100:
            lines.append(f"paced, 100 tables, p99 {f.latency_p99_ms:.1f} ms < {TARGET_P99_MS:.0f} ms: "
                         f"{verdict(f.latency_p99_ms < TARGET_P99_MS)}")
    for f in results:
        if f.mode.startswith("paced") and f.actions:
            bound = (f.rest_calls - interaction_calls(f)) / f.actions
            budget = (f"<= {TARGET_GLOBAL_PER_DECISION}: {verdict(bound <= TARGET_GLOBAL_PER_DECISION)}"
                      if f.mode == "paced" else "(reported: players this slow get turn alerts)")
            lines.append(f"{f.mode}, {f.tables} tables: REST calls under the global limit per decision {bound:.2f} "
                         f"{budget}")
    saturated = [f for f in results if f.mode == "saturated"]
    if saturated:
        best = max(saturated, key=lambda f: f.actions_per_second)
        lines.append(f"saturated, best {best.actions_per_second:.0f} actions/s ({best.tables} tables) >= "
                     f"{TARGET_ACTIONS:.0f}: {verdict(best.actions_per_second >= TARGET_ACTIONS)}")
    for f in results:
        if f.mode not in ("paced", "saturated") and f.interactions:  # slow players: alerts come on top
            per_click = f.rest_calls / f.interactions
            lines.append(f"{f.mode}, {f.tables} tables: REST calls per player action {per_click:.2f} "
                         "(reported: turn alerts are DMs on top of the actions)")
    judged = [f for f in results if f.mode in ("paced", "saturated")]
    total_rest, total_actions = sum(f.rest_calls for f in judged), sum(f.actions for f in judged)
    total_interactions = sum(f.interactions for f in judged)
    if total_actions and total_interactions:
        per_click = total_rest / total_interactions
        lines.append(f"REST calls per player action (each click, select or form a player sends), paced 1 s and "
                     f"saturated runs: {per_click:.2f} <= {TARGET_REST}: {verdict(per_click <= TARGET_REST)}")
        answers = sum(interaction_calls(f) for f in judged) / total_actions
        dms = sum(f.routes.get("POST dm message", 0) for f in judged) / total_actions
        lines.append(f"  per decision: {total_rest / total_actions:.2f} = {answers:.2f} answers and token edits "
                     f"(a draw of k cards from the picker is k + 2 interactions) + {dms:.2f} DMs of cards dealt "
                     f"or drawn + {total_rest / total_actions - answers - dms:.2f} other")
        bound = total_rest / total_actions - answers
        per_token = f"so about {GLOBAL_LIMIT / bound:.0f} decisions/s per bot token" if bound > 0 else "none counted"
        lines.append(f"  under Discord's global limit of {GLOBAL_LIMIT} requests/s (not the interaction endpoints): "
                     f"{bound:.2f} per decision, {per_token}")
    lines += engines_text(results)
    sized = [f for f in results if f.tables >= 100]
    if sized:
        worst = max(f.idle_kb_per_table for f in sized)
        lines.append(f"memory per idle table (runs of 100+ tables), worst {worst:.0f} KB < {TARGET_IDLE_KB:.0f} KB: "
                     f"{verdict(worst < TARGET_IDLE_KB)}")
    for mode in ("paced", "saturated"):
        costs = {f.tables: f.net_cpu_ms_per_action for f in results if f.mode == mode and f.tables >= 10}
        if len(costs) >= 2:
            first = costs[min(costs)]
            growth = max(c / first for c in costs.values())
            shown = ", ".join(f"{n}: {c:.2f}" for n, c in sorted(costs.items()))
            lines.append(f"{mode}: CPU ms/action by tables ({shown}); at most {growth:.2f}x the {min(costs)}-table "
                         f"figure (flat: no more than 1.25x): {verdict(growth <= 1.25)}")
    return "\n".join(lines)


def engines_text(results: Sequence[Figures]) -> list[str]:
    """PostgreSQL against SQLite (same mode and tables), and several processes against one (same bank)."""
    lines = []
    for f in results:
        twin = next((g for g in results if g.engine == "sqlite" and (g.mode, g.tables, g.processes, g.shards) ==
                     (f.mode, f.tables, f.processes, f.shards)), None)
        if f.engine == "postgresql" and twin is not None and twin.actions and f.actions:
            ratio = f.cpu_ms_per_action / twin.cpu_ms_per_action
            with_db = (f.cpu_ms_per_action + 1000 * f.db_cpu_share / f.actions_per_second) / twin.cpu_ms_per_action
            fast = f.latency_p99_ms < TARGET_P99_MS
            lines.append(f"{f.mode}, {f.tables} tables: PostgreSQL / SQLite CPU per decision {ratio:.2f}x (the bot's "
                         f"process; {with_db:.2f}x with the server's CPU) <= 1.3x: {verdict(ratio <= 1.3)}; p99 "
                         f"{f.latency_p99_ms:.1f} ms < {TARGET_P99_MS:.0f} ms: {verdict(fast)}")
    for f in results:
        if f.processes < 2:
            continue
        one = next((g for g in results if g.processes == 1 and (g.engine, g.mode, g.tables, g.shards) ==
                    (f.engine, f.mode, f.tables, f.shards)), None)
        each = ", ".join(f"{p['CPU ms/action']:.2f} ms at {p['actions/s']:.0f}/s, {p['tables dealt']:.0f} tables"
                         for p in f.per_process)
        if one is not None and one.actions:
            worst = max(p["CPU ms/action"] for p in f.per_process) / one.cpu_ms_per_action
            lines.append(f"{f.mode}, {f.tables} tables, {f.engine}: {f.processes} processes ({each}) against one "
                         f"({one.cpu_ms_per_action:.2f} ms at {one.actions_per_second:.0f}/s): each within "
                         f"{worst:.2f}x <= 1.2x: {verdict(worst <= 1.2)}; {f.actions_per_second:.0f} decisions/s "
                         f"in all; tables dealt {f.tables_dealt} of {f.tables}, each by its server's process "
                         f"(HTTP errors: {sum(f.errors.values())}); {audit_text(f)}")
    return lines


def audit_text(f: Figures) -> str:
    """The audit of the bank after a run, in a few words."""
    if not f.audit:
        return "audit clean (chips conserved in every server)"
    return f"audit: {len(f.audit)} PROBLEM(S): " + "; ".join(f.audit[:3])


def routes_text(results: Sequence[Figures]) -> str:
    lines = ["REST calls per action, by route:"]
    names = sorted({name for f in results for name in f.routes}, key=lambda n: -sum(f.routes.get(n, 0)
                                                                                     for f in results))
    for f in results:
        if not f.actions:
            continue
        parts = [f"{name} {f.routes[name] / f.actions:.2f}" for name in names if f.routes.get(name)]
        lines.append(f"  {f.mode} {f.tables}: " + "; ".join(parts)
                     + f" (per action: {f.interactions / f.actions:.2f} interactions, {f.draws / f.actions:.2f} "
                       f"draws, {f.picks / f.actions:.2f} with cards picked)")
    return "\n".join(lines)


def problems_text(results: Sequence[Figures]) -> str:
    lines = []
    for f in results:
        if f.other_cpu_share > 0.1:
            lines.append(f"  {f.mode} {f.tables}: other processes used {100 * f.other_cpu_share:.0f}% of a core during "
                         "the run: the machine was not quiet, the figures are pessimistic")
        if f.audit:
            lines.append(f"  {f.mode} {f.tables} {f.engine}: {audit_text(f)}")
        if f.errors or f.violations or f.refused or f.warmup_violations:
            lines.append(f"  {f.mode} {f.tables}: HTTP errors {f.errors or 'none'}; refused clicks {f.refused} "
                         f"{f.refusals or ''}; violations {f.violations or 'none'} {f.violation_kinds or ''} "
                         f"(during the warm-up: {f.warmup_violations})")
    return ("Problems seen:\n" + "\n".join(lines)) if lines else ("No HTTP error, refused click or violation; every "
                                                                  "bank audited clean after its run.")


async def wait_for_quiet(limit: float) -> None:
    """Wait (up to ``limit`` seconds) until the machine is idle: less than 15% of a core busy for 3 s in a row."""
    deadline, quiet = time.monotonic() + limit, 0
    while time.monotonic() < deadline:
        before = machine_busy()
        await asyncio.sleep(1.0)
        quiet = quiet + 1 if machine_busy() - before < 0.15 else 0
        if quiet >= 3:
            return
    print(f"  the machine stayed busy for {limit:g} s; measuring anyway", file=sys.stderr, flush=True)


async def main_async(args: argparse.Namespace) -> int:
    modes = ["paced", "saturated"] if args.mode == "both" else [args.mode]
    cases = [(mode, pace, engine, processes) for mode in modes for pace in (args.pace if mode == "paced" else [0.0])
             for engine in args.db for processes in args.processes]
    folder = Path(tempfile.mkdtemp(prefix="bench-load-", dir=args.dir))
    results: list[Figures] = []
    failures: list[str] = []
    database = DatabaseServer() if "postgresql" in args.db else None
    try:
        for mode, pace, engine, processes in cases:
            for tables in args.tables:
                if args.wait_quiet:
                    await wait_for_quiet(args.wait_quiet)
                paced = f" (players take {pace:g} s)" if pace else ""
                print(f"running {mode}{paced}, {tables} tables, {engine}, {processes} process(es), {args.seconds:g} s"
                      " ...", file=sys.stderr, flush=True)
                tries: list[Figures] = []
                for _ in range(args.repeat):
                    try:
                        tries.append(await asyncio.wait_for(
                            run(mode, tables, args.seconds, warmup=args.warmup, seed=args.seed,
                                next_hand_delay=args.next_hand_delay, folder=folder, profile=args.profile,
                                quiet=args.quiet, variant=args.variant, sample=args.sample,
                                memory_trace=args.tracemalloc, pace=pace,
                                database=database if engine == "postgresql" else None, processes=processes,
                                shards=args.shards),
                            timeout=args.seconds + args.warmup + 300))
                    except Exception as error:  # one failed run does not lose the others' figures
                        failures.append(f"{mode} {tables}: {type(error).__name__}: {error}")
                        print(f"  FAILED: {failures[-1]}", file=sys.stderr, flush=True)
                    if tries and tries[-1].other_cpu_share < 0.05:
                        break  # a quiet run: no need for another
                if tries:  # the run the rest of the machine disturbed least
                    results.append(min(tries, key=lambda f: f.other_cpu_share))
    finally:
        if database is not None:
            database.stop()
        if args.keep:
            print(f"kept {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    print(table_text(results))
    print()
    if args.markdown:
        print(table_text(results, markdown=True))
        print()
    print(targets_text(results))
    print()
    print(routes_text(results))
    print(problems_text(results))
    for failure in failures:
        print(f"FAILED RUN: {failure}")
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(f) for f in results], indent=2))
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("paced", "saturated", "both"), default="both")
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 100, 500])
    parser.add_argument("--pace", type=float, nargs="+", default=[PACED_DELAY], metavar="SECONDS",
                        help="paced: the seconds a player takes to act (8 lets turn alerts fire); several: a run each")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default=TABLE_OPTIONS["game"],
                        help="what the tables deal: dealers-choice (default), a game id, or horse / eight-game")
    parser.add_argument("--next-hand-delay", type=float, default=None,
                        help="the bot's pause between hands (default: 1 s paced, 0.05 s saturated)")
    parser.add_argument("--profile", type=Path, default=None, help="run the bot under cProfile, stats to FILE")
    parser.add_argument("--variant", default="",
                        help="run bench/variants.py with these proposed changes (comma-separated) instead of the bot")
    parser.add_argument("--sample", type=Path, default=None,
                        help="sample the bot's event loop while measuring (bench/sampler.py); report to FILE")
    parser.add_argument("--tracemalloc", type=Path, default=None,
                        help="trace the bot's allocations (slow); once play stops, write the biggest to FILE")
    parser.add_argument("--db", nargs="+", choices=("sqlite", "postgresql"), default=["sqlite"],
                        help="the bank: an SQLite file, or a throwaway PostgreSQL server (several: a run each)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1],
                        help="bot processes over the one bank, the shards split between them (several: a run each)")
    parser.add_argument("--shards", type=int, default=0,
                        help="SHARD_COUNT of the bot (default: none; with --processes 2, at least 2)")
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary database goes")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the database and the bot's log")
    parser.add_argument("--markdown", action="store_true", help="also print the table in Markdown")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each case up to N times until one ran on a quiet machine; keep the quietest")
    parser.add_argument("--wait-quiet", type=float, default=0.0, metavar="SECONDS",
                        help="before each run, wait up to SECONDS for the machine to be idle")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if max(args.processes) > 1 and args.shards < max(args.processes):
        parser.error("--processes N needs --shards N or more (each process runs some of the shards)")
    TABLE_OPTIONS["game"] = args.game
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(main_async(args))
    return 130


if __name__ == "__main__":
    sys.exit(main())
