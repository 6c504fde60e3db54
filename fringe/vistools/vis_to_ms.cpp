#include "fringe/vistools/vis_to_ms.h"

#include <cmath>
#include <memory>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/io/ms/ms_writer.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/vistools/inputs.h"
#include "fringe/vistools/ms_copy.h"

namespace fringe::vistools {
namespace {

// Why file b cannot follow file a (whose dumps end at end_mjd) in one MS, or "".
std::string continuation_problem(const io::VisFileHeader& a, const io::VisFileHeader& b,
                                 double end_mjd) {
  if (b.num_stations != a.num_stations) return "it has another station count";
  if (b.pol_mode != a.pol_mode) return "it has another polarisation mode";
  if (b.write_autocorrelations != a.write_autocorrelations ||
      b.write_crosscorrelations != a.write_crosscorrelations)
    return "it holds other correlation products";
  if (b.num_channels_total != a.num_channels_total) return "it has another channel count";
  // OSKAR's limits (oskar_vis_block_write_ms): 1e-10 Hz, 1e-10 rad.
  if (std::fabs(b.freq_start_hz - a.freq_start_hz) > 1e-10 ||
      std::fabs(b.freq_inc_hz - a.freq_inc_hz) > 1e-10)
    return "its channel frequencies differ";
  if (b.phase_centre_type != a.phase_centre_type ||
      std::fabs(b.phase_centre_deg[0] - a.phase_centre_deg[0]) * kDegToRad > 1e-10 ||
      std::fabs(b.phase_centre_deg[1] - a.phase_centre_deg[1]) * kDegToRad > 1e-10)
    return "its phase centre differs";
  if (b.time_inc_sec != a.time_inc_sec) return "its time increment differs";
  // 1 ms, the MS writer's tolerance on dump times.
  if (std::fabs(b.time_start_mjd_utc - end_mjd) * kSecondsPerDay > 1e-3) {
    return "it starts at MJD " + std::to_string(b.time_start_mjd_utc) +
           ", not where the previous file ends (MJD " + std::to_string(end_mjd) +
           "): several files are stitched one after the other in time";
  }
  return "";
}

template <typename T>
void write_blocks(const io::VisFileReader& reader, int time_offset, io::MsWriter& writer) {
  for (int b = 0; b < reader.num_blocks(); ++b) {
    interrupt::throw_if_requested();
    vis::VisBlock<T> block = reader.read_block<T>(b);
    block.start_time_index += time_offset;
    as_run_failure([&] { writer.append_block(block); });
  }
}

}  // namespace

VisToMsResult vis_to_ms(const VisToMsConfig& config, Logger* log) {
  if (config.inputs.empty()) throw Error("no input .vis files");
  // Every input is read (header and chunk index, CRC of the header) before any output.
  std::vector<std::unique_ptr<io::VisFileReader>> readers;
  for (const auto& path : config.inputs) {
    if (data_set_kind(path) != DataSetKind::VisFile) {
      throw Error::in_file(path, 0, "is a Measurement Set; vis_to_ms reads OSKAR .vis files");
    }
    readers.push_back(std::make_unique<io::VisFileReader>(path));
  }
  const io::VisFileHeader& first = readers.front()->header();
  vis::VisMeta meta = io::vis_meta_from_header(first);
  meta.force_polarised = config.force_polarised;
  // OSKAR's vis_to_ms names the telescope after the writing program; fringe's simulator writes
  // the same name ("OSKAR 2.13.0-dev", vis/vis_meta.h) into its Measurement Sets.
  meta.telescope_name = vis::VisMeta{}.telescope_name;
  // OSKAR writes 1 m for a station whose header diameter is not positive (or absent).
  if (!(meta.dish_diameter_m > 0)) meta.dish_diameter_m = 1.0;
  std::vector<int> offsets{0};
  for (std::size_t i = 1; i < readers.size(); ++i) {
    const io::VisFileHeader& h = readers[i]->header();
    const double end_mjd =
        first.time_start_mjd_utc + meta.num_times * first.time_inc_sec / kSecondsPerDay;
    const std::string why = continuation_problem(first, h, end_mjd);
    if (!why.empty()) {
      throw Error::in_file(config.inputs[i], 0,
                           "cannot be appended to '" + config.inputs.front() + "': " + why);
    }
    offsets.push_back(meta.num_times);
    meta.num_times += h.num_times_total;
  }
  const std::string final_path = io::ms_output_path(config.output);
  check_outputs({ms_target(final_path)}, config.inputs);

  std::unique_ptr<io::MsWriter> writer;
  as_run_failure([&] { writer = std::make_unique<io::MsWriter>(config.output, meta, log); });
  for (std::size_t i = 0; i < readers.size(); ++i) {
    if (first.precision == Precision::Double) {
      write_blocks<double>(*readers[i], offsets[i], *writer);
    } else {
      write_blocks<float>(*readers[i], offsets[i], *writer);
    }
    // The first file's log is in meta.log_lines; later files' logs follow.
    const std::string& run_log = readers[i]->header().run_log;
    if (i > 0 && !run_log.empty()) {
      std::vector<std::string> lines;
      std::size_t start = 0;
      while (start <= run_log.size()) {
        const std::size_t end = run_log.find('\n', start);
        lines.push_back(run_log.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
      }
      as_run_failure([&] { writer->add_history(lines); });
    }
  }
  VisToMsResult r;
  r.ms_path = writer->path();
  r.num_rows = writer->num_rows();
  r.num_times = meta.num_times;
  as_run_failure([&] { writer->finish(); });
  return r;
}

}  // namespace fringe::vistools
