"""Named physical limits a template's ``checks`` can cite: what real things can be.

A check ``{limit: liquid_water, of: T}`` keeps every instance whose ``T`` lies in
the limit's interval (ends included, in the limit's unit). The values are round
figures from standard tables; they bound what a careful student would accept as
real, not what a laboratory can reach.

>>> LIMITS["liquid_water"].interval_si()
(273.15, 373.15)
>>> LIMITS["below_c"].describe("below_c")
'below_c: 0 ≤ x ≤ 2.99792e+08 m/s (massive bodies move slower than light)'
"""

from __future__ import annotations

from dataclasses import dataclass

from .units import to_si


@dataclass(frozen=True)
class Limit:
    """An interval ``[low, high]`` in ``unit`` that a real quantity of one kind lies in."""

    unit: str
    low: float
    high: float
    why: str

    def interval_si(self) -> tuple[float, float]:
        """The interval in SI base units."""
        conv = to_si(self.unit)
        return (float(conv.to_si(self.low)), float(conv.to_si(self.high)))

    def describe(self, name: str) -> str:
        """One line for error messages and ``physgen validate --report``."""
        unit = f" {self.unit}" if self.unit else ""
        return f"{name}: {self.low:g} ≤ x ≤ {self.high:g}{unit} ({self.why})"


LIMITS: dict[str, Limit] = {
    # motion
    "below_c": Limit("m/s", 0.0, 2.99792458e8, "massive bodies move slower than light"),
    "walking_or_running": Limit("m/s", 0.3, 11.0, "people walk at ~1.4 m/s; sprinters peak near 11 m/s"),
    "swimming": Limit("m/s", 0.2, 2.5, "elite swimmers reach about 2.4 m/s"),
    "road_vehicle": Limit("m/s", 0.0, 70.0, "road vehicles stay below 250 km/h"),
    "throw_or_kick": Limit("m/s", 0.5, 50.0, "balls thrown, kicked or hit leave at up to ~50 m/s"),
    "steel_rim_speed": Limit("m/s", 0.0, 550.0,
                             "a solid steel disk bursts when its rim speed nears √(8σ/((3+ν)ρ)) ≈ 550 m/s "
                             "(σ = 1 GPa, ν = 0.3, ρ = 7850 kg/m³; Timoshenko, rotating disks)"),
    "person_mass": Limit("kg", 2.0, 200.0, "a newborn to a very heavy adult"),
    "child_mass": Limit("kg", 10.0, 60.0, "a child old enough to play on a seesaw"),
    "car_mass": Limit("kg", 600.0, 3500.0, "small car to large SUV"),
    "railway_wagon_mass": Limit("kg", 1.0e4, 1.2e5, "empty to loaded freight wagon"),
    "friction_coefficient": Limit("", 0.01, 1.5, "lubricated steel to rubber on dry concrete"),
    "rocky_planet_gm": Limit("m^3/s^2", 4.2e13, 4.0e15,
                             "GM of a rocky planet: Mars (4.28 × 10¹³) to a ten-Earth-mass super-Earth"),
    "period_clear_of_rocky_planet": Limit("h", 1.6, float("inf"),
                                          "a circular orbit skimming a body of the Earth's mean density "
                                          "(5.5 g/cm³) takes √(3π/(Gρ)) = 1.41 h; "
                                          "10 % height clearance: 1.6 h"),
    # matter
    "solid_density": Limit("kg/m^3", 100.0, 22600.0, "balsa wood to osmium"),
    "liquid_density": Limit("kg/m^3", 600.0, 13600.0, "light hydrocarbons to mercury"),
    "stone_density": Limit("kg/m^3", 2000.0, 3500.0, "sandstone to basalt"),
    "gas_density": Limit("kg/m^3", 0.08, 10.0, "hydrogen to dense gases near room conditions"),
    "refractive_index": Limit("", 1.0, 2.5, "vacuum to diamond (2.42), for transparent media"),
    "wire_stress": Limit("Pa", 0.0, 2.0e9, "the breaking stress of strong steel (piano) wire"),
    "rigid_vessel_pressure": Limit("MPa", 0.0, 3.0, "a thick-walled laboratory vessel; up to ~30 bar "
                                   "air stays within ~1 % of ideal (compressibility tables)"),
    "young_modulus": Limit("Pa", 1.0e7, 1.2e12, "rubber to diamond"),
    # temperature
    "liquid_water": Limit("K", 273.15, 373.15, "water is liquid between 0 °C and 100 °C at 1 atm"),
    "room_or_outdoor_air": Limit("K", 220.0, 330.0, "the air people breathe, −50 °C to 55 °C"),
    "star_surface": Limit("K", 2000.0, 50000.0, "the coolest M dwarfs to the hottest O stars"),
    "lamp_filament": Limit("K", 2000.0, 3600.0, "incandescent filaments glow at 2000–3600 K"),
    "gas_temperature": Limit("K", 20.0, 5000.0, "a gas well above its condensation, below dissociation"),
    "heat_capacity_ratio": Limit("", 1.0, 1.67, "C_p/C_v of an ideal gas: 5/3 (1.67 as printed) for a "
                                 "monatomic gas, nearer 1 the more degrees of freedom are active"),
    # electricity and magnetism
    "air_breakdown_field": Limit("V/m", 0.0, 3.0e6, "dry air breaks down near 3 MV/m"),
    "ion_mass_per_charge": Limit("kg/C", 1.04e-8, 1.0e-5,
                                 "no ion is lighter per charge than a proton (1.04 × 10⁻⁸ kg/C)"),
    "lab_magnetic_field": Limit("T", 0.0, 45.0, "the strongest steady laboratory magnets"),
    "household_power": Limit("W", 0.1, 1.0e4, "a phone charger to an electric oven"),
    "efficiency": Limit("", 0.0, 1.0, "no device returns more energy than it takes in"),
    "lorentz_factor": Limit("", 1.0, float("inf"), "γ = 1/√(1 − v²/c²) is at least 1"),
    # any domain
    "probability": Limit("", 0.0, 1.0, "a probability or a fraction of a whole lies between 0 and 1"),
    "angle_between_directions": Limit("deg", 0.0, 180.0, "the angle between two directions, or a phase "
                                      "lag asked for between 0° and 180°, lies in that range"),
    "angle_from_normal": Limit("deg", 0.0, 90.0, "an angle of a ray or a line from a normal or an axis, "
                               "on one side of it, lies between 0° and 90°"),
}
