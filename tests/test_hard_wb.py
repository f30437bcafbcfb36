"""The hard E&M templates of branch wb solve both regimes of their decision. The worked examples
(tests/worked/hard_wb.py) integrate one regime each; here the other regime is solved through
``Template.solve`` (Pint quantities) and checked against a hand formula for that regime."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import physgen

TEMPLATES = Path(__file__).parent.parent / "templates"
G = 9.81


def _solve(template_id: str, **inputs: str) -> dict[str, float]:
    group, name = template_id.split(".")
    template = physgen.load_catalog(TEMPLATES / group / f"{name}.yaml")[template_id]
    got = template.solve(**inputs)
    return {k: float(q.to_base_units().magnitude) for k, q in got.items()}


def test_relay_driver_saturated_regime() -> None:
    # 5 V through 4.7 kΩ with h_FE 100: h_FE I_B = 91.5 mA exceeds (12 − 0.2)/240 = 49.2 mA, so the
    # transistor saturates and the coil sets the current
    got = _solve("electricity.relay_driver_flyback_release", V_in="5 V", R_B="4.7 kohm", beta="100",
                 V_CC="12 V", R_c="240 ohm", L="300 mH", V_f="0.8 V", I_rel="10 mA")
    i_b, i_0 = 4.3 / 4700, 11.8 / 240
    assert got["I_0"] == pytest.approx(i_0, rel=1e-9)
    assert got["P_Q"] == pytest.approx(i_0 * 0.2 + i_b * 0.7, rel=1e-9)
    a = 0.8 / 240
    assert got["t_rel"] == pytest.approx(0.3 / 240 * math.log((i_0 + a) / (0.010 + a)), rel=1e-9)


def test_coil_cart_stops_part_way_in() -> None:
    # 30 cm/s against a full-entry loss of 54.6 cm/s: the cart stops part-way in, and the impulse
    # N B a q takes all of m v0
    got = _solve("magnetism.coil_cart_into_field_region", N="100", a="8 cm", m="500 g", R="3 ohm",
                 B="0.4 T", v0="30 cm/s")
    assert got["q"] == pytest.approx(0.5 * 0.30 / (100 * 0.4 * 0.08), rel=1e-9)
    assert got["Q"] == pytest.approx(0.5 * 0.5 * 0.30**2, rel=1e-9)


def test_kicked_rod_leads_stay_taut() -> None:
    # 0.2 T instead of 0.4 T: v0 = 1.26 m/s, v0² < 2 g l, so the rod swings up with taut leads
    got = _solve("magnetism.capacitor_kicked_rod_swing", E="50 V", R="50 ohm", C="20 mF", t1="1 s",
                 B="0.2 T", L="20 cm", m="20 g", l="20 cm")
    v0 = 0.2 * 0.2 * 0.020 * 50 * (1 - math.exp(-1)) / 0.020
    assert got["v0"] == pytest.approx(v0, rel=1e-9)
    assert got["h"] == pytest.approx(v0**2 / (2 * G), rel=1e-9)


def test_defibrillator_overdamped_regime() -> None:
    # 170 Ω against 2√(L/C) = 79 Ω: overdamped, the current peaks where tanh κt = κ/α
    got = _solve("electricity.defibrillator_pulse_peak", E_s="200 J", C="32 uF", L="50 mH",
                 R_i="20 ohm", R_p="150 ohm")
    alpha, omega0 = 170 / 0.1, 1 / math.sqrt(0.050 * 32e-6)
    kappa = math.sqrt(alpha**2 - omega0**2)
    t_p = math.atanh(kappa / alpha) / kappa
    v0 = math.sqrt(2 * 200 / 32e-6)
    i_p = v0 / (kappa * 0.050) * math.exp(-alpha * t_p) * math.sinh(kappa * t_p)
    assert got["t_p"] == pytest.approx(t_p, rel=1e-9)
    assert got["i_p"] == pytest.approx(i_p, rel=1e-9)
    assert got["E_p"] == pytest.approx(200 * 150 / 170, rel=1e-9)


def test_two_rods_never_meet() -> None:
    # the second rod 60 cm into the field: the relative motion stops after 37.1 cm, so the rods reach
    # the common speed apart and the current takes all of ½ μ v0²
    got = _solve("magnetism.two_rods_on_rails_catch_up", h="20 cm", m1="50 g", m2="30 g", L="20 cm",
                 B="0.5 T", r1="50 mohm", r2="50 mohm", d0="60 cm")
    v0, mu = math.sqrt(2 * G * 0.20), 0.050 * 0.030 / 0.080
    assert got["q"] == pytest.approx(mu * v0 / (0.5 * 0.2), rel=1e-9)
    assert got["Q_J"] == pytest.approx(0.5 * mu * v0**2, rel=1e-9)


def test_resonant_transfer_overdamped_regime() -> None:
    # 40 Ω against 2√(L/C_s) = 15.6 Ω: overdamped, the charge settles at C_s V1 (plain sharing)
    got = _solve("electricity.resonant_charge_transfer_diode", V1="300 V", C1="470 uF", C2="100 uF",
                 L="5 mH", R="40 ohm")
    c_s = 470e-6 * 100e-6 / 570e-6
    assert got["V2"] == pytest.approx(c_s * 300 / 100e-6, rel=1e-9)
    assert got["W_R"] == pytest.approx(0.5 * c_s * 300**2, rel=1e-9)


def test_flywheel_stops_before_the_circuit_opens() -> None:
    # the circuit opened only at 60 s: the flywheel stops at t_s = (J/k) ln(1 + k ω0/τ_f) = 34.5 s
    got = _solve("magnetism.generator_braked_flywheel", J="0.02 kg*m**2", K="1 mV/rpm", R="0.1 ohm",
                 f0="2000 rpm", tau_f="50 mN*m", T="60 s")
    k = (1e-3 * 60 / (2 * math.pi)) ** 2 / 0.1
    w0 = 2000 * 2 * math.pi / 60
    t_s = 0.02 / k * math.log(1 + k * w0 / 0.050)
    theta = 0.02 / k * w0 - 0.050 * t_s / k
    assert got["t_stop"] == pytest.approx(t_s, rel=1e-9)
    assert got["N"] == pytest.approx(theta / (2 * math.pi), rel=1e-9)
    assert got["W_R"] == pytest.approx(0.5 * 0.02 * w0**2 - 0.050 * theta, rel=1e-9)


def test_rlc_ratings_inductor_limited() -> None:
    # a 100 V capacitor would allow 2.51 A, so the inductor's 1.5 A rating limits the current
    got = _solve("electricity.series_rlc_ratings_limit", f="500 Hz", R="20 ohm", L="20 mH", C="8 uF",
                 I_max="1.5 A", V_Cmax="100 V")
    w = 2 * math.pi * 500
    z = math.hypot(20, w * 0.020 - 1 / (w * 8e-6))
    assert got["V_s"] == pytest.approx(1.5 * z, rel=1e-9)
    assert got["P"] == pytest.approx(1.5**2 * 20, rel=1e-9)


def test_led_bridge_dark_regime() -> None:
    # 470 Ω over 470 Ω on the right: 4.53 V − 3.00 V = 1.53 V is below the LED's 2.0 V, so it stays dark
    got = _solve("electricity.led_across_bridge", E="6 V", R1="220 ohm", R2="680 ohm", R3="470 ohm",
                 R4="470 ohm", V_f="2.0 V")
    v_a = 6 * 680 / 900
    assert got["V_A"] == pytest.approx(v_a, rel=1e-9)
    assert got["I_b"] == pytest.approx(6 / 900 + 6 / 940, rel=1e-9)


def test_inclined_rod_driven_up_the_rails() -> None:
    # 20 A instead of 2 A: B I L cos θ = 1.41 N beats m g sin θ = 0.69 N by 0.72 N, past static
    # friction (0.42 N), so the rod runs up the rails and kinetic friction acts down the slope
    got = _solve("magnetism.current_rod_on_inclined_rails", m="100 g", L="20 cm", theta="45 deg",
                 B="0.5 T", I="20 A", mu_s="0.2", mu_k="0.1", s="50 cm")
    c = math.cos(math.radians(45))
    force = 0.5 * 20 * 0.2
    normal = 0.1 * G * c + force * c
    a = (force * c - 0.1 * G * c - 0.1 * normal) / 0.1
    assert got["a"] == pytest.approx(a, rel=1e-9)
    assert got["emf"] == pytest.approx(0.5 * 0.2 * math.sqrt(2 * a * 0.5) * c, rel=1e-9)


def test_mirror_escape_through_the_throat() -> None:
    # 20°: sin²α B_max/B_min = 0.58 < 1, inside the loss cone, so the parallel speed is smallest at the
    # throat (z = L √(B_max/B_min − 1) = 100 cm), where v_⊥ = v sin α √(B_max/B_min)
    got = _solve("magnetism.proton_in_magnetic_mirror", B_min="0.2 T", B_max="1.0 T", L="50 cm",
                 K="10 keV", alpha="20 deg")
    m_p, q_e = 1.67262192e-27, 1.602176634e-19
    v = math.sqrt(2 * 10e3 * q_e / m_p)
    assert got["z_t"] == pytest.approx(1.0, rel=1e-9)
    assert got["r_L"] == pytest.approx(m_p * v * math.sin(math.radians(20)) * math.sqrt(5) / (q_e * 1.0),
                                       rel=1e-6)
    assert got["f_c"] == pytest.approx(q_e * 1.0 / (2 * math.pi * m_p), rel=1e-6)


def test_regen_limit_never_binds() -> None:
    # 1400 kg: the braking power at the start, m a v1 = 3403 N × 27.8 m/s = 94.5 kW, is below the
    # 120 kW limit, so the generator takes all the braking and stores η ½ m (v1² − v2²)
    got = _solve("electricity.ev_regenerative_braking_limit", m="1400 kg", v1="100 km/h", v2="30 km/h",
                 t_b="8 s", P_max="120 kW", eta="85 percent", E_b="60 kWh")
    v1, v2 = 100 / 3.6, 30 / 3.6
    stored = 0.85 * 0.5 * 1400 * (v1**2 - v2**2)
    assert got["E_in"] == pytest.approx(stored, rel=1e-9)
    assert got["P_in"] == pytest.approx(0.85 * 1400 * (v1 - v2) / 8 * v1, rel=1e-9)

