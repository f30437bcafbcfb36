"""Recognise a reply that says a quantity cannot be found from the data given.

>>> says_missing("The mass is not given, so the acceleration can't be found.")
True
>>> says_missing("We would need to know the length of the string.")
True
>>> says_missing("It can be determined from energy conservation: v = 4.2 m/s.")
False
"""

from __future__ import annotations

import re

_MISSING = re.compile(
    r"not enough (?:information|data|info|given)|insufficient (?:information|data|info)|"
    r"(?:information|data|info) (?:is |are )?(?:insufficient|missing|incomplete)|"
    r"under-?(?:specified|determined|constrained)|\bundetermined|\bindeterminate|"
    r"(?:can ?not|can'?t|could ?n[o']t|unable to|impossible to|no way to|not possible to)\s+"
    r"(?:be\s+)?(?:uniquely\s+|fully\s+|actually\s+)?(?:determined?|calculated?|computed?|found|find|solved?|"
    r"obtained?|known|answered?|evaluated?|work(?:ed)? out|get)|"
    r"\bnot (?:given|provided|specified|stated|known|mentioned|listed|included|supplied)\b|"
    r"(?:isn'?t|aren'?t|wasn'?t|weren'?t) (?:given|provided|specified|stated|known|mentioned)\b|"
    r"\bmissing\b|\b(?:does|do|did)\s*(?:n[o']t|not)\s+(?:give|specify|provide|state|mention|include|tell|say)|"
    r"\b(?:could|can|would) you (?:please )?(?:tell|give|provide|specify|share)\b|"
    r"\bwithout (?:knowing|the value of|a value for|being given)|"
    r"\bwe (?:would |will |)need (?:to know |the value of |more information|additional)|"
    r"\bno (?:value|information|data) (?:is |was )?(?:given|provided|for)|"
    r"\b(?:is|are|remains?) unknown\b",
    re.I,
)


def says_missing(text: str) -> bool:
    """Whether ``text`` says that data are missing or a quantity cannot be determined."""
    return _MISSING.search(text) is not None
