"""Computer players. They see only a seat's view (`canasta.rules.view.SeatView`)."""

from canasta.bots.base import Bot, RandomBot
from canasta.bots.registry import BOT_NAMES, make_bot

__all__ = ["BOT_NAMES", "Bot", "RandomBot", "make_bot"]
