"""Canasta: an exact rules engine, bots and an online table."""
