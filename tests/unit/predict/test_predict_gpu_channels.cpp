// Channel batches of the CUDA direct predict (PredictCuda<T>::run_channels, label gpu): C channels
// of one time (shared sources, stations, time smearing; own frequency, bandwidth, fluxes, Jones
// and outputs) predicted in one launch per kernel must give, bit for bit, what C separate run()
// calls give with the same source chunks. Checked in every mode (Full/Scalar x point/Gaussian x
// bandwidth x time smearing, float and double, crosses and autos), with one chunk and with many
// (the batched evaluator's scratch budget = C x the separate one's), on the GPU (skips without
// one) and through the host emulation of the kernels (runs everywhere). Also: the checks that
// reject channels that may not share a launch.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "fringe/core/array.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/predict/predict.h"
#include "fringe/predict/predict_cuda.h"
#include "predict_cuda_emulation.h"

namespace {

using fringe::Complex;
using fringe::Jones;
using namespace fringe::predict;

#define SKIP_WITHOUT_GPU()                                             \
  do {                                                                 \
    if (fringe::cuda_devices().empty()) GTEST_SKIP() << "no CUDA GPU"; \
  } while (0)

struct Mode {
  Polarisation pol;
  bool gauss, bw, time;
};

std::string mode_name(const Mode& m) {
  return std::string(m.pol == Polarisation::Full ? "Full" : "Scalar") +
         (m.gauss ? "Gaussian" : "Point") + (m.bw ? "Bw" : "") + (m.time ? "Time" : "");
}

// C channels of one time in precision T on the host: shared l, m, n, Gaussian, station u, v, w
// and x, y; per channel a frequency 150 MHz + 1.5 MHz c, a bandwidth 1 MHz (+ 0.1 MHz c),
// fluxes and Jones of their own (channel 1: no Jones, i.e. identity) and outputs holding random
// starting values (the predict adds into them).
template <typename T>
struct Channels {
  Mode mode;
  std::size_t ns, S, C;
  std::vector<double> l, m, n, u, v, w, x, y;
  std::vector<T> ga, gb, gc;
  std::vector<std::vector<T>> I, Q, U, V;
  std::vector<std::vector<Jones<T>>> jones;
  std::vector<std::vector<Complex<T>>> js;
  std::vector<std::vector<Complex<T>>> cross, autos;  // initial outputs
  std::vector<PredictInput<T>> in;

  Channels(Mode md, std::size_t stations, std::size_t sources, std::size_t channels, unsigned seed)
      : mode(md), ns(stations), S(sources), C(channels) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uni(-1, 1);
    for (std::size_t p = 0; p < ns; ++p) {
      u.push_back(35e3 * uni(rng));
      v.push_back(35e3 * uni(rng));
      w.push_back(1e3 * uni(rng));
      x.push_back(35e3 * uni(rng));
      y.push_back(35e3 * uni(rng));
    }
    for (std::size_t s = 0; s < S; ++s) {
      const double ll = 0.05 * uni(rng), mm = 0.05 * uni(rng);
      l.push_back(ll);
      m.push_back(mm);
      n.push_back(std::sqrt(1 - ll * ll - mm * mm));
      if (mode.gauss) {
        const bool point = s % 4 == 3;
        const double a = point ? 0 : 1e-8 * (1.5 + uni(rng)),
                     c = point ? 0 : 1e-8 * (1.5 + uni(rng));
        ga.push_back(static_cast<T>(a));
        gc.push_back(static_cast<T>(c));
        gb.push_back(static_cast<T>(0.5 * std::sqrt(a * c) * uni(rng)));
      }
    }
    const bool full = mode.pol == Polarisation::Full;
    const std::size_t np = num_pols(mode.pol);
    I.resize(C), Q.resize(C), U.resize(C), V.resize(C), jones.resize(C), js.resize(C);
    cross.resize(C), autos.resize(C);
    for (std::size_t c = 0; c < C; ++c) {
      for (std::size_t s = 0; s < S; ++s) {
        const double i = 1 + uni(rng);
        I[c].push_back(static_cast<T>(i));
        Q[c].push_back(static_cast<T>(0.3 * i * uni(rng)));
        U[c].push_back(static_cast<T>(0.3 * i * uni(rng)));
        V[c].push_back(static_cast<T>(0.1 * i * uni(rng)));
      }
      if (c != 1) {
        for (std::size_t k = 0; k < ns * S; ++k) {
          const auto z = [&](double re0) {
            return Complex<T>{static_cast<T>(re0 + 0.2 * uni(rng)), static_cast<T>(0.2 * uni(rng))};
          };
          if (full)
            jones[c].push_back({z(1), z(0), z(0), z(1)});
          else
            js[c].push_back(z(1));
        }
      }
      for (std::size_t k = 0; k < num_baselines(ns) * np; ++k)
        cross[c].push_back({static_cast<T>(uni(rng)), static_cast<T>(uni(rng))});
      for (std::size_t k = 0; k < ns * np; ++k)
        autos[c].push_back({static_cast<T>(uni(rng)), static_cast<T>(uni(rng))});
    }
    for (std::size_t c = 0; c < C; ++c) {
      PredictInput<T> p;
      p.polarisation = mode.pol;
      p.frequency_hz = 150e6 + 1.5e6 * double(c);
      p.channel_bandwidth_hz = mode.bw ? 1e6 + 0.1e6 * double(c) : 0.0;
      p.sources = {S,
                   I[c].data(),
                   full ? Q[c].data() : nullptr,
                   full ? U[c].data() : nullptr,
                   full ? V[c].data() : nullptr,
                   l.data(),
                   m.data(),
                   n.data(),
                   ga.empty() ? nullptr : ga.data(),
                   gb.empty() ? nullptr : gb.data(),
                   gc.empty() ? nullptr : gc.data()};
      p.stations = {ns,
                    u.data(),
                    v.data(),
                    w.data(),
                    jones[c].empty() ? nullptr : jones[c].data(),
                    js[c].empty() ? nullptr : js[c].data()};
      if (mode.time) p.time_smearing = {60.0, 1.1, 0.3, -0.5, x.data(), y.data()};
      in.push_back(p);
    }
  }
};

// Outputs (cross then autos of each channel) as raw bytes, for bit-for-bit comparison.
template <typename T>
using Result = std::vector<std::vector<Complex<T>>>;

template <typename T>
void expect_bitwise_equal(const Result<T>& got, const Result<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t k = 0; k < want.size(); ++k) {
    ASSERT_EQ(got[k].size(), want[k].size()) << what << " output " << k;
    std::size_t differ = 0;
    for (std::size_t e = 0; e < want[k].size(); ++e)
      differ += std::memcmp(&got[k][e], &want[k][e], sizeof(Complex<T>)) != 0;
    EXPECT_EQ(differ, 0u) << what << ": output " << k << " (channel " << k / 2 << ", "
                          << (k % 2 ? "autos" : "cross") << ") differs in " << differ << " of "
                          << want[k].size() << " values";
  }
}

// Emulated kernels: batched (one launch group) vs channel by channel.
template <typename T>
Result<T> emulated(const Channels<T>& ch, bool batched, std::size_t budget) {
  Result<T> r;
  std::vector<PredictOutput<T>> out;
  for (std::size_t c = 0; c < ch.C; ++c) {
    r.push_back(ch.cross[c]);
    r.push_back(ch.autos[c]);
  }
  for (std::size_t c = 0; c < ch.C; ++c) out.push_back({r[2 * c].data(), r[2 * c + 1].data()});
  if (batched) {
    fringe::predict::test::predict_channels_emulated<T>(ch.in, out, budget);
  } else {
    for (std::size_t c = 0; c < ch.C; ++c)
      fringe::predict::test::predict_direct_emulated<T>(ch.in[c], out[c], budget);
  }
  return r;
}

// The same on the GPU through PredictCuda on device arrays.
template <typename T>
Result<T> on_gpu(const Channels<T>& ch, bool batched, std::size_t budget) {
  using fringe::Array;
  const auto gpu = fringe::MemoryLocation::gpu(0);
  auto up = [&](const auto& vec) {
    using U = typename std::remove_cvref_t<decltype(vec)>::value_type;
    return vec.empty() ? Array<U>() : Array<U>::from_host(std::span<const U>(vec), gpu);
  };
  auto ptr = [](const auto& a) { return a.empty() ? nullptr : a.data(); };
  auto dl = up(ch.l), dm = up(ch.m), dn = up(ch.n), du = up(ch.u), dv = up(ch.v), dw = up(ch.w),
       dx = up(ch.x), dy = up(ch.y);
  auto dga = up(ch.ga), dgb = up(ch.gb), dgc = up(ch.gc);
  std::vector<Array<T>> fl;
  std::vector<Array<Jones<T>>> dj;
  std::vector<Array<Complex<T>>> djs, dout;
  std::vector<DevicePredictInput<T>> din(ch.C);
  std::vector<DevicePredictOutput<T>> dpo(ch.C);
  for (std::size_t c = 0; c < ch.C; ++c) {
    fl.push_back(up(ch.I[c]));
    fl.push_back(up(ch.Q[c]));
    fl.push_back(up(ch.U[c]));
    fl.push_back(up(ch.V[c]));
    dj.push_back(up(ch.jones[c]));
    djs.push_back(up(ch.js[c]));
    dout.push_back(up(ch.cross[c]));
    dout.push_back(up(ch.autos[c]));
  }
  for (std::size_t c = 0; c < ch.C; ++c) {
    static_cast<PredictInput<T>&>(din[c]) = ch.in[c];
    auto& s = din[c].sources;
    s.stokes_i = fl[4 * c].data();
    s.stokes_q = s.stokes_q ? fl[4 * c + 1].data() : nullptr;
    s.stokes_u = s.stokes_u ? fl[4 * c + 2].data() : nullptr;
    s.stokes_v = s.stokes_v ? fl[4 * c + 3].data() : nullptr;
    s.l = dl.data(), s.m = dm.data(), s.n = dn.data();
    s.gauss_a = ptr(dga), s.gauss_b = ptr(dgb), s.gauss_c = ptr(dgc);
    auto& st = din[c].stations;
    st.u = du.data(), st.v = dv.data(), st.w = dw.data();
    st.jones = ptr(dj[c]);
    st.jones_scalar = ptr(djs[c]);
    if (ch.mode.time) {
      din[c].time_smearing.station_x = dx.data();
      din[c].time_smearing.station_y = dy.data();
    }
    dpo[c].cross = dout[2 * c].data();
    dpo[c].autos = dout[2 * c + 1].data();
  }
  PredictCuda<T> eval(0);
  if (budget > 0) eval.set_max_scratch_bytes(budget);
  if (batched) {
    eval.run_channels(din, dpo, nullptr);
  } else {
    for (std::size_t c = 0; c < ch.C; ++c) eval.run(din[c], dpo[c], nullptr);
  }
  eval.synchronize();
  Result<T> r;
  for (const auto& a : dout) r.push_back(a.to_vector());
  return r;
}

const Mode kModes[] = {
    {Polarisation::Full, false, false, false},   {Polarisation::Full, false, false, true},
    {Polarisation::Full, false, true, false},    {Polarisation::Full, false, true, true},
    {Polarisation::Full, true, false, false},    {Polarisation::Full, true, false, true},
    {Polarisation::Full, true, true, false},     {Polarisation::Full, true, true, true},
    {Polarisation::Scalar, false, false, false}, {Polarisation::Scalar, false, false, true},
    {Polarisation::Scalar, false, true, false},  {Polarisation::Scalar, false, true, true},
    {Polarisation::Scalar, true, false, false},  {Polarisation::Scalar, true, false, true},
    {Polarisation::Scalar, true, true, false},   {Polarisation::Scalar, true, true, true},
};

class PredictChannels : public testing::TestWithParam<Mode> {};

// A per-channel scratch budget of one byte: one tile of 32 sources per chunk (several chunks).
constexpr std::size_t kTinyBudget = 1;

template <typename T>
void check_mode(const Mode& mode, bool gpu) {
  constexpr std::size_t kC = 3;
  // The emulation runs one std::thread per CUDA thread: a small problem there (two chunks of a
  // tiny budget: a full tile of 32 sources and a partial one).
  const Channels<T> ch(mode, gpu ? 40 : 6, gpu ? 333 : 40, kC, 41);
  const std::string name =
      mode_name(mode) + (sizeof(T) == sizeof(float) ? "_float" : "_double") + (gpu ? "" : "_emu");
  // One chunk in both (default budget), then many chunks (separate: budget B, batched: C B).
  for (const std::size_t sep_budget : {std::size_t(0), kTinyBudget}) {
    const std::size_t batch_budget = sep_budget == 0 ? 0 : kC * sep_budget;
    const Result<T> want = gpu ? on_gpu(ch, false, sep_budget) : emulated(ch, false, sep_budget);
    const Result<T> got = gpu ? on_gpu(ch, true, batch_budget) : emulated(ch, true, batch_budget);
    expect_bitwise_equal<T>(got, want, name + "_budget" + std::to_string(sep_budget));
    // The predict changed every output, and the channels differ (no channel read another's).
    for (std::size_t c = 0; c < kC; ++c) {
      EXPECT_NE(std::memcmp(got[2 * c].data(), ch.cross[c].data(),
                            got[2 * c].size() * sizeof(Complex<T>)),
                0)
          << name << " channel " << c;
      if (c > 0)
        EXPECT_NE(std::memcmp(got[2 * c].data(), got[0].data(), got[0].size() * sizeof(Complex<T>)),
                  0);
    }
  }
}

TEST_P(PredictChannels, BatchedEqualsSeparateRunsOnGpu) {
  SKIP_WITHOUT_GPU();
  check_mode<double>(GetParam(), true);
  check_mode<float>(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(AllModes, PredictChannels, testing::ValuesIn(kModes),
                         [](const testing::TestParamInfo<Mode>& i) { return mode_name(i.param); });

// The emulation (slow: threads) in the modes whose per-channel terms differ most: everything
// on (Full and Scalar, double: station_args; float: per-baseline constants) and plain points.
TEST(PredictChannelsEmulation, BatchedEqualsSeparateRuns) {
  check_mode<double>({Polarisation::Full, true, true, true}, false);
  check_mode<float>({Polarisation::Full, true, true, true}, false);
  check_mode<double>({Polarisation::Scalar, true, true, true}, false);
  check_mode<float>({Polarisation::Scalar, false, false, false}, false);
}

// More channels than one launch holds (32): groups of 32 and a remainder, each channel as
// separately run with the group's per-channel budget.
TEST(PredictChannelsEmulation, MoreChannelsThanOneLaunch) {
  const Channels<float> ch({Polarisation::Scalar, false, true, false}, 3, 20, 35, 43);
  const Result<float> want = emulated(ch, false, PredictCuda<float>::kDefaultMaxScratchBytes / 32);
  const Result<float> got = emulated(ch, true, 0);
  expect_bitwise_equal<float>(got, want, "35_channels");
}

TEST(PredictChannelsGpu, ChunkSourcesOfABatch) {
  SKIP_WITHOUT_GPU();
  const Channels<double> ch({Polarisation::Full, true, true, true}, 40, 333, 1, 5);
  PredictCuda<double> eval(0);
  eval.set_max_scratch_bytes(std::size_t(1) << 20);
  PredictCuda<double> one(0);
  one.set_max_scratch_bytes((std::size_t(1) << 20) / 4);
  EXPECT_EQ(eval.chunk_sources(ch.in[0], 4), one.chunk_sources(ch.in[0]));
  EXPECT_LT(eval.chunk_sources(ch.in[0], 4), eval.chunk_sources(ch.in[0]));
}

// ------------------------------------------------------------------ what may share a launch

template <class F>
void expect_rejected(F change, const std::string& what) {
  Channels<double> ch({Polarisation::Full, true, true, true}, 4, 8, 2, 3);
  std::vector<double> other(8, 0.0);
  std::vector<Complex<double>> out0(num_baselines(4) * 4), out1(out0.size());
  PredictOutput<double> o0{out0.data(), nullptr}, o1{out1.data(), nullptr};
  EXPECT_NO_THROW(check_batch_channel<double>(ch.in[0], o0, ch.in[1], o1, 1));
  change(ch.in[1], o1, other);
  try {
    check_batch_channel<double>(ch.in[0], o0, ch.in[1], o1, 1);
    ADD_FAILURE() << what << ": accepted";
  } catch (const fringe::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("channel 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(PredictChannelsCheck, RejectsChannelsThatDifferInSharedFields) {
  using In = PredictInput<double>;
  using Out = PredictOutput<double>;
  using V = std::vector<double>;
  expect_rejected([](In& in, Out&, V& o) { in.sources.l = o.data(); }, "source l, m, n");
  expect_rejected([](In& in, Out&, V&) { in.sources.count = 7; }, "source count");
  expect_rejected([](In& in, Out&, V&) { in.sources.gauss_b = nullptr; }, "Gaussian");
  expect_rejected([](In& in, Out&, V&) { in.stations.count = 3; }, "station count");
  expect_rejected([](In& in, Out&, V& o) { in.stations.w = o.data(); }, "station u, v, w");
  expect_rejected([](In& in, Out&, V&) { in.time_smearing.gast += 1e-9; }, "time smearing");
  expect_rejected([](In& in, Out&, V& o) { in.time_smearing.station_y = o.data(); },
                  "station x, y");
  expect_rejected([](In& in, Out&, V&) { in.uv_filter.min = 1.0; }, "uv filter");
  expect_rejected([](In& in, Out&, V&) { in.channel_bandwidth_hz = 0; }, "bandwidth smearing");
  expect_rejected([](In& in, Out&, V&) { in.polarisation = Polarisation::Scalar; }, "polarisation");
  expect_rejected([](In&, Out& out, V&) { out.cross = nullptr; }, "cross output");
}

TEST(PredictChannelsCheck, EmulatedBatchRejectsMismatchedChannels) {
  Channels<double> ch({Polarisation::Scalar, false, false, false}, 4, 8, 2, 3);
  std::vector<double> other(8, 0.0);
  ch.in[1].sources.m = other.data();
  std::vector<Complex<double>> c0(num_baselines(4)), c1(c0.size());
  const std::vector<PredictOutput<double>> out{{c0.data(), nullptr}, {c1.data(), nullptr}};
  EXPECT_THROW(fringe::predict::test::predict_channels_emulated<double>(ch.in, out), fringe::Error);
}

}  // namespace
