"""A small statistical profiler for the bot's process (py-spy is not at hand): every few milliseconds of CPU time
the process uses (``ITIMER_PROF``), a SIGPROF handler records the main thread's stack.

It adds no cost per call (cProfile inflates discord.py's many small functions several times), and a sample is
taken per CPU time spent, so the shares are shares of the CPU. Samples taken while the main thread waits in
``select`` stand for CPU used by other threads (SQLite's). ``report`` prints the functions' inclusive share and
the innermost frames' own share; ``write_collapsed`` writes the stacks in the "collapsed" format that flame graph
tools read (``frame;frame;frame count``).
"""

from __future__ import annotations

import signal
import time
from collections import Counter
from pathlib import Path
from types import FrameType

WAITING = {("selectors.py", "select")}


# Where a sample's CPU goes: the first rule (in this order) one of its frames matches.
CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("discord.py message cache scan (_get_message)", ("discord/state.py:_get_message",)),
    ("gateway MESSAGE_CREATE/UPDATE of its own messages", ("discord/state.py:parse_message_",)),
    ("gateway INTERACTION_CREATE parsing", ("discord/state.py:parse_interaction_create",)),
    ("dynamic item dispatch (View.from_message)", ("discord/ui/view.py:from_message",)),
    ("engine (bot.poker)", ("bot/poker/",)),
    ("store (bot.store, aiosqlite)", ("bot/store/", "aiosqlite/")),
    ("rendering (embed, buttons, views)", ("cogs/render.py", "_screen.py:", "_controls.py:view", "_text.py:",
                                           "_turn.py:button", "_seats.py:button", "_draw.py:picker",
                                           "discord/ui/view.py:to_comp")),
    ("REST calls (discord.py, aiohttp, JSON, Message objects)", (
        "discord/http.py:request", "discord/webhook/async_.py:request", "discord/interactions.py:edit_message",
        "discord/interactions.py:send_message", "discord/interactions.py:defer", "discord/abc.py:send",
        "discord/message.py:edit", "discord/client.py:create_dm", "discord/webhook/async_.py:send")),
    ("table layer (bot.tables)", ("bot/tables/",)),
    ("gateway: reading frames, other events", ("discord/gateway.py", "aiohttp/client_ws.py")),
    ("bot code, other (cogs)", ("cogs/",)),
)


def categorize(stack: tuple[str, ...]) -> str:
    for name, patterns in CATEGORIES:
        if any(p in label for label in stack for p in patterns):
            return name
    return "asyncio and other"


def _label(frame: FrameType) -> str:
    code = frame.f_code
    path = code.co_filename
    for marker in ("/site-packages/", "/lib/python3.11/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    else:
        path = path.rsplit("/work/main/", 1)[-1]
    return f"{path}:{code.co_name}"


class Sampler:
    """Samples the main thread's stack on SIGPROF (install it from the main thread)."""

    def __init__(self, interval: float = 0.003) -> None:
        self.interval = interval
        self.stacks: Counter[tuple[str, ...]] = Counter()
        self.waiting = 0
        self.paused = False

    def start(self) -> Sampler:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)
        return self

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)

    def reset(self) -> None:
        self.stacks.clear()
        self.waiting = 0
        self.paused = False

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        if self.paused or frame is None:
            return
        code = frame.f_code
        if (code.co_filename.rsplit("/", 1)[-1], code.co_name) in WAITING:
            self.waiting += 1
            return
        stack = []
        f: FrameType | None = frame
        while f is not None:
            stack.append(_label(f))
            f = f.f_back
        self.stacks[tuple(reversed(stack))] += 1

    def write_collapsed(self, path: Path) -> None:
        lines = [";".join(stack) + f" {count}" for stack, count in self.stacks.most_common()]
        path.write_text("\n".join(lines) + "\n")

    def report(self, top: int = 50) -> str:
        busy = sum(self.stacks.values())
        total = busy + self.waiting
        if not busy:
            return "no samples in the event loop"
        inclusive: Counter[str] = Counter()
        own: Counter[str] = Counter()
        for stack, count in self.stacks.items():
            for label in set(stack):
                inclusive[label] += count
            own[stack[-1]] += count
        categories: Counter[str] = Counter()
        for stack, count in self.stacks.items():
            categories[categorize(stack)] += count
        lines = [f"{total} CPU samples of {1000 * self.interval:g} ms: {busy} in the event loop's thread, "
                 f"{self.waiting} while it waited (other threads: SQLite); shares of the event loop's samples:",
                 "by category:"]
        lines += [f"  {100 * n / busy:5.1f}%  {name}" for name, n in categories.most_common()]
        lines.append("inclusive:")
        lines += [f"  {100 * n / busy:5.1f}%  {label}" for label, n in inclusive.most_common(top)]
        lines.append("own (innermost frame):")
        lines += [f"  {100 * n / busy:5.1f}%  {label}" for label, n in own.most_common(top // 2)]
        return "\n".join(lines)


def profile_to(path: Path) -> Sampler:
    """Start sampling; SIGUSR1 starts afresh, SIGUSR2 pauses (the load bench sends them at the start and the end
    of its measured window); at exit write ``path`` (the report) and ``path``.collapsed."""
    import atexit

    sampler = Sampler().start()
    window = [time.monotonic(), 0.0]

    def restart(*_: object) -> None:
        sampler.reset()
        window[0] = time.monotonic()

    def pause(*_: object) -> None:
        sampler.paused = True
        window[1] = time.monotonic()

    def finish() -> None:
        sampler.stop()
        seconds = (window[1] or time.monotonic()) - window[0]
        path.write_text(f"{seconds:.1f} s sampled\n" + sampler.report() + "\n")
        sampler.write_collapsed(path.with_name(path.name + ".collapsed"))

    signal.signal(signal.SIGUSR1, restart)
    signal.signal(signal.SIGUSR2, pause)
    atexit.register(finish)
    return sampler
