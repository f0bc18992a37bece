"""The chip bank: accounts, movements, history, leaderboard, settings."""

from __future__ import annotations

import pytest

import bot.store.bank as bank
from bot.i18n.text import Text
from bot.store import MAX_AMOUNT, MAX_BALANCE, InsufficientFunds, InvalidAmount, NotFound, Store

from .conftest import FakeClock, OpenStore, refused_by_schema

G = 111_111_111_111_111_111  # a guild
ALICE, BOB, CAROL, BANKER = 201, 202, 203, 299


async def test_an_account_opens_on_first_use_with_a_starting_grant(store: Store) -> None:
    with pytest.raises(NotFound, match="no chips account"):  # looking at the history opens no account
        await store.ledger_page(G, ALICE)
    assert await store.balance(G, ALICE) == 1000
    page = await store.ledger_page(G, ALICE)
    assert [(e.kind, e.delta, e.balance_after) for e in page.entries] == [("starting-grant", 1000, 1000)]
    assert await store.balance(G, ALICE) == 1000  # opened once
    assert (await store.ledger_page(G, ALICE)).total == 1


async def test_guild_settings(store: Store) -> None:
    settings = await store.guild_settings(G)
    assert (settings.starting_balance, settings.banker_role_id) == (1000, None)
    await store.set_starting_balance(G, 5000)
    settings = await store.set_banker_role(G, 77)
    assert (settings.starting_balance, settings.banker_role_id) == (5000, 77)
    assert await store.balance(G, ALICE) == 5000
    assert await store.balance(G + 1, ALICE) == 1000  # settings are per guild
    await store.set_starting_balance(G, 0)
    assert await store.balance(G, BOB) == 0
    assert (await store.set_banker_role(G, None)).banker_role_id is None


async def test_transfer_writes_two_rows_and_both_balances(store: Store, clock: FakeClock) -> None:
    result = await store.transfer(G, ALICE, BOB, 300, reference="for the pizza")
    assert (result.src_balance, result.dst_balance) == (700, 1300)
    out = (await store.ledger_page(G, ALICE)).entries[0]
    into = (await store.ledger_page(G, BOB)).entries[0]
    assert (out.kind, out.delta, out.balance_after, out.counterparty, out.reference) == (
        "transfer-out", -300, 700, BOB, "for the pizza")
    assert (into.kind, into.delta, into.balance_after, into.counterparty) == ("transfer-in", 300, 1300, ALICE)
    assert out.created_at == into.created_at  # one transaction, one time
    assert out.created_at < clock.now


async def test_created_at_comes_from_the_clock(open_store: OpenStore) -> None:
    ticks = iter(range(100, 1000, 10))
    store = await open_store(clock=lambda: float(next(ticks)))
    await store.balance(G, ALICE)
    await store.grant(G, ALICE, 5, BANKER)
    entries = (await store.ledger_page(G, ALICE)).entries
    assert [e.created_at for e in reversed(entries)] == [110.0, 120.0]


async def test_grant_and_remove(store: Store) -> None:
    assert await store.grant(G, ALICE, 500, BANKER, reason="won the raffle") == 1500
    assert await store.remove(G, ALICE, 1500, BANKER) == 0
    with pytest.raises(InsufficientFunds, match="has 0 chips in the bank; 1 cannot be removed") as caught:
        await store.remove(G, ALICE, 1, BANKER)
    assert (caught.value.needed, caught.value.available) == (1, 0)
    kinds = [(e.kind, e.delta, e.counterparty, e.reference) for e in (await store.ledger_page(G, ALICE)).entries]
    assert kinds == [
        ("admin-removal", -1500, BANKER, None),
        ("admin-grant", 500, BANKER, "won the raffle"),
        ("starting-grant", 1000, None, None),
    ]
    report = await store.audit(G)
    assert (report.granted, report.removed, report.balances) == (1500, 1500, 0)


class _Marked:
    """A language that marks each number it writes: a value given as an int is a quantity, written the reader's
    way; one already written in English would show unmarked."""

    code = "marked"

    def gettext(self, source: str) -> str:
        return source

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def number(self, value: int) -> str:
        return f"<{value}>"


async def test_a_refusal_is_a_text_the_cogs_word_for_the_reader(store: Store) -> None:
    """The store says its English source and its values; the reader's language writes the numbers and the cogs
    name the member."""
    with pytest.raises(InsufficientFunds) as caught:
        await store.remove(G, ALICE, 1234, BANKER)
    text = caught.value.text
    assert isinstance(text, Text) and caught.value.args[0] is text
    assert text.source == "{member} has {available} chips in the bank; {amount} cannot be removed."
    assert text.worded(_Marked(), lambda user: f"<@{user}>") == (
        f"<@{ALICE}> has <1000> chips in the bank; <1234> cannot be removed.")
    assert str(caught.value) == f"member {ALICE} has 1,000 chips in the bank; 1,234 cannot be removed."


async def test_the_balance_has_an_upper_bound(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    assert MAX_BALANCE == 10**15 and MAX_AMOUNT == 10**12
    monkeypatch.setattr(bank, "MAX_BALANCE", 5000)  # reaching 10**15 takes 1,000 grants of the largest amount
    assert await store.grant(G, ALICE, 4000, BANKER) == 5000
    with pytest.raises(InvalidAmount, match="above the limit of 5,000 chips"):
        await store.grant(G, ALICE, 1, BANKER)
    with pytest.raises(InvalidAmount, match="above the limit"):
        await store.transfer(G, BOB, ALICE, 1)
    assert await store.balance(G, ALICE) == 5000
    assert await store.balance(G, BOB) == 1000


async def test_ledger_pages_newest_first(store: Store) -> None:
    for amount in range(1, 24):
        await store.grant(G, ALICE, amount, BANKER)
    first = await store.ledger_page(G, ALICE, page=1, per_page=10)
    assert (first.total, first.pages, len(first.entries)) == (24, 3, 10)
    assert [e.delta for e in first.entries[:3]] == [23, 22, 21]
    last = await store.ledger_page(G, ALICE, page=3, per_page=10)
    assert [e.kind for e in last.entries][-1] == "starting-grant" and len(last.entries) == 4
    beyond = await store.ledger_page(G, ALICE, page=9, per_page=10)
    assert beyond.entries == () and beyond.pages == 3
    ids = [e.id for p in (1, 2, 3) for e in (await store.ledger_page(G, ALICE, p, 10)).entries]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 24


async def test_leaderboard_counts_chips_at_tables_and_ranks_ties_equal(store: Store) -> None:
    await store.grant(G, ALICE, 500, BANKER)  # 1500
    await store.balance(G, BOB)  # 1000
    await store.grant(G, CAROL, 500, BANKER)  # 1500
    table = await store.create_table(G, 900, ALICE, {})
    await store.buy_in(table.id, BOB, 800, 1)  # bob: 200 + 800 at the table
    await store.balance(G + 1, 555)  # another guild
    board = await store.leaderboard(G)
    assert [(e.rank, e.user_id, e.balance, e.at_tables, e.total) for e in board] == [
        (1, ALICE, 1500, 0, 1500),
        (1, CAROL, 1500, 0, 1500),
        (3, BOB, 200, 800, 1000),
    ]
    assert len(await store.leaderboard(G, limit=2)) == 2


async def test_the_ledger_is_append_only(store: Store) -> None:
    await store.balance(G, ALICE)
    with pytest.raises(refused_by_schema(store), match="append-only"):
        await store.db.execute("UPDATE ledger SET delta = 5")
    with pytest.raises(refused_by_schema(store), match="append-only"):
        await store.db.execute("DELETE FROM ledger")


async def test_the_schema_refuses_a_negative_balance_or_a_broken_chain(store: Store) -> None:
    await store.balance(G, ALICE)
    with pytest.raises(refused_by_schema(store), match=r"(?i)check"):
        await store.db.execute("UPDATE accounts SET balance = -1")
    with pytest.raises(refused_by_schema(store), match="balance chain"):
        await store.db.execute(
            "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, created_at)"
            " VALUES (?, ?, 5, 6000, 'admin-grant', 0)", (G, ALICE)
        )
    with pytest.raises(refused_by_schema(store), match="wrong sign"):
        await store.db.execute(
            "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, created_at)"
            " VALUES (?, ?, -5, 995, 'admin-grant', 0)", (G, ALICE)
        )


async def test_audit_finds_books_that_do_not_balance(open_store: OpenStore) -> None:
    store = await open_store(audit=False)
    await store.transfer(G, ALICE, BOB, 100)
    assert (await store.audit(G)).ok
    # Tamper behind the store's back: chips appear in a balance without a ledger row.
    await store.db.execute("UPDATE accounts SET balance = balance + 7 WHERE user_id = ?", (BOB,))
    report = await store.audit(G)
    assert not report.ok
    assert any("ledger sums to 1100" in p for p in report.problems)
    assert any("chips minted" in p for p in report.problems)
    assert await store.check_ledger_integrity(G) != []
    assert "PROBLEM" in report.summary()


async def test_a_members_settings_are_each_on_until_he_turns_it_off(store: Store) -> None:
    """Turn alerts and the four-colour deck: on for a member never seen, each changed alone, kept per server."""
    member = 222_222_222_222_222_222
    assert await store.turn_alerts(G, member) and await store.four_colours(G, member)
    await store.set_four_colours(G, member, False)
    assert not await store.four_colours(G, member) and await store.turn_alerts(G, member)
    await store.set_turn_alerts(G, member, False)
    assert not await store.turn_alerts(G, member) and not await store.four_colours(G, member)
    await store.set_four_colours(G, member, True)
    assert await store.four_colours(G, member) and not await store.turn_alerts(G, member)
    assert await store.four_colours(G + 1, member) and await store.turn_alerts(G + 1, member)
