"""``physgen report``: a self-contained HTML page, checked in a real browser (headless Chromium).

The graded rows come from real variants with synthetic replies of three models (tests/graded.py).
The page is hostile-input safe: a payload in every field of a graded row is escaped, which the
tests check by parsing the page (html.parser) and by loading it in Chromium.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from physgen.cli import main
from physgen.export import read_jsonl, write_jsonl
from physgen.metrics import compare, group_accuracies
from physgen.report import CSP, report

from . import browser, graded

ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out), out.getvalue()


@pytest.fixture(scope="module")
def rows_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Graded replies of three models, made the way a user would: generate, answer, physgen grade."""
    pytest.importorskip("matplotlib")
    return graded.build(tmp_path_factory.mktemp("report"), ROOT)


@pytest.fixture(scope="module")
def page(rows_file: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("page") / "r.html"
    status, text = run(["report", str(rows_file), "-o", str(path), "--resamples", "200"])
    assert status == 0 and "wrote" in text
    return path.read_text(encoding="utf-8")


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text inside each element with an id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> Elements:
    parser = Elements()
    parser.feed(page)
    parser.close()
    return parser


def section(page: str, anchor: str) -> str:
    return page.split(f'<h2 id="{anchor}">', 1)[1].split("<h2 ", 1)[0]


def test_report_has_every_section(rows_file: Path, page: str) -> None:
    for heading in ("Headline metrics", "Model comparison", "Parse failures", "By format", "By difficulty",
                    "By domain", "By probe", "Figures", "Conditional accuracy", "Templates, best to worst",
                    "Templates", "Worst templates"):
        assert f">{heading}<" in page, heading
    rows = list(read_jsonl(rows_file))
    models = sorted(graded.MODELS)
    assert all(f">{m}</th>" in page for m in models)
    # figures: format, difficulty, domain across models; heatmap, histogram, ranked templates per model
    assert page.count("<img ") == 3 + 3 * len(models)
    assert page.count('<div class="models">') == 3 and page.count('<div class="who">') == 3 * len(models)
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", page)  # nothing outside the page
    for m in models:
        mine = [r for r in rows if r["model"] == m]
        assert f"{100 * (sum(r['correct'] for r in mine) / len(mine)):.1f} %" in page
    assert page.count('class="example"') == 5 and "<b>Prompt</b>" in page
    assert "omitted" in page and "pp</span>" in page  # the probe table's change column


def test_paired_comparison_of_each_pair(rows_file: Path, page: str) -> None:
    rows = list(read_jsonl(rows_file))
    per = {m: [r for r in rows if r["model"] == m] for m in graded.MODELS}
    table = section(page, "comparison")
    found = re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td><td class=\"num\">([\d,]+)</td>"
                       r"<td class=\"num\"><span class=\"\w*\">([+-][\d.]+) pp</span>"
                       r"<div class=\"ci\">\[([+-][\d.]+), ([+-][\d.]+)\] pp</div>", table)
    assert len(found) == 3  # sloppy/strong, sloppy/weak, strong/weak
    for a, b, shared, diff, low, high in found:
        c = compare(per[a], per[b], n_resamples=200)
        variants = len({r["variant_id"] for r in per[a]})  # 207: algebraic templates have omitted ones
        assert int(shared.replace(",", "")) == c["paired_records"].value == variants  # attempt 0 of each
        assert float(diff) == pytest.approx(100 * c["difference"].value, abs=0.05)
        d = c["difference"]
        assert (float(low), float(high)) == pytest.approx((100 * d.low, 100 * d.high), abs=0.05)


def test_parse_failure_counts_per_model(rows_file: Path, page: str) -> None:
    rows = list(read_jsonl(rows_file))
    table = section(page, "failures")
    assert "<th>unparseable</th><th>missing</th><th>ambiguous</th>" in table and "grader_error" not in table
    for m in graded.MODELS:
        reasons = Counter(v for r in rows if r["model"] == m for v in r["parts"].values())
        row = table.split(f"<td>{m}</td>", 1)[1].split("</tr>", 1)[0]
        numbers = [int(n.replace(",", "")) for n in re.findall(r'<td class="num">([\d,]+)', row)]
        replies = sum(r["model"] == m for r in rows)
        failing = sum(any(v in ("unparseable", "missing", "ambiguous") for v in r["parts"].values())
                      for r in rows if r["model"] == m)
        assert numbers[:6] == [replies, sum(reasons.values()), reasons["unparseable"], reasons["missing"],
                               reasons["ambiguous"], failing]
        assert m != "sloppy-model" or reasons["missing"] > 20  # the fixture has parse failures to count


def test_template_table_sorted_with_domain_anchors(rows_file: Path, page: str) -> None:
    rows = list(read_jsonl(rows_file))
    per = {m: group_accuracies([r for r in rows if r["model"] == m]) for m in graded.MODELS}
    mean = {t: sum(a[t] for a in per.values()) / len(per) for t in per["weak-model"]}
    part = section(page, "templates")
    ids = {a["id"] for _, a in parse(page).tags if a.get("id")}
    domains = sorted({r["domain"] for r in rows})
    listed = 0
    for block in part.split("<h3 ")[1:]:
        anchor = re.match(r'id="([^"]+)">([^<]+)</h3>', block)
        assert anchor and anchor.group(2) in domains
        assert f'href="#{anchor.group(1)}"' in section(page, "breakdowns")  # the domain breakdown links here
        order = re.findall(r'<td id="template-[^"]+"><code>([^<]+)</code>', block)
        assert order == sorted(order, key=lambda t: mean[t]) and order  # worst first
        assert {next(r["domain"] for r in rows if r["template_id"] == t) for t in order} == {anchor.group(2)}
        listed += len(order)
    assert listed == len(mean) == len(graded.TEMPLATES)
    for target in re.findall(r'href="#([^"]+)"', page):  # every link lands somewhere
        assert target in ids, target


def test_example_replies_are_distinct(page: str) -> None:
    examples = section(page, "worst").split('<div class="example"')[1:]
    assert len(examples) == 5
    repeated = 0
    for example in examples:
        replies = re.findall(r"<pre>(.*?)</pre>", example, re.S)[1:]  # the first is the prompt
        assert replies and len(replies) == len(set(replies))
        repeated += "(attempts 0, 1)" in example  # the sloppy model's junk, given twice, shown once
    assert repeated


def test_report_of_one_model_without_prompts(tmp_path: Path) -> None:
    rows = [{"template_id": t, "instance_id": t + i, "variant_id": t + i, "format": "free_form",
             "domain": "optics", "difficulty": 1, "correct": c, "score": float(c)}
            for t, i, c in [("a", "1", True), ("a", "2", False), ("b", "1", False)]]
    write_jsonl(rows, tmp_path / "g.jsonl")
    status, page = run(["report", str(tmp_path / "g.jsonl"), "--resamples", "0"])
    assert status == 0 and page.startswith("<!DOCTYPE html>")
    assert "(unnamed model)" in page and "No example: these records have no" in page
    assert "By probe" not in page and "Model comparison" not in page  # one format, one model
    assert "carry no part verdicts" in page


PAYLOADS = ['<script>document.title="PWNED"</script>', '"><img src=x onerror="document.title=\'PWNED\'">',
            "'><svg onload=alert(1)>", "javascript:alert(1)", '<a href="javascript:alert(1)">x</a>',
            "</pre></div><iframe srcdoc='<script>alert(1)</script>'>", "<style>*{display:none}</style>",
            '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', "$\\frac{1}{0}$ {{7*7}}"]


def _hostile(row: dict[str, Any], i: int) -> dict[str, Any]:
    """The row with a payload in every text field, its part names and every nested field of its grade."""
    p = PAYLOADS[i % len(PAYLOADS)]
    out = {k: (v if k in ("correct", "score") else f"{k}{p}") for k, v in row.items()}
    out["template_id"] = f"tpl{i % 3}{p}"  # a few templates, each named by a payload
    out["instance_id"] = f"{out['template_id']}/{i % 6}"
    out["variant_id"] = f"{out['instance_id']}/{i % 2}"
    out["model"] = f"model{i % 2}{PAYLOADS[(i % 2) + 1]}"
    out["domain"] = f"dom{i % 2}{p}"
    out["difficulty"] = (i % 3) + 1 if i % 4 else f"hard{p}"
    out["attempt"] = f"{i % 2}{p}"
    names = [f"part{j}{PAYLOADS[(i + j) % len(PAYLOADS)]}" for j in range(2)]
    out["parts"] = {n: r for n, r in zip(names, ["missing", f"unparseable{p}"], strict=True)}
    out["grade"] = {"correct": False, "score": 0.0, "extra": {"deep": [p, {"deeper": p}]},
                    "parts": [{"name": n, "expected": f"exp{p}", "parsed": f"read{p}", "reason": f"why{p}",
                               "detail": p} for n in names]}
    out[f"key{p}"] = p  # a key of its own
    return out


def hostile_rows(rows_file: Path) -> list[dict[str, Any]]:
    return [_hostile(r, i) for i, r in enumerate(list(read_jsonl(rows_file))[:120])]


ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "main", "nav", "h1", "h2", "h3", "p", "a",
                "b", "div", "span", "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "figure",
                "figcaption", "img", "footer"}
ALLOWED_ATTRIBUTES = {"lang", "charset", "http-equiv", "content", "name", "class", "id", "href", "style",
                      "src", "alt", "width", "colspan"}


@pytest.mark.parametrize("route", ["cli", "python"])
def test_report_escapes_every_field(rows_file: Path, tmp_path: Path, route: str) -> None:
    rows = hostile_rows(rows_file)
    title = 'title<script>alert(1)</script><img src=x onerror=alert(1)>'
    if route == "cli":
        # `physgen report` refuses a row whose whole-number fields are text (physgen.rows), so
        # there the payloads stand in every text field; report() in Python takes them anywhere
        for i, row in enumerate(rows):
            row["attempt"], row["difficulty"] = i % 2, (i % 3) + 1
            row["paraphrase"] = i % 3
        write_jsonl(rows, tmp_path / "hostile.jsonl")
        status, _ = run(["report", str(tmp_path / "hostile.jsonl"), "-o", str(tmp_path / "h.html"),
                         "--resamples", "20", "--title", title])
        assert status == 0
        page = (tmp_path / "h.html").read_text(encoding="utf-8")
    else:
        page = report(rows, title=title, n_resamples=20)
    doc = parse(page)
    assert {t for t, _ in doc.tags} <= ALLOWED_TAGS  # no element came from a payload
    targets = {a["id"] for _, a in doc.tags if a.get("id")}
    assert all(a["href"][1:] in targets for _, a in doc.tags if a.get("href"))  # every link lands on the page
    for tag, attrs in doc.tags:
        assert set(attrs) <= ALLOWED_ATTRIBUTES, (tag, attrs)  # no on* (or any other) attribute either
        assert not any(k.startswith("on") for k in attrs)
        href = attrs.get("href")
        assert href is None or re.fullmatch(r"#[A-Za-z0-9_.-]+", href), href  # in-page links only
        assert not any("javascript:" in (v or "").lower() for k, v in attrs.items() if k in ("href", "src"))
        if tag == "img":  # the figures' labels hold payloads too: each SVG has only drawing elements
            svg = ElementTree.fromstring(base64.b64decode((attrs["src"] or "").removeprefix(
                "data:image/svg+xml;base64,")))
            for element in svg.iter():
                assert element.tag.rsplit("}", 1)[-1] not in ("script", "foreignObject", "a", "iframe")
                assert not any(k.rsplit("}", 1)[-1].startswith("on") for k in element.attrib)
                assert all(v.startswith(("#", "data:image/png;base64,"))  # an anchor, or the heatmap's pixels
                           for k, v in element.attrib.items() if k.endswith("href"))
        if tag == "meta" and attrs.get("http-equiv"):
            assert attrs == {"http-equiv": "Content-Security-Policy", "content": CSP}
    assert sum(t == "style" for t, _ in doc.tags) == 1 and sum(t == "meta" for t, _ in doc.tags) == 3
    text = "".join(doc.text)  # the payloads are shown as text, so every field reached the page
    for shown in ("model1'><svg onload=alert(1)>", "tpl0", "dom1", "(attempts 1" if route == "python" else
                  "(attempt", "exp", "read", "why", "part0", title):
        assert shown in text, shown
    assert "script-src 'none'" in CSP and "default-src 'none'" in CSP


def test_grader_errors_are_counted_apart() -> None:
    rows = [{"model": "m", "template_id": "t", "instance_id": "i", "variant_id": f"v{k}", "correct": False,
             "parts": {"a": reason, "b": "missing"}}
            for k, reason in enumerate(["grader_error", "grader_error", "grader_error", "correct"])]
    table = section(report(rows, n_resamples=0), "failures")
    assert "<th>grader_error</th>" in table and "the grader failed, not the model" in table
    cells = re.findall(r'<td class="num">([\d,]+)', table)
    assert cells == ["4", "8", "0", "4", "0", "3", "4"]  # replies, parts, unparseable, missing, ambiguous, …


def test_lists_and_dicts_where_names_belong(rows_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = list(read_jsonl(rows_file))[:40]
    for i, r in enumerate(rows):
        key = ("template_id", "instance_id", "variant_id", "domain", "format", "difficulty", "attempt")[i % 7]
        r[key] = [r[key], {"<b>": "x"}] if i % 2 else {"k": [r[key]]}
    page = report(rows, n_resamples=0)  # grouped by their repr, shown escaped: no TypeError
    assert "{&#x27;&lt;b&gt;&#x27;: &#x27;x&#x27;}" in page and "<b>x" not in page
    assert list(group_accuracies([dict(r, template_id=["t"]) for r in rows[:3]])) == ["['t']"]  # one model


def test_report_refuses_rows_that_are_not_objects() -> None:
    with pytest.raises(ValueError, match="record 2 is a list, not a mapping"):
        report([{"correct": True}, ["not", "a", "row"]])  # type: ignore[list-item]


needs_chromium = pytest.mark.skipif(browser.find() is None, reason="Chromium is not installed "
                                    "(apt-get install chromium; .ci/run installs it)")

PROBE = """JSON.stringify({
  title: document.title,
  scripts: document.scripts.length,
  handlers: [...document.querySelectorAll('*')].filter(
              e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
  csp: (document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content,
  sections: [...document.querySelectorAll('h2[id]')].map(h => h.id),
  rows: [...document.querySelectorAll('.models')].map(g => [...g.querySelectorAll('figure')].map(
          f => Math.round(f.getBoundingClientRect().top))),
  images: [...document.querySelectorAll('.models img')].map(i => [i.complete, i.naturalWidth, i.width]),
  links: [...document.querySelectorAll('a[href^="#"]')].filter(
           a => !document.getElementById(a.hash.slice(1))).length,
  templates: document.querySelectorAll('td[id^="template-"]').length,
  comparisons: document.querySelectorAll('#comparison + p + table tbody tr').length,
})"""


@needs_chromium
def test_report_renders_in_chromium(page: str, tmp_path: Path) -> None:
    from PIL import Image, ImageStat

    (tmp_path / "report.html").write_text(page, encoding="utf-8")
    shot = browser.render(tmp_path / "report.html", probe=PROBE)
    (tmp_path / "report.png").write_bytes(shot.png)
    assert shot.errors == []  # no console errors, exceptions, failed loads or CSP violations
    assert len(shot.images) == 12 and all(i["complete"] and i["width"] > 100 for i in shot.images)
    dom = json.loads(shot.probed)
    assert dom["scripts"] == 0 and dom["handlers"] == 0 and dom["csp"] == CSP
    assert dom["sections"] == ["headline", "comparison", "failures", "breakdowns", "figures", "templates",
                               "worst"]
    assert len(dom["rows"]) == 3 and all(len(r) == 3 and len(set(r)) == 1 for r in dom["rows"])  # in a row
    assert all(done and natural > 100 and 300 <= shown <= 420 for done, natural, shown in dom["images"])
    assert dom["links"] == 0 and dom["templates"] == len(graded.TEMPLATES) and dom["comparisons"] == 3
    assert 'id="templates"' in shot.dom and "<script" not in shot.dom
    image = Image.open(io.BytesIO(shot.png)).convert("L")
    assert image.size == (1280, shot.height) and shot.height > 3000
    inked = sum(image.histogram()[:200]) / (image.size[0] * image.size[1])
    assert 0.02 < inked < 0.6  # text and figures, neither blank nor a solid block
    assert ImageStat.Stat(image).stddev[0] > 20
    top = image.crop((0, 0, 1280, 600))  # the title and the headline cards are drawn
    assert sum(top.histogram()[:128]) > 2000


@needs_chromium
def test_hostile_report_runs_nothing_in_chromium(rows_file: Path, tmp_path: Path) -> None:
    title = '<img src=x onerror="document.title=\'PWNED\'">'
    page = report(hostile_rows(rows_file), title=title, n_resamples=0)
    (tmp_path / "h.html").write_text(page, encoding="utf-8")
    shot = browser.render(tmp_path / "h.html", probe=PROBE)
    dom = json.loads(shot.probed)
    assert shot.errors == []  # not even a blocked attempt: nothing was there to block
    assert dom["title"] == "<img src=x onerror=\"document.title='PWNED'\">"  # shown as text, not run
    assert dom["scripts"] == 0 and dom["handlers"] == 0 and dom["links"] == 0
    assert "PWNED" not in json.dumps(dom["sections"])


def test_report_errors_are_one_line(rows_file: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["report", str(rows_file), "-o", str(tmp_path / "r.pdf")])[0] == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        f"physgen report: error: unknown output format '.pdf'; valid: .html (-o {tmp_path / 'r.pdf'})"]
    (tmp_path / "empty.jsonl").write_text("")
    assert run(["report", str(tmp_path / "empty.jsonl")])[0] == 1
    assert "holds no graded records" in capsys.readouterr().err
    assert not (tmp_path / "r.pdf").exists()
