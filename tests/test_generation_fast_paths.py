"""The training path's fast paths make exactly what the plain paths make.

``ds[i]`` and ``ds.__getitems__`` reached their speed through shortcuts: instances drawn at
any numbers in one call (``Template.sample_at``), several redraw rounds of a few pending
instances examined in one call, every conditioning nudge evaluated in one call, random
numbers for every input in one pass, items grouped by template, items read in order drawn a
block at a time (``dataset._ReadAhead``), and the multiple-choice candidates and option texts
made when the template compiles. Each is checked here against
the plain version it replaced (written out in the test where the code no longer has it).
"""

from __future__ import annotations

import collections
import pickle
from typing import Any

import numpy as np
import pytest
import sympy as sp

import physgen
from physgen import distractors, validity
from physgen.expressions import symbols_for
from physgen.formats.choice import _symbols, option_texts
from physgen.render import STYLES, format_expression
from physgen.sampling import stream_key, uniforms
from physgen.template import Template

#: Templates with rejections, integers, logs, temperatures, constants, a solver and an algebraic one.
IDS = ["mechanics.projectile_range", "mechanics.simple_pendulum_period", "electricity.rlc_series_circuit",
       "optics.thin_lens", "thermo.ideal_gas_law", "electricity.dc_motor_losses"]


@pytest.fixture(scope="module")
def templates(catalog: physgen.Catalog) -> list[Template]:
    chosen = [catalog[i] for i in IDS if i in catalog]
    chosen += [t for t in catalog.templates() if t.spec.solver is not None][:1]
    chosen += [t for t in catalog.templates() if t.question_type == "algebraic"][:1]
    chosen += [t for t in catalog.templates() if any(s.integer for s in t.spec.inputs.values())][:1]
    assert len(chosen) >= 8
    return chosen


def _rows(batch: physgen.template.InstanceBatch) -> list[tuple[object, ...]]:
    cols = [batch.index, *batch.shown.values(), *batch.si.values(), *batch.answers.values(),
            *batch.intermediates.values()]
    return [tuple(float(c[i]) for c in cols) for i in range(len(batch))]


def test_sample_at_gives_the_rows_sample_gives(templates: list[Template]) -> None:
    picked = [41, 3, 3, 0, 977, 12, 40]  # any order, with a repeat
    for t in templates:
        for displayed in (True, False):
            plain = _rows(t.sample(978, seed=5, displayed=displayed))
            assert _rows(t.sample_at(picked, seed=5, displayed=displayed)) == [plain[k] for k in picked]
            assert _rows(t.sample_at(np.array(picked, dtype=np.int64), seed=5, displayed=displayed)) == \
                [plain[k] for k in picked]


def test_one_instance_alone_is_that_instance_of_a_long_draw(templates: list[Template]) -> None:
    """One instance draws several rounds per call; a long draw one round per call."""
    for t in templates:
        plain = _rows(t.sample(60, seed=2))
        assert [_rows(t.sample(1, seed=2, start=k))[0] for k in range(60)] == plain
        assert _rows(t.sample(0, seed=2)) == []


def test_sample_at_rejects_what_is_not_instance_numbers(templates: list[Template]) -> None:
    for bad in ([-1], [1.5], [[1, 2]]):
        with pytest.raises(ValueError, match="whole numbers"):
            templates[0].sample_at(bad)  # type: ignore[arg-type]
    assert len(templates[0].sample_at([])) == 0


def test_uniforms_with_an_array_of_draws_is_one_call_per_draw() -> None:
    key = stream_key(3, "mechanics.demo")
    index = np.array([0, 5, 5, 2**40], dtype=np.uint64)
    draws = np.array([0, 1, 9, 77], dtype=np.uint64)
    plain = [uniforms(key, index[j:j + 1], int(draws[j]))[0] for j in range(4)]
    assert uniforms(key, index, draws).tolist() == plain


def _plain_conditioned(t: Template, si: dict[str, np.ndarray],
                       answers_si: dict[str, np.ndarray]) -> np.ndarray:
    """The conditioning check as it was: the answers evaluated once per nudged input."""
    ok = np.ones(next(iter(answers_si.values())).shape, dtype=bool)
    limit = validity.CONDITIONING_SHARE * validity.RTOL
    for name, spec in t.spec.inputs.items():
        if spec.exact or spec.integer:
            continue
        conv = t.input_si[name]
        nudged = dict(si)
        nudged[name] = conv.to_si(conv.from_si(si[name]) * (1 + validity.NUDGE))
        moved = t.evaluate_si(nudged)
        for answer, base in answers_si.items():
            if (answer, name) not in t.power_laws:
                ok &= np.abs(moved[answer] - base) <= limit * np.abs(base)
    return ok


def test_conditioning_in_one_call_is_the_check_per_input(templates: list[Template]) -> None:
    rejected = 0
    for t in templates:
        if t.question_type != "numerical":
            continue
        shown = t.draw_candidates(stream_key(0, t.id), np.arange(400, dtype=np.uint64), 0)
        si = {n: t.input_si[n].to_si(v) for n, v in shown.items()}
        with np.errstate(all="ignore"):
            answers = t.evaluate_si(si)
            fast = validity._conditioned(t, si, answers)
        assert fast.tolist() == _plain_conditioned(t, si, answers).tolist(), t.id
        rejected += int((~fast).sum())
    assert rejected > 0  # the draws include ill-conditioned ones, so both outcomes are compared


def test_getitems_and_iteration_are_the_items_one_by_one(catalog: physgen.Catalog) -> None:
    ds = physgen.dataset(catalog.filter(domain="optics"), size=10**9, seed=3,
                         formats=["free_form", "mc_numerical", "mc_symbolic", "units", "noop", "omitted"])
    picked = [5, 0, 5, 999_999_937, 17, *range(40, 70)]
    assert ds.__getitems__(picked) == [ds[i] for i in picked]
    assert list(ds[:70]) == [ds[i] for i in range(70)]
    shard = ds.shard(1, 4)
    assert shard.__getitems__([0, 2]) == [shard[0], shard[2]]
    with pytest.raises(IndexError):
        ds[:3].__getitems__([1, 3])


def test_items_read_in_order_through_the_read_ahead_are_the_items_read_alone(
        catalog: physgen.Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reads in order draw a template's instances for the look-ahead window in one call
    (``dataset._ReadAhead``); each item must be the one a lone read makes: read in order, by a
    shard, in batches in order and shuffled, by data-loader workers that each read every
    other batch, after a jump back, and for a template whose draw fails."""
    from physgen import dataset as dataset_module

    monkeypatch.setattr(dataset_module, "_PER_TEMPLATE", 4)  # a short window: it slides, and
    monkeypatch.setattr(dataset_module, "_MIN_AHEAD", 16)  # templates are drawn again
    source = catalog.filter(domain="optics")
    formats = ["free_form", "mc_numerical", "mc_symbolic", "omitted"]
    ds = physgen.dataset(source, size=10**9, seed=5, formats=formats)
    alone = physgen.dataset(source, size=10**9, seed=5, formats=formats)

    def lone(i: int) -> dict[str, Any]:
        alone._plan.ahead.last = 2**70  # the next read is never in order: the direct path
        return alone[i]

    calls: list[tuple[str, int]] = []
    sample_at = Template.sample_at

    def counted(self: Template, indices: Any, seed: int = 0, **kwargs: bool) -> Any:
        calls.append((self.id, len(indices)))
        return sample_at(self, indices, seed, **kwargs)

    monkeypatch.setattr(Template, "sample_at", counted)
    read = [ds[i] for i in range(100, 700)]
    assert len(calls) < len(read) / 2 and max(n for _, n in calls) > 3  # instances were drawn together
    drawn = collections.Counter(tid for tid, _ in calls)
    assert max(drawn.values()) > 2  # the window slid: a template drawn again for later items
    assert not alone._plan.ahead.blocks
    assert read == [lone(i) for i in range(100, 700)]
    assert not alone._plan.ahead.blocks
    shard = ds.shard(2, 7)
    assert [shard[j] for j in range(20, 90)] == [lone(2 + 7 * j) for j in range(20, 90)]
    assert ds.__getitems__(list(range(900, 964))) == [lone(i) for i in range(900, 964)]
    assert [ds[i] for i in (400, 401, 402, 403)] == [lone(i) for i in (400, 401, 402, 403)]  # back
    shuffled = [1203, 77, 1200, 5, 1201, 640]
    assert ds.__getitems__(shuffled) == [lone(i) for i in shuffled]
    for worker in range(2):  # DataLoader(ds, batch_size=8, num_workers=2): batches w, w + 2, …
        copy = pickle.loads(pickle.dumps(ds))
        assert not copy._plan.ahead.blocks  # a worker starts empty
        batches = [list(range(3000 + 8 * b, 3008 + 8 * b)) for b in range(worker, 40, 2)]
        assert [copy.__getitems__(b) for b in batches] == [[lone(i) for i in b] for b in batches]

    def failing(self: Template, indices: Any, seed: int = 0, **kwargs: bool) -> Any:
        if len(indices) > 1:
            raise physgen.SamplingError("no parameter set")
        return sample_at(self, indices, seed, **kwargs)

    monkeypatch.setattr(Template, "sample_at", failing)  # each item then takes the direct path
    fresh = physgen.dataset(source, size=10**9, seed=5, formats=formats)
    assert [fresh[i] for i in range(2000, 2100)] == [lone(i) for i in range(2000, 2100)]


def test_the_read_ahead_keeps_apart_templates_that_share_an_id_and_takes_any_curriculum(
        catalog: physgen.Catalog) -> None:
    """Found by a review: the read-ahead numbered templates by id, so a user's edited copy of a
    template (the same id) was rendered as the original; and a curriculum that never widens
    (``every`` past every index, or a NumPy integer) crashed its block arithmetic."""
    import dataclasses

    import numpy as np

    from physgen.dataset import Curriculum

    t = catalog["optics.thin_lens"]
    edited = dataclasses.replace(t, texts=tuple(reversed(t.texts)))
    sources: list[tuple[Any, dict[str, Any]]] = [([t, edited], {})]
    sources += [(catalog.filter(domain="optics"), {"difficulty": Curriculum(every=every, start=1)})
                for every in (10**20, 2**63 - 1, np.uint64(700))]
    for source, kwargs in sources:
        ds = physgen.dataset(source, size=5000, seed=1, **kwargs)
        alone = physgen.dataset(source, size=5000, seed=1, **kwargs)

        def lone(i: int, alone: Any = alone) -> dict[str, Any]:
            alone._plan.ahead.last = 2**70  # the next read is never in order: the direct path
            return alone[i]

        assert [ds[i] for i in range(3000, 3300)] == [lone(i) for i in range(3000, 3300)]
        shuffled = [4000, 17, 4001, 9, 2]
        assert ds.__getitems__(shuffled) == [lone(i) for i in shuffled]


def test_rows_rendered_alone_are_the_instances_of_the_batch(catalog: physgen.Catalog,
                                                            templates: list[Template]) -> None:
    """``instance.Rows`` (the read-ahead renders one row at a time) makes the instance
    ``iter_instances`` makes of each row: every style and notation, algebraic templates that
    vary, and a template whose texts read a number's parts through Jinja."""
    from physgen.instance import Rows, iter_instances

    chosen = [*templates, *[t for t in catalog.templates() if t.variation is not None][:2],
              *[t for t in catalog.templates() if any(x.needs_jinja for x in (*t.texts, *t.steps))][:2]]
    for t in chosen:
        batch = t.sample_at([9, 2, 2, 40], seed=4)
        for style in STYLES:
            for notation in ("auto", "plain", "scientific"):
                rows = Rows(batch, style, notation)
                assert [rows[j] for j in (3, 0, 1, 2)] == [list(iter_instances(batch, style, notation))[j]
                                                          for j in (3, 0, 1, 2)], (t.id, style, notation)


def test_an_item_whose_first_draw_makes_nothing_draws_again_in_a_batch(catalog: physgen.Catalog) -> None:
    """A format may make nothing for an instance (a plugin's choice): the batch must then draw
    that item again exactly as ``ds[i]`` does."""
    from physgen.formats import FORMATS, register_format
    from physgen.formats.free_form import free_form

    @register_format("test_picky")
    def picky(inst: Any, paraphrase: int, ctx: Any) -> tuple[physgen.Variant, ...]:
        return () if inst.template.domain < "m" else free_form(inst, paraphrase, ctx)

    try:
        ds = physgen.dataset(catalog, size=10**6, seed=0, formats=["test_picky"])
        plan = ds._plan
        redrawn = [i for i in range(200) if plan._choice(i, 0)[0].domain < "m"]
        assert len(redrawn) > 5
        picked = [*redrawn[:10], 1, 2]
        assert ds.__getitems__(picked) == [ds[i] for i in picked]
    finally:
        del FORMATS["test_picky"]


def test_candidates_compiled_at_load_compute_what_lambdify_computes(templates: list[Template]) -> None:
    for t in templates:
        args = list(symbols_for([*t.spec.inputs, *t.constants]).values())
        point = [1.3 + 0.1 * j for j in range(len(args))]
        tables = t.candidate_functions.get()
        assert set(tables) == set(t.answer_names)
        for answer in t.answer_names:
            named, generic = tables[answer]
            exprs = distractors.candidates(t, answer)
            keys = sorted((k, n) for k, n, _ in (*named, *generic))
            assert keys == [(k, n) for k, (n, _) in enumerate(exprs)]
            mistakes = {m for m, _ in t.mistakes.get(answer, [])}
            assert [k for k, _, _ in named] == [k for k, (n, _) in enumerate(exprs) if n in mistakes]
            for k, _, fn in (*named, *generic):
                with np.errstate(all="ignore"):
                    want = np.asarray(sp.lambdify(args, exprs[k][1], modules="numpy")(*point))
                    got = np.asarray(fn(*point))
                assert got.tobytes() == want.tobytes(), (t.id, answer, k)


def test_option_texts_made_at_load_are_the_printed_expressions(templates: list[Template]) -> None:
    for t in templates:
        texts = t.option_texts.get()
        if t.spec.solver is not None:  # algebraic templates have options too
            assert texts == {}
            continue
        names = _symbols(t)
        for answer, expr in t.expressions.items():
            wrong = (*distractors.candidates(t, answer), *distractors.scaled(t, answer))
            for style in STYLES:
                table = texts[answer, style]
                assert table.right == format_expression(expr, names, style) and table.sympy == str(expr)
                assert table.wrong == tuple(format_expression(e, names, style) for _, e in wrong)
        assert option_texts(t) == texts


def test_the_tables_survive_the_cache(templates: list[Template]) -> None:
    """A template is cached and sent to workers by pickle: the tables go with it."""
    for t in templates:
        back = pickle.loads(pickle.dumps(t))
        assert back.option_texts.get() == t.option_texts.get()
        assert {a: [n for _, n, _ in (*nm, *g)] for a, (nm, g) in back.candidate_functions.get().items()} == \
            {a: [n for _, n, _ in (*nm, *g)] for a, (nm, g) in t.candidate_functions.get().items()}


def test_a_mistake_named_like_a_generic_slip_keeps_its_own_text(catalog: physgen.Catalog) -> None:
    """Option texts are kept by position, not name: two templates name a mistake ``inverted`` or
    ``dropped_pi``, as a generic slip is named, and each option must show its own expression."""
    shared = {name for name, _ in distractors.GENERIC}
    symbolic = [t for t in catalog.templates() if t.spec.solver is None and t.question_type == "numerical"]
    # a clash needs the generic slip offered too (a dimension-changing one is not, for a quantity
    # with a dimension), so only answers whose candidates really repeat a name count
    clashing = [(t, a) for t in symbolic for a in t.answer_names
                if {m for m, _ in t.mistakes.get(a, [])} & shared
                and len({n for n, _ in distractors.candidates(t, a)}) < len(distractors.candidates(t, a))]
    assert clashing
    for t, answer in clashing:
        exprs = distractors.candidates(t, answer)
        table = t.option_texts.get()[answer, "unicode"]
        for k, (_, e) in enumerate(exprs):
            assert table.wrong[k] == format_expression(e, _symbols(t), "unicode")


def test_redraw_rounds_sized_by_the_acceptance_seen_keep_each_first_accepted_round(
        catalog: physgen.Catalog, templates: list[Template], monkeypatch: pytest.MonkeyPatch) -> None:
    """Bulk sampling draws as many redraw rounds per call as the acceptance so far needs; one round
    per call (the plain loop) gives the same rows, in more calls."""
    from physgen import template as template_module

    calls: collections.Counter[str] = collections.Counter()
    accept = Template.accept

    def counted(self: Template, *args: Any, **kwargs: Any) -> Any:
        calls[mode] += 1
        return accept(self, *args, **kwargs)

    monkeypatch.setattr(Template, "accept", counted)
    rejecting = [t for t in catalog.templates() if t.spec.constraints or t.spec.checks][:12]
    for t in [*templates, *rejecting]:
        for displayed in (True, False):
            mode = "sized"
            sized = _rows(t.sample(300, seed=4, displayed=displayed))
            mode = "plain"
            with monkeypatch.context() as m:
                m.setattr(template_module, "_rounds", lambda pending, examined, accepted: 1)
                plain = _rows(t.sample(300, seed=4, displayed=displayed))
            assert sized == plain, t.id
    assert calls["sized"] < calls["plain"] / 2, calls  # the sized rounds were exercised


def test_a_batch_makes_its_named_tuples_as_its_rows_are_assembled(catalog: physgen.Catalog) -> None:
    """The collector never untracks a named tuple: a column of them made ahead for a whole chunk
    would be promoted to the oldest generation and bring on full collections of every object."""
    import gc

    from physgen.instance import iter_instances
    from physgen.variant import ShownQuantity

    def live() -> int:
        return sum(1 for o in gc.get_objects() if type(o) is ShownQuantity)

    batch = catalog["mechanics.projectile_range"].sample(512, seed=0)
    before = live()
    rows = iter_instances(batch)
    first = next(rows)
    assert live() - before < 16
    assert len(list(rows)) == 511 and len(first.inputs) == 2


def test_an_instance_s_texts_respelled_once_are_those_respelled_each_time(
        catalog: physgen.Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Algebraic variation respells each text of an instance once, for all its paraphrases and
    formats; respelled every time it is met (the plain way), the variants are the same."""
    from physgen import algebraic

    varied = [t for t in catalog.templates() if t.variation is not None][:5]
    assert varied
    formats = ["free_form", "noop", "omitted"]
    for style in STYLES:
        once = list(physgen.generate(varied, n=12, style=style, formats=formats))
        with monkeypatch.context() as m:
            m.setattr(algebraic, "_respelling",
                      lambda inst, renamed, style: algebraic._respeller(inst.template, renamed, style))
            each_time = list(physgen.generate(varied, n=12, style=style, formats=formats))
        assert once == each_time
        assert len({v.prompt for v in once}) > len(once) // 2


def test_the_read_ahead_window_holds_no_object_the_collector_tracks(catalog: physgen.Catalog) -> None:
    """The window's first draws (tens of thousands, each kept for a window of reads) are arrays
    and lists of ints, which the collector never tracks: a tuple or an object per item would
    fill its oldest generation and bring on full collections."""
    import gc

    ds = physgen.dataset(catalog.filter(domain="optics"), size=10_000, seed=0)
    for i in range(40):  # in order: the window fills
        ds[i]
    blocks = ds._plan.ahead.blocks
    assert sum(len(b.numbers) for b in blocks) > 4000
    assert not [x for b in blocks for column in (b.templates, b.bits, b.numbers) for x in column
                if gc.is_tracked(x) or type(x) is not int]


@pytest.mark.parametrize("step", [1, 3])
def test_the_read_ahead_draws_a_block_of_items_as_each_is_drawn_alone(catalog: physgen.Catalog,
                                                                      step: int) -> None:
    """The read-ahead hashes a block of items and picks their templates, formats and instance
    numbers in NumPy (``dataset._Block``); each must be what ``_Plan._choice`` draws for the item
    alone: weights, a curriculum whose stage changes inside the block, algebraic templates
    (instance number modulo their problems), a shard's stride and indices near 2**63."""
    from physgen.dataset import Curriculum, _Block, _Tables

    source = [*catalog.filter(domain="optics").templates()[:6],
              *[t for t in catalog.templates() if t.question_type == "algebraic"][:3]]
    weights = {t.id: 1 + j % 3 for j, t in enumerate(source)}
    plans = [physgen.dataset(source, size=2**63 - 1, seed=9, weights=weights,
                             formats=["free_form", "mc_numerical"])._plan,
             physgen.dataset(source, size=10**6, seed=2, difficulty=Curriculum(every=300, start=1))._plan]
    for plan in plans:
        tables = _Tables(plan.pools)
        for lo in (0, 250, 2**63 - 1 - 700 * step):
            items = range(lo, lo + 600 * step, step)
            if items[-1] >= (2**63 - 1 if plan.curriculum is None else 10**6):
                continue
            block = _Block(plan, tables, items)
            got = [(tables.templates[g].id, tables.formats[g][b % len(tables.formats[g])],
                    b // len(tables.formats[g]), k)
                   for g, b, k in zip(block.templates, block.bits, block.numbers, strict=True)]
            assert got == [(t.id, fmt, bits, k) for t, fmt, bits, k in (plan._choice(i, 0) for i in items)]


def test_what_a_question_is_asked_in_terms_of_needs_no_expressions(catalog: physgen.Catalog) -> None:
    """An algebraic or ``mc_symbolic`` question lists the symbols each answer is written in: kept
    when the template compiles (the free symbols of each expression as the cache gives it back),
    so asking unpickles no SymPy."""
    from physgen.formats.prompting import asks

    chosen = [t for t in catalog.templates() if t.spec.solver is None][::20]
    chosen += [t for t in catalog.templates() if t.question_type == "algebraic"][:3]
    for t in chosen:
        unpickled = pickle.loads(pickle.dumps(t.expressions))  # as the cache gives them back
        assert t.answer_symbols == {n: {str(x) for x in e.free_symbols} for n, e in unpickled.items()}
        fresh = pickle.loads(pickle.dumps(t))  # as a worker or a cached catalog gets it
        sentences = [asks(fresh, p, style, answer, True) for p in range(len(t.texts)) for style in STYLES
                     for answer in t.spec.answers]
        assert fresh._symbolic._value is None  # the expressions stayed pickled
        assert sentences == [asks(t, p, style, answer, True) for p in range(len(t.texts)) for style in STYLES
                             for answer in t.spec.answers]
        assert all("in terms of" in s for s in sentences) or t.question_type == "numerical"
