"""Positions to study and play from: position files, the library of historical positions, the
one-line position code, and the checker that says what is wrong with a position.

>>> from cheren.files import load_position, position_code
>>> position = load_position("agordat")          # a library name, a file, a save or a code
"""

from cheren.files.position_code import parse_position_code, position_code
from cheren.files.position_files import (
    PositionError,
    PositionRecord,
    dump_position_file,
    parse_position_text,
    read_position_file,
    write_position_file,
)
from cheren.files.position_library import library, library_dir, library_names, load_position, open_position
from cheren.files.position_problems import PositionProblem, canonical, position_problems

__all__ = [
    "PositionError",
    "PositionProblem",
    "PositionRecord",
    "canonical",
    "dump_position_file",
    "library",
    "library_dir",
    "library_names",
    "load_position",
    "open_position",
    "parse_position_code",
    "parse_position_text",
    "position_code",
    "position_problems",
    "read_position_file",
    "write_position_file",
]
