"""Checks of the command line's arguments, made before any work starts.

Each check raises :class:`UsageError` with one line naming the option, the range it takes and the
value given; ``cheren`` prints it and exits with status 2.  The ranges keep every command finite
and within memory: a mistyped ``--games 1000000000000`` is refused, not run out of memory.
"""

from __future__ import annotations

import argparse
import os
from typing import NoReturn
from urllib.parse import urlsplit

#: The most games one run plays (a run keeps every result in memory; larger sweeps are several
#: runs with different seeds).
MAX_GAMES = 100_000
#: The most plans the look-ahead bot may weigh per Movement phase (its default is 8).
MAX_BUDGET = 100
#: Seeds are the dice's: whole numbers from 0 to 2^63 - 1 (saves store them so).
MAX_SEED = 2**63 - 1
DASK_SCHEMES = ("tcp", "tls", "ws", "wss")


class UsageError(ValueError):
    """A command line that asks for something impossible (exit status 2)."""


def check_range(flag: str, value: int, least: int, most: int, hint: str = "") -> None:
    if not least <= value <= most:
        raise UsageError(f"{flag} must be from {least:,} to {most:,}{hint}, not {value:,}")


class Parser(argparse.ArgumentParser):
    """argparse, with a mistyped command line answered in one line (not the usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def check_games(value: int, least: int = 1) -> None:
    check_range("--games", value, least, MAX_GAMES, " (split a larger sweep into runs with different --seed)")


def check_seed(value: int) -> None:
    if not 0 <= value <= MAX_SEED:
        raise UsageError(f"--seed must be a whole number from 0 to 2^63-1 ({MAX_SEED}), not {value}")


def check_jobs(jobs: int) -> None:
    most = 4 * (os.cpu_count() or 1)
    if not 1 <= jobs <= most:
        raise UsageError(f"--jobs must be from 1 to {most} (four per CPU of this machine), not {jobs}")


def check_port(port: int) -> None:
    check_range("--port", port, 1, 65535)


def check_bots(*names: str) -> None:
    from cheren.players.bots import BUDGETED, make_bot

    for name in names:
        base, _, budget = name.partition(":")
        if base in BUDGETED and budget.isdigit() and int(budget) > MAX_BUDGET:
            raise UsageError(f"{name!r}: the planning budget must be from 1 to {MAX_BUDGET} plans, not {budget}")
        try:
            make_bot(name, 0)
        except ValueError as exc:
            raise UsageError(str(exc)) from None


def budgeted(args: argparse.Namespace) -> None:
    """--budget N: the planning bots (lookahead, planner, planner2) on either side weigh N plans a
    Movement phase."""
    budget = getattr(args, "budget", None)
    if budget is None:
        return
    check_range("--budget", budget, 1, MAX_BUDGET)
    from cheren.players.bots import BUDGETED

    for attr in ("allied", "italian"):
        if getattr(args, attr) in BUDGETED:
            setattr(args, attr, f"{getattr(args, attr)}:{budget}")


def check_variants(names: list[str] | None) -> list[str]:
    from cheren.scenario.variants import VariantError
    from cheren.scenario.variants import check_variants as check

    try:
        return sorted(check(names or [], "--variant"))
    except VariantError as exc:
        raise UsageError(str(exc)) from None


def check_dask_address(address: str) -> str:
    """``local``, or a scheduler address ``[tcp://]host:port`` (tls, ws and wss too); the
    address as Dask takes it."""
    text = address.strip()
    if text == "local":
        return text
    if "://" not in text:
        text = f"tcp://{text}"
    expected = "--dask takes 'local' or a scheduler address such as tcp://10.0.0.5:8786"
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise UsageError(f"{expected}, not {address!r} (the port must be from 1 to 65535)") from None
    if parts.scheme not in DASK_SCHEMES:
        raise UsageError(f"{expected}, not {address!r} (the scheme is one of {', '.join(DASK_SCHEMES)})")
    if not parts.hostname or port is None or not 1 <= port <= 65535 or parts.path or parts.query:
        raise UsageError(f"{expected}, not {address!r}")
    return text
