"""The /poker rules text: what it states is what the engine does, and it fits Discord's limits.

Every comparison the pages state is a claim checked with ``bot.poker.evaluate``;
Badugi's are checked once the engine ranks Badugi. The option descriptions of
``bot.command_help`` are checked against Discord's limits and the live commands.
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

from bot import rules_text
from bot.command_help import COMMAND_HELP, OPTION_HELP, describe
from bot.poker import DRAW_GAMES, RANKINGS, HandValue, evaluate, parse_cards
from bot.poker.cards import RANKS, STANDARD_DECK
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
)
from bot.rules_text import (
    ASSASSIN_EXAMPLE,
    CLAIMS,
    GAME_BLURBS,
    RULE_GAMES,
    Beats,
    BestHands,
    Claim,
    Order,
    RulesPage,
    format_hand,
    game_facts,
    ranks_only,
    rules_page,
)

PAGES = [None, *RULE_GAMES]


def emoji_cards(cards: str) -> str:
    """A stand-in for card emojis as long as the real ones (``<:name:id>`` with a 19-digit id)."""
    return " ".join(f"<:c_{c.code}:1234567890123456789>" for c in parse_cards(cards))


def all_text(page: RulesPage) -> str:
    return page.summary + "\n" + "\n".join(f"{s.title}\n{s.body}" for s in page.sections)


def text_of(game_id: str | None) -> str:
    return all_text(rules_page(game_id))


# ---------------------------------------------------------------- the games and Discord's limits


def test_the_twelve_games_are_the_engines_and_badugi() -> None:
    assert set(RULE_GAMES) == set(DRAW_GAMES) | {"badugi"}
    assert len(RULE_GAMES) == 12 == len(set(RULE_GAMES))


@pytest.mark.parametrize("game_id", list(DRAW_GAMES))
def test_the_facts_are_the_engines(game_id: str) -> None:
    facts, game = game_facts(game_id), DRAW_GAMES[game_id]
    assert (facts.name, facts.draws, facts.ranking, facts.default_structure, facts.max_players, facts.assassin) == (
        game.name, game.draws, game.ranking, game.default_structure, game.max_players, game.assassin)
    assert facts.big_bet_round == game.default_big_bet_round


def test_badugi_is_triple_draw_with_four_cards() -> None:
    facts = game_facts("badugi")
    assert (facts.draws, facts.rounds, facts.hand_size, facts.default_structure, facts.max_players) == (
        3, 4, 4, "fixed-limit", 6)


def test_an_unknown_game_is_refused_with_the_list() -> None:
    with pytest.raises(ValueError, match=r"triple-draw-27.*badugi"):
        rules_page("seven-card-stud")


@pytest.mark.parametrize("fmt", [format_hand, emoji_cards], ids=["text", "emoji"])
@pytest.mark.parametrize("game_id", PAGES)
def test_every_page_fits_an_embed(game_id: str | None, fmt: rules_text.CardFormat) -> None:
    page = rules_page(game_id, fmt)
    assert 1 <= len(page.title) <= 256
    assert 1 <= len(page.summary) <= 4096
    assert 1 <= len(page.sections) <= 25
    for section in page.sections:
        assert 1 <= len(section.title) <= 256, section.title
        assert 1 <= len(section.body) <= 1024, (section.title, len(section.body))
    assert page.embed_length() <= 6000
    assert page.embed_length() == len(page.title) + len(page.summary) + sum(
        len(s.title) + len(s.body) for s in page.sections)


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
    assert set(GAME_BLURBS) == set(RULE_GAMES)
    assert all(1 <= len(b) <= 100 for b in GAME_BLURBS.values())


# ---------------------------------------------------------------- what each page says


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_each_page_explains_the_hand_the_betting_and_the_table(game_id: str) -> None:
    facts, text = game_facts(game_id), text_of(game_id)
    for needed in ("small blind", "big blind", "burned before each draw", "stands pat",
                   f"throws 0 to {facts.hand_size} cards", f"Everyone gets {facts.hand_size} cards",
                   "big bet = twice that", "Cap: 4 bets a round", "only two players", "(up to 5)",
                   "call 2, the pot is 5, so raise to 7 at most", "raise to 4 or more",
                   "does not reopen the betting", "half a bet", "side pot",
                   "60 s", "two hands in a row", "Dealer's choice", "without showing"):
        assert needed in text, needed
    assert f"{ {2: 'two', 3: 'three', 4: 'four'}[facts.rounds]} betting rounds" in text
    assert f"2 to {facts.max_players} players" in text


@pytest.mark.parametrize(("game_id", "when"), [
    ("five-card-draw", "Small bet before the draw, big bet after it."),
    ("single-draw-a5", "Small bet before the draw, big bet after it."),
    ("double-draw-27", "Small bet in rounds 1 and 2, big bet in round 3 (after the second draw)."),
    ("triple-draw-a6", "Small bet in rounds 1 and 2, big bet in rounds 3 and 4 (after the second draw)."),
    ("badugi", "Small bet in rounds 1 and 2, big bet in rounds 3 and 4 (after the second draw)."),
])
def test_the_big_bet_starts_where_rules_md_says(game_id: str, when: str) -> None:
    assert when in text_of(game_id)


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_the_default_structure_is_named_and_comes_first(game_id: str) -> None:
    facts = game_facts(game_id)
    betting = [s.title for s in rules_page(game_id).sections if "limit" in s.title]
    default = {"fixed-limit": "Fixed limit (default)", "no-limit": "No limit (default) and pot limit"}
    assert betting[0] == default[facts.default_structure]


@pytest.mark.parametrize("game_id", RULE_GAMES)
def test_draw_limits_only_in_the_five_card_high_games(game_id: str) -> None:
    text = text_of(game_id)
    if game_facts(game_id).ranking == "high":
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
    if ranking not in RANKINGS:
        pytest.skip(f"the engine does not rank {ranking} yet")
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
        values.update(evaluate(ranking, parse_cards(h)) for h in hands)
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


def test_badugi_claims_wait_for_the_engine_and_no_other_does() -> None:
    waiting = [c for c in CLAIMS if c.ranking not in RANKINGS]
    assert {c.ranking for c in waiting} <= {"badugi"}
    assert any(c.ranking == "badugi" for c in CLAIMS)


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.ranking == "badugi"], ids=lambda c: type(c).__name__)
def test_the_badugi_claims_agree_with_pokerkit_until_the_engine_ranks_badugi(claim: Claim) -> None:
    """pokerkit's BadugiHand is RULES.md's Badugi ranking: an oracle for the claims the engine cannot check yet."""
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


def rendered_claims(claim: Claim) -> list[str]:
    if isinstance(claim, Order):
        return [claim.render_examples(format_hand) if claim.ranking == "high" else claim.render_names()]
    return [claim.render(format_hand)]


def test_every_claim_is_shown_and_every_comparison_shown_is_a_claim() -> None:
    pages = "\n".join(text_of(g) for g in PAGES)
    for claim in CLAIMS:
        for text in rendered_claims(claim):
            assert text in pages, text
    stated = {c.render(format_hand) for c in CLAIMS if isinstance(c, Beats)}
    general_rules = ('a four-card "badugi" beats any three cards',)  # backed by a Beats claim too
    for line in pages.splitlines():
        if " beats " in line and not any(rule in line for rule in general_rules):
            assert line.removeprefix("- ") in stated, line


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
    assert best.describe() == "Full house, " + ex.plays_as
    other = parse_cards(ex.other)
    assert any(c.is_two for c in other)
    assert evaluate("high", other).describe() == "Three of a kind, aces"
    assert ex.render(format_hand) in text_of("assassin")


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
