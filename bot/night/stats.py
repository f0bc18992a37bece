"""A player's stats from his hand facts, per game and in total, and their lines for a phone-width embed.

``PlayerStats`` holds sums (and one maximum), so the store can build it from
one aggregate query over the kept facts (``bot.night.facts``), e.g.::

    SELECT game, count(*) AS hands, sum(vpip) AS played, sum(raised) AS raised, sum(won) AS won,
           sum(showdown) AS showdowns, sum(won_at_showdown) AS won_at_showdown, sum(draws) AS draws,
           sum(cards_drawn) AS cards_drawn, sum(pats) AS pats, max(collected) AS biggest_pot, sum(net) AS net
    FROM hand_facts WHERE user_id = ? GROUP BY game

and ``PlayerStats(**row)``. "Played" is the issue's definition: the hands
where the player put chips in voluntarily before the first draw (VPIP), so
the VPIP percentage is played / hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Final

from babel.numbers import get_decimal_symbol

from bot.i18n.catalogue import babel_locale
from bot.i18n.text import ENGLISH, Language, say, say_n
from bot.poker import GAMES

from .facts import PlayerHandFacts

WIDTH: Final = 40
"""The longest line the formatting helpers write: an embed on a phone shows about this many characters."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Sums over a player's hands (``biggest_pot`` is a maximum); the rates are properties."""

    hands: int = 0
    played: int = 0
    raised: int = 0
    won: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    draws: int = 0
    cards_drawn: int = 0
    pats: int = 0
    biggest_pot: int = 0
    net: int = 0

    @classmethod
    def of(cls, facts: PlayerHandFacts) -> PlayerStats:
        """The stats of one hand."""
        return cls(
            hands=facts.dealt, played=int(facts.vpip), raised=int(facts.raised), won=int(facts.won),
            showdowns=int(facts.showdown), won_at_showdown=int(facts.won_at_showdown), draws=facts.draws,
            cards_drawn=facts.cards_drawn, pats=facts.pats, biggest_pot=facts.collected, net=facts.net,
        )

    def __add__(self, other: PlayerStats) -> PlayerStats:
        sums = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        sums["biggest_pot"] = max(self.biggest_pot, other.biggest_pot)
        return PlayerStats(**sums)

    @property
    def vpip(self) -> int | None:
        """Percentage of hands played (voluntarily put chips in before the first draw), None without hands."""
        return percent(self.played, self.hands)

    @property
    def raise_rate(self) -> int | None:
        """Percentage of hands with a bet or raise before the first draw."""
        return percent(self.raised, self.hands)

    @property
    def pat_rate(self) -> int | None:
        """Percentage of draws taken standing pat."""
        return percent(self.pats, self.draws)

    @property
    def cards_per_draw(self) -> float | None:
        """Average cards thrown per draw taken (standing pat counts as 0)."""
        return self.cards_drawn / self.draws if self.draws else None


def percent(part: int, whole: int) -> int | None:
    """``part`` of ``whole`` as a whole percentage, rounded half up; None when ``whole`` is 0."""
    return (200 * part + whole) // (2 * whole) if whole else None


def total(stats: Iterable[PlayerStats]) -> PlayerStats:
    """Stats added up (per game into a total, or nights into all time)."""
    out = PlayerStats()
    for item in stats:
        out += item
    return out


def stats_by_game(facts: Iterable[PlayerHandFacts]) -> dict[str, PlayerStats]:
    """One player's stats per game id, from his facts (ValueError if they name more than one player)."""
    by_game: dict[str, PlayerStats] = {}
    users: set[int] = set()
    for item in facts:
        users.add(item.user_id)
        by_game[item.game] = by_game.get(item.game, PlayerStats()) + PlayerStats.of(item)
    if len(users) > 1:
        raise ValueError(f"these facts are of {len(users)} players; give one player's facts")
    return dict(sorted(by_game.items()))


def stats_by_player(facts: Iterable[PlayerHandFacts]) -> dict[int, PlayerStats]:
    """Each player's stats over every game, by user id (for a table's or a night's board)."""
    by_user: dict[int, PlayerStats] = {}
    for item in facts:
        by_user[item.user_id] = by_user.get(item.user_id, PlayerStats()) + PlayerStats.of(item)
    return dict(sorted(by_user.items()))


# ------------------------------------------------------------------------------------------------- formatting


def game_label(game_id: str) -> str:
    """A game's name short enough for a line: ``A-5 Single Draw`` (without its parenthesis), or the id."""
    game = GAMES.get(game_id)
    return game.name.split(" (")[0] if game is not None else game_id


def first_round(games: Iterable[str], *, lang: Language = ENGLISH) -> str:
    """The first betting round in the words of the games played: ``before the draw`` (draw games),
    ``preflop`` (flop games), ``on 3rd street`` (stud), ``in the first round`` (games of several families)."""
    family = _first_round_family(games)
    if family == "mixed":
        return say(lang, "in the first round")
    if family == "flop":
        return say(lang, "preflop")
    if family == "stud":
        return say(lang, "on 3rd street")
    return say(lang, "before the draw")


def _first_round_family(games: Iterable[str]) -> str:
    """The family whose words name the first round (``first_round``): ``mixed`` for games of several."""
    families = {GAMES[g].family if g in GAMES else "draw" for g in games}
    if len(families) > 1:
        return "mixed"
    return families.pop() if families else "draw"


def stats_lines(stats: PlayerStats, games: Iterable[str] = (), *, lang: Language = ENGLISH) -> list[str]:
    """The stats as a few short lines (at most ``WIDTH`` characters each in English), e.g.::

        Hands 1,234 · played 312 (25%)
        Raised before the draw 12%
        Won 180 hands · 95 of 130 showdowns
        Drew 1.8 cards a draw · pat 22%
        Biggest pot won 4,560 · net +12,340

    A player who won nothing reads ``No hand won · lost 2 showdowns`` and ``Net -95`` (no pot of 0). ``games``
    (the ids of the games counted) words the first round: ``Raised preflop``, ``Raised on 3rd street``, ``Raised
    in the first round`` when they are of several families (``first_round``); none, the draw games' words.
    Worded in ``lang``.
    """
    if not stats.hands:
        return [say(lang, "No hands yet")]
    lines = [
        say(lang, "Hands {hands} · played {played} ({percent}%)", hands=stats.hands, played=stats.played,
            percent=str(stats.vpip)),
        _raised_line(_first_round_family(games), stats.raise_rate, lang),
        _won_line(stats, lang),
    ]
    if stats.cards_per_draw is not None:
        cards = f"{stats.cards_per_draw:.1f}".replace(".", get_decimal_symbol(babel_locale(lang)))
        lines.append(say(lang, "Drew {cards} cards a draw · pat {percent}%", cards=cards, percent=str(stats.pat_rate)))
    if stats.biggest_pot:
        lines.append(say(lang, "Biggest pot won {pot} · net {net}", pot=stats.biggest_pot,
                         net=_signed(stats.net, lang)))
    else:
        lines.append(say(lang, "Net {net}", net=_signed(stats.net, lang)))
    return [line for part in lines for line in _fit(part)]


def _raised_line(family: str, rate: int | None, lang: Language) -> str:
    if family == "mixed":
        return say(lang, "Raised in the first round {percent}%", percent=str(rate))
    if family == "flop":
        return say(lang, "Raised preflop {percent}%", percent=str(rate))
    if family == "stud":
        return say(lang, "Raised on 3rd street {percent}%", percent=str(rate))
    return say(lang, "Raised before the draw {percent}%", percent=str(rate))


def _won_line(stats: PlayerStats, lang: Language) -> str:
    """What he won and his showdowns, two phrases: ``Won 180 hands · 95 of 130 showdowns``."""
    showdowns = stats.showdowns
    if not stats.won:
        if not showdowns:
            return say(lang, "No hand won")
        return " · ".join([say(lang, "No hand won"), say_n(lang, "lost {count} showdown", "lost {count} showdowns",
                                                            count=showdowns)])
    won = say_n(lang, "Won {count} hand", "Won {count} hands", count=stats.won)
    if not showdowns:
        return " · ".join([won, say(lang, "no showdown")])
    return " · ".join([won, say_n(lang, "{won} of {count} showdown", "{won} of {count} showdowns", count=showdowns,
                                  won=stats.won_at_showdown)])


def _signed(amount: int, lang: Language) -> str:
    """A net with its sign, grouped the reader's way: ``+12,340``, ``-95``, ``+0``."""
    return ("-" if amount < 0 else "+") + lang.number(abs(amount))


def games_table(by_game: Mapping[str, PlayerStats], *, lang: Language = ENGLISH) -> list[str]:
    """One line a game and a total (for a code block: the columns line up), at most ``WIDTH`` characters in
    English (the headings of another language may be wider)::

        Game              Hands VPIP        Net
        2-7 Triple Draw     120  25%     +1,200
        Assassin             40  30%       -350
        Total               160  26%       +850
    """
    rows = [(_table_label(game), stats) for game, stats in by_game.items()]
    if len(rows) > 1:
        rows.append((say(lang, "Total"), total(by_game.values())))
    game, hands, vpip_heading, net = say(lang, "Game"), say(lang, "Hands"), say(lang, "VPIP"), say(lang, "Net")
    lines = [f"{game:<15} {hands:>7} {vpip_heading:>4} {net:>10}"]
    for label, stats in rows:
        vpip = f"{stats.vpip}%" if stats.vpip is not None else "-"
        lines.append(f"{_clip(label, 15):<15} {_short(stats.hands, 7, lang)} {vpip:>4} "
                     f"{_short(stats.net, 10, lang, sign=True)}")
    return lines


TABLE_LABELS: Final = {"stud-hilo": "Stud Hi-Lo"}
"""A game's name in ``games_table`` where ``game_label`` would be cut to 15 characters (``Seven Card Stu…`` would
read as stud too)."""


def _table_label(game: str) -> str:
    label = game_label(game)
    return TABLE_LABELS.get(game, label) if len(label) > 15 else label


def _short(amount: int, width: int, lang: Language, *, sign: bool = False) -> str:
    """``amount`` right-aligned in ``width`` characters: in full (grouped the reader's way) when it fits, else in
    millions or billions (``1.2M``, the decimal sign the reader's)."""
    text = _signed(amount, lang) if sign else lang.number(amount)
    if len(text) > width:
        scale, suffix = (10**9, "B") if abs(amount) >= 999_950_000 else (10**6, "M")
        text = f"{amount / scale:{'+' if sign else ''}.1f}".replace(".", get_decimal_symbol(babel_locale(lang)))
        text += suffix
    return f"{text:>{width}}"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _fit(line: str) -> list[str]:
    """A line, split after its last `` · `` that keeps the first part within ``WIDTH`` when it is too long."""
    if len(line) <= WIDTH or " · " not in line:
        return [line]
    head = line[:WIDTH].rpartition(" · ")[0]
    if not head:
        return [line]
    return [head, *_fit(line[len(head) + 3:])]
