"""The process's start-up without Discord: the configuration, the bank's address and opening, the scheduler, the
health file."""
