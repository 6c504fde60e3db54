// CUDA kernels of the aperture-array station beam (aperture_array_cuda.h; design and measured
// rates in docs/gpu_station_beam.md).
//
// One block = one station x (128 threads x S sources); each thread owns S sources (strided by
// the block size, so loads and stores stay coalesced). The array factor
//   AF_f(s) = sum_k w_kf exp(+i k0 r_kf . s)                      (aperture_array_math.h)
// is evaluated as the identical sum
//   AF_f(s) = sum_k w'_kf exp(+i k0 r_kf . (s - b)),   w'_kf = w_kf exp(+i k0 r_kf . b)
// with b the station's beam direction: set_plans uploads positions and weights in double and a
// prepare kernel folds exp(+i k0 r . b) into the weights (in double), so the per-element phase
// stays small near the beam, which keeps single precision accurate. Element records (scaled
// positions, weights) are staged through shared memory in tiles of kTile elements and read as
// broadcasts; one sincos serves both feeds when their positions are equal, and one accumulation
// when their weights are equal too (AF_y = AF_x). Float: the phase in turns is reduced exactly
// to [-1/2, 1/2] and fed to the hardware __sincosf; double: sincospi on the phase in half-turns
// (no Cody-Waite step). Geometry (hour angle, ENU direction, parallactic rotation) is per
// (station, source) and done in double; the element pattern in T. Uploads go through
// page-locked staging buffers kept by the evaluator.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/array.h"
#include "fringe/core/cuda_check.h"
#include "fringe/core/cuda_device_guard.h"
#include "fringe/core/error.h"
#include "fringe/jones/aperture_array.h"
#include "fringe/jones/aperture_array_cuda.h"
#include "fringe/jones/aperture_array_cuda_kernels.cuh"

namespace fringe::jones {
namespace {

using namespace aa_cuda;

using DeviceGuard = CudaDeviceGuard;

template <typename T>
ElementParams<T> element_cast(const ElementParams<double>& e) {
  ElementParams<T> r;
  r.kind = e.kind;
  r.taper = e.taper;
  r.kl = static_cast<T>(e.kl);
  r.cos_kl = static_cast<T>(e.cos_kl);
  r.dipole_norm = static_cast<T>(e.dipole_norm);
  r.taper_param = static_cast<T>(e.taper_param);
  r.alpha_x = static_cast<T>(e.alpha_x);
  r.alpha_y = static_cast<T>(e.alpha_y);
  r.swap_xy = e.swap_xy;
  r.sw = nullptr;  // on the device through StationDev::sw_offset
  r.sw_l_max = e.sw_l_max;
  r.sw_common_phi = e.sw_common_phi;
  r.sw_galileo = e.sw_galileo;
  r.sw_feko = e.sw_feko;
  r.sw_norm = static_cast<T>(e.sw_norm);
  return r;
}

// The plans as flat arrays (raw positions in m and unrotated weights, in double).
// Page-locked host staging of one upload (fast asynchronous copies), reused across calls.
template <typename U>
struct Staging {
  Array<U> host;
  std::size_t size = 0;
  void reset(std::size_t capacity) {
    if (host.size() < capacity)
      host = Array<U>(capacity + capacity / 4, MemoryLocation::pinned_host());
    size = 0;
  }
  void push(const U& v) { host[size++] = v; }
};

// The plans as flat arrays: raw positions (m) and unrotated weights, in double.
template <typename T>
struct Packed {
  Staging<StationDev<T>> stations;
  Staging<LevelDev> levels;
  Staging<Vec4<double>> pos, pos_y, weight;
  Staging<Complex<T>> sw;  // spherical-wave coefficients, each distinct set once
  Staging<GroupDev<T>> groups;
  Variant variant = Variant::kUniform;  // the kernel variant the stations need
};

std::string station_name(const AaStationPlan& plan) {
  return "aa_station_jones_cuda: station " + std::to_string(plan.station);
}

int checked_int(std::size_t v) {
  if (v > 0x7fffffffu) throw Error("aa_station_jones_cuda: more than 2^31 elements in all");
  return static_cast<int>(v);
}

const AaFeed* feed_y(const AaLevel& level) { return level.feed[1] ? level.feed[1] : level.feed[0]; }

// Checks every plan and counts what the staging buffers must hold.
struct Counts {
  std::size_t levels = 0, pos = 0, pos_y = 0, groups = 0;
};

void count_level(const AaStationPlan& plan, const AaLevel& level, Counts& c) {
  const AaFeed* fx = level.feed[0];
  if (!fx) throw Error(station_name(plan) + ": a level of the plan has no elements");
  const std::size_t n = fx->x_true.size();
  const auto sized = [n](const AaFeed* f) {
    return f->x_true.size() == n && f->y_true.size() == n && f->z_true.size() == n;
  };
  if (!sized(fx) || !sized(feed_y(level)) || level.weight[0].size() != n ||
      level.weight[1].size() != n)
    throw Error(station_name(plan) + ": element positions and weights differ in number");
  ++c.levels;
  c.pos += n;
  if (!level.same_positions) c.pos_y += n;
}
Counts count_plans(std::span<const AaStationPlan> plans) {
  Counts c;
  for (const AaStationPlan& plan : plans) {
    if (!plan.uniform) {
      throw Error(station_name(plan) +
                  " is not uniform (distinct tiles, per-tile pointing or tiles with "
                  "time-variable errors): the GPU back end evaluates uniform and grouped "
                  "stations only; use the CPU path (aa_beam_enu)");
    }
    for (const AaLevel& level : plan.levels) count_level(plan, level, c);
    for (const AaGroupPlan& g : plan.groups) count_level(plan, g.level, c);
    c.groups += plan.groups.size();
  }
  checked_int(c.pos);
  return c;
}

template <typename T>
void pack_level(const AaLevel& level, Packed<T>& pk) {
  const AaFeed* fx = level.feed[0];
  const AaFeed* fy = feed_y(level);
  const std::size_t n = fx->x_true.size();
  const bool same = level.same_positions;
  LevelDev lv{checked_int(pk.pos.size), checked_int(n), same ? -1 : checked_int(pk.pos_y.size), 0,
              same ? 1 : 0};
  for (std::size_t k = 0; k < n; ++k) {
    const double z = fx->z_true[k], zy = fy->z_true[k];
    if (z != 0.0 || (!same && zy != 0.0)) lv.has_z = 1;
    pk.pos.push({fx->x_true[k], fx->y_true[k], z, 0.0});
    if (!same) pk.pos_y.push({fy->x_true[k], fy->y_true[k], zy, 0.0});
    const Complex<double> wx = level.weight[0][k], wy = level.weight[1][k];
    if (wx != wy) lv.same_feeds = 0;
    pk.weight.push({wx.re, wx.im, wy.re, wy.im});
  }
  pk.levels.push(lv);
}

// Whether a grouped station's groups can share one spherical-wave pass in the kernels
// (StationDev::sw_merged): 2 .. kMaxMergedGroups groups, all aa_sw_mergeable with the first.
bool mergeable_groups(const AaStationPlan& plan) {
  const std::size_t n = plan.groups.size();
  if (n < 2 || n > static_cast<std::size_t>(kMaxMergedGroups)) return false;
  for (const AaGroupPlan& g : plan.groups)
    if (!aa_sw_mergeable(plan.groups[0].element, g.element)) return false;
  return true;
}

template <typename T>
void pack_plans(std::span<const AaStationPlan> plans, Packed<T>& pk) {
  const Counts c = count_plans(plans);
  pk.stations.reset(plans.size());
  pk.levels.reset(c.levels);
  pk.pos.reset(c.pos);
  pk.pos_y.reset(c.pos_y);
  pk.weight.reset(c.pos);
  pk.groups.reset(c.groups);
  pk.variant = c.groups > 0 ? Variant::kMerged : Variant::kUniform;  // kGrouped: see below
  // Spherical-wave coefficient sets (of stations and groups): stations of one model share
  // theirs. Pointer -> (offset, l_max, plain); plain sets are stored pre-normalised
  // (sw_prenormalise), as aa_element_jones_gpu and merged_groups evaluate them.
  struct SwSet {
    int offset, l_max;
    bool plain;
  };
  std::map<const Complex<double>*, SwSet> sw_offsets;
  std::size_t sw_count = 0;
  const auto note = [&](const ElementParams<double>& e) {
    if (e.sw && sw_offsets.emplace(e.sw, SwSet{0, e.sw_l_max, aa_sw_plain(e)}).second)
      sw_count += 4 * std::size_t((e.sw_l_max + 1) * (e.sw_l_max + 1) - 1);
  };
  for (const AaStationPlan& plan : plans) {
    note(plan.element);
    for (const AaGroupPlan& g : plan.groups) note(g.element);
  }
  pk.sw.reset(sw_count);
  std::vector<Complex<T>> scaled;
  for (auto& [ptr, set] : sw_offsets) {
    set.offset = checked_int(pk.sw.size);
    const std::size_t n = 4 * std::size_t((set.l_max + 1) * (set.l_max + 1) - 1);
    if (set.plain) {
      scaled.resize(n);
      sw_prenormalise(ptr, set.l_max, scaled.data());
      for (std::size_t i = 0; i < n; ++i) pk.sw.push(scaled[i]);
    } else {
      for (std::size_t i = 0; i < n; ++i)
        pk.sw.push({static_cast<T>(ptr[i].re), static_cast<T>(ptr[i].im)});
    }
  }
  const auto sw_offset = [&](const ElementParams<double>& e) {
    return e.sw ? sw_offsets.at(e.sw).offset : -1;
  };
  for (const AaStationPlan& plan : plans) {
    StationDev<T> st{};
    st.lst = plan.lst;
    st.sin_lat = plan.sin_lat;
    st.cos_lat = plan.cos_lat;
    st.beam_e = plan.beam_enu.x;
    st.beam_n = plan.beam_enu.y;
    st.beam_u = plan.beam_enu.z;
    st.k0 = plan.k0;
    st.element = element_cast<T>(plan.element);
    st.norm = static_cast<T>(plan.norm);
    st.norm_scalar = static_cast<T>(plan.norm_scalar);
    st.sw_offset = sw_offset(plan.element);
    st.level_begin = checked_int(pk.levels.size);
    st.num_levels = checked_int(plan.levels.size());
    st.group_begin = checked_int(pk.groups.size);
    st.num_groups = checked_int(plan.groups.size());
    st.beam_off = plan.beam_off ? 1 : 0;
    st.sw_merged = mergeable_groups(plan) ? 1 : 0;
    if (!plan.groups.empty() && !st.sw_merged) pk.variant = Variant::kGrouped;
    for (const AaLevel& level : plan.levels) pack_level(level, pk);
    for (const AaGroupPlan& g : plan.groups) {  // group levels follow the station's levels
      pack_level(g.level, pk);
      pk.groups.push(GroupDev<T>{element_cast<T>(g.element), sw_offset(g.element)});
    }
    pk.stations.push(st);
  }
}

// "aa_beam_kernel<float, full, 2, grouped>": the name in launch error messages.
template <typename T>
std::string kernel_name(Mode m, int s, Variant v) {
  static const char* modes[3] = {"full", "full_no_rotation", "scalar"};
  static const char* variants[3] = {"", ", grouped", ", merged"};
  return std::string("aa_beam_kernel<") + (sizeof(T) == sizeof(double) ? "double" : "float") +
         ", " + modes[static_cast<int>(m)] + ", " + std::to_string(s) +
         variants[static_cast<int>(v)] + ">";
}

template <typename T, Mode M, int S, Variant G>
void launch(const KernelArgs<T>& args, std::size_t num_stations, cudaStream_t stream) {
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * S;
  const std::size_t blocks = (args.num_sources + per_block - 1) / per_block;
  if (blocks > 0x7fffffffu) throw Error("aa_station_jones_cuda: too many sources in one chunk");
  constexpr std::size_t kMaxY = 65535;  // grid y limit
  for (std::size_t p0 = 0; p0 < num_stations; p0 += kMaxY) {
    const dim3 grid(static_cast<unsigned>(blocks),
                    static_cast<unsigned>(std::min(kMaxY, num_stations - p0)));
    aa_beam_kernel<T, M, S, G><<<grid, kThreads, 0, stream>>>(args, p0);
    FRINGE_CUDA_CHECK_KERNEL(kernel_name<T>(M, S, G).c_str());
  }
}

template <typename T, Mode M, Variant V>
void launch_variant(const KernelArgs<T>& args, std::size_t num_stations, int per_thread,
                    cudaStream_t stream) {
  if (per_thread == 1)
    launch<T, M, 1, V>(args, num_stations, stream);
  else if (per_thread == 4)
    launch<T, M, 4, V>(args, num_stations, stream);
  else
    launch<T, M, 2, V>(args, num_stations, stream);
}

// The kernel variant of the station set: kUniform without grouped stations, kMerged when every
// grouped station is merged (polarised modes), else kGrouped.
template <typename T, Mode M>
void launch_mode(const KernelArgs<T>& args, std::size_t num_stations, int per_thread,
                 Variant variant, cudaStream_t stream) {
  if (variant == Variant::kMerged && M != Mode::Scalar)
    launch_variant<T, M, Variant::kMerged>(args, num_stations, per_thread, stream);
  else if (variant != Variant::kUniform)
    launch_variant<T, M, Variant::kGrouped>(args, num_stations, per_thread, stream);
  else
    launch_variant<T, M, Variant::kUniform>(args, num_stations, per_thread, stream);
}

}  // namespace

template <typename T>
struct AaBeamCuda<T>::Impl {
  int device = 0;
  cudaStream_t stream = nullptr;
  int per_thread = 0;  // sources per thread; 0: the default (effective_per_thread)
  std::size_t num_stations = 0;
  Array<StationDev<T>> stations;
  Array<LevelDev> levels;
  Array<Vec4<double>> raw_pos, raw_pos_y, raw_weight;  // as uploaded
  Array<Vec4<T>> pos, pos_y, weight;                   // as the beam kernels read them
  Array<Complex<T>> sw;                                // spherical-wave coefficients
  Array<GroupDev<T>> groups;                           // element patterns of groups
  Variant variant = Variant::kUniform;                 // of the stations (launch_mode)
  Packed<T> staging;                                   // host side of the uploads

  // The default sources per thread (set_sources_per_thread in aperture_array_cuda.h).
  int effective_per_thread() const {
    if (per_thread != 0) return per_thread;
    if (sizeof(T) == sizeof(double)) return 2;
    return variant == Variant::kUniform ? 4 : 2;
  }

  explicit Impl(int d) : device(d) {
    DeviceGuard guard(device);
    FRINGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }
  ~Impl() {
    if (stream) {
      DeviceGuard guard(device);
      cudaStreamSynchronize(stream);  // copies in flight read the staging buffers
      cudaStreamDestroy(stream);
    }
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  template <typename U>
  void reserve(Array<U>& a, std::size_t n) {
    if (a.size() < std::max<std::size_t>(n, 1))
      a = Array<U>(std::max<std::size_t>(n, 1), MemoryLocation::gpu(device));
  }
  template <typename U>
  void upload(Array<U>& dst, const Staging<U>& src) {
    reserve(dst, src.size);
    if (src.size > 0)
      FRINGE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.host.data(), src.size * sizeof(U),
                                        cudaMemcpyHostToDevice, stream));
  }

  KernelArgs<T> args(const AaDeviceSources& src, void* out) const {
    return {stations.data(), levels.data(), pos.data(), pos_y.data(), weight.data(), src.ra,
            src.sin_dec,     src.cos_dec,   src.size,   out,          sw.data(),     groups.data()};
  }
};

template <typename T>
AaBeamCuda<T>::AaBeamCuda(int device) : impl_(std::make_unique<Impl>(device)) {}
template <typename T>
AaBeamCuda<T>::~AaBeamCuda() = default;
template <typename T>
AaBeamCuda<T>::AaBeamCuda(AaBeamCuda&&) noexcept = default;
template <typename T>
AaBeamCuda<T>& AaBeamCuda<T>::operator=(AaBeamCuda&&) noexcept = default;

template <typename T>
void AaBeamCuda<T>::set_plans(std::span<const AaStationPlan> plans) {
  Impl& m = *impl_;
  DeviceGuard guard(m.device);
  // Work in flight reads the staging buffers (copies) and the device arrays (kernels).
  FRINGE_CUDA_CHECK_KERNEL_SYNC("aa_beam_kernel", m.stream);
  m.num_stations = 0;
  Packed<T>& pk = m.staging;
  pack_plans(plans, pk);
  m.upload(m.stations, pk.stations);
  m.upload(m.levels, pk.levels);
  m.upload(m.raw_pos, pk.pos);
  m.upload(m.raw_pos_y, pk.pos_y);
  m.upload(m.raw_weight, pk.weight);
  m.upload(m.sw, pk.sw);
  m.upload(m.groups, pk.groups);
  m.reserve(m.pos, pk.pos.size);
  m.reserve(m.pos_y, pk.pos_y.size);
  m.reserve(m.weight, pk.weight.size);
  if (pk.stations.size > 0) {
    if (pk.stations.size > 0x7fffffffu) throw Error("aa_station_jones_cuda: too many stations");
    const PrepareArgs<T> args{m.stations.data(),  m.levels.data(),     m.raw_pos.data(),
                              m.raw_pos_y.data(), m.raw_weight.data(), m.pos.data(),
                              m.pos_y.data(),     m.weight.data()};
    aa_prepare_kernel<T><<<static_cast<unsigned>(pk.stations.size), kThreads, 0, m.stream>>>(args);
    FRINGE_CUDA_CHECK_KERNEL(sizeof(T) == sizeof(float) ? "aa_prepare_kernel<float>"
                                                        : "aa_prepare_kernel<double>");
  }
  m.variant = pk.variant;
  m.num_stations = plans.size();
}

template <typename T>
std::size_t AaBeamCuda<T>::num_stations() const {
  return impl_->num_stations;
}

template <typename T>
void AaBeamCuda<T>::evaluate_full(const AaDeviceSources& sources, bool parallactic, Jones<T>* out) {
  if (impl_->num_stations == 0 || sources.size == 0) return;
  DeviceGuard guard(impl_->device);
  const KernelArgs<T> args = impl_->args(sources, out);
  const Impl& m = *impl_;
  if (parallactic)
    launch_mode<T, Mode::Full>(args, m.num_stations, m.effective_per_thread(), m.variant, m.stream);
  else
    launch_mode<T, Mode::FullNoRotation>(args, m.num_stations, m.effective_per_thread(), m.variant,
                                         m.stream);
}

template <typename T>
void AaBeamCuda<T>::evaluate_scalar(const AaDeviceSources& sources, Complex<T>* out) {
  if (impl_->num_stations == 0 || sources.size == 0) return;
  DeviceGuard guard(impl_->device);
  launch_mode<T, Mode::Scalar>(impl_->args(sources, out), impl_->num_stations,
                               impl_->effective_per_thread(), impl_->variant, impl_->stream);
}

template <typename T>
void AaBeamCuda<T>::synchronize() {
  DeviceGuard guard(impl_->device);
  FRINGE_CUDA_CHECK_KERNEL_SYNC("aa_beam_kernel", impl_->stream);
}

template <typename T>
void AaBeamCuda<T>::set_sources_per_thread(int n) {
  if (n != 1 && n != 2 && n != 4)
    throw Error("AaBeamCuda: sources per thread must be 1, 2 or 4, not " + std::to_string(n));
  impl_->per_thread = n;
}

template <typename T>
int AaBeamCuda<T>::device() const {
  return impl_->device;
}

template <typename T>
void* AaBeamCuda<T>::cuda_stream() const {
  return impl_->stream;
}

namespace {

// RA and sin/cos Dec of host sources, on a GPU.
struct DeviceSourceArrays {
  Array<double> ra, sin_dec, cos_dec;
  DeviceSourceArrays(std::span<const double> r, std::span<const double> d, int device) {
    std::vector<double> sd(d.size()), cd(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) {
      sd[i] = std::sin(d[i]);
      cd[i] = std::cos(d[i]);
    }
    const MemoryLocation gpu = MemoryLocation::gpu(device);
    ra = Array<double>::from_host(r, gpu);
    sin_dec = Array<double>::from_host(sd, gpu);
    cos_dec = Array<double>::from_host(cd, gpu);
  }
  AaDeviceSources view() const { return {ra.data(), sin_dec.data(), cos_dec.data(), ra.size()}; }
};

void check_sizes(std::size_t stations, std::size_t ra, std::size_t dec, std::size_t out) {
  if (ra != dec || out != stations * ra) {
    throw Error("aa_station_jones_cuda: " + std::to_string(ra) + " RA and " + std::to_string(dec) +
                " Dec values for an output of " + std::to_string(out) +
                " (expected stations x sources = " + std::to_string(stations) + " x " +
                std::to_string(ra) + ")");
  }
}

}  // namespace

template <typename T>
void aa_station_jones_cuda(std::span<const AaStationPlan> plans, std::span<const double> ra,
                           std::span<const double> dec, bool parallactic, std::span<Jones<T>> out,
                           int device) {
  check_sizes(plans.size(), ra.size(), dec.size(), out.size());
  if (out.empty()) return;
  AaBeamCuda<T> beam(device);
  beam.set_plans(plans);
  const DeviceSourceArrays src(ra, dec, device);
  Array<Jones<T>> d_out(out.size(), MemoryLocation::gpu(device));
  beam.evaluate_full(src.view(), parallactic, d_out.data());
  beam.synchronize();
  copy_bytes(out.data(), MemoryLocation::host(), d_out.data(), d_out.location(), d_out.bytes());
}

template <typename T>
void aa_station_scalar_cuda(std::span<const AaStationPlan> plans, std::span<const double> ra,
                            std::span<const double> dec, std::span<Complex<T>> out, int device) {
  check_sizes(plans.size(), ra.size(), dec.size(), out.size());
  if (out.empty()) return;
  AaBeamCuda<T> beam(device);
  beam.set_plans(plans);
  const DeviceSourceArrays src(ra, dec, device);
  Array<Complex<T>> d_out(out.size(), MemoryLocation::gpu(device));
  beam.evaluate_scalar(src.view(), d_out.data());
  beam.synchronize();
  copy_bytes(out.data(), MemoryLocation::host(), d_out.data(), d_out.location(), d_out.bytes());
}

template class AaBeamCuda<float>;
template class AaBeamCuda<double>;
template void aa_station_jones_cuda<float>(std::span<const AaStationPlan>, std::span<const double>,
                                           std::span<const double>, bool, std::span<Jones<float>>,
                                           int);
template void aa_station_jones_cuda<double>(std::span<const AaStationPlan>, std::span<const double>,
                                            std::span<const double>, bool, std::span<Jones<double>>,
                                            int);
template void aa_station_scalar_cuda<float>(std::span<const AaStationPlan>, std::span<const double>,
                                            std::span<const double>, std::span<Complex<float>>,
                                            int);
template void aa_station_scalar_cuda<double>(std::span<const AaStationPlan>,
                                             std::span<const double>, std::span<const double>,
                                             std::span<Complex<double>>, int);

}  // namespace fringe::jones
