"""The README's facts about the command line, checked against the code (issue 21): its error
example is the real command's output, the capacity and variant counts it quotes are the
catalog's, and the file its main command writes is one git ignores."""

from __future__ import annotations

import io
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

import physgen
from physgen.cli import main
from physgen.generation import count_variants

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_the_error_example_is_the_real_output(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    example = re.search(r"```\n\$ (physgen .*)\n(physgen .*: error: .*)\n```", README)
    assert example, "the README's CLI error example"
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(example.group(1))[1:], io.StringIO()) == 1
    assert capsys.readouterr().err.strip() == example.group(2)


def test_the_quoted_numbers_are_the_catalogs(catalog: physgen.Catalog) -> None:
    capacity = re.search(r"\(hydrogen\s+transitions: (\d+)\)", README)
    assert capacity and int(capacity.group(1)) == catalog["modern.hydrogen_transition"].capacity()
    command = re.search(r"physgen generate -n (\d+) --seed 0 -o (\S+)\n", README)
    assert command
    total = re.search(r"That is ([\d,]+) variants", README)
    assert total and int(total.group(1).replace(",", "")) == count_variants(catalog, int(command.group(1)))
    per_type: dict[str, set[int]] = {}
    for t in catalog.templates():
        if len(t.texts) == 3:
            per_type.setdefault(t.question_type, set()).add(count_variants([t], 100))
    assert per_type["numerical"] == {300}
    assert min(per_type["algebraic"]) >= 3 * 20 and max(per_type["algebraic"]) <= 300
    assert "a numerical template gives about 300 variants" in README
    assert "at least 20 of them, so\nit gives 3 per problem, up to 300." in README


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_git_ignores_what_the_main_command_writes() -> None:
    command = re.search(r"physgen generate -n \d+ --seed 0 -o (\S+)\n", README)
    assert command
    output = command.group(1)
    ignored = subprocess.run(["git", "check-ignore", "-q", output], cwd=ROOT, check=False)
    assert ignored.returncode == 0, f"{output} is not covered by .gitignore"
