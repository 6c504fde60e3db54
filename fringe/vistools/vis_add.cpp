#include "fringe/vistools/vis_add.h"

#include <algorithm>
#include <memory>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_path.h"
#include "fringe/io/ms/ms_reader.h"
#include "fringe/io/vis/vis_file.h"
#include "fringe/vistools/inputs.h"
#include "fringe/vistools/ms_copy.h"

namespace fringe::vistools {
namespace {

template <typename T>
void add_vis_blocks(const std::vector<std::unique_ptr<io::VisFileReader>>& readers,
                    io::VisFileWriter& writer) {
  const io::VisFileReader& first = *readers.front();
  for (int b = 0; b < first.num_blocks(); ++b) {
    interrupt::throw_if_requested();
    vis::VisBlock<T> sum = first.read_block<T>(b);
    for (std::size_t i = 1; i < readers.size(); ++i) {
      const vis::VisBlock<T> other = readers[i]->read_block<T>(b);
      auto& out = sum.cross_data();
      const auto& in = other.cross_data();
      if (in.size() != out.size()) {
        throw Error::in_file(readers[i]->path(), 0,
                             "block " + std::to_string(b) + " holds " + std::to_string(in.size()) +
                                 " cross-correlation values, the first file's " +
                                 std::to_string(out.size()));
      }
      for (std::size_t k = 0; k < out.size(); ++k) {
        out[k].re += in[k].re;
        out[k].im += in[k].im;
      }
    }
    const auto uvw = first.read_station_uvw(b);
    as_run_failure([&] { writer.write_block(sum, uvw); });
  }
}

VisAddResult add_vis_files(const VisAddConfig& config, const std::string& output) {
  std::vector<std::unique_ptr<io::VisFileReader>> readers;
  for (const auto& path : config.inputs) {
    readers.push_back(std::make_unique<io::VisFileReader>(path));
    const std::string why = incompatibility(readers.front()->header(), readers.back()->header());
    if (!why.empty()) {
      throw Error::in_file(
          path, 0, "does not have the same dimensions as '" + config.inputs.front() + "': " + why);
    }
  }
  const OutputTarget target = io::vis_output_target("", output);
  check_outputs({target}, config.inputs);
  io::VisFileHeader header = readers.front()->header();
  header.settings.clear();
  header.telescope_path.clear();
  header.run_log.clear();
  header.date_time.clear();  // the writer fills the date and folder of this run
  header.cwd.clear();
  header.username.clear();
  header.creator = "fringe vis_add";
  std::unique_ptr<io::VisFileWriter> writer;
  as_run_failure([&] { writer = std::make_unique<io::VisFileWriter>(target, header); });
  if (header.precision == Precision::Double) {
    add_vis_blocks<double>(readers, *writer);
  } else {
    add_vis_blocks<float>(readers, *writer);
  }
  as_run_failure([&] { writer->commit(); });
  return {target.path, int(readers.size())};
}

// Rows read and written at a time.
constexpr std::size_t kRowChunk = 8192;

VisAddResult add_measurement_sets(const VisAddConfig& config, const std::string& output) {
  std::vector<io::MsReader> readers;
  for (const auto& path : config.inputs) readers.emplace_back(path);
  const io::MsReader& first = readers.front();
  const std::vector<double> time0 = first.read_time();
  const std::vector<int> a10 = first.read_antenna1(), a20 = first.read_antenna2();
  for (std::size_t i = 1; i < readers.size(); ++i) {
    const io::MsReader& r = readers[i];
    auto fail = [&](const std::string& why) {
      throw Error::in_file(
          config.inputs[i], 0,
          "does not have the same dimensions as '" + config.inputs.front() + "': " + why);
    };
    if (r.num_rows() != first.num_rows())
      fail(std::to_string(r.num_rows()) + " rows, not " + std::to_string(first.num_rows()));
    if (r.num_channels() != first.num_channels())
      fail(std::to_string(r.num_channels()) + " channels, not " +
           std::to_string(first.num_channels()));
    if (r.corr_types() != first.corr_types()) fail("other correlation types (CORR_TYPE)");
    if (r.read_antenna1() != a10 || r.read_antenna2() != a20) fail("other ANTENNA1/ANTENNA2 rows");
    const std::vector<double> t = r.read_time();
    for (std::size_t k = 0; k < t.size(); ++k) {
      // 1 ms: the dump times of one observation written twice agree far better.
      if (!(std::abs(t[k] - time0[k]) <= 1e-3)) {
        fail("TIME of row " + std::to_string(k) + " differs");
      }
    }
  }
  const OutputTarget target = ms_target(output);
  check_outputs({target}, config.inputs);
  TemporaryOutput out(target);
  copy_ms(config.inputs.front(), out);
  {
    std::unique_ptr<io::MsColumnWriter> column;
    as_run_failure([&] { column = std::make_unique<io::MsColumnWriter>(out.path(), "DATA"); });
    std::vector<Complex<float>> sum, other;
    for (std::size_t row = 0; row < first.num_rows(); row += kRowChunk) {
      interrupt::throw_if_requested();
      const std::size_t n = std::min(kRowChunk, first.num_rows() - row);
      first.read_data(row, n, "DATA", sum);
      for (std::size_t i = 1; i < readers.size(); ++i) {
        readers[i].read_data(row, n, "DATA", other);
        if (other.size() != sum.size()) {
          throw Error::in_file(config.inputs[i], 0,
                               "DATA of rows " + std::to_string(row) + ".. has another shape");
        }
        for (std::size_t k = 0; k < sum.size(); ++k) {
          sum[k].re += other[k].re;
          sum[k].im += other[k].im;
        }
      }
      as_run_failure([&] { column->write(row, n, sum); });
    }
    as_run_failure([&] { column->flush(); });
  }
  as_run_failure([&] { out.commit(); });
  return {target.path, int(readers.size())};
}

}  // namespace

VisAddResult vis_add(const VisAddConfig& config, Logger* /*log*/) {
  if (config.inputs.size() < 2) {
    throw Error("please provide 2 or more visibility files to combine (got " +
                std::to_string(config.inputs.size()) + ")");
  }
  const DataSetKind kind = common_kind(config.inputs);
  if (kind == DataSetKind::VisFile) {
    return add_vis_files(config, config.output.empty() ? "out.vis" : config.output);
  }
  return add_measurement_sets(config,
                              io::ms_output_path(config.output.empty() ? "out.ms" : config.output));
}

}  // namespace fringe::vistools
