"""``Text``: a sentence worded in the reader's language when shown; numbers written the language's way."""

from __future__ import annotations

import pytest

from bot.i18n import ENGLISH, Member, Plural, Text
from bot.i18n.catalogue import PSEUDO, for_locale, language


def test_english_is_the_source_with_quantities_grouped() -> None:
    text = Text("the smallest {word} is to {amount}", word="raise", amount=1500)
    assert str(text) == "the smallest raise is to 1,500"
    assert text.worded(ENGLISH) == str(text)


def test_a_member_is_named_by_whoever_shows_the_text() -> None:
    text = Text("{who} is not seated at this table", who=Member(42))
    assert str(text) == "member 42 is not seated at this table"
    assert text.worded(ENGLISH, lambda user: f"<@{user}>") == "<@42> is not seated at this table"


def test_a_plural_follows_the_count() -> None:
    assert str(Plural("{count} chip", "{count} chips", count=1)) == "1 chip"
    assert str(Plural("{count} chip", "{count} chips", count=2000)) == "2,000 chips"


@pytest.mark.parametrize(("locale", "written"), [
    ("en-US", "1,000"), ("en-GB", "1,000"), ("de", "1.000"), ("fr", "1\u202f000"), ("es-ES", "1.000"),
    ("es-419", "1.000"), ("pt-BR", "1.000"), ("ja", "1,000"), (None, "1,000"),
])
def test_numbers_are_written_the_readers_way(locale: str | None, written: str) -> None:
    assert Text("{amount}", amount=1000).worded(for_locale(locale)) == written


def test_an_unknown_text_is_shown_in_english() -> None:
    assert Text("no catalogue has this sentence, {n} times", n="3").worded(language("de")) == \
        "no catalogue has this sentence, 3 times"


def test_the_pseudo_language_wraps_every_text_and_the_texts_inside_it() -> None:
    text = Text("{who} wins {pot}", who=Member(1), pot=Text("the main pot"))
    assert text.worded(language(PSEUDO)) == "⟦member 1 wins ⟦the main pot⟧⟧"


def test_a_plural_needs_a_count() -> None:
    with pytest.raises(TypeError):
        str(Text("{count} chip", "{count} chips"))


def test_a_capital_and_a_full_stop_look_past_the_pseudo_languages_wraps() -> None:
    from bot.i18n import as_sentence, capitalized
    assert as_sentence("the smallest raise is to 40") == "The smallest raise is to 40."
    assert as_sentence("done.") == "Done."
    assert as_sentence("⟦the smallest raise is to 40⟧") == "⟦The smallest raise is to 40⟧."
    assert as_sentence("⟦⟦done⟧.⟧") == "⟦⟦Done⟧.⟧"
    assert capitalized("⟦élan⟧") == "⟦Élan⟧" and capitalized("") == ""


def test_a_full_stop_is_taken_off_past_the_wraps() -> None:
    from bot.i18n import without_full_stop
    assert without_full_stop("Done.") == "Done" and without_full_stop("⟦Done.⟧") == "⟦Done⟧"
    assert without_full_stop("Done") == "Done"


def test_the_catalogues_are_read_once_at_start() -> None:
    from bot.i18n import catalogue
    catalogue.load_all()
    assert catalogue._read.cache_info().currsize == len(catalogue.LANGUAGES) - 1  # every one but English
    before = catalogue._read.cache_info().misses
    language("de").gettext("Fold") and catalogue.translated("Fold", "pt_BR")
    assert catalogue._read.cache_info().misses == before
