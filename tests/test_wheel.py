"""`cheren app` and `cheren lab` from a wheel: build the wheel, install it into a fresh
virtualenv, and start each command until its page serves.  The data (scenario, positions,
lessons, notebooks) must come from the wheel, not from this checkout.

The fresh environment gets the package from the wheel only; its third-party dependencies are
lent from the test environment (a .pth line for their code, JUPYTER_PATH for their templates),
so the test needs no network."""

from __future__ import annotations

import os
import site
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import running

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(dist)],
        check=True, cwd=tmp, capture_output=True,
    )
    wheel = next(dist.glob("cheren-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True, capture_output=True,
    )
    site_dir = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip())
    lent = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (site_dir / "zz_lent_dependencies.pth").write_text("\n".join(lent) + "\n")
    yield venv


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV"))}
    for key in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[key] = str(tmp / key.lower())
    env["CHEREN_AUTOSAVE"] = str(tmp / "autosave.json")
    # the lent dependencies' own data files (Voila's and JupyterLab's templates and assets)
    env["JUPYTER_PATH"] = str(Path(sys.prefix) / "share" / "jupyter")
    return env


def test_the_installed_package_finds_its_data_in_the_wheel(fresh: Path, tmp_path: Path) -> None:
    cheren = fresh / "bin" / "cheren"
    where = subprocess.run(
        [str(fresh / "bin" / "python"), "-c",
         "import cheren, cheren.scenario.resources as r; print(cheren.__file__, r.data_root())"],
        check=True, capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path),
    ).stdout.split()
    assert not where[0].startswith(str(ROOT)) and where[1].endswith("share/cheren")
    check = subprocess.run([str(cheren), "lessons", "check"], capture_output=True, text=True, cwd=tmp_path,
                           env=_env(tmp_path))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "10 of 10 lessons ok" in check.stdout
    listed = subprocess.run([str(cheren), "positions"], capture_output=True, text=True, cwd=tmp_path,
                            env=_env(tmp_path))
    assert listed.returncode == 0 and "agordat" in listed.stdout


def _serve(cmd: list[str], url: str, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    log = cwd / "server.log"
    with running(cmd, cwd, env, log) as proc:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return -1, log.read_text()
            try:
                with urllib.request.urlopen(url, timeout=30) as response:
                    return int(response.status), response.read().decode(errors="replace")
            except urllib.error.HTTPError as exc:
                return int(exc.code), ""
            except OSError:
                time.sleep(0.3)
        return 0, log.read_text()


def test_cheren_app_from_the_wheel_serves_the_app_page(fresh: Path, tmp_path: Path) -> None:
    port = _free_port()
    work = tmp_path / "work"
    status, page = _serve(
        [str(fresh / "bin" / "cheren"), "app", "--dir", str(work), "--port", str(port), "--no-browser"],
        f"http://127.0.0.1:{port}/", tmp_path, _env(tmp_path),
    )
    assert status == 200, page[-2000:]
    assert "voila" in page.lower()
    assert (work / "app.ipynb").is_file() and (work / "learn" / "00_start_here.ipynb").is_file()


def test_cheren_lab_from_the_wheel_serves_jupyterlab(fresh: Path, tmp_path: Path) -> None:
    port = _free_port()
    work = tmp_path / "work"
    status, page = _serve(
        [str(fresh / "bin" / "cheren"), "lab", "--dir", str(work), "--port", str(port), "--no-browser"],
        f"http://127.0.0.1:{port}/login", tmp_path, _env(tmp_path),
    )
    assert status == 200, page[-2000:]
    assert (work / "play.ipynb").is_file()
