"""Gobelet: a Discord bot for the dice games played at the bar."""
