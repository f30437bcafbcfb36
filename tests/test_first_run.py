"""A first run that talks: compiling templates shows progress on stderr (a line saying so, then
tqdm's bar or a plain one), nothing is shown when every template comes from the cache, and the
progress can be turned off (issue 21)."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest

import physgen
from physgen.cli import main
from physgen.progress import Progress

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two templates in a folder of their own, and an empty cache."""
    for rel in ("optics/thin_lens.yaml", "mechanics/projectile_range.yaml"):
        (tmp_path / "catalog" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "templates" / rel, tmp_path / "catalog" / rel)
    monkeypatch.setenv("PHYSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PHYSGEN_NO_CACHE", raising=False)
    monkeypatch.delenv("PHYSGEN_PROGRESS", raising=False)
    return tmp_path / "catalog"


def test_compiling_shows_a_plain_bar_without_tqdm(folder: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` raises ImportError
    assert len(physgen.load_catalog(folder)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"physgen: compiling 2 template(s) of {folder} (after an install or an edit; "
                          "later loads read the cache)\n"), err
    assert err.endswith("\n") and "[##############################] 100% 2/2 templates" in err
    physgen.load_catalog(folder)
    assert capsys.readouterr().err == ""  # every template from the cache: quiet


def test_compiling_shows_tqdm_when_installed(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    physgen.load_catalog(folder)
    err = capsys.readouterr().err
    assert "physgen: compiling 2 template(s)" in err and "2/2" in err and "templates/s" in err


def test_the_progress_can_be_turned_off(folder: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    physgen.load_catalog(folder, progress=False)
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("PHYSGEN_CACHE_DIR", str(tmp_path / "another cache"))
    monkeypatch.setenv("PHYSGEN_PROGRESS", "0")
    physgen.load_catalog(folder)
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("PHYSGEN_CACHE_DIR", str(tmp_path / "a third cache"))
    monkeypatch.delenv("PHYSGEN_PROGRESS")
    assert main(["validate", str(folder)], io.StringIO()) == 0  # the command line shows it too
    assert "physgen: compiling 2 template(s)" in capsys.readouterr().err


def test_the_plain_bar_redraws_one_line() -> None:
    out = io.StringIO()
    bar = Progress(4, True, "templates", out, plain=True)
    bar.last -= 1  # as if a second had passed
    bar(1)
    bar.close()
    assert out.getvalue().count("\n") == 1 and out.getvalue().startswith("\r[#######")
