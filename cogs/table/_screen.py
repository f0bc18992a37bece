"""The table message's embed as a pure function of the table's state (its components are
``cogs.table._controls``'s).

Made for a phone (about 40 characters a line): one embed whose description holds the state at a glance (the
game and round, the pot, one line per player, whose turn and his clock, this hand's last actions). No I/O and no
clock here: what changes with time comes in as a ``Screen``. Tested without Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.content.cardfaces import card_text
from bot.i18n import ENGLISH, Language, Text, say, say_n, shown_length
from bot.poker import MIN_PLAYERS, Game, Hand, Legal, Structure
from bot.tables import Table
from bot.tables.tournament import tournament_of
from cogs import render
from cogs.render import CardText, chips, hand_title, mention

from .. import tournament_views
from . import _text

PHONE_LINE = 38  # characters: the stakes and the round share a line when both fit a phone's width
MAX_LOG_LINES = 5  # this hand's last public lines the message shows (and the runner keeps)
COLOUR = discord.Colour.dark_green()
DONE_COLOUR = discord.Colour.dark_grey()
EMBED_TEXT = 4096  # characters Discord allows in an embed's description


@dataclass(frozen=True, slots=True)
class Screen:
    """What the table message shows besides the table itself."""

    recent: Sequence[str] = ()  # this hand's last public lines, oldest first
    deadline: float | None = None  # when the clock of the player to act (or of the chooser) runs out, Unix time
    choice_number: int = 0  # tells one dealer's-choice menu from the next (their custom_ids differ)
    card: CardText = field(default=card_text)  # how a card is drawn (an emoji, or text)
    notices: Sequence[str] = ()  # lines for everyone (a player whose DMs are closed)
    show_finished: bool = False  # between hands, the page still shows the hand just over
    language: Language = ENGLISH  # the table's: what everyone reads the message in (its buttons too)


def embed(table: Table, screen: Screen) -> discord.Embed:
    """The table as everyone sees it now, in ``screen.language``."""
    if table.live is not None:
        return _hand_embed(table, screen)
    if screen.show_finished and table.last_hand is not None:
        return finished_embed(table, screen)
    return _lobby_embed(table, screen)


def board_content(table: Table, screen: Screen) -> str | None:
    """What the table message says above its embed: a flop game's board while its hand is played, alone, so that
    Discord draws the cards large; "" otherwise at a table that deals flop games (the board of a hand over is in
    its embed); None at a table that never does (its message has no content)."""
    if not _deals_flop_games(table):
        return None
    live = table.live
    if live is None or live.hand.game.family != "flop" or not live.hand.board:
        return ""
    return render.cards(live.hand.board, screen.card)


def _deals_flop_games(table: Table) -> bool:
    return any(game.family == "flop" for game in table.settings.games(MIN_PLAYERS))


def _hand_embed(table: Table, screen: Screen) -> discord.Embed:
    live = table.live
    assert live is not None
    lang = screen.language
    hand, users = live.hand, live.users
    board = _text.board_line(hand, screen.card) if hand.game.family != "flop" else None  # flop: large, above
    lines = [line for line in (mix_line(table, lang=lang), board) if line]
    stakes, where = _text.stakes_short(hand, lang=lang), _text.round_line(hand, lang=lang)
    lines += [f"{stakes} · {where}"] if shown_length(stakes) + shown_length(where) <= PHONE_LINE else [stakes, where]
    lines += [_text.pot_line(hand, users, lang=lang), ""]
    lines += _text.player_lines(hand, users, screen.card, lang=lang)
    waiting = [s for s in table.record.seats if s.user_id not in users]
    lines += [_seat_line(s.user_id, s.stack, _seat_state(s.sitting_out, s.leaving, s.stack, lang), lang)
              for s in waiting]
    actor = table.actor()
    legal = table.legal()
    if actor is not None and legal is not None:
        bring_in = _text.bring_in_line(hand, users, screen.card, lang=lang)
        lines += ["", *([bring_in] if bring_in else []), f"**{mention(actor)}: {asked(legal, lang=lang)}**",
                  *_clock_line(screen.deadline)]
    if screen.recent:
        lines += ["", *(f"· {line}" for line in screen.recent[-MAX_LOG_LINES:])]
    if table.paused and tournament_of(table) is None:  # the host's pause, said while the hand lasts
        lines += ["", _PAUSING.worded(lang)]
    lines += _tournament_lines(table, lang)
    lines += list(screen.notices)
    return discord.Embed(title=hand_title(_game_name(table, hand, lang), live.record.number, lang=lang),
                         description="\n".join(lines), colour=COLOUR)


def _seat_line(user: int, stack: int, state: str | None, lang: Language) -> str:
    """A seated member's line: ``@bob 1,000``, with his state (``@bob 1,000 · sitting out``)."""
    line = f"{mention(user)} {chips(stack, lang=lang)}"
    return f"{line} · {state}" if state else line


SHORT_NAMES = {"holdem": "Hold'em", "omaha-hilo": "Omaha Hi-Lo", "big-o": "Big O", "stud": "Stud",
               "stud-hilo": "Stud Hi-Lo", "single-draw-a5": "A-5 Single Draw"}


def short_game_name(game: Game, structure: Structure, *, lang: Language) -> str:
    """A game of a mixed table as players name it, short for a phone, with its structure when it is not the
    game's own: ``Limit Hold'em``, ``Hold'em``, ``Omaha Hi-Lo``, ``Stud``, ``PL Razz``."""
    name = SHORT_NAMES.get(game.id, game.name)
    if structure == game.default_structure:
        return name
    if structure == "fixed-limit":
        return say(lang, "Limit {game}", game=name)
    return say(lang, "PL {game}", game=name) if structure == "pot-limit" else say(lang, "NL {game}", game=name)


def _game_name(table: Table, hand: Hand, lang: Language) -> str:
    """A hand's game as a title: at a mixed table short, with its structure when it is not the game's own
    (``Limit Hold'em``); the game's full name elsewhere."""
    return short_game_name(hand.game, hand.stakes.structure, lang=lang) if table.settings.mixed else hand.game.name


def mix_line(table: Table, *, lang: Language) -> str | None:
    """A rotation's place: between hands ``HORSE · Razz: 2 hands left · next Stud`` (the game of the next deal and
    its hands, that one included); while a hand is played, whose title names its game, ``HORSE · 1 more hand · next
    Stud`` or ``HORSE · last hand · next Stud``. None at any other table."""
    settings = table.settings
    left = table.mix_hands_left()
    if not settings.is_mix or left is None:
        return None
    live = table.live
    if live is not None:
        current = short_game_name(live.hand.game, live.hand.stakes.structure, lang=lang)
        following = table.mix_game() if left == 0 else table.mix_upcoming()  # the last hand: the next game's turn
    else:
        coming = table.mix_game()
        current = short_game_name(coming.game, coming.structure, lang=lang) if coming is not None else ""
        following = table.mix_upcoming()
    after = [say(lang, "next {game}", game=short_game_name(following.game, following.structure, lang=lang))
             ] if following is not None else []
    mix = render.MIX_NAMES[settings.game].worded(lang)
    if live is not None:  # the title names the game: only what follows this hand
        count = say(lang, "last hand") if left == 0 else \
            say_n(lang, "{count} more hand", "{count} more hands", count=left)
        return " · ".join([mix, count, *after])
    count = say_n(lang, "{game}: {count} hand left", "{game}: {count} hands left", count=left, game=current)
    return " · ".join([mix, count, *after])


def _tournament_lines(table: Table, lang: Language) -> list[str]:
    """A tournament table's level, the next one and the time left; nothing at a cash table."""
    found = tournament_views.tournament_field(table, lang=lang)
    return [] if found is None else ["", f"**{found.name}**", found.value]


def asked(legal: Legal, *, lang: Language = ENGLISH) -> str:
    """What the player to act is asked, as the table and his DM say it: "call 20, raise or fold", "draw or stand
    pat"."""
    if legal.phase == "drawing":
        return say(lang, "draw or stand pat")
    if legal.can_bring_in:
        if legal.can_raise:
            return say(lang, "bring in {amount} or complete to {to}", amount=legal.bring_in_amount,
                       to=legal.min_raise_to)
        return say(lang, "bring in {amount}", amount=legal.bring_in_amount)
    if legal.can_check:
        return say(lang, "check or bet") if legal.can_raise else say(lang, "check")
    if not legal.can_raise:
        return say(lang, "call {amount} or fold", amount=legal.call_amount)
    if legal.is_completion:
        return say(lang, "call {amount}, complete or fold", amount=legal.call_amount)
    return say(lang, "call {amount}, raise or fold", amount=legal.call_amount)


def _clock_line(deadline: float | None) -> list[str]:
    """The clock on a line of its own ("⏱ in 59 seconds" after a prompt would wrap at phone width)."""
    return [f"⏱ <t:{int(deadline)}:R>"] if deadline else []


def _seat_state(sitting_out: bool, leaving: bool, stack: int, lang: Language) -> str:
    if sitting_out:
        return say(lang, "sitting out")
    if leaving:
        return say(lang, "leaving")
    return say(lang, "no chips") if stack == 0 else say(lang, "in next hand")


def finished_embed(table: Table, screen: Screen) -> discord.Embed:
    """The hand just over: who won what and with what, the hands shown, carried chips; the stacks, with who sits
    out (and who was seated but not dealt in); what comes next (who picks the game: his Pick the game… is under
    it, ``cogs.table._controls``)."""
    hand, users = table.last_hand, table.last_users
    assert hand is not None
    lang = screen.language
    number = table.last_number
    board = _text.board_line(hand, screen.card)
    lines = [say(lang, "Board: {cards}", cards=board)] if board else []  # read first: the hands shown use it
    lines += _text.showdown_lines(hand, users, screen.card, lang=lang)
    sitting_out = {s.user_id for s in table.record.seats if s.sitting_out}
    lines += ["", *(_seat_line(u, s, say(lang, "sitting out") if u in sitting_out else None, lang)
                    for u, s in zip(users, hand.stacks))]
    lines += [_seat_line(s.user_id, s.stack, _seat_state(s.sitting_out, s.leaving, s.stack, lang), lang)
              for s in table.record.seats if s.user_id not in users]  # not in that hand
    mix = mix_line(table, lang=lang)
    lines += ["", mix] if mix else []
    step = table.next()
    if tournament_of(table) is not None:
        after = ""
    elif step.kind == "choose" and step.user is not None:
        after = say(lang, "Next: {who} picks the game.", who=mention(step.user))
    elif step.reason == "paused":
        after = say(lang, "Paused: the host deals again with `/poker table resume`.")
    elif step.reason == "players":
        after = say(lang, "Waiting for a second player with chips.")
    else:
        after = say(lang, "Next hand in a moment.")
    lines += ["", after] if after else []
    lines += _tournament_lines(table, lang)
    lines += list(screen.notices)
    name = _game_name(table, hand, lang)
    title = hand_title(name, number, lang=lang) if number else name
    return discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)


def summary_embed(table: Table, *, lang: Language) -> discord.Embed | None:
    """A finished hand's message once the next one is under way: one line, no buttons."""
    hand, users = table.last_hand, table.last_users
    if hand is None or not hand.is_complete:
        return None
    return discord.Embed(description=_text.summary_line(hand, users, table.last_number, lang=lang),
                         colour=DONE_COLOUR)


def _lobby_embed(table: Table, screen: Screen) -> discord.Embed:
    settings = table.settings
    lang = screen.language
    game: Game | None = settings.single_game
    title = render.table_name(settings, lang=lang)
    seats = table.record.seats
    mix = mix_line(table, lang=lang)
    lines = [*([mix] if mix else []), render.stakes_line(settings, game, None, sep="\n", lang=lang), ""]
    lines += [_seat_line(s.user_id, s.stack, say(lang, "sitting out") if s.sitting_out else None, lang)
              for s in seats] or [say(lang, "No one is seated yet: press **Join**.")]
    low, high = settings.buy_in_range  # said here, not in the opener's text: the stakes and buy-ins once
    places = say(lang, "{seated}/{seats} seats", seated=len(seats), seats=settings.max_seats)
    lines.append(" · ".join([places, say(lang, "buy-ins {low} to {high}", low=low, high=high)])
                 if tournament_of(table) is None else places)
    step = table.next()
    if step.kind == "choose" and step.user is not None:
        lines += ["", say(lang, "**{who} picks the next game**", who=mention(step.user)),
                  *_clock_line(screen.deadline)]
    elif step.reason == "paused":
        lines += ["", say(lang, "Paused: the host deals with `/poker table start`.")]
    elif step.reason == "players":
        lines += ["", say(lang, "Waiting for a second player with chips.")]
    if table.record.carried_pot:
        lines.append(say(lang, "🔁 {amount} carried to the next deal", amount=table.record.carried_pot))
    lines += _tournament_lines(table, lang)
    lines += list(screen.notices)
    return discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)


_CASH_CLOSED = Text("Everyone was cashed out. `/poker create` opens a new table.")
_NEW_TABLE = Text("`/poker create` opens a new table.")  # the last line under a cash table's listed cash-outs
_PAUSING = Text("⏸ Paused by the host: no new hand after this one.")
PAUSING = str(_PAUSING)  # its English (the tests look for it)


def closing_line(table: Table, *, results: bool = False, lang: Language) -> str:
    """What a closed table's message says last: a cash table's cash-outs (with ``results``: they are listed above,
    only what comes next), or how its tournament ended."""
    t = tournament_of(table)
    if t is None:
        return (_NEW_TABLE if results else _CASH_CLOSED).worded(lang)
    if t.state.status == "cancelled":
        return say(lang, "The tournament was cancelled: every buy-in and rebuy was returned.")
    return say(lang, "The tournament is over. `/poker tournament create` opens the next one.")


def closed_embed(last: discord.Embed | None = None, closing: str | None = None, results: Sequence[str] = (), *,
                 lang: Language) -> discord.Embed:
    """The message of a closed table, the one place that says it closed: no buttons left to click. ``last``: the
    summary of the hand it showed (kept first, so the night's list of hands has no gap); ``results``: the night's
    (each cash-out, who pays whom), for everyone; ``closing``: its last line (``closing_line``; None: a cash
    table's, everyone cashed out)."""
    parts = [last.description] if last is not None and last.description else []
    parts += ["\n".join(results)] if results else []
    description = "\n\n".join([*parts, closing if closing is not None else _CASH_CLOSED.worded(lang)])
    return discord.Embed(title=say(lang, "Table closed"), description=description[:EMBED_TEXT], colour=DONE_COLOUR)


def moved_embed(guild_id: int, channel_id: int, message_id: int | None, *, lang: Language) -> discord.Embed:
    """An older table message (after ``/poker table show`` posted a new one): its buttons go, a link stays."""
    link = f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
    return discord.Embed(title=say(lang, "The table moved"),
                         description=say(lang, "It is now [this message]({link}).", link=link), colour=DONE_COLOUR)
