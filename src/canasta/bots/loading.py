"""Bots of one's own, named by where their class is: `path/to/mybot.py:MyBot`, `mybot:MyBot` or
`package.module:MyBot` (modules are found in the current directory too, as `python -m` finds them).

Only the command line loads them (`canasta tournament`, `canasta bot`): the server takes the
listed levels alone, so no request can make it run code.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import cast

from canasta.bots.base import Bot
from canasta.bots.registry import BOT_NAMES, make_bot


def is_external(spec: str) -> bool:
    """Whether a spec names a class of one's own (`where:Class`) rather than a built-in bot."""
    where, colon, _ = spec.strip().partition(":")
    return bool(colon) and where.strip() not in BOT_NAMES


def load_bot(spec: str) -> Bot:
    """A built-in bot (`make_bot`) or an instance of a class of one's own, made without arguments.

    Raises ValueError with a clear message when the file, module or class cannot be had, or when
    the class has no `choose(view, rng)`.
    """
    if not is_external(spec):
        return make_bot(spec)
    where, _, name = spec.strip().partition(":")
    name = name.strip()
    if not name.isidentifier():
        raise ValueError(f"{spec!r}: after the colon comes a class name, e.g. {where}:MyBot")
    module = _module(where.strip(), spec)
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        raise ValueError(f"{spec!r}: {where} has no class {name}")
    try:
        bot = cls()
    except Exception as exc:  # the user's own code: say what went wrong and where
        raise ValueError(f"{spec!r}: {name}() failed: {exc!r}") from None
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"{spec!r}: {name} has no choose(view, rng) method")
    if not isinstance(getattr(bot, "name", None), str):
        try:
            bot.name = name
        except AttributeError:
            raise ValueError(f"{spec!r}: {name} needs a `name` (a string)") from None
    return cast(Bot, bot)


def _module(where: str, spec: str) -> ModuleType:
    if where.endswith(".py"):
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise ValueError(f"{spec!r}: no file {where}")
        key = "canasta_user_bot_" + hashlib.sha1(str(path).encode()).hexdigest()[:16]
        loaded = sys.modules.get(key)
        if loaded is not None:
            return loaded
        found = importlib.util.spec_from_file_location(key, path)
        if found is None or found.loader is None:
            raise ValueError(f"{spec!r}: {where} cannot be imported")
        module = importlib.util.module_from_spec(found)
        sys.modules[key] = module
        try:
            found.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[key]
            raise ValueError(f"{spec!r}: importing {where} failed: {exc!r}") from None
        return module
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as exc:
        if exc.name is not None and f"{where}.".startswith(f"{exc.name}."):
            raise ValueError(f"{spec!r}: no module {exc.name} here (in {os.getcwd()}) "
                             "or among the installed ones") from None
        raise ValueError(f"{spec!r}: importing {where} failed: {exc!r}") from None
    except Exception as exc:
        raise ValueError(f"{spec!r}: importing {where} failed: {exc!r}") from None
