"""Fixtures shared by several test modules: the throwaway database servers, and the bot of
docs/writing-a-bot.md written out to a file."""

import re
from pathlib import Path

import pytest

from database_servers import postgres_server, postgres_url, redis_url

__all__ = ["guide_bot", "postgres_server", "postgres_url", "redis_url"]

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "writing-a-bot.md"


@pytest.fixture
def guide_bot(tmp_path: Path) -> Path:
    """The guide's bot, copied from its first Python example into `greedy.py` (class GreedyBot)."""
    code = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)[0]
    assert len(code.splitlines()) <= 25
    path = tmp_path / "greedy.py"
    path.write_text(code, encoding="utf-8")
    return path
