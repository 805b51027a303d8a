"""The browser client: plain HTML, CSS and JavaScript modules in `static/`, served as they are."""

from pathlib import Path

STATIC = Path(__file__).parent / "static"
