// Physical and mathematical constants shared by the CPU and CUDA back ends (usable in kernels:
// plain constexpr doubles). One definition each, so that every module computes with the same
// value. Units are SI unless the name says otherwise.
#pragma once

namespace fringe {

inline constexpr double kPi = 3.141592653589793238462643383279502884;
inline constexpr double kTwoPi = 6.283185307179586476925286766559005768;
inline constexpr double kDegToRad = kPi / 180.0;
inline constexpr double kRadToDeg = 180.0 / kPi;

// Speed of light in vacuum, m/s (SI, exact).
inline constexpr double kSpeedOfLight = 299792458.0;

// Boltzmann's constant, J/K (SI 2019, exact; OSKAR 2.13 uses 1.3806488e-23, see
// docs/conventions.md, "System noise").
inline constexpr double kBoltzmann = 1.380649e-23;

// Earth's rotation rate, rad/s, as used by OSKAR's time-smearing formula
// (docs/conventions.md, "Smearing").
inline constexpr double kEarthRotationRate = 7.272205217e-5;

inline constexpr double kSecondsPerDay = 86400.0;

}  // namespace fringe
