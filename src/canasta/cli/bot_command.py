"""`canasta bot URL --bot SPEC`: a bot of one's own (or a built-in one) plays a seat of a live
table served by any process, through the public protocol."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from typing import Any

from canasta.bots.loading import load_bot
from canasta.cli.arguments import seed_number, whole
from canasta.cli.engine_commands import _fail
from canasta.cli.play_text import LANGUAGES, language_from
from canasta.extras import install_command

NEEDS_EXTRA = {
    "en": "canasta bot needs the websockets library ({error}): {command}",
    "ru": "для canasta bot нужна библиотека websockets ({error}): {command}",
    "es": "canasta bot necesita la biblioteca websockets ({error}): {command}",
    "pt": "canasta bot precisa da biblioteca websockets ({error}): {command}",
    "de": "canasta bot braucht die Bibliothek websockets ({error}): {command}",
}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bot",
        help="play a seat of a live table with a bot, over the network",
        description="Takes a seat at the table of URL (the link the table's creator shares; a rejoin "
        "link, ending in #seat=TOKEN, gives back a seat taken before) and plays it with the bot until "
        "the game is over, making the connection again when it drops.",
    )
    p.add_argument("url", metavar="URL", help="the table's link, http://HOST/t/TABLE, or a rejoin link")
    p.add_argument("--bot", required=True, metavar="SPEC",
                   help="a built-in bot (random, easy, normal, hard, search:time=0.5) or a class of your "
                   "own: path/to/mybot.py:MyBot or package.module:MyBot")
    p.add_argument("--seat", type=whole(0), metavar="N",
                   help="the seat to take, from 0; the table says which it has (default: the first free one)")
    p.add_argument("--name", help="the name the table shows for the seat (default: the bot's name)")
    p.add_argument("--seed", type=seed_number, help="seed of the bot's random generator (default: the OS's)")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="the language of what is said: en, ru, es, pt or de (default: the language LC_ALL, "
                   "LC_MESSAGES or LANG names, else en)")
    p.set_defaults(run=run_bot)


def run_bot(args: argparse.Namespace) -> int:
    lang = args.lang or language_from(os.environ)
    # the WebSocket client is the `bot` extra's: imported here, so that other commands need none
    try:
        from canasta.remote import LinkError, RemoteError, SeatPlayer, parse_link
        from canasta.remote.texts import TEXTS
    except ImportError as exc:
        return _fail(NEEDS_EXTRA[lang].format(error=exc, command=install_command("bot")))
    try:
        link = parse_link(args.url)
    except LinkError:
        return _fail(TEXTS[lang]["bad_link"].format(link=args.url))
    try:
        bot = load_bot(args.bot)
    except ValueError as exc:
        return _fail(str(exc))
    player = SeatPlayer(
        link, bot, args.bot, seat=args.seat, name=args.name, rng=random.Random(args.seed), lang=lang,
        say=lambda line: print(line, flush=True),
    )
    try:
        asyncio.run(player.run())
    except RemoteError as exc:
        print(f"canasta: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0
