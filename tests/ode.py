"""Numerical routes shared by the worked examples (``tests/worked/hard_*.py``): a classical
Runge–Kutta step, integration until an event, and bisection; not a module of worked examples itself."""

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


def bisect(f: Callable[[float], float], lo: float, hi: float) -> float:
    """The root of ``f`` between ``lo`` and ``hi`` (where ``f`` changes sign), to the last bit."""
    f_lo = f(lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        f_mid = f(mid)
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def until(f: Deriv, y: State, event: Callable[[State], float], dt: float = 1e-4,
          t_max: float = 1e7) -> tuple[float, State]:
    """Integrate ``y' = f(t, y)`` from t = 0 until ``event(y)`` changes sign; return (t, y) there."""
    t, start = 0.0, event(y) > 0
    if event(y) == 0:  # starting on the event (a turning point): its sign a step later counts
        start = event(rk4(f, t, y, dt)) > 0
    while t < t_max:
        nxt = rk4(f, t, y, dt)
        if (event(nxt) > 0) != start:
            lo, hi = 0.0, dt
            for _ in range(60):
                mid = (lo + hi) / 2
                if (event(rk4(f, t, y, mid)) > 0) != start:
                    hi = mid
                else:
                    lo = mid
            return t + hi, rk4(f, t, y, hi)
        t, y = t + dt, nxt
    raise AssertionError("event not reached")
