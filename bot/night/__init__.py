"""The night after the cards: settle-up, player stats, chip graphs, readable hand histories and .phhs files.

Pure functions over finished hands and stored hand records: no discord, no I/O, no clock. Each module has one
job: ``settle`` (the fewest payments), ``money`` (the host's chip value), ``facts`` (what each player did in a
hand, kept by the store), ``stats`` (sums of facts and their lines), ``graph`` (each player's net over a night,
as a PNG; matplotlib is imported only when a graph is drawn), ``story`` (a hand as a few short lines), ``phhs``
(a night as one PHH file).
"""

from .facts import FACT_COLUMNS, PlayerHandFacts, hand_facts
from .graph import HandResult, chip_graph_png, net_series
from .money import ChipValue, money, money_nets, money_settle
from .phhs import split_phhs, write_phhs
from .pots import pot_contenders
from .settle import EXACT_LIMIT, Payment, settle
from .stats import PlayerStats, game_label, games_table, stats_by_game, stats_by_player, stats_lines, total
from .story import hand_story, stakes_text

__all__ = [
    "EXACT_LIMIT", "FACT_COLUMNS",
    "ChipValue", "HandResult", "Payment", "PlayerHandFacts", "PlayerStats",
    "chip_graph_png", "game_label", "games_table", "hand_facts", "hand_story", "money", "money_nets", "money_settle",
    "net_series",
    "pot_contenders", "settle", "split_phhs", "stakes_text", "stats_by_game", "stats_by_player", "stats_lines",
    "total", "write_phhs",
]
