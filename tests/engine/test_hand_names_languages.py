"""The hands' names in a reader's language: every name comes through the catalogue (the pseudo-language wraps each
text in ``⟦…⟧``), the ranks' names as nouns of their own; the English is the engine's own, unchanged."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n.catalogue import PSEUDO, language
from bot.i18n.text import Language
from bot.poker import GAMES, Card, Shown, describe_shown, evaluate, parse_cards, rankings
from bot.poker.cards import new_deck
from bot.poker.rankings import HandValue, assassinated_words
from bot.tools.simulate import default_stakes, play_hand

PSEUDO_LANGUAGE = language(PSEUDO)


def unworded(text: str) -> str:
    """What of a text worded in the pseudo-language did not come through the catalogue (each ``⟦…⟧`` removed)."""
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", "", text)) != text:
        text = inner
    return text


def bare(text: str) -> str:
    """What of a hand's name in the pseudo-language is neither a text of the catalogue nor its ranks (a low's
    ``(7-5-4-3-2)``: cards, the same in every language)."""
    return re.sub(r" \([2-9TJQKA](-[2-9TJQKA])*\)$", "", unworded(text))


def every_value() -> list[HandValue]:
    """Every distinct hand value of every ranking."""
    values: list[HandValue] = []
    for ranking in rankings.FIVE_CARD_RANKINGS:
        rankings._five_card(ranking)
        values += rankings._STRENGTHS[ranking].values.values()
    values += set(rankings._badugi_table().values())
    values += [v for v in rankings._LOW8_VALUES if v.strength]
    return values


VALUES = every_value()


def test_every_hand_name_comes_through_the_catalogue() -> None:
    left = [worded for value in VALUES if bare(worded := value.describe(lang=PSEUDO_LANGUAGE))]
    assert left == []
    assert bare("⟦Pair of ⟦fours⟧⟧ (4-4-7-3-2)") == ""
    assert bare("Pair of ⟦fours⟧ (4-4-7-3-2)") == "Pair of "  # the check finds a word left outside


def test_the_english_is_unchanged_and_the_pseudo_language_says_the_same_words() -> None:
    for value in VALUES:
        english = value.describe()
        assert value.describe(lang=language("en")) == english
        # The same words, each wrapped, the capital where the English has it (past the wraps).
        assert re.sub("[⟦⟧]", "", value.describe(lang=PSEUDO_LANGUAGE)) == english


@pytest.mark.parametrize(("cards", "ranking", "pseudo"), [
    ("Kc Qd 9h 5s 3c", "high", "⟦⟦King⟧ high⟧"),
    ("Kc Kd 9h 9s 3c", "high", "⟦Two pair, ⟦kings⟧ and ⟦nines⟧⟧"),
    ("Kc Kd Kh 9s 9c", "high", "⟦Full house, ⟦kings⟧ full of ⟦nines⟧⟧"),
    ("Ac Kc Qc Jc Tc", "high", "⟦Royal flush⟧"),
    ("9c 8d 7h 6s 5c", "high", "⟦Straight, ⟦nine⟧ high⟧"),
    ("7c 5d 4h 3s 2c", "deuce-to-seven", "⟦⟦Seven⟧-⟦five⟧ low⟧ (7-5-4-3-2)"),
    ("4c 4d 7h 3s 2c", "deuce-to-seven", "⟦Pair of ⟦fours⟧⟧ (4-4-7-3-2)"),
    ("Kc Td 7h 6s", "badugi", "⟦Badugi (K-T-7-6)⟧"),
    ("Kc Qc Ah 6h", "badugi", "⟦Two-card hand (Q-A)⟧"),
])
def test_a_name_is_a_phrase_with_the_ranks_as_nouns(cards: str, ranking: str, pseudo: str) -> None:
    assert evaluate(ranking, parse_cards(cards)).describe(lang=PSEUDO_LANGUAGE) == pseudo


class Translated:
    """A language with a few translations, to see the phrases and the nouns put together."""

    code = "xx"

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def gettext(self, source: str) -> str:
        return self.texts.get(source, source)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.gettext(singular if count == 1 else plural)

    def number(self, value: int) -> str:
        return str(value)


def test_a_name_that_starts_with_a_rank_starts_with_a_capital_in_any_language() -> None:
    king_high = evaluate("high", parse_cards("Kc Qd 9h 5s 3c"))
    french: Language = Translated({"{rank} high": "Hauteur {rank}", "king": "roi"})
    german: Language = Translated({"{rank} high": "{rank} hoch", "king": "könig"})
    assert king_high.describe(lang=french) == "Hauteur roi"
    assert king_high.describe(lang=german) == "König hoch"
    low = evaluate("deuce-to-seven", parse_cards("7c 5d 4h 3s 2c"))
    assert low.describe(lang=Translated({"{high}-{second} low": "low {high}-{second}", "seven": "sept",
                                         "five": "cinq"})) == "Low sept-cinq (7-5-4-3-2)"


def test_assassins_names_come_through_the_catalogue() -> None:
    two, other_two = Card("2s"), Card("2h")
    joker = next(c for c in new_deck(jokers=True) if c.is_joker)
    for twos, english in [([two], "Assassinated (holds a two)"), ([two, other_two], "Assassinated (holds twos)"),
                          ([joker], "Assassinated (holds a joker)"), ([joker, joker], "Assassinated (holds jokers)")]:
        assert assassinated_words(twos) == english
        assert assassinated_words(twos, lang=PSEUDO_LANGUAGE) == f"⟦{english}⟧"


def test_a_shown_hand_is_worded_in_any_language_and_its_event_keeps_the_english() -> None:
    rng = random.Random(5)
    seen = {"assassinated": 0, "valued": 0}
    for _ in range(400):
        game = rng.choice(sorted(GAMES))
        stacks = [rng.choice([20, 200]) for _ in range(rng.randint(2, 4))]
        hand = play_hand(game, default_stakes(GAMES[game]), stacks, rng)
        for event in hand.events:
            if not isinstance(event, Shown):
                continue
            assert describe_shown(event) == event.description  # the English the engine records
            worded = describe_shown(event, lang=PSEUDO_LANGUAGE)
            assert not bare(worded), worded
            seen["assassinated" if event.assassinated else "valued"] += 1
            if event.assassinated:
                twos = " ".join(c.code for c in event.cards if c.is_two)
                assert worded == f"⟦Assassinated ({twos})⟧"
            else:
                assert event.value == hand.shown[event.player]
    assert all(seen.values()), seen


def test_a_hand_that_cannot_be_valued_is_unknown_in_any_language() -> None:
    shown = Shown(0, tuple(parse_cards("AsKd")), "unknown", False)
    assert describe_shown(shown) == "unknown"
    assert describe_shown(shown, lang=PSEUDO_LANGUAGE) == "⟦unknown⟧"
