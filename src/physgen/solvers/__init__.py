"""Python solvers for templates whose answers need more than an expression.

A solver takes keyword arguments in SI base units (NumPy arrays, or Pint
quantities when the loader checks dimensions) and returns a dict of answers in
SI base units. It must be vectorised and work unchanged on Pint quantities.
"""
