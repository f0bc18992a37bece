"""A tournament's prize pool in the store: the movements between a member's balance and the pool, the payout,
and what a hand at a tournament table writes besides its stacks (``finish_hand``'s part, in its transaction).

Shared by the tables (``finish_hand``) and the tournaments' own operations (``bot.store.tournaments``), so that
neither imports the other.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..i18n.text import Text
from .bank import post
from .connection import Row
from .db import MAX_AMOUNT, Tx, check_count, check_id, to_json
from .errors import ChipsNotConserved, InvalidArgument, TournamentError

__all__ = [
    "ACTIVE", "TournamentHand", "TournamentStatus", "check_hand_change", "check_prizes", "free_seats",
    "move_chips", "pay_out", "save_state", "write_hand_result",
]

TournamentStatus = Literal["registering", "running", "finished", "cancelled"]
ACTIVE: tuple[TournamentStatus, ...] = ("registering", "running")  # the pool is held


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """What a hand at a tournament table changes besides the stacks, written in ``finish_hand``'s transaction:
    the tournament's new ``state``, the players it knocked ``out`` (their seats are freed: their stacks are
    empty) and, when it ended the tournament, the ``prizes`` (member: chips, summing to the pool)."""

    state: Mapping[str, Any]
    out: Collection[int] = ()
    prizes: Mapping[int, int] | None = None


async def save_state(tx: Tx, tournament_id: int, state: str, status: TournamentStatus | None = None) -> None:
    await tx.run("UPDATE tournaments SET state = ?, status = coalesce(?, status) WHERE id = ?",
                 (state, status, tournament_id))


async def move_chips(tx: Tx, t: Row, user: int, delta: int, kind: str) -> None:
    """A movement between the member's balance and the pool (none for a free tournament)."""
    if delta:
        await post(tx, t["guild_id"], user, delta, kind, reference=f"tournament {t['id']}", table_id=t["table_id"])
        await tx.run("UPDATE tournaments SET pool = pool - ? WHERE id = ?", (delta, t["id"]))


async def pay_out(tx: Tx, t: Row, prizes: Mapping[int, int]) -> None:
    """The pool to the balances (``tournament-prize``), the tournament chips gone, the tournament finished."""
    if t["status"] != "running":
        raise TournamentError(f"Only a running tournament can be paid out; this one is {t['status']}.")
    if await tx.one("SELECT 1 FROM hands WHERE table_id = ? AND status = 'live'", (t["table_id"],)):
        raise TournamentError(Text("A hand is still being played: the tournament is paid out when it is over."))
    entrants = {r[0] for r in await tx.all("SELECT user_id FROM tournament_entries WHERE tournament_id = ?",
                                           (t["id"],))}
    if not set(prizes) <= entrants:
        raise InvalidArgument("Prizes go to the tournament's entrants only.")
    if sum(prizes.values()) != t["pool"]:
        raise ChipsNotConserved(f"The prizes add up to {sum(prizes.values()):,}, not to the prize pool "
                                f"of {t['pool']:,}.")
    for user in sorted(entrants):
        prize = prizes.get(user, 0)
        await move_chips(tx, t, user, prize, "tournament-prize")
        await tx.run("UPDATE tournament_entries SET prize = ? WHERE tournament_id = ? AND user_id = ?",
                     (prize, t["id"], user))
    await tx.run("DELETE FROM seats WHERE table_id = ?", (t["table_id"],))
    await tx.run("UPDATE tables SET carried_pot = 0 WHERE id = ?", (t["table_id"],))
    await tx.run("UPDATE tournaments SET status = 'finished', ended_at = ? WHERE id = ?", (tx.now, t["id"]))


async def free_seats(tx: Tx, table_id: int, users: Collection[int]) -> None:
    """Free the seats of players knocked out: only empty stacks (tournament chips are never cashed out)."""
    for user in users:
        changed = await tx.run("DELETE FROM seats WHERE table_id = ? AND user_id = ? AND stack = 0", (table_id, user))
        if changed != 1:
            raise ChipsNotConserved("{member} still has chips: only a player with none is out.", member=user)


async def write_hand_result(tx: Tx, table_id: int, change: TournamentHand) -> None:
    """``finish_hand``'s part for a tournament table (in its transaction, after the new stacks): the new state,
    the seats of the players knocked out freed and, if the hand ended the tournament, the payout."""
    t = await tx.one("SELECT * FROM tournaments WHERE table_id = ?", (table_id,))
    if t is None or t["status"] != "running":
        raise TournamentError("This hand is not part of a running tournament.")
    await save_state(tx, t["id"], to_json(dict(change.state), "The tournament"))
    await free_seats(tx, table_id, change.out)
    if change.prizes is not None:
        await pay_out(tx, t, change.prizes)


def check_prizes(prizes: Mapping[int, int] | None) -> None:
    for user, prize in (prizes or {}).items():
        check_id(user, "A prize winner")
        check_count(prize, "A prize", 0, MAX_AMOUNT)


def check_hand_change(change: TournamentHand) -> None:
    """Refuse a malformed ``TournamentHand`` before ``finish_hand`` opens its transaction."""
    to_json(dict(change.state), "The tournament")
    for user in change.out:
        check_id(user, "A player id")
    check_prizes(change.prizes)
