"""Seeded dice (cheren.engine.dice): reproducible, resumable from their state, fair."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cheren.engine.dice import Dice

seeds = st.integers(0, 2**64 - 1)

# Published SplitMix64 reference outputs (Vigna's splitmix64.c; Rosetta Code
# "Pseudo-random numbers/Splitmix64"): the first outputs for seeds 1234567 and 0.
REFERENCE = {
    1234567: [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ],
    0: [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F],
}


@pytest.mark.parametrize("seed", sorted(REFERENCE))
def test_generator_is_reference_splitmix64(seed: int) -> None:
    # below(2**64) never rejects and takes no modulo, so it shows the raw 64-bit outputs.
    d = Dice(seed)
    assert [d.below(2**64) for _ in REFERENCE[seed]] == REFERENCE[seed]


@given(seeds)
def test_same_seed_same_sequence(seed: int) -> None:
    a, b = Dice(seed), Dice(seed)
    assert [a.roll() for _ in range(50)] == [b.roll() for _ in range(50)]
    assert a == b


def test_different_seeds_give_different_sequences() -> None:
    def first_rolls(seed: int) -> tuple[int, ...]:
        d = Dice(seed)
        return tuple(d.roll() for _ in range(30))

    assert len({first_rolls(seed) for seed in range(20)}) == 20


@given(seeds, st.integers(0, 40))
def test_state_round_trip_continues_identically(seed: int, used: int) -> None:
    d = Dice(seed)
    for _ in range(used):
        d.roll()
    resumed = Dice(d.seed, d.state)
    copied = d.copy()
    expected = [d.roll() for _ in range(30)]
    assert [resumed.roll() for _ in range(30)] == expected
    assert [copied.roll() for _ in range(30)] == expected


def test_state_is_one_integer_that_changes_with_each_draw() -> None:
    d = Dice(7)
    before = d.state
    d.roll()
    assert isinstance(d.state, int) and 0 <= d.state < 2**64
    assert d.state != before
    assert d.seed == 7


def test_copy_is_independent() -> None:
    d = Dice(11)
    c = d.copy()
    first = c.roll()
    assert d == Dice(11)  # rolling the copy did not advance the original
    assert d.roll() == first


def test_equality_and_hash_follow_seed_and_state() -> None:
    a, b = Dice(5), Dice(5)
    assert a == b and hash(a) == hash(b)
    b.roll()
    assert a != b
    assert Dice(5) != Dice(6)
    assert Dice(5) != "Dice(5)"


@given(seeds)
def test_rolls_are_between_1_and_6(seed: int) -> None:
    d = Dice(seed)
    assert all(1 <= d.roll() <= 6 for _ in range(200))


@pytest.mark.parametrize("seed", [0, 1, 1941])
def test_rolls_are_roughly_uniform(seed: int) -> None:
    n = 6000
    d = Dice(seed)
    tally = Counter(d.roll() for _ in range(n))
    assert set(tally) == {1, 2, 3, 4, 5, 6}
    expected = n / 6
    chi2 = sum((tally[face] - expected) ** 2 / expected for face in range(1, 7))
    # 5 degrees of freedom: P(chi2 > 20.52) = 0.001 for a fair die.
    assert chi2 < 20.52, tally


@given(seeds, st.integers(1, 1000))
def test_below_stays_in_bounds(seed: int, n: int) -> None:
    d = Dice(seed)
    assert all(0 <= d.below(n) < n for _ in range(50))


def test_below_one_is_always_zero() -> None:
    d = Dice(3)
    assert {d.below(1) for _ in range(20)} == {0}


def test_below_reaches_every_value() -> None:
    d = Dice(99)
    assert {d.below(7) for _ in range(500)} == set(range(7))


@pytest.mark.parametrize("n", [0, -1])
def test_below_needs_a_positive_bound(n: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        Dice(1).below(n)


@pytest.mark.parametrize("seed", [-1, 1.5, "7"])
def test_seed_must_be_a_non_negative_integer(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        Dice(seed)
