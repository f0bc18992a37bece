"""The options slash commands share: the game and structure choices, and the ranges of chips and seats that
Discord's client enforces (the table layer checks them again; the limits are ``bot.tables.settings``'s)."""

from __future__ import annotations

from discord import app_commands

from bot.poker import DEALERS_CHOICE, FAMILIES
from bot.tables.settings import MAX_BUY_IN, MAX_SEATS, MAX_STAKE, MIN_SEATS, TABLE_GAMES

from .render import STRUCTURE_NAMES

# The games, grouped as the families (draw, flop, stud) so that the list reads on a phone.
GAME_CHOICES = [app_commands.Choice(name=g.name[:100], value=g.id)
                for family in FAMILIES for g in TABLE_GAMES.values() if g.family == family]
MIX_CHOICES = [
    app_commands.Choice(name="HORSE (rotation)", value="horse"),
    app_commands.Choice(name="8-Game mix (rotation)", value="eight-game"),
    app_commands.Choice(name="Your rotation (list them in games:)", value="rotation"),
    app_commands.Choice(name="Dealer's choice", value=DEALERS_CHOICE),
]
TABLE_CHOICES = GAME_CHOICES + MIX_CHOICES  # what a table deals: a game, a rotation or dealer's choice (at most 25)
STRUCTURE_CHOICES = [app_commands.Choice(name=str(n), value=v) for v, n in STRUCTURE_NAMES.items()]
CHIPS = app_commands.Range[int, 0, MAX_STAKE]  # a blind or an ante
POSITIVE = app_commands.Range[int, 1, MAX_BUY_IN]  # a buy-in
SEATS = app_commands.Range[int, MIN_SEATS, MAX_SEATS]

# What the blinds are, for the commands that set them (their own names said nothing: "Small blind").
BLINDS_HELP = {
    "small_blind": "Chips the first player left of the button puts in before the cards (0: antes only)",
    "big_blind": "Chips the second player left of the button puts in; the bets are sized from it",
}
PLAN_CHOICES = [c for c in TABLE_CHOICES if c.value != "rotation"]  # a planned night names no list of games
RULES_CHOICES = GAME_CHOICES + [c for c in MIX_CHOICES if c.value != DEALERS_CHOICE]  # /poker rules: the mixes too
