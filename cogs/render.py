"""Cards, hands and tables as text for Discord (no discord imports; the cogs wrap it).

Nothing here shows a player's hole cards except ``private_hand`` (for his
DM or an ephemeral reply) and ``showdown`` (after the hand is over).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.poker import (
    Acted,
    Card,
    Carried,
    Drew,
    Event,
    Game,
    Hand,
    PotAwarded,
    Returned,
    Shown,
)
from bot.poker.games import GAMES
from bot.tables.settings import TableSettings

STRUCTURE_NAMES = {"fixed-limit": "Fixed limit", "pot-limit": "Pot limit", "no-limit": "No limit"}
ROUND_NAMES = ("before the first draw", "after the first draw", "after the second draw", "after the third draw")


def mention(user: int) -> str:
    """How a member is named in messages (a mention renders as his name and does not ping in embeds)."""
    return f"<@{user}>"


def cards(hand: Sequence[Card]) -> str:
    """Cards with suit symbols: ``A♠ K♦ 7♣``."""
    return " ".join(c.pretty() for c in hand)


def chips(amount: int) -> str:
    """A chip amount with thousands separators."""
    return f"{amount:,}"


def chip_count(amount: int) -> str:
    """``1 chip``, ``1,000 chips``."""
    return f"{amount:,} chip" + ("" if amount == 1 else "s")


def stakes_line(settings: TableSettings, game: Game | None, structure: str | None = None, sep: str = " · ") -> str:
    """The structure and stakes, e.g. ``Fixed limit 1/2 · bets 2/4 · big bet from the 3rd betting round``."""
    parts: list[str] = []
    chosen = structure or settings.structure or (game.default_structure if game else None)
    blinds = f"{chips(settings.small_blind)}/{chips(settings.big_blind)}" if settings.big_blind else "antes only"
    parts.append(f"{STRUCTURE_NAMES.get(chosen or '', 'Each game’s default structure')} {blinds}")
    if settings.ante:
        parts.append(f"ante {chips(settings.ante)}")
    if chosen == "fixed-limit" and game is not None:
        small = settings.big_blind or settings.ante
        big_round = settings.big_bet_round or game.default_big_bet_round
        parts.append(f"bets {chips(small)}/{chips(2 * small)}, big bet from round {big_round}")
        parts.append(f"cap {settings.raise_cap} bets")
    if game is not None and game.assassin and settings.jokers:
        parts.append("two jokers play as twos")
    if game is not None and game.allows_draw_limit and settings.draw_limit != "none":
        limit = "3 cards" if settings.draw_limit == "3" else "3 cards, 4 keeping an ace"
        parts.append(f"draw limit {limit}")
    return sep.join(parts)


def private_hand(hand: Hand, seat: int) -> str:
    """A player's own cards and what they make under the game's ranking (DM or ephemeral only)."""
    held = hand.holes[seat]
    text = f"**{cards(held)}**"
    if hand.game.assassin and hand.is_assassinated(seat):
        return text + " — holds a two: it loses at a showdown"
    value = hand.value_of(seat)
    if value is not None:
        text += f" — {value.describe()}"
    return text


def seat_lines(hand: Hand, users: Sequence[int]) -> list[str]:
    """Every player of the live hand: stack, bet, state and draws (no cards)."""
    lines: list[str] = []
    n = hand.players
    for seat in range(n):
        marks = ("▶ " if hand.actor == seat else "") + ("🔘 " if seat == n - 1 else "")
        parts = [f"{marks}{mention(users[seat])} {chips(hand.stacks[seat])}"]
        if hand.bets[seat]:
            parts.append(f"bet {chips(hand.bets[seat])}")
        if hand.folded[seat]:
            parts.append("folded")
        elif hand.stacks[seat] == 0:
            parts.append("all in")
        if hand.drawn[seat]:
            parts.append("drew " + "/".join(str(k) if k else "pat" for k in hand.drawn[seat]))
        if hand.face_up[seat]:
            parts.append("twos up " + cards(hand.face_up[seat]))
        lines.append(" · ".join(parts))
    return lines


def pots_line(hand: Hand) -> str:
    """The pots as they stand (main and side pots), carried chips included."""
    pots = hand.pots()
    all_in = any(hand.is_all_in(i) for i in range(hand.players))
    if not pots or not all_in:  # side pots only matter once someone is all in
        line = f"Pot {chips(hand.pot_total)}"
    elif len(pots) == 1:
        line = f"Pot {chips(pots[0].amount)}"
    else:
        line = "Pots " + ", ".join(chips(p.amount) for p in pots)
    if hand.carried_in:
        line += f" (with {chips(hand.carried_in)} carried in)"
    return line


def event_line(event: Event, users: Sequence[int], hand: Hand) -> str | None:
    """One public line for the action log, or None for events the channel does not show."""
    if isinstance(event, Acted):
        who = mention(users[event.player])
        if event.verb in ("fold", "check"):
            return f"{who} {event.verb}s"
        word = {"call": "calls", "bet": "bets", "raise": "raises to"}[event.verb]
        return f"{who} {word} {chips(event.amount)}" + (" (all in)" if event.all_in else "")
    if isinstance(event, Drew):
        who = mention(users[event.player])
        line = f"{who} stands pat" if not event.discarded else f"{who} draws {event.received}"
        if event.face_up:
            line += f", showing {cards(event.face_up)} face up"
        return line
    if isinstance(event, Returned):
        return f"{chips(event.amount)} uncalled returned to {mention(users[event.player])}"
    if isinstance(event, Carried):
        return f"Every hand for a pot of {chips(event.amount)} holds a two: it is carried to the next deal"
    return None


def showdown(hand: Hand, users: Sequence[int]) -> str:
    """The end of a hand: hands shown with their descriptions, who won each pot, carried chips."""
    lines: list[str] = []
    for event in hand.events:
        if isinstance(event, Shown):
            lines.append(f"{mention(users[event.player])}: {cards(event.cards)} — {event.description}")
    pot_count = sum(isinstance(e, PotAwarded) for e in hand.events) + sum(isinstance(e, Carried) for e in hand.events)
    for event in hand.events:
        if isinstance(event, PotAwarded):
            name = "the pot" if pot_count == 1 else ("the main pot" if event.pot == 0 else f"side pot {event.pot}")
            winners = " and ".join(f"{mention(users[w])} ({chips(s)})" for w, s in zip(event.winners, event.shares))
            how = "uncontested" if event.uncontested else ("split" if len(event.winners) > 1 else "")
            lines.append(f"{winners} {'win' if len(event.winners) > 1 else 'wins'} {name} of "
                         f"{chips(event.amount)}{' (' + how + ')' if how else ''}")
        elif isinstance(event, Carried):
            lines.append(f"{chips(event.amount)} carried to the next deal: every hand for it held a two")
    return "\n".join(lines)


def rules_text(game_id: str | None) -> str:
    """A short summary of a game (or of all games) for ``/poker rules``."""
    if game_id is None:
        return "\n".join(f"`{g.id}` — {g.name}: {g.draws} draw{'s' if g.draws > 1 else ''}, {g.ranking}, "
                         f"up to {g.max_players} players" for g in GAMES.values())
    game = GAMES[game_id]
    ranking = {
        "high": "the best high hand wins",
        "deuce-to-seven": "the lowest hand wins; aces are high, straights and flushes count against you "
                          "(best 7-5-4-3-2)",
        "ace-to-five": "the lowest hand wins; aces are low, straights and flushes do not count (best 5-4-3-2-A)",
        "ace-to-six": "the lowest hand wins; aces are low, straights and flushes count against you (best 6-4-3-2-A)",
    }[game.ranking]
    text = (f"**{game.name}** — five cards each, {game.draws} draw{'s' if game.draws > 1 else ''} and "
            f"{game.betting_rounds} betting rounds; {ranking}. Up to {game.max_players} players; "
            f"default structure {STRUCTURE_NAMES[game.default_structure].lower()}.")
    if game.assassin:
        text += ("\nTwos are assassins: a hand holding a two at the showdown loses. At the draw you may throw "
                 "dealt twos face up for one extra card (six cards, best five play). If every hand holds a two, "
                 "the pot is carried to the next deal.")
    return text
