"""The card emojis against a stub client: the first start uploads the 55 pictures, a restart nothing; a failed
upload leaves its card as text; an older drawing's emojis go only once the new set is complete; the names."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord
import pytest

from bot.content import cardfaces
from bot.poker.cards import JOKERS, STANDARD_DECK, UNKNOWN, Card
from cogs.card_emojis import CardEmojis, card_emoji_pictures, emoji_name, is_card_emoji


class FakeResponse:
    status = 400
    reason = "Bad Request"


def http_error(message: str) -> discord.HTTPException:
    return discord.HTTPException(FakeResponse(), message)


@dataclass
class StubEmoji:
    name: str
    id: int
    app: StubApp

    async def delete(self, *, reason: str | None = None) -> None:
        self.app.calls.append(("delete", self.name))
        self.app.emojis.remove(self)


@dataclass
class StubApp:
    """The application's emojis and every call made, in order."""

    emojis: list[StubEmoji] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)
    failing: set[str] = field(default_factory=set)  # names whose upload fails
    error: Exception | None = None  # raised instead of an HTTPException
    in_flight: int = 0
    most_in_flight: int = 0
    list_fails: bool = False
    next_id: int = 1_000_000_000_000_000_000

    async def fetch_application_emojis(self) -> Sequence[StubEmoji]:
        self.calls.append(("list", ""))
        if self.list_fails:
            raise http_error("listing failed")
        return list(self.emojis)

    async def create_application_emoji(self, *, name: str, image: bytes) -> StubEmoji:
        self.calls.append(("create", name))
        assert 2 <= len(name) <= 32 and image.startswith(b"\x89PNG")
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0)
        self.in_flight -= 1
        if name in self.failing:
            raise self.error or http_error("upload failed")
        self.next_id += 1
        emoji = StubEmoji(name, self.next_id, self)
        self.emojis.append(emoji)
        return emoji

    def created(self) -> list[str]:
        return [name for call, name in self.calls if call == "create"]

    def deleted(self) -> list[str]:
        return [name for call, name in self.calls if call == "delete"]


ALL = (*STANDARD_DECK, *JOKERS)
MARKUP = re.compile(r"<:c_[A-Za-z0-9]{2}_[0-9a-f]{6}:\d{17,20}>")


async def test_the_first_start_uploads_both_decks_81_and_a_restart_none() -> None:
    app = StubApp()
    first = CardEmojis(app)
    assert first.card(Card("Th")) == "10♥️" and first.partial(Card("Th")) is None, "text before the sync"
    report = await first.sync()
    assert len(app.created()) == 81 == len(report.uploaded) and report.complete and first.ready
    assert len(set(app.created())) == 81  # 55 pictures a deck; spades, hearts, jokers and the back shared
    for card in ALL:
        assert MARKUP.fullmatch(first.card(card)), card
        emoji = first.partial(card)
        assert emoji is not None and emoji.id is not None and first.card(card) == f"<:{emoji.name}:{emoji.id}>"
    assert first.back() == str(first.partial(UNKNOWN)) and first.back().startswith("<:c_back_")

    app.calls.clear()
    again = CardEmojis(app)
    report = await again.sync()
    assert app.calls == [("list", "")] and report.uploaded == [] and len(report.present) == 81
    assert [again.card(c) for c in ALL] == [first.card(c) for c in ALL]


async def test_a_failed_upload_leaves_that_card_as_text(caplog: pytest.LogCaptureFixture) -> None:
    app = StubApp(failing={emoji_name("Qs", False)})
    emojis = CardEmojis(app)
    with caplog.at_level(logging.WARNING):
        report = await emojis.sync()
    assert len(app.created()) == 81 and len(report.uploaded) == 80 and not report.complete and not emojis.ready
    assert emojis.card(Card("Qs")) == "Q♠\ufe0e" and emojis.partial(Card("Qs")) is None
    assert all(MARKUP.fullmatch(emojis.card(c)) for c in ALL if c.code != "Qs")
    assert emojis.cards([Card("Ah"), Card("Qs")], sep="|").endswith("|Q♠\ufe0e")
    assert any("c_Qs_" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)

    app.failing.clear()  # the next start uploads only the missing one
    app.calls.clear()
    await CardEmojis(app).sync()
    assert app.created() == [emoji_name("Qs", False)]


async def test_uploads_go_two_at_a_time_and_survive_any_error() -> None:
    app = StubApp(failing={emoji_name("5h", False)}, error=OSError("connection reset"))
    emojis = CardEmojis(app)
    report = await emojis.sync()
    assert app.most_in_flight == 2 and len(report.uploaded) == 80 and report.failed == [emoji_name("5h", False)]
    assert emojis.card(Card("5h")) == "5♥️"


async def test_a_long_rate_limit_stops_the_uploads_and_the_rest_stay_text() -> None:
    app = StubApp(failing={emoji_name("2c", False)}, error=discord.RateLimited(3600.0))
    emojis = CardEmojis(app, concurrency=1)
    report = await emojis.sync()
    assert app.created()[-1] == emoji_name("2c", False) and len(report.failed) == 81 - len(report.uploaded)
    assert len(report.failed) > 1 and emojis.two_colours(Card("2c")) == "2♣\ufe0e" and app.deleted() == []


async def test_a_failed_listing_leaves_every_card_as_text() -> None:
    app = StubApp(list_fails=True)
    emojis = CardEmojis(app)
    report = await emojis.sync()
    assert app.created() == [] and not report.complete
    assert emojis.cards([Card("Ad"), Card("X2"), UNKNOWN]) == "A🔷 🃏 🂠" and emojis.back() == "🂠"


async def test_an_older_drawing_is_deleted_only_once_the_new_set_is_complete() -> None:
    app = StubApp()
    old = [StubEmoji(f"c_{code}_abc123", 10 + i, app) for i, code in enumerate(("As", "X1", "back"))]
    someone_elses = [StubEmoji("c_As_party", 5, app), StubEmoji("logo", 6, app)]
    app.emojis.extend(old + someone_elses)
    app.failing = {emoji_name("7d", False)}

    report = await CardEmojis(app).sync()
    assert app.deleted() == [] and report.deleted == [], "an incomplete new set keeps the old drawing"

    app.failing.clear()
    app.calls.clear()
    report = await CardEmojis(app).sync()
    assert app.created() == [emoji_name("7d", False)]
    last_create = max(i for i, (call, _) in enumerate(app.calls) if call == "create")
    first_delete = min(i for i, (call, _) in enumerate(app.calls) if call == "delete")
    assert last_create < first_delete
    assert sorted(app.deleted()) == sorted(e.name for e in old) == sorted(report.deleted)
    assert {e.name for e in app.emojis} == set(card_emoji_pictures()) | {"c_As_party", "logo"}


async def test_of_two_emojis_with_the_current_name_the_older_is_kept() -> None:
    app = StubApp()
    emojis = CardEmojis(app)
    await emojis.sync()
    name = emoji_name("As", False)
    app.emojis.append(StubEmoji(name, 1, app))  # an older twin (a lower id)
    app.calls.clear()
    again = CardEmojis(app)
    await again.sync()
    assert again.card(Card("As")) == f"<:{name}:1>" and app.deleted() == [name] and app.created() == []
    assert [e.id for e in app.emojis if e.name == name] == [1]


def test_the_names_are_valid_discord_emoji_names_and_unique() -> None:
    names = [emoji_name(key, False) for key in cardfaces.picture_keys()]
    assert len(set(names)) == 55 and len({n.lower() for n in names}) == 55  # one deck
    assert len(set(card_emoji_pictures())) == 81 and len({n.lower() for n in card_emoji_pictures()}) == 81
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9_]{2,32}", name) and is_card_emoji(name), name
    assert emoji_name("Ac", True) != emoji_name("Ac", False) and emoji_name("Ac", True).startswith("c_Ac_")
    assert emoji_name("As", True) == emoji_name("As", False)  # a spade is the same picture in both decks
    assert not is_card_emoji("c_As_party") and not is_card_emoji("c_Zz_abc123") and not is_card_emoji("logo")


async def test_start_runs_one_sync_in_the_background() -> None:
    app = StubApp()
    emojis = CardEmojis(app)
    task = emojis.start()
    assert emojis.start() is task and emojis.partial(Card("As")) is None
    report = await task
    assert report.complete and emojis.ready and len(app.created()) == 81
    emojis.stop()  # nothing left to cancel
    assert not task.cancelled()


async def test_both_decks_are_kept_and_each_card_has_its_colour() -> None:
    """Four colours (the default) and two (``/poker cards colours:two``): one sync uploads both, a second deletes
    neither, and a diamond or a club is a different picture in each, a spade the same."""
    app = StubApp()
    emojis = CardEmojis(app)
    await emojis.sync()
    for code in ("Kd", "Kc"):
        assert emojis.partial(Card(code)) != emojis.partial(Card(code), four_colours=False)
        assert emojis.card(Card(code)) == str(emojis.partial(Card(code)))
        assert str(emojis.partial(Card(code))).startswith(f"<:{emoji_name(code, True)}:")
        assert emojis.two_colours(Card(code)).startswith(f"<:{emoji_name(code, False)}:")
    assert emojis.partial(Card("Ks")) == emojis.partial(Card("Ks"), four_colours=False)
    app.calls.clear()
    again = CardEmojis(app)
    await again.sync()
    assert app.deleted() == [] and app.created() == [] and again.ready


def test_the_text_of_a_card_has_four_colours_or_two() -> None:
    assert [cardfaces.card_text(Card(c)) for c in ("As", "Kh", "Qd", "Jc")] == ["A♠\ufe0e", "K♥️", "Q🔷", "J☘️"]
    assert [cardfaces.card_text(Card(c), four_colours=False) for c in ("Qd", "Jc")] == ["Q♦️", "J♣\ufe0e"]


def test_one_name_for_both_decks_exactly_when_the_picture_is_the_same() -> None:
    four, two = cardfaces.pictures(four_colours=True), cardfaces.pictures(four_colours=False)
    shared = {key for key in cardfaces.picture_keys() if emoji_name(key, True) == emoji_name(key, False)}
    assert shared == {key for key in cardfaces.picture_keys() if four[key] == two[key]}
    assert len(shared) == 55 - 26  # spades, hearts, the jokers and the back


async def test_a_start_that_finds_every_emoji_draws_no_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    app = StubApp()
    await CardEmojis(app).sync()
    drawn: list[bool] = []
    draw = cardfaces.pictures

    def pictures(four_colours: bool = False) -> dict[str, bytes]:
        drawn.append(four_colours)
        return draw(four_colours)

    monkeypatch.setattr(cardfaces, "pictures", pictures)
    again = CardEmojis(app)
    report = await again.sync()
    assert drawn == [] and len(report.present) == 81 and again.ready

    app.emojis = [e for e in app.emojis if e.name != emoji_name("Kc", True)]  # one four-colour picture missing
    report = await CardEmojis(app).sync()
    assert report.uploaded == [emoji_name("Kc", True)] and drawn == [True]  # that deck only


def test_a_new_drawing_has_new_names(monkeypatch: pytest.MonkeyPatch) -> None:
    before = {key: emoji_name(key, True) for key in cardfaces.picture_keys()}
    monkeypatch.setattr(cardfaces, "_drawing_version", lambda: "another drawing")
    card_names = {key: emoji_name(key, True) for key in cardfaces.picture_keys()}
    assert all(card_names[key] != before[key] and is_card_emoji(card_names[key]) for key in before)
