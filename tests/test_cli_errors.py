"""The command-line mistakes a new user meets first (issue 21): each is one line that says what
to change, with status 1, and nothing is written."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from physgen.cli import main

LENS = ["--template", "optics.thin_lens"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(argv, io.StringIO())
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert "Traceback" not in err and len(errors) == (status != 0), err
    return status, errors[0] if errors else ""


@pytest.mark.parametrize("argv", [["generate", *LENS, "-n", "1", "-o", "x.parquet"],
                                  ["lm-eval", *LENS, "-n", "1", "-o", "tasks"],
                                  ["grade", "responses.parquet"]])
def test_parquet_without_pyarrow_says_what_to_install(argv: list[str], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "responses.parquet").write_bytes(b"PAR1")
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` raises ImportError
    if argv[0] == "lm-eval":  # needs no pyarrow: the check is only for Parquet
        assert run(argv, capsys)[0] == 0
        return
    status, error = run(argv, capsys)
    assert status == 1 and error.endswith('need pyarrow: pip install "physgen[parquet]"'), error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["responses.parquet"]


def test_a_missing_folder_is_named_not_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no" / "dir" / "out.jsonl"
    status, error = run(["generate", *LENS, "-n", "1", "-o", str(target)], capsys)
    assert status == 1 and f"the folder {target.parent} does not exist" in error, error
    assert f"mkdir -p {target.parent}" in error
    assert list(tmp_path.iterdir()) == []
    status, error = run(["schema", "-o", str(tmp_path / "no" / "schemas")], capsys)
    assert status == 1 and f"the folder {tmp_path / 'no'} does not exist" in error, error


def test_an_unwritable_path_is_reported_by_its_own_name(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.open

    def refuse(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        if str(path).endswith(".tmp"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, mode)

    monkeypatch.setattr(os, "open", refuse)  # as root, a read-only folder would still be writable
    target = tmp_path / "out.jsonl"
    status, error = run(["generate", *LENS, "-n", "1", "-o", str(target)], capsys)
    assert status == 1 and error.endswith(f"cannot write {target}: Permission denied"), error
    assert ".tmp" not in error and list(tmp_path.iterdir()) == []


def test_a_template_outside_the_filters_is_not_called_missing(capsys: pytest.CaptureFixture[str]) -> None:
    status, error = run(["generate", *LENS, "--domain", "mechanics", "-n", "1"], capsys)
    assert status == 1 and "does not exist" not in error and "no template" not in error
    assert ("the template optics.thin_lens and domain mechanics select nothing together: optics.thin_lens "
            "is in domain optics") in error and "drop the template or the other criteria" in error


def test_split_refuses_to_write_an_empty_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "one.jsonl"
    assert main(["generate", *LENS, "-n", "3", "-o", str(rows)], io.StringIO()) == 0
    status, error = run(["split", str(rows)], capsys)
    assert status == 1 and "the test file would be empty" in error and "split --by instance" in error, error
    assert [p.name for p in tmp_path.iterdir()] == ["one.jsonl"]
    assert run(["split", str(rows), "--by", "instance"], capsys)[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "one.test.jsonl", "one.train.jsonl"]


def test_python_dash_m_physgen_is_the_command() -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "physgen", "generate", *LENS, "--domain", "mechanics"],
                          capture_output=True, text=True, check=False, env={**os.environ, "PYTHONPATH": str(
                              Path(__file__).resolve().parents[1] / "src")})
    assert done.returncode == 1 and "select nothing together" in done.stderr, done.stderr
