// OSKAR's station gain model applied to a block (station_gain_model.h).
#include "fringe/sim/station_gain_model.h"

#include <atomic>
#include <string>
#include <vector>

#include "fringe/sim/station_gains_apply.h"

namespace fringe::sim {

template <typename T>
void apply_station_gain_model(vis::VisBlock<T>& block, const telescope::GainModel& gains,
                              Logger* logger) {
  const int last = block.start_time_index + block.num_times() - 1;
  if (gains.num_times > 1 && last >= int(gains.num_times)) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      log_warning(logger, gains.path + ": the gain table has " + std::to_string(gains.num_times) +
                              " times but the observation has more; its last time is used for "
                              "the rest (as OSKAR 2.13 does)");
  }
  std::vector<std::size_t> chan(std::size_t(block.num_channels()));
  for (int c = 0; c < block.num_channels(); ++c)
    chan[std::size_t(c)] = gains.channel_of(block.frequency_hz(c));
  apply_diagonal_station_gains(block, [&](int t, int c, int p, int pol) {
    const std::size_t ti = gains.time_of(block.start_time_index + t);
    const std::complex<double> g = gains.gain(ti, chan[std::size_t(c)], std::size_t(p), pol);
    return Complex<double>{g.real(), g.imag()};
  });
}

template void apply_station_gain_model(vis::VisBlock<float>&, const telescope::GainModel&, Logger*);
template void apply_station_gain_model(vis::VisBlock<double>&, const telescope::GainModel&,
                                       Logger*);

}  // namespace fringe::sim
