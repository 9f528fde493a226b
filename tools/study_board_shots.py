"""The study board's screenshots in docs/ (issue 30): `cheren app` in Voila, the Agordat position
opened for study from the toolbar's picker (the Allied Combat phase of 28 January: the map on the
action, the position's question beside it), at 1440 x 900 and 1100 x 800.

    .venv/bin/python tools/study_board_shots.py        # writes docs/study-board-1440x900.png, -1100x800.png

Needs Voila and Playwright with Debian's chromium (the browser tests' setup)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SIZES = [(1440, 900), (1100, 800)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def shoot(p: Page, url: str, width: int, height: int, out: Path) -> None:
    from cheren.app.position_view import library_label
    from cheren.files import open_position

    p.set_viewport_size({"width": width, "height": height})
    p.goto(url, timeout=120_000)
    p.wait_for_selector(".cheren-app canvas.cheren-map", timeout=120_000)
    p.locator("button.cheren-open-position").first.click()
    record = open_position("agordat")
    p.locator(".cheren-library select").select_option(label=library_label(record))
    p.locator("button.cheren-open-go").click()
    expect(p.locator(".cheren-feedback").first).to_contain_text("Opened Agordat")
    expect(p.locator(".cheren-bar").first).to_have_attribute("data-phase", "combat")
    p.wait_for_timeout(2500)  # the map repaints on the action
    p.screenshot(path=str(out))
    print(f"wrote {out.relative_to(ROOT)}")


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="cheren-shots-"))
    shutil.copytree(ROOT / "notebooks", tmp / "notebooks", ignore=shutil.ignore_patterns("*.json"))
    port = free_port()
    env = dict(os.environ, CHEREN_AUTOSAVE=str(tmp / "autosave.json"), PYTHONPATH=str(ROOT))
    server = subprocess.Popen([str(Path(sys.executable).parent / "voila"), "notebooks", "--no-browser",
                               f"--port={port}", "--Voila.ip=127.0.0.1"], cwd=tmp, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for width, height in SIZES:
                page = browser.new_page()
                page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1")
                           else r.abort())
                shoot(page, f"http://127.0.0.1:{port}/voila/render/app.ipynb", width, height,
                      ROOT / "docs" / f"study-board-{width}x{height}.png")
                page.close()
                (tmp / "autosave.json").unlink(missing_ok=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
