"""Worked examples of the hard optics and waves templates of the `we` branch, each computed by a
route of its own, not the template's closed form retyped: bisection on the physical condition,
numerical dω/dk, the characteristic (transfer) matrix of a film, paraxial ray transfer through
mirrors, Hamilton's ray equations and the friction-damped oscillator integrated with RK4, sampled
echo phases, and midpoint quadrature of the Lambertian and parabolic profiles."""

from __future__ import annotations

import math
from collections.abc import Callable

from tests.ode import bisect as _bisect
from tests.ode import rk4

R_GAS = 8.314462618  # J/(mol K)
C = 299_792_458.0  # m/s


def _pipe_fork() -> dict[str, tuple[float, str]]:
    # 40 cm pipe, r 2.0 cm, 20 °C; 5 Hz beats, 3 Hz when loaded: the beats fell, so the fork was above.
    # v = 343.2 m/s, f_p = 343.2/(4*0.412) = 208.3 Hz, fork 213.3 Hz; retuned at +14.1 K or -9.66 mm
    temp, length, r = 293.15, 0.40, 0.020

    def f_pipe(t_k: float, l_m: float) -> float:
        return math.sqrt(1.40 * R_GAS * t_k / 0.02896) / (4 * (l_m + 0.6 * r))

    fork = f_pipe(temp, length) + 5.0  # loading lowered the beats (5 -> 3 Hz): the fork was above
    t_u = _bisect(lambda t: f_pipe(t, length) - fork, 200.0, 400.0)
    l_u = _bisect(lambda x: f_pipe(temp, x) - fork, 0.2, 0.6)
    return {"f_fork": (fork, "Hz"), "dT": (t_u - temp, "K"), "dL": ((l_u - length) * 1e3, "mm")}


def _swell() -> dict[str, tuple[float, str]]:
    # 60 m crests at 3 m depth, H0 1.5 m at 30°: kh = 0.3142, c = 5.310 m/s, T = 11.30 s;
    # unbroken 1.5·1.369·0.937 = 1.92 m < 0.78·3 = 2.34 m; u_b from the potential ≈ 1.68 m/s
    g, lam, h, h0, th0 = 9.81, 60.0, 3.0, 1.5, math.radians(30)

    def omega(k: float, depth: float) -> float:
        return math.sqrt(g * k * math.tanh(k * depth))

    k = 2 * math.pi / lam
    w = omega(k, h)
    period = 2 * math.pi / w
    dk = 1e-6 * k
    cg = (omega(k + dk, h) - omega(k - dk, h)) / (2 * dk)  # group speed as dω/dk, numerically
    k0 = w**2 / g  # the same ω in deep water
    cg0 = (omega(k0 + dk, 1e4) - omega(k0 - dk, 1e4)) / (2 * dk)
    theta = math.asin(math.sin(th0) * (w / k) / (w / k0))
    height = min(h0 * math.sqrt(cg0 * math.cos(th0) / (cg * math.cos(theta))), 0.78 * h)

    def u_bed(t: float) -> float:  # ∂φ/∂x at the bed, φ = (a g/ω) cosh k(z+h)/cosh kh · sin(kx − ωt)
        a = height / 2
        dx = 1e-4
        phi = [a * g / w / math.cosh(k * h) * math.sin(k * x - w * t) for x in (-dx, dx)]
        return (phi[1] - phi[0]) / (2 * dx)

    u_b = max(abs(u_bed(period * j / 2000)) for j in range(2000))
    return {"T_p": (period, "s"), "theta": (math.degrees(theta), "deg"), "H": (height, "m"),
            "u_b": (u_b, "m/s")}


def _film_reflectance(nf: float, ns: float, d: float, lam: float, theta: float) -> float:
    """s-polarised reflectance of one film on a substrate, from air, by the characteristic matrix."""
    sin0 = math.sin(theta)
    eta0, etaf, etas = (math.sqrt(n * n - sin0 * sin0) for n in (1.0, nf, ns))  # n cos θ in each medium
    beta = 2 * math.pi * d * etaf / lam
    b = complex(math.cos(beta), 0) + 1j * math.sin(beta) * etas / etaf
    c = 1j * etaf * math.sin(beta) + math.cos(beta) * etas
    r = (eta0 * b - c) / (eta0 * b + c)
    return abs(r) ** 2


def _film() -> dict[str, tuple[float, str]]:
    # n_f 2.40 on 1.50, designed at 1.50 µm: a quarter-wave (156 nm) reflector,
    # R = ((5.76−1.5)/(7.26))² = 0.344; at 1.80 µm, 40° s-polarised: ≈ 0.43
    nf, ns, lam = 2.40, 1.50, 1.50e-6
    thicknesses = [j * 1e-10 for j in range(1, 10_001)]  # scan 0.1 nm … 1 µm for the first maximum
    values = [_film_reflectance(nf, ns, d, lam, 0.0) for d in thicknesses]
    best = max(values)
    j = next(j for j, v in enumerate(values) if v > best - 1e-9)
    lo, hi = thicknesses[max(j - 1, 0)], thicknesses[j + 1]
    for _ in range(200):  # ternary search on the first maximum
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if _film_reflectance(nf, ns, m1, lam, 0.0) < _film_reflectance(nf, ns, m2, lam, 0.0):
            lo = m1
        else:
            hi = m2
    d = 0.5 * (lo + hi)
    return {"R1": (_film_reflectance(nf, ns, d, lam, 0.0), ""),
            "R2": (_film_reflectance(nf, ns, d, 1.80e-6, math.radians(40)), "")}


def _doppler() -> dict[str, tuple[float, str]]:
    # 5 MHz set, 1.6 m/s, 4 cm deep, beam 40° to the skin: R = 6.223 cm, PRF = 12.37 kHz;
    # f_D would be 7.96 kHz > 6.19 kHz, so the scanner drops to 3.89 MHz and measures 6.19 kHz;
    # 2R = 12.45 cm is 314 wavelengths of 0.396 mm: 25.1 dB at 0.08 dB per wavelength
    c, d, alpha, v, f_set, a = 1540.0, 0.04, math.radians(40), 1.6, 5.0e6, 0.08
    slant = d / math.sin(alpha)
    prf = 1 / (2 * slant / c)  # one round trip between pulses

    def shown_shift(f: float) -> float:  # phase step between successive echoes, read in (−π, π]
        step = 2 * math.pi * (2 * f * v * math.cos(alpha) / c) / prf
        return math.atan2(math.sin(step), math.cos(step)) * prf / (2 * math.pi)

    def true_shift(f: float) -> float:
        return 2 * f * v * math.cos(alpha) / c

    f = f_set
    if abs(shown_shift(f) - true_shift(f)) > 1e-6 * prf:  # the display aliases: lower f to the limit
        f = _bisect(lambda x: true_shift(x) - prf / 2, 1e5, f_set)
    return {"PRF": (prf / 1e3, "kHz"), "f_meas": (true_shift(f) / 1e3, "kHz"),
            "Att": (a * 2 * slant / (c / f), "")}  # dB per wavelength × wavelengths out and back


def _fibre_link() -> dict[str, tuple[float, str]]:
    # 5 mW Lambertian LED, n1 1.48, Δ 1 %, 4 dB/km, −40 dBm, 500 ns slots: NA = 0.2083, R = 0.0375,
    # η = 0.04177, launched −6.79 dBm, L_pow = 8.30 km; Δτ = 49.87 ns/km, L_disp = 5.01 km (dispersion wins)
    p_led, n1, delta, att, sens, slot = 5.0, 1.48, 0.01, 4.0, -40.0, 500e-9
    n2 = n1 * (1 - delta)
    theta_core = math.acos(n2 / n1)  # steepest guided ray, from the axis, at the critical angle
    theta_air = math.asin(n1 * math.sin(theta_core))  # the same ray outside the end face
    steps = 20_000  # Lambertian: dP ∝ cos θ sin θ dθ, integrated by the midpoint rule
    inside = sum(math.cos((j + 0.5) * theta_air / steps) * math.sin((j + 0.5) * theta_air / steps)
                 for j in range(steps)) * theta_air / steps
    total = 0.5  # ∫ cos θ sin θ dθ over 0 … π/2
    eta = (1 - ((n1 - 1) / (n1 + 1)) ** 2) * inside / total
    launched = 10 * math.log10(p_led * eta)
    # one zig-zag of the steepest ray across a core of any width w: path w/sin(θ) versus axial w/tan(θ)
    path_per_axis = 1 / math.cos(theta_core)
    spread_per_km = 1e3 * n1 / C * (path_per_axis - 1)
    l_pow = _bisect(lambda x: launched - att * x - sens, 0.0, 100.0)
    l_disp = _bisect(lambda x: spread_per_km * x - slot / 2, 0.0, 100.0)
    return {"eta": (eta, ""), "dtau": (spread_per_km * 1e9, "ns/km"), "L_max": (min(l_pow, l_disp), "km")}


def _camera() -> dict[str, tuple[float, str]]:
    # 50 mm lens, objects at 2 m and 6 m, 20 µm circle, lens limit f/16: images at 51.282 / 50.420 mm,
    # sensor at 50.847 mm (0.847 mm out); N needed = 50·0.862/(20e-3·101.70) = 21.2 > 16, so f/16:
    # geometric blur 26.5 µm, Airy 2.44·0.55·16 = 21.5 µm, total 34.1 µm
    f, x1, x2, c, n_max, lam = 50e-3, 2.0, 6.0, 20e-6, 16.0, 550e-9

    def image(x: float) -> float:
        return 1 / (1 / f - 1 / x)

    def blur(x: float, v: float, n: float) -> float:  # similar triangles through the aperture f/n
        return (f / n) * abs(v - image(x)) / image(x)

    v = _bisect(lambda s: blur(x1, s, 1.0) - blur(x2, s, 1.0), image(x2), image(x1))
    n_req = _bisect(lambda n: blur(x1, v, n) - c, 0.5, 500.0)
    n = min(n_req, n_max)
    geometric = blur(x1, v, n)
    airy = 2.44 * lam * n  # the Airy disc's diameter to its first dark ring (2 × 1.22 λ N)
    return {"dv": ((v - f) * 1e3, "mm"), "b_tot": (math.hypot(geometric, airy) * 1e6, "um")}


def _telescope() -> dict[str, tuple[float, str]]:
    # 150 mm objective, f_o 1200 mm, f_e 40 mm, 7 mm pupil: M = 30, exit pupil 5 mm (fits the eye):
    # 5 log10(150/7) = 6.65 mag; limits 0.923″ (diffraction) and 2.0″ (eye/M): 2.0″
    d, f_o, f_e, pupil, lam = 150e-3, 1.2, 40e-3, 7e-3, 550e-9
    v = 1 / (1 / f_e - 1 / (f_o + f_e))  # the eyepiece's image of the objective rim
    exit_pupil = d * v / (f_o + f_e)
    collected = d**2 * min(1.0, (pupil / exit_pupil) ** 2)  # the share of the beam the eye takes in
    dm = 2.5 * math.log10(collected / pupil**2)
    arcsec = math.pi / 180 / 3600
    th_min = max(1.22 * lam / d, 60 * arcsec * f_e / f_o) / arcsec
    return {"d_ex": (exit_pupil * 1e3, "mm"), "dm": (dm, ""), "th_min": (th_min, "arcsec")}


def _ripples() -> dict[str, tuple[float, str]]:
    # 32 cm/s current, σ 0.072 N/m, ρ 1000, g 9.81, 3 s: c_min = 23.18 cm/s; stationary k = 1319 and
    # 103.3 1/m (4.76 mm upstream, 6.08 cm downstream); c_g = 45.7 cm/s upstream, front 41.0 cm out
    u, sigma, rho, g, t = 0.32, 0.072, 1000.0, 9.81, 3.0

    def omega(k: float) -> float:
        return math.sqrt(g * k + sigma * k**3 / rho)

    k_slow = math.sqrt(rho * g / sigma)  # where ω/k is least
    k_up = _bisect(lambda k: omega(k) / k - u, k_slow, 1e6)
    k_down = _bisect(lambda k: omega(k) / k - u, 1e-3, k_slow)
    dk = 1e-6 * k_up
    cg = (omega(k_up + dk) - omega(k_up - dk)) / (2 * dk)  # > u: this root's energy outruns the current
    return {"lam_up": (2 * math.pi / k_up * 1e3, "mm"), "lam_down": (2 * math.pi / k_down * 100, "cm"),
            "x_up": ((cg - u) * t * 100, "cm")}


def _ionosphere() -> dict[str, tuple[float, str]]:
    # 5 MHz pulse, layer from 100 km, 150 km thick, peak 5e11 m⁻³: f_p = 6.35 MHz, (f_p/f)² = 1.61 > 1,
    # so it turns back 93.0 km into the layer: 1.24 ms inside, leaving at 1.575 ms.
    # Traced as a ray (Hamilton's equations for ω² = ω_p²(z) + c²k²), not through the delay integral.
    e, m_e, eps0 = 1.602176634e-19, 9.1093837015e-31, 8.8541878128e-12
    f, n_max, h0, thick = 5e6, 5e11, 100e3, 150e3
    w = 2 * math.pi * f
    wp2_top = n_max * e**2 / (eps0 * m_e)

    def ray(_t: float, y: list[float]) -> list[float]:  # y = (z, k): dz/dt = ∂ω/∂k, dk/dt = −∂ω/∂z
        return [C**2 * y[1] / w, -wp2_top / thick / (2 * w)]

    t, y, dt = 0.0, [0.0, w / C], 1e-8
    while 0.0 <= y[0] <= thick:
        prev, y, t = y, rk4(ray, t, y, dt), t + dt
    edge = 0.0 if y[0] < 0 else thick  # back out of the bottom, or through the top
    t_in = t - dt * (y[0] - edge) / (y[0] - prev[0])  # the crossing, within the last step
    return {"t_in": (t_in * 1e3, "ms"), "t_exit": ((h0 / C + t_in) * 1e3, "ms")}


def _flowmeter() -> dict[str, tuple[float, str]]:
    # d 30 mm, transducers 40 mm apart, Δt 2 ns, c 1480 m/s, μ 1.0 mPa·s, ρ 998: path average 5.476 cm/s;
    # laminar (Re = 1230), mean 4.107 cm/s, Q = 1.742 L/min, f = 64/Re = 0.0520
    d, s_ax, dt, c, mu, rho = 0.030, 0.040, 2e-9, 1480.0, 1.0e-3, 998.0
    length = math.hypot(d, s_ax)
    cos_t = s_ax / length
    steps = 4000

    def transit_difference(u_peak: float, laminar: bool) -> float:  # pulse timed along the path, both ways
        up = down = 0.0
        for j in range(steps):
            r = abs((j + 0.5) / steps * d - d / 2) / (d / 2)  # distance from the axis, as a share of R
            u = u_peak * (1 - r * r) if laminar else u_peak
            up += (length / steps) / (c - u * cos_t)
            down += (length / steps) / (c + u * cos_t)
        return up - down

    def area_mean(u_peak: float, laminar: bool) -> float:  # ∫ u 2πr dr / πR², midpoint rule
        if not laminar:
            return u_peak
        rings = ((j + 0.5) / steps for j in range(steps))
        return sum(u_peak * (1 - x * x) * 2 * x / steps for x in rings)

    u_lam = _bisect(lambda u: transit_difference(u, True) - dt, 0.0, 10.0)
    mean = area_mean(u_lam, True)
    if rho * mean * d / mu >= 2300:  # not laminar: the stated turbulent ratio to the path average
        mean = 0.94 * _bisect(lambda u: transit_difference(u, False) - dt, 0.0, 10.0)
    reynolds = rho * mean * d / mu
    friction = 64 / reynolds if reynolds < 2300 else 0.316 * reynolds**-0.25
    return {"Q": (math.pi * d**2 / 4 * mean * 6e4, "L/min"), "f_D": (friction, "")}


def _cassegrain() -> dict[str, tuple[float, str]]:
    # D 400 mm, f1 1200 mm, secondary 300 mm inside the focus, final focus 200 mm behind the primary, 4 µm
    # pixels: s′ = 1100 mm, m = 3.667, f = 4.40 m, R = 825 mm, secondary 100 mm; 0.346″ vs 0.375″ → 0.375″
    d_prim, f1, a, e, pixel, lam = 0.400, 1.200, 0.300, 0.200, 4e-6, 550e-9
    gap = f1 - a  # primary to secondary

    def trace(h: float, r2: float) -> tuple[float, float, float]:
        """A ray parallel to the axis at height h, unfolded: (height at the secondary, height and
        slope after it). Mirrors as lenses of power 2/R (paraxial transfer matrices)."""
        y, u = h, -h / f1  # after the primary (power 1/f1)
        y = y + gap * u  # to the secondary
        at_secondary = y
        u = u + 2 * y / r2  # a convex mirror diverges: power −2/R
        return at_secondary, y, u

    def focus_behind_primary(r2: float) -> float:
        _, y, u = trace(1e-3, r2)
        return -y / u - gap  # where the ray crosses the axis, measured past the primary's vertex

    r2 = _bisect(lambda r: focus_behind_primary(r) - e, 2 * a * 1.0001, 20.0)  # beyond 2a the beam converges
    u = trace(1e-3, r2)[2]
    f_eff = -1e-3 / u  # the incoming height over the final slope
    secondary = 2 * abs(trace(d_prim / 2, r2)[0])
    arcsec = math.pi / 180 / 3600
    th_min = max(1.22 * lam / d_prim, 2 * pixel / f_eff) / arcsec
    return {"f_eff": (f_eff, "m"), "R2": (r2 * 1e3, "mm"), "D2": (secondary * 1e3, "mm"),
            "th_min": (th_min, "arcsec")}


def _projector() -> dict[str, tuple[float, str]]:
    # slide 2.0 m from the screen, f 120 mm, 36 mm picture, 800 lm: s = 128.2 mm, m = 14.598,
    # W = 0.5255 m, E = 800/(2/3 · 0.2762) = 4345 lx
    throw, f, w0, flux = 2.0, 0.120, 0.036, 800.0
    # sharp when 1/s + 1/(D − s) = 1/f; between f and D/2 the slide is the nearer: the enlarged picture
    s_obj = _bisect(lambda x: 1 / x + 1 / (throw - x) - 1 / f, f * 1.000001, throw / 2)
    width = w0 * (throw - s_obj) / s_obj
    return {"W": (width, "m"), "E": (flux / (width * width * 2 / 3), "lx")}


def _magnifier() -> dict[str, tuple[float, str]]:
    # f 5 cm held 2 cm from the eye, near point 25 cm: ℓ < f, so the image is best at the near point:
    # M = 1 + 23/5 = 5.6; detail 1′ × 25 cm/5.6 = 13.0 µm; sharp from s = 4.107 cm to 5 cm, 8.93 mm
    f, ell, near = 0.05, 0.02, 0.25
    arcmin = math.pi / 180 / 60

    def angle(s: float) -> float:  # angle at the eye of the image of a 1 m object s in front of the lens
        if s >= f:
            return 1 / f  # page at the focus: parallel rays, image at infinity
        v = s * f / (f - s)  # virtual image distance in front of the lens
        return (v / s) / (v + ell)

    s_near = _bisect(lambda x: x * f / (f - x) + ell - near, 1e-4, f * 0.999999)  # image at the near point
    grid = [s_near + (f - s_near) * j / 20000 for j in range(20001)]  # every page position seen sharply
    best = max(angle(x) for x in grid)
    magnification = best / (1 / near)
    return {"M_best": (magnification, ""), "ds": ((f - s_near) * 1e3, "mm"),
            "d_min": (arcmin * near / magnification * 1e6, "um")}


def _friction_spring() -> dict[str, tuple[float, str]]:
    # 0.5 kg, k 50 N/m, pulled 12 cm, μs 0.5, μk 0.25: d = 2.4525 cm, static range 4.905 cm; turns at
    # −7.095 cm (slides on), then at +2.19 cm (held): t = 2π√(m/k) = 0.6283 s, path 28.38 cm,
    # heat 348.0 mJ, top speed 95.48 cm/s. Integrated with RK4, stopping where static friction holds.
    m, k, a0, mu_s, mu_k, g = 0.5, 50.0, 0.12, 0.5, 0.25, 9.81

    def motion(direction: float) -> Callable[[float, list[float]], list[float]]:
        def deriv(_t: float, y: list[float]) -> list[float]:
            return [y[1], (-k * y[0] - direction * mu_k * m * g) / m]
        return deriv

    t, y, dt, path, top = 0.0, [a0, 0.0], 1e-5, 0.0, 0.0
    direction = -1.0  # the spring pulls it back toward the wall first
    while True:
        prev = y
        y = rk4(motion(direction), t, y, dt)
        t += dt
        top = max(top, abs(y[1]))
        if y[1] * direction <= 0:  # a turning point within this step
            frac = prev[1] / (prev[1] - y[1])
            t_turn = t - dt + frac * dt
            x_turn = prev[0] + frac * (y[0] - prev[0])
            path += abs(x_turn - prev[0])
            if k * abs(x_turn) <= mu_s * m * g:  # static friction holds it here
                break
            direction, y, t = -direction, [x_turn, 0.0], t_turn
        else:
            path += abs(y[0] - prev[0])
    return {"v_max": (top * 100, "cm/s"), "t_stop": (t_turn, "s"),
            "E_loss": (mu_k * m * g * path * 1e3, "mJ")}


EXAMPLES: dict[str, tuple[dict[str, str], Callable[[], dict[str, tuple[float, str]]]]] = {
    "waves.pipe_fork_wax_beats": (
        {"L": "40 cm", "r": "2.0 cm", "T": "20 degC", "b1": "5 Hz", "b2": "3 Hz"}, _pipe_fork),
    "waves.swell_shoaling_refraction_breaking": (
        {"H0": "1.5 m", "theta0": "30 deg", "L": "60 m", "h": "3 m", "g": "9.81 m/s^2"}, _swell),
    "optics.film_reflector_oblique_second_beam": (
        {"nf": "2.40", "ns": "1.50", "lam": "1.50 um", "lam2": "1.80 um", "theta": "40 deg"}, _film),
    "waves.pulsed_doppler_aliasing": (
        {"f0": "5 MHz", "v": "1.6 m/s", "D": "4 cm", "alpha": "40 deg", "c": "1540 m/s", "a": "0.08"},
        _doppler),
    "optics.led_step_index_link_length": (
        {"P_LED": "5 mW", "n1": "1.48", "Delta": "1 percent", "alpha": "4", "S": "-40", "T_b": "500 ns"},
        _fibre_link),
    "optics.camera_depth_of_field_diffraction": (
        {"f": "50 mm", "x1": "2 m", "x2": "6 m", "c": "20 um", "N_max": "16"}, _camera),
    "waves.stick_in_stream_ripples": (
        {"U": "32 cm/s", "sigma": "0.072 N/m", "t": "3 s", "rho": "1000 kg/m^3", "g": "9.81 m/s^2"},
        _ripples),
    "waves.ionosphere_pulse_group_delay": (
        {"f": "5 MHz", "n_max": "5e11 m^-3", "h0": "100 km", "H": "150 km"}, _ionosphere),
    "waves.ultrasonic_flowmeter_profile": (
        {"d": "30 mm", "s": "40 mm", "dt": "2 ns", "mu": "1.0 mPa*s", "c": "1480 m/s", "rho": "998 kg/m^3"},
        _flowmeter),
    "optics.cassegrain_camera_sampling": (
        {"D": "400 mm", "f1": "1200 mm", "a": "300 mm", "e": "200 mm", "p": "4 um"}, _cassegrain),
    "optics.projector_lens_conjugate_positions": (
        {"D": "2.0 m", "f": "120 mm", "w0": "36 mm", "Phi": "800 lm"}, _projector),
    "optics.magnifier_held_away_from_eye": ({"f": "5 cm", "ell": "2 cm", "N": "25 cm"}, _magnifier),
    "waves.spring_block_friction_stops": (
        {"m": "0.5 kg", "k": "50 N/m", "A0": "12 cm", "mu_s": "0.5", "mu_k": "0.25", "g": "9.81 m/s^2"},
        _friction_spring),
    "optics.telescope_exit_pupil_limits": (
        {"D": "150 mm", "f_o": "1200 mm", "f_e": "40 mm", "p": "7 mm"}, _telescope),
}
