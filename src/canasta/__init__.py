"""Canasta: an exact rules engine, bots and an online table."""

from canasta.native import install as _install_native

#: The package's version (pyproject.toml reads it from here).
__version__ = "0.1.0"

_install_native()
