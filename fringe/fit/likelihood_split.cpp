// make_likelihood_split (likelihood_split.h).
#include "fringe/fit/likelihood_split.h"

#include <exception>
#include <string>
#include <thread>

#include "fringe/core/error.h"

namespace fringe::fit {
namespace {

class LikelihoodSplit final : public LikelihoodBackend {
 public:
  explicit LikelihoodSplit(std::vector<std::unique_ptr<LikelihoodBackend>> parts)
      : parts_(std::move(parts)) {}

  const char* name() const override { return parts_.front()->name(); }

  void evaluate(std::span<const SourceParameters> params, std::span<const StationGains> gains,
                GradientRequest request, double* chi2, Gradient* grads) override {
    const std::size_t k = params.size(), n = parts_.size();
    const bool want = request.sources || request.gains;
    std::vector<std::vector<double>> chi(n, std::vector<double>(k));
    std::vector<std::vector<Gradient>> gr(n, std::vector<Gradient>(want ? k : 0));
    for_each_part([&](std::size_t i) {
      parts_[i]->evaluate(params, gains, request, chi[i].data(), want ? gr[i].data() : nullptr);
    });
    for (std::size_t b = 0; b < k; ++b) {
      chi2[b] = 0.0;
      for (std::size_t i = 0; i < n; ++i) chi2[b] += chi[i][b];
      if (!want) continue;
      grads[b] = gr[0][b];
      for (std::size_t i = 1; i < n; ++i) {
        for (std::size_t j = 0; j < grads[b].source.size(); ++j) {
          grads[b].source[j] += gr[i][b].source[j];
        }
        for (std::size_t j = 0; j < grads[b].gains.size(); ++j) {
          grads[b].gains[j] += gr[i][b].gains[j];
        }
      }
    }
  }

  std::vector<Complex<double>> model(const SourceParameters& params,
                                     const StationGains& gains) override {
    std::vector<std::vector<Complex<double>>> m(parts_.size());
    for_each_part([&](std::size_t i) { m[i] = parts_[i]->model(params, gains); });
    std::vector<Complex<double>> out;
    for (auto& v : m) out.insert(out.end(), v.begin(), v.end());
    return out;
  }

 private:
  // f(i) for every part, concurrently; the first exception (in part order) is rethrown.
  template <typename F>
  void for_each_part(F&& f) {
    std::vector<std::exception_ptr> errors(parts_.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      threads.emplace_back([&, i] {
        try {
          f(i);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
    for (auto& t : threads) t.join();
    for (auto& e : errors) {
      if (e) std::rethrow_exception(e);
    }
  }

  std::vector<std::unique_ptr<LikelihoodBackend>> parts_;
};

}  // namespace

ObservedData select_rows(const ObservedData& data, std::size_t first, std::size_t count) {
  ObservedData out;
  out.num_rows = count;
  out.num_channels = data.num_channels;
  out.num_stations = data.num_stations;
  out.num_pols = data.num_pols;
  out.frequency_hz = data.frequency_hz;
  out.channel_bandwidth_hz = data.channel_bandwidth_hz;
  const std::size_t per = data.num_channels * std::size_t(data.num_pols);
  auto copy = [&](const auto& v, std::size_t width) {
    return std::decay_t<decltype(v)>(v.begin() + first * width,
                                     v.begin() + (first + count) * width);
  };
  out.antenna1 = copy(data.antenna1, 1);
  out.antenna2 = copy(data.antenna2, 1);
  out.time_index = copy(data.time_index, 1);
  out.uvw = copy(data.uvw, 3);
  if (!data.time_smearing.empty()) out.time_smearing = copy(data.time_smearing, 3);
  out.data = copy(data.data, per);
  out.weight = copy(data.weight, per);
  return out;
}

std::unique_ptr<LikelihoodBackend> make_likelihood_split(ObservedData data, StationJones jones,
                                                         int num_parts,
                                                         const BackendFactory& make) {
  data.validate();
  if (num_parts < 1 || std::size_t(num_parts) > data.num_rows) {
    throw Error("cannot split " + std::to_string(data.num_rows) + " rows into " +
                std::to_string(num_parts) + " parts");
  }
  std::vector<std::unique_ptr<LikelihoodBackend>> parts;
  const std::size_t n = std::size_t(num_parts);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t first = data.num_rows * i / n, last = data.num_rows * (i + 1) / n;
    parts.push_back(make(select_rows(data, first, last - first), jones, int(i)));
  }
  return std::make_unique<LikelihoodSplit>(std::move(parts));
}

}  // namespace fringe::fit
