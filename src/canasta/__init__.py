"""Canasta: an exact rules engine, bots and an online table."""

from canasta.native import install as _install_native

_install_native()
