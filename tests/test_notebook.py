"""docs/quickstart.ipynb runs top to bottom (no network) and shows what it promises."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "quickstart.ipynb"


def test_quickstart_notebook_executes(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit it without outputs"
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    text = "\n".join(
        o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))
        for c in nb.cells if c.cell_type == "code" for o in c.outputs
    )
    assert "train templates" in text and "accuracy" in text and "confusion" in text
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    images = sum("image/png" in o.get("data", {}) for o in outputs)
    assert images == 3
