"""The night after the cards: nights, the hands and refunds of a night, player stats and nets by period.

A night of play at one table is kept as a row of ``sessions`` (``bot.store.nights``; members name a night by
that row's id, "session" in the commands): ``create_table`` starts the first, ``new_night``
ends the running one and starts the next between hands, ``close_table`` ends the last. The reads here serve
``/chips results``, ``settle``, ``graph`` and ``leaderboard``, ``/poker stats`` and ``export``:

* ``night_hands``: the finished hands of one or more nights, in the order they ended (two queries);
* ``night_refunds``: the carried chips returned to players in them;
* ``player_stats``: a member's sums per game from the kept facts, one aggregate query over a covering index;
* ``net_board``: the members' nets (chips won at tables: hand results and carried refunds) over nights or
  since a time, ranked, one query.

``hands_without_facts`` and ``add_facts`` let the table layer keep the facts of hands finished before this
version of the bot (the migration cannot replay a hand).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields

from ..i18n.text import Text
from ..night.facts import PlayerHandFacts
from ..night.stats import PlayerStats
from .connection import Row
from .db import StoreBase, Tx, check_count, check_id, from_json
from .errors import HandInProgress, HandNotLive, InvalidArgument, NotFound
from .nights import end_night, start_night, write_facts
from .rows import HandRecord, check_refunds, hand_record, live_hand_row, open_table_row, refund_carried
from .tables import MAX_GAME_LENGTH

__all__ = ["NetEntry", "NightMixin", "NightRecord", "night_problems"]

MAX_NIGHTS = 1000  # nights one read may cover

_NIGHTS = """
    SELECT s.*, t.guild_id, t.channel_id,
        (SELECT count(*) FROM hands h WHERE h.session_id = s.id AND h.status = 'complete') AS hands
    FROM sessions s JOIN tables t ON t.id = s.table_id
"""
_IN_NIGHTS = "session_id IN (SELECT ids.value FROM json_each(:sessions) AS ids)"


@dataclass(frozen=True, slots=True)
class NightRecord:
    """A night at one table: its id (what members name it by), the table's channel, its number at the table
    (1, 2, 3...), when it started and ended (None while it runs) and how many hands were finished in it."""

    id: int
    table_id: int
    guild_id: int
    channel_id: int
    number: int
    started_at: float
    ended_at: float | None
    hands: int

    @property
    def is_open(self) -> bool:
        """True while the night runs."""
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class NetEntry:
    """A line of a board by net: chips won at tables (negative: lost), the hands dealt, ties ranked equal."""

    rank: int
    user_id: int
    net: int
    hands: int


TOURNAMENT_KINDS = "('tournament-buy-in', 'tournament-rebuy', 'tournament-prize', 'tournament-refund')"


def _night_record(r: Row) -> NightRecord:
    return NightRecord(r["id"], r["table_id"], r["guild_id"], r["channel_id"], r["number"], r["started_at"],
                         r["ended_at"], r["hands"])


def _night_ids(nights: Collection[int]) -> str:
    ids = [check_id(s, "A night id") for s in nights]
    if not 1 <= len(ids) <= MAX_NIGHTS:
        raise InvalidArgument(f"Name 1 to {MAX_NIGHTS:,} nights, not {len(ids):,}.")
    return json.dumps(sorted(set(ids)))


class NightMixin(StoreBase):
    """Nights, the hands and refunds of a night, stats and nets."""

    # ---- nights

    async def new_night(self, table_id: int, *, refunds: Mapping[int, int] | None = None) -> NightRecord:
        """End the table's running night and start the next, between hands, in one transaction; return the new.

        A new night starts with nothing carried: the carried pot is returned as ``refunds`` ({member: chips},
        adding up to it exactly; ``carried-refund`` rows of the night that ends). The players stay seated with
        their stacks. Refused with ``HandInProgress`` while a hand is live and ``TableNotEmpty`` when the
        refunds do not match the carried pot.
        """
        check_id(table_id, "The table id")
        shares = check_refunds(refunds)
        async with self._write() as tx:
            table = await open_table_row(tx, table_id)
            live = await live_hand_row(tx, table_id)
            if live is not None:
                raise HandInProgress(Text("Hand #{number} is being played; a new night starts between hands.",
                                          number=str(live["number"])))
            await refund_carried(tx, table, shares)
            await tx.run("UPDATE tables SET carried_pot = 0 WHERE id = ?", (table_id,))
            await end_night(tx, table_id)
            return await _night_by_id(tx, await start_night(tx, table_id))

    async def night(self, night_id: int) -> NightRecord:
        """A night by id; raises ``NotFound``."""
        check_id(night_id, "The night id")
        async with self._read() as tx:
            return await _night_by_id(tx, night_id)

    async def last_night(self, channel: int) -> NightRecord | None:
        """The channel's running night, else the last one played there (any table of the channel), or None."""
        check_id(channel, "The channel id")
        async with self._read() as tx:
            row = await tx.one(f"{_NIGHTS} WHERE t.channel_id = ? ORDER BY s.id DESC LIMIT 1", (channel,))
        return None if row is None else _night_record(row)

    async def guild_nights(self, guild: int, *, started_since: float | None = None,
                             active_since: float | None = None, limit: int = 25) -> list[NightRecord]:
        """The guild's nights, newest first: those started at ``started_since`` or later, or running or ended at
        ``active_since`` or later (both None: every one), at most ``limit``."""
        check_id(guild, "The server id")
        check_count(limit, "The number of nights", 1, MAX_NIGHTS)
        async with self._read() as tx:
            rows = await tx.all(
                f"""{_NIGHTS} WHERE t.guild_id = :guild
                    AND (CAST(:started AS DOUBLE PRECISION) IS NULL OR s.started_at >= :started)
                    AND (CAST(:active AS DOUBLE PRECISION) IS NULL OR s.ended_at IS NULL OR s.ended_at >= :active)
                    ORDER BY s.id DESC LIMIT :limit""",
                {"guild": guild, "started": started_since, "active": active_since, "limit": limit},
            )
        return [_night_record(r) for r in rows]

    # ---- what a night holds

    async def night_hands(self, nights: Collection[int]) -> list[HandRecord]:
        """The finished hands of the nights, in the order they ended, with their actions (two queries)."""
        ids = _night_ids(nights)
        async with self._read() as tx:
            rows = await tx.all(
                f"SELECT * FROM hands WHERE {_IN_NIGHTS} AND status = 'complete' ORDER BY ended_at, id",
                {"sessions": ids},
            )
            action_rows = await tx.all(
                f"SELECT a.hand_id, a.action FROM hand_actions a JOIN hands h ON h.id = a.hand_id"
                f" WHERE h.{_IN_NIGHTS} AND h.status = 'complete' ORDER BY a.hand_id, a.seq",
                {"sessions": ids},
            )
        actions: dict[int, list[str]] = {}
        for r in action_rows:
            actions.setdefault(r[0], []).append(r[1])
        return [hand_record(r, actions.get(r["id"], [])) for r in rows]

    async def night_refunds(self, nights: Collection[int]) -> dict[int, int]:
        """The carried chips returned to each member in the nights (when a table closed or a new night began)."""
        ids = _night_ids(nights)
        async with self._read() as tx:
            rows = await tx.all(
                f"SELECT user_id, sum(delta) FROM ledger WHERE {_IN_NIGHTS} AND kind = 'carried-refund'"
                " GROUP BY user_id ORDER BY user_id",
                {"sessions": ids},
            )
        return {int(r[0]): int(r[1]) for r in rows}

    async def night_tournament_money(self, nights: Collection[int]) -> tuple[set[int], dict[int, int]]:
        """The tournament tables among the nights' tables, and each member's money result at them: prizes and
        refunds less buy-ins and rebuys (tournament chips are not money: their hands do not count)."""
        ids = _night_ids(nights)
        async with self._read() as tx:
            tables = await tx.all(
                "SELECT DISTINCT s.table_id FROM sessions s JOIN tournaments t ON t.table_id = s.table_id"
                " WHERE s.id IN (SELECT ids.value FROM json_each(:sessions) AS ids)", {"sessions": ids})
            rows = await tx.all(
                f"SELECT user_id, sum(delta) FROM ledger WHERE {_IN_NIGHTS} AND kind IN {TOURNAMENT_KINDS}"
                " GROUP BY user_id ORDER BY user_id", {"sessions": ids})
        return {int(r[0]) for r in tables}, {int(r[0]): int(r[1]) for r in rows}

    # ---- stats and boards

    async def player_stats(self, guild: int, user: int, *, nights: Collection[int] | None = None,
                           game: str | None = None) -> dict[str, PlayerStats]:
        """The member's stats per game id (game order) from the kept facts, over the nights given or all
        time, of one game or every one: one aggregate query over the covering index ``hand_facts_by_player``."""
        check_id(guild, "The server id")
        check_id(user, "The member id")
        if game is not None and (not isinstance(game, str) or len(game) > MAX_GAME_LENGTH):
            raise InvalidArgument("The game must be a game id.")
        ids = None if nights is None else _night_ids(nights)
        async with self._read() as tx:
            rows = await tx.all(
                f"""
                SELECT game, count(*) AS hands, sum(vpip) AS played, sum(raised) AS raised, sum(won) AS won,
                       sum(showdown) AS showdowns, sum(won_at_showdown) AS won_at_showdown, sum(draws) AS draws,
                       sum(cards_drawn) AS cards_drawn, sum(pats) AS pats, max(collected) AS biggest_pot,
                       sum(net) AS net
                FROM hand_facts
                WHERE guild_id = :guild AND user_id = :user AND (CAST(:game AS TEXT) IS NULL OR game = :game)
                  AND (CAST(:sessions AS TEXT) IS NULL OR {_IN_NIGHTS})
                GROUP BY game ORDER BY game
                """,
                {"guild": guild, "user": user, "game": game, "sessions": ids},
            )
        return {r["game"]: PlayerStats(**{f.name: r[f.name] for f in fields(PlayerStats)}) for r in rows}

    async def net_board(self, guild: int, *, nights: Collection[int] | None = None, since: float | None = None,
                        limit: int = 10) -> list[NetEntry]:
        """The members by net won at tables (hand results plus carried refunds; at tournaments, prizes and refunds
        less buy-ins and rebuys instead of the tournament chips' hands), best first, over the nights given, or
        since a time (hands that ended and refunds made then or later), or all time; ties ranked equal.
        Members who played no hand and had no refund are not listed."""
        check_id(guild, "The server id")
        check_count(limit, "The board size", 1, 1000)
        ids = None if nights is None else _night_ids(nights)
        if ids is not None:  # each case reads the covering index made for it (the planner cannot tell them apart)
            facts = f"hand_facts INDEXED BY hand_facts_by_session WHERE {_IN_NIGHTS} AND guild_id = :guild"
            refunds = _IN_NIGHTS
        elif since is not None:
            facts = "hand_facts INDEXED BY hand_facts_by_time WHERE guild_id = :guild AND ended_at >= :since"
            refunds = "created_at >= :since"
        else:
            facts = "hand_facts INDEXED BY hand_facts_by_time WHERE guild_id = :guild"
            refunds = "1 = 1"
        async with self._read() as tx:
            rows = await tx.all(
                f"""
                WITH parts AS (
                    SELECT user_id, sum(net) AS net, count(*) AS hands FROM {facts}
                      AND session_id NOT IN (SELECT s.id FROM sessions s JOIN tournaments t ON t.table_id = s.table_id)
                    GROUP BY user_id
                    UNION ALL
                    SELECT user_id, sum(delta), 0 FROM ledger
                    WHERE guild_id = :guild AND kind IN ('carried-refund', {TOURNAMENT_KINDS[1:-1]}) AND {refunds}
                    GROUP BY user_id
                )
                SELECT user_id, sum(net) AS net, sum(hands) AS hands, rank() OVER (ORDER BY sum(net) DESC) AS rank
                FROM parts GROUP BY user_id ORDER BY rank, user_id LIMIT :limit
                """,
                {"guild": guild, "sessions": ids, "since": since, "limit": limit},
            )
        return [NetEntry(r["rank"], r["user_id"], r["net"], r["hands"]) for r in rows]

    # ---- facts of hands finished before this version

    async def hands_without_facts(self, after: int = 0, limit: int = 100) -> list[HandRecord]:
        """Finished hands with no facts kept, with ids above ``after``, oldest first, with their actions."""
        check_count(after, "The hand id", 0, 2**63 - 1)
        check_count(limit, "The number of hands", 1, 1000)
        async with self._read() as tx:
            rows = await tx.all(
                "SELECT * FROM hands h WHERE h.id > ? AND h.status = 'complete'"
                " AND NOT EXISTS (SELECT 1 FROM hand_facts f WHERE f.hand_id = h.id) ORDER BY h.id LIMIT ?",
                (after, limit),
            )
            return [hand_record(r, [a[0] for a in await tx.all(
                "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (r["id"],))]) for r in rows]

    async def add_facts(self, hand_id: int, facts: Sequence[PlayerHandFacts]) -> None:
        """Keep the facts of a hand finished without them (as at its end: checked against its result)."""
        check_id(hand_id, "The hand id")
        async with self._write() as tx:
            hand = await tx.one("SELECT h.*, t.guild_id FROM hands h JOIN tables t ON t.id = h.table_id"
                                " WHERE h.id = ?", (hand_id,))
            if hand is None:
                raise NotFound(Text("There is no hand number {hand}.", hand=str(hand_id)))
            if hand["status"] != "complete":
                raise HandNotLive(f"Hand #{hand['number']} did not finish ({hand['status']}): it has no facts.")
            if await tx.one("SELECT 1 FROM hand_facts WHERE hand_id = ?", (hand_id,)):
                raise InvalidArgument(f"The facts of hand #{hand['number']} are kept already.")
            await write_facts(tx, hand, hand["guild_id"], facts, from_json(hand["stacks_after"]), hand["ended_at"])


async def _night_by_id(tx: Tx, night_id: int) -> NightRecord:
    row = await tx.one(f"{_NIGHTS} WHERE s.id = ?", (night_id,))
    if row is None:
        raise NotFound(Text("There is no night number {night}.", night=str(night_id)))
    return _night_record(row)


async def night_problems(tx: Tx, guild: int, listed: int) -> list[str]:
    """The audit's checks of nights and facts for one guild: each open table has one running night and a
    closed one none; every hand and every ledger row of a table belongs to a night of that table; facts are
    kept only for finished hands, one per seat, each net the seat's result. At most ``listed`` rows a check."""
    problems: list[str] = []
    rows = await tx.all(
        """
        SELECT t.id, t.status, (SELECT count(*) FROM sessions s WHERE s.table_id = t.id AND s.ended_at IS NULL) AS n
        FROM tables t WHERE t.guild_id = ? AND (t.status = 'closed') = (
            (SELECT count(*) FROM sessions s WHERE s.table_id = t.id AND s.ended_at IS NULL) = 1)
        LIMIT ?
        """,
        (guild, listed),
    )
    problems += [f"table {r['id']} ({r['status']}) has {r['n']} running nights" for r in rows]
    rows = await tx.all(
        "SELECT h.id, h.table_id FROM hands h JOIN tables t ON t.id = h.table_id WHERE t.guild_id = ?"
        " AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = h.session_id AND s.table_id = h.table_id) LIMIT ?",
        (guild, listed),
    )
    problems += [f"hand {r['id']} belongs to no night of table {r['table_id']}" for r in rows]
    rows = await tx.all(
        "SELECT l.id, l.table_id FROM ledger l WHERE l.guild_id = ? AND l.table_id IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = l.session_id AND s.table_id = l.table_id) LIMIT ?",
        (guild, listed),
    )
    problems += [f"ledger row {r['id']} belongs to no night of table {r['table_id']}" for r in rows]
    rows = await tx.all(
        """
        SELECT h.id, h.status, count(f.seat) AS facts, json_array_length(h.seats) AS players,
               sum(CASE WHEN f.net != (SELECT a.value - b.value FROM json_each(h.stacks_after) AS a,
                                        json_each(h.stacks_before) AS b WHERE a.key = f.seat AND b.key = f.seat)
                        THEN 1 ELSE 0 END) AS wrong,
               sum(CASE WHEN f.session_id != h.session_id OR f.guild_id != t.guild_id THEN 1 ELSE 0 END) AS misplaced
        FROM hand_facts f JOIN hands h ON h.id = f.hand_id JOIN tables t ON t.id = h.table_id
        WHERE f.guild_id = :g OR t.guild_id = :g GROUP BY h.id
        HAVING h.status != 'complete' OR count(f.seat) != json_array_length(h.seats)
            OR sum(CASE WHEN f.net != (SELECT a.value - b.value FROM json_each(h.stacks_after) AS a,
                                        json_each(h.stacks_before) AS b WHERE a.key = f.seat AND b.key = f.seat)
                        THEN 1 ELSE 0 END) > 0
            OR sum(CASE WHEN f.session_id != h.session_id OR f.guild_id != t.guild_id THEN 1 ELSE 0 END) > 0
        LIMIT :n
        """,
        {"g": guild, "n": listed},
    )
    problems += [f"hand {r['id']} ({r['status']}): {r['facts']} facts for {r['players']} players, {r['wrong']} nets"
                 f" that are not the seat's result, {r['misplaced']} in the wrong night or server" for r in rows]
    return problems
