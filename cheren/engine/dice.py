"""Seeded dice whose whole state is one integer, so a save or a log can carry it exactly.

SplitMix64 is tiny, fast in pure Python and passes the usual statistical batteries; every
random choice in a game (combat rolls, defection rolls, chit draws) comes from one of these.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class Dice:
    __slots__ = ("seed", "state")

    # seed is taken as any object and checked here: compiled (mypyc), an ``int`` annotation would
    # refuse a wrong type with a bare TypeError before this check could name the seed
    def __init__(self, seed: object, state: int | None = None) -> None:
        if not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a dice seed must be a non-negative integer, not {seed!r}")
        self.seed = seed
        self.state = (seed & _MASK) if state is None else (state & _MASK)

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next()
            if x < limit:
                return x % n

    def roll(self) -> int:
        """One six-sided die, 1..6."""
        return self.below(6) + 1

    def copy(self) -> Dice:
        return Dice(self.seed, self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dice) and (self.seed, self.state) == (other.seed, other.state)

    def __hash__(self) -> int:
        return hash((self.seed, self.state))

    def __repr__(self) -> str:
        return f"Dice(seed={self.seed}, state={self.state:#x})"

    def __reduce__(self) -> tuple[type[Dice], tuple[int, int]]:
        # pickle and copy: compiled (mypyc), the class keeps no __slots__ that they could read
        return (Dice, (self.seed, self.state))
