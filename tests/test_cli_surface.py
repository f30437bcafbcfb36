"""The command line's surface: one-line errors that name the value and the valid choices,
no file left behind, output format by extension, help on every command, the variant count
and a progress bar before long runs; and the library's argument checks behind them."""

from __future__ import annotations

import io
import json
import os
import sys
import warnings
from pathlib import Path

import pytest

import physgen
from physgen.cli import build_parser, main
from physgen.errors import (
    ArgumentError,
    CapacityWarning,
    PhysgenError,
    SourceTypeError,
    UnknownTemplateError,
)
from physgen.generation import count_variants

LENS = ["--template", "optics.thin_lens"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    status = main(argv, out)
    captured = capsys.readouterr()
    return status, out.getvalue() + captured.out, captured.err


@pytest.mark.parametrize(("argv", "status", "message"), [
    (["generate", "--domain", "electricity"], 1,
     "unknown domain 'electricity'; valid: electricity_and_magnetism, mechanics, modern_physics, optics, "
     "quantum, relativity, statistical_mechanics, thermodynamics, waves_and_oscillations (did you mean "
     "'electricity_and_magnetism' or 'relativity'?); 'electricity' is "
     "the id prefix of"),
    (["generate", "--tag", "orbit"], 1, "unknown tag 'orbit'; valid: aberration, ac_circuits, "),
    (["generate", "--tag", "orbit"], 1, "(did you mean 'orbits' or "),
    (["generate", "--difficulty", "7"], 2,
     "argument --difficulty: invalid choice: 7 (choose from 1, 2, 3, 4, 5)"),
    (["generate", *LENS, "--format", "mc_numeric"], 1,
     "unknown format 'mc_numeric'; available: code, free_form, mc_numerical, mc_symbolic, noop, omitted, "
     "units (did you mean 'mc_numerical'?)"),
    (["generate", "--template", "optics.thin_lense"], 1,
     "no template 'optics.thin_lense' in this catalog (did you mean 'optics.thin_lens' or "),
    (["generate", *LENS, "--paraphrases", "first"], 2,
     "argument --paraphrases: 'first' is not 'all', 'random' or indices like 0,2"),
    (["generate", *LENS, "--paraphrases", "0,7"], 1,
     "optics.thin_lens has paraphrases 0..2; [7] do not exist"),
    (["generate", *LENS, "--style", "latx"], 2,
     "argument --style: invalid choice: 'latx' (choose from 'unicode', 'latex', 'ascii') "
     "(did you mean 'latex'?)"),
    (["generate", *LENS, "-n", "-1"], 2, "argument -n: -1 is less than 0"),
    (["generate", *LENS, "-n", "ten"], 2, "argument -n: 'ten' is not a whole number"),
    (["generate", *LENS, "-j", "0"], 2, "argument -j/--jobs: 0 is less than 1"),
    (["generate", *LENS, "--n-options", "9"], 2, "argument --n-options: invalid choice: 9 (choose from 2, 3"),
    (["generate", *LENS, "--domian", "optics"], 2,
     "unrecognized arguments: --domian optics (did you mean '--domain'?)"),
    (["generat"], 2, "argument <command>: invalid choice: 'generat' (choose from "),
    (["generat"], 2, "(did you mean 'generate'?)"),
    (["generate", *LENS, "-n", "0"], 1, "no variants: -n is 0"),
    (["generate", "--template", "mechanics.spring_mass_period_symbolic", "--format", "units"], 1,
     "no variants: format(s) units apply to none of the 1 selected template(s)"),
    (["generate", "--domain", "statistical_mechanics", "--difficulty", "1"], 1,
     "no template matches --domain statistical_mechanics --difficulty 1"),
    (["show", "optics.nothing"], 1, "no template 'optics.nothing' in this catalog"),
    (["split", "x.jsonl", "--test-size", "2"], 2,
     "argument --test-size: 2 is not between 0 and 1 (e.g. 0.1)"),
    (["metrics", "missing.jsonl"], 1, "missing.jsonl: no such file"),
    (["grade", "responses.csv"], 1, "unknown input format '.csv'; valid: .jsonl, .parquet (responses.csv)"),
])
def test_bad_input_gets_one_line(argv: list[str], status: int, message: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    output = ["-o", "out.jsonl"] if argv[0] == "generate" else []
    got, _, err = run([*argv, *output], capsys)
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert got == status and len(errors) == 1 and message in errors[0], err
    assert errors[0].startswith(f"physgen{' ' + argv[0] if argv[0] != 'generat' else ''}: error: ")
    assert "Traceback" not in err and "usage:" not in err
    assert list(tmp_path.iterdir()) == []  # no empty or partial file


@pytest.mark.parametrize(("name", "message"), [
    ("x.csv", "unknown output format '.csv'; valid: .jsonl, .parquet"),
    ("x.json", "unknown output format '.json'; valid: .jsonl, .parquet (did you mean '.jsonl'?)"),
    ("x", "unknown output format '(none)'; valid: .jsonl, .parquet"),
    ("folder.jsonl", "folder.jsonl is a folder; give a file name ending in .jsonl"),
])
def test_output_format_follows_the_extension(name: str, message: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "folder.jsonl").mkdir()
    status, _, err = run(["generate", *LENS, "-n", "1", "-o", str(tmp_path / name)], capsys)
    assert status == 1 and len(err.strip().splitlines()) == 1 and message in err
    assert [p.name for p in tmp_path.iterdir()] == ["folder.jsonl"]


def test_unwritable_path_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x")
    status, _, err = run(["generate", *LENS, "-n", "1", "-o", str(tmp_path / "file" / "v.jsonl")], capsys)
    assert status == 1 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("physgen generate: error: ")
    assert f"the folder {tmp_path / 'file'} is not a folder" in err
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".JSONL"])
def test_writes_the_format_of_the_extension_with_normal_permissions(
        suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / f"v{suffix}"
    old = os.umask(0o022)
    try:
        status, _, err = run(["generate", *LENS, "-n", "2", "--paraphrases", "0", "-o", str(out)], capsys)
    finally:
        os.umask(old)
    assert status == 0 and out.stat().st_mode & 0o777 == 0o644
    head = out.read_bytes()[:4]
    assert (head == b"PAR1") == (suffix == ".parquet")
    if suffix != ".parquet":
        rows = [json.loads(x) for x in out.read_text().splitlines()]
        assert [r["template_id"] for r in rows] == ["optics.thin_lens"] * 2
    assert "wrote 2 variants from 1 templates" in err


def test_prints_the_count_before_the_run_and_shows_progress(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyarrow")
    argv = ["generate", "--domain", "optics", "-n", "3", "--progress"]
    status, _, err = run([*argv, "-o", str(tmp_path / "v.parquet")], capsys)
    optics = physgen.load_catalog().filter(domain="optics")
    total = count_variants(optics, 3)
    first = err.splitlines()[0]
    assert status == 0 and first == (f"physgen generate: {total:,} variants: {len(optics)} template(s) × "
                                     "3 instance(s) × all paraphrases (3–4) × 1 format(s)")
    assert f"{total}" in err.splitlines()[-2] or "100%" in err  # tqdm's bar, finished
    monkeypatch.setitem(sys.modules, "tqdm", None)  # no tqdm: the plain bar
    status, _, err = run([*argv, "-o", str(tmp_path / "w.jsonl")], capsys)
    assert status == 0 and f"[##############################] 100% {total}/{total} variants" in err


def test_capacity_warning_and_unique(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["generate", "--template", "modern.hydrogen_transition", "-n", "100", "--paraphrases", "0"]
    status, _, err = run([*argv, "-o", str(tmp_path / "a.jsonl")], capsys)
    warning = [x for x in err.splitlines() if x.startswith("physgen generate: warning: ")]
    assert status == 0 and len(warning) == 1 and warning[0].startswith(
        "physgen generate: warning: n=100 is more than 1 template(s) can show different parameter sets: "
        "modern.hydrogen_transition (at most 20)")
    status, _, err = run([*argv, "--unique", "-o", str(tmp_path / "b.jsonl")], capsys)
    ids = [json.loads(x)["instance_id"] for x in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert status == 0 and len(ids) == len(set(ids)) == 12
    assert "at most 100 variants" in err and "found 12 different parameter sets in 1100 draws" in err


def test_every_command_has_consistent_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    assert set(parser.commands) == {"list", "show", "validate", "generate", "lm-eval", "grade", "metrics",
                                    "report", "split", "gallery", "schema"}
    for name, command in parser.commands.items():
        assert command.description and command.epilog and command.epilog.startswith("example:\n  physgen ")
        for action in command._actions:
            assert action.help, (name, action.dest)
        status, text, _ = run([name, "--help"], capsys)
        assert status == 0 and text.startswith(f"usage: physgen {name}") and "example:" in text
    help_n = parser.commands["generate"]._option_string_actions["-n"].help
    assert help_n is not None and "instances (parameter sets) per template" in help_n
    assert "one variant per paraphrase" in help_n


def test_lm_eval_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["lm-eval", *LENS, "-n", "1", "--format", "free_form", "--format", "mc_numerical",
                          "-o", str(tmp_path / "tasks")], capsys)
    assert status == 0 and f"--include_path {tmp_path / 'tasks'} --tasks physgen" in out
    assert sorted(p.name for p in (tmp_path / "tasks").glob("*.yaml")) == [
        "physgen.yaml", "physgen_free_form.yaml", "physgen_mc_numerical.yaml"]


def test_grade_keeps_prompt_and_response(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    v = next(physgen.generate(["optics.thin_lens"], n=1))
    (tmp_path / "r.jsonl").write_text(json.dumps(dict(v.to_dict(), response="no idea")) + "\n")
    status, out, _ = run(["grade", str(tmp_path / "r.jsonl"), "-o", "-"], capsys)
    row = json.loads(out)
    assert status == 0 and row["prompt"] == v.prompt and row["response"] == "no idea"
    assert row["correct"] is False
    (tmp_path / "empty.jsonl").write_text("\n")
    status, _, err = run(["grade", str(tmp_path / "empty.jsonl"), "-o", str(tmp_path / "g.jsonl")], capsys)
    assert status == 1 and "holds no rows to grade" in err and not (tmp_path / "g.jsonl").exists()


# -- the library behind it ----------------------------------------------------------------------------
def test_errors_are_physgen_errors_and_builtins(catalog: physgen.Catalog) -> None:
    with pytest.raises(ArgumentError,
                       match=r"did you mean 'electricity_and_magnetism' or 'relativity'") as info:
        catalog.filter(domain="electricity")
    assert isinstance(info.value, PhysgenError) and isinstance(info.value, ValueError)
    with pytest.raises(KeyError) as missing:
        catalog["optics.thin_lense"]
    assert isinstance(missing.value, UnknownTemplateError) and isinstance(missing.value, PhysgenError)
    assert str(missing.value).startswith("no template 'optics.thin_lense'")  # not quoted like a KeyError
    for error in (physgen.TemplateError, physgen.CatalogError, physgen.InputError):
        assert issubclass(error, PhysgenError) and issubclass(error, ValueError)
    assert issubclass(physgen.SamplingError, RuntimeError)
    with pytest.raises(ArgumentError, match=r"unknown difficulty 0; valid: 1, 2, 3, 4, 5"):
        catalog.filter(difficulty=[1, 0])
    with pytest.raises(ArgumentError, match=r"unknown question type 'symbolic'; valid: algebraic, numerical"):
        catalog.filter(question_type="symbolic")  # type: ignore[arg-type]
    # valid values, no match: empty
    assert len(catalog.filter(domain="statistical_mechanics", difficulty=1)) == 0


@pytest.mark.parametrize(("source", "message"), [
    (lambda c: [c], r"not Catalog .*pass the catalog itself: generate\(catalog\)"),
    (lambda c: [1, 2], r"a list to generate from holds Templates or template ids, not int 1"),
    (lambda c: 5, r"generate from a Catalog, a Template, or a list of templates or template ids, not int"),
    (lambda c: "optics.thin_lens", r"not a bare string"),
])
def test_wrong_source_types_raise_type_error(catalog: physgen.Catalog, source: object, message: str) -> None:
    with pytest.raises(TypeError, match=message) as info:
        physgen.generate(source(catalog), n=1)  # type: ignore[operator]
    assert isinstance(info.value, SourceTypeError)


def test_capacity_warns_and_unique_deduplicates(catalog: physgen.Catalog) -> None:
    t = catalog["modern.hydrogen_transition"]
    assert t.capacity() == 20
    with pytest.warns(CapacityWarning, match=r"modern.hydrogen_transition \(at most 20\)"):
        plain = list(physgen.generate([t], n=100, paraphrases=[0]))
    assert len(plain) == 100 and len({v.instance_id for v in plain}) == 12
    with pytest.warns(CapacityWarning, match=r"found 12 different parameter sets in 1100 draws, not the 100"):
        unique = list(physgen.generate([t], n=100, paraphrases=[0], unique=True, chunk_size=64))
    assert len({v.instance_id for v in unique}) == len(unique) == 12
    first = [v.instance_id for v in plain]
    assert [v.instance_id for v in unique][:24] == list(dict.fromkeys(first))  # first occurrences, in order
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # enough parameter sets: no warning, same first instances
        small = list(physgen.generate(["optics.thin_lens"], n=20, paraphrases=[0], unique=True, workers=2))
        assert small == list(physgen.generate(["optics.thin_lens"], n=20, paraphrases=[0]))
