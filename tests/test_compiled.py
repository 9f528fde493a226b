"""The compiled hot path (tools/build_compiled.py, ``./dev build``) is an optional build of the same
sources: the pure-Python modules must play the very same games, and a build older than its
sources must never be used.  The comparisons need a build (``./dev test`` makes one where a C
compiler is at hand) and are skipped without one; the switch to pure Python is tested always."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cheren

ROOT = Path(__file__).resolve().parents[1]
built = pytest.mark.skipif(not cheren.compiled(), reason=f"no compiled build here: {cheren.build_kind()}")

# Random games (every kind of action, the legal-action lists in full) and bot games (their
# choices read reach, threats and what-ifs), each summed up by a hash of what the gate listed
# and did at every step.
GAMES = """
import hashlib, json, random, sys
import cheren
from cheren import Game, load_scenario
from cheren.engine.actions import EndPhase
from cheren.players.simulate import play_game

def random_game(seed):
    g = Game(load_scenario(), seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while not g.over:
        actions = g.legal_actions()
        digest.update(repr([a.to_json() for a in actions]).encode())
        weights = [1 if isinstance(a, EndPhase) else 3 for a in actions]
        digest.update(repr(g.apply(rng.choices(actions, weights)[0])).encode())
    return [len(g.log), g.position.allied_vp(), digest.hexdigest()]

def bot_game(seed, allied, italian):
    r = play_game(0, seed, allied, italian, keep_log=True)
    return [r.allied_vp, r.actions, hashlib.sha256(json.dumps(r.log).encode()).hexdigest()]

print(json.dumps({"compiled": cheren.compiled(),
                  "random": [random_game(s) for s in (3, 11)],
                  "bots": [bot_game(5, "heuristic", "lookahead"), bot_game(6, "planner", "heuristic")]}))
"""


def _games(env: dict[str, str], cwd: Path = ROOT) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", GAMES], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CHEREN_PURE_PYTHON"}
    return {**env, **extra}


def test_cheren_pure_python_switches_the_compiled_modules_off() -> None:
    code = "import cheren, cheren.engine.rules.movement as m; print(cheren.compiled(), m.__file__.endswith('.py'))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(CHEREN_PURE_PYTHON="1"),
                          capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split() == ["False", "True"]
    kind = subprocess.run([sys.executable, "-c", "import cheren; print(cheren.build_kind())"], cwd=ROOT,
                          env=_env(CHEREN_PURE_PYTHON="1"), capture_output=True, text=True, check=True, timeout=120)
    assert kind.stdout.strip() == "pure Python (CHEREN_PURE_PYTHON is set)"


@built
def test_the_pure_python_modules_play_the_same_games_as_the_compiled_ones() -> None:
    compiled = _games(_env())
    pure = _games(_env(CHEREN_PURE_PYTHON="1"))
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert pure["random"] == compiled["random"]
    assert pure["bots"] == compiled["bots"]


@built
def test_every_compiled_module_is_loaded_from_the_build() -> None:
    import importlib

    for name in cheren.COMPILED_MODULES:
        assert not (importlib.import_module(name).__file__ or "").endswith(".py"), name


@built
def test_a_build_older_than_its_sources_is_never_used(tmp_path: Path) -> None:
    # a copy of the package with its build: used as it is, ignored once a source changes
    shutil.copytree(ROOT / "cheren", tmp_path / "cheren", ignore=shutil.ignore_patterns("__pycache__"))
    code = "import cheren; print(cheren.compiled(), cheren.__file__)"
    env = _env(PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.split() == ["True", str(tmp_path / "cheren" / "__init__.py")]
    dice = tmp_path / "cheren" / "engine" / "dice.py"
    dice.write_text(dice.read_text(encoding="utf-8") + "\n# edited after the build\n", encoding="utf-8")
    code = "import cheren; print(cheren.compiled()); print(cheren.build_kind())"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.splitlines() == [
        "False", "pure Python (the compiled build is older than its sources: ./dev build)"]


def test_the_build_is_ignored_by_git_and_stays_out_of_the_wheel() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "cheren/_compiled.stamp", "cheren/engine/game.cpython-311-x86_64-linux-gnu.so",
         "cheren/_native__mypyc.cpython-311-x86_64-linux-gnu.so"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert ignored.stdout.split() == [
        "cheren/_compiled.stamp", "cheren/engine/game.cpython-311-x86_64-linux-gnu.so",
        "cheren/_native__mypyc.cpython-311-x86_64-linux-gnu.so"]
