"""The compiled engine: the hot modules of `canasta.rules`, of the heuristic bot and the search
(whose continuations the heuristic plays) and of the learning interface, built with mypyc, used
when current.

The engine is plain Python; `python -m canasta.native build` (run by `scripts/setup`) compiles
its hottest modules (`COMPILED`) from that same source into C extensions under `_native/`,
with a manifest holding a digest of the sources they depend on. At `import canasta`, `install`
puts a finder in front of the import system that loads those extensions instead of the `.py`
files, but only when the manifest's digest matches the sources as they are now (so an edited
engine is never shadowed by an old build) and the build is for this interpreter.
`CANASTA_PURE=1` turns it off. Behaviour is identical either way (a test plays the same seeded
deals in both and compares them); only speed differs.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

#: The modules that are compiled (under `canasta`): legal moves, state transitions, meld rules,
#: scoring, cards and seat views; the heuristic's decisions and the search with its evaluation;
#: the learning interface's ids, stepwise game and tensors.
COMPILED = (
    *(f"rules.{name}" for name in ("cards", "deal", "groups", "hand", "irreducible", "judge", "legal")),
    *(f"rules.{name}" for name in ("melds", "mover", "parts", "public", "resample", "scoring", "solver")),
    *(f"rules.{name}" for name in ("ruleset", "state", "view")),
    *(f"bots.{name}" for name in ("discarding", "evaluation", "heuristic", "melding", "search")),
    *(f"bots.{name}" for name in ("skill", "table")),
    *(f"learning.{name}" for name in ("actions", "game", "observation")),
)
#: The packages that hold compiled modules.
PACKAGES = ("rules", "bots", "learning")
#: The packages whose every source file goes into the digest (the rest: their compiled modules).
WHOLE = ("rules", "learning")

PACKAGE = Path(__file__).resolve().parent
NATIVE = PACKAGE / "_native"
MANIFEST = "manifest.json"


def source_digest(root: Path = PACKAGE) -> str:
    """A digest of the sources a build depends on (names and contents): every file of the engine
    and of the learning interface, and the compiled modules of the bots (the bot protocol, the
    registry and the loading of bots by path stay plain Python)."""
    files = {*(root / f"{name.replace('.', '/')}.py" for name in COMPILED)}
    for package in WHOLE:
        files.update((root / package).glob("*.py"))
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _tag() -> str:
    return f"{sys.implementation.cache_tag}-{importlib.machinery.EXTENSION_SUFFIXES[0]}"


class _Finder:
    """Finds the compiled modules (by full name) in the build directory."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(name)
        return importlib.util.spec_from_file_location(name, file) if file is not None else None


_active = False


def install(native: Path = NATIVE) -> bool:
    """Use the compiled modules if a current build exists (see the module docstring)."""
    global _active
    if _active:
        return True
    if os.environ.get("CANASTA_PURE") or any(f"canasta.{p}" in sys.modules for p in PACKAGES):
        return False
    manifest = _current(native)
    if manifest is None:
        return False
    files = {name: native / file for name, file in manifest["modules"].items()}
    if not all(f.is_file() for f in files.values()):
        return False
    sys.meta_path.insert(0, _Finder(files))
    _active = True
    return True


def active() -> bool:
    """Whether the compiled engine modules are in use."""
    return _active


def engine_line() -> str:
    """Which engine runs, and why not the compiled one when it does not (for a server's log)."""
    if _active:
        return "compiled (mypyc)"
    if os.environ.get("CANASTA_PURE"):
        return "pure Python (CANASTA_PURE is set)"
    return "pure Python (no current compiled build: `canasta compile` makes one, used from the next start)"


def build(native: Path = NATIVE) -> None:
    """Compile `COMPILED` with mypyc into `native` (replacing an older build)."""
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        skip = shutil.ignore_patterns("__pycache__")
        for package in PACKAGES:
            shutil.copytree(PACKAGE / package, work / "canasta" / package, ignore=skip)
        (work / "canasta" / "__init__.py").write_text("", encoding="utf-8")
        sources = [f"canasta/{name.replace('.', '/')}.py" for name in COMPILED]
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *sources], cwd=work, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        modules = {f"canasta.{name}": f"{name}{suffix}" for name in COMPILED}
        staging = Path(tempfile.mkdtemp(dir=native.parent, prefix=".native-"))
        for name, file in modules.items():
            shutil.copy2(work / (name.replace(".", "/") + suffix), staging / file)
        for lib in work.glob(f"*__mypyc{suffix}"):  # the shared runtime of the compiled group
            shutil.copy2(lib, staging / lib.name)
            modules[lib.name.removesuffix(suffix)] = lib.name
        manifest = {"tag": _tag(), "sources": source_digest(), "modules": modules}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        shutil.rmtree(native, ignore_errors=True)
        staging.rename(native)


def _current(native: Path) -> dict[str, Any] | None:
    """The manifest of `native` if it is a build of the sources as they are now, for this
    interpreter."""
    try:
        manifest = json.loads((native / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("tag") != _tag():
        return None
    return manifest if manifest.get("sources") == source_digest() else None


def current(native: Path = NATIVE) -> bool:
    """Whether `native` holds a current build (see `_current`)."""
    return _current(native) is not None
