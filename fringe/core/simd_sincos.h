// sincos in double precision written so that GCC vectorises it inside `#pragma omp simd`
// loops (libm's sin/cos stay scalar calls without -ffast-math): Cody-Waite reduction by
// pi/2 in three parts, then the minimax polynomials of fdlibm's __kernel_sin/__kernel_cos
// (coefficients S1..S6, C1..C6; Sun Microsystems 1993, freely redistributable) on
// [-pi/4, pi/4], and the quadrant chosen with bit operations. Accuracy: within 2.3e-16
// (absolute) of libm for |x| <= kSimdSincosMaxArg; callers use libm beyond that.
// The quadrant is read from the low bits of the rounding constant sum (1.5 * 2^52 + y holds
// round(y) in its low mantissa bits), which needs IEEE double arithmetic without -ffast-math.
#pragma once

#include <bit>
#include <cstdint>

namespace fringe {

inline constexpr double kSimdSincosMaxArg = 1.0e6;  // rad

inline void simd_sincos(double x, double& s, double& c) {
  constexpr double kTwoOverPi = 6.36619772367581382433e-01;
  constexpr double kRound = 6755399441055744.0;          // 1.5 * 2^52
  constexpr double kPio2a = 1.57079632673412561417e+00;  // first 33 bits of pi/2
  constexpr double kPio2b = 6.07710050630396597660e-11;  // next 33 bits
  constexpr double kPio2c = 2.02226624871116645580e-21;  // the rest
  const double t = x * kTwoOverPi + kRound;
  const double q = t - kRound;                              // round(x * 2 / pi)
  const std::uint64_t n = std::bit_cast<std::uint64_t>(t);  // low bits: the quadrant
  const double r = ((x - q * kPio2a) - q * kPio2b) - q * kPio2c;
  const double z = r * r;
  const double ps =
      r + r * z *
              (-1.66666666666666324348e-01 +
               z * (8.33333333332248946124e-03 +
                    z * (-1.98412698298579493134e-04 +
                         z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 +
                                                                z * 1.58969099521155010221e-10)))));
  const double pc =
      1.0 - 0.5 * z +
      z * z *
          (4.16666666666666019037e-02 +
           z * (-1.38888888888741095749e-03 +
                z * (2.48015872894767294178e-05 +
                     z * (-2.75573143513906633035e-07 +
                          z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  // Quadrant n: sin = (ps, pc, -ps, -pc)[n], cos = (pc, -ps, -pc, ps)[n].
  const bool odd = (n & 1u) != 0;
  const double s0 = odd ? pc : ps;
  const double c0 = odd ? ps : pc;
  const std::uint64_t sign_s = (n & 2u) << 62;
  const std::uint64_t sign_c = ((n + 1u) & 2u) << 62;
  s = std::bit_cast<double>(std::bit_cast<std::uint64_t>(s0) ^ sign_s);
  c = std::bit_cast<double>(std::bit_cast<std::uint64_t>(c0) ^ sign_c);
}

}  // namespace fringe
