"""Hostile data never harms: the compiled-template cache, graded rows and code answers.

Cache payloads plant pickles whose loading would create a canary file; the test
asserts that the canary never appears, that the catalog still loads (from a
rebuilt cache, or without one) and that each problem gives one warning line. Row
payloads go through the commands that read rows (``grade``, ``metrics``,
``report``, ``split``): each must exit with status 1 and one line on stderr that
names ``file:line``, and write nothing. Nothing here measures time: hangs are
caught by pytest-timeout. ``docs/security.md`` lists what each layer guarantees.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import pickle
import re
import socket
import stat
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import physgen
from physgen import cache, jsonl, rewards
from physgen.catalog import BUILTIN_ROOT, load_template
from physgen.cli import main
from physgen.errors import CacheWarning, RecordSizeError, RowError
from physgen.export import read_jsonl
from physgen.grading import extract_code, grade
from physgen.metrics import record, summary
from physgen.reading import steps as step_reading
from physgen.sandbox import SandboxUnavailable, run_function
from physgen.variant import MAX_ENTRIES, MAX_NAME, MAX_STEP

from .conftest import good, write_template

pytestmark = pytest.mark.timeout(120)


# -- the cache --------------------------------------------------------------------------------------


class Canary:
    """Unpickling this creates ``path``: proof that a planted pickle was loaded."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (open, (str(self.path), "w"))


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """A private cache folder, key folder and one-template catalog; module state reset."""
    folder, config, root = tmp_path / "cache", tmp_path / "config", tmp_path / "t"
    monkeypatch.setenv("PHYSGEN_CACHE_DIR", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.delenv("PHYSGEN_NO_CACHE", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    write_template(root, good())
    cache._signing_key.cache_clear()
    cache._warned.clear()
    yield {"folder": folder, "config": config, "root": root, "canary": tmp_path / "canary"}
    cache._signing_key.cache_clear()
    cache._warned.clear()


def _load(root: Path) -> list[str]:
    """Load the catalog and make variants (so every template is unpickled or compiled)."""
    return [v.to_json() for v in physgen.generate(physgen.load_catalog(root), n=2)]


def _warnings(root: Path) -> tuple[list[str], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = _load(root)
    messages = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
    assert all("\n" not in m for m in messages), messages
    return out, messages


def _evil(canary: Path) -> bytes:
    return pickle.dumps((cache.LAYOUT, "anything", {"k": (Canary(canary), pickle.dumps(Canary(canary)))}))


def _signed_file(env: dict[str, Path]) -> Path:
    """Load once so the cache file exists; its path."""
    _load(env["root"])
    path = cache.Store(env["root"]).path
    assert path is not None and path.is_file()
    return path


def test_a_valid_cache_is_signed_read_back_and_the_key_is_private(env: dict[str, Path]) -> None:
    reference, messages = _warnings(env["root"])
    assert messages == []
    key_file = env["config"] / "physgen" / "cache.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700
    store = cache.Store(env["root"])
    assert store._stored and store.path is not None and store.path.read_bytes().startswith(cache.MAGIC)
    assert not any(env["folder"].rglob("*.key"))  # the key is never kept in the cache folder
    assert _warnings(env["root"]) == (reference, [])


@pytest.mark.parametrize("name", ["unsigned pickle", "old-format name", "forged signature",
                                  "tampered payload", "truncated", "header only", "another key",
                                  "empty file"])
def test_planted_or_damaged_cache_files_never_load(env: dict[str, Path], name: str) -> None:
    path = _signed_file(env)
    reference = _load(env["root"])
    evil = _evil(env["canary"])
    head = len(cache.MAGIC) + 8 + 32
    good_bytes = path.read_bytes()
    kid = good_bytes[len(cache.MAGIC):len(cache.MAGIC) + 8]
    if name == "unsigned pickle":
        path.write_bytes(evil)
    elif name == "old-format name":  # the name an unsigned cache file had before signing
        (path.parent / f"{hashlib.sha256(str(env['root'].resolve()).encode()).hexdigest()[:32]}.pickle") \
            .write_bytes(evil)
    elif name == "forged signature":
        path.write_bytes(cache.MAGIC + kid + b"\0" * 32 + evil)
    elif name == "tampered payload":
        path.write_bytes(good_bytes[:head] + evil)
    elif name == "truncated":
        path.write_bytes(good_bytes[: len(good_bytes) // 2])
    elif name == "header only":
        path.write_bytes(good_bytes[: head - 3])
    elif name == "another key":  # signed properly, but by someone else's key
        other = b"k" * 32
        other_id = hashlib.sha256(b"physgen cache key id\0" + other).digest()[:8]
        sig = hmac.new(other, cache.MAGIC + other_id + evil, hashlib.sha256).digest()
        path.write_bytes(cache.MAGIC + other_id + sig + evil)
    elif name == "empty file":
        path.write_bytes(b"")
    cache._warned.clear()
    out, messages = _warnings(env["root"])
    assert out == reference
    assert not env["canary"].exists()
    if name in ("old-format name", "another key"):
        assert messages == []  # never read, or rebuilt silently
    else:
        assert len(messages) == 1 and "rebuilding" in messages[0], messages
    assert cache.Store(env["root"])._stored  # rebuilt and signed again


@pytest.mark.parametrize("kind", ["symlink to a planted pickle", "symlink to /dev/zero", "fifo", "folder"])
def test_cache_files_that_are_not_regular_files_are_not_read(env: dict[str, Path], kind: str) -> None:
    path = _signed_file(env)
    path.unlink()
    planted = path.parent.parent / "planted"
    planted.write_bytes(_evil(env["canary"]))
    if kind == "symlink to a planted pickle":
        path.symlink_to(planted)
    elif kind == "symlink to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    out, messages = _warnings(env["root"])
    assert out and not env["canary"].exists()
    assert len(messages) == 1 and "rebuilding" in messages[0], messages


@pytest.mark.parametrize("which", ["cache folder", "catalogs folder"])
@pytest.mark.parametrize("mode", [0o777, 0o775, 0o1777])
def test_a_cache_folder_others_can_write_to_is_not_used(env: dict[str, Path], which: str, mode: int) -> None:
    path = _signed_file(env)
    path.write_bytes(_evil(env["canary"]))
    (env["folder"] if which == "cache folder" else path.parent).chmod(mode)
    before = sorted(p.name for p in path.parent.iterdir())
    out, messages = _warnings(env["root"])
    assert out and not env["canary"].exists()
    assert len(messages) == 1 and "can be written by others" in messages[0], messages
    assert _warnings(env["root"])[1] == []  # once per process and folder
    assert sorted(p.name for p in path.parent.iterdir()) == before  # nothing written there either


def test_a_new_cache_folder_is_private_under_a_loose_umask(env: dict[str, Path]) -> None:
    old = os.umask(0o002)
    try:
        _, messages = _warnings(env["root"])
    finally:
        os.umask(old)
    assert messages == []
    for folder in (env["folder"], env["folder"] / "catalogs"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_a_cache_folder_owned_by_someone_else_is_not_used(env: dict[str, Path]) -> None:
    path = _signed_file(env)
    path.write_bytes(_evil(env["canary"]))
    os.chown(env["folder"], 12345, -1)
    out, messages = _warnings(env["root"])
    assert out and not env["canary"].exists()
    assert len(messages) == 1 and "belongs to user id 12345" in messages[0]


@pytest.mark.parametrize("problem", ["readable by others", "symlink", "wrong size", "folder writable"])
def test_a_key_that_could_be_known_turns_the_cache_off(env: dict[str, Path], problem: str) -> None:
    path = _signed_file(env)
    key_file = env["config"] / "physgen" / "cache.key"
    if problem == "readable by others":
        key_file.chmod(0o644)
    elif problem == "symlink":
        elsewhere = key_file.parent / "elsewhere"
        key_file.rename(elsewhere)
        key_file.symlink_to(elsewhere)
    elif problem == "wrong size":
        key_file.write_bytes(b"short")
    else:
        key_file.parent.chmod(0o777)
    path.write_bytes(_evil(env["canary"]))
    cache._signing_key.cache_clear()
    out, messages = _warnings(env["root"])
    assert out and not env["canary"].exists()
    assert len(messages) == 1 and "not using the template cache" in messages[0], messages
    assert path.read_bytes() == _evil(env["canary"])  # not read, not rewritten


def test_no_private_place_for_a_key_means_no_cache(env: dict[str, Path], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))  # mkdir fails below a file, even for root
    monkeypatch.setenv("HOME", str(blocker))
    out, messages = _warnings(env["root"])
    assert out and len(messages) == 1 and "no private place for its signing key" in messages[0]
    assert not list(env["folder"].rglob("*.pickle"))


def test_the_key_is_never_kept_inside_the_cache_folder(env: dict[str, Path], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(env["folder"] / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    _load(env["root"])
    assert not list(env["folder"].rglob("cache.key"))
    assert (tmp_path / "home" / ".config" / "physgen" / "cache.key").is_file()


def test_two_environments_keep_their_own_cache_files(env: dict[str, Path],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    real = cache.fingerprint()
    names = []
    for k in range(cache.KEEP_PER_CATALOG + 2):  # more environments than are kept
        monkeypatch.setattr(cache, "fingerprint", lambda k=k: hashlib.sha256(real + bytes([k])).digest())
        _load(env["root"])
        store = cache.Store(env["root"])
        assert store.path is not None and store._stored  # written, then read back in this environment
        names.append(store.path.name)
        os.utime(store.path, ns=(k * 10**9, k * 10**9))  # a clear order of use
    assert len(set(names)) == len(names)
    kept = sorted(p.name for p in (env["folder"] / "catalogs").glob("*.pickle"))
    assert len(kept) == cache.KEEP_PER_CATALOG  # bounded, the oldest deleted
    assert names[-1] in kept and names[0] not in kept
    # switching back and forth between two live environments rebuilds nothing
    for k in (len(names) - 2, len(names) - 1, len(names) - 2):
        monkeypatch.setattr(cache, "fingerprint", lambda k=k: hashlib.sha256(real + bytes([k])).digest())
        assert cache.Store(env["root"])._stored


# -- rows -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def variant_row() -> dict[str, Any]:
    t = load_template(BUILTIN_ROOT / "optics" / "thin_lens.yaml")
    return next(physgen.generate([t], n=1)).to_dict()


@pytest.fixture(scope="module")
def graded_row(variant_row: dict[str, Any]) -> dict[str, Any]:
    v = physgen.Variant.from_dict(variant_row)
    g = grade(v, "no idea")
    rec = record(v, g, model="m")
    rec.update(grade=g.to_dict(), prompt=v.prompt, response="no idea")
    return rec


def _file(tmp_path: Path, lines: list[str | bytes]) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines))
    return path


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], where: str) -> str:
    status = main(argv, io.StringIO())
    err = capsys.readouterr().err
    assert status == 1, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"{where}: " in err, err
    return err


DEEP = "[" * 100_000 + "]" * 100_000
NOT_OBJECTS = ["[1, 2]", "5", '"text"', "null", "true"]


@pytest.mark.parametrize("bad", [DEEP, '{"a":' * 100_000 + "1" + "}" * 100_000,
                                 '{"a": ' + "[" * 40 + "]" * 40 + "}",  # within Python's limit, over ours
                                 *NOT_OBJECTS, '{"broken": ', "9" * 5000, b'{"a": "\xff\xfe"}',
                                 '{"a": 1} trailing'])
@pytest.mark.parametrize("command", ["grade", "metrics", "report", "split"])
def test_malformed_lines_are_one_line_errors_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], graded_row: dict[str, Any],
        variant_row: dict[str, Any], command: str, bad: str | bytes) -> None:
    good_line = json.dumps({**(variant_row if command == "grade" else graded_row), "response": "x"})
    path = _file(tmp_path, [good_line, "", bad])  # the bad row is on line 3
    out = tmp_path / "out"
    argv = {"grade": ["grade", str(path), "-o", f"{out}.jsonl"], "metrics": ["metrics", str(path)],
            "report": ["report", str(path), "-o", f"{out}.html"],
            "split": ["split", str(path), "-o", str(out)]}[command]
    _one_line_error(capsys, argv, f"{path}:3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.jsonl"]


def test_a_line_longer_than_the_bound_is_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE", 1000)
    path = _file(tmp_path, ['{"correct": true}', '{"response": "' + "x" * 5000 + '"}'])
    err = _one_line_error(capsys, ["metrics", str(path)], f"{path}:2")
    assert "longer than 1,000 bytes" in err


@pytest.mark.parametrize(("field", "value", "says"), [
    ("response", 5, "'response' is a number, not a string"),
    ("response", ["a"], "'response' is a JSON array"),
    ("response", {"a": 1}, "'response' is a JSON object"),
    ("attempt", "x", "'attempt' is a JSON string, not a whole number"),
    ("attempt", -1, "'attempt' is a number, not a whole number"),
    ("attempt", True, "'attempt' is true or false"),
    ("model", 5, "'model' is a number"),
    ("answers", "x", "not a physgen variant"),
    ("inputs", [1], "not a physgen variant"),
    ("format", 5, "not a physgen variant"),
    ("format", "nope", "unknown format 'nope'"),
])
def test_wrong_typed_fields_of_response_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             variant_row: dict[str, Any], field: str, value: Any,
                                             says: str) -> None:
    row = {**variant_row, "response": "no idea", field: value}
    path = _file(tmp_path, [json.dumps({**variant_row, "response": "x"}), json.dumps(row)])
    err = _one_line_error(capsys, ["grade", str(path), "-o", "-"], f"{path}:2")
    assert says in err
    assert capsys.readouterr().out == ""  # nothing graded on stdout either


def test_a_response_row_without_response_and_a_null_reply(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          variant_row: dict[str, Any]) -> None:
    path = _file(tmp_path, [json.dumps(variant_row)])
    assert "no 'response' field" in _one_line_error(capsys, ["grade", str(path), "-o", "-"], f"{path}:1")
    path = _file(tmp_path, [json.dumps({**variant_row, "response": None})])
    out = io.StringIO()
    assert main(["grade", str(path), "-o", "-"], out) == 0
    graded = json.loads(out.getvalue())
    assert graded["correct"] is False and set(graded["parts"].values()) == {"missing"}


@pytest.mark.parametrize(("field", "value", "says"), [
    ("correct", "yes", "'correct' is a JSON string, not true or false"),
    ("correct", None, "'correct' is null"),
    ("score", "x", "'score' is a JSON string"),
    ("score", 2, "'score' is a number, not a number from 0 to 1"),
    ("score", float("nan"), "'score' is nan"),
    ("score", float("inf"), "'score' is inf"),
    ("template_id", [1], "'template_id' is a JSON array"),
    ("instance_id", {"a": 1}, "'instance_id' is a JSON object"),
    ("format", 3, "'format' is a number"),
    ("attempt", 1.5, "'attempt' is 1.5"),
    ("parts", ["x"], "'parts' is a JSON array"),
    ("grade", "x", "'grade' is a JSON string"),
    ("grade", {"parts": [1]}, "'grade' is a JSON object, not an object whose parts are objects"),
    ("model", ["m"], "'model' is a JSON array"),
])
@pytest.mark.parametrize("command", ["metrics", "report"])
def test_wrong_typed_fields_of_graded_records(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              graded_row: dict[str, Any], command: str, field: str,
                                              value: Any, says: str) -> None:
    path = _file(tmp_path, [json.dumps(graded_row), json.dumps({**graded_row, field: value})])
    argv = ["metrics", str(path)] if command == "metrics" else ["report", str(path), "-o",
                                                                 str(tmp_path / "r.html")]
    assert says in _one_line_error(capsys, argv, f"{path}:2")
    assert not (tmp_path / "r.html").exists()


def test_missing_correct_and_split_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          graded_row: dict[str, Any]) -> None:
    row = {k: v for k, v in graded_row.items() if k != "correct"}
    path = _file(tmp_path, [json.dumps(row)])
    assert "no 'correct' field" in _one_line_error(capsys, ["metrics", str(path)], f"{path}:1")
    row = {k: v for k, v in graded_row.items() if k != "instance_id"}
    path = _file(tmp_path, [json.dumps(row)])
    assert "no 'instance_id' field" in _one_line_error(capsys, ["split", str(path), "--by", "instance"],
                                                       f"{path}:1")
    path = _file(tmp_path, [json.dumps({**graded_row, "domain": 5})])
    assert "'domain' is a number" in _one_line_error(capsys, ["split", str(path)], f"{path}:1")


def test_good_rows_with_a_byte_order_mark_and_blank_lines_still_work(
        tmp_path: Path, graded_row: dict[str, Any]) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(graded_row).encode() + b"\n\n\n"
                     + json.dumps({**graded_row, "correct": True, "score": 1.0}).encode() + b"\n")
    out = io.StringIO()
    assert main(["metrics", str(path), "--format", "json", "--resamples", "0"], out) == 0
    assert {r["metric"]: r["value"] for r in json.loads(out.getvalue())}["accuracy"] == 0.5


def test_python_readers_name_the_line_and_refuse_non_records(tmp_path: Path) -> None:
    path = _file(tmp_path, ['{"a": 1}', DEEP])
    with pytest.raises(RowError, match=f"^{path}:2: arrays and objects nest too deep"):
        list(read_jsonl(path))
    with pytest.raises(RowError, match="record 1 is a JSON array, not a dict"):
        summary([{"correct": True}, [1, 2]], n_resamples=0)


# -- variant records: bounded at reading ------------------------------------------------------------


@pytest.fixture(scope="module")
def stepped_row() -> dict[str, Any]:
    """A real variant record whose worked steps find intermediates."""
    t = load_template(BUILTIN_ROOT / "electricity" / "rlc_series_circuit.yaml")
    row = next(physgen.generate([t], n=1)).to_dict()
    assert row["intermediates"]
    return row


def _with_intermediates(row: dict[str, Any], n: int) -> dict[str, Any]:
    """``row`` carrying ``n`` plausible intermediates, all found in its first step from nothing,
    each 10 % above the last (so no two agree), in the unit of its first intermediate."""
    unit = next(iter(row["intermediates"].values()))["unit"]
    values = [1.5 * 1.1 ** i for i in range(n)]
    return {**row, "intermediates": {
        f"q{i}": {"value": x, "unit": unit, "text": f"{x:.4g} {unit}", "sig_figs": 4, "step": 0, "uses": []}
        for i, x in enumerate(values)}}


def test_a_record_with_2000_intermediates_is_refused_and_a_reward_is_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], stepped_row: dict[str, Any]) -> None:
    """The record that took 27-49 s to grade with ``steps=True``: refused before it is read
    further, in Python, by ``physgen grade`` (one line, nothing written), and by the rewards
    (0, with a warning that says why)."""
    row = _with_intermediates(stepped_row, 2000)
    with pytest.raises(RecordSizeError, match=r"at most 100 intermediates, this one 2000: .* regenerate it"):
        physgen.Variant.from_dict(row)
    path = _file(tmp_path, [json.dumps({**r, "response": "x"}) for r in (stepped_row, row)])
    err = _one_line_error(capsys, ["grade", str(path), "-o", str(tmp_path / "g.jsonl")], f"{path}:2")
    assert "at most 100 intermediates, this one 2000" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.jsonl"]
    reply = "Final answer: " + ", ".join(a["text"] for a in row["answers"].values())
    for ground_truth in (json.dumps(row), row):
        with pytest.warns(UserWarning, match="physgen scored 0: a variant record holds at most 100 inter"):
            assert rewards.compute_score("physgen", reply, ground_truth) == 0.0
    with pytest.warns(UserWarning, match="scored 0"):
        assert rewards.trl_reward(prompts=["p"], completions=[reply], variant=[json.dumps(row)]) == [0.0]
    assert rewards.compute_score("physgen", reply, stepped_row) == 1.0  # the record itself scores


def _over(row: dict[str, Any], field: str) -> dict[str, Any]:
    """``row`` with one more entry in ``field`` than :data:`MAX_ENTRIES` allows, or (``name``,
    ``step``, ``uses``) one name, step or list of uses longer than allowed."""
    if field == "name":
        first = next(iter(row["inputs"].values()))
        return {**row, "inputs": {**row["inputs"], "x" * (MAX_NAME + 1): first}}
    if field == "step":
        return {**row, "steps": [*row["steps"], "v = 1 m/s " * (MAX_STEP // 10 + 1)]}
    if field == "uses":
        name, first = next(iter(row["intermediates"].items()))
        uses = [name] * (MAX_ENTRIES["intermediates"] + 1)
        return {**row, "intermediates": {**row["intermediates"], name: {**first, "uses": uses}}}
    n = MAX_ENTRIES[field] + 1
    if field in ("steps", "unanswerable"):
        return {**row, field: ["step"] * n}
    if field == "code_tests":
        return {**row, field: [{"inputs": {"x": 1.0}, "expected": {"y": 2.0}}] * n}
    if field == "options":
        return {**row, field: {f"L{i}": "1 m" for i in range(n)}}
    first = next(iter(row[field].values()))
    return {**row, field: {f"x{i}": first for i in range(n)}}


@pytest.mark.parametrize(("field", "says"), [
    ("inputs", "at most 100 inputs, this one 101"), ("answers", "at most 50 answers, this one 51"),
    ("intermediates", "at most 100 intermediates, this one 101"), ("steps", "at most 100 steps"),
    ("options", "at most 100 options"), ("code_tests", "at most 100 code_tests"),
    ("unanswerable", "at most 50 unanswerable"), ("name", "names of 100 characters, this one 101 (inputs"),
    ("step", "steps of 10000 characters"), ("uses", "at most 100 uses per intermediate, this one 101"),
])
def test_each_cap_refuses_one_more_with_a_message_that_says_what_to_do(
        stepped_row: dict[str, Any], field: str, says: str) -> None:
    with pytest.raises(RecordSizeError, match=rf"{re.escape(says)}.*: it was not made by physgen .* regen"):
        physgen.Variant.from_dict(_over(stepped_row, field))
    assert isinstance(RecordSizeError("x"), ValueError)  # `except ValueError` still catches it


def test_a_record_at_the_cap_is_graded_and_the_known_values_are_checked_once(
        stepped_row: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """100 intermediates (the cap) in one step; the reply states the first half and misses the
    rest. Each missing one looks for a wrong value stated where it stands, one that is no known
    quantity: the values are checked against the known quantities once for the reply (at most
    values x known calls of ``matches``), not once per missing step (half the cap times that)."""
    row = _with_intermediates(stepped_row, MAX_ENTRIES["intermediates"])
    v = physgen.Variant.from_dict(row)
    stated = list(v.intermediates.values())[:50]
    reply = "".join(f"z{i} = {q.text}\n" for i, q in enumerate(stated))
    reply += "Final answer: " + ", ".join(a.text for a in v.answers.values())
    calls = 0
    original = step_reading.matches

    def counted(*args: Any) -> bool:
        nonlocal calls
        calls += 1
        return original(*args)

    monkeypatch.setattr(step_reading, "matches", counted)
    g = grade(v, reply, steps=True)
    assert g.correct and g.steps is not None
    assert [s.reason for s in g.steps.steps] == ["correct"] * 50 + ["missing"] * 50
    known = len(v.inputs) + len(v.answers) + len(v.intermediates)
    assert calls <= 2 * len(stated) * known  # 10,800; each missing step checking them again made 69,380


# -- code answers -----------------------------------------------------------------------------------


PROJECTILE = """\
import math
def solve(v0, theta):
    g = 9.81
    return (v0**2 * math.sin(2 * theta) / g, 2 * v0 * math.sin(theta) / g,
            (v0 * math.sin(theta))**2 / (2 * g))
"""


def _sandbox() -> None:
    try:
        run_function("def f():\n    return 1\n", "f", [{}])
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))


def test_extract_code_reads_past_a_long_preamble_in_one_pass() -> None:
    preamble = "Let me think about this step by step. " * 700  # about 27 kB
    fenced = f"{preamble}\n```python\n{PROJECTILE}```\nThat is all."
    assert extract_code(fenced) == PROJECTILE
    assert extract_code(f"```python\n# {'x' * 25_000}\n{PROJECTILE}```") == f"# {'x' * 25_000}\n{PROJECTILE}"
    mixed = f"```js\nlet a = 1;\n```\n```python\n{PROJECTILE}```\n```text\nout\n```"
    assert extract_code(mixed) == PROJECTILE
    for hostile in ("`" * 300_000, "```\n" * 100_000, "```python\n" * 100_000, ("```" + "a" * 30) * 30_000):
        assert isinstance(extract_code(hostile), str)  # linear: pytest-timeout would catch a blow-up


@pytest.mark.parametrize("preamble", ["# " + "c" * 25_000 + "\n", "Reasoning. " * 2500 + "\n"])
def test_a_correct_solve_after_a_long_preamble_is_graded_correct(preamble: str) -> None:
    _sandbox()
    t = load_template(BUILTIN_ROOT / "mechanics" / "projectile_range.yaml")
    v = next(physgen.generate([t], n=1, formats=["code"]))
    inside = preamble.startswith("#")  # a comment inside the block, or prose before it
    reply = f"```python\n{preamble}{PROJECTILE}```" if inside else f"{preamble}```python\n{PROJECTILE}```"
    assert len(reply) > 25_000
    assert grade(v, reply).correct


def _run(body: str) -> Any:
    code = "import os, socket, sys\ndef f():\n" + "".join(f"    {line}\n" for line in body.splitlines())
    return run_function(code, "f", [{}], timeout=5)


@pytest.mark.parametrize("family", ["AF_INET", "AF_INET6", "AF_VSOCK", "AF_NETLINK", "AF_PACKET"])
def test_seccomp_refuses_sockets_but_unix_ones(family: str) -> None:
    _sandbox()
    if not hasattr(socket, family):
        pytest.skip(f"no {family} here")
    kind = "SOCK_DGRAM" if family in ("AF_NETLINK", "AF_PACKET") else "SOCK_STREAM"
    r = _run(f"socket.socket(socket.{family}, socket.{kind})\nreturn 1")
    assert r.status == "exception" and "Errno 97" in r.error, r
    unix = _run("socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\nsocket.socketpair()\nreturn 1")
    assert unix.outputs == [1.0], unix


def test_seccomp_refuses_pidfd_getfd() -> None:
    _sandbox()
    # pidfd 0 is not a pidfd: the kernel itself would say EBADF, so EPERM is the filter's answer
    r = _run("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nlibc.syscall(438, 0, 0, 0)\n"
             "return ctypes.get_errno()")
    assert r.outputs == [1.0], r


def test_the_sandbox_sees_the_standard_library_only() -> None:
    _sandbox()
    import sysconfig

    site = os.path.join(os.path.realpath(sysconfig.get_paths()["stdlib"]), "site-packages")
    if not os.path.isdir(site):
        pytest.skip(f"no {site} here")
    r = _run(f"import math, json, fractions\nreturn [len(os.listdir({site!r})), math.sqrt(4.0)]")
    assert r.outputs == [[0.0, 2.0]], r
    assert _run("import numpy\nreturn 1").error.startswith("ModuleNotFoundError")
    r = _run(f"open({site!r} + '/planted.py', 'w')\nreturn 1")
    assert r.status == "exception" and "Read-only file system" in r.error
