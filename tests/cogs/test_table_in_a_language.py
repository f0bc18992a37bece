"""The table's words in the table's language (issue 34): every text of the table message (its stakes, round, pot,
players' lines, the log, the showdown, the summary, the lobby, a rotation's place, a closed or moved table) and of a
player's own cards comes through the catalogue: in the pseudo-language each is wrapped in ``⟦…⟧``, so a text left
in bare English shows. What stays bare: members, the clock, cards and the games' names."""

from __future__ import annotations

import random
import re

import discord
import pytest

from bot.i18n import ENGLISH
from bot.i18n.catalogue import PSEUDO, language
from bot.poker import GAMES, Card, Hand, RoundEnded
from bot.store import Store
from bot.tables import Table, Tables, TableSettings
from bot.tools.simulate import default_stakes, play_hand, random_action
from cogs.table import _controls, _hole, _screen, _text

PSEUDO_LANGUAGE = language(PSEUDO)
USERS = (701, 702, 703, 704)
NAMES = sorted({g.name for g in GAMES.values()} | set(_screen.SHORT_NAMES.values()), key=len, reverse=True)


def card(_: Card) -> str:
    """Every card drawn alike (a card's rank letters are no word)."""
    return "🂠"


def bare_words(text: str) -> list[str]:
    """The words of ``text`` that did not come through the catalogue: each ``⟦…⟧`` removed, then the mentions and
    timestamps (``<@1>``, ``<t:1:R>``), links and the games' names."""
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", "", text)) != text:
        text = inner
    text = re.sub(r"<[^>]*>|https://\S+", "", text)
    for name in NAMES:
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]{2,}", text)


def test_the_check_finds_a_bare_word() -> None:
    assert bare_words("⟦Pot ⟦ten⟧⟧ <@1> · Texas Hold'em · ⟦{who} folds⟧") == []
    assert bare_words("⟦Pot 10⟧ · folded") == ["folded"]


def checked_as_played(hand: Hand, rng: random.Random) -> str:
    """The table's lines of the hand as it is, checked; then the random player's move."""
    users = USERS[:hand.players]
    lines = [_text.stakes_short(hand, lang=PSEUDO_LANGUAGE), _text.round_line(hand, lang=PSEUDO_LANGUAGE),
             _text.pot_line(hand, users, lang=PSEUDO_LANGUAGE),
             *_text.player_lines(hand, users, card, lang=PSEUDO_LANGUAGE),
             _text.bring_in_line(hand, users, card, lang=PSEUDO_LANGUAGE) or "",
             _screen.asked(hand.legal(), lang=PSEUDO_LANGUAGE)]
    for seat in range(hand.players):
        lines += [_hole.private_hand(hand, seat, card, lang=PSEUDO_LANGUAGE),
                  _hole.caption(hand, seat, 7, card, lang=PSEUDO_LANGUAGE)]
    assert [line for line in lines if bare_words(line)] == []
    return random_action(hand, rng)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_line_of_a_hand_is_worded_in_the_tables_language(game: str) -> None:
    rng = random.Random(game)
    for _ in range(12):
        players = rng.choice((2, 3, 4))
        stacks = [rng.choice((6, 15, 40, 200)) for _ in range(players)]  # all ins and side pots
        hand = play_hand(GAMES[game], default_stakes(GAMES[game]), stacks, rng, policy=checked_as_played,
                         carried_in=rng.choice((0, 0, 9)))
        users = USERS[:players]
        lines = [*_text.showdown_lines(hand, users, card, lang=PSEUDO_LANGUAGE),
                 _text.summary_line(hand, users, 12, lang=PSEUDO_LANGUAGE),
                 *(_text.event_line(e, users, card, hand.game, lang=PSEUDO_LANGUAGE) or "" for e in hand.events),
                 *(_text.street_name(hand.game.family, r, lang=PSEUDO_LANGUAGE) for r in range(5)),
                 *(_hole.final_line(hand, seat, 12, lang=PSEUDO_LANGUAGE) for seat in range(players)),
                 *(_text.drew_line(hand, seat, hand.holes[seat][-k:] if k else [], 12, lang=PSEUDO_LANGUAGE)
                   for seat in range(players) for k in range(len(hand.holes[seat]) + 1)),
                 *(_text.draw_report(hand, seat, hand.holes[seat][:k], hand.holes[seat][-k:] if k else [], card,
                                     lang=PSEUDO_LANGUAGE)
                   for seat in range(players) for k in (0, 2))]
        assert [line for line in lines if bare_words(line)] == []
        assert "⟦" in _text.summary_line(hand, users, 12, lang=PSEUDO_LANGUAGE)


def test_a_stud_street_in_the_log_is_worded() -> None:
    assert _text.event_line(RoundEnded(0, 30), USERS, card, GAMES["stud"], lang=PSEUDO_LANGUAGE) == "⟦4th street⟧"


# ------------------------------------------------------------------ a real table


def worded(embed: discord.Embed) -> list[str]:
    """The bare words of an embed's title and description."""
    return bare_words(f"{embed.title or ''}\n{embed.description or ''}")


def labels(table: Table, screen: _screen.Screen) -> list[str]:
    """The labels of the table message's buttons."""
    view = _controls.view(table, screen)
    return [str(getattr(getattr(item, "item", item), "label", "")) for item in view.children]


def bare_labels(table: Table, screen: _screen.Screen) -> list[str]:
    """The labels of the table message's buttons that did not come through the catalogue."""
    return [label for label in labels(table, screen) if not (label.startswith("⟦") and label.endswith("⟧"))]


async def horse(store: Store) -> Table:
    settings = TableSettings("horse", small_blind=5, big_blind=10, hands_per_game=1)
    table = await Tables(store, random.Random(4)).create(5, 55, 500, settings)
    for user in USERS[:3]:
        await table.join(user, 200)
    return table


async def test_the_table_message_is_worded_in_the_tables_language(store: Store) -> None:
    table = await horse(store)
    screen = _screen.Screen(card=card, language=PSEUDO_LANGUAGE, deadline=1_800_000_000.0)
    lobby = _screen.embed(table, screen)
    assert worded(lobby) == [] and "⟦" in (lobby.description or "")
    assert labels(table, screen) and bare_labels(table, screen) == []
    for _ in range(5):  # Hold'em, Omaha Hi-Lo, Razz, Stud, Stud Hi-Lo
        await table.start_hand()
        while table.live is not None:
            assert worded(_screen.embed(table, screen)) == []
            assert bare_labels(table, screen) == []
            legal = table.legal()
            assert legal is not None
            await table.act(table.actor() or 0, "pb" if legal.can_bring_in else "cc", table.next_seq())
        finished = _screen.embed(table, _screen.Screen(card=card, language=PSEUDO_LANGUAGE, show_finished=True))
        assert worded(finished) == []
        summary = _screen.summary_embed(table, lang=PSEUDO_LANGUAGE)
        assert summary is not None and worded(summary) == []
    await table.pause()
    assert worded(_screen.embed(table, screen)) == []
    closing = _screen.closing_line(table, results=False, lang=PSEUDO_LANGUAGE)
    assert worded(_screen.closed_embed(summary, closing, ["<@701> +20"], lang=PSEUDO_LANGUAGE)) == []
    assert worded(_screen.closed_embed(lang=PSEUDO_LANGUAGE)) == []
    assert worded(_screen.moved_embed(5, 55, 9, lang=PSEUDO_LANGUAGE)) == []


def test_the_english_is_the_source() -> None:
    """The table's words in English are their sources as the code writes them (the catalogue is not read)."""
    hand = Hand("holdem", default_stakes(GAMES["holdem"], "fixed-limit"), [100, 100], seed=3)
    assert _text.round_line(hand) == "Preflop · bet 2"
    assert _text.pot_line(hand, USERS[:2]) == "Pot 3"
    assert _screen.closed_embed(lang=ENGLISH).title == "Table closed"
