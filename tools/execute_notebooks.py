"""Execute the notebooks in place, as they are kept in git: outputs that nbval checks are kept;
outputs of cells marked NBVAL_IGNORE_OUTPUT (the big map images) and widget state are not."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def execute(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.lstrip().startswith("# NBVAL_IGNORE_OUTPUT"):
            cell.outputs = []
    nb.metadata.pop("widgets", None)
    nbformat.validate(nb)
    nbformat.write(nb, path)  # type: ignore[no-untyped-call]
    print(f"executed {path.relative_to(ROOT)}")


if __name__ == "__main__":
    targets = [Path(p).resolve() for p in sys.argv[1:]] or sorted((ROOT / "notebooks").rglob("*.ipynb"))
    for target in targets:
        execute(target)
