#include "fringe/imager/idg_run.h"

#include <algorithm>
#include <vector>

#include "fringe/core/device.h"
#ifdef FRINGE_HAVE_CUDA
#include "fringe/imager/idg_cuda.h"
#endif

namespace fringe::imager {

template <typename T>
std::unique_ptr<IdgBackend<T>> make_idg_backend(const ImagerConfig& cfg, Logger* log) {
  const std::vector<int> gpus = choose_gpus(cfg.devices, 1, "imager", log);
#ifdef FRINGE_HAVE_CUDA
  if (!gpus.empty()) return make_cuda_backend<T>(gpus.front());
#endif
  return make_cpu_backend<T>(cfg.num_threads);
}

PlanOptions plan_options(const ImagerConfig& cfg) {
  PlanOptions opt;
  opt.max_times_per_subgrid = cfg.idg.max_times_per_subgrid;
  opt.max_channels_per_group =
      cfg.idg.channel_group_size > 0 ? std::min(cfg.idg.channel_group_size, 128) : 128;
  opt.aterm_interval_s = cfg.idg.aterm_interval_s;
  return opt;
}

template std::unique_ptr<IdgBackend<float>> make_idg_backend<float>(const ImagerConfig&, Logger*);
template std::unique_ptr<IdgBackend<double>> make_idg_backend<double>(const ImagerConfig&, Logger*);

}  // namespace fringe::imager
