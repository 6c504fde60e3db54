// Model visibilities of a sky model for MS rows (sky_predict.h).
#include "fringe/calibrate/sky_predict.h"

#include <cmath>
#include <queue>

#include "fringe/astro/direction.h"
#include "fringe/core/error.h"
#include "fringe/predict/predict.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/predict/predict_cuda.h"
#endif
#include "fringe/sky/sky_text_reader.h"
#include "fringe/sky/spectrum.h"
#include "fringe/vis/baseline.h"

namespace fringe::calibrate {

SkyPredictor::SkyPredictor(const std::string& sky_path, double ra0_rad, double dec0_rad,
                           std::vector<double> frequencies_hz, int num_pols)
    : path_(sky_path), frequencies_hz_(std::move(frequencies_hz)), num_pols_(num_pols) {
  const sky::SkyModel sky = sky::read_sky_text(sky_path);
  for (std::size_t s = 0; s < sky.size(); ++s) {
    const bool extended = (!sky.fwhm_major.empty() && sky.fwhm_major[s] > 0) ||
                          (!sky.fwhm_minor.empty() && sky.fwhm_minor[s] > 0);
    if (extended) {
      throw Error::in_file(sky_path, 0,
                           "source " + std::to_string(s + 1) +
                               " has a Gaussian size: calibrate predicts point sources only "
                               "(not supported yet)");
    }
    double l = 0, m = 0, n = 0;
    astro::radec_to_lmn(sky.ra[s], sky.dec[s], ra0_rad, dec0_rad, l, m, n);
    l_.push_back(l);
    m_.push_back(m);
    n_.push_back(n);
  }
  for (double f : frequencies_hz_) {
    const sky::StokesColumns st = sky::evaluate_stokes(sky, f);
    i_.push_back(st.I);
    q_.push_back(st.Q);
    u_.push_back(st.U);
    v_.push_back(st.V);
  }
}

void SkyPredictor::use_gpu(int device) {
#ifdef FRINGE_HAVE_CUDA
  gpu_ = device;
#else
  if (device >= 0) {
    throw Error("sky model prediction on GPU " + std::to_string(device) +
                ": this build has no CUDA back end");
  }
  gpu_ = -1;
#endif
}

namespace {

struct StationUvw {
  std::vector<double> u, v, w;  // per station (m)
};

// Station (u, v, w) from the baselines: breadth-first over the rows' graph (one station of
// every connected set at 0).
StationUvw station_uvw(std::size_t ns, const int* a1, const int* a2,
                       const std::array<double, 3>* uvw, std::size_t num_rows) {
  std::vector<std::vector<std::pair<int, std::size_t>>> edges(ns);
  for (std::size_t r = 0; r < num_rows; ++r) {
    if (a1[r] == a2[r]) continue;
    edges[a1[r]].push_back({a2[r], r});
    edges[a2[r]].push_back({a1[r], r});
  }
  StationUvw s{std::vector<double>(ns, 0.0), std::vector<double>(ns, 0.0),
               std::vector<double>(ns, 0.0)};
  std::vector<std::uint8_t> seen(ns, 0);
  for (std::size_t root = 0; root < ns; ++root) {
    if (seen[root]) continue;
    seen[root] = 1;
    std::queue<int> todo;
    todo.push(int(root));
    while (!todo.empty()) {
      const int p = todo.front();
      todo.pop();
      for (const auto& [q, r] : edges[p]) {
        if (seen[q]) continue;
        seen[q] = 1;
        // UVW_r = uvw_a1 - uvw_a2.
        const double sign = (a1[r] == p) ? -1.0 : 1.0;  // uvw_q = uvw_p -/+ UVW_r
        s.u[q] = s.u[p] + sign * uvw[r][0];
        s.v[q] = s.v[p] + sign * uvw[r][1];
        s.w[q] = s.w[p] + sign * uvw[r][2];
        todo.push(q);
      }
    }
  }
  return s;
}

// The rows' model at channel c (of nchan; np pols) from the baselines' (cross, per
// vis::baseline_index) and the stations' (autos) visibilities of that channel.
void rows_from_baselines(std::size_t ns, std::size_t np, std::size_t nchan, std::size_t c,
                         const int* a1, const int* a2, std::size_t num_rows,
                         const std::vector<Complex<double>>& cross,
                         const std::vector<Complex<double>>& autos, Complex<float>* model) {
  const bool full = np == 4;
  for (std::size_t r = 0; r < num_rows; ++r) {
    const int p = a1[r], q = a2[r];
    Complex<float>* dst = model + (r * nchan + c) * np;
    if (p == q) {
      for (std::size_t k = 0; k < np; ++k) dst[k] = complex_cast<float>(autos[p * np + k]);
      continue;
    }
    const bool flip = p > q;  // row (p, q) with p > q holds V_qp^H
    const std::size_t b = vis::baseline_index(ns, flip ? q : p, flip ? p : q);
    const Complex<double>* v = &cross[b * np];
    if (!full) {
      dst[0] = complex_cast<float>(flip ? conj(v[0]) : v[0]);
    } else if (!flip) {
      for (int k = 0; k < 4; ++k) dst[k] = complex_cast<float>(v[k]);
    } else {  // [[XX, XY], [YX, YY]]^H = [[XX*, YX*], [XY*, YY*]]
      dst[0] = complex_cast<float>(conj(v[0]));
      dst[1] = complex_cast<float>(conj(v[2]));
      dst[2] = complex_cast<float>(conj(v[1]));
      dst[3] = complex_cast<float>(conj(v[3]));
    }
  }
}

}  // namespace

void SkyPredictor::predict_time(int num_stations, const int* a1, const int* a2,
                                const std::array<double, 3>* uvw, std::size_t num_rows,
                                Complex<float>* model) const {
  const std::size_t ns = std::size_t(num_stations);
  const StationUvw st = station_uvw(ns, a1, a2, uvw, num_rows);
  const bool full = num_pols_ == 4;
  const std::size_t nb = vis::num_baselines(ns), np = std::size_t(num_pols_);
  const std::size_t nchan = frequencies_hz_.size();
  std::vector<Complex<double>> cross(nb * np), autos(ns * np);
  for (std::size_t c = 0; c < nchan; ++c) {
    predict::PredictInput<double> in;
    in.polarisation = full ? predict::Polarisation::Full : predict::Polarisation::Scalar;
    in.frequency_hz = frequencies_hz_[c];
    in.sources.count = l_.size();
    in.sources.stokes_i = i_[c].data();
    if (full) {
      in.sources.stokes_q = q_[c].data();
      in.sources.stokes_u = u_[c].data();
      in.sources.stokes_v = v_[c].data();
    }
    in.sources.l = l_.data();
    in.sources.m = m_.data();
    in.sources.n = n_.data();
    in.stations.count = ns;
    in.stations.u = st.u.data();
    in.stations.v = st.v.data();
    in.stations.w = st.w.data();
    std::fill(cross.begin(), cross.end(), Complex<double>{0, 0});
    std::fill(autos.begin(), autos.end(), Complex<double>{0, 0});
    if (!l_.empty() && ns >= 1) {
      predict::PredictOutput<double> out{ns >= 2 ? cross.data() : nullptr, autos.data()};
#ifdef FRINGE_HAVE_CUDA
      if (gpu_ >= 0) {
        predict::predict_direct_cuda(in, out, gpu_);
      } else {
        predict::predict_direct_cpu(in, out);
      }
#else
      predict::predict_direct_cpu(in, out);
#endif
    }
    rows_from_baselines(ns, np, nchan, c, a1, a2, num_rows, cross, autos, model);
  }
}

}  // namespace fringe::calibrate
