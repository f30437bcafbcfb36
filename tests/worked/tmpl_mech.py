"""Worked examples of the tmpl-mech batch of hard mechanics templates (multi-stage launch, rigid-body
collisions, rolling with slipping, driven and coupled oscillators, non-inertial frames, orbits, variable
mass, tipping versus sliding), computed by hand with plain formulas (paper values in comments)."""

from __future__ import annotations

import math
from collections.abc import Callable

G = 9.81  # m/s^2


def _spring_loop() -> dict[str, tuple[float, str]]:
    # 200 g, k 800 N/m, x 10 cm, R 25 cm, H 0.5 m, lip 20° down:
    # v0² = 800*0.01/0.2 = 40; x_min = sqrt(5*0.2*9.81*0.25/800) = 5.537 cm;
    # v1 = sqrt(40 - 9.81) = 5.4945 m/s; vx = 5.1632, vy = 1.8792 (down);
    # t = (sqrt(1.8792² + 9.81) - 1.8792)/9.81 = (3.6526 - 1.8792)/9.81 = 0.18078 s; d = 0.93335 m
    v0sq = 800 * 0.10**2 / 0.200
    v1 = math.sqrt(v0sq - 2 * G * 0.5)
    th = math.radians(20)
    t = (math.sqrt((v1 * math.sin(th))**2 + 2 * G * 0.5) - v1 * math.sin(th)) / G
    return {"x_min": (math.sqrt(5 * 0.2 * G * 0.25 / 800) * 100, "cm"), "v1": (v1, "m/s"),
            "d": (v1 * math.cos(th) * t, "m")}


def _putty_rod() -> dict[str, tuple[float, str]]:
    # rod 1 kg, 1 m; putty 200 g at 5 m/s: V = 1/1.2 = 0.83333 m/s; d = 0.08333 m,
    # I = 1/12 + 1*0.08333² + 0.2*0.41667² = 0.125 kg m², L = 0.2*5*0.41667 = 0.41667, ω = 3.3333 rad/s;
    # KE after = ½(1.2*0.69444 + 0.125*11.111) = 1.1111 J of 2.5 J: 55.556 % lost
    m, big_m, length, v = 0.2, 1.0, 1.0, 5.0
    vcm = m * v / (m + big_m)
    d = m * length / 2 / (m + big_m)
    inertia = big_m * length**2 / 12 + big_m * d**2 + m * (length / 2 - d)**2
    w = m * v * (length / 2 - d) / inertia
    ke = 0.5 * (m + big_m) * vcm**2 + 0.5 * inertia * w**2
    return {"V": (vcm, "m/s"), "omega": (w, "rad/s"), "f_lost": (100 * (1 - ke / (0.5 * m * v**2)), "%")}


def _pivoted_rod() -> dict[str, tuple[float, str]]:
    # rod 1 kg, 1 m; 1.5 kg ball at 3 m/s hits 0.8 m below the pivot: I = 1/3, m d² = 0.96;
    # ω = 7.2/1.29333 = 5.5670 rad/s; u = 3*0.62667/1.29333 = +1.4536 m/s;
    # cos θ = 1 - (1/3)*30.991/9.81 = -0.05303, θ = 93.04°
    inertia = 1.0 * 1.0**2 / 3
    md2 = 1.5 * 0.8**2
    w = 2 * 1.5 * 3.0 * 0.8 / (inertia + md2)
    u = 3.0 * (md2 - inertia) / (md2 + inertia)
    theta = math.degrees(math.acos(1 - inertia * w**2 / (1.0 * G * 1.0)))
    return {"omega": (w, "rad/s"), "u": (u, "m/s"), "theta": (theta, "deg")}


def _plank() -> dict[str, tuple[float, str]]:
    # plank 5 kg, cylinder 2 kg, μ 0.2, F 40 N: rolling would need f = 2*40/17 = 4.706 N > μ m g = 3.924 N,
    # so it slips: f = 3.924 N, A = (40 - 3.924)/5 = 7.2152 m/s², a = 0.2*9.81 = 1.962 m/s²
    needed = 2 * 40 / (3 * 5 + 2)
    f = min(needed, 0.2 * 2 * G)
    return {"f": (f, "N"), "A": ((40 - f) / 5, "m/s^2"), "a": (f / 2, "m/s^2")}


def _backspin() -> dict[str, tuple[float, str]]:
    # v0 1 m/s, backspin 160 rad/s, r 5 cm (ω0 r = 8 m/s), μ 0.2: v = (5 - 16)/7 = -1.5714 m/s (rolls back);
    # t = 2*9/(7*0.2*9.81) = 1.3106 s; lost = 1 - 7*2.4694/(5 + 128) = 87.003 %
    v = (5 * 1.0 - 2 * 160 * 0.05) / 7
    return {"v": (v, "m/s"), "t": (2 * (1.0 + 160 * 0.05) / (7 * 0.2 * G), "s"),
            "f_lost": (100 * (1 - 7 * v**2 / (5 * 1.0**2 + 2 * 0.05**2 * 160**2)), "%")}


def _turntable() -> dict[str, tuple[float, str]]:
    # turntable 2 kg, 20 cm, 60 rpm; disk 1 kg, 15 cm; μ 0.3: I1 = 0.04, I2 = 0.01125 kg m²;
    # n_f = 0.04*60/0.05125 = 46.829 rpm (4.9039 rad/s); τ = (2/3)*0.3*9.81*0.15 = 0.2943 N m,
    # t = 0.01125*4.9039/0.2943 = 0.18746 s; E_lost = ½*0.04*(2π)²*0.01125/0.05125 = 173.32 mJ
    i1, i2 = 0.5 * 2 * 0.20**2, 0.5 * 1 * 0.15**2
    w0 = 2 * math.pi * 60 / 60
    wf = i1 * w0 / (i1 + i2)
    tau = 2 / 3 * 0.3 * 1 * G * 0.15
    return {"n_f": (wf * 60 / (2 * math.pi), "rpm"), "t": (i2 * wf / tau, "s"),
            "E_lost": ((0.5 * i1 * w0**2 - 0.5 * (i1 + i2) * wf**2) * 1e3, "mJ")}


def _driven() -> dict[str, tuple[float, str]]:
    # 1 kg, 100 N/m, b 8 kg/s, F0 2 N at 2.5 Hz: ω = 15.708 rad/s (above ω0 = 10);
    # k - mω² = -146.74, bω = 125.66, D = 193.19 N/m: A = 1.0352 cm; δ = 180° - 40.58° = 139.42°;
    # v = ωA = 16.262 cm/s
    w = 2 * math.pi * 2.5
    re, im = 100 - 1.0 * w**2, 8 * w
    amp = 2 / math.hypot(re, im)
    return {"A": (amp * 100, "cm"), "delta": (math.degrees(math.atan2(im, re)), "deg"),
            "v": (w * amp * 100, "cm/s")}


def _ringdown() -> dict[str, tuple[float, str]]:
    # 500 g on 200 N/m, amplitude halves in 10 cycles: f0 = 20/(2π) = 3.1831 Hz; Q = 10π/ln 2 = 45.324;
    # Δf = 3.1831/45.324 = 0.070230 Hz; energy lost per cycle = 1 - 0.5^0.2 = 12.945 %
    q = 10 * math.pi / math.log(2)
    return {"Q": (q, ""), "df": (math.sqrt(200 / 0.5) / (2 * math.pi) / q, "Hz"),
            "loss": (100 * (1 - 0.5**0.2), "%")}


def _two_carts() -> dict[str, tuple[float, str]]:
    # 1 kg and 0.5 kg, outer springs 100 N/m, middle 50 N/m: a = 150, d = 300, kc²/(m1 m2) = 5000;
    # ω² = 225 ∓ 103.078 = 121.922, 328.078 s⁻²: f = 1.7574 Hz and 2.8828 Hz;
    # x2/x1 = (150 - 328.078)/50 = -3.5616
    a, d = 150 / 1.0, 150 / 0.5
    root = math.sqrt((a - d)**2 / 4 + 50**2 / (1.0 * 0.5))
    lo, hi = (a + d) / 2 - root, (a + d) / 2 + root
    return {"f_low": (math.sqrt(lo) / (2 * math.pi), "Hz"), "f_high": (math.sqrt(hi) / (2 * math.pi), "Hz"),
            "ratio": ((150 - 1.0 * hi) / 50, "")}


def _ramp_pendulum() -> dict[str, tuple[float, str]]:
    # a = 4 m/s² up a 30° ramp, L 50 cm, 100 g: tan θ = 3.4641/11.81, θ = 16.347°;
    # g_eff = sqrt(16 + 96.236 + 39.24) = 12.3076 m/s²: T = 1.2308 N, P = 2π sqrt(0.5/12.3076) = 1.2664 s
    al = math.radians(30)
    geff = math.sqrt((4 * math.cos(al))**2 + (G + 4 * math.sin(al))**2)
    return {"theta": (math.degrees(math.atan2(4 * math.cos(al), G + 4 * math.sin(al))), "deg"),
            "T_string": (0.100 * geff, "N"), "P": (2 * math.pi * math.sqrt(0.50 / geff), "s")}


def _bead_rod() -> dict[str, tuple[float, str]]:
    # ω 5 rad/s, r0 5 cm, L 40 cm, 20 g: t = arccosh(8)/5 = 2.76866/5 = 0.55373 s;
    # v = 5*sqrt(0.32 - 0.0025) = 2.8174 m/s; N = 2*0.02*25*sqrt(0.16 - 0.0025) = 0.39686 N
    return {"t": (math.acosh(0.40 / 0.05) / 5, "s"), "v": (5 * math.sqrt(2 * 0.40**2 - 0.05**2), "m/s"),
            "N": (2 * 0.020 * 5**2 * math.sqrt(0.40**2 - 0.05**2), "N")}


def _retro_burn() -> dict[str, tuple[float, str]]:
    # circular at 1000 km (r = 7371 km, v_c = 7353.7 m/s), 200 m/s removed: v1 = 7153.7 m/s;
    # 1/a = 2/r - v1²/GM = 1.4295e-7 /m, a = 6995.6 km; r_p = 6620.3 km, h_p ≈ 249 km;
    # v_p = 7153.7*7371/6620.3 ≈ 7965 m/s; T = 2π sqrt(a³/GM) ≈ 96.99 min
    gm, r = 3.986e14, 7371e3
    v1 = math.sqrt(gm / r) - 200
    a = 1 / (2 / r - v1**2 / gm)
    rp = 2 * a - r
    return {"h_p": ((rp - 6371e3) / 1e3, "km"), "v_p": (v1 * r / rp / 1e3, "km/s"),
            "T": (2 * math.pi * math.sqrt(a**3 / gm) / 60, "min")}


def _comet() -> dict[str, tuple[float, str]]:
    # perihelion 0.5 AU, aphelion 5 AU (1 AU = 1.495978707e11 m, GM = 1.327e20 m³/s²):
    # v_p = sqrt(2 GM*5/(0.5*5.5) / AU) = sqrt(3.2256e9) = 56.795 km/s;
    # v1 = sqrt(GM (2 - 2/5.5)/AU) = 38.099 km/s;
    # cos φ = 0.5*56.795/38.099 = 0.74536, φ = 41.810°
    au, gm = 1.495978707e11, 1.327e20
    vp = math.sqrt(2 * gm * 5 / (0.5 * 5.5) / au)
    v1 = math.sqrt(gm * (2 - 2 / 5.5) / au)
    return {"v_p": (vp / 1e3, "km/s"), "v1": (v1 / 1e3, "km/s"),
            "phi": (math.degrees(math.acos(0.5 * vp / v1)), "deg")}


def _cabinet() -> dict[str, tuple[float, str]]:
    # 80 kg, base 60 cm deep, pushed 1.2 m up, μ 0.4: F_slide = 313.92 N, F_tip = 80*9.81*0.3/1.2 = 196.2 N,
    # so it tips first at 196.2 N; h_c = 0.6/(2*0.4) = 0.75 m
    return {"F": (min(0.4 * 80 * G, 80 * G * 0.60 / (2 * 1.2)), "N"), "h_c": (0.60 / (2 * 0.4), "m")}


def _conveyor() -> dict[str, tuple[float, str]]:
    # 10 kg/s onto a belt at 2 m/s up 10°, 5 m loaded: F = 20 + 10*5*9.81*0.173648/2 = 62.587 N;
    # P = 125.17 W; heat = ½*10*4 = 20 W
    f = 10 * 2 + 10 * 5 * G * math.sin(math.radians(10)) / 2
    return {"F": (f, "N"), "P": (f * 2, "W"), "P_heat": (0.5 * 10 * 2**2, "W")}


def _wagon() -> dict[str, tuple[float, str]]:
    # 20 t wagon at 0.5 m/s, 1000 kg/s for 30 s (30 t of sand): v = 10000/50000 = 0.2 m/s;
    # d = (20000*0.5/1000) ln 2.5 = 10*0.916291 = 9.16291 m (less than a wagon's length);
    # E_lost = ½*20000*0.25 - ½*50000*0.04 = 2500 - 1000 = 1.5 kJ
    return {"v": (0.2, "m/s"), "d": (10 * math.log(2.5), "m"), "E_lost": (1.5, "kJ")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "mechanics.spring_loop_ramp_launch": (
        {"m": "200 g", "k": "800 N/m", "x": "10 cm", "R": "25 cm", "H": "0.5 m", "theta": "20 deg",
         "g": "9.81 m/s^2"}, _spring_loop),
    "mechanics.putty_strikes_free_rod": ({"M": "1 kg", "L": "1 m", "m": "200 g", "v": "5 m/s"}, _putty_rod),
    "mechanics.ball_strikes_pivoted_rod": (
        {"M": "1 kg", "L": "1 m", "d": "0.8 m", "m": "1.5 kg", "v": "3 m/s", "g": "9.81 m/s^2"},
        _pivoted_rod),
    "mechanics.cylinder_on_pulled_plank": (
        {"M": "5 kg", "m": "2 kg", "mu": "0.2", "F": "40 N", "g": "9.81 m/s^2"}, _plank),
    "mechanics.backspin_ball_skid": (
        {"v0": "1 m/s", "w0": "160 rad/s", "r": "5 cm", "mu": "0.2", "g": "9.81 m/s^2"}, _backspin),
    "mechanics.disk_dropped_on_turntable": (
        {"M1": "2 kg", "R1": "20 cm", "m2": "1 kg", "R2": "15 cm", "n0": "60 rpm", "mu": "0.3",
         "g": "9.81 m/s^2"},
        _turntable),
    "mechanics.driven_oscillator_steady_state": (
        {"m": "1 kg", "k": "100 N/m", "b": "8 kg/s", "F0": "2 N", "f": "2.5 Hz"}, _driven),
    "mechanics.oscillator_ringdown_q_bandwidth": (
        {"m": "500 g", "k": "200 N/m", "N": "10", "r": "0.5"}, _ringdown),
    "mechanics.two_carts_three_springs_modes": (
        {"m1": "1 kg", "m2": "0.5 kg", "k": "100 N/m", "kc": "50 N/m"}, _two_carts),
    "mechanics.pendulum_on_accelerating_ramp_trolley": (
        {"a": "4 m/s^2", "alpha": "30 deg", "L": "50 cm", "m": "100 g", "g": "9.81 m/s^2"}, _ramp_pendulum),
    "mechanics.bead_slides_out_rotating_rod": (
        {"w": "5 rad/s", "r0": "5 cm", "L": "40 cm", "m": "20 g"}, _bead_rod),
    "mechanics.retro_burn_perigee_lowering": ({"h": "1000 km", "dv": "200 m/s"}, _retro_burn),
    "mechanics.comet_crossing_earth_orbit": ({"r_p": "0.5 au", "r_a": "5 au"}, _comet),
    "mechanics.cabinet_tip_or_slide": (
        {"m": "80 kg", "w": "60 cm", "H": "1.9 m", "h": "1.2 m", "mu": "0.4", "g": "9.81 m/s^2"}, _cabinet),
    "mechanics.inclined_conveyor_loading": (
        {"lam": "10 kg/s", "v": "2 m/s", "L": "5 m", "theta": "10 deg", "g": "9.81 m/s^2"}, _conveyor),
    "mechanics.wagon_loaded_under_hopper": (
        {"m0": "20 t", "v0": "0.5 m/s", "lam": "1000 kg/s", "t": "30 s"}, _wagon),
}
