"""The command that installs an extra (`server`, `bot`, `postgres`, `redis`, ...), in the form that
works for how canasta itself was installed: from a checkout (editable), from a file, or by name."""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse


def install_command(extra: str) -> str:
    """E.g. `scripts/setup server` in a checkout's own environment, `pip install -e 'DIR[server]'`
    for another environment of a checkout, `pip install 'canasta[server]'` otherwise."""
    origin = _origin()
    if origin is None:
        return f"pip install 'canasta[{extra}]'"
    url, editable = origin
    if not editable:
        return f"pip install 'canasta[{extra}] @ {url}'"
    checkout = Path(unquote(urlparse(url).path))
    setup = checkout / "scripts" / "setup"
    if setup.is_file() and Path(sys.prefix).resolve() == (checkout / ".venv").resolve():
        return f"{setup} {extra}"
    return f"pip install -e '{checkout}[{extra}]'"


def _origin() -> tuple[str, bool] | None:
    """Where the installed canasta came from (its URL, and whether editable), if not by name."""
    try:
        text = metadata.distribution("canasta").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    data = json.loads(text)
    url = data.get("url")
    if not isinstance(url, str):
        return None
    if "vcs_info" in data:  # pip's form for a repository: git+https://...
        return f"{data['vcs_info'].get('vcs', 'git')}+{url}", False
    return url, bool(data.get("dir_info", {}).get("editable"))
