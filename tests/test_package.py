"""The package as an installer gets it: the sdist and the wheel build, their metadata checks, and
the wheel installed into clean virtual environments (with each server-side extra at the newest
and at the lowest versions it allows) runs `--version`, `replay`, `selfplay` and `serve`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import canasta
from process_support import DIRECT, free_port, server

ROOT = Path(__file__).resolve().parent.parent
#: The extras a player or an operator installs (the research and build extras are tested elsewhere).
EXTRAS = ("server", "bot", "postgres", "redis")


def sh(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=600,
                          cwd=cwd, check=False)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    sh(sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", out, ROOT)
    return out


def wheel_of(dist: Path) -> Path:
    [wheel] = dist.glob("canasta-*.whl")
    return wheel


def test_the_sdist_and_the_wheel_have_complete_metadata(dist: Path) -> None:
    version = canasta.__version__
    assert sorted(p.name for p in dist.iterdir()) == [
        f"canasta-{version}-py3-none-any.whl", f"canasta-{version}.tar.gz"]
    assert "PASSED" in sh(sys.executable, "-m", "twine", "check", "--strict", *dist.iterdir()).stdout
    with zipfile.ZipFile(wheel_of(dist)) as wheel:
        names = wheel.namelist()
        meta = Parser().parsestr(wheel.read(f"canasta-{version}.dist-info/METADATA").decode())
    assert meta["Version"] == version and meta["License-Expression"] == "MIT"
    assert meta["License-File"] == "LICENSE" and f"canasta-{version}.dist-info/licenses/LICENSE" in names
    assert "The Canasta project authors" in meta["Author"]
    assert "canasta" in meta["Keywords"] and len(meta.get_all("Classifier")) >= 10
    assert meta["Description-Content-Type"] == "text/markdown"
    description = meta.get_payload()
    assert description.startswith("# canasta") and ".venv/bin" not in description
    assert "starlette>=1.7; extra == 'server'" in meta.get_all("Requires-Dist")
    assert "canasta/py.typed" in names and "canasta/web/static/index.html" in names
    assert "canasta/data/imitation-classic-4.npz" in names  # the imitation baseline's weights
    assert not [n for n in names if n.startswith("canasta/_native") or n.endswith(".so")]
    with tarfile.open(dist / f"canasta-{version}.tar.gz") as sdist:
        files = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"LICENSE", "CHANGELOG.md", "docs/package.md", "pyproject.toml"} <= files
    assert not [n for n in files if n.startswith("src/canasta/_native")]


def test_the_version_is_in_one_place() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/canasta/__init__.py"
    assert f"## {canasta.__version__} " in (ROOT / "CHANGELOG.md").read_text()
    assert "The Canasta project authors" in (ROOT / "LICENSE").read_text()


def lowest_pins() -> list[str]:
    """Each requirement of the extras at the lowest version it allows (`starlette==1.7`)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    pins = []
    for extra in EXTRAS:
        for requirement in extras[extra]:
            name, low = re.fullmatch(r"([\w\-\[\],]+)>=([\w.]+)", requirement).groups()  # type: ignore[union-attr]
            pins.append(f"{name}=={low}")
    return pins


@pytest.mark.parametrize("versions", ["newest", "lowest"])
def test_the_wheel_installs_and_runs_in_a_clean_environment(dist: Path, tmp_path: Path,
                                                            versions: str) -> None:
    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python, program = env / "bin" / "python", env / "bin" / "canasta"
    wheel = wheel_of(dist)
    sh(python, "-m", "pip", "install", "--quiet", wheel)
    assert sh(program, "--version").stdout == f"canasta {canasta.__version__}\n"
    # without the extra, `serve` names the command that installs it, for a wheel from a file
    missing = subprocess.run([program, "serve"], capture_output=True, text=True, timeout=60, check=False)
    assert missing.returncode == 2, missing.stderr
    assert f"pip install 'canasta[server] @ {wheel.as_uri()}'" in missing.stderr

    pins = lowest_pins() if versions == "lowest" else []
    sh(python, "-m", "pip", "install", "--quiet", f"canasta[{','.join(EXTRAS)}] @ {wheel.as_uri()}", *pins)
    if pins:
        listed = {p["name"].lower(): p["version"] for p in json.loads(
            sh(python, "-m", "pip", "list", "--format", "json").stdout)}
        assert listed["starlette"] == "1.7" or listed["starlette"].startswith("1.7.")
    record = tmp_path / "game.json"
    record.write_text(sh(program, "deal", "--seed", "1").stdout)
    assert json.loads(sh(program, "replay", record).stdout)["ok"] is True
    played = json.loads(sh(program, "selfplay", "--deals", "3").stdout)
    assert played["deals"] == 3 and played["engine"] == "python"
    sh(python, "-c", "import canasta.storage.postgres as p, canasta.server.redis_broker, canasta.remote; "
       "p.import_psycopg()")
    port = free_port()
    with (server(port, tmp_path / "canasta.db", tmp_path / "serve.log", program=program),
          DIRECT.open(f"http://127.0.0.1:{port}/", timeout=10) as page):
        assert page.status == 200 and "Canasta" in page.read().decode()
    log = (tmp_path / "serve.log").read_text()
    assert "canasta serve: engine: pure Python (no current compiled build" in log


def test_the_package_description_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "package.md").read_text(encoding="utf-8")
    [example] = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(example, "docs/package.md", "exec"), {})
    reason, scores = capsys.readouterr().out.split(" ", 1)
    assert reason in ("went_out", "stock_exhausted") and len(json.loads(scores)) == 2
