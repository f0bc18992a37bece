"""The /poker rules text: what it states is what the engine does, and it fits Discord's limits.

Every comparison the pages state is a claim checked with ``bot.poker.evaluate``
(and the worked examples: Assassin's, Omaha's two plus three, stud's bring-in).
Every game of ``bot.poker.GAMES`` has a page, and the mixes one. Every text of a
page is worded through the catalogue, and fits Discord in every language. The option
descriptions of ``bot.content.command_help`` are checked against Discord's limits and
the live commands.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement, pairwise
from typing import Any

import pytest
from discord import app_commands
from discord.ext import commands

from bot.content import rules_text
from bot.content.command_help import COMMAND_HELP, OPTION_HELP, describe
from bot.content.rules_text import (
    ASSASSIN_EXAMPLE,
    CLAIMS,
    EIGHT_OR_BETTER,
    EIGHT_OR_BETTER_BEST,
    EIGHT_OR_BETTER_NO_LOW,
    EIGHT_OR_BETTER_WORST,
    GAME_BLURB_TEXTS,
    GAME_BLURBS,
    MIX_BLURB_TEXTS,
    MIX_BLURBS,
    MIXED_PAGE_IDS,
    OMAHA_EXAMPLE,
    RAZZ_BRING_IN_EXAMPLE,
    RULE_GAMES,
    STUD_BRING_IN_EXAMPLE,
    Beats,
    BestHands,
    BringInExample,
    Claim,
    Order,
    RulesPage,
    format_hand,
    game_blurb,
    ranks_only,
    rules_page,
)
from bot.i18n.catalogue import LANGUAGES, PSEUDO, language
from bot.i18n.text import ENGLISH, Text
from bot.poker import GAMES, RANKINGS, HandValue, evaluate, parse_cards, stakes_for
from bot.poker.cards import RANKS, STANDARD_DECK
from bot.poker.mixes import EIGHT_GAME, HORSE, MIXES
from bot.poker.rankings import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    NoLow,
    best_omaha,
    bring_in_value,
)

PAGES = [None, *RULE_GAMES, *MIXED_PAGE_IDS]
STRUCTURE_WORDS = {"fixed-limit": "fixed limit", "pot-limit": "pot limit", "no-limit": "no limit"}
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def emoji_cards(cards: str) -> str:
    """A stand-in for card emojis as long as the real ones (``<:name:id>`` with a 19-digit id)."""
    return " ".join(f"<:c_{c.code}:1234567890123456789>" for c in parse_cards(cards))


def all_text(page: RulesPage) -> str:
    return page.summary + "\n" + "\n".join(f"{s.title}\n{s.body}" for s in page.sections)


def text_of(game_id: str | None) -> str:
    return all_text(rules_page(game_id))


# ---------------------------------------------------------------- the games and Discord's limits


def test_every_game_of_the_engine_has_a_page() -> None:
    assert tuple(GAMES) == RULE_GAMES
    assert len(RULE_GAMES) == 19 == len(set(RULE_GAMES))
    assert {"holdem", "omaha", "omaha-hilo", "big-o", "stud", "stud-hilo", "razz", "badugi"} <= set(RULE_GAMES)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_each_page_names_its_game_and_its_structure(game_id: str) -> None:
    game, page = GAMES[game_id], rules_page(game_id)
    assert page.title == game.name
    assert f"{STRUCTURE_WORDS[game.default_structure]} unless the host picks another" in page.summary
    assert f"{NUMBER_WORDS[game.betting_rounds]} betting rounds" in page.summary
    assert f"2 to {game.max_players} players" in page.summary
    default = [s.title for s in page.sections if "(default)" in s.title]
    assert len(default) == 1 and default[0].lower().startswith(STRUCTURE_WORDS[game.default_structure])


def test_badugi_is_triple_draw_with_four_cards() -> None:
    text = text_of("badugi")
    for needed in ("Four cards each, three draws, four betting rounds", "Everyone gets 4 cards",
                   "throws 0 to 4 cards", "Which hand wins: Badugi"):
        assert needed in text, needed


def test_an_unknown_game_is_refused_with_the_list() -> None:
    with pytest.raises(ValueError, match=r"triple-draw-27.*badugi.*holdem.*razz.*horse") as refused:
        rules_page("pineapple")
    assert isinstance(refused.value.args[0], Text)  # worded in the reader's language by whoever shows it


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("fmt", [format_hand, emoji_cards], ids=["text", "emoji"])
@pytest.mark.parametrize("game_id", PAGES)
def test_every_page_fits_an_embed(game_id: str | None, fmt: rules_text.CardFormat, code: str) -> None:
    page = rules_page(game_id, fmt, lang=language(code))
    assert 1 <= len(page.title) <= 256
    assert 1 <= len(page.summary) <= 4096
    assert 1 <= len(page.sections) <= 25
    for section in page.sections:
        assert 1 <= len(section.title) <= 256, section.title
        assert 1 <= len(section.body) <= 1024, (section.title, len(section.body))
    # Discord counts the title, the description and every field's name and value towards an embed's 6,000.
    assert len(page.title) + len(page.summary) + sum(len(s.title) + len(s.body) for s in page.sections) <= 6000


@pytest.mark.parametrize("game_id", PAGES)
def test_pages_are_short_bullets_not_a_wall_of_text(game_id: str | None) -> None:
    page = rules_page(game_id)
    for section in page.sections:
        lines = section.body.splitlines()
        assert len(lines) <= 15, section.title
        for line in lines:
            assert line.startswith("- "), line
            assert len(line) <= 240, line  # six phone lines at most, most far fewer


def test_the_card_format_is_used_for_every_card_shown() -> None:
    marked = all_text(rules_page("assassin", lambda cards: "<" + cards + ">"))
    plain = all_text(rules_page("assassin"))
    assert "<2cKhKc9s7d>" in marked
    assert not re.search(r"[♣♦♥♠]", marked)  # no card slipped past the formatter
    assert "♣" in plain


def test_format_hand_and_ranks_only() -> None:
    assert format_hand("Ts9d") == format_hand("Ts 9d") == "10♠ 9♦"
    assert format_hand("AhKc2s3d") == "A♥ K♣ 2♠ 3♦"
    assert ranks_only("Ts9d8c") == "10-9-8"


def test_the_blurbs_fit_a_select_option() -> None:
    assert set(GAME_BLURBS) == set(GAME_BLURB_TEXTS) == set(RULE_GAMES)
    assert set(MIX_BLURBS) == set(MIX_BLURB_TEXTS) == set(MIXES)
    for code in LANGUAGES:
        blurbs = [*(game_blurb(g, lang=language(code)) for g in RULE_GAMES),
                  *(text.worded(language(code)) for text in MIX_BLURB_TEXTS.values())]
        assert all(1 <= len(b) <= 100 for b in blurbs), code
    assert [game_blurb(g) for g in RULE_GAMES] == list(GAME_BLURBS.values())  # English unless a language is given
    assert game_blurb("holdem", lang=language(PSEUDO)) == f"⟦{GAME_BLURBS['holdem']}⟧"


def unworded(text: str) -> str:
    """What of a text worded in the pseudo-language did not come through the catalogue (each ``⟦…⟧`` removed)."""
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", "", text)) != text:
        text = inner
    return text


@pytest.mark.parametrize("game_id", PAGES)
def test_every_text_of_a_page_is_worded_through_the_catalogue(game_id: str | None) -> None:
    """In the pseudo-language every text comes out in ``⟦…⟧``: English left outside one was never translated.
    Only a game page's title is not a text: the game's name, the same in every language."""
    page = rules_page(game_id, lang=language(PSEUDO))
    texts = [page.summary, *(s.title for s in page.sections), *(s.body for s in page.sections)]
    if game_id in GAMES:
        assert page.title == GAMES[game_id].name
    else:
        texts.append(page.title)
    left = [(text, unworded(text)) for text in texts if re.search(r"[A-Za-z]", unworded(text))]
    assert not left
    assert all(line.startswith("- ⟦") for s in page.sections for line in s.body.splitlines())


def test_unworded_finds_english_left_outside_the_catalogue() -> None:
    assert unworded("- ⟦Best hands: ⟦a⟧, then 4-3-2-A.⟧") == "- "
    assert re.search(r"[A-Za-z]", unworded("- ⟦No pair⟧ › one pair."))


# ---------------------------------------------------------------- what each page says


COMMON = ("big bet = twice that", "Cap: 4 bets a round", "only two players", "(up to 5)", "does not reopen the betting",
          "half a bet", "side pot", "60 s", "two hands in a row", "Dealer's choice", "without showing")
BY_FAMILY = {
    "draw": ("small blind", "big blind", "burned before each draw", "stands pat",
             "call 2, the pot is 5, so raise to 7 at most", "raise to 4 or more"),
    "flop": ("small blind", "big blind", "flop", "turn", "river", "burn", "face up in the middle",
             "call 2, the pot is 5, so raise to 7 at most", "raise to 4 or more", "before the flop, last after it"),
    "stud": ("ante", "No blinds", "Third street: two cards face down and one face up", "Fourth, fifth and sixth",
             "Seventh street: a last card face down", "burned before each street", "He may check",
             "community card", "best five of your seven"),
}


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_each_page_explains_the_hand_the_betting_and_the_table(game_id: str) -> None:
    game, text = GAMES[game_id], text_of(game_id)
    for needed in (*COMMON, *BY_FAMILY[game.family]):
        assert needed in text, needed
    if game.family == "draw":
        assert f"throws 0 to {game.hand_size} cards" in text and f"Everyone gets {game.hand_size} cards" in text
    elif game.family == "flop":
        assert f"Everyone gets {game.hole_cards} cards face down" in text
    marks = {"draw": "burned before each draw", "flop": "The flop: a burn", "stud": "Third street:"}
    assert [family for family, mark in marks.items() if mark in text] == [game.family]  # no other family's streets


@pytest.mark.parametrize("game_id", [g for g in RULE_GAMES if GAMES[g].is_stud])
def test_the_stud_pages_explain_the_bring_in_and_the_completion(game_id: str) -> None:
    text, low = text_of(game_id), GAMES[game_id].is_lowball
    for needed in ("bring-in", "brings in", "completes", "complete", "After a completion",
                   "the completion is the first bet; the bring-in does not count",
                   "highest up card brings in" if low else "lowest up card brings in",
                   "lowest hand showing" if low else "best hand showing",
                   "All in on your ante", "Post what you have", "Up cards are on show to everyone"):
        assert needed in text, needed
    assert "button moves" not in text and "Blinds:" not in text


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_the_stud_stakes_are_the_tables(game_id: str) -> None:
    """The example of a stud page is what ``stakes_for`` computes for a 5/10 table; no other page has it."""
    stakes = stakes_for(GAMES[game_id], "fixed-limit", 5, 10)
    said = (f"Blinds 5/10: ante {stakes.ante}, bring-in {stakes.bring_in}, small bet {stakes.small_bet}, "
            f"big bet {stakes.big_bet}.")
    assert (said in text_of(game_id)) == GAMES[game_id].is_stud
    assert (stakes.ante, stakes.bring_in) == ((2, 3) if GAMES[game_id].is_stud else (0, 0))


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_the_hi_lo_pages_explain_the_eight_or_better_low(game_id: str) -> None:
    text = text_of(game_id)
    needed = ("best low of eight or better", "five cards of different ranks, all eight or lower",
              "The best high hand takes the whole pot", "scoop", "An odd chip goes to the high half")
    if GAMES[game_id].hi_lo:
        for fact in needed:
            assert fact in text, fact
    else:
        assert not any(fact in text for fact in needed)
        assert "eight or better" not in text.lower()


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_the_omaha_pages_say_two_plus_three(game_id: str) -> None:
    game, text = GAMES[game_id], text_of(game_id)
    rule = f"exactly two of your {NUMBER_WORDS[game.hole_cards]} cards with exactly three of the board"
    assert (rule in text) == game.omaha
    assert ("Two plus three" in [s.title for s in rules_page(game_id).sections]) == game.omaha
    if game.omaha and game.hi_lo:
        assert "For the low too you play exactly two of your cards and three of the board" in text


@pytest.mark.parametrize(("game_id", "when"), [
    ("holdem", "Small bet before the flop and on it, big bet on the turn and the river."),
    ("omaha-hilo", "Small bet before the flop and on it, big bet on the turn and the river."),
    ("stud", "on third and fourth street; big bet = twice that, from fifth street on."),
    ("razz", "on third and fourth street; big bet = twice that, from fifth street on."),
    ("five-card-draw", "Small bet before the draw, big bet after it."),
    ("single-draw-a5", "Small bet before the draw, big bet after it."),
    ("double-draw-27", "Small bet in rounds 1 and 2, big bet in round 3 (after the second draw)."),
    ("triple-draw-a6", "Small bet in rounds 1 and 2, big bet in rounds 3 and 4 (after the second draw)."),
    ("badugi", "Small bet in rounds 1 and 2, big bet in rounds 3 and 4 (after the second draw)."),
])
def test_the_big_bet_starts_where_rules_md_says(game_id: str, when: str) -> None:
    assert when in text_of(game_id)
    game = GAMES[game_id]
    assert game.default_big_bet_round == (2 if game.draws == 1 else 3)  # what the sentences say
    moves = "The host may move the big bet's round" in text_of(game_id)
    assert moves == (game.family == "draw")  # a draw table's option only (stakes_for)


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_the_default_structure_is_named_and_comes_first(game_id: str) -> None:
    betting = [s.title for s in rules_page(game_id).sections if "limit" in s.title]
    default = {"fixed-limit": "Fixed limit (default)", "no-limit": "No limit (default) and pot limit",
               "pot-limit": "Pot limit (default) and no limit"}
    assert betting[0] == default[GAMES[game_id].default_structure]


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_draw_limits_only_in_the_five_card_high_games(game_id: str) -> None:
    text = text_of(game_id)
    if GAMES[game_id].family == "draw" and GAMES[game_id].ranking == "high":
        assert "Draw limit (host's choice): none (the default), 3 cards, or 3 and 4 if the card you keep" in text
    else:
        assert "Draw limit" not in text


def test_assassin_explains_its_twos_in_full() -> None:
    text = text_of("assassin")
    for needed in ("not wild", "two jokers", "count as twos", "dealt, kept or drawn, every two kills",
                   "face up", "one extra card", "six-card hand plays its best five", "all six are shown",
                   "face down (no extra card)", "count toward the draw limit; the extra card does not",
                   "nobody wins it: it is carried into the next deal", "whatever game that is",
                   "in proportion", "only one player left in it is his, whatever he holds",
                   "if everyone folds, you win without showing"):
        assert needed in text, needed
    plain_draw = text_of("five-card-draw")
    assert "Twos kill" not in plain_draw and "joker" not in plain_draw.lower()


@pytest.mark.parametrize(("game_id", "facts"), [
    ("triple-draw-27", ("Aces are high", "7-5-4-3-2, not all one suit", "A-5-4-3-2 is no straight")),
    ("single-draw-a5", ("Aces are low", "5-4-3-2-A (the wheel), any suits", "do not count")),
    ("double-draw-a6", ("Aces are low", "6-4-3-2-A, not all one suit", "5-4-3-2-A is a straight",
                        "A-K-Q-J-10 is king high")),
    ("badugi", ("different suits and different ranks", "the lowest one plays", "Suits never rank")),
])
def test_each_ranking_is_described(game_id: str, facts: tuple[str, ...]) -> None:
    text = text_of(game_id)
    for fact in facts:
        assert fact in text, fact


def test_the_ranking_facts_stated_in_words_are_the_engines() -> None:
    a5432 = evaluate("deuce-to-seven", parse_cards("As5d4c3h2s"))
    assert (a5432.category, a5432.ranks[0]) == (HIGH_CARD, 14)  # "no straight, just ace high"
    assert evaluate("ace-to-six", parse_cards("5s4d3c2hAs")).category == STRAIGHT
    akqjt = evaluate("ace-to-six", parse_cards("AsKdQcJhTs"))
    assert (akqjt.category, akqjt.ranks[0]) == (HIGH_CARD, 13)  # "king high"
    assert evaluate("high", parse_cards("5h4c3d2sAh")).category == STRAIGHT  # "low in 5-4-3-2-A"
    assert evaluate("ace-to-five", parse_cards("5h4h3h2hAh")) == evaluate(
        "ace-to-five", parse_cards("5s4d3c2hAs"))  # the wheel, any suits


# ---------------------------------------------------------------- every comparison stated is the engine's

_CATEGORY_OF = {"Royal flush": STRAIGHT_FLUSH, "Straight flush": STRAIGHT_FLUSH, "Four of a kind": QUADS,
                "Full house": FULL_HOUSE, "Flush": FLUSH, "Straight": STRAIGHT, "Three of a kind": TRIPS,
                "Two pair": TWO_PAIR, "One pair": PAIR, "High card": HIGH_CARD, "No pair": HIGH_CARD}


def value(ranking: str, cards: str) -> HandValue:
    return evaluate(ranking, parse_cards(cards))


def shown_as_ranks_in_order(ranking: str, cards: str) -> None:
    """A hand shown as ranks is written in the order it is compared (highest first)."""
    assert ranks_only(cards) == value(ranking, cards).dashed().replace("T", "10"), cards


@cache
def best_first(ranking: str) -> tuple[HandValue, ...]:
    """Every distinct hand value of ``ranking``, best first."""
    values: set[HandValue] = set()
    if ranking == "badugi":  # the best four-card hands use the low ranks: search ace to eight
        low_cards = [c for c in STANDARD_DECK if c.rank <= 8 or c.rank == 14]
        values = {evaluate(ranking, list(four)) for four in combinations(low_cards, 4)}
        return tuple(sorted(values, reverse=True))
    for combo in combinations_with_replacement(RANKS, 5):
        if max(Counter(combo).values()) > 4:
            continue
        if len(set(combo)) == 5:
            hands = ["".join(r + "c" for r in combo), combo[0] + "d" + "".join(r + "c" for r in combo[1:])]
        else:
            seen: Counter[str] = Counter()
            cards = []
            for r in combo:
                cards.append(r + "cdhs"[seen[r]])
                seen[r] += 1
            hands = ["".join(cards)]
        for hand in hands:
            try:
                values.add(evaluate(ranking, parse_cards(hand)))
            except NoLow:  # eight or better: no low, no value
                pass
    return tuple(sorted(values, reverse=True))


def check(claim: Claim) -> None:
    if isinstance(claim, Beats):
        assert value(claim.ranking, claim.better) > value(claim.ranking, claim.worse), claim
        if not claim.suits:
            shown_as_ranks_in_order(claim.ranking, claim.better)
            shown_as_ranks_in_order(claim.ranking, claim.worse)
    elif isinstance(claim, BestHands):
        stated = [value(claim.ranking, h) for h in claim.hands]
        assert stated == list(best_first(claim.ranking)[:len(stated)]), claim
        if claim.ranking != "badugi":
            for hand in claim.hands:
                shown_as_ranks_in_order(claim.ranking, hand)
    else:
        values = [value(claim.ranking, s.example) for s in claim.steps]
        assert all(a > b for a, b in pairwise(values)), claim
        for step, v in zip(claim.steps, values):
            assert v.category == _CATEGORY_OF[step.name], step
            if step.name == "Royal flush":
                assert v.describe() == "Royal flush"
            if not step.suits:
                shown_as_ranks_in_order(claim.ranking, step.example)


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: f"{type(c).__name__}-{c.ranking}")
def test_every_claim_is_the_engines(claim: Claim) -> None:
    check(claim)


def test_the_two_hands_of_a_comparison_could_be_dealt_together() -> None:
    for claim in CLAIMS:
        if isinstance(claim, Beats):
            both = parse_cards(claim.better) + parse_cards(claim.worse)
            assert len(set(both)) == len(both), claim


def test_every_ranking_has_claims_and_the_engine_ranks_them_all() -> None:
    assert {c.ranking for c in CLAIMS} == {*RANKINGS, EIGHT_OR_BETTER}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.ranking == "badugi"], ids=lambda c: type(c).__name__)
def test_the_badugi_claims_agree_with_pokerkit(claim: Claim) -> None:
    """pokerkit's BadugiHand is docs/rules.md section 13.3's Badugi ranking: a second oracle for the claims besides the
    engine."""
    pokerkit = pytest.importorskip("pokerkit")

    def strength(cards: str) -> Any:
        return pokerkit.BadugiHand.from_game(cards)

    if isinstance(claim, Beats):
        assert strength(claim.better) > strength(claim.worse)
    else:
        assert isinstance(claim, BestHands) and len(claim.hands) == 1
        low_cards = [c.code for c in STANDARD_DECK if c.rank <= 5 or c.rank == 14]
        best = strength(claim.hands[0])
        assert all(not strength("".join(four)) > best for four in combinations(low_cards, 4))


def test_a_wrong_claim_would_fail() -> None:
    with pytest.raises(AssertionError):
        check(Beats("deuce-to-seven", "7s6d4c3h2s", "7s5d4c3h2s"))
    with pytest.raises(AssertionError):
        check(BestHands("ace-to-six", ("6s4d3c2hAs", "6s5d4c3hAs")))  # skips 6-5-3-2-A and 6-5-4-2-A
    with pytest.raises(AssertionError):
        check(Beats("high", "7sAsAd3hKc", "AhAcQs9d8c"))  # right, but shown out of order: 7-A-A-3-K
    with pytest.raises(AssertionError):
        check(BestHands(EIGHT_OR_BETTER, ("5s4d3c2hAs", "6s5d3c2hAs")))  # skips 6-4-3-2-A
    with pytest.raises(AssertionError):
        check_bring_in(BringInExample("Kd3h3cAs9d", "3h", Text("the lowest card")))  # the 3 of clubs brings in
    with pytest.raises(AssertionError):
        check_bring_in(BringInExample("Kd3h3cAs9d", "As", Text("the highest card"), low=True))  # razz: the ace is low


def rendered_claims(claim: Claim) -> list[str]:
    if isinstance(claim, Order):
        return [claim.render_examples(format_hand, lang=ENGLISH) if claim.ranking == "high"
                else claim.render_names(lang=ENGLISH)]
    return [claim.render(format_hand, lang=ENGLISH)]


def test_every_claim_is_shown_and_every_comparison_shown_is_a_claim() -> None:
    pages = "\n".join(text_of(g) for g in PAGES)
    for claim in CLAIMS:
        for text in rendered_claims(claim):
            assert text in pages, text
    stated = {c.render(format_hand, lang=ENGLISH) for c in CLAIMS if isinstance(c, Beats)}
    general_rules = ('a four-card "badugi" beats any three cards',)  # backed by a Beats claim too
    for line in pages.splitlines():
        if " beats " in line and not any(rule in line for rule in general_rules):
            assert line.removeprefix("- ") in stated, line


def test_the_eight_or_better_words_are_the_engines() -> None:
    assert value(EIGHT_OR_BETTER, EIGHT_OR_BETTER_WORST) == best_first(EIGHT_OR_BETTER)[-1]  # "the worst"
    shown_as_ranks_in_order(EIGHT_OR_BETTER, EIGHT_OR_BETTER_WORST)
    for hand in EIGHT_OR_BETTER_NO_LOW:  # "No low: 9-5-4-3-2 or 7-7-4-3-2"
        with pytest.raises(NoLow):
            value(EIGHT_OR_BETTER, hand)
    assert len(best_first(EIGHT_OR_BETTER)) == 56  # five different ranks of ace to eight
    text = text_of("stud-hilo")
    assert f"Best lows: {EIGHT_OR_BETTER_BEST.render(format_hand, lang=ENGLISH)}; the worst: 8-7-6-5-4." in text
    assert "No low: 9-5-4-3-2 or 7-7-4-3-2" in text


def check_bring_in(example: BringInExample) -> None:
    up = parse_cards(example.up)
    assert len(set(up)) == len(up)
    assert max(up, key=lambda c: bring_in_value(c, example.low)) == parse_cards(example.brings_in)[0], example


def test_the_bring_in_examples_are_the_engines() -> None:
    assert not STUD_BRING_IN_EXAMPLE.low and RAZZ_BRING_IN_EXAMPLE.low
    for example, game_id in ((STUD_BRING_IN_EXAMPLE, "stud"), (RAZZ_BRING_IN_EXAMPLE, "razz")):
        check_bring_in(example)
        assert example.render(format_hand, lang=ENGLISH) in text_of(game_id)
    assert STUD_BRING_IN_EXAMPLE.render(format_hand, lang=ENGLISH) in text_of("stud-hilo")


def test_the_omaha_example_plays_two_plus_three() -> None:
    ex = OMAHA_EXAMPLE
    board, plays = parse_cards(ex.board), parse_cards(ex.plays)
    for game_id in ("omaha", "omaha-hilo", "big-o"):
        game = GAMES[game_id]
        hole = parse_cards(ex.hand(game.hole_cards))
        assert len(hole) == game.hole_cards and len(set(hole + board)) == len(hole) + len(board)
        best = best_omaha("high", hole, board)
        assert best == evaluate("high", plays) and best is not None and best.category == STRAIGHT
        assert len(set(plays) & set(hole)) == 2 and len(set(plays) & set(board)) == 3
        assert evaluate("high", hole + board).category == FLUSH  # hold'em's rule would play the flush
        assert ex.render(game.hole_cards, format_hand, lang=ENGLISH) in text_of(game_id)
    assert "5 cards face down" in text_of("big-o") and "A♠ K♦ 9♥ 4♣ 7♥" in text_of("big-o")


# ---------------------------------------------------------------- the mixed games


@pytest.mark.parametrize("mix", MIXES)
def test_each_mix_gives_the_mixed_games_page(mix: str) -> None:
    page = rules_page(mix)
    assert page.title == "Mixed games" and page == rules_page(MIXES[0])


def test_the_mixed_page_lists_the_mixes_and_explains_rotations() -> None:
    page = rules_page("horse")
    sections = {s.title: s.body for s in page.sections}
    for title, games in (("HORSE", HORSE), ("The 8-game mix", EIGHT_GAME)):
        listed = [line.removeprefix("- ") for line in sections[title].splitlines()][:len(games)]
        assert listed == [f"{g.game.name}, {STRUCTURE_WORDS[g.structure]}" for g in games]
    text = all_text(page)
    for needed in ('game:rotation games:"holdem:no-limit, omaha:pot-limit, razz"', "`hands_per_game:`",
                   "One orbit", "how many hands of it are left, and the next game",
                   "stays put through the stud games", "moves after every hand, stud too",
                   "ante = the big blind / 5, rounded down (at least 1)",
                   "bring-in = the big blind / 4, rounded up (at least the ante)", "`stud_ante:`", "`bring_in:`",
                   "Up to 8 players.", "Up to 6 players."):
        assert needed in text, needed
    stakes = stakes_for(GAMES["stud"], "no-limit", 5, 10)
    assert f"stud antes {stakes.ante}, brings in {stakes.bring_in}, bets 10, then 20" in text


def test_the_overview_names_every_game_and_mix() -> None:
    text = text_of(None)
    for game in GAMES.values():
        assert f"**{game.name}**: {GAME_BLURBS[game.id]}" in text
    for blurb in MIX_BLURBS.values():
        assert blurb in text
    assert [s.title for s in rules_page(None).sections][:4] == [
        "Draw games: the best hand wins", "Draw games: the lowest hand wins", "Flop games", "Stud games"]


def test_the_assassin_example_is_a_legal_draw_and_right() -> None:
    ex = ASSASSIN_EXAMPLE
    dealt, up, down, received = (parse_cards(x) for x in (ex.dealt, ex.face_up, ex.face_down, ex.received))
    assert all(c.is_two for c in up) and set(up) | set(down) <= set(dealt)
    assert len(received) == len(up) + len(down) + 1  # one extra card for the face-up twos
    six = [c for c in dealt if c not in up and c not in down] + received
    every_card = dealt + received + parse_cards(ex.other)
    assert len(set(every_card)) == len(every_card)  # no card in two places
    assert len(six) == 6
    assert not any(c.is_two for c in six)
    assert set(parse_cards(ex.plays)) <= set(six)
    best = evaluate("high", six)
    assert best == evaluate("high", parse_cards(ex.plays))
    assert best.describe() == "Full house, " + str(ex.plays_as)
    other = parse_cards(ex.other)
    assert any(c.is_two for c in other)
    assert evaluate("high", other).describe() == "Three of a kind, aces"
    assert ex.render(format_hand, lang=ENGLISH) in text_of("assassin")


# ---------------------------------------------------------------- command option descriptions


def test_every_description_fits_discord() -> None:
    name = re.compile(r"^[-_a-z0-9]{1,32}$")
    for (command, option), text in OPTION_HELP.items():
        assert 1 <= len(text) <= 100, (command, option, len(text))
        assert name.match(option) and all(name.match(part) for part in command.split()), (command, option)
    for command, text in COMMAND_HELP.items():
        assert 1 <= len(text) <= 100, (command, len(text))


def test_the_issues_options_are_described() -> None:
    wanted = {
        "poker stats": {"member", "game"}, "chips settle": {"session"}, "chips graph": {"session", "member"},
        "poker session export": {"session"}, "chips leaderboard": {"period"},
        "poker tournament create": {"game", "buy_in", "starting_chips", "level_minutes", "levels", "payouts",
                                    "late_registration_levels", "rebuys"},
        "poker bet": {"amount"}, "poker raise": {"amount"}, "poker draw": {"cards", "twos"},
    }
    for command, options in wanted.items():
        assert options <= set(describe(command)), command
    for command in ("poker session new", "poker fold", "poker check", "poker call", "poker allin", "poker pat"):
        assert command in COMMAND_HELP


def placeholder_options() -> list[tuple[str, str]]:
    """Every option of the bot's slash commands still registered with discord.py's "…" placeholder."""
    import cogs

    for module in pkgutil.walk_packages(cogs.__path__, "cogs."):
        importlib.import_module(module.name)

    def cog_classes(base: type[commands.Cog]) -> list[type[commands.Cog]]:
        return [c for sub in base.__subclasses__() for c in (sub, *cog_classes(sub))]

    walked: list[str] = []

    def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group, path: str) -> list[tuple[str, str]]:
        if isinstance(command, app_commands.Group):
            return [key for sub in command.commands for key in walk(sub, f"{path} {sub.name}")]
        walked.extend(f"{path} {p.name}" for p in command.parameters)
        return [(path, p.name) for p in command.parameters if p.description == "…"]

    from cogs.bank import CHIPS
    from cogs.table._cog import POKER  # the groups: their commands are registered by concern, outside the cogs

    tops = [POKER, CHIPS, *(top for cog in cog_classes(commands.Cog) for top in cog.__cog_app_commands__)]
    found = [key for top in tops for key in walk(top, top.name)]
    assert any(path.startswith("poker create ") for path in walked)  # the walk reaches the commands' options
    return found


def test_every_placeholder_option_has_a_description() -> None:
    missing = [key for key in placeholder_options() if key not in OPTION_HELP]
    assert not missing


def test_describe_gives_one_commands_options() -> None:
    assert set(describe("chips give")) == {"member", "amount"}
    assert describe("poker table kick") == {"member": OPTION_HELP["poker table kick", "member"]}
    assert describe("no such command") == {}
