#include "fringe/api/predict.h"

#include <cmath>
#include <string>

#include "fringe/astro/direction.h"
#include "fringe/astro/station_uvw.h"
#include "fringe/astro/time.h"
#include "fringe/core/complex.h"
#include "fringe/core/error.h"
#include "fringe/core/jones.h"
#include "fringe/predict/predict.h"
#include "fringe/sky/gaussian.h"
#include "fringe/sky/spectrum.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/predict/predict_cuda.h"
#endif

namespace fringe::api {
namespace {

template <typename T>
PredictResult run_predict(const Sky& sky_in, std::span<const std::complex<double>> jones_in,
                          std::span<const double> uvw, std::span<const double> freqs,
                          const PredictOptions& o) {
  const std::size_t ns = uvw.size() / 3, nsrc = sky_in.size(), nc = freqs.size();
  const int npol = o.polarised ? 4 : 1;
  const std::size_t per_jones = o.polarised ? 4 : 1;
  const std::size_t per_channel = ns * nsrc * per_jones;
  const bool jones_per_channel = !jones_in.empty() && jones_in.size() == nc * per_channel;
  // Source directions and Gaussian shapes about the phase centre (as the simulator: once).
  Sky sky = sky_in;
  const sky::GaussianCoefficients g =
      sky::evaluate_gaussian_coefficients(sky, o.phase_centre_ra, o.phase_centre_dec, false);
  std::vector<double> l(nsrc), m(nsrc), n(nsrc);
  for (std::size_t s = 0; s < nsrc; ++s)
    astro::radec_to_lmn(sky.ra[s], sky.dec[s], o.phase_centre_ra, o.phase_centre_dec, l[s], m[s],
                        n[s]);
  std::vector<T> ga(g.a.begin(), g.a.end()), gb(g.b.begin(), g.b.end()), gc(g.c.begin(), g.c.end());
  std::vector<double> u(ns), v(ns), w(ns);
  for (std::size_t p = 0; p < ns; ++p) {
    u[p] = uvw[3 * p];
    v[p] = uvw[3 * p + 1];
    w[p] = uvw[3 * p + 2];
  }
  PredictResult r;
  r.num_channels = nc;
  r.num_stations = ns;
  r.num_baselines = predict::num_baselines(ns);
  r.num_pols = npol;
  r.cross.resize(nc * r.num_baselines * npol);
  if (o.autocorrelations) r.autos.resize(nc * ns * npol);
  std::vector<T> si(nsrc), sq(nsrc), su(nsrc), sv(nsrc);
  std::vector<Jones<T>> jones;
  std::vector<Complex<T>> jones_scalar;
  std::vector<Complex<T>> cross(r.num_baselines * npol), autos(o.autocorrelations ? ns * npol : 0);
  for (std::size_t c = 0; c < nc; ++c) {
    const sky::StokesColumns stokes = sky::evaluate_stokes(sky, freqs[c]);
    for (std::size_t s = 0; s < nsrc; ++s) {
      si[s] = T(stokes.I[s]);
      sq[s] = T(stokes.Q[s]);
      su[s] = T(stokes.U[s]);
      sv[s] = T(stokes.V[s]);
    }
    predict::PredictInput<T> in;
    in.polarisation = o.polarised ? predict::Polarisation::Full : predict::Polarisation::Scalar;
    in.frequency_hz = freqs[c];
    in.channel_bandwidth_hz = o.channel_bandwidth_hz;
    in.sources = {nsrc,     si.data(), sq.data(), su.data(), sv.data(), l.data(),
                  m.data(), n.data(),  ga.data(), gb.data(), gc.data()};
    in.stations.count = ns;
    in.stations.u = u.data();
    in.stations.v = v.data();
    in.stations.w = w.data();
    if (!jones_in.empty()) {
      const std::complex<double>* j = jones_in.data() + (jones_per_channel ? c * per_channel : 0);
      if (o.polarised) {
        jones.resize(ns * nsrc);
        for (std::size_t i = 0; i < jones.size(); ++i) {
          auto z = [&](int k) {
            return Complex<T>{T(j[4 * i + k].real()), T(j[4 * i + k].imag())};
          };
          jones[i] = {z(0), z(1), z(2), z(3)};
        }
        in.stations.jones = jones.data();
      } else {
        jones_scalar.resize(ns * nsrc);
        for (std::size_t i = 0; i < jones_scalar.size(); ++i)
          jones_scalar[i] = {T(j[i].real()), T(j[i].imag())};
        in.stations.jones_scalar = jones_scalar.data();
      }
    }
    for (auto& z : cross) z = {T(0), T(0)};
    for (auto& z : autos) z = {T(0), T(0)};
    const predict::PredictOutput<T> out{cross.empty() ? nullptr : cross.data(),
                                        autos.empty() ? nullptr : autos.data()};
    if (o.use_gpu) {
#ifdef FRINGE_HAVE_CUDA
      predict::predict_direct_cuda<T>(in, out, o.gpu);
#else
      throw Error("predict: use_gpu is set, but this fringe was built without the CUDA back end");
#endif
    } else {
      predict::predict_direct_cpu<T>(in, out);
    }
    for (std::size_t i = 0; i < cross.size(); ++i)
      r.cross[c * cross.size() + i] = {double(cross[i].re), double(cross[i].im)};
    for (std::size_t i = 0; i < autos.size(); ++i)
      r.autos[c * autos.size() + i] = {double(autos[i].re), double(autos[i].im)};
  }
  return r;
}

}  // namespace

PredictResult predict(const Sky& sky, std::span<const std::complex<double>> station_jones,
                      std::span<const double> station_uvw, std::span<const double> frequencies_hz,
                      const PredictOptions& options) {
  if (sky.empty()) throw Error("predict: the sky model is empty");
  if (station_uvw.size() % 3 != 0 || station_uvw.empty()) {
    throw Error("predict: station_uvw has " + std::to_string(station_uvw.size()) +
                " values, expected num_stations x 3 (metres)");
  }
  if (frequencies_hz.empty()) throw Error("predict: no frequencies given");
  for (double f : frequencies_hz) {
    if (!(f > 0) || !std::isfinite(f))
      throw Error("predict: frequency " + std::to_string(f) + " Hz, expected > 0");
  }
  for (double x : station_uvw) {
    if (!std::isfinite(x)) throw Error("predict: station_uvw holds a NaN or Inf");
  }
  const std::size_t ns = station_uvw.size() / 3;
  const std::size_t per = ns * sky.size() * (options.polarised ? 4 : 1);
  if (!station_jones.empty() && station_jones.size() != per &&
      station_jones.size() != per * frequencies_hz.size()) {
    throw Error("predict: station_jones has " + std::to_string(station_jones.size()) +
                " values, expected " + std::to_string(per) + " ([station][source]" +
                (options.polarised ? "[2][2]" : "") + ") or " +
                std::to_string(per * frequencies_hz.size()) + " ([channel][station][source]" +
                (options.polarised ? "[2][2]" : "") + ")");
  }
  return options.precision == Precision::Single
             ? run_predict<float>(sky, station_jones, station_uvw, frequencies_hz, options)
             : run_predict<double>(sky, station_jones, station_uvw, frequencies_hz, options);
}

std::vector<double> station_uvw(const Telescope& telescope, const Observation& o, int time_index,
                                bool true_positions) {
  if (time_index < 0 || time_index >= o.num_time_steps) {
    throw Error::in_field("time_index", std::to_string(time_index),
                          "expected 0 .. " + std::to_string(o.num_time_steps - 1));
  }
  const std::size_t ns = telescope.stations.size();
  std::vector<double> x(ns), y(ns), z(ns), u(ns), v(ns), w(ns);
  for (std::size_t p = 0; p < ns; ++p) {
    const auto& st = telescope.stations[p];
    const astro::Vec3& e = true_positions ? st.true_offset_ecef : st.measured_offset_ecef;
    const astro::Vec3& enu = true_positions ? st.true_enu : st.measured_enu;
    if (o.mode == astro::ObservationMode::DriftScan) {
      u[p] = enu.x;  // drift scan: East, North, Up (sim/interferometer.cpp, fill_uvw)
      v[p] = enu.y;
      w[p] = enu.z;
    } else {
      x[p] = e.x;
      y[p] = e.y;
      z[p] = e.z;
    }
  }
  if (o.mode != astro::ObservationMode::DriftScan) {
    astro::station_uvw(x, y, z, o.phase_centre_ra, o.phase_centre_dec,
                       astro::gast_rad(o.time_centre_mjd(time_index)), u, v, w);
  }
  std::vector<double> out(3 * ns);
  for (std::size_t p = 0; p < ns; ++p) {
    out[3 * p] = u[p];
    out[3 * p + 1] = v[p];
    out[3 * p + 2] = w[p];
  }
  return out;
}

}  // namespace fringe::api
