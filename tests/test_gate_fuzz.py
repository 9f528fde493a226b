"""Issue 28, item 1: 100,000 random and malformed calls to the legality gate, at every point of
seeded games (from the opening and from each library position, with undo now and then), raise
nothing but refusals, each citing a rule, and change nothing (the fuzzer: tests/gate_fuzz.py)."""

from __future__ import annotations

from cheren.engine.actions import ACTION_TYPES
from tests import gate_fuzz


def test_100_000_random_and_malformed_gate_calls_give_only_verdicts_and_refusals() -> None:
    tally = gate_fuzz.run(100_000, seed=2026)
    assert tally.calls >= 100_000
    assert tally.failures == [], "\n".join(tally.failures[:20])
    # the calls reach every action type and every way of going wrong, and most are refused
    assert set(ACTION_TYPES) | {"legal", "changed", "elsewhere", "not"} <= set(tally.by_kind)
    assert tally.refused > 0.7 * tally.calls and tally.legal > 0.05 * tally.calls
