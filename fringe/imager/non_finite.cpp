#include "fringe/imager/non_finite.h"

#include <cmath>

namespace fringe::imager {

template <typename T>
void drop_non_finite(VisBuffer<T>& v, NonFiniteCount& count,
                     std::vector<std::uint8_t>* bad_uvw_rows) {
  if (bad_uvw_rows) bad_uvw_rows->assign(v.num_rows, 0);
  const std::size_t nchan = static_cast<std::size_t>(v.num_channels);
  const std::size_t npol = static_cast<std::size_t>(v.num_pols);
  for (std::size_t r = 0; r < v.num_rows; ++r) {
    auto& uvw = v.uvw_m[r];
    const bool bad_row = !(std::isfinite(uvw[0]) && std::isfinite(uvw[1]) && std::isfinite(uvw[2]));
    if (bad_row) {
      uvw = {0.0, 0.0, 0.0};
      ++count.uvw_rows;
      if (bad_uvw_rows) (*bad_uvw_rows)[r] = 1;
    }
    for (std::size_t c = 0; c < nchan; ++c) {
      const std::size_t k = r * nchan + c;
      float& w = v.weight[k];
      Complex<T>* x = &v.vis[k * npol];
      bool bad = bad_row || !std::isfinite(w);
      for (std::size_t q = 0; q < npol && !bad; ++q)
        bad = !(std::isfinite(x[q].re) && std::isfinite(x[q].im));
      if (!bad) continue;
      if (!bad_row && (w > 0.0f || std::isnan(w))) ++count.visibilities;
      w = 0.0f;
      for (std::size_t q = 0; q < npol; ++q) x[q] = {T(0), T(0)};
    }
  }
}

std::string describe(const NonFiniteCount& n) {
  std::string s;
  auto add = [&s](std::size_t k, const std::string& one, const std::string& many,
                  const std::string& rest) {
    if (k == 0) return;
    if (!s.empty()) s += ", ";
    s += std::to_string(k) + " " + (k == 1 ? one : many) + " " + rest;
  };
  add(n.visibilities, "visibility", "visibilities", "with a NaN/Inf value or weight");
  add(n.uvw_rows, "row", "rows", "with a NaN/Inf UVW");
  add(n.time_rows, "row", "rows", "with a NaN/Inf TIME");
  return s;
}

template void drop_non_finite<float>(VisBuffer<float>&, NonFiniteCount&,
                                     std::vector<std::uint8_t>*);
template void drop_non_finite<double>(VisBuffer<double>&, NonFiniteCount&,
                                      std::vector<std::uint8_t>*);

}  // namespace fringe::imager
