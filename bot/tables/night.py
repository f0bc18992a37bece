"""The night after the cards, for the commands: which night a member means, its results, boards by period, the
hands told again, and the facts of hands finished before this version.

No Discord here: the cogs show what these return (``cogs/night_views.py``). The sums and the settle-up are
``bot.night``'s; the rows are the store's.

The choices made here:

* A night is named by its id ("night 12"), which the commands show and ``session`` options take;
  ``since 2026-11-01`` (or the bare date) means every night of the server that started on that day (UTC) or
  later; nothing means this channel's current night, or its last one.
* Nets are chips won at tables: what each hand changed in a player's stack, plus carried chips returned to
  him. Buying in, topping up and cashing out change nothing, so a night's nets add up to zero once nothing is
  carried. While chips are carried at a table whose night is still running, they are counted as returned to
  those who put them in, as closing the table now would (docs/rules.md section 22.1), so that the night can be
  settled exactly (``NightResults.pending`` says so).
* Money: the chip value of the night's table (its current setting, or its last one if closed); over several
  tables, only when they all have the same one.
* Leaderboard "tonight": in a channel that has had a table, its current or last night (the same night as
  ``/chips results`` there); elsewhere every night of the server running now or ended in the last 12 hours.
  "This month": hands that ended since the first of the month, 00:00 UTC.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

from ..i18n.text import Text
from ..night.facts import hand_facts
from ..night.graph import Series, net_series
from ..night.money import ChipValue
from ..night.phhs import write_phhs
from ..night.settle import Payment, settle
from ..poker import Hand
from ..poker.phh import PHHError, phh_seen_by
from ..refusal import reason_of
from ..store import HandRecord, NetEntry, NightRecord, NotFound, Store
from .table import Table, TableError, stored_hand
from .tournament import tournament_of

__all__ = [
    "TONIGHT_HOURS", "Board", "Night", "NightResults", "Period", "history_hands", "keep_missing_facts",
    "member_phh", "night_board", "night_phhs", "night_results", "parse_night", "rebuild", "resolve_night",
]

log = logging.getLogger(__name__)

Period = Literal["tonight", "month", "all"]
TONIGHT_HOURS: Final = 12
MAX_NIGHTS: Final = 1000  # nights one "since" may cover (the store's limit)
NO_NIGHT: Final = Text("There is no table in this channel; `/poker create` opens one.")

_SINCE = re.compile(r"(?:since\s+)?(\d{4})-(\d{1,2})-(\d{1,2})", re.IGNORECASE)
_NUMBER = re.compile(r"(?:night\s*)?#?\s*(\d{1,18})", re.IGNORECASE)


# ------------------------------------------------------------------------------------------------ which night


def parse_night(text: str | None) -> int | dt.date | None:
    """What a member typed in a ``session`` option: None (this channel's night), a night's number, or the day of
    ``since DATE``; ``TableError`` naming the forms otherwise."""
    words = (text or "").strip()
    if not words or words.lower() in ("current", "this", "tonight", "last"):
        return None
    if match := _NUMBER.fullmatch(words):
        return int(match[1])
    if match := _SINCE.fullmatch(words):
        try:
            return dt.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            raise TableError(Text("{typed} is not a date: write it as 2026-11-01.", typed=words)) from None
    raise TableError(Text("“{typed}” is not a night: give a night's number (e.g. 12), or `since 2026-11-01` for every "
                          "night of the server since that day.", typed=words[:40]))


@dataclass(frozen=True, slots=True)
class Night:
    """The nights a command is about: one, or every one of the server since a day (oldest first)."""

    nights: tuple[NightRecord, ...]
    since: dt.date | None = None

    @property
    def ids(self) -> list[int]:
        """The nights' ids."""
        return [s.id for s in self.nights]

    @property
    def hands(self) -> int:
        """The hands finished in these nights."""
        return sum(s.hands for s in self.nights)


async def resolve_night(store: Store, guild: int, channel: int, text: str | None) -> Night:
    """The night a ``session`` option names, in this server (see the module docstring)."""
    chosen = parse_night(text)
    if chosen is None:
        last = await store.last_night(channel)
        if last is None:
            raise TableError(NO_NIGHT)
        return Night((last,))
    if isinstance(chosen, int):
        try:
            found = await store.night(chosen)
        except NotFound:
            found = None
        if found is None or found.guild_id != guild:
            raise TableError(Text("There is no night number {number} on this server.", number=str(chosen)))
        return Night((found,))
    start = dt.datetime.combine(chosen, dt.time(), dt.UTC).timestamp()
    nights = await store.guild_nights(guild, started_since=start, limit=MAX_NIGHTS)
    if not nights:
        raise TableError(Text("No night started on this server since {day}.", day=chosen.isoformat()))
    return Night(tuple(reversed(nights)), since=chosen)


# --------------------------------------------------------------------------------------------- what it holds


@dataclass(frozen=True, slots=True)
class NightResults:
    """A night's finished hands and what they add up to.

    ``series`` is each player's net after each hand (``bot.night.graph.net_series``) and ``nets`` his net for
    the night; both count ``refunds`` (carried chips returned) and ``pending`` (chips still carried at a table
    whose night runs, counted as returned to those who put them in). At a tournament, ``series`` follows the
    tournament chips and ``nets`` the money: prizes and refunds less buy-ins and rebuys. ``live`` lists the
    hands being played now, which count once they end.
    """

    night: Night
    hands: list[HandRecord]
    series: Series
    nets: dict[int, int]
    refunds: dict[int, int]
    pending: dict[int, int]
    live: list[int] = field(default_factory=list)
    chip_value: ChipValue | None = None
    running: bool | None = None  # a table of these nights still plays (a finished tournament's does not); None: open

    @property
    def carried(self) -> int:
        """The chips still carried, counted as returned."""
        return sum(self.pending.values())

    def hands_of(self, user: int) -> int:
        """The hands the player was dealt in these nights."""
        return len(self.series.get(user, [(0, 0)])) - 1

    def payments(self) -> list[Payment]:
        """The fewest payments that settle the nets (``bot.night.settle``)."""
        try:
            return settle(self.nets)
        except ValueError as error:  # the nets of a night add up: this would be a bug, said plainly
            raise TableError(Text("This night cannot be settled: {reason}.", reason=reason_of(error))) from None


class OpenTables(Protocol):
    """The open tables, by channel (``bot.tables.Tables``)."""

    def get(self, channel: int) -> Table | None:
        """The open table in ``channel``, if any."""


async def night_results(store: Store, tables: OpenTables, night: Night) -> NightResults:
    """The finished hands of the night, each player's net after each of them and for the night."""
    hands = await store.night_hands(night.ids)
    refunds = await store.night_refunds(night.ids)
    pending: dict[int, int] = {}
    live: list[int] = []
    values: set[str | None] = set()
    running = False
    for record in night.nights:
        table = _open_table(tables, record)
        if table is not None:
            t = tournament_of(table)
            running = running or t is None or t.state.status not in ("finished", "cancelled")
            for user, chips in table.carried_refunds().items():
                pending[user] = pending.get(user, 0) + chips
            if table.live is not None:
                live.append(table.live.record.number)
            values.add(table.settings.chip_value)
        else:
            values.add(_chip_value_text((await store.get_table_by_id(record.table_id)).settings))
    returned = {user: refunds.get(user, 0) + pending.get(user, 0) for user in {*refunds, *pending}}
    series = net_series(hands, returned)
    tournaments, money = await store.night_tournament_money(night.ids)
    cash = net_series([h for h in hands if h.table_id not in tournaments], returned) if tournaments else series
    nets = {user: points[-1][1] for user, points in cash.items()}
    for user, amount in money.items():  # a tournament counts what was paid in and won, not its chips
        nets[user] = nets.get(user, 0) + amount
    value = values.pop() if len(values) == 1 else None
    return NightResults(night, hands, series, nets, refunds, pending, live, _chip_value(value), running)


def _open_table(tables: OpenTables, record: NightRecord) -> Table | None:
    """The open table whose running night this is, or None (a past night, a closed table)."""
    table = tables.get(record.channel_id)
    return table if record.is_open and table is not None and table.id == record.table_id else None


def _chip_value_text(settings: dict[str, object]) -> str | None:
    text = settings.get("chip_value")
    return text if isinstance(text, str) else None


def _chip_value(text: str | None) -> ChipValue | None:
    if text is None:
        return None
    try:
        return ChipValue.parse(text)
    except ValueError:
        return None


def member_phh(record: HandRecord, member: int) -> str | None:
    """The hand's history as ``member`` may have it: the cards shown at the table and his own, every other card
    ``??`` (``bot.poker.phh.phh_seen_by``). A player's own cards are his alone, so every history a member gets
    is this one. None when no history was kept, or when it cannot be read (then no card can leak from it)."""
    if not record.phh:
        return None
    try:
        return phh_seen_by(record.phh, [seat for seat, user in enumerate(record.seat_users) if user == member])
    except PHHError:
        log.warning("hand %s: its hand history cannot be read", record.id, exc_info=True)
        return None


def night_phhs(hands: Sequence[HandRecord], member: int) -> tuple[str, int]:
    """The night's hands as ``member`` may have them (``member_phh``) in one ``.phhs`` document
    (``bot.night.phhs``), and how many were left out because no hand history was kept for them."""
    texts = [text for text in (member_phh(hand, member) for hand in hands) if text]
    return (write_phhs(texts) if texts else ""), len(hands) - len(texts)


async def history_hands(store: Store, tables: OpenTables, channel: int, count: int) -> list[HandRecord]:
    """``/poker history``: the latest ``count`` finished hands, newest first, of this channel's open table, or,
    once it is closed, of the channel's last night (as results, settle-up and export answer for it).
    TableError when no table has been opened in the channel."""
    table = tables.get(channel)
    if table is not None:
        recent = await store.recent_hands(table.id, max(25, count))
        return [h for h in recent if h.status == "complete"][:count]
    night = await store.last_night(channel)
    if night is None:
        raise TableError(NO_NIGHT)
    recent = await store.recent_hands(night.table_id, max(25, count))
    return [h for h in recent if h.status == "complete" and h.night_id == night.id][:count]


def rebuild(record: HandRecord) -> Hand:
    """A finished hand again, from its seed and its action log (to tell it: ``bot.night.story``)."""
    hand = stored_hand(record.game, record.settings, record.stacks_before, record.seed, record.carried_in)
    for action in record.actions:
        hand.act(action)
    return hand


# --------------------------------------------------------------------------------------------------- boards


@dataclass(frozen=True, slots=True)
class Board:
    """A board by net: its period, the nights it covers (tonight) or the time it starts (this month)."""

    period: Period
    entries: list[NetEntry]
    night: Night | None = None
    since: float | None = None
    here: bool = False  # tonight: this channel's night (else the server's nights of the last hours)


async def night_board(store: Store, guild: int, channel: int, period: Period, now: float,
                      limit: int = 10) -> Board:
    """The members by net won at tables over ``period`` (see the module docstring for "tonight")."""
    if period == "tonight":
        last = await store.last_night(channel)
        here = last is not None
        nights = [last] if last is not None else await store.guild_nights(
            guild, active_since=now - TONIGHT_HOURS * 3600, limit=MAX_NIGHTS)
        if not nights:
            return Board(period, [], Night(()), here=False)
        night = Night(tuple(sorted(nights, key=lambda s: s.id)))
        return Board(period, await store.net_board(guild, nights=night.ids, limit=limit), night, here=here)
    if period == "month":
        today = dt.datetime.fromtimestamp(now, dt.UTC)
        start = dt.datetime(today.year, today.month, 1, tzinfo=dt.UTC).timestamp()
        return Board(period, await store.net_board(guild, since=start, limit=limit), since=start)
    return Board(period, await store.net_board(guild, limit=limit))


# ------------------------------------------------------------------------------------------- facts of old hands


async def keep_missing_facts(store: Store, batch: int = 200) -> int:
    """Work out and keep the facts of finished hands that have none (hands finished before this version kept
    them); return how many hands got them. A hand that cannot be rebuilt is logged and left without."""
    kept, after = 0, 0
    while hands := await store.hands_without_facts(after, batch):
        for record in hands:
            after = record.id
            try:
                facts = hand_facts(rebuild(record), record.seat_users)
                await store.add_facts(record.id, facts)
            except Exception:  # one odd old hand must not stop the bot from starting
                log.warning("hand %s: its facts could not be worked out", record.id, exc_info=True)
                continue
            kept += 1
    return kept
