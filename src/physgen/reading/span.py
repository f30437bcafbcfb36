"""Find the part of a reply that states the final answer.

First what is not the reply is cut: a fabricated next exchange after an answer
(``Question: …``, ``Human: …``) and a trailing repetition loop. Then the span is
the text after the last answer marker, else the ``\\boxed{}`` contents, else
``None`` (the caller looks for labels, then for the last quantity).

>>> final_span("Reasoning… **Final Answer:** 35.3 m\\n\\nQuestion: next one? Answer: 12 s")
('35.3 m', 'marker')
>>> final_span(r"so $\\boxed{12}\\text{ cm}$.")
('12 \\\\text{ cm}', 'boxed')
>>> clean_reply("The answer is 5 m. " + "I hope this helps 7. " * 6)
'The answer is 5 m. I hope this helps 7. '
"""

from __future__ import annotations

import functools
import re

from ..labels import OPTION_LETTERS, PART_LETTERS
from .verdict import Source

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"[\dA-Za-z]")
_P2 = re.compile(r"\n\s*\n")
_P3 = re.compile(rf"\d|\b[{OPTION_LETTERS}{OPTION_LETTERS.lower()}]\b|\\frac|\\sqrt|"
                 r"[a-zA-Zα-ωħℓ][₀-₉ₐ-ₜ']*\s*[=/*^·]|cannot|not|insufficient")

#: Only the last this-many characters of a reply are read (answers come last).
MAX_REPLY = 20_000
#: Longest span kept after a marker.
MAX_SPAN = 1_500

# Every pattern here sees the whole reply, so none may backtrack over a run of whitespace: after a
# line start (re.M) only [ \t]* is allowed, never \s*, which would rescan every newline of a run.
MARKER = re.compile(
    r"final[ \t]*answers?\b[\s:*_#]{0,4}|"
    r"\bthe[ \t]+(?:final[ \t]+)?answers?[ \t]+(?:is|are|would be|will be)\b[\s:*_]{0,3}|"
    r"\banswers?[ \t]*\**[ \t]*:|^[ \t]*#+[ \t]*(?:final[ \t]+)?answers?[ \t]*$",
    re.I | re.M,
)
# a marker that commits to a final answer (``Final answer:``, ``**Final Answer**``, ``# Final answer``,
# ``The final answer is``), not the words in passing (``to check the final answer, …``)
_COMMITTED = re.compile(r"final[ \t]*answers?\b(?:[\s*_#]{0,4}(?::|$)|\*\*|__|[ \t]+(?:is|are)\b)|^[ \t]*#",
                        re.I | re.M)
_ANSWER_WORD = re.compile("answer", re.I)  # in every marker: a fast first scan


def _marker_floor(text: str, at: int) -> int:
    """A position no marker starts before, for the first "answer" of ``text`` at ``at``: back over
    what may come before it in a marker (``### The final answer``), so scanning for markers from
    there finds what a scan of the whole text finds."""
    for _ in range(3):  # "#", "the", "final" and the spaces between them
        while at and (text[at - 1].isspace() or text[at - 1] == "#"):
            at -= 1
        word = 0
        while at and word < 5 and text[at - 1].isalpha():
            at, word = at - 1, word + 1
    return at


_CONTINUATION = re.compile(
    r"^[ \t]*(?:#+[ \t]*|\*\*|>[ \t]*)?(?:question|problem|q|human|user|instruction|exercise|example|"
    r"next (?:question|problem))[ \t]*\d{0,6}[ \t]*\**[ \t]*(?:[:.)]|$)|"
    r"<\|(?:im_start|user|endoftext)\|>|\[INST\]",
    re.I | re.M,
)
_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{")
_BRACE = re.compile(r"[{}]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_LABEL_START = re.compile(rf"^\s*(?:[-*•]\s*)?(?:\*\*|__)?(?:part\s*)?"
                          rf"(?:\(?[{PART_LETTERS}1-9]\)|[{PART_LETTERS}1-9][.:])", re.I)
_CORRECTION_START = re.compile(
    r"^\s*(?:wait|actually|correction|i mean|sorry|oops|no,|on second thought|let me correct)", re.I)
_CORRECTION_BEFORE = re.compile(
    r"\b(?:wait|actually|correction|i mean|sorry|oops|on second thought|let me correct|corrected|instead)\b",
    re.I)


def boxes(text: str) -> list[tuple[int, int, str]]:
    """Every outermost ``\\boxed{…}`` in ``text``: (start, end, contents), braces balanced.
    One pass over the braces, so nested or unclosed boxes cost linear time."""
    starts = {m.end() - 1: m.start() for m in _BOXED.finditer(text)}
    if not starts:
        return []
    out: list[tuple[int, int, str]] = []
    stack: list[int] = []
    for m in _BRACE.finditer(text):
        if m.group(0) == "{":
            stack.append(m.start())
        elif stack:
            opened = stack.pop()
            if opened in starts and not any(s in starts for s in stack):
                out.append((starts[opened], m.end(), text[opened + 1: m.start()]))
    return out


_AFTER_BOX = re.compile(r"\s*(?:\\[,;!]\s*)*(\\(?:text|mathrm|rm)\s*\{[^{}]{1,30}\}|"
                        r"[A-Za-zΩµμ°%][A-Za-z0-9Ωµμ°%/^·\-]{0,20})")


def _unit_after_box(text: str) -> str:
    """A unit written just after a box (``\\boxed{12}\\text{ cm}``), else ``""``."""
    m = _AFTER_BOX.match(text[:80])
    return " " + m.group(1) if m else ""


def unbox(text: str) -> str:
    """``text`` with every ``\\boxed{x}`` replaced by ``x``."""
    for start, end, inner in reversed(boxes(text)):
        text = text[:start] + inner + text[end:]
    return text


def _cut_loop(text: str) -> str:
    """Keep one copy of a block of sentences the reply repeats three or more times at its end
    (the last copy may be cut short)."""
    tail = text.rstrip()[-24:]
    if len(tail) < 8 or text.count(tail) < 3:
        return text  # the end of a loop's last copy stands in each earlier copy
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    bounds = [0, *ends] if ends and ends[-1] == len(text) else [0, *ends, len(text)]
    units = [text[bounds[i]: bounds[i + 1]].strip() for i in range(len(bounds) - 1)]
    n = len(units)
    for size in range(1, 9):
        for partial in range(size, -1, -1):  # units of a last copy cut short (0: none), its last one cut
            top = n - partial
            if top < 3 * size:
                continue
            block = units[top - size: top]
            cut = block[partial - 1] if partial else ""
            if partial and (units[top: n - 1] != block[: partial - 1] or not cut.startswith(units[-1])):
                continue
            reps, i = 1, top - size
            while i - size >= 0 and units[i - size: i] == block:
                reps, i = reps + 1, i - size
            if reps >= 3:
                return text[: bounds[i + size]]
    return text


@functools.lru_cache(maxsize=16)
def clean_reply(reply: str) -> str:
    """The reply without a fabricated next exchange after its answer, or a trailing loop
    (cached for a few replies: the answer and step graders of one reply both need it)."""
    text = reply[-MAX_REPLY:]
    for m in _CONTINUATION.finditer(text):
        if m.start() > 0 and (MARKER.search(text, 0, m.start()) or _BOXED.search(text, 0, m.start())):
            text = text[: m.start()]
            break
    return _cut_loop(text)


def _marker_span(text: str, end: int, stop: int, parts: int) -> tuple[str, int]:
    """The text a marker introduces: its first paragraph (its first line, for one part),
    plus later paragraphs or lines that label parts or correct the answer; and where in ``text``
    what follows it (notes, caveats) begins."""
    raw = text[end: min(stop, end + MAX_SPAN)]
    body = raw.lstrip(" *:_\t\n")
    offset = end + len(raw) - len(body)
    body = body.split("```", 1)[0]  # code after the answer is not the answer
    if parts == 1:
        lines = body.split("\n")
        first = next((k for k, ln in enumerate(lines) if _P1.search(ln)), 0)
        later = next((k for k in range(first + 1, len(lines)) if _CORRECTION_START.match(lines[k])), None)
        head = _first_sentence(lines[first])
        rest = offset + sum(len(ln) + 1 for ln in lines[:first]) + len(head)
        if later is not None:
            return (head + "\n" + "\n".join(lines[later:])).strip(), offset + len(body)
        return head.strip(), rest
    paragraphs = _P2.split(body)
    kept = [paragraphs[0]]
    for para in paragraphs[1:]:
        if not _P1.search(kept[0]):
            kept = [para]  # "Final Answer:\n\n35.3 m"
        elif _LABEL_START.match(para) or _CORRECTION_START.match(para) or para.lstrip().startswith("\\boxed"):
            kept.append(para)
        else:
            break
    last = body.find(kept[-1]) if kept[-1] else -1
    return "\n\n".join(kept).strip(), offset + (last + len(kept[-1]) if last >= 0 else len(body))


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_KEEP_SENTENCE = re.compile(r"\b(?:or|either|alternatively|otherwise|maybe|perhaps|could also|wait|actually|"
                            r"sorry|correction|i mean|should be|rather|instead)\b", re.I)


def _first_sentence(line: str) -> str:
    """A one-part answer line up to its first sentence, unless later sentences correct or hedge it
    (``35.3 m. For comparison, …`` is ``35.3 m.``)."""
    sentences = _SENTENCE_BREAK.split(line)
    if len(sentences) == 1 or any(_KEEP_SENTENCE.search(x) for x in sentences[1:]):
        return line
    return sentences[0]


def final_span(reply: str, parts: int = 1) -> tuple[str | None, Source]:
    """The span that states the final answer, and where it was found; ``(None, "none")``
    when the reply has neither a marker nor a box. Without a marker, the last ``parts``
    boxes are the answer, one line each."""
    return span_of(clean_reply(reply), parts)


def span_of(text: str, parts: int = 1) -> tuple[str | None, Source]:
    """:func:`final_span` of a reply already passed through :func:`clean_reply` (squeezed)."""
    span, source, _ = answer_span(text, parts)
    return (None if span is None else squeeze(span)), source


_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\ufeff]+")
_IN_NUMBER = re.compile(r"[\d.][\d.]")
_SPACE_RUN = re.compile("[ \t\r\f\v\u00a0\u2000-\u200a\u202f\u3000]{2,}")
_NEWLINE_RUN = re.compile(r"\n(?:[ \t]*\n)+")
_DIGIT_RUN = re.compile(r"\d{40,}")
_LABEL_RUN = re.compile(r"(?:\(\w{1,2}\)[ \t]*){6,}")
_REPEAT_RUN = re.compile(r"([^\w\s.])\1{7,}")


def squeeze(text: str) -> str:
    """``text`` with no unbounded run a pattern could backtrack over: invisible characters dropped
    inside a number and made spaces elsewhere, runs of spaces one space, of blank lines one blank
    line, of digits 40 digits, of bare labels (``(a) (b) (c) …``) their last one, of one symbol
    (``((((``, ``====``) one.

    >>> squeeze("5\\u200bm" + " " * 50 + "\\n" * 9 + "(a) " * 9 + "x" + "(" * 99)
    '5 m \\n\\n(a) x('
    """
    if _INVISIBLE.search(text):  # nothing inside a number ("2.\u200b36" is 2.36); a space elsewhere
        def gap(m: re.Match[str]) -> str:
            around = text[max(0, m.start() - 1): m.start()] + text[m.end(): m.end() + 1]
            return "" if _IN_NUMBER.fullmatch(around) else " "
        text = _INVISIBLE.sub(gap, text)
    text = _SPACE_RUN.sub(" ", text)
    text = _NEWLINE_RUN.sub(lambda m: "\n\n" if m.group(0).count("\n") > 1 else "\n", text)
    text = _DIGIT_RUN.sub(lambda m: m.group(0)[:40], text)
    text = _LABEL_RUN.sub(lambda m: m.group(0).split()[-1] + " ", text)
    return _REPEAT_RUN.sub(r"\1", text)


def answer_span(text: str, parts: int = 1) -> tuple[str | None, Source, int]:
    """:func:`span_of`, and where the final answer begins in ``text``: the start of its marker
    or of its first box (``len(text)`` when there is neither). Cached for a few replies, so the
    answer grader and the step grader (:mod:`.steps`) of one reply share the search.

    >>> answer_span("v = 3 m/s, so t = 2 s. Final answer: 2 s")
    ('2 s', 'marker', 23)
    """
    return _answer(text, parts)[:3]


def answer_tail(text: str, parts: int = 1) -> str:
    """What a reply (passed through :func:`clean_reply`) says after its final answer: notes,
    caveats and alternatives, which never replace the answer (``""`` without a marker or box).

    >>> answer_tail("Final answer: 35.3 m. NOTE: with drag it would be 30 m.")
    ' NOTE: with drag it would be 30 m.'
    """
    return squeeze(_answer(text, parts)[3])


def _committed(text: str, m: re.Match[str]) -> bool:
    """Whether a marker commits to a final answer (``Final answer:``, ``**Final Answer**``),
    rather than mentions the words (``to check the final answer, …``)."""
    return "final" in m.group(0).lower() and _COMMITTED.match(text, m.start(), m.end() + 2) is not None


@functools.lru_cache(maxsize=16)
def _answer(text: str, parts: int) -> tuple[str | None, Source, int, str]:
    """The final answer's span, source, start, and what follows it.

    The last committed final-answer marker holds the answer: a later ``Answer:`` or ``the answer
    is`` does not replace it unless a correction introduces it, and when what it holds cannot be
    read, earlier text is not searched instead (the answer is missing). Without one, the last
    marker with something readable, then the last boxes."""
    first = _ANSWER_WORD.search(text)
    found = [] if first is None else list(MARKER.finditer(text, _marker_floor(text, first.start())))
    committed = [k for k, m in enumerate(found) if _committed(text, m)]
    last_committed = committed[-1] if committed else -1
    for k in range(len(found) - 1, max(-1, len(found) - 50), -1):
        m = found[k]
        if k > last_committed >= 0 and not _CORRECTION_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            continue  # "Final answer: 5 m. NOTE: … the answer is 6 m": a note, not the answer
        stop = found[k + 1].start() if k + 1 < len(found) else len(text)
        span, after = _marker_span(text, m.end(), stop, parts)
        if _P3.search(span) or k == last_committed:
            return unbox(span), "marker", m.start(), text[after:]
    every = boxes(text)
    inside = every[-parts:]
    if inside:
        paragraph = text.rfind("\n\n", 0, inside[-1][0])
        crowd = [b for b in every if b[0] > paragraph]
        if len(crowd) > parts and len({" ".join(b[2].split()) for b in crowd}) > 1:
            # more boxes than parts in the answer's paragraph: every one is offered ("or": a hedge)
            return (" or ".join(inner + _unit_after_box(text[end:]) for _, end, inner in crowd), "boxed",
                    crowd[0][0], text[crowd[-1][1]:])
        return ("\n".join(inner + _unit_after_box(text[end:]) for _, end, inner in inside), "boxed",
                inside[0][0], text[inside[-1][1]:])
    return None, "none", len(text), ""
