"""The books: recompute everything that can be recomputed and compare.

``audit(guild)`` checks, for one guild:

* the ledger itself (``check_ledger_integrity``): each account's rows chain
  (``balance_after = previous balance_after + delta``, starting with exactly
  one ``starting-grant``), every row's sign matches its kind, and each
  account's balance equals both the sum of its deltas and its last
  ``balance_after``;
* conservation: chips minted (starting grants + admin grants - admin
  removals) = balances + seat stacks + carried pots + prize pools. Chips in the
  pot of a live hand are still in the seat stacks (see ``bot.store.tables``), so
  they are counted there. The stacks and carried pot of a tournament table are
  tournament chips, not counted: its prize pool holds the bank chips paid in;
* per table: chips that came in through the ledger (buy-ins, rebuys, top-ups,
  minus cash-outs and carried refunds) = stacks + carried pot; per player at
  each table: ledger flow + what completed hands won or lost = the stack now;
  the carried pot = what completed hands carried out - carried in - refunds;
  a closed table holds nothing;
* per tournament (``bot.store.tournaments``): its pool = the chips its ledger rows took in, = buy-in x
  (entries + rebuys) until paid out or refunded, then 0; no cash movement at its table; its stacks + carried
  pot = starting chips x (entries + rebuys) while it runs, nothing once it is over; per entrant, starting
  chips x (1 + rebuys) + what completed hands won or lost = his stack (0 once out);
* per hand: a completed hand conserves chips; a live hand's recorded starting
  stacks are still the seats' stacks and its players are seated;
* nights and facts (``bot.store.night.night_problems``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .db import StoreBase, Tx, check_id, from_json
from .night import night_problems

__all__ = ["AuditMixin", "AuditReport"]

_MAX_LISTED = 10  # offending rows listed per check


@dataclass
class AuditReport:
    """The outcome of ``audit``: ``ok`` is True when ``problems`` is empty; the totals are in chips."""

    guild_id: int
    ok: bool
    problems: list[str] = field(default_factory=list)
    granted: int = 0  # starting grants + admin grants
    removed: int = 0  # admin removals
    balances: int = 0
    seat_stacks: int = 0  # live pots included: they stay in the stacks until the hand ends
    carried_pots: int = 0
    prize_pools: int = 0  # tournaments' pools, held until paid out
    tournament_chips: int = 0  # stacks and carried pots of tournament tables (not bank chips: not in in_play)
    accounts: int = 0
    ledger_rows: int = 0
    open_tables: int = 0
    live_hands: int = 0

    @property
    def minted(self) -> int:
        """Chips brought into the guild's economy, net."""
        return self.granted - self.removed

    @property
    def in_play(self) -> int:
        """Chips that exist: balances, stacks and carried pots of cash tables, and prize pools."""
        return self.balances + self.seat_stacks + self.carried_pots + self.prize_pools

    def summary(self) -> str:
        """One line for a log or an admin command."""
        state = "OK" if self.ok else f"{len(self.problems)} PROBLEM(S)"
        return (
            f"audit guild {self.guild_id}: {state}; minted {self.minted:,} = balances {self.balances:,}"
            f" + stacks {self.seat_stacks:,} + carried {self.carried_pots:,} + prize pools {self.prize_pools:,}"
            f" ({self.accounts} accounts, {self.ledger_rows} ledger rows, {self.open_tables} open tables,"
            f" {self.live_hands} live hands)"
        )


async def _ledger_problems(tx: Tx, guild: int) -> list[str]:
    problems: list[str] = []
    rows = await tx.all(
        """
        SELECT id, user_id, kind, delta, balance_after, prev, n FROM (
            SELECT id, user_id, kind, delta, balance_after,
                   lag(balance_after, 1, 0) OVER w AS prev, row_number() OVER w AS n
            FROM ledger WHERE guild_id = ?
            WINDOW w AS (PARTITION BY user_id ORDER BY id)
        ) AS chained
        WHERE balance_after != prev + delta OR (n = 1) != (kind = 'starting-grant')
        ORDER BY id LIMIT ?
        """,
        (guild, _MAX_LISTED),
    )
    for r in rows:
        if r["balance_after"] != r["prev"] + r["delta"]:
            problems.append(
                f"ledger row {r['id']} (user {r['user_id']}): balance_after {r['balance_after']}"
                f" != previous {r['prev']} + delta {r['delta']}"
            )
        else:
            problems.append(
                f"ledger row {r['id']} (user {r['user_id']}): a {r['kind']} row at position {r['n']}"
                " (an account starts with exactly one starting-grant)"
            )
    rows = await tx.all(
        "SELECT l.id, l.kind, l.delta FROM ledger l JOIN ledger_kinds k ON k.kind = l.kind"
        " WHERE l.guild_id = ? AND l.delta * k.sign < 0 ORDER BY l.id LIMIT ?",
        (guild, _MAX_LISTED),
    )
    problems += [f"ledger row {r['id']}: {r['kind']} with delta {r['delta']} has the wrong sign" for r in rows]
    rows = await tx.all(
        """
        WITH s AS (
            SELECT user_id, sum(delta) AS total, max(id) AS last_id FROM ledger WHERE guild_id = :g GROUP BY user_id
        )
        SELECT a.user_id, a.balance, s.total, l.balance_after AS last
        FROM accounts a LEFT JOIN s ON s.user_id = a.user_id LEFT JOIN ledger l ON l.id = s.last_id
        WHERE a.guild_id = :g AND (s.total IS NULL OR s.total != a.balance OR l.balance_after != a.balance)
        ORDER BY a.user_id LIMIT :n
        """,
        {"g": guild, "n": _MAX_LISTED},
    )
    for r in rows:
        if r["total"] is None:
            problems.append(f"account of user {r['user_id']} has no ledger rows")
        else:
            problems.append(
                f"account of user {r['user_id']}: balance {r['balance']} but the ledger sums to {r['total']}"
                f" and its last balance_after is {r['last']}"
            )
    rows = await tx.all(
        "SELECT DISTINCT user_id FROM ledger WHERE guild_id = :g"
        " AND user_id NOT IN (SELECT user_id FROM accounts WHERE guild_id = :g) LIMIT :n",
        {"g": guild, "n": _MAX_LISTED},
    )
    problems += [f"ledger rows for user {r['user_id']}, who has no account" for r in rows]
    return problems


class AuditMixin(StoreBase):
    """``audit``, ``audit_all`` and ``check_ledger_integrity``."""

    async def check_ledger_integrity(self, guild: int) -> list[str]:
        """The ledger-only checks of ``audit``: chains, signs, and balances against the ledger. Empty is good."""
        check_id(guild, "The server id")
        async with self._read() as tx:
            return await _ledger_problems(tx, guild)

    async def audit(self, guild: int) -> AuditReport:
        """Recompute the guild's books from the ledger and the hands; see the module docstring."""
        check_id(guild, "The server id")
        async with self._read() as tx:
            problems = await _ledger_problems(tx, guild)
            tournaments = await _has_tournaments(tx)
            cash = _cash_tables(tournaments)
            pools = "(SELECT coalesce(sum(pool), 0) FROM tournaments WHERE guild_id = :g)" if tournaments else "0"
            totals = await tx.one(
                f"""
                SELECT
                    (SELECT coalesce(sum(l.delta), 0) FROM ledger l JOIN ledger_kinds k ON k.kind = l.kind
                     WHERE l.guild_id = :g AND k.mint = 1 AND l.delta > 0) AS granted,
                    (SELECT coalesce(-sum(l.delta), 0) FROM ledger l JOIN ledger_kinds k ON k.kind = l.kind
                     WHERE l.guild_id = :g AND k.mint = 1 AND l.delta < 0) AS removed,
                    (SELECT coalesce(sum(balance), 0) FROM accounts WHERE guild_id = :g) AS balances,
                    (SELECT count(*) FROM accounts WHERE guild_id = :g) AS accounts,
                    (SELECT count(*) FROM ledger WHERE guild_id = :g) AS ledger_rows,
                    (SELECT coalesce(sum(s.stack), 0) FROM seats s JOIN tables t ON t.id = s.table_id
                     WHERE t.guild_id = :g AND {cash}) AS seat_stacks,
                    (SELECT coalesce(sum(t.carried_pot), 0) FROM tables t WHERE t.guild_id = :g AND {cash})
                        AS carried_pots,
                    (SELECT coalesce(sum(s.stack), 0) FROM seats s JOIN tables t ON t.id = s.table_id
                     WHERE t.guild_id = :g AND NOT {cash}) + (SELECT coalesce(sum(t.carried_pot), 0) FROM tables t
                     WHERE t.guild_id = :g AND NOT {cash}) AS tournament_chips,
                    {pools} AS prize_pools,
                    (SELECT count(*) FROM tables WHERE guild_id = :g AND status != 'closed') AS open_tables,
                    (SELECT count(*) FROM hands h JOIN tables t ON t.id = h.table_id
                     WHERE t.guild_id = :g AND h.status = 'live') AS live_hands
                """,
                {"g": guild},
            )
            assert totals is not None
            report = AuditReport(
                guild, ok=False, granted=totals["granted"], removed=totals["removed"], balances=totals["balances"],
                seat_stacks=totals["seat_stacks"], carried_pots=totals["carried_pots"],
                prize_pools=totals["prize_pools"], tournament_chips=totals["tournament_chips"],
                accounts=totals["accounts"], ledger_rows=totals["ledger_rows"], open_tables=totals["open_tables"],
                live_hands=totals["live_hands"],
            )
            if report.minted != report.in_play:
                problems.append(
                    f"chips minted ({report.granted:,} granted - {report.removed:,} removed = {report.minted:,})"
                    f" != balances {report.balances:,} + stacks {report.seat_stacks:,}"
                    f" + carried {report.carried_pots:,} + prize pools {report.prize_pools:,} = {report.in_play:,}"
                )
            problems += await _table_problems(tx, guild, tournaments)
            if tournaments:
                problems += await _tournament_problems(tx, guild)
            problems += await _hand_problems(tx, guild)
            problems += await night_problems(tx, guild, _MAX_LISTED)
        report.problems = problems
        report.ok = not problems
        return report

    async def audit_all(self) -> list[AuditReport]:
        """``audit`` every guild that has anything in this file."""
        reports = []
        async with self._read() as tx:
            rows = await tx.all(
                "SELECT guild_id FROM accounts UNION SELECT guild_id FROM tables"
                " UNION SELECT guild_id FROM guild_settings ORDER BY 1"
            )
        for row in rows:
            reports.append(await self.audit(int(row[0])))
        return reports


async def _has_tournaments(tx: Tx) -> bool:
    """Whether the bank has the tournaments of migration 0005 (a test may build an older schema)."""
    return "tournaments" in await tx.conn.table_names()


def _cash_tables(tournaments: bool) -> str:
    """The SQL condition on ``tables t`` of a cash table (not a tournament's)."""
    return "NOT EXISTS (SELECT 1 FROM tournaments x WHERE x.table_id = t.id)" if tournaments else "1 = 1"


async def _table_problems(tx: Tx, guild: int, tournaments: bool) -> list[str]:
    """The checks of cash tables (a tournament table's are in ``_tournament_problems``)."""
    problems: list[str] = []
    cash = _cash_tables(tournaments)
    tables = await tx.all(
        f"""
        SELECT t.id, t.status, t.carried_pot,
            (SELECT coalesce(sum(stack), 0) FROM seats WHERE table_id = t.id) AS stacks,
            (SELECT coalesce(-sum(delta), 0) FROM ledger WHERE table_id = t.id) AS inflow,
            (SELECT coalesce(sum(delta), 0) FROM ledger WHERE table_id = t.id AND kind = 'carried-refund') AS refunds,
            (SELECT coalesce(sum(carried_out - carried_in), 0) FROM hands
             WHERE table_id = t.id AND status = 'complete') AS carried_net
        FROM tables t WHERE t.guild_id = ? AND {cash} ORDER BY t.id
        """,
        (guild,),
    )
    for t in tables:
        name = f"table {t['id']}"
        if t["stacks"] + t["carried_pot"] != t["inflow"]:
            problems.append(
                f"{name}: stacks {t['stacks']:,} + carried {t['carried_pot']:,} != chips brought in through the"
                f" ledger {t['inflow']:,}"
            )
        if t["carried_pot"] != t["carried_net"] - t["refunds"]:
            problems.append(
                f"{name}: carried pot {t['carried_pot']:,} != carried by its hands {t['carried_net']:,}"
                f" - refunded {t['refunds']:,}"
            )
        if t["status"] == "closed" and (t["stacks"] or t["carried_pot"]):
            problems.append(f"{name} is closed but still holds chips")
    other = await tx.all(
        "SELECT l.id FROM ledger l JOIN tables t ON t.id = l.table_id"
        " WHERE (l.guild_id = :g OR t.guild_id = :g) AND l.guild_id != t.guild_id LIMIT :n",
        {"g": guild, "n": _MAX_LISTED},
    )
    problems += [f"ledger row {r['id']} moves chips between guilds through a table" for r in other]
    # Per player and table: ledger flow (not refunds) + hand results = current stack.
    flows: dict[tuple[int, int], int] = {}
    for r in await tx.all(
        "SELECT l.table_id, l.user_id, -sum(l.delta) AS flow FROM ledger l JOIN tables t ON t.id = l.table_id"
        f" WHERE t.guild_id = ? AND l.kind != 'carried-refund' AND {cash} GROUP BY l.table_id, l.user_id",
        (guild,),
    ):
        flows[(r["table_id"], r["user_id"])] = r["flow"]
    for r in await tx.all(
        f"""
        SELECT h.table_id, u.value AS user_id, sum(a.value - b.value) AS won
        FROM hands h JOIN tables t ON t.id = h.table_id,
             json_each(h.seats) AS u, json_each(h.stacks_after) AS a, json_each(h.stacks_before) AS b
        WHERE t.guild_id = ? AND h.status = 'complete' AND a.key = u.key AND b.key = u.key AND {cash}
        GROUP BY h.table_id, u.value
        """,
        (guild,),
    ):
        key = (r["table_id"], r["user_id"])
        flows[key] = flows.get(key, 0) + r["won"]
    stacks = {
        (r["table_id"], r["user_id"]): r["stack"]
        for r in await tx.all(
            "SELECT s.table_id, s.user_id, s.stack FROM seats s JOIN tables t ON t.id = s.table_id"
            f" WHERE t.guild_id = ? AND {cash}",
            (guild,),
        )
    }
    for key in sorted(set(flows) | set(stacks)):
        expected, actual = flows.get(key, 0), stacks.get(key, 0)
        if expected != actual:
            problems.append(
                f"table {key[0]}, user {key[1]}: stack {actual:,} but buy-ins, cash-outs and hands give {expected:,}"
            )
    return problems


async def _tournament_problems(tx: Tx, guild: int) -> list[str]:
    problems: list[str] = []
    rows = await tx.all(
        """
        SELECT x.id, x.table_id, x.status, x.pool, x.buy_in, x.starting_chips, x.guild_id,
            t.guild_id AS table_guild, t.status AS table_status, t.carried_pot,
            (SELECT coalesce(sum(stack), 0) FROM seats WHERE table_id = x.table_id) AS stacks,
            (SELECT count(*) FROM seats WHERE table_id = x.table_id) AS seats,
            (SELECT coalesce(sum(1 + rebuys), 0) FROM tournament_entries WHERE tournament_id = x.id) AS buys,
            (SELECT coalesce(-sum(delta), 0) FROM ledger WHERE table_id = x.table_id) AS inflow,
            (SELECT count(*) FROM ledger WHERE table_id = x.table_id AND kind NOT LIKE 'tournament-%') AS cash_rows,
            (SELECT coalesce(sum(carried_out - carried_in), 0) FROM hands
             WHERE table_id = x.table_id AND status = 'complete') AS carried_net
        FROM tournaments x JOIN tables t ON t.id = x.table_id
        WHERE x.guild_id = :g OR t.guild_id = :g ORDER BY x.id
        """,
        {"g": guild},
    )
    active: list[int] = []
    for x in rows:
        name = f"tournament {x['id']} (table {x['table_id']})"
        running = x["status"] in ("registering", "running")
        if x["guild_id"] != x["table_guild"]:
            problems.append(f"{name} belongs to another guild than its table")
        if x["pool"] != x["inflow"]:
            problems.append(f"{name}: prize pool {x['pool']:,} != chips its ledger rows took in {x['inflow']:,}")
        held = x["buy_in"] * x["buys"] if running else 0
        if x["pool"] != held:
            problems.append(f"{name} ({x['status']}): prize pool {x['pool']:,}, but it should hold {held:,}")
        if x["cash_rows"]:
            problems.append(f"{name}: {x['cash_rows']} cash movements at a tournament table")
        chips = x["stacks"] + x["carried_pot"]
        if running:
            active.append(x["id"])
            if chips != x["starting_chips"] * x["buys"]:
                problems.append(f"{name}: stacks {x['stacks']:,} + carried {x['carried_pot']:,} != the tournament"
                                f" chips given out {x['starting_chips'] * x['buys']:,}")
            if x["carried_pot"] != x["carried_net"]:
                problems.append(f"{name}: carried pot {x['carried_pot']:,} != carried by its hands"
                                f" {x['carried_net']:,}")
        elif chips or x["seats"]:
            problems.append(f"{name} is {x['status']} but its table still holds tournament chips or seats")
        if (x["table_status"] == "closed") != (x["status"] == "cancelled") and x["status"] != "finished":
            problems.append(f"{name} is {x['status']} at a {x['table_status']} table")
    other = await tx.all(
        "SELECT id FROM ledger WHERE guild_id = ? AND kind LIKE 'tournament-%'"
        " AND (table_id IS NULL OR table_id NOT IN (SELECT table_id FROM tournaments)) LIMIT ?",
        (guild, _MAX_LISTED),
    )
    problems += [f"ledger row {r['id']}: a tournament movement outside any tournament" for r in other]
    for tournament_id in active:
        problems += await _entrant_problems(tx, tournament_id)
    return problems


async def _entrant_problems(tx: Tx, tournament_id: int) -> list[str]:
    """Per entrant of a running tournament: chips given + hand results = his stack (0 once out)."""
    rows = await tx.all(
        """
        SELECT e.user_id, x.starting_chips * (1 + e.rebuys) AS given, s.user_id AS seated,
            coalesce(s.stack, 0) AS stack,
            coalesce((SELECT sum(a.value - b.value)
                      FROM hands h, json_each(h.seats) AS u, json_each(h.stacks_after) AS a,
                           json_each(h.stacks_before) AS b
                      WHERE h.table_id = x.table_id AND h.status = 'complete' AND u.value = e.user_id
                        AND a.key = u.key AND b.key = u.key), 0) AS won
        FROM tournament_entries e JOIN tournaments x ON x.id = e.tournament_id
        LEFT JOIN seats s ON s.table_id = x.table_id AND s.user_id = e.user_id
        WHERE e.tournament_id = ?
        ORDER BY e.user_id
        """,
        (tournament_id,),
    )
    problems = [
        f"tournament {tournament_id}, user {r['user_id']}: stack {r['stack']:,} but his chips and hands give"
        f" {r['given'] + r['won']:,}"
        for r in rows if r["given"] + r["won"] != r["stack"]
    ]
    strangers = await tx.all(
        "SELECT s.user_id FROM seats s JOIN tournaments x ON x.table_id = s.table_id WHERE x.id = ?"
        " AND s.user_id NOT IN (SELECT user_id FROM tournament_entries WHERE tournament_id = x.id)",
        (tournament_id,),
    )
    problems += [f"tournament {tournament_id}: user {r['user_id']} is seated without an entry" for r in strangers]
    return problems


async def _hand_problems(tx: Tx, guild: int) -> list[str]:
    problems: list[str] = []
    rows = await tx.all(
        """
        SELECT h.id, h.number, h.table_id FROM hands h JOIN tables t ON t.id = h.table_id
        WHERE t.guild_id = ? AND h.status = 'complete'
          AND (SELECT sum(a.value) FROM json_each(h.stacks_after) AS a) + h.carried_out
              != (SELECT sum(b.value) FROM json_each(h.stacks_before) AS b) + h.carried_in
        LIMIT ?
        """,
        (guild, _MAX_LISTED),
    )
    problems += [f"hand {r['id']} (table {r['table_id']} #{r['number']}) does not conserve chips" for r in rows]
    live = await tx.all(
        "SELECT h.*, t.status AS table_status, t.carried_pot FROM hands h JOIN tables t ON t.id = h.table_id"
        " WHERE t.guild_id = ? AND h.status = 'live'",
        (guild,),
    )
    for h in live:
        seats = {
            r["user_id"]: r["stack"]
            for r in await tx.all("SELECT user_id, stack FROM seats WHERE table_id = ?", (h["table_id"],))
        }
        users: list[int] = from_json(h["seats"])
        before: list[int] = from_json(h["stacks_before"])
        name = f"live hand {h['id']} (table {h['table_id']} #{h['number']})"
        if h["table_status"] == "closed":
            problems.append(f"{name} is at a closed table")
        if h["carried_in"] > h["carried_pot"]:
            problems.append(f"{name} plays {h['carried_in']:,} carried chips but only {h['carried_pot']:,} are carried")
        for user, stack in zip(users, before):
            if user not in seats:
                problems.append(f"{name}: user {user} is no longer seated")
            elif seats[user] != stack:
                problems.append(f"{name}: user {user} started with {stack:,} but the seat now holds {seats[user]:,}")
    return problems
