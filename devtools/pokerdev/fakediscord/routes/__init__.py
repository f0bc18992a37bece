"""The REST routes the fake answers, grouped by what they are about."""
