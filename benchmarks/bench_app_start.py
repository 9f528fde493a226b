"""`cheren app` on screen: this checkout against a baseline revision, in turn, in headless chromium.

    .venv/bin/python benchmarks/bench_app_start.py                    # 3 rounds against BASELINE
    .venv/bin/python benchmarks/bench_app_start.py --rounds 5 --baseline e227dfc

Each round runs the command as a user types it, on a fresh folder, once with this checkout's
code and once with the baseline's (taken out of git into a temporary folder, its notebooks too),
one after the other (A B A B), so a machine whose load drifts affects both alike.  Times are wall
clock from the command: the server listening (its "is running at" line), the map painted (the
canvas has paint in its middle, as tests/browser/test_app_start_browser.py judges it) on the page
asked for where and as soon as the command says it serves, then a page reload once the next kept
kernel is ready, to the map painted again.  The browser is Debian's chromium through Playwright,
with its HTTP cache (a reload finds Voila's scripts there, as a user's browser does): requests
are not routed (Playwright's routing turns the cache off), every request off this machine fails
at the resolver instead.  ``--no-cache`` routes them as before (no cache).  The table gives
medians and the load (runnable processes per core, 1-minute average) before and after each run:
on this shared machine a wall clock measures the load as well.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "e227dfc"  # main before the app-start work of issue 29 (item 3)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
READY = "cheren app: ready for the next page"
TAKEN = "Using pre-heated kernel"  # Voila's log, as a page takes a kept kernel
SERVING = re.compile(r"cheren app: serving .* at (http\S+)")
CANVAS = ".cheren-app canvas.cheren-map"
PAINTED = """(sel) => { const c = document.querySelector(sel); if (!c || !c.width || !c.offsetParent) return false;
  return c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0; }"""


def checkout(revision: str, where: Path) -> Path:
    where.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def load() -> float:
    return os.getloadavg()[0] / (os.cpu_count() or 1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_map(page: Any) -> None:
    deadline = time.monotonic() + 120
    while not page.evaluate(PAINTED, CANVAS):
        reveal = page.locator(".cheren-reveal:visible")  # the hot-seat curtain after a reload
        if reveal.count():
            with contextlib.suppress(Exception):  # gone meanwhile, or not clickable yet: look again
                reveal.first.click(timeout=500)
        if time.monotonic() > deadline:
            raise TimeoutError("the map was not painted in 120 s")
        page.wait_for_timeout(20)


def one_run(browser: Any, code: Path, keep_bytecode: bool, cache: bool = True) -> dict[str, float]:
    """The command with ``code`` first on the path (the server and its kernels inherit it)."""
    with tempfile.TemporaryDirectory(prefix="cheren-app-start-") as tmp:
        env = dict(os.environ, PYTHONPATH=str(code))
        if keep_bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        for key in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
            env[key] = str(Path(tmp) / key.lower())
        env.pop("CHEREN_AUTOSAVE", None)
        env["CHEREN_PROGRESS"] = str(Path(tmp) / "progress.json")
        port = free_port()
        lines: list[tuple[float, str]] = []
        before = load()
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        if not cache:
            page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1") else r.abort())
        started = time.monotonic()
        cmd = [sys.executable, "-c", "import sys; from cheren.cli.main import main; sys.exit(main())", "app",
               "--no-browser", f"--port={port}", f"--dir={Path(tmp) / 'notebooks'}"]
        proc = subprocess.Popen(cmd, cwd=tmp, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)

        def read() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                lines.append((time.monotonic(), line))

        threading.Thread(target=read, daemon=True).start()
        try:
            while not (said := [m.group(1) for _, x in lines if (m := SERVING.search(x))]):
                if proc.poll() is not None or time.monotonic() - started > 120:
                    raise RuntimeError("cheren app did not start:\n" + "".join(x for _, x in lines))
                time.sleep(0.02)
            page.goto(said[0], timeout=120_000)
            wait_for_map(page)
            painted = time.monotonic() - started
            listening = next((t for t, x in lines if "is running at" in x), started) - started
            # a kept kernel ready and not taken: each says it is ready once, Voila says when a page takes one
            while sum(READY in x for _, x in lines) - sum(TAKEN in x for _, x in lines) < 1:
                if time.monotonic() - started > 180:
                    raise TimeoutError("no second kept kernel")
                time.sleep(0.05)
            t0 = time.monotonic()
            page.reload(timeout=120_000)
            wait_for_map(page)
            reload = time.monotonic() - t0
        finally:
            page.close()
            proc.terminate()
            proc.wait(30)
        return {"listening": listening, "map": painted, "reload": reload, "load": max(before, load())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=BASELINE, help=f"the git revision to compare with (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--keep-bytecode", action="store_true",
                        help="let Python keep the modules it compiles (its default; an environment with "
                        "PYTHONDONTWRITEBYTECODE set compiles cheren's modules again in every process): a first, "
                        "untimed run of each code writes them")
    parser.add_argument("--no-cache", action="store_true",
                        help="route the page's requests as the tests did before (no HTTP cache: a reload fetches "
                        "and compiles every script again)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    runs: dict[str, list[dict[str, float]]] = {"this checkout": [], args.baseline: []}
    with tempfile.TemporaryDirectory(prefix="cheren-baseline-") as tmp, sync_playwright() as p:
        base = checkout(args.baseline, Path(tmp) / "baseline")
        for code in (ROOT, base):  # each run takes its code from where it says
            found = subprocess.run([sys.executable, "-c", "import cheren; print(cheren.__file__)"], text=True,
                                   env=dict(os.environ, PYTHONPATH=str(code)), capture_output=True, check=True, cwd=tmp)
            assert found.stdout.startswith(str(code)), (code, found.stdout)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        if args.keep_bytecode:
            for code in (ROOT, base):
                one_run(browser, code, True, not args.no_cache)
        for _ in range(args.rounds):
            for label, code in (("this checkout", ROOT), (args.baseline, base)):
                run = one_run(browser, code, args.keep_bytecode, not args.no_cache)
                runs[label].append(run)
                print(f"  {label}: listening {run['listening']:.2f} s, map {run['map']:.2f} s, "
                      f"reload {run['reload']:.2f} s (load {run['load']:.1f} per core)", file=sys.stderr)
        browser.close()
    kept = "kept (after a first run)" if args.keep_bytecode or not os.environ.get("PYTHONDONTWRITEBYTECODE") else \
        "not kept (PYTHONDONTWRITEBYTECODE)"
    cache = "no HTTP cache (requests routed)" if args.no_cache else "the browser's HTTP cache on"
    print(f"`cheren app`, {args.rounds} runs each, in turn; medians, wall clock; {os.cpu_count()} cores; "
          f"compiled modules {kept}; {cache}\n")
    print("| code | server listening | map painted after the command | map painted after a reload | load per core |")
    print("|---|---|---|---|---|")
    for label, rs in runs.items():
        med = {k: statistics.median(r[k] for r in rs) for k in ("listening", "map", "reload")}
        loads = [r["load"] for r in rs]
        print(f"| {label} | {med['listening']:.2f} s | {med['map']:.2f} s | {med['reload']:.2f} s "
              f"| {min(loads):.1f}-{max(loads):.1f} |")
    new, old = runs["this checkout"], runs[args.baseline]
    for key, what in (("map", "after the command"), ("reload", "after a reload")):
        ratio = statistics.median(r[key] for r in old) / statistics.median(r[key] for r in new)
        print(f"\nthe map {what}: {ratio:.2f} x faster than {args.baseline}", end="")
    print()


if __name__ == "__main__":
    main()
