#include "fringe/imager/ms_input.h"

#include <algorithm>
#include <filesystem>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/imager/input_columns.h"
#include "fringe/imager/ms_rows.h"
#include "fringe/imager/rephase.h"

namespace fringe::imager {

int num_product_pols(ImageType t) {
  return (t == ImageType::Linear || t == ImageType::Stokes) ? 4 : 1;
}

template <typename T>
VisBuffer<T> read_visibilities(const ImagerConfig& cfg, InputSummary& sum, Logger* log) {
  if (cfg.input_ms.empty()) throw Error("imager: no input Measurement Set (ImagerConfig.input_ms)");
  const bool psf = cfg.image_type == ImageType::Psf;
  std::vector<FileRows> files(cfg.input_ms.size());
  std::vector<SelectedRow> rows;
  ChannelSelection sel;
  for (std::size_t f = 0; f < cfg.input_ms.size(); ++f) {
    interrupt::throw_if_requested();
    const std::string& path = cfg.input_ms[f];
    InputColumns in = is_vis_file(path) ? read_vis_columns(path, cfg.ms_column, !psf)
                                        : read_ms_columns(path, cfg.ms_column, !psf);
    files[f] = check_input_layout(cfg, f, in, sel, sum);
    take_rows(cfg, f, 0, !psf, in, files[f], rows, sum);
  }
  // IDG's plan needs the rows of a baseline together, in time order; the other algorithms take
  // the rows as the files hold them (OSKAR's order), which saves a sort of every row.
  if (cfg.algorithm == Algorithm::Idg)
    std::stable_sort(rows.begin(), rows.end(), [](const SelectedRow& a, const SelectedRow& b) {
      if (a.file != b.file) return a.file < b.file;
      if (a.a1 != b.a1) return a.a1 < b.a1;
      if (a.a2 != b.a2) return a.a2 < b.a2;
      return a.time < b.time;
    });
  VisBuffer<T> v;
  convert_rows(cfg, files, rows, sel, v, sum);
  sum.row_file.resize(rows.size());
  sum.row_index.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    sum.row_file[i] = rows[i].file;
    sum.row_index[i] = rows[i].index;
  }
  // NaN/Inf values and UVWs (the converted products: a finite double beyond float range
  // counts too) are dropped before anything sums over them.
  drop_non_finite(v, sum.non_finite, &sum.bad_uvw_rows);
  const std::size_t usable =
      std::count_if(v.weight.begin(), v.weight.end(), [](float w) { return w > 0; });
  finish_read(cfg, sum, usable, log);
  if (cfg.rephase) {
    rephase(v, sum.phase_centre_rad, {cfg.centre_ra_rad, cfg.centre_dec_rad},
            cfg.image_type == ImageType::Psf);
    sum.phase_centre_rad = {cfg.centre_ra_rad, cfg.centre_dec_rad};
  }
  add_uv_extent(v, sum);
  return v;
}

template VisBuffer<float> read_visibilities<float>(const ImagerConfig&, InputSummary&, Logger*);
template VisBuffer<double> read_visibilities<double>(const ImagerConfig&, InputSummary&, Logger*);

}  // namespace fringe::imager
