"""The browser client's pages (`/`, `/rules`, `/t/{id}`, `/t/{id}/replay`) and its static files (`/static`).

A page is its HTML file as it is (the rules page with the engine's numbers filled in, see
`rules_page`); its scripts read the table's id from the address.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from canasta.server.rules_page import rules_page
from canasta.web import STATIC

# Scripts and connections only from this server; styles may be set by the scripts.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, headers=HEADERS)

    return page


async def _rules(request: Request) -> Response:
    return HTMLResponse(rules_page(), headers=HEADERS)


PAGE_ROUTES = [
    Route("/", _page("index.html"), methods=["GET"]),
    Route("/rules", _rules, methods=["GET"]),
    Route("/t/{table_id}", _page("table.html"), methods=["GET"]),
    Route("/t/{table_id}/replay", _page("replay.html"), methods=["GET"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
