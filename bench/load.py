"""Load benchmark: the real bot, in its own process, against the fake Discord, with N tables of six players.

    python bench/load.py                                  the matrix: paced and saturated, N = 1, 10, 100, 500
    python bench/load.py --mode paced --tables 100 --seconds 30
    python bench/load.py --mode saturated --tables 10 --profile /tmp/bot.prof

The bot runs as ``python -m pokerdev.launch`` (a subprocess, on a fresh SQLite file) and the fake Discord in
this process, on 127.0.0.1 only. Each table has its own channel and six scripted players
(:mod:`pokerdev.autoplay`) who play dealer's choice from what the table message shows: the player to act
clicks a button (a draw through Stand pat or the draw form, the chooser through the select), out-of-chips players
rebuy.

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
from pokerdev.observed import ObservedFake

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

    def __init__(self, port: int, db: Path, *, seed: int, next_hand_delay: float, profile: Path | None,
                 log: Path, variant: str = "", sample: Path | None = None,
                 memory_trace: Path | None = None) -> None:
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


async def run(mode: str, tables: int, seconds: float, *, warmup: float, seed: int, next_hand_delay: float | None,
              folder: Path, profile: Path | None = None, quiet: bool = False, variant: str = "",
              sample: Path | None = None, memory_trace: Path | None = None, pace: float = PACED_DELAY) -> Figures:
    """Open ``tables`` tables on a fresh bot, play ``warmup`` then ``seconds`` seconds, and measure (paced: each
    player acts ``pace`` seconds after his turn starts)."""
    pace = pace if mode == "paced" else 0.0
    label = mode if pace in (0.0, PACED_DELAY) else f"paced {pace:g}s"
    delay = next_hand_delay if next_hand_delay is not None else (1.0 if mode == "paced" else 0.05)
    users = [UserSpec("owner")] + [UserSpec(f"t{t}p{s}") for t in range(tables) for s in range(SEATS)]
    config = FakeConfig(channels=[f"table-{t}" for t in range(tables)], users=users, rate_limit=UNREACHABLE_LIMIT,
                        check_deferred=False, spec_checks=False)  # the tests check bodies; here, CPU figures
    fake = ObservedFake(config, lean=True)
    await fake.start()
    db = folder / f"load-{mode}-{tables}.db"
    bot = BotProcess(fake.port, db, seed=seed, next_hand_delay=delay, profile=profile,
                     log=folder / f"bot-{mode}-{tables}.log", variant=variant, sample=sample,
                     memory_trace=memory_trace)
    rng = random.Random(seed)
    agents: list[TablePlayers] = []

    def say(text: str) -> None:
        if not quiet:
            print(f"  [{mode} {tables}] {text}", file=sys.stderr, flush=True)

    try:
        await wait_until(lambda: fake.global_commands and fake.connected(), 30, "the bot to connect", bot)
        await asyncio.sleep(1.0)  # GUILD_CREATE handled, the bot idle
        rss_base = bot.memory()["VmRSS"]
        agents = [
            TablePlayers(fake, f"table-{t}", [f"t{t}p{s}" for s in range(SEATS)], pace=pace, buy_in=BUY_IN,
                         policy=Policy(random.Random(rng.randrange(1 << 30))), forget=True)
            for t in range(tables)
        ]
        by_channel = {a.channel.id: a for a in agents}
        def watch(message: StoredMessage, created: bool) -> None:
            agent = by_channel.get(message.channel_id)
            if agent is not None:
                agent.watch(message, created)

        fake.watchers.append(watch)
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
        idle0 = bot.cpu()
        await asyncio.sleep(IDLE_SAMPLE)
        idle_share = (bot.cpu() - idle0) / IDLE_SAMPLE  # the bot's CPU with every table open and nothing dealt
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
        with contextlib.suppress(TimeoutError):
            await wait_until(lambda: fake.dm_channel_count() >= SEATS * tables, 60, "every player's first DM", bot)

        fake.reset_counters()
        warmup_violations = fake.take_violations()
        for agent in agents:
            agent.refusals.clear()
        before = {id(a): asdict(a.counts) for a in agents}
        bot.window(start=True)
        rss0 = bot.memory()["VmRSS"]
        cpu0, main0, own0, busy0, t0 = bot.cpu(), bot.main_thread_cpu(), own_cpu(), machine_busy(), time.monotonic()
        end = t0 + seconds
        while (now := time.monotonic()) < end:
            await asyncio.sleep(min(1.0, end - now))
            if not bot.alive():
                raise RuntimeError(f"the bot died:\n{bot.tail()}")
            for agent in agents:
                agent.poke()
            fake.prune()
        cpu1, main1, own1, busy1, t1 = bot.cpu(), bot.main_thread_cpu(), own_cpu(), machine_busy(), time.monotonic()
        bot.window(start=False)
        tally = fake.reset_counters()
        memory = bot.memory()
        rss1 = memory["VmRSS"]
        counts: Counter[str] = Counter()
        refusals: Counter[str] = Counter()
        for agent in agents:
            for name, value in asdict(agent.counts).items():
                counts[name] += value - before[id(agent)][name] if isinstance(value, int) else 0
            refusals.update(agent.refusals)
        for agent in agents:
            agent.active = False
        await asyncio.gather(*(a.stop() for a in agents))
        with contextlib.suppress(TimeoutError):
            await fake.quiet(period=1.0, timeout=20)  # what was in flight is done; every table waits for a player
        rss_after = bot.memory()["VmRSS"]
        if memory_trace is not None:
            bot.dump_memory()
            await asyncio.sleep(3.0)  # the snapshot is written before the bot is stopped
        elapsed = t1 - t0
        actions = counts["decisions"]
        latencies = tally.latencies
        figures = Figures(
            mode=label, tables=tables, seconds=round(elapsed, 2), actions=actions,
            interactions=tally.interactions, rest_calls=tally.total,
            latency_median_ms=1000 * statistics.median(latencies) if latencies else float("nan"),
            latency_p99_ms=1000 * percentile(latencies, 0.99),
            latency_max_ms=1000 * max(latencies, default=float("nan")),
            actions_per_second=actions / elapsed,
            cpu_ms_per_action=1000 * (cpu1 - cpu0) / actions if actions else float("nan"),
            net_cpu_ms_per_action=1000 * max(0.0, cpu1 - cpu0 - idle_share * elapsed) / actions
            if actions else float("nan"), idle_cpu_share=idle_share,
            bot_cpu_share=(cpu1 - cpu0) / elapsed, loop_cpu_share=(main1 - main0) / elapsed,
            fake_cpu_share=(own1 - own0) / elapsed,
            rest_per_action=tally.total / actions if actions else float("nan"),
            rss_base_kb=rss_base, rss_idle_kb=rss_idle, idle_kb_per_table=(rss_idle - rss_base) / tables,
            peak_rss_kb=memory["VmHWM"], rss_after_kb=rss_after, after_kb_per_table=(rss_after - rss_base) / tables,
            window_growth_kb=rss1 - rss0,
            refused=counts["refused"], stale=counts["stale"],
            rebuys=counts["rebuys"], draws=counts["draws"], picks=counts["picks"],
            other_cpu_share=max(0.0, (busy1 - busy0) - (cpu1 - cpu0) - (own1 - own0)) / elapsed,
            errors={str(k): v for k, v in tally.errors.items()},
            violations=dict(Counter(v.kind for v in fake.violations)), warmup_violations=len(warmup_violations),
            violation_kinds=dict(Counter(_what(v.detail) for v in fake.violations).most_common(5)),
            refusals=dict(refusals.most_common(5)), routes=dict(tally.by_route.most_common()),
        )
        say(f"{actions} actions in {elapsed:.1f} s")
        return figures
    finally:
        for agent in agents:
            agent.active = False
        await asyncio.gather(*(a.stop() for a in agents), return_exceptions=True)
        with contextlib.suppress(TimeoutError):
            await fake.quiet(period=0.5, timeout=10)  # the bot finishes what it was sending, then stops
        await bot.stop()
        await fake.stop()


# ------------------------------------------------------------------ the report


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


COLUMNS: tuple[tuple[str, str, Callable[[Figures], str]], ...] = (
    ("mode", "<9", lambda f: f.mode),
    ("tables", ">6", lambda f: f"{f.tables}"),
    ("actions/s", ">9", lambda f: f"{f.actions_per_second:.0f}"),
    ("interactions/s", ">14", lambda f: f"{f.interactions / f.seconds:.0f}"),
    ("p50 ms", ">7", lambda f: f"{f.latency_median_ms:.1f}"),
    ("p99 ms", ">7", lambda f: f"{f.latency_p99_ms:.1f}"),
    ("CPU ms/action", ">13", lambda f: f"{f.cpu_ms_per_action:.2f}"),
    ("net CPU ms/action", ">17", lambda f: f"{f.net_cpu_ms_per_action:.2f}"),
    ("bot CPU", ">7", lambda f: f"{100 * f.bot_cpu_share:.0f}%"),
    ("fake CPU", ">8", lambda f: f"{100 * f.fake_cpu_share:.0f}%"),
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
        lines.append(f"  under Discord's global limit of {GLOBAL_LIMIT} requests/s (not the interaction endpoints): "
                     f"{bound:.2f} per decision, so about {GLOBAL_LIMIT / bound:.0f} decisions/s per bot token")
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
        if f.errors or f.violations or f.refused or f.warmup_violations:
            lines.append(f"  {f.mode} {f.tables}: HTTP errors {f.errors or 'none'}; refused clicks {f.refused} "
                         f"{f.refusals or ''}; violations {f.violations or 'none'} {f.violation_kinds or ''} "
                         f"(during the warm-up: {f.warmup_violations})")
    return ("Problems seen:\n" + "\n".join(lines)) if lines else "No HTTP error, refused click or violation."


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
    cases = [(mode, pace) for mode in modes for pace in (args.pace if mode == "paced" else [0.0])]
    folder = Path(tempfile.mkdtemp(prefix="bench-load-", dir=args.dir))
    results: list[Figures] = []
    failures: list[str] = []
    try:
        for mode, pace in cases:
            for tables in args.tables:
                if args.wait_quiet:
                    await wait_for_quiet(args.wait_quiet)
                paced = f" (players take {pace:g} s)" if pace else ""
                print(f"running {mode}{paced}, {tables} tables, {args.seconds:g} s ...", file=sys.stderr, flush=True)
                tries: list[Figures] = []
                for _ in range(args.repeat):
                    try:
                        tries.append(await asyncio.wait_for(
                            run(mode, tables, args.seconds, warmup=args.warmup, seed=args.seed,
                                next_hand_delay=args.next_hand_delay, folder=folder, profile=args.profile,
                                quiet=args.quiet, variant=args.variant, sample=args.sample,
                                memory_trace=args.tracemalloc, pace=pace),
                            timeout=args.seconds + args.warmup + 300))
                    except Exception as error:  # one failed run does not lose the others' figures
                        failures.append(f"{mode} {tables}: {type(error).__name__}: {error}")
                        print(f"  FAILED: {failures[-1]}", file=sys.stderr, flush=True)
                    if tries and tries[-1].other_cpu_share < 0.05:
                        break  # a quiet run: no need for another
                if tries:  # the run the rest of the machine disturbed least
                    results.append(min(tries, key=lambda f: f.other_cpu_share))
    finally:
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
    parser.add_argument("--next-hand-delay", type=float, default=None,
                        help="the bot's pause between hands (default: 1 s paced, 0.05 s saturated)")
    parser.add_argument("--profile", type=Path, default=None, help="run the bot under cProfile, stats to FILE")
    parser.add_argument("--variant", default="",
                        help="run bench/variants.py with these proposed changes (comma-separated) instead of the bot")
    parser.add_argument("--sample", type=Path, default=None,
                        help="sample the bot's event loop while measuring (bench/sampler.py); report to FILE")
    parser.add_argument("--tracemalloc", type=Path, default=None,
                        help="trace the bot's allocations (slow); once play stops, write the biggest to FILE")
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
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(main_async(args))
    return 130


if __name__ == "__main__":
    sys.exit(main())
