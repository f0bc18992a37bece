"""A tournament's texts in a reader's language (cogs/tournament_views.py and the registration message's buttons):
every text of the table message's lines, the registration message, its buttons and the channel's news comes through
the catalogue (the pseudo-language wraps each in ``⟦…⟧``: what is left outside is mentions, timestamps, numbers
and the games' names), and with the wraps taken out it is the English (``lang=ENGLISH``, the default)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import ENGLISH
from bot.i18n.catalogue import PSEUDO, language
from bot.poker import GAMES
from bot.store import Store
from bot.tables import Table
from bot.tables import tournament as mode
from bot.tables.tournament import Broke, Eliminated, Finished, News
from bot.tournament import Placing
from cogs.table._tournament import lobby_view
from cogs.tournament_views import lobby_embed, news_text, ordinal, places_of, tournament_field
from pokerdev.fakediscord.pseudo import bare_words

from .test_tournament_views import ALICE, BOB, CAROL, T0, Stopped, open_table

PSEUDO_LANGUAGE = language(PSEUDO)
TEXT_KEYS = ("title", "description", "name", "value", "text")  # an embed's texts (not its type or colour)
GAME_WORDS = {word for game in GAMES.values() for word in re.findall(r"[A-Za-z][A-Za-z']+", game.name)}


@pytest.fixture
def stopped(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stopped]:
    clock = Stopped()
    monkeypatch.setattr(mode, "CLOCK", clock)
    yield clock


def unworded(text: str) -> list[str]:
    """The words of a pseudo-language text that did not come through the catalogue."""
    return bare_words(text, lambda word: word in GAME_WORDS)


def unwrapped(text: str) -> str:
    return re.sub("[⟦⟧]", "", text)


def same_but_worded(english: str, pseudo: str) -> None:
    assert unworded(pseudo) == [], pseudo
    assert unwrapped(pseudo) == english


def texts(table: Table, at: float | None = None) -> list[Any]:
    """Everything a tournament table shows of itself, in English and in the pseudo-language."""
    shown = []
    for lang in (ENGLISH, PSEUDO_LANGUAGE):
        field = tournament_field(table, at, lang=lang)
        shown.append((tuple(field) if field is not None else None, lobby_embed(table, lang=lang).to_dict(),
                      [getattr(getattr(i, "item", i), "label", "") for i in lobby_view(table, lang=lang).children]))
    return shown


def compare(english: Any, pseudo: Any) -> None:
    if isinstance(english, str):
        same_but_worded(english, pseudo)
    elif isinstance(english, dict):
        assert english.keys() == pseudo.keys()
        for key in english:
            if key in TEXT_KEYS or not isinstance(english[key], str):
                compare(english[key], pseudo[key])
            else:
                assert english[key] == pseudo[key]
    elif isinstance(english, list | tuple):
        assert len(english) == len(pseudo)
        for one, other in zip(english, pseudo):
            compare(one, other)
    else:
        assert english == pseudo


async def test_every_moment_of_a_tournament_comes_through_the_catalogue(store: Store, stopped: Stopped) -> None:
    table = await open_table(store)
    t = mode.tournament_of(table)
    assert t is not None
    compare(*texts(table))  # registering
    await t.start(table)
    for at in (T0 + 15, T0 + 150, T0 + 500):  # a level, a break, the last level
        compare(*texts(table, at))
    stopped.t = T0 + 30
    await t.pause(table)
    compare(*texts(table, T0 + 1000))  # paused
    await t.close(table)
    assert t.state.stage == "cancelled"
    compare(*texts(table))


@pytest.mark.parametrize("news", [
    Eliminated((Placing(5, (ALICE,)),)),
    Eliminated((Placing(11, (ALICE, BOB, CAROL)),)),
    Eliminated((Placing(21, (ALICE,)), Placing(22, (BOB,)), Placing(1, (CAROL,)))),
    Broke((BOB,)),
    Broke((BOB, CAROL)),
    Finished((Placing(1, (ALICE,)), Placing(2, (BOB, CAROL))), {ALICE: 200, BOB: 50, CAROL: 50}),
    Finished((Placing(1, (ALICE,)), Placing(2, (BOB,)), Placing(3, (CAROL,))), {ALICE: 2000, BOB: 0, CAROL: 0}),
])
def test_the_news_comes_through_the_catalogue(news: News) -> None:
    english, pseudo = news_text(news), news_text(news, lang=PSEUDO_LANGUAGE)
    assert english is not None and pseudo is not None
    same_but_worded(english, pseudo)


def test_places_are_each_a_text() -> None:
    assert [ordinal(n, ENGLISH) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]
    assert ordinal(1, PSEUDO_LANGUAGE) == "⟦1st⟧" and ordinal(21, PSEUDO_LANGUAGE) == "⟦21st⟧"
    same_but_worded(places_of(Placing(3, (ALICE, BOB))), places_of(Placing(3, (ALICE, BOB)), lang=PSEUDO_LANGUAGE))
