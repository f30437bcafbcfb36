"""Every metric against hand-computed values (the docs' worked example), and edge cases."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from physgen import metrics
from physgen.metrics import attempts, breakdown, compare, conditional_accuracy, pass_at_k, summary

DOC = (Path(__file__).resolve().parents[1] / "docs" / "metrics.md").read_text(encoding="utf-8")
EXAMPLE = json.loads(re.search(r"```json\n(.*?)```", DOC, re.S).group(1))  # type: ignore[union-attr]
TABLE = {m.group(1).replace("\\|", "|").strip(): float(m.group(2))
         for m in re.finditer(r"^\| ([^|]+(?:\\\|[^|]+)?) \| ([0-9.]+) \|$", DOC, re.M)}


def test_the_worked_example_in_the_docs() -> None:
    s = summary(EXAMPLE, n_resamples=0)
    for key in ("accuracy", "partial_accuracy", "consistency", "complete_failure", "confusion"):
        assert s[key].value == pytest.approx(TABLE[key], abs=1e-6), key
    s = summary(EXAMPLE, by="instance", n_resamples=0)
    for key in ("consistency", "complete_failure", "confusion"):
        assert s[key].value == pytest.approx(TABLE[f"instance {key}"], abs=1e-6), key
    cond = conditional_accuracy(EXAMPLE)
    assert cond[("free_form", "mc_numerical")] == pytest.approx(TABLE["P(mc_numerical | fail free_form)"])
    expected = TABLE["P(free_form | fail mc_numerical)"]
    assert cond[("mc_numerical", "free_form")] == pytest.approx(expected, abs=1e-6)
    # in order, and no diagonal: P(A | fail A) would be 0 by construction
    assert list(cond) == [("free_form", "mc_numerical"), ("mc_numerical", "free_form")]
    b = breakdown(EXAMPLE, "format")
    assert b["free_form"]["accuracy"] == pytest.approx(TABLE["free_form accuracy"], abs=1e-6)
    assert b["mc_numerical"]["accuracy"] == pytest.approx(TABLE["mc_numerical accuracy"])
    assert b["free_form"]["n"] == 7


ATTEMPTS = [
    {"variant_id": p, "template_id": "T", "instance_id": p, "attempt": i, "correct": c}
    for p, outcomes in {"P1": [1, 0, 1, 1], "P2": [0, 0, 0, 0], "P3": [0, 1]}.items()
    for i, c in enumerate(outcomes)
]


def test_attempt_metrics_by_hand() -> None:
    a2 = attempts(ATTEMPTS, 2)
    assert a2["avg@2"] == pytest.approx(1 / 3) and a2["best@2"] == pytest.approx(2 / 3)
    assert a2["pass@2"] == pytest.approx(2 / 3) and a2["problems"] == 3
    assert a2["attempt_std"] == pytest.approx((math.sqrt(0.75 * 0.25) + 0 + 0.5) / 3)
    a4 = attempts(ATTEMPTS, 4)
    assert a4["avg@4"] == pytest.approx(3 / 8) and a4["pass@4"] == pytest.approx(0.5) and a4["problems"] == 2
    with pytest.raises(ValueError, match="no problem has 5 attempts"):
        attempts(ATTEMPTS, 5)


def test_attempt_order_does_not_matter() -> None:
    shuffled = list(reversed(ATTEMPTS))
    assert attempts(shuffled, 2) == attempts(ATTEMPTS, 2)


@pytest.mark.parametrize(("n", "c", "k", "value"), [
    (10, 3, 1, 0.3), (10, 0, 5, 0.0), (10, 10, 3, 1.0), (5, 2, 2, 1 - (3 * 2) / (5 * 4)), (4, 3, 2, 1.0),
])
def test_pass_at_k(n: int, c: int, k: int, value: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(value)
    # the estimator equals the exact probability over all k-subsets
    from itertools import combinations
    outcomes = [1] * c + [0] * (n - c)
    subsets = list(combinations(range(n), k))
    exact = sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)
    assert pass_at_k(n, c, k) == pytest.approx(exact)


def test_pass_at_k_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)


def _rows(groups: dict[str, list[bool]]) -> list[dict[str, object]]:
    return [{"template_id": g, "instance_id": f"{g}{i}", "variant_id": f"{g}{i}", "format": "free_form",
             "correct": c} for g, cs in groups.items() for i, c in enumerate(cs)]


def test_edge_cases() -> None:
    one_each = summary(_rows({"a": [True], "b": [False], "c": [True]}), n_resamples=0)
    assert one_each["consistency"].value == pytest.approx(2 / 3)
    assert one_each["complete_failure"].value == pytest.approx(1 / 3)
    assert one_each["confusion"].value == 0.0
    all_right = summary(_rows({"a": [True, True], "b": [True]}), n_resamples=200)
    assert all_right["accuracy"].value == 1.0 and all_right["accuracy"].low == 1.0
    assert all_right["consistency"].value == 1.0 and all_right["complete_failure"].value == 0.0
    all_wrong = summary(_rows({"a": [False, False], "b": [False]}), n_resamples=0)
    assert all_wrong["accuracy"].value == 0.0 and all_wrong["complete_failure"].value == 1.0
    unequal = summary(_rows({"big": [True] * 9 + [False], "small": [False]}), n_resamples=0)
    assert unequal["accuracy"].value == pytest.approx(9 / 11)  # records, not groups, are averaged
    assert unequal["confusion"].value == 0.0
    band = summary(_rows({"x": [True, False, False, False, False]}), band=(0.2, 0.2), n_resamples=0)
    assert band["confusion"].value == 1.0  # the band is inclusive


def test_missing_parts_count_in_partial_accuracy() -> None:
    rows = [{"template_id": "t", "instance_id": "i", "variant_id": "v", "correct": False, "score": 1 / 3},
            {"template_id": "t", "instance_id": "j", "variant_id": "w", "correct": True, "score": 1.0}]
    s = summary(rows, n_resamples=0)
    assert s["partial_accuracy"].value == pytest.approx(2 / 3) and s["accuracy"].value == 0.5


def test_bootstrap_is_seeded_and_brackets_the_value() -> None:
    rows = _rows({f"g{k}": [(k * 7 + i) % 3 == 0 for i in range(5 + k % 4)] for k in range(30)})
    a = summary(rows, seed=1)
    b = summary(rows, seed=1)
    c = summary(rows, seed=2)
    assert a == b and a["accuracy"] != c["accuracy"]
    for key in ("accuracy", "partial_accuracy", "consistency", "complete_failure", "confusion"):
        assert a[key].low <= a[key].value <= a[key].high
    assert a["accuracy"].high - a["accuracy"].low > 0.02  # groups differ, so the CI has width


def test_breakdown_by_list_column_and_pairs() -> None:
    rows = [{"template_id": "t", "correct": True, "subdomain": ["a", "b"], "difficulty": 1},
            {"template_id": "t", "correct": False, "subdomain": ["b"], "difficulty": 2}]
    by_tag = breakdown(rows, "subdomain")
    assert by_tag["a"]["accuracy"] == 1.0 and by_tag["b"]["accuracy"] == 0.5 and by_tag["b"]["n"] == 2
    pairs = breakdown(rows, ["difficulty", "subdomain"])
    assert pairs[(2, "b")]["accuracy"] == 0.0


def test_paired_comparison() -> None:
    a = _rows({f"g{k}": [True, True, k % 2 == 0] for k in range(20)})
    b = _rows({f"g{k}": [True, False, False] for k in range(20)})
    result = compare(a, b, seed=3)
    assert result["difference"].value == pytest.approx((10 / 60) + (20 / 60))
    assert result["difference"].low > 0 and result["p_a_not_better"].value == 0.0
    assert compare(a, a, n_resamples=100)["difference"].value == 0.0
    with pytest.raises(ValueError, match="share no variant"):
        compare(a, [{"variant_id": "zzz", "template_id": "x", "correct": True}])


def test_histogram_of_group_accuracies() -> None:
    hist = metrics.histogram(EXAMPLE, bins=4)
    assert [h[2] for h in hist] == [1, 0, 1, 2]  # T2=0 | | T3=0.5 | T1=0.8, T4=1


def test_empty_records_are_refused() -> None:
    with pytest.raises(ValueError, match="no graded records"):
        summary([])


def test_pandas_frames_if_available() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(EXAMPLE)
    assert summary(frame, n_resamples=0)["accuracy"].value == pytest.approx(7 / 12)
    tidy = metrics.to_frame(summary(EXAMPLE, n_resamples=50))
    assert list(tidy.columns) == ["metric", "value", "low", "high"]
