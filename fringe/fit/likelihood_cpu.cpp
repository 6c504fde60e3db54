// CPU back end of the likelihood (likelihood.h): OpenMP threads over rows, each row's
// channels and sources in a fixed order, so results depend only on the thread count (each
// thread sums its own gradient and chi2, combined in thread order).
#include <omp.h>

#include <cmath>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/fit/likelihood.h"

namespace fringe::fit {
namespace {

template <typename T>
Jones<T> to_jones(const Complex<double>* v) {
  return {{T(v[0].re), T(v[0].im)},
          {T(v[1].re), T(v[1].im)},
          {T(v[2].re), T(v[2].im)},
          {T(v[3].re), T(v[3].im)}};
}
template <typename T>
Complex<T> to_t(Complex<double> v) {
  return {T(v.re), T(v.im)};
}

template <typename T>
class LikelihoodCpu final : public LikelihoodBackend {
  // Per-thread scratch of smearing: c_s without it and the factor with its derivatives.
  struct Smear {
    std::vector<Complex<T>> coef0;
    std::vector<SmearingFactor> factor;
  };

 public:
  LikelihoodCpu(ObservedData data, StationJones jones, PhaseCentre centre, int num_threads)
      : centre_(centre), threads_(num_threads > 0 ? num_threads : omp_get_max_threads()) {
    data.validate();
    validate_jones(data, jones);
    rows_ = data.num_rows;
    channels_ = data.num_channels;
    stations_ = data.num_stations;
    pols_ = data.num_pols;
    a1_ = std::move(data.antenna1);
    a2_ = std::move(data.antenna2);
    tidx_ = std::move(data.time_index);
    uvw_ = std::move(data.uvw);
    freq_ = std::move(data.frequency_hz);
    bandwidth_ = data.channel_bandwidth_hz;
    time_smearing_ = std::move(data.time_smearing);
    vis_.resize(data.data.size());
    wgt_.resize(data.weight.size());
    for (std::size_t i = 0; i < vis_.size(); ++i) {
      // Flagged values may be NaN: they never enter a sum (weight 0 is skipped).
      vis_[i] = data.weight[i] > 0.0 ? to_t<T>(data.data[i]) : Complex<T>{0, 0};
      wgt_[i] = T(data.weight[i]);
    }
    jones_sources_ = jones.num_sources;
    if (!jones.empty()) {
      if (pols_ == 4) {
        jones4_.resize(jones.values.size() / 4);
        for (std::size_t i = 0; i < jones4_.size(); ++i)
          jones4_[i] = to_jones<T>(&jones.values[4 * i]);
      } else {
        jones1_.resize(jones.values.size());
        for (std::size_t i = 0; i < jones1_.size(); ++i) jones1_[i] = to_t<T>(jones.values[i]);
      }
    }
  }

  const char* name() const override { return "cpu"; }

  void evaluate(std::span<const SourceParameters> params, std::span<const StationGains> gains,
                GradientRequest request, double* chi2, Gradient* grads) override {
    if (!gains.empty() && gains.size() != params.size()) {
      throw Error("gains for " + std::to_string(gains.size()) + " parameter sets, sources for " +
                  std::to_string(params.size()) + ": expected the same number (or no gains)");
    }
    static const StationGains kUnit;
    for (std::size_t k = 0; k < params.size(); ++k) {
      const StationGains& g = gains.empty() ? kUnit : gains[k];
      Gradient* gr = (request.sources || request.gains) ? &grads[k] : nullptr;
      chi2[k] = run(params[k], g, request, gr, nullptr);
    }
  }

  std::vector<Complex<double>> model(const SourceParameters& params,
                                     const StationGains& gains) override {
    std::vector<Complex<double>> out(rows_ * channels_ * pols_);
    run(params, gains, {}, nullptr, out.data());
    return out;
  }

 private:
  // One parameter set: chi2, and the gradient into grad (if not null), or the model into
  // model_out (if not null).
  double run(const SourceParameters& params, const StationGains& gains, GradientRequest req,
             Gradient* grad, Complex<double>* model_out) {
    validate_parameters(params, gains, stations_, jones_sources_);
    const std::vector<SourceTerm> terms = derive_terms(params, centre_);
    const std::size_t ns = terms.size();
    std::vector<Complex<T>> g(2 * stations_, Complex<T>{1, 0});
    for (std::size_t i = 0; i < gains.values.size(); ++i) g[i] = to_t<T>(gains.values[i]);

    const bool want_src = grad && req.sources, want_gain = grad && req.gains;
    std::vector<double> chi_part(threads_, 0.0);
    std::vector<std::vector<double>> inter(threads_), gain_acc(threads_);
#pragma omp parallel num_threads(threads_)
    {
      const int tid = omp_get_thread_num();
      std::vector<double>& gi = inter[tid];
      std::vector<double>& gg = gain_acc[tid];
      if (want_src) gi.assign(ns * kNumInter, 0.0);
      if (want_gain) gg.assign(stations_ * 4, 0.0);
      std::vector<Complex<T>> coef(ns);
      // With bandwidth smearing: c_s without it and (s, ds/dphi) per source (the gradient).
      Smear smear;
      if (bandwidth_ > 0.0 || !time_smearing_.empty()) {
        smear.coef0.resize(ns);
        smear.factor.resize(ns);
      }
      double chi = 0.0;
#pragma omp for schedule(static)
      for (long long r = 0; r < static_cast<long long>(rows_); ++r) {
        chi += row(std::size_t(r), terms, g, coef, smear, want_src ? gi.data() : nullptr,
                   want_gain ? gg.data() : nullptr, model_out);
      }
      chi_part[tid] = chi;
    }
    double chi2 = 0.0;
    for (double c : chi_part) chi2 += c;
    if (grad) {
      grad->source.clear();
      grad->gains.clear();
      if (want_src) {
        std::vector<double> sum(ns * kNumInter, 0.0);
        for (const auto& t : inter) {
          for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += t[i];
        }
        grad->source = chain_to_parameters(sum, params, centre_);
      }
      if (want_gain) {
        grad->gains.assign(stations_ * 4, 0.0);
        for (const auto& t : gain_acc) {
          for (std::size_t i = 0; i < t.size(); ++i) grad->gains[i] += t[i];
        }
        if (pols_ == 1) {
          for (std::size_t p = 0; p < stations_; ++p)
            grad->gains[4 * p + 2] = grad->gains[4 * p + 3] = 0;
        }
      }
    }
    return chi2;
  }

  double row(std::size_t r, const std::vector<SourceTerm>& terms, const std::vector<Complex<T>>& g,
             std::vector<Complex<T>>& coef, Smear& smear, double* gi, double* gg,
             Complex<double>* model_out) {
    const std::size_t ns = terms.size();
    const int p = a1_[r], q = a2_[r];
    const double uu = uvw_[3 * r], vv = uvw_[3 * r + 1], ww = uvw_[3 * r + 2];
    double chi = 0.0;
    for (std::size_t c = 0; c < channels_; ++c) {
      const double inv_lambda = freq_[c] / kSpeedOfLight;
      const double ln_f = std::log(freq_[c]);
      const std::size_t vi = (r * channels_ + c) * pols_;
      const std::size_t jbase =
          ((std::size_t(tidx_[r]) * channels_ + c) * stations_) * ns;  // [t][c][station][source]
      for (std::size_t s = 0; s < ns; ++s) {
        coef[s] = source_coefficient<T>(terms[s], uu, vv, ww, inv_lambda,
                                        log_frequency_ratio(terms[s], ln_f));
      }
      const bool smeared = !smear.coef0.empty();
      if (smeared) {
        const double scale =
            bandwidth_ > 0.0 ? predict::bandwidth_smearing_scale(bandwidth_, freq_[c]) : 0.0;
        const double* tc = time_smearing_.empty() ? nullptr : &time_smearing_[3 * r];
        for (std::size_t s = 0; s < ns; ++s) {
          smear.factor[s] = smearing_factor(terms[s], uu, vv, ww, inv_lambda, scale, tc);
          smear.coef0[s] = coef[s];
          coef[s] = coef[s] * T(smear.factor[s].s);
        }
      }
      if (pols_ == 4) {
        Jones<T> sum = jones_zero<T>();
        for (std::size_t s = 0; s < ns; ++s) {
          const SourceTerm& t = terms[s];
          if (jones4_.empty()) {
            sum += predict::brightness(T(t.i), T(t.q), T(t.u), T(t.v)) * coef[s];
          } else {
            const Jones<T>& jp = jones4_[jbase + std::size_t(p) * ns + s];
            const Jones<T>& jq = jones4_[jbase + std::size_t(q) * ns + s];
            sum += jones_mul_h(predict::jones_times_brightness(jp, T(t.i), T(t.q), T(t.u), T(t.v)),
                               jq) *
                   coef[s];
          }
        }
        const Complex<T> gpx = g[2 * p], gpy = g[2 * p + 1], gqx = g[2 * q], gqy = g[2 * q + 1];
        const Jones<T> m{gpx * sum.a * conj(gqx), gpx * sum.b * conj(gqy), gpy * sum.c * conj(gqx),
                         gpy * sum.d * conj(gqy)};
        if (model_out) {
          const Complex<T> mv[4] = {m.a, m.b, m.c, m.d};
          for (int k = 0; k < 4; ++k) model_out[vi + k] = {double(mv[k].re), double(mv[k].im)};
          continue;
        }
        const Complex<T> mv[4] = {m.a, m.b, m.c, m.d};
        Complex<T> rv[4];
        for (int k = 0; k < 4; ++k) {
          const T w = wgt_[vi + k];
          const Complex<T> d = mv[k] - vis_[vi + k];
          chi += double(w) * (double(d.re) * double(d.re) + double(d.im) * double(d.im));
          rv[k] = d * w;
        }
        const Jones<T> res{rv[0], rv[1], rv[2], rv[3]};
        if (gg) add_gain_gradient<T, double>(gg + 4 * p, gg + 4 * q, res, sum, gpx, gpy, gqx, gqy);
        if (gi) {
          // Y = G_p^H R G_q.
          const Jones<T> y{conj(gpx) * res.a * gqx, conj(gpx) * res.b * gqy,
                           conj(gpy) * res.c * gqx, conj(gpy) * res.d * gqy};
          for (std::size_t s = 0; s < ns; ++s) {
            Jones<T> ys = y;
            if (!jones4_.empty()) {
              const Jones<T>& jp = jones4_[jbase + std::size_t(p) * ns + s];
              const Jones<T>& jq = jones4_[jbase + std::size_t(q) * ns + s];
              ys = jones_h(jp) * y * jq;
            }
            if (smeared) {
              add_source_gradient_smeared<T, double>(
                  gi + s * kNumInter, terms[s], ys, smear.coef0[s], smear.factor[s], uu, vv, ww,
                  inv_lambda, log_frequency_ratio(terms[s], ln_f));
            } else {
              add_source_gradient<T, double>(gi + s * kNumInter, terms[s], ys, coef[s], uu, vv, ww,
                                             inv_lambda, log_frequency_ratio(terms[s], ln_f));
            }
          }
        }
      } else {
        Complex<T> sum{0, 0};
        for (std::size_t s = 0; s < ns; ++s) {
          Complex<T> term = coef[s] * T(terms[s].i);
          if (!jones1_.empty()) {
            term = term * jones1_[jbase + std::size_t(p) * ns + s] *
                   conj(jones1_[jbase + std::size_t(q) * ns + s]);
          }
          sum += term;
        }
        const Complex<T> gpx = g[2 * p], gqx = g[2 * q];
        const Complex<T> m = gpx * sum * conj(gqx);
        if (model_out) {
          model_out[vi] = {double(m.re), double(m.im)};
          continue;
        }
        const T w = wgt_[vi];
        const Complex<T> d = m - vis_[vi];
        chi += double(w) * (double(d.re) * double(d.re) + double(d.im) * double(d.im));
        const Complex<T> res = d * w;
        if (gg) add_gain_gradient_scalar<T, double>(gg + 4 * p, gg + 4 * q, res, sum, gpx, gqx);
        if (gi) {
          const Complex<T> y = conj(gpx) * res * gqx;
          for (std::size_t s = 0; s < ns; ++s) {
            Complex<T> ys = y;
            if (!jones1_.empty()) {
              ys = conj(jones1_[jbase + std::size_t(p) * ns + s]) * y *
                   jones1_[jbase + std::size_t(q) * ns + s];
            }
            if (smeared) {
              add_source_gradient_scalar_smeared<T, double>(
                  gi + s * kNumInter, terms[s], ys, smear.coef0[s], smear.factor[s], uu, vv, ww,
                  inv_lambda, log_frequency_ratio(terms[s], ln_f));
            } else {
              add_source_gradient_scalar<T, double>(gi + s * kNumInter, terms[s], ys, coef[s], uu,
                                                    vv, ww, inv_lambda,
                                                    log_frequency_ratio(terms[s], ln_f));
            }
          }
        }
      }
    }
    return chi;
  }

  PhaseCentre centre_;
  int threads_;
  std::size_t rows_ = 0, channels_ = 0, stations_ = 0;
  int pols_ = 4;
  std::vector<int> a1_, a2_, tidx_;
  std::vector<double> uvw_, freq_;
  double bandwidth_ = 0.0;             // Hz, bandwidth smearing (0: off)
  std::vector<double> time_smearing_;  // [row][3] (empty: off)
  std::vector<Complex<T>> vis_;
  std::vector<T> wgt_;
  std::size_t jones_sources_ = 0;
  std::vector<Jones<T>> jones4_;
  std::vector<Complex<T>> jones1_;
};

}  // namespace

std::unique_ptr<LikelihoodBackend> make_likelihood_cpu(ObservedData data, StationJones jones,
                                                       PhaseCentre centre, Precision precision,
                                                       int num_threads) {
  if (precision == Precision::Single) {
    return std::make_unique<LikelihoodCpu<float>>(std::move(data), std::move(jones), centre,
                                                  num_threads);
  }
  return std::make_unique<LikelihoodCpu<double>>(std::move(data), std::move(jones), centre,
                                                 num_threads);
}

}  // namespace fringe::fit
