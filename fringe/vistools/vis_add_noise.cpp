#include "fringe/vistools/vis_add_noise.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/vis/noise_math.h"
#include "fringe/vistools/inputs.h"
#include "fringe/vistools/ms_copy.h"

namespace fringe::vistools {
namespace {

// Rows of a Measurement Set read and written at a time.
constexpr std::size_t kRowChunk = 8192;

struct Job {
  std::string input;
  DataSetKind kind = DataSetKind::VisFile;
  OutputTarget target;
};

void check_stations(const std::string& path, int num_stations, const vis::NoiseTable& noise) {
  if (std::size_t(num_stations) != noise.rms_jy.size()) {
    throw Error::in_file(path, 0,
                         "has " + std::to_string(num_stations) + " stations, the telescope model " +
                             std::to_string(noise.rms_jy.size()) +
                             " (the noise RMS is given per station of the telescope model)");
  }
}

template <typename T>
void noise_vis_blocks(const io::VisFileReader& reader, const VisAddNoiseConfig& config,
                      io::VisFileWriter& writer) {
  const io::VisFileHeader& h = reader.header();
  vis::NoiseParams params;
  params.seed = config.seed;
  params.channel_bandwidth_hz = h.channel_bandwidth_hz;
  params.time_average_sec = h.time_average_sec;
  for (int b = 0; b < reader.num_blocks(); ++b) {
    interrupt::throw_if_requested();
    vis::VisBlock<T> block = reader.read_block<T>(b);
    vis::add_system_noise(block, config.noise, params);
    const auto uvw = reader.read_station_uvw(b);
    as_run_failure([&] { writer.write_block(block, uvw); });
  }
}

void noise_vis_file(const Job& job, const VisAddNoiseConfig& config) {
  io::VisFileReader reader(job.input);
  io::VisFileHeader header = reader.header();
  header.date_time.clear();  // the writer fills the date and folder of this run
  header.cwd.clear();
  header.creator = "fringe vis_add_noise";
  std::unique_ptr<io::VisFileWriter> writer;
  as_run_failure([&] { writer = std::make_unique<io::VisFileWriter>(job.target, header); });
  if (header.precision == Precision::Double) {
    noise_vis_blocks<double>(reader, config, *writer);
  } else {
    noise_vis_blocks<float>(reader, config, *writer);
  }
  as_run_failure([&] {
    if (!header.run_log.empty()) writer->write_run_log(header.run_log);
    writer->commit();
  });
}

// The index of each row's TIME among the distinct TIME values (sorted), so that a row's noise
// depends on its dump and not on the row order.
std::vector<std::uint32_t> time_indices(const std::vector<double>& time) {
  std::vector<double> distinct = time;
  std::sort(distinct.begin(), distinct.end());
  // Dumps of one MS are seconds apart; values within 1 microsecond are the same dump.
  distinct.erase(std::unique(distinct.begin(), distinct.end(),
                             [](double a, double b) { return std::abs(a - b) < 1e-6; }),
                 distinct.end());
  std::vector<std::uint32_t> index(time.size());
  for (std::size_t r = 0; r < time.size(); ++r) {
    auto it = std::lower_bound(distinct.begin(), distinct.end(), time[r] - 1e-6);
    index[r] = std::uint32_t(it - distinct.begin());
  }
  return index;
}

void noise_ms(const Job& job, const VisAddNoiseConfig& config) {
  io::MsReader ms(job.input);
  const int ns = ms.num_stations();
  const int nc = ms.num_channels();
  const int np = ms.num_pols();
  if (np != 4 && np != 1) {
    throw Error::in_file(
        job.input, 0,
        "has " + std::to_string(np) + " correlations; noise is added to 4 (XX, XY, YX, YY) or 1");
  }
  const bool full = np == 4;
  if (!ms.has_column(config.column)) {
    throw Error::in_file(job.input, 0, "has no column " + config.column + " to add noise to");
  }
  const std::vector<double> freqs = ms.channel_frequencies_hz();
  const std::vector<double> widths = ms.channel_widths_hz();
  const std::vector<double> time = ms.read_time();
  const std::vector<int> a1 = ms.read_antenna1(), a2 = ms.read_antenna2();
  const std::vector<std::uint32_t> tindex = time_indices(time);
  const double exposure = ms.num_rows() > 0 ? ms.read_exposure(0, 1).front() : 0.0;
  const double width = widths.empty() ? 0.0 : widths.front();
  // sigma[c][s]: station s's RMS at channel c (Jy).
  std::vector<std::vector<double>> sigma(std::size_t(nc),
                                         std::vector<double>(std::size_t(ns), 0.0));
  for (int c = 0; c < nc; ++c) {
    for (int s = 0; s < ns; ++s) sigma[c][s] = config.noise.sigma(std::size_t(s), freqs[c]);
  }

  TemporaryOutput out(job.target);
  copy_ms(job.input, out);
  {
    std::unique_ptr<io::MsColumnWriter> column;
    as_run_failure(
        [&] { column = std::make_unique<io::MsColumnWriter>(out.path(), config.column); });
    std::vector<Complex<float>> data;
    for (std::size_t row0 = 0; row0 < ms.num_rows(); row0 += kRowChunk) {
      interrupt::throw_if_requested();
      const std::size_t n = std::min(kRowChunk, ms.num_rows() - row0);
      ms.read_data(row0, n, config.column, data);
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t r = row0 + k;
        const int p = std::min(a1[r], a2[r]), q = std::max(a1[r], a2[r]);
        if (p < 0 || q >= ns) {
          throw Error::in_file(job.input, 0,
                               "row " + std::to_string(r) + " names antenna " + std::to_string(q) +
                                   " of " + std::to_string(ns));
        }
        for (int c = 0; c < nc; ++c) {
          Complex<float>* v = &data[(k * std::size_t(nc) + std::size_t(c)) * std::size_t(np)];
          if (p == q) {
            const double bias = vis::auto_noise_bias(sigma[c][p], width, exposure);
            vis::add_auto_noise(v, full, sigma[c][p], bias, config.seed, tindex[r],
                                std::uint32_t(c), std::uint32_t(p));
          } else {
            // Baseline index of (p, q), p < q, in OSKAR's order (p slowest).
            const auto b = std::uint32_t(std::size_t(p) * (2 * std::size_t(ns) - p - 1) / 2 +
                                         std::size_t(q - p - 1));
            vis::add_cross_noise(v, full, sigma[c][p], sigma[c][q], config.seed, tindex[r],
                                 std::uint32_t(c), b);
          }
        }
      }
      as_run_failure([&] { column->write(row0, n, data); });
    }
    as_run_failure([&] { column->flush(); });
  }
  as_run_failure([&] { out.commit(); });
}

}  // namespace

VisAddNoiseResult vis_add_noise(const VisAddNoiseConfig& config, Logger* log) {
  if (config.inputs.empty()) throw Error("no input visibility files");
  config.noise.validate(config.noise.rms_jy.size());
  std::vector<Job> jobs;
  std::vector<OutputTarget> targets;
  std::vector<std::string> inputs = config.other_inputs;
  for (const auto& path : config.inputs) {
    Job job;
    job.input = path;
    job.kind = data_set_kind(path);
    const std::string out = config.in_place ? path : noise_output_path(path, job.kind);
    if (job.kind == DataSetKind::VisFile) {
      check_stations(path, io::read_vis_header(path).num_stations, config.noise);
      job.target = io::vis_output_target("", out);
    } else {
      check_stations(path, io::MsReader(path).num_stations(), config.noise);
      job.target = ms_target(out);
    }
    // In place, the input is its own output (replaced when the noisy copy is complete).
    if (!config.in_place) inputs.push_back(path);
    targets.push_back(job.target);
    jobs.push_back(std::move(job));
  }
  check_outputs(targets, inputs);
  VisAddNoiseResult result;
  for (const Job& job : jobs) {
    log_info(log, "Adding noise to " + job.input + " -> " + job.target.path);
    if (job.kind == DataSetKind::VisFile) {
      noise_vis_file(job, config);
    } else {
      noise_ms(job, config);
    }
    result.outputs.push_back(job.target.path);
  }
  return result;
}

}  // namespace fringe::vistools
