"""The books: recompute everything that can be recomputed and compare.

``audit(guild)`` checks, for one guild:

* the ledger itself (``check_ledger_integrity``): each account's rows chain
  (``balance_after = previous balance_after + delta``, starting with exactly
  one ``starting-grant``), every row's sign matches its kind, and each
  account's balance equals both the sum of its deltas and its last
  ``balance_after``;
* conservation: chips minted (starting grants + admin grants - admin
  removals) = balances + seat stacks + carried pots. Chips in the pot of a live
  hand are still in the seat stacks (see ``bot.store.tables``), so they are
  counted there;
* per table: chips that came in through the ledger (buy-ins, rebuys, top-ups,
  minus cash-outs and carried refunds) = stacks + carried pot; per player at
  each table: ledger flow + what completed hands won or lost = the stack now;
  the carried pot = what completed hands carried out - carried in - refunds;
  a closed table holds nothing;
* per hand: a completed hand conserves chips; a live hand's recorded starting
  stacks are still the seats' stacks and its players are seated;
* sessions and facts (``bot.store.night.session_problems``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .db import StoreBase, Tx, check_id, from_json
from .night import session_problems

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
        """Chips that exist: balances, stacks and carried pots."""
        return self.balances + self.seat_stacks + self.carried_pots

    def summary(self) -> str:
        """One line for a log or an admin command."""
        state = "OK" if self.ok else f"{len(self.problems)} PROBLEM(S)"
        return (
            f"audit guild {self.guild_id}: {state}; minted {self.minted:,} = balances {self.balances:,}"
            f" + stacks {self.seat_stacks:,} + carried {self.carried_pots:,}"
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
        )
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
            totals = await tx.one(
                """
                SELECT
                    (SELECT coalesce(sum(l.delta), 0) FROM ledger l JOIN ledger_kinds k ON k.kind = l.kind
                     WHERE l.guild_id = :g AND k.mint = 1 AND l.delta > 0) AS granted,
                    (SELECT coalesce(-sum(l.delta), 0) FROM ledger l JOIN ledger_kinds k ON k.kind = l.kind
                     WHERE l.guild_id = :g AND k.mint = 1 AND l.delta < 0) AS removed,
                    (SELECT coalesce(sum(balance), 0) FROM accounts WHERE guild_id = :g) AS balances,
                    (SELECT count(*) FROM accounts WHERE guild_id = :g) AS accounts,
                    (SELECT count(*) FROM ledger WHERE guild_id = :g) AS ledger_rows,
                    (SELECT coalesce(sum(s.stack), 0) FROM seats s JOIN tables t ON t.id = s.table_id
                     WHERE t.guild_id = :g) AS seat_stacks,
                    (SELECT coalesce(sum(carried_pot), 0) FROM tables WHERE guild_id = :g) AS carried_pots,
                    (SELECT count(*) FROM tables WHERE guild_id = :g AND status != 'closed') AS open_tables,
                    (SELECT count(*) FROM hands h JOIN tables t ON t.id = h.table_id
                     WHERE t.guild_id = :g AND h.status = 'live') AS live_hands
                """,
                {"g": guild},
            )
            assert totals is not None
            report = AuditReport(
                guild, ok=False, granted=totals["granted"], removed=totals["removed"], balances=totals["balances"],
                seat_stacks=totals["seat_stacks"], carried_pots=totals["carried_pots"], accounts=totals["accounts"],
                ledger_rows=totals["ledger_rows"], open_tables=totals["open_tables"], live_hands=totals["live_hands"],
            )
            if report.minted != report.in_play:
                problems.append(
                    f"chips minted ({report.granted:,} granted - {report.removed:,} removed = {report.minted:,})"
                    f" != balances {report.balances:,} + stacks {report.seat_stacks:,}"
                    f" + carried {report.carried_pots:,} = {report.in_play:,}"
                )
            problems += await _table_problems(tx, guild)
            problems += await _hand_problems(tx, guild)
            problems += await session_problems(tx, guild)
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


async def _table_problems(tx: Tx, guild: int) -> list[str]:
    problems: list[str] = []
    tables = await tx.all(
        """
        SELECT t.id, t.status, t.carried_pot,
            (SELECT coalesce(sum(stack), 0) FROM seats WHERE table_id = t.id) AS stacks,
            (SELECT coalesce(-sum(delta), 0) FROM ledger WHERE table_id = t.id) AS inflow,
            (SELECT coalesce(sum(delta), 0) FROM ledger WHERE table_id = t.id AND kind = 'carried-refund') AS refunds,
            (SELECT coalesce(sum(carried_out - carried_in), 0) FROM hands
             WHERE table_id = t.id AND status = 'complete') AS carried_net
        FROM tables t WHERE t.guild_id = ? ORDER BY t.id
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
        " WHERE t.guild_id = ? AND l.kind != 'carried-refund' GROUP BY l.table_id, l.user_id",
        (guild,),
    ):
        flows[(r["table_id"], r["user_id"])] = r["flow"]
    for r in await tx.all(
        """
        SELECT h.table_id, u.value AS user_id, sum(a.value - b.value) AS won
        FROM hands h JOIN tables t ON t.id = h.table_id,
             json_each(h.seats) u, json_each(h.stacks_after) a, json_each(h.stacks_before) b
        WHERE t.guild_id = ? AND h.status = 'complete' AND a.key = u.key AND b.key = u.key
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
            " WHERE t.guild_id = ?",
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


async def _hand_problems(tx: Tx, guild: int) -> list[str]:
    problems: list[str] = []
    rows = await tx.all(
        """
        SELECT h.id, h.number, h.table_id FROM hands h JOIN tables t ON t.id = h.table_id
        WHERE t.guild_id = ? AND h.status = 'complete'
          AND (SELECT sum(value) FROM json_each(h.stacks_after)) + h.carried_out
              != (SELECT sum(value) FROM json_each(h.stacks_before)) + h.carried_in
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
