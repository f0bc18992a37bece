"""The night's texts in a reader's language: the hand stories, the stats, the graph's words and money. Every text
comes through the catalogue (the pseudo-language wraps each in ``⟦…⟧``: what is left outside is names, cards and
numbers); numbers and money are written the language's way (German: ``1.234``, ``1,50 €``); English unchanged."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.i18n.catalogue import PSEUDO, language
from bot.i18n.text import ENGLISH
from bot.night import ChipValue, chip_graph_png, games_table, hand_story, money, stakes_text, stats_lines
from bot.night.stats import PlayerStats, first_round, game_label
from bot.night.story import listed
from bot.poker import GAMES, Hand
from bot.tools.simulate import default_stakes, play_hand, random_action

from . import known
from .hands import NL, play, random_hand, stacked

PSEUDO_LANGUAGE = language(PSEUDO)
GERMAN = language("de")
CARD = r"(?:10|[2-9TJQKA])[♠♥♦♣]"  # a card as the story writes it: K♠
RANKS = r"\((?:[2-9TJQKA]-)+[2-9TJQKA]\)|(?<![\w-])(?:[2-8A]-){4}[2-8A](?![\w-])"  # (7-5-4-3-2), a low: 8-6-4-2-A


def unworded(text: str) -> str:
    """What of a text worded in the pseudo-language did not come through the catalogue (each ``⟦…⟧`` removed)."""
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", "", text)) != text:
        text = inner
    return text


def words_left(text: str, *names: str) -> list[str]:
    """The words of a pseudo-language text outside every ``⟦…⟧`` that are not ``names``, cards or numbers."""
    left = unworded(text)
    for name in names:
        left = left.replace(name, " ")
    left = re.sub(RANKS, " ", left)
    left = re.sub(CARD, " ", left)
    return re.findall(r"[A-Za-z]+", left)


def test_words_left_finds_english_outside_the_catalogue() -> None:
    assert words_left("⟦Bet 1⟧: ⟦P1 calls⟧, Q♠ 9♦ (K-T-7-6) 8-6-4-2-A", "P1") == []
    assert words_left("⟦Bet 1⟧: P1 calls", "P1") == ["calls"]


def story_hands() -> list[Hand]:
    """Hands of every game (draw, flop, stud, hi-lo, Assassin's kills and carries), and the known ones."""
    rng = random.Random(11)
    hands = [known.heads_up_triple_draw(), known.three_way_side_pot(), known.everyone_folds_to_a_raise(),
             known.assassin_carry(), known.assassin_wins_the_carry(), known.split_pot(), known.all_in_call_for_less(),
             known.all_in_on_the_blind(), known.one_winner_two_pots()]
    for _ in range(300):
        game = rng.choice(sorted(GAMES))
        stacks = [rng.choice([3, 8, 20, 60, 200, 1000]) for _ in range(rng.randint(2, GAMES[game].max_players))]
        structure = rng.choice(["fixed-limit", "pot-limit", "no-limit"])
        hands.append(play_hand(game, default_stakes(GAMES[game], structure), stacks, rng))  # type: ignore[arg-type]
    hands += [random_hand(random.Random(seed)) for seed in range(100)]

    def calls(hand: Hand, rng: random.Random) -> str:
        return "cc" if hand.can("cc") else random_action(hand, rng)
    for game in ("stud", "stud-hilo", "razz"):  # eight players who all stay: the last card is dealt to the middle
        hands.append(play_hand(game, default_stakes(GAMES[game]), [1000] * 8, rng, policy=calls))
    return hands


HANDS = story_hands()


def tell(hand: Hand, **options: Any) -> str:
    return hand_story(hand, list(range(hand.players)), lambda seat: f"@P{seat + 1}", number=7, **options)


def test_every_text_of_a_story_comes_through_the_catalogue() -> None:
    said = "\n".join(tell(hand, lang=PSEUDO_LANGUAGE) for hand in HANDS)
    for needed in ("🏆 ⟦High⟧: ", "🏆 ⟦Main pot, low⟧", "no low⟧", "⟦🔁 The pot of",
                   "in the middle for everyone⟧", "brings in", "⟦Flop⟧", "⟦3rd street⟧", "⟦Draw 1⟧", "fold⟧",
                   "face up, gets", "carried in from the last deal⟧", "⟦⟦@P1 and @P2⟧ ", " vs @P"):
        assert needed in re.sub(r"\s*\n\s*", " ", said)  # the hands tell every kind of line
    games = sorted({game_label(hand.game.id) for hand in HANDS}, key=len, reverse=True)
    assert words_left(said, *games, *(f"@P{seat}" for seat in range(1, 9))) == []


def test_a_story_in_the_pseudo_language_says_what_the_english_says() -> None:
    for hand in HANDS:
        english = tell(hand, width=10_000)
        assert tell(hand, lang=ENGLISH) == tell(hand)
        pseudo = tell(hand, width=10_000, lang=PSEUDO_LANGUAGE)
        # The same words in the same order, each text wrapped (a hand's name that starts with a rank is
        # capitalised in English only: the pseudo-language's first letter is a bracket).
        assert re.sub("[⟦⟧]", "", pseudo).lower() == english.lower()


def test_german_groups_the_storys_amounts() -> None:
    deck = stacked(["As Ad Ah Kc Kd", "Qs Qd 7c 5h 3s"])
    hand = play(Hand("five-card-draw", NL, [5000, 5000], deck=deck), "cbr 1500", "cc", "sd", "sd", "cc", "cc")
    english = hand_story(hand, [11, 22], lambda user: f"@{user}", width=100)
    german = hand_story(hand, [11, 22], lambda user: f"@{user}", lang=GERMAN, width=100)
    assert "1,500" in english and "3,000" in english
    assert "1.500" in german and "3.000" in german and "1,500" not in german


@pytest.mark.parametrize("hand", [known.three_way_side_pot(), known.heads_up_triple_draw()])
def test_the_stakes_come_through_the_catalogue(hand: Hand) -> None:
    pseudo = stakes_text(hand, lang=PSEUDO_LANGUAGE)
    assert pseudo.startswith("⟦") and words_left(pseudo) == []
    assert re.sub("[⟦⟧]", "", pseudo) == stakes_text(hand)


def test_a_list_of_names_comes_through_the_catalogue() -> None:
    assert listed(["a"], lang=PSEUDO_LANGUAGE) == "a"
    assert listed(["a", "b", "c"], lang=PSEUDO_LANGUAGE) == "⟦a, b and c⟧"
    assert listed(["a", "b", "c"]) == "a, b and c"


# ------------------------------------------------------------------------------------------------------- stats

STATS = [
    PlayerStats(),
    PlayerStats(hands=1234, played=312, raised=148, won=180, showdowns=130, won_at_showdown=95, draws=900,
                cards_drawn=1620, pats=198, biggest_pot=4560, net=12340),
    PlayerStats(hands=40, played=12, raised=3, showdowns=2, net=-95),
    PlayerStats(hands=3, played=1, won=1, showdowns=1, won_at_showdown=1, biggest_pot=20, net=20),
    PlayerStats(hands=3, played=1, won=2, net=5),
    PlayerStats(hands=3, played=1, showdowns=1, net=-5),
]
GAME_SETS: list[tuple[str, ...]] = [(), ("five-card-draw",), ("holdem",), ("stud",), ("holdem", "razz")]


def test_every_stats_line_comes_through_the_catalogue() -> None:
    for stats in STATS:
        for games in GAME_SETS:
            english = stats_lines(stats, games)
            pseudo = stats_lines(stats, games, lang=PSEUDO_LANGUAGE)
            assert words_left("\n".join(pseudo)) == [], pseudo
            assert re.sub("[⟦⟧]", "", " · ".join(pseudo)) == " · ".join(english)
            assert first_round(games, lang=PSEUDO_LANGUAGE) == f"⟦{first_round(games)}⟧"


def test_the_games_table_comes_through_the_catalogue() -> None:
    by_game = {"five-card-draw": STATS[1], "razz": STATS[2], "stud-hilo": STATS[3]}
    pseudo = games_table(by_game, lang=PSEUDO_LANGUAGE)
    labels = ["Five Card Draw", "Razz", "Stud Hi-Lo"]
    assert words_left("\n".join(pseudo), *labels) == []
    assert pseudo[0].split() == ["⟦Game⟧", "⟦Hands⟧", "⟦VPIP⟧", "⟦Net⟧"]
    assert pseudo[-1].startswith("⟦Total⟧")


def test_german_writes_the_stats_numbers_the_german_way() -> None:
    english, german = stats_lines(STATS[1]), stats_lines(STATS[1], lang=GERMAN)
    assert "1,234" in english[0] and "1.234" in german[0]
    assert "1.8" in english[3] and "1,8" in german[3]
    assert "+12,340" in english[-1] and "+12.340" in german[-1]
    table = games_table({"five-card-draw": STATS[1], "razz": PlayerStats(hands=9, net=-2_345_678_901)}, lang=GERMAN)
    assert "1.234" in table[1] and "+12.340" in table[1]
    assert "-2,3B" in table[2]  # too wide for its column: in billions, the German decimal comma


# ------------------------------------------------------------------------------------------------------- money


def test_money_is_english_as_it_was_in_english_and_the_pseudo_language() -> None:
    for lang in (ENGLISH, PSEUDO_LANGUAGE):
        assert money(250, ChipValue(100, 100, "$"), lang=lang) == "$2.50"
        assert money(-1, ChipValue(1, 5, "€", True), lang=lang) == "-0.05€"
        assert ChipValue(100, 100, "EUR").format_cents(300, sign=True, lang=lang) == "+EUR 3.00"
        assert ChipValue(100, 100, "$").format_cents(123450, lang=lang) == "$1,234.50"


@pytest.mark.parametrize(("value", "cents", "sign", "written"), [
    (ChipValue(100, 100, "€", True), 150, False, "1,50\xa0€"),
    (ChipValue(100, 100, "€"), 150, False, "1,50\xa0€"),  # the symbol where German writes it, whatever the host
    (ChipValue(100, 100, "$"), 123450, False, "1.234,50\xa0$"),
    (ChipValue(100, 100, "$"), -5, False, "-0,05\xa0$"),
    (ChipValue(100, 100, "EUR"), 300, True, "+3,00\xa0EUR"),
    (ChipValue(100, 100), 123450, False, "1.234,50"),
])
def test_german_writes_money_the_german_way(value: ChipValue, cents: int, sign: bool, written: str) -> None:
    assert value.format_cents(cents, sign=sign, lang=GERMAN) == written


def test_money_in_the_other_languages() -> None:
    value = ChipValue(100, 100, "$")
    assert value.format_cents(123450, lang=language("fr")) == "1\u202f234,50\xa0$"
    assert value.format_cents(123450, lang=language("pt_BR")) == "$\xa01.234,50"
    assert ChipValue(1, 1, "EUR").format_cents(5, lang=language("pt_BR")) == "EUR\xa00,05"
    assert money(250, value, sign=True, lang=language("es")) == "+2,50\xa0$"


def test_a_chip_value_in_a_language() -> None:
    assert ChipValue(100, 100, "$").describe() == str(ChipValue(100, 100, "$")) == "100 chips = $1.00"
    assert ChipValue(1, 5, "€", True).describe(lang=PSEUDO_LANGUAGE) == "⟦1 chip = 0.05€⟧"
    assert ChipValue(1000, 500, "€").describe(lang=PSEUDO_LANGUAGE) == "⟦1,000 chips = €5.00⟧"
    german = ChipValue(1000, 500, "€", True).describe(lang=GERMAN)
    assert "1.000" in german and "5,00\xa0€" in german


# ------------------------------------------------------------------------------------------------------- graph


def test_the_graphs_words_and_amounts_are_the_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis

    said: list[str] = []
    formatters: list[Any] = []
    for method in ("set_xlabel", "set_ylabel", "text"):
        original = getattr(Axes, method)

        def record(self: Axes, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            said.extend(a for a in args if isinstance(a, str))
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(Axes, method, record)
    plot = Axes.plot

    def record_plot(self: Axes, *args: Any, **kwargs: Any) -> Any:
        said.append(kwargs["label"])
        return plot(self, *args, **kwargs)
    monkeypatch.setattr(Axes, "plot", record_plot)
    set_formatter = Axis.set_major_formatter

    def record_formatter(self: Axis, formatter: Any) -> None:
        formatters.append(formatter)
        set_formatter(self, formatter)
    monkeypatch.setattr(Axis, "set_major_formatter", record_formatter)

    chip_graph_png({1: [(0, 0), (1, 1500)], 2: [(0, 0), (1, -1500)]}, {1: "ann", 2: "bob"}, "⟦Tonight⟧",
                   lang=PSEUDO_LANGUAGE)
    chip_graph_png({}, {}, "⟦Tonight⟧", lang=PSEUDO_LANGUAGE)
    assert sorted(said) == sorted(["⟦Hand⟧", "⟦Chips won⟧", "ann +1,500", "bob -1,500", "⟦Hand⟧", "⟦Chips won⟧",
                                   "⟦No hands yet⟧"])
    said.clear()
    chip_graph_png({1: [(0, 0), (1, 1500)]}, {1: "ann"}, "Heute", lang=GERMAN)
    assert "ann +1.500" in said
    assert formatters[-1](2000.0, 0) == "+2.000" and formatters[-1](-500.0, 0) == "-500"
    assert formatters[-1](0.0, 0) == "0"


def test_a_story_line_never_breaks_at_a_no_break_space() -> None:
    from bot.night.story import _wrap
    pieces = _wrap("Pot reporté\u00a0: 40 jetons reportés à la donne suivante, et encore plus loin", 24)
    assert all(not piece.lstrip().startswith(":") for piece in pieces)
    assert pieces[0] == "Pot reporté\u00a0: 40 jetons"
