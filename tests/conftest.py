"""Fixtures shared by several test modules: the throwaway database servers."""

from database_servers import postgres_server, postgres_url, redis_url

__all__ = ["postgres_server", "postgres_url", "redis_url"]
