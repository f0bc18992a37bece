"""Descriptions of slash-command options (and of the commands whose description is long), for
``app_commands.describe``.

Pure: no discord. Keys are (command path, option name), the path as a member
types it without the slash: ``("poker table kick", "member")``. Discord allows 1 to
100 characters for each. Use them as
``@app_commands.describe(**describe("poker table kick"))``.
"""

from __future__ import annotations

from typing import Final

OPTION_HELP: Final[dict[tuple[str, str], str]] = {
    # The table's and the bank's options (discord.py would show "…" for an option without one).
    ("poker table kick", "member"): "The player to remove; he is cashed out now, or when his hand ends",
    ("poker rebuy", "amount"): "Chips to add from your balance, up to the table's largest buy-in",
    ("poker rules", "game"): "The game to explain in full (leave empty for a list of every game)",
    ("poker history", "count"): "How many of the latest hands to show, 1 to 10 (default 3)",
    ("chips balance", "member"): "Whose chips to show (default: yours)",
    ("chips give", "member"): "Who gets the chips",
    ("chips give", "amount"): "Chips to give from your own balance",
    ("chips ledger", "member"): "Whose ledger to show (default: yours; a banker may look at anyone's)",
    ("chips ledger", "page"): "Page to show, newest movements first (default 1)",
    ("chips grant", "member"): "Who gets the new chips",
    ("chips grant", "amount"): "Chips to create and add to the member's balance",
    ("chips remove", "member"): "Whose chips to take away",
    ("chips remove", "amount"): "Chips to take from the member's balance",
    ("chips banker role", "role"): "The role that may grant and remove chips (leave empty to clear it)",
    # The night after the cards: nights (sessions), settle-up, graphs, stats, exports, leaderboards.
    ("poker stats", "member"): "Whose stats to show (default: yours)",
    ("poker stats", "game"): "Only this game (default: every game, and each one apart)",
    ("poker stats", "session"): "Only a night: its number, \"current\" or \"since 2026-11-01\" (default: all time)",
    ("chips results", "session"):
        "The night: its number or \"since 2026-11-01\" (default: this channel's current or last)",
    ("chips settle", "session"):
        "The night to settle: its number or \"since 2026-11-01\" (default: this channel's last)",
    ("chips graph", "session"): "The night to draw: its number or \"since 2026-11-01\" (default: this channel's last)",
    ("chips graph", "member"): "Draw only this player's line (default: everyone who played)",
    ("poker session export", "session"):
        "The night as one .phhs file: its number or \"since 2026-11-01\" (default: this channel's last)",
    ("poker create", "games"): 'game:rotation: the games in order, e.g. "holdem:no-limit, omaha:pot-limit, razz"',
    ("poker create", "hands_per_game"): "Rotations: hands of each game before the next (default: one orbit)",
    ("poker create", "stud_ante"): "Stud games: each player's ante (default: a fifth of the big blind, at least 1)",
    ("poker create", "open_pair"): "Fixed-limit stud: an open pair on 4th street lets anyone bet the big bet",
    ("poker create", "bring_in"): "Stud games: the low card's forced bet (default: a quarter of the big blind)",
    ("poker tournament create", "games"):
        'game:rotation: the games in order, e.g. "holdem:no-limit, omaha:pot-limit, razz"',
    ("poker tournament create", "hands_per_game"):
        "Rotations: hands of each game before the next (default: one orbit)",
    ("poker create", "chip_value"):
        "What chips are worth, e.g. \"100 chips = $1\" (amounts are then shown as money too)",
    ("poker table chipvalue", "value"):
        "E.g. \"100 chips = $1.00\" or \"1 = 0.05€\"; \"off\" clears it (empty: show it)",
    ("chips leaderboard", "period"): "Rank by chips won at tables tonight, this month or all time (default: balances)",
    # Tournaments.
    ("poker tournament create", "game"): "The game, a rotation (HORSE, 8-game, yours) or dealer's choice",
    ("poker tournament create", "buy_in"): "Chips each player pays from his balance into the prize pool",
    ("poker tournament create", "starting_chips"): "Tournament chips each player starts with",
    ("poker tournament create", "level_minutes"): "Minutes each blind level lasts",
    ("poker tournament create", "levels"):
        "Your levels, e.g. \"10/20, 15/30, break 10, 25/50/5\", or a number of the standard rise (default)",
    ("poker tournament create", "payouts"):
        "Prize shares in percent, e.g. \"65 35\" (default: by the number of players)",
    ("poker tournament create", "late_registration_levels"): "Levels during which players may still join (default: 0)",
    ("poker tournament create", "rebuys"):
        "Levels during which a player who goes broke may buy in again (default 0: no rebuys)",
    ("poker tournament create", "structure"): "Betting structure (default: each game's own)",
    # The moves typed, the buttons' twins.
    ("poker bet", "amount"): "Your total bet this round, in chips (as the buttons mean it)",
    ("poker raise", "amount"): "The total to raise to this round (not just the extra), in chips",
    ("poker draw", "cards"): "The cards to throw, e.g. \"Ks 9d\" (pick them from your hand)",
    ("chips starting_balance", "amount"):
        "Chips a member's account opens with from now on (leave empty to show it)",
    ("poker draw", "twos"): "Assassin: show your thrown twos face up for one extra card, or throw them face down",
}

COMMAND_HELP: Final[dict[str, str]] = {
    # Commands' own descriptions (1 to 100 characters too).
    "poker session new": "Start a new night at this table (results, settle-up and stats count from here)",
    "poker table chipvalue": "What chips are worth at this table, shown beside chip amounts (the host sets it)",
    "chips results": "Each player's net for a night (default: this channel's current or last one)",
    "poker stats": "Hands, wins, VPIP, draws and net for a player, per game and in total",
    "poker session export": "Every hand of a night as one hand-history file (.phhs)",
    "chips settle": "Each player's net for the night and the fewest payments that settle it",
    "chips graph": "A picture of each player's chips over the night",
    "chips starting_balance": "The chips a new member's account opens with (Manage Server to change it)",
    "poker tournament create": "Open a tournament at this table: one buy-in, blinds rising on a clock",
    "poker tournament start": "Start the tournament: the blind clock starts and the cards are dealt (host)",
    "poker tournament pause": "Stop the tournament's clock after this hand (host)",
    "poker tournament resume": "Run the tournament's clock again and deal (host)",
    "poker tournament cancel": "Call the tournament off: every buy-in and rebuy is returned (host)",
    "poker tournament status": "The tournament's level, players, prize pool and standings",
    "poker fold": "Fold your hand (your turn)",
    "poker check": "Check: bet nothing when there is no bet to call (your turn)",
    "poker call": "Match the bet you face (your turn)",
    "poker bet": "Bet (or raise) to a total for this round, as the Amount… button does (your turn)",
    "poker raise": "Raise (or bet) to a total for this round, as the Amount… button does (your turn)",
    "poker allin": "Put all your chips in (your turn)",
    "poker draw": "Throw the cards you name and get new ones (your draw)",
    "poker pat": "Stand pat: keep all your cards (your draw)",
    # /poker table holds the commands used rarely (Discord allows 25 entries in /poker).
    "poker table show": "Post the table message again (when it scrolled away or its buttons failed)",
}


def describe(command: str) -> dict[str, str]:
    """The descriptions of one command's options, by option name (``describe("chips give")``)."""
    return {option: text for (path, option), text in OPTION_HELP.items() if path == command}
