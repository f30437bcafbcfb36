"""Letters that label asked parts and multiple-choice options: one declaration, shared by the
prompts that write them and the reader that reads them back.

>>> PART_LETTERS[:3], OPTION_LETTERS, len(PART_LETTERS)
('abc', 'ABCDEFGH', 26)
"""

from __future__ import annotations

import re

#: Part labels, ``(a)`` … ``(z)``, in asked order.
PART_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Option letters of a multiple-choice question (at most eight options).
OPTION_LETTERS = PART_LETTERS[:8].upper()
#: A part label as an asks sentence writes it, "(b) the pressure": not a mention of a symbol b.
PART_LABEL = re.compile(r"(?<![\w)])\([a-z]\)(?= )")
