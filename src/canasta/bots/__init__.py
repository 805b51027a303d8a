"""Computer players. They see only a seat's view (`canasta.rules.view.SeatView`).

`make_bot(spec)` builds one by name: `random`, the heuristic levels `easy`, `normal`, `hard`,
and `search` (determinized Monte Carlo, e.g. `search:iterations=300` or `search:time=0.5`).
"""

from canasta.bots.base import Bot, RandomBot
from canasta.bots.heuristic import HeuristicBot
from canasta.bots.registry import BOT_NAMES, make_bot
from canasta.bots.search import SearchBot

__all__ = ["BOT_NAMES", "Bot", "HeuristicBot", "RandomBot", "SearchBot", "make_bot"]
