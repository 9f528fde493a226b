"""Hostile and careless inputs, by class, each case run the way a user meets it (issue 28).

Every class builds its cases (``size`` sets how many for the classes that draw them at random)
and runs each one to an outcome: a good one (``refused cleanly``: an error naming the file, field
or option, and nothing changed; ``recovered``: the program goes on and says what it did;
``kept``: the input works and nothing is lost) or a bad one (``traceback``, ``hang``,
``accepted``: a bad input taken as good, ``lost``: something the user had is gone).

The tests (tests/test_hostile_*.py) run every class at a small size and require good outcomes
only; ``tools/reliability.py`` runs them at full size and writes the table of
docs/reliability.md from the counts.
"""

from __future__ import annotations

from tests.hostile.app_files import autosave_cases, editor_cases
from tests.hostile.command_line import cli_cases, dask_cases, output_cases
from tests.hostile.core import GOOD, KEPT, RECOVERED, REFUSED, Case, InputClass
from tests.hostile.lessons import lesson_fuzz_cases, lesson_position_cases, progress_cases
from tests.hostile.runs import resume_cases, run_cases
from tests.hostile.saves import position_cases, study_cases, study_limit_cases

CLASSES = [
    InputClass("command line: bad arguments", "every command with out-of-range numbers, bad labels, addresses, "
               "files that are pipes, folders or devices, typed as a careless user would", cli_cases),
    InputClass("command line: Dask schedulers that are not", "a peer that accepts and never answers, one that "
               "answers junk, a closed port (1 s deadline)", dask_cases),
    InputClass("outputs: --out X --force on what is not a file", "a named pipe, a socket, a folder, links to a "
               "pipe and to device nodes; and temporary files left by a killed writer", output_cases),
    InputClass("positions reached in play", "every position of whole games (random bots; heuristic for one in "
               "four), as a save, a position file and a code", position_cases),
    InputClass("study saves: edited fields and bytes", "each field of a two-line study save set wrong, and "
               "random insertions and cuts", study_cases),
    InputClass("study saves: size and depth", "more lines, deeper nesting and more actions than the limits; "
               "JSON nested 100,000 deep", study_limit_cases),
    InputClass("the app's autosave", "unreadable autosaves of every kind, a fault while loading, a folder "
               "where the file cannot be moved", autosave_cases),
    InputClass("the editor's Open", "every kind of file the app writes, and what it does not", editor_cases),
    InputClass("lesson positions", "a lesson's position: naming files elsewhere, links out, the library, a "
               "code, files beside the lesson", lesson_position_cases),
    InputClass("lesson files: random edits", "random insertions and cuts in the course's lesson files, "
               "then `cheren lessons check`", lesson_fuzz_cases),
    InputClass("progress files that cannot be written", "a progress file under a file, a folder, a pipe, a "
               "device; the exercise solved", progress_cases),
    InputClass("resume files: edited", "each field of a partial run's file changed, removed or retyped; games "
               "duplicated, removed or from another run; `cheren simulate --resume`", resume_cases),
    InputClass("runs stopped or killed", "simulate, analyse and compare-variants stopped by SIGTERM then "
               "resumed; simulate killed by SIGKILL", run_cases),
]

__all__ = ["CLASSES", "GOOD", "KEPT", "RECOVERED", "REFUSED", "Case", "InputClass", "resume_cases", "run_cases"]
