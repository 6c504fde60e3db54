// Element patterns of a block of directions for the CPU loops of aperture_array.cpp: the
// spherical-wave sum of spherical_wave_math.h (OSKAR's plain convention) vectorised over the
// directions, so a numerical pattern costs about what the dipole costs next to a station's
// array factor (docs/station_beams.md, "Grouped evaluation"). The sums, the recurrences and the
// order of the terms are those of sw_pattern; only theta and phi are taken from the
// direction's components (sin theta = rho / r, cos theta = u / r, cos phi = e / rho,
// sin phi = n / rho with rho = sqrt(e^2 + n^2), r = sqrt(rho^2 + u^2)) instead of through
// atan2 and sin/cos, and cos/sin(m phi) by rotation, so results equal aa_element_jones to
// rounding (tests: ApertureArrayGroups.*). Other patterns (functional, Galileo, FEKO) go
// through aa_element_jones per direction. CPU only; double.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/constants.h"
#include "fringe/core/jones.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/spherical_wave_math.h"

namespace fringe::jones {

// Per-direction state of the vectorised sum; sized on first use and reused.
struct SwBlockScratch {
  std::vector<double> st, ist, ct, c1x, s1x, c1y, s1y, cmx, smx, cmy, smy, pmm, pl, pn;
  std::vector<double> xt_re, xt_im, xp_re, xp_im, yt_re, yt_im, yp_re, yp_im;
  void resize(std::size_t m) {
    for (auto* v :
         {&st,  &ist, &ct, &c1x,   &s1x,   &c1y,   &s1y,   &cmx,   &smx,   &cmy,   &smy,
          &pmm, &pl,  &pn, &xt_re, &xt_im, &xp_re, &xp_im, &yt_re, &yt_im, &yp_re, &yp_im})
      if (v->size() < m) v->resize(m);
  }
};

// True when aa_sw_block evaluates the pattern of `p` (plain spherical-wave coefficients).
inline bool aa_sw_block_applies(const ElementParams<double>& p) {
  return p.sw != nullptr && !p.sw_galileo && !p.sw_feko;
}

// out[j] = aa_element_jones(p, e[j], n[j], u[j]) for j < m, for p with
// aa_sw_block_applies(p). Directions below the horizon are evaluated too (callers zero them).
inline void aa_sw_block(const ElementParams<double>& p, const double* e, const double* n,
                        const double* u, std::size_t m, SwBlockScratch& s, Jones<double>* out) {
  s.resize(m);
  const double theta_min = sw_min_theta<double>();
  const double st_min = std::sin(theta_min), ct_min = std::cos(theta_min);
  const double tan_min = std::tan(theta_min);
  const double cax = std::cos(p.alpha_x), sax = std::sin(p.alpha_x);
  const double cay = std::cos(p.alpha_y), say = std::sin(p.alpha_y);
  for (std::size_t j = 0; j < m; ++j) {
    const double rho = std::sqrt(e[j] * e[j] + n[j] * n[j]);
    const double r = std::sqrt(rho * rho + u[j] * u[j]);
    const bool clamp = u[j] > 0.0 && rho < u[j] * tan_min;  // theta < theta_min
    s.st[j] = clamp ? st_min : rho / r;
    s.ist[j] = 1.0 / s.st[j];
    s.ct[j] = clamp ? ct_min : u[j] / r;
    // phi from East towards North; atan2(0, 0) = 0 at the zenith.
    const double cp = rho > 0.0 ? e[j] / rho : 1.0, sp = rho > 0.0 ? n[j] / rho : 0.0;
    s.c1x[j] = cp * cax + sp * sax;  // phi - alpha_x
    s.s1x[j] = sp * cax - cp * sax;
    if (p.sw_common_phi) {
      s.c1y[j] = s.c1x[j];
      s.s1y[j] = s.s1x[j];
    } else {  // phi + pi/2 - alpha_y
      s.c1y[j] = -(sp * cay - cp * say);
      s.s1y[j] = cp * cay + sp * say;
    }
    s.cmx[j] = 1.0;
    s.smx[j] = 0.0;
    s.cmy[j] = 1.0;
    s.smy[j] = 0.0;
    s.pmm[j] = 1.0;
    s.xt_re[j] = s.xt_im[j] = s.xp_re[j] = s.xp_im[j] = 0.0;
    s.yt_re[j] = s.yt_im[j] = s.yp_re[j] = s.yp_im[j] = 0.0;
  }
  double* __restrict st = s.st.data();
  double* __restrict ct = s.ct.data();
  const double* __restrict ist = s.ist.data();
  double* __restrict pmm = s.pmm.data();
  double* __restrict pl = s.pl.data();
  double* __restrict pn = s.pn.data();
  double* __restrict cmx = s.cmx.data();
  double* __restrict smx = s.smx.data();
  double* __restrict cmy = s.cmy.data();
  double* __restrict smy = s.smy.data();
  double* __restrict xt_re = s.xt_re.data();
  double* __restrict xt_im = s.xt_im.data();
  double* __restrict xp_re = s.xp_re.data();
  double* __restrict xp_im = s.xp_im.data();
  double* __restrict yt_re = s.yt_re.data();
  double* __restrict yt_im = s.yt_im.data();
  double* __restrict yp_re = s.yp_re.data();
  double* __restrict yp_im = s.yp_im.data();
  const double* __restrict c1x = s.c1x.data();
  const double* __restrict s1x = s.s1x.data();
  const double* __restrict c1y = s.c1y.data();
  const double* __restrict s1y = s.s1y.data();
  const int l_max = p.sw_l_max;
  double ratio_mm = 1.0;  // (l - m)! / (l + m)! at l = m
  for (int mo = 0; mo <= l_max; ++mo) {
    if (mo > 0) {
      ratio_mm /= double(2 * mo - 1) * double(2 * mo);
#pragma omp simd
      for (std::size_t j = 0; j < m; ++j) {
        pmm[j] *= -double(2 * mo - 1) * st[j];
        const double cx = cmx[j] * c1x[j] - smx[j] * s1x[j];
        const double cy = cmy[j] * c1y[j] - smy[j] * s1y[j];
        smx[j] = smx[j] * c1x[j] + cmx[j] * s1x[j];
        smy[j] = smy[j] * c1y[j] + cmy[j] * s1y[j];
        cmx[j] = cx;
        cmy[j] = cy;
      }
    }
#pragma omp simd
    for (std::size_t j = 0; j < m; ++j) {
      pl[j] = pmm[j];
      pn[j] = ct[j] * double(2 * mo + 1) * pmm[j];
    }
    double ratio = ratio_mm;
    for (int l = mo; l <= l_max; ++l) {
      if (l >= 1) {
        const double norm =
            std::sqrt(double(2 * l + 1) / (4.0 * kPi * double(l) * double(l + 1)) * ratio);
        const int centre = l * l + l - 1;
        const double fl1 = double(l + 1), flm = double(l - mo + 1);
        for (int sgn = (mo == 0 ? 1 : -1); sgn <= 1; sgn += 2) {
          const double mm = double(sgn * mo), fs = double(sgn) * norm;
          const Complex<double>* c = p.sw + 4 * (centre + sgn * mo);
          const Complex<double> xte = c[0], xtm = c[1], yte = c[2], ytm = c[3];
#pragma omp simd
          for (std::size_t j = 0; j < m; ++j) {
            const double p_sin = pl[j] * ist[j];
            const double dp = (ct[j] * pl[j] * fl1 - pn[j] * flm) * ist[j];
            // sw_mode for X then Y: e_m = norm (cos, sgn sin)(m phi).
            const double exr = norm * cmx[j], exi = fs * smx[j];
            double tr = -xte.re * dp - mm * xtm.im * p_sin;
            double ti = -xte.im * dp + mm * xtm.re * p_sin;
            double qr = -xtm.re * dp + mm * xte.im * p_sin;
            double qi = -xtm.im * dp - mm * xte.re * p_sin;
            xt_re[j] += exr * tr - exi * ti;
            xt_im[j] += exr * ti + exi * tr;
            xp_re[j] += exr * qr - exi * qi;
            xp_im[j] += exr * qi + exi * qr;
            const double eyr = norm * cmy[j], eyi = fs * smy[j];
            tr = -yte.re * dp - mm * ytm.im * p_sin;
            ti = -yte.im * dp + mm * ytm.re * p_sin;
            qr = -ytm.re * dp + mm * yte.im * p_sin;
            qi = -ytm.im * dp - mm * yte.re * p_sin;
            yt_re[j] += eyr * tr - eyi * ti;
            yt_im[j] += eyr * ti + eyi * tr;
            yp_re[j] += eyr * qr - eyi * qi;
            yp_im[j] += eyr * qi + eyi * qr;
          }
        }
      }
      const double a = double(2 * l + 3), b = double(l + 1 + mo), d = double(l + 2 - mo);
#pragma omp simd
      for (std::size_t j = 0; j < m; ++j) {
        const double after = (a * ct[j] * pn[j] - b * pl[j]) / d;
        pl[j] = pn[j];
        pn[j] = after;
      }
      ratio *= double(l + 1 - mo) / double(l + 1 + mo);
    }
  }
  for (std::size_t j = 0; j < m; ++j) {
    // Rows [E_phi, E_theta] as sw_pattern; then aa_element_jones's factors.
    double f = p.sw_norm;
    if (p.taper != TaperKind::None) f *= aa_taper(p, u[j]);
    Jones<double> jm{{xp_re[j] * f, xp_im[j] * f},
                     {xt_re[j] * f, xt_im[j] * f},
                     {yp_re[j] * f, yp_im[j] * f},
                     {yt_re[j] * f, yt_im[j] * f}};
    if (p.swap_xy) jm = {jm.c, jm.d, jm.a, jm.b};
    out[j] = jm;
  }
}

}  // namespace fringe::jones
