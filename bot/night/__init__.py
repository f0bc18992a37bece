"""The night after the cards: settle-up, player stats, chip graphs, readable hand histories and .phhs files.

Pure functions over finished hands and stored hand records: no discord, no I/O, no clock.
"""
