"""A Discord bot for home poker nights: the draw games, dealt right."""
