"""discord.py extensions: thin adapters over bot.tables and bot.store."""
