"""``Template.solve``: strings or quantities in, quantities out, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import physgen
from physgen.errors import InputError
from physgen.units import ureg

from .conftest import good, write_template


@pytest.fixture
def projectile(catalog: physgen.Catalog) -> physgen.Template:
    return catalog["mechanics.projectile_range"]


def test_units_of_all_kinds_are_accepted(projectile: physgen.Template) -> None:
    a = projectile.solve(v0="20 m/s", theta="30 deg")
    b = projectile.solve(v0="72 km/h", theta=ureg.Quantity(0.5235987755982988, "rad"))
    for name in a:
        assert a[name].m == pytest.approx(b[name].to(a[name].units).m, rel=1e-12)
    assert str(a["R"].units) == "meter"


def test_constants_default_and_can_be_overridden(projectile: physgen.Template) -> None:
    earth = projectile.solve(v0="20 m/s", theta="45 deg")
    moon = projectile.solve(v0="20 m/s", theta="45 deg", g="1.62 m/s^2")
    assert moon["R"].m == pytest.approx(earth["R"].m * 9.81 / 1.62)


def test_missing_input_is_named(projectile: physgen.Template) -> None:
    with pytest.raises(InputError, match=r"missing input\(s\) \['theta'\]; pass e.g. theta='… deg'"):
        projectile.solve(v0="20 m/s")


def test_wrong_dimension_is_named(projectile: physgen.Template) -> None:
    with pytest.raises(InputError, match=r"v0 = '20 m' has dimension \[length\], but v0 needs"):
        projectile.solve(v0="20 m", theta="30 deg")


def test_bare_number_for_a_unit_is_refused(projectile: physgen.Template) -> None:
    with pytest.raises(InputError, match=r"theta = '30' has no unit; give one, e\.g\. '30 deg'"):
        projectile.solve(v0="20 m/s", theta="30")


def test_unknown_input_is_named(projectile: physgen.Template) -> None:
    with pytest.raises(InputError, match=r"unknown input\(s\) \['speed'\]"):
        projectile.solve(v0="20 m/s", theta="30 deg", speed="3 m/s")


def test_unparseable_input(projectile: physgen.Template) -> None:
    with pytest.raises(InputError, match="v0: 'fast' is not a quantity"):
        projectile.solve(v0="fast", theta="30 deg")


def test_offset_temperatures(catalog: physgen.Catalog) -> None:
    t = catalog["thermo.calorimetry_mixing"]
    out = t.solve(m1="1 kg", c1="500 J/(kg*K)", T1="80 degC", m2="1 kg", c2="500 J/(kg*K)",
                  T2="68 degF")
    assert str(out["T_f"].units) == "degree_Celsius"
    assert out["T_f"].m == pytest.approx(50.0)


def test_solver_template_matches_kepler_equation(catalog: physgen.Catalog) -> None:
    """The solver route against the equation it solves, over 2,000 sampled instances."""
    t = catalog["mechanics.kepler_orbit_position"]
    batch = t.sample(2000, seed=4)
    mean_anomaly = 2 * np.pi * batch.si["t"] / batch.si["P"]
    ecc_anomaly = np.radians(batch.answers["E"])
    residual = ecc_anomaly - batch.si["e"] * np.sin(ecc_anomaly) - mean_anomaly
    assert np.abs(residual).max() < 1e-12
    r = batch.si["a"] * (1 - batch.si["e"] * np.cos(ecc_anomaly))
    assert np.allclose(batch.answers["r"] * 1000, r, rtol=1e-12)


def test_an_input_in_percent_takes_percent(tmp_path: Path) -> None:
    data = good()
    data["inputs"]["f"] = {"unit": "percent", "range": [20, 80], "sig_figs": 2, "label": "share"}
    data["answers"]["v"]["expr"] = "f*d/t"
    data["text"] = [text.replace("{{ d }}", "{{ f }} of {{ d }}") for text in data["text"]]
    write_template(tmp_path, data)
    t = physgen.load_catalog(tmp_path)["mechanics.demo_speed"]
    assert t.solve(d="100 m", t="20 s", f="50 percent")["v"].to("m/s").m == pytest.approx(2.5)
    assert t.solve(d="100 m", t="20 s", f="50 %")["v"].to("m/s").m == pytest.approx(2.5)
    with pytest.raises(InputError, match=r"f = '50' has no unit; give one, e\.g\. '50 percent'"):
        t.solve(d="100 m", t="20 s", f="50")


def test_a_dimension_error_at_solve_time_is_raised_not_retried_in_si(tmp_path: Path) -> None:
    """Only NumPy's ``select`` (a Piecewise answer) falls back to SI magnitudes; a Pint dimension
    error is a TypeError too, and is a real bug, so it is raised, not labelled with the unit."""
    from pint.errors import DimensionalityError

    write_template(tmp_path, good())
    t = physgen.load_catalog(tmp_path)["mechanics.demo_speed"]
    assert t.solve(d="100 m", t="20 s")["v"].magnitude == pytest.approx(5.0)
    real = t._evaluate

    def fails_on_pint(*args: object) -> object:
        if any(hasattr(a, "units") for a in args):
            raise DimensionalityError("meter", "second")
        return real(*args)

    object.__setattr__(t, "_evaluate", fails_on_pint)
    with pytest.raises(DimensionalityError):
        t.solve(d="100 m", t="20 s")
