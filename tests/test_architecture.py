"""The shape of the code (issue 27): the layers hold and would catch a breach, no import circles,
small modules with one registration place, and a public API that imports cheaply."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from cheren.engine.actions import ACTION_TYPES, Action
from cheren.engine.rulebook import RULEBOOK

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on the package in ``root``, with the config there (and that package, not the
    installed one, on the path)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--config", str(root / ".importlinter"), "--no-cache"], cwd=root,
                          env=env, capture_output=True, text=True, timeout=300)


def test_the_layer_contracts_fail_when_an_engine_module_imports_the_app(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "cheren", tmp_path / "cheren", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    kept = lint_imports(tmp_path)
    assert kept.returncode == 0, kept.stdout + kept.stderr  # the copy as it is keeps every contract
    zoc = tmp_path / "cheren" / "engine" / "rules" / "zoc.py"
    zoc.write_text(zoc.read_text(encoding="utf-8") + "\nfrom cheren.app import board  # a breach\n", encoding="utf-8")
    broken = lint_imports(tmp_path)
    assert broken.returncode != 0
    out = " ".join(broken.stdout.split())
    assert "Layers: cli > app > render" in out and "BROKEN" in out
    assert "The engine imports nothing above it" in out
    assert "cheren.engine.rules.zoc -> cheren.app.board" in out


def import_cycles(package: str) -> list[list[str]]:
    """Groups of modules that import each other in a circle (type-only imports included)."""
    graph = grimp.build_graph(package, cache_dir=None)
    modules = sorted(graph.modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.find_modules_directly_imported_by(v)):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for m in modules:
        if m not in index:
            visit(m)
    return found


def test_no_module_imports_itself_in_a_circle() -> None:
    cycles = import_cycles("cheren")
    # the app's controllers still name their Board for types: issue 27, item 4 (the app's own work)
    outside_the_app = [c for c in cycles if not all(m.startswith("cheren.app.") for m in c)]
    assert outside_the_app == []
    assert not any(m.startswith("cheren.engine") for c in cycles for m in c)


def test_no_module_is_over_600_lines_no_app_module_over_400_and_the_gate_under_350() -> None:
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / "cheren").rglob("*.py")}
    assert {p: n for p, n in sizes.items() if n > 600} == {}
    assert {p: n for p, n in sizes.items() if p.startswith("cheren/app/") and n > 400} == {}
    assert sizes["cheren/engine/game.py"] < 350


def test_every_action_type_has_one_rule_and_every_decision_kind_a_handler() -> None:
    assert set(RULEBOOK.actions) == set(ACTION_TYPES.values())
    assert all(issubclass(cls, Action) and ACTION_TYPES[cls.kind] is cls for cls in RULEBOOK.actions)
    # every Decision("kind", ...) the engine creates is a kind the rulebook answers
    made = set()
    for path in (ROOT / "cheren" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Decision" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                made.add(node.args[0].value)
    assert made and made <= set(RULEBOOK.decisions)


def test_importing_a_rule_module_only_defines_things() -> None:
    """No registration by import: a rule module's top level holds imports, definitions and
    assignments, never a bare call (the rulebook puts the rule areas together)."""
    for path in (ROOT / "cheren" / "engine" / "rules").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [node.lineno for node in tree.body if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)]
        loops = [node.lineno for node in tree.body if isinstance(node, ast.For | ast.While)]
        assert calls == loops == [], path.name


SAMPLES: dict[str, dict[str, object]] = {
    "end_phase": {}, "pass_chit": {}, "stay_and_lose": {}, "no_advance": {},
    "move": {"unit": "ind_5", "path": ["0308", "0408"]},
    "remove_step": {"unit": "ind_5"}, "replace": {"unit": "ind_5"}, "advance": {"unit": "ind_5"},
    "choose_arrival": {"code": "K7-F8", "postpone": True},
    "place": {"unit": "nat_humera", "hex": "0716"},
    "retreat": {"units": ["ind_5", "ind_10"], "to": "0309"},
    "play_chit": {"chit": "roadblock.1", "unit": "", "target": "0408"},
    "commit": {"unit": "ind_5", "target": "0408"}, "uncommit": {"unit": "ind_5", "target": "0408"},
    "add_air": {"target": "0408"}, "resolve": {"target": "0408"},
    "attack": {"target": "0408", "attackers": ["ind_5", "ind_10"], "air": True},
    "push": {"yes": False},
}


def test_every_action_type_round_trips_through_json_in_a_fresh_interpreter() -> None:
    assert set(SAMPLES) == set(ACTION_TYPES)
    data = [{"kind": kind, **fields} for kind, fields in sorted(SAMPLES.items())]
    code = (
        "import json, sys, cheren\n"
        "out = [cheren.action_from_json(d).to_json() for d in json.load(sys.stdin)]\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('cheren.'))\n"
        "print(json.dumps({'out': out, 'game': 'cheren.engine.game' in loaded}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(data), capture_output=True, text=True,
                          cwd=ROOT, check=True, timeout=120)
    result = json.loads(done.stdout)
    assert result["out"] == data
    assert result["game"] is False  # decoding needs no gate, and no import for its side effects


def test_import_cheren_is_cheap_and_gives_the_public_api() -> None:
    code = (
        "import sys, cheren\n"
        "before = sorted(m for m in sys.modules if m.startswith('cheren'))\n"
        "from cheren import Game, Study, load_position, load_scenario, actions, analyse, evaluate\n"
        "print(before, Game.__module__, Study.__module__, actions.__name__, analyse.__module__, evaluate.__module__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                          timeout=120)
    assert done.stdout.split() == [
        "['cheren']", "cheren.engine.game", "cheren.study.variations", "cheren.engine.actions",
        "cheren.study.analysis.report", "cheren.study.analysis.evaluate",
    ]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        import cheren

        cheren.nothing  # noqa: B018
