"""Tournaments, pure: no Discord, no database, no clock, no chance."""
