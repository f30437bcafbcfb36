"""Worked examples of templates, one module per author or topic (each defines ``EXAMPLES``).

:mod:`tests.test_worked_examples` collects them with its own. Expected values come
from plain-Python formulas with constants typed in by hand, never from the library.
"""
