"""Reading YAML that someone else wrote: only regular files, of bounded size, parsed with the
safe loader, with nesting, aliases and duplicate keys refused or bounded.

Teachers load files their students send them; a file that is a FIFO, a link to ``/dev/zero``,
a "billion laughs" of aliases or 10,000 nested lists must be refused with a clear message, not
read until memory runs out.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 2_000_000  # the largest bundled data file is about 60 kB
MAX_DEPTH = 50
MAX_ALIASES = 100
MAX_NODES = 200_000


class YamlInputError(ValueError):
    """A YAML file or text that cannot be read safely; the message names the source."""


def read_text(path: str | Path, source: str | None = None, limit: int = MAX_BYTES) -> str:
    """The text of a regular file no larger than ``limit`` bytes."""
    p = Path(path)
    name = source or str(p)
    try:
        info = os.stat(p)
    except FileNotFoundError:
        raise YamlInputError(f"{name}: file not found") from None
    except OSError as exc:
        raise YamlInputError(f"{name}: cannot read it: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise YamlInputError(f"{name}: not a regular file (a directory, device or pipe); refused")
    if info.st_size > limit:
        raise YamlInputError(f"{name}: {info.st_size:,} bytes is larger than the {limit:,}-byte limit for such files")
    try:
        # O_NONBLOCK: if the file was swapped for a pipe after the check, opening does not hang.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise YamlInputError(f"{name}: cannot read it: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise YamlInputError(f"{name}: not a regular file; refused")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise YamlInputError(f"{name}: larger than the {limit:,}-byte limit for such files")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlInputError(f"{name}: not UTF-8 text (byte {exc.start})") from None


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, counting what it builds."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0
        self._nodes = 0

    def _mark(self) -> Any:
        return self.peek_event().start_mark  # type: ignore[no-untyped-call]

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _Refused(f"more than {MAX_ALIASES} aliases (*name); refused", self._mark())
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise _Refused(f"more than {MAX_NODES:,} values; refused", self._mark())
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Refused(f"nested more than {MAX_DEPTH} levels deep; refused", self._mark())
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        _check_keys(self, node)
        return super().construct_mapping(node, deep=deep)


def _check_keys(loader: Any, node: Any) -> None:
    """Refuse a mapping whose key is repeated or is not a plain value (both loaders)."""
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in seen
        except TypeError:
            raise _Refused("a mapping key must be a plain value", key_node.start_mark) from None
        if duplicate:
            raise _Refused(f"the key {_short(key)} appears twice in one mapping", key_node.start_mark)
        seen.add(key)


_BoundedLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    lambda loader, node: dict(loader.construct_mapping(node)),  # type: ignore[arg-type]
)


class _Refused(yaml.YAMLError):
    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.problem = message
        self.problem_mark = mark


def parse(text: str, source: str) -> Any:
    """Parse YAML text with the bounded safe loader; refusals name the line and column."""
    try:
        loader = _BoundedLoader(text)
    except yaml.YAMLError as exc:  # a character YAML does not allow, found as reading starts
        raise YamlInputError(f"{source}: not valid YAML: {_short(str(exc), 200)}") from None
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        reason = getattr(exc, "problem", None) or str(exc)
        raise YamlInputError(f"{source}: not valid YAML{where}: {_short(reason, 200)}") from None
    except RecursionError:
        raise YamlInputError(f"{source}: nested too deeply; refused") from None
    except (ValueError, TypeError, OverflowError) as exc:
        # a scalar that matched a type but cannot be built, such as the date 1941-02-30
        raise YamlInputError(f"{source}: not valid YAML: a value cannot be read: {_short(str(exc), 200)}") from None
    finally:
        loader.dispose()


def load_file(path: str | Path, source: str | None = None, *, bundled: bool = False) -> Any:
    """Read and parse a YAML file safely.  ``bundled``: a data file that comes with cheren, read
    with libyaml's parser when PyYAML has it (eight times faster: the app's start waits for it);
    the same safe constructor and the same refusal of duplicate keys, but without the bounds on
    nesting and aliases, which are for files from elsewhere."""
    name = source or str(path)
    text = read_text(path, name)
    if bundled and _FastLoader is not None:
        fast = _FastLoader(text)  # CSafeLoader: the safe constructor
        try:
            return fast.get_single_data()
        except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError):
            pass  # the bounded loader says what is wrong, in its own words
        finally:
            fast.dispose()
    return parse(text, name)


def _fast_loader() -> Any:
    if not getattr(yaml, "__with_libyaml__", False):
        return None

    class FastLoader(yaml.CSafeLoader):
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            _check_keys(self, node)  # a refusal: the bounded loader reads it again and says what is wrong
            return super().construct_mapping(node, deep=deep)

    FastLoader.add_constructor(
        yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
        lambda loader, node: dict(loader.construct_mapping(node)),  # type: ignore[arg-type]
    )
    return FastLoader


_FastLoader = _fast_loader()


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 3] + "..."
