"""Each player's net over the hands of a night, and its chip graph as a PNG for ``/chips graph``.

``net_series`` adds up what each hand changed in each player's stack
(``stacks_after - stacks_before``), so buying in, rebuying or topping up
between hands is no jump: the line is what he won or lost at the table.

``chip_graph_png`` draws it with matplotlib's object API and the Agg canvas
(no pyplot, no global backend or style change), so it is safe to call from a
worker thread while the event loop goes on. A 300-hand night of 8 players
takes 0.1 to 0.4 s on the shared 2-core machine, and the first call also
imports matplotlib (0.5 to 1.3 s): call it off the event loop
(``bench/bench_night.py`` measures it).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Protocol

from bot.i18n.text import ENGLISH, Language, say

Series = dict[int, list[tuple[int, int]]]

# Okabe and Ito's palette for colour-blind readers (its weak yellow last); line styles tell apart players who
# share a colour past eight.
COLOURS: Final = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#56B4E9", "#E69F00", "#999999")
STYLES: Final = ("solid", (0, (6, 2)), (0, (1.5, 1.5)), (0, (6, 2, 1.5, 2)))
SIZE_PX: Final = (1000, 800)
NAME_LENGTH: Final = 12


class HandResult(Protocol):
    """What the graph needs of a stored hand (``bot.store.tables.HandRecord`` has it)."""

    @property
    def seat_users(self) -> Sequence[int]: ...

    @property
    def stacks_before(self) -> Sequence[int]: ...

    @property
    def stacks_after(self) -> Sequence[int] | None: ...


def net_series(hands: Iterable[HandResult], refunds: Mapping[int, int] | None = None) -> Series:
    """Each player's cumulative net over the finished hands, in the order given, as (hand, net) points.

    Hands are numbered 1, 2, ... over those with ``stacks_after`` (a voided or
    live hand is skipped). A player's line starts at 0 just before his first
    hand and has a point after each hand he was dealt in. ``refunds``
    (carried chips returned to players when the table closed) are added to
    each player's last point, so that it is his net for the night.
    """
    series: Series = {}
    number = 0
    for hand in hands:
        after = hand.stacks_after
        if after is None:
            continue
        if not len(hand.seat_users) == len(hand.stacks_before) == len(after):
            raise ValueError(f"hand {number + 1} names {len(hand.seat_users)} players for "
                             f"{len(hand.stacks_before)} stacks before and {len(after)} after")
        number += 1
        for user, before, now in zip(hand.seat_users, hand.stacks_before, after):
            points = series.setdefault(user, [(number - 1, 0)])
            points.append((number, points[-1][1] + now - before))
    for user, amount in (refunds or {}).items():
        points = series.setdefault(user, [(0, 0)])
        points[-1] = (points[-1][0], points[-1][1] + amount)
    return series


def chip_graph_png(series: Mapping[int, Sequence[tuple[int, int]]], names: Mapping[int, str], title: str, *,
                   lang: Language = ENGLISH) -> bytes:
    """A PNG (about 1000x800 px) with one line a player, best finish first in the legend, and the zero line.

    ``names`` gives each user's display name (the user id if missing); ``lang`` words the axes and writes the
    amounts (``title`` comes worded).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    width, height = SIZE_PX
    figure = Figure(figsize=(width / 100, height / 100), dpi=100, facecolor="white", layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_title(title, fontsize=32, fontweight="bold", loc="left", pad=14)
    order = sorted(series, key=lambda user: (-series[user][-1][1] if series[user] else 0, user))
    for k, user in enumerate(order):
        points = series[user]
        if not points:
            continue
        xs, ys = [x for x, _ in points], [y for _, y in points]
        label = f"{_short_name(names.get(user, str(user)))} {_signed(ys[-1], lang)}"
        axes.plot(xs, ys, color=COLOURS[k % len(COLOURS)], linestyle=STYLES[k // len(COLOURS) % len(STYLES)],
                  linewidth=4, label=label, zorder=2, solid_capstyle="round")
    if not order:
        axes.text(0.5, 0.5, say(lang, "No hands yet"), transform=axes.transAxes, ha="center", va="center",
                  fontsize=32)
    axes.set_xlabel(say(lang, "Hand"), fontsize=26)
    axes.set_ylabel(say(lang, "Chips won"), fontsize=26)
    axes.tick_params(labelsize=24, length=6, width=1.5)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: _signed(round(value), lang) if value else "0"))
    axes.grid(True, axis="y", color="#E4E4E4", linewidth=1, zorder=0)
    axes.margins(x=0.01)
    low, high = axes.get_ylim()
    if low < 0:
        axes.axhspan(low, 0, color="#F2F2F2", zorder=0, linewidth=0)  # below break-even, shaded
    axes.axhline(0, color="#333333", linewidth=3, linestyle=(0, (4, 2)), zorder=1)
    axes.set_ylim(low, high)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    if order:
        figure.legend(loc="outside lower center", ncols=2, fontsize=26, frameon=False, handlelength=1.5,
                      columnspacing=1.5, labelspacing=0.25)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=100, metadata={"Software": None})
    return out.getvalue()


def _short_name(name: str) -> str:
    return name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 1] + "…"


def _signed(amount: int, lang: Language) -> str:
    """A net with its sign, grouped the reader's way: ``+1,200``, ``-350``."""
    return ("-" if amount < 0 else "+") + lang.number(abs(amount))
