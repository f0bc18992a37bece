"""What a start of the bot costs: its memory and CPU once it is connected, its card emojis ready and idle.

    python bench/start.py                      this checkout's bot, a first start and a restart, three of each
    python bench/start.py --root /tmp/ref      another checkout's bot (one with devtools/pokerdev), measured alike

* first start: the application has no emojis yet (the bot draws both decks of card pictures and uploads them);
* restart: every card emoji of that checkout is uploaded already (the usual start).

The bot runs as ``python -m pokerdev.launch`` of the checkout measured, against a fake Discord in this process, on a
fresh SQLite file with no table. It counts as started when it is connected, the emoji count is what it should be,
and its CPU time has not moved for a second. Figures: RSS then (``VmRSS``), the peak so far (``VmHWM``), and the
CPU seconds it took (user + system, every thread).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerdev.fakediscord import FakeConfig, FakeDiscord, UserSpec

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
QUIET_FOR = 1.0  # seconds without CPU time moving: the start is over
GIVE_UP = 120.0


def _environment(root: Path) -> dict[str, str]:
    path = os.pathsep.join([str(root), str(root / "devtools")])
    return {**os.environ, "PYTHONPATH": path}


def _pictures(root: Path) -> dict[str, bytes]:
    """The card emojis ({name: PNG}) of the checkout at ``root``, drawn in a process of its own."""
    code = "import pickle, sys; from cogs.card_emojis import card_emoji_pictures; " \
           "sys.stdout.buffer.write(pickle.dumps(card_emoji_pictures()))"
    out = subprocess.run([sys.executable, "-c", code], env=_environment(root), cwd=root, check=True,
                         capture_output=True).stdout
    pictures: dict[str, bytes] = pickle.loads(out)
    return pictures


def _status(pid: int) -> tuple[int, int, float]:
    """VmRSS and VmHWM in KB, and CPU seconds, of process ``pid``."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0]), (int(stat[11]) + int(stat[12])) / TICK


async def start_once(root: Path, pictures: dict[str, bytes] | None, folder: Path) -> tuple[int, int, float]:
    """One start of the bot at ``root``, the application holding ``pictures`` (None: no emoji); its figures."""
    fake = FakeDiscord(FakeConfig(channels=["table-0"], users=[UserSpec("owner")], spec_checks=False))
    await fake.start()
    if pictures:
        fake.preload_emojis(pictures)
    expected = len(EXPECTED[root])  # emojis once the start is over (a first start uploads them)
    db = folder / f"start-{time.monotonic_ns()}.db"
    with (folder / "bot.log").open("ab") as log:
        proc = subprocess.Popen([sys.executable, "-m", "pokerdev.launch", "--port", str(fake.port), "--db", str(db)],
                                env=_environment(root), cwd=root, stdout=log, stderr=subprocess.STDOUT)
    try:
        began = time.monotonic()
        last_cpu, quiet_since = -1.0, time.monotonic()
        while True:
            await asyncio.sleep(0.1)
            if proc.poll() is not None:
                raise RuntimeError(f"the bot stopped (exit {proc.returncode}); see {folder / 'bot.log'}")
            if time.monotonic() - began > GIVE_UP:
                raise RuntimeError("the bot did not settle")
            rss, peak, cpu = _status(proc.pid)
            if cpu != last_cpu:
                last_cpu, quiet_since = cpu, time.monotonic()
                continue
            ready = fake.connected() and len(list(fake.emojis)) >= expected
            if ready and time.monotonic() - quiet_since >= QUIET_FOR:
                return rss, peak, cpu
    finally:
        proc.terminate()
        proc.wait()
        await fake.stop()


EXPECTED: dict[Path, dict[str, bytes]] = {}  # a checkout's card emojis: what a first start must have uploaded


async def main_async(roots: Sequence[Path], repeat: int) -> None:
    with tempfile.TemporaryDirectory(prefix="poker-start-") as tmp:
        folder = Path(tmp)
        print(f"{'checkout':<28} {'start':<12} {'RSS MB':>8} {'peak MB':>8} {'CPU s':>7}")
        for root in roots:
            pictures = _pictures(root)
            EXPECTED[root] = pictures
            for label, preload in (("first start", None), ("restart", pictures)):
                runs = [await start_once(root, preload, folder) for _ in range(repeat)]
                rss = statistics.median(r[0] for r in runs) / 1024
                peak = statistics.median(r[1] for r in runs) / 1024
                cpu = statistics.median(r[2] for r in runs)
                print(f"{str(root)[-28:]:<28} {label:<12} {rss:8.1f} {peak:8.1f} {cpu:7.2f}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, nargs="+", default=[ROOT], help="the checkouts whose bot is measured")
    parser.add_argument("--repeat", type=int, default=3, help="starts of each kind (the median is shown)")
    args = parser.parse_args(argv)
    asyncio.run(main_async([r.resolve() for r in args.root], args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
