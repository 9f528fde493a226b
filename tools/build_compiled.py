"""Build the compiled hot path: the modules in ``cheren.COMPILED_MODULES`` compiled together with
mypyc into C extension modules next to their sources (``./dev build``; ``./dev test`` and
``./dev play`` run it).  Optional: without a C compiler, Python's headers or mypyc, or when the
build fails, it says so in one line and cheren runs the same modules as pure Python.

    .venv/bin/python tools/build_compiled.py           # build if the sources changed since the last build
    .venv/bin/python tools/build_compiled.py --force   # build anyway
    .venv/bin/python tools/build_compiled.py --clean   # remove the compiled modules (pure Python)

The build is used only while its stamp (``cheren/_compiled.stamp``: a hash of the sources it was
built from) matches the sources; ``cheren/__init__.py`` checks that on the first import of a
compiled module, so an edited source is never shadowed by an old build.  The C, the objects and
the build's log go to ``build/mypyc/``; the built files are ignored by git and stay out of the wheel.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheren import COMPILED_MODULES, COMPILED_STAMP, source_path, sources_digest  # noqa: E402

BUILD_DIR = ROOT / "build" / "mypyc"
LOG = BUILD_DIR / "build.log"
GROUP = "cheren._native"  # the shared library every compiled module's stub loads: cheren/_native__mypyc*.so

# Run in a child process from the repository root: mypyc reads the mypy settings of pyproject.toml.
SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths = sys.argv[1:]
sys.argv = [sys.argv[0]]
setup(
    name="cheren-compiled",
    py_modules=[],
    ext_modules=mypycify(paths, opt_level="3", debug_level="0", group_name={group!r}, target_dir={target!r}),
    script_args=["-q", "build_ext", "--inplace", "--build-temp", {temp!r}, "--build-lib", {lib!r}],
)
"""


def say(text: str) -> None:
    print(f"[build] {text}", file=sys.stderr)


def built_files() -> list[Path]:
    """Every extension module a build left in the package (this build or an earlier one)."""
    return sorted((ROOT / "cheren").rglob("*" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")))


def clean() -> None:
    Path(COMPILED_STAMP).unlink(missing_ok=True)
    for path in built_files():
        path.unlink()


def missing_tool() -> str | None:
    """Why a build cannot be tried here, or None."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install mypy)"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]}) found"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").is_file():
        return f"Python's C headers are missing ({include}/Python.h; apt-get install python3-dev)"
    return None


def up_to_date(digest: str) -> bool:
    try:
        stamp = Path(COMPILED_STAMP).read_text(encoding="ascii").strip()
    except OSError:
        return False
    return stamp == digest and len(built_files()) > len(COMPILED_MODULES)


def works() -> bool:
    """Does a fresh interpreter run the build (and play a few actions with it)?"""
    code = ("import cheren; from cheren import Game, load_scenario; g = Game(load_scenario(), seed=1)\n"
            "for _ in range(5): g.apply(g.legal_actions()[-1])\n"
            "print(cheren.compiled())")
    env = {k: v for k, v in os.environ.items() if k != "CHEREN_PURE_PYTHON"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    with LOG.open("a", encoding="utf-8") as log:
        log.write(f"\n--- check\n{done.stdout}{done.stderr}")
    return done.returncode == 0 and done.stdout.strip().endswith("True")


def build(digest: str) -> bool:
    clean()  # nothing half-built is ever loaded: the stamp comes last
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    setup = SETUP.format(group=GROUP, target=str(BUILD_DIR / "c"), temp=str(BUILD_DIR / "temp"),
                         lib=str(BUILD_DIR / "lib"))
    paths = [os.path.relpath(source_path(m), ROOT) for m in COMPILED_MODULES]
    with LOG.open("w", encoding="utf-8") as log:
        done = subprocess.run([sys.executable, "-c", setup, *paths], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        clean()
        return False
    Path(COMPILED_STAMP).write_text(digest + "\n", encoding="ascii")
    if not works():
        clean()
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even if the sources did not change")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules: run pure Python")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        say("compiled modules removed: cheren runs pure Python")
        return 0
    digest = sources_digest()
    if not args.force and up_to_date(digest):
        return 0
    why = missing_tool()
    if why is not None:
        clean()
        say(f"not compiling the hot path: {why}; cheren runs pure Python (the same results, slower)")
        return 0
    say(f"compiling the hot path with mypyc ({len(COMPILED_MODULES)} modules; a few minutes, once per change)")
    t0 = time.monotonic()
    if build(digest):
        say(f"compiled in {time.monotonic() - t0:.0f} s")
    else:
        say(f"the compiled build failed (see {LOG.relative_to(ROOT)}); cheren runs pure Python (the same results)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
