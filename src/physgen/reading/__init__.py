"""The reply reader: one pipeline, one small module per stage.

1. :mod:`.span` — the final-answer span (markers, boxes; continuations and loops cut);
2. :mod:`.segment` — which text belongs to which asked part;
3. :mod:`.numbers` and :mod:`.units` — numbers, expressions and units, bounded;
4. :mod:`.quantity` — the one value a part commits to (hedges, corrections, notes);
5. :mod:`.compare` — units, tolerance and sign;
6. :mod:`.verdict` — the :class:`~.verdict.Grade` with a reason and evidence per part.

:mod:`.choice`, :mod:`.algebra` and :mod:`.refusal` read option letters,
expressions and "cannot be determined". Formats compose these stages into their
graders (:mod:`physgen.formats`); nothing here knows about formats or variants.
"""
