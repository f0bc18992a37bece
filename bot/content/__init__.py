"""What the bot shows that is not a table: the house rules' text, the commands' help and the card faces."""
