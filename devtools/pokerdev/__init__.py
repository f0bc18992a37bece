"""Tools for running the bot with no Discord at all: the loopback fake Discord (used by the
end-to-end tests, the offline demo and the load benchmark)."""
