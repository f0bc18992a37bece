"""/poker create, join, leave, close, sitout, sitin, rebuy, hand, rules, alerts, and the rarely used
/poker table group (show, kick, settings, start, pause, resume, chipvalue, language): the table and its seats.

Each command finds its table once (``Runners.here``, or ``hosted`` for the host's) and asks it; the seats' own
steps are the seat buttons' (``cogs.table._seats``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.content.command_help import COMMAND_HELP, describe
from bot.content.rules_text import rules_page
from bot.i18n import Language, say, say_n
from bot.i18n.languages import LANGUAGES
from bot.poker import Card, parse_cards
from bot.refusal import reason_of
from bot.store import CashOut
from bot.tables import SettingsError, TableError, TableSettings
from bot.tables.settings import MAX_CLOCK, MIN_CLOCK
from cogs import night_views, render
from cogs.render import mention

from ..night_commands import night_of
from ..options import BLINDS_HELP, CHIPS, POSITIVE, RULES_CHOICES, SEATS, STRUCTURE_CHOICES, TABLE_CHOICES
from ..reply import PUBLIC_ANSWER, reply_to
from . import _seats
from ._runners import runners_of

log = logging.getLogger(__name__)

__all__ = ["COMMANDS"]

DRAW_LIMIT_CHOICES = [
    app_commands.Choice(name="Unlimited", value="none"),
    app_commands.Choice(name="Three cards", value="3"),
    app_commands.Choice(name="Three, or four keeping an ace", value="3-or-4-with-ace"),
]
CHOICE_PER_CHOICES = [
    app_commands.Choice(name="Each hand", value="hand"),
    app_commands.Choice(name="Each orbit", value="orbit"),
]
NO_MENTIONS = discord.AllowedMentions.none()
CLOCK = app_commands.Range[int, MIN_CLOCK, MAX_CLOCK]


@app_commands.command(name="create", extras=PUBLIC_ANSWER, description="Open a table in this channel")
@app_commands.choices(game=TABLE_CHOICES, structure=STRUCTURE_CHOICES, draw_limit=DRAW_LIMIT_CHOICES,
                      choice_per=CHOICE_PER_CHOICES)
@app_commands.describe(
    game="The game, a rotation (HORSE, 8-game, yours) or dealer's choice", **BLINDS_HELP,
    structure="Betting structure (default: each game's own)", ante="Ante from every player",
    min_buy_in="Smallest buy-in in chips (default 20 big blinds)",
    max_buy_in="Largest buy-in in chips (default 100 big blinds)", seats="Seats at the table",
    clock="Seconds each player has to act (default 60)", jokers="Assassin: add two jokers that play as twos",
    draw_limit="Five Card Draw and Assassin: how many cards may be drawn",
    choice_per="Dealer's choice: the button picks the game for each hand (default) or for an orbit",
    dealer_picks_structure="Dealer's choice: the button may also pick the betting structure",
    **describe("poker create"),
)
async def create(
    interaction: discord.Interaction, game: str, small_blind: CHIPS, big_blind: CHIPS,
    structure: str | None = None, ante: CHIPS = 0, min_buy_in: POSITIVE | None = None,
    max_buy_in: POSITIVE | None = None, seats: SEATS | None = None,
    clock: CLOCK = 60, jokers: bool = False, draw_limit: str = "none",
    choice_per: str = "hand", dealer_picks_structure: bool = False, chip_value: str | None = None,
    games: str | None = None, hands_per_game: app_commands.Range[int, 1, 1000] | None = None,
    stud_ante: CHIPS | None = None, bring_in: CHIPS | None = None, open_pair: bool = False,
) -> None:
    """/poker create"""
    reply = reply_to(interaction)
    runners = runners_of(interaction)
    try:
        settings = TableSettings(
            game=game, small_blind=small_blind, big_blind=big_blind, structure=structure,  # type: ignore[arg-type]
            ante=ante, min_buy_in=min_buy_in, max_buy_in=max_buy_in, seats=seats, clock=clock, jokers=jokers,
            draw_limit=draw_limit, choice_per=choice_per,  # type: ignore[arg-type]
            dealer_picks_structure=dealer_picks_structure, chip_value=chip_value, game_list=games,
            hands_per_game=hands_per_game, stud_ante=stud_ante, bring_in=bring_in, open_pair=open_pair,
        )
    except SettingsError as error:
        raise TableError(reason_of(error)) from None
    assert interaction.guild_id is not None and interaction.channel_id is not None
    table = await runners.bot.tables.create(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                            settings)
    await table.pause()  # nothing is dealt until the host starts the game
    runner = runners.of(table)
    await reply.send(  # never raises: a lost answer must not keep the table from being posted
        opener_text(settings, lang=runner.language), ephemeral=False)
    runner.presenter.keep_opener(interaction)  # its instructions go once the first hand is dealt
    await runner.dealer.publish()


def opener_text(settings: TableSettings, *, lang: Language) -> str:
    """What /poker create says above the table, in the table's language ``lang``: what to do (the stakes and
    buy-ins are the table message's)."""
    value = settings.money
    if value is None:
        return say(lang, "Table open: press **Join** on the table (or `/poker join`), then the host deals with "
                         "`/poker table start`.")
    return say(lang, "Table open: press **Join** on the table (or `/poker join`), then the host deals with "
                     "`/poker table start`. {chip_value}.", chip_value=value.describe(lang=lang))


@app_commands.command(name="join", description="Sit down at this channel's table")
@app_commands.describe(buy_in="Chips to bring (default: as many as the table allows and you have)")
async def join(interaction: discord.Interaction, buy_in: POSITIVE | None = None) -> None:
    """/poker join"""
    reply = reply_to(interaction)
    await _seats.join(runners_of(interaction).here(reply), reply, buy_in)


@app_commands.command(name="leave", description="Leave the table (cashed out now, or at the end of your hand)")
async def leave(interaction: discord.Interaction) -> None:
    """/poker leave"""
    reply = reply_to(interaction)
    await _seats.leave(runners_of(interaction).here(reply), reply)


@app_commands.command(name="close", description="Close the table and cash everyone out (host)")
async def close(interaction: discord.Interaction) -> None:
    """/poker close: the table message says "Table closed" with the night's results; the host is answered
    privately (the results posted in the channel instead if that message cannot be changed)."""
    reply = reply_to(interaction)
    runners = runners_of(interaction)
    runner = runners.hosted(reply)
    table_lang = runner.language  # the results are everyone's; the answer is the host's
    await reply.defer_thinking(ephemeral=True)
    closed = await runners.close(runner.table,
                                 results=lambda cashes: night_results(interaction, cashes, lang=table_lang))
    reply.private = None  # the table is gone: this answer is no private message at it
    if not closed.shown:
        await runner.presenter.post("\n".join([say(table_lang, "Table closed."), *closed.results]))
    await reply.send(
        say(reply.language, "Done: everyone is cashed out; the table message shows the night's results to everyone.")
        if closed.shown else
        say(reply.language, "Done: everyone is cashed out. The table message could not be changed, so the night's "
                            "results are posted in the channel."))


async def night_results(interaction: discord.Interaction, cashes: list[CashOut], *, lang: Language) -> list[str]:
    """A close's results for everyone, in the table's language ``lang``: each cash-out with the player's result for
    the night, and who pays whom."""
    settle_up: list[str] = []
    try:
        night = await night_of(interaction)
        nets = night.nets
        if nets:
            settle_up = ["", say(lang, "Who pays whom:"),
                         *night_views.payment_lines(night, night.payments(), lang=lang)]
    except Exception:  # the cash-outs are said whatever the night's results do
        log.warning("could not read the night's results after a close", exc_info=True)
        nets = {}
    lines: list[str] = []
    for c in cashes:
        parts = [say(lang, "{member} cashes out {amount}", member=mention(c.user_id), amount=c.amount)]
        net = nets.get(c.user_id)  # the night's: "tonight" made a line wrap at phone width
        if net is not None:
            parts.append(say(lang, "won {amount}", amount=net) if net > 0 else
                         say(lang, "lost {amount}", amount=-net) if net < 0 else say(lang, "even"))
        lines.append(" · ".join(parts))
    return lines + settle_up


@app_commands.command(name="sitout", description="Sit out from the next hand")
async def sitout(interaction: discord.Interaction) -> None:
    """/poker sitout"""
    reply = reply_to(interaction)
    await _seats.sit_out(runners_of(interaction).here(reply), reply)


@app_commands.command(name="sitin", description="Come back into the game")
async def sitin(interaction: discord.Interaction) -> None:
    """/poker sitin"""
    reply = reply_to(interaction)
    await _seats.sit_in(runners_of(interaction).here(reply), reply)


@app_commands.command(name="rebuy", description="Add chips to your stack between hands")
@app_commands.describe(**describe("poker rebuy"))
async def rebuy(interaction: discord.Interaction, amount: POSITIVE) -> None:
    """/poker rebuy"""
    reply = reply_to(interaction)
    await _seats.rebuy(runners_of(interaction).here(reply), reply, amount)


@app_commands.command(name="hand", description="Show your cards (only you see them)")
async def hand(interaction: discord.Interaction) -> None:
    """/poker hand"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).here(reply)
    await reply.send(runner.own_cards.my_hand(reply.user, lang=reply.language))


@app_commands.command(name="rules", description="The rules of a game")
@app_commands.choices(game=RULES_CHOICES)
@app_commands.describe(**describe("poker rules"))
async def rules(interaction: discord.Interaction, game: str | None = None) -> None:
    """/poker rules"""
    reply = reply_to(interaction)
    card = runners_of(interaction).card
    page = rules_page(game, card_format=lambda text: " ".join(card(c) for c in parse_cards(text)),
                      lang=reply.language)
    embed = discord.Embed(title=page.title, description=page.summary, colour=discord.Colour.dark_green())
    for section in page.sections:
        embed.add_field(name=section.title, value=section.body, inline=False)
    await reply.send(embed=embed)


@app_commands.command(name="alerts", description="Turn on or off the DM you get when your turn waits for you")
@app_commands.describe(on="On: a DM when your turn has waited a few seconds, and before your clock runs out")
async def alerts(interaction: discord.Interaction, on: bool) -> None:
    """/poker alerts"""
    reply = reply_to(interaction)
    assert interaction.guild_id is not None
    await runners_of(interaction).bot.store.set_turn_alerts(interaction.guild_id, interaction.user.id, on)
    lang = reply.language
    await reply.send(
        say(lang, "Turn alerts on: I DM you when your turn has waited a few seconds, and before your clock runs out.")
        if on else say(lang, "Turn alerts off: the table message still shows your turn and your clock."))


@app_commands.command(name="cards", description="Your own cards in four colours (♦ blue, ♣ green) or two")
@app_commands.describe(colours="four: ♠ black, ♥ red, ♦ blue, ♣ green (the default); two: red and black")
@app_commands.choices(colours=[app_commands.Choice(name="two colours", value="two"),  # the values scripts type
                               app_commands.Choice(name="four colours", value="four")])
async def cards(interaction: discord.Interaction, colours: app_commands.Choice[str]) -> None:
    """/poker cards"""
    reply = reply_to(interaction)
    assert interaction.guild_id is not None
    runners = runners_of(interaction)
    four = colours.value == "four"
    await runners.colours.choose(interaction.guild_id, interaction.user.id, four_colours=four)
    sample = " ".join(runners.colours.card(Card(code), four_colours=four) for code in ("As", "Kh", "Qd", "Jc"))
    lang = reply.language
    await reply.send("\n".join([
        say(lang, "Your cards in four colours: {cards}", cards=sample) if four
        else say(lang, "Your cards in two colours: {cards}", cards=sample),
        say(lang, "Your cards (your private message, the draw, your DMs) are drawn so from the next time they are "
                  "shown; the table message is everyone's and stays in four colours.")]))


# ------------------------------------------------------------------ /poker table: the rarely used commands
# Discord allows 25 subcommands and groups in /poker; these eight share one entry.

table_group = app_commands.Group(name="table", description="The table: show it again, its settings, chip value, "
                                 "language; kick, start, pause, resume (host)")


@table_group.command(name="show", description=COMMAND_HELP["poker table show"])
async def table_show(interaction: discord.Interaction) -> None:
    """/poker table show"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).here(reply)
    old = runner.table.message_id
    await runner.table.remember_message(None)
    await reply.send(say(reply.language, "Here is the table:"))
    await runner.dealer.publish()
    if old is not None:
        await runner.retire(old)


@table_group.command(name="kick", description="Remove a player from the table (host)")
@app_commands.describe(**describe("poker table kick"))
async def kick(interaction: discord.Interaction, member: discord.User) -> None:
    """/poker table kick: any user, so that a player who left the server can be removed (cashed out)."""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    cash, outcome = await runner.table.kick(member.id)
    lang = reply.language
    await reply.send(say(lang, "{member} leaves the table; cashed out now.", member=member.mention) if cash is not None
                     else say(lang, "{member} leaves the table; cashed out at the end of this hand.",
                              member=member.mention),
                     allowed_mentions=discord.AllowedMentions.none())
    runner.presenter.note(say(runner.language, "{member} is removed by the host", member=mention(member.id)))
    await _seats.after_leave(runner, outcome)


@table_group.command(name="settings", description="Show this table's settings")
async def settings(interaction: discord.Interaction) -> None:
    """/poker table settings"""
    reply = reply_to(interaction)
    table = runners_of(interaction).here(reply).table
    await reply.send(settings_text(table.settings, table.record.host_id, lang=reply.language),
                     allowed_mentions=NO_MENTIONS)


def settings_text(s: TableSettings, host: int, *, lang: Language) -> str:
    """/poker table settings: what the table deals, its stakes, buy-ins, seats and clock, and its host."""
    low, high = s.buy_in_range
    game = [render.table_name(s, lang=lang) if not s.is_dealers_choice else _dealers_choice(s, lang)]
    if s.is_mix:
        game.append(say_n(lang, "{count} hand per game", "{count} hands per game", count=s.hands_per_game)
                    if s.hands_per_game else say(lang, "each game one orbit"))
    numbers = [say(lang, "Buy-ins {low} to {high}", low=low, high=high),
               say_n(lang, "{count} seat", "{count} seats", count=s.max_seats),
               say(lang, "clock {seconds}s", seconds=str(s.clock))]  # written ungrouped
    return "\n".join([f"**{' · '.join(game)}**", render.stakes_line(s, s.single_game, sep="\n", lang=lang),
                      " · ".join(numbers), say(lang, "Host: {member}", member=mention(host))])


def _dealers_choice(s: TableSettings, lang: Language) -> str:
    if s.choice_per == "orbit":
        return (say(lang, "Dealer's choice (per orbit, the dealer also picks the structure)")
                if s.dealer_picks_structure else say(lang, "Dealer's choice (per orbit)"))
    return (say(lang, "Dealer's choice (per hand, the dealer also picks the structure)")
            if s.dealer_picks_structure else say(lang, "Dealer's choice (per hand)"))


@table_group.command(name="start", extras=PUBLIC_ANSWER, description="Start dealing (host)")
async def start(interaction: discord.Interaction) -> None:
    """/poker table start"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    await runner.table.start()
    await reply.send(say(runner.language, "Shuffle up and deal!"), ephemeral=False)  # lost or not, it deals
    runner.presenter.keep_opener(interaction)  # gone with the deal: the table message says it
    await runner.dealer.deal()


@table_group.command(name="pause", description="Stop dealing after this hand (host)")
async def pause(interaction: discord.Interaction) -> None:
    """/poker table pause"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    await runner.table.pause()
    await reply.send(say(reply.language, "The table pauses after this hand."))
    await runner.dealer.publish()  # the table message says it is paused, for everyone


@table_group.command(name="resume", description="Deal again (host)")
async def resume(interaction: discord.Interaction) -> None:
    """/poker table resume"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    await runner.table.resume()
    await reply.send(say(reply.language, "Dealing resumes."))
    if runner.table.live is None:
        runner.dealer.schedule_deal(0)
    else:
        await runner.dealer.publish()  # its "Paused by the host" goes


@table_group.command(name="chipvalue", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker table chipvalue"])
@app_commands.describe(**describe("poker table chipvalue"))
async def chipvalue(interaction: discord.Interaction, value: str | None = None) -> None:
    """/poker table chipvalue"""
    reply = reply_to(interaction)
    runners = runners_of(interaction)
    if value is None:
        table = runners.here(reply).table
        await reply.send(night_views.chip_value_text(table.settings, lang=reply.language))  # the asker's alone
        return
    runner = runners.hosted(reply)
    off = value.strip().lower() in night_views.NO_CHIP_VALUE
    new = await runner.table.update_settings(chip_value=None if off else value)
    await reply.send(night_views.chip_value_text(new, changed=True, lang=runner.language), ephemeral=False)


LANGUAGE_CHOICES = [app_commands.Choice(name="The server's language", value="server"),
                    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items())]


@table_group.command(name="language", extras=PUBLIC_ANSWER,
                     description="The language everyone at the table reads (host); your own answers are in yours")
@app_commands.describe(language="The table message, its buttons and the channel's posts in this language")
@app_commands.choices(language=LANGUAGE_CHOICES)
async def language(interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
    """/poker table language"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    await runner.table.set_language(None if language.value == "server" else language.value)
    lang = runner.language
    await reply.send(say(lang, "The table reads {language} now; each player's own answers stay in his language.",
                         language=LANGUAGES.get(lang.code, lang.code)), ephemeral=False)
    await runner.dealer.publish()  # the table message in its new language


COMMANDS: tuple[app_commands.Command[Any, ..., None] | app_commands.Group, ...] = (
    create, join, leave, close, sitout, sitin, rebuy, hand, rules, alerts, cards, table_group)
