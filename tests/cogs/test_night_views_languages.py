"""The night-after commands' and the table commands' own texts in a reader's language: every text comes through the
catalogue (the pseudo-language wraps each in ``⟦…⟧``: what is left outside is mentions, names and numbers), numbers,
money and dates are written the language's way (German: ``1.200``, ``12,00 $``, ``Nov.``), and the English is the
English of the default (``lang=ENGLISH``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from typing import cast

import discord
import pytest

from bot.i18n import ENGLISH, Language
from bot.i18n.catalogue import PSEUDO, language
from bot.night import ChipValue
from bot.night.stats import PlayerStats
from bot.poker.phh import export_phh
from bot.store import HandRecord, NetEntry, NightRecord
from bot.tables import TableSettings
from bot.tables.night import Board, Night, NightResults
from cogs import night_views
from cogs.table import _table_commands
from pokerdev.fakediscord.pseudo import bare_words
from tests.night.known import ANN, BOB, CAT, heads_up_triple_draw

PSEUDO_LANGUAGE = language(PSEUDO)
GERMAN = language("de")
DAY = dt.datetime(2026, 11, 27, 20, tzinfo=dt.UTC).timestamp()
DOLLAR = ChipValue(100, 100, "$")
GAMES = ("Texas", "Triple", "Draw", "Hold'em", "Razz")  # the games' names are the same in every language


def unworded(text: str) -> list[str]:
    """The words of a pseudo-language text that did not come through the catalogue."""
    return bare_words(text, lambda word: word in GAMES or word in ("poker", "ann", "bob"))


def session(id_: int = 7, *, open_: bool = True, hands: int = 3) -> NightRecord:
    return NightRecord(id_, 1, 42, 500, 1, DAY, None if open_ else DAY + 3600, hands)


def results(nets: dict[int, int], *, value: ChipValue | None = None, since: dt.date | None = None,
            pending: dict[int, int] | None = None, live: list[int] | None = None) -> NightResults:
    series = {user: [(0, 0), (1, net)] for user, net in nets.items()}
    night = Night((session(), session(8)), since) if since else Night((session(),))
    return NightResults(night, [], series, nets, {}, pending or {}, live or [], value)


NIGHTS = [
    results({}),
    results({ANN: 1200, BOB: -1100, CAT: -100}, pending={BOB: 2, CAT: 2}, live=[4]),
    results({ANN: 1200, BOB: -1200}, value=DOLLAR, since=dt.date(2026, 11, 1), pending={BOB: 1}),
    results({ANN: 0, BOB: 0}),
]
BOARDS = [
    Board("tonight", [NetEntry(1, ANN, 1200, 30), NetEntry(2, BOB, -1200, 1)], Night((session(),)), here=True),
    Board("tonight", [NetEntry(1, ANN, 120, 30)], Night((session(1), session(2)))),
    Board("tonight", [], None),
    Board("month", [], since=dt.datetime(2026, 11, 1, tzinfo=dt.UTC).timestamp()),
    Board("all", [NetEntry(1, ANN, 5, 1)]),
]


class _Member:
    display_name = "ann"


def texts(lang: Language) -> list[str]:
    """Every text the night-after commands and the table commands word themselves, in ``lang``."""
    said: list[str] = []
    for night in NIGHTS:
        said += [night_views.results_text(night, lang=lang),
                 night_views.settle_text(night, night.payments(), lang=lang),
                 night_views.graph_title(night, lang=lang), night_views.graph_message(night, ANN, lang=lang),
                 night_views.graph_alt(night.series, {ANN: "ann", BOB: "bob"}, 2, lang=lang),
                 night_views.export_message(night.night, 12, 1, lang=lang),
                 night_views.export_message(night.night, 1, 0, lang=lang)]
    said += [night_views.board_text(board, DOLLAR, lang=lang) for board in BOARDS]
    said += [night_views.new_night_text(session(6, hands=1), session(7), {ANN: 1200, BOB: 1}, lang=lang),
             night_views.new_night_text(None, session(7), {}, lang=lang)]
    settings = TableSettings(game="holdem", small_blind=5, big_blind=10)
    valued = dataclasses.replace(settings, chip_value="100 chips = $1")
    said += [night_views.chip_value_text(s, changed=changed, lang=lang)
             for s in (settings, valued) for changed in (False, True)]
    stats = {"holdem": PlayerStats(hands=1234, played=300, net=1200), "razz": PlayerStats(hands=3, net=-5)}
    for scope in (None, NIGHTS[1].night, NIGHTS[2].night):
        embed = night_views.stats_embed(cast(discord.abc.User, _Member()), stats,
                                        night_views.stats_scope(scope, lang=lang), None, lang=lang)
        said += [embed.title or "", embed.description or ""]
    hand = heads_up_triple_draw()
    record = HandRecord(1, 1, 9, hand.game.id, {}, 0, (ANN, BOB), (200, 200), 0, "complete", tuple(hand.stacks), 0,
                        {}, export_phh(hand, players=[str(ANN), str(BOB)]), None, DAY, DAY, tuple(hand.actions))
    text, embeds, _ = night_views.history_message([(record, hand), (record, None)], BOB, lang=lang)
    said += [text, *(e.description or "" for e in embeds)]
    nights = [session(9, hands=1), session(3, open_=False, hands=1042)]
    said += [c.name for c in night_views.night_choices(nights, {500: "poker"}.__getitem__, "since 2026-11",
                                                        lang=lang)]
    for s in (settings, valued, TableSettings(game="dealers-choice", small_blind=5, big_blind=10, choice_per="orbit",
                                              dealer_picks_structure=True),
              TableSettings(game="horse", small_blind=5, big_blind=10, hands_per_game=8)):
        said += [_table_commands.opener_text(s, lang=lang), _table_commands.settings_text(s, ANN, lang=lang)]
    return said


@pytest.mark.parametrize("text", texts(PSEUDO_LANGUAGE))
def test_every_text_comes_through_the_catalogue(text: str) -> None:
    assert "⟦" in text and unworded(text) == [], text


def test_the_pseudo_language_says_what_the_english_says() -> None:
    def words(text: str) -> str:  # the stats' table pads its columns to its headings' widths
        return re.sub(r"\s+", " ", re.sub("[⟦⟧]", "", text))

    assert [words(text) for text in texts(PSEUDO_LANGUAGE)] == [words(text) for text in texts(ENGLISH)]


def test_german_writes_numbers_money_and_dates_its_way() -> None:
    text = night_views.results_text(NIGHTS[2], lang=GERMAN)
    assert f"<@{ANN}> +1.200 (+12,00\xa0$)" in text and "1,200" not in text
    assert "01 Nov." in night_views.board_text(BOARDS[3], lang=GERMAN)
    assert "01 Nov. 2026" in night_views.graph_title(NIGHTS[2], lang=GERMAN)
    choices = night_views.night_choices([session(3, hands=1042)], {500: "poker"}.__getitem__, "", lang=GERMAN)
    assert "1.042" in choices[0].name and "Fr." in choices[0].name


def test_the_english_is_the_default() -> None:
    night = NIGHTS[2]
    assert night_views.results_text(night) == night_views.results_text(night, lang=ENGLISH)
    assert night_views.settle_text(night, night.payments()) == night_views.settle_text(night, night.payments(),
                                                                                      lang=ENGLISH)
    assert night_views.board_text(BOARDS[0], DOLLAR) == night_views.board_text(BOARDS[0], DOLLAR, lang=ENGLISH)
    assert night_views.results_text(night).startswith("**Every night since 2026-11-01 (2 nights)** · 0 hands · "
                                                      "100 chips = $1.00")
