"""One classical Runge–Kutta step, shared by the worked examples that integrate their scenes
(``tests/worked/hard_mech.py``, ``hard_mech2.py``); not a module of worked examples itself."""

from __future__ import annotations

from collections.abc import Callable

State = list[float]
Deriv = Callable[[float, State], State]


def rk4(f: Deriv, t: float, y: State, h: float) -> State:
    """``y`` advanced from ``t`` by ``h`` under ``dy/dt = f(t, y)`` (classical RK4).

    >>> round(rk4(lambda t, y: [y[0]], 0.0, [1.0], 0.1)[0], 9)  # e^0.1 = 1.105170918
    1.105170833
    """
    k1 = f(t, y)
    k2 = f(t + h / 2, [a + h / 2 * b for a, b in zip(y, k1, strict=True)])
    k3 = f(t + h / 2, [a + h / 2 * b for a, b in zip(y, k2, strict=True)])
    k4 = f(t + h, [a + h * b for a, b in zip(y, k3, strict=True)])
    return [a + h / 6 * (p + 2 * q + 2 * r + s) for a, p, q, r, s in zip(y, k1, k2, k3, k4, strict=True)]
