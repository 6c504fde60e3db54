// Numerical element patterns: OSKAR's spherical-wave coefficient text files are evaluated
// (telescope/spherical_wave_files.h, spherical_wave_math.h), also in OSKAR's Galileo and
// FEKO conventions (FEKO text and HDF5 files: spherical_wave_feko_h5.h,
// spherical_wave_feko_math.h). HARP files and other element pattern files are not: a run that
// would need them must not silently use the functional pattern instead, so the simulator, the
// beam pattern and the imager's A-terms refuse it before any work. The files fringe does
// evaluate are read there too, so a malformed one is bad input (exit 2) before any work.
#pragma once

#include <set>
#include <string>

#include "fringe/core/error.h"
#include "fringe/jones/station_beam_config.h"
#include "fringe/telescope/spherical_wave_files.h"
#include "fringe/telescope/telescope_model.h"

namespace fringe::jones {

namespace detail {
// The spherical-wave file sets of a station model's leaves (inherited as ApertureArrayModel
// does: a folder's files apply below it, same names replaced), each distinct set once.
inline void collect_pattern_maps(const telescope::StationModel& m, telescope::PatternFileMap files,
                                 std::set<telescope::PatternFileMap>& out) {
  telescope::add_spherical_wave_files(m.directory, files);
  if (!m.is_hierarchical()) {
    if (!files.empty()) out.insert(files);
    return;
  }
  for (const auto& t : m.tiles) collect_pattern_maps(t, files, out);
}
}  // namespace detail

// Aperture-array stations with ElementPatternConfig.enable_numerical whose telescope model
// holds element pattern files fringe cannot evaluate: fringe::Error naming that field and
// the first such file. Then every spherical-wave coefficient file (text or FEKO HDF5) of the
// model is read once: a malformed one throws the loader's fringe::Error naming the file.
inline void check_numerical_patterns(const StationBeamConfig& beam,
                                     const telescope::TelescopeModel& tel) {
  if (beam.station_type != StationType::ApertureArray ||
      !beam.aperture_array.element_pattern.enable_numerical) {
    return;
  }
  for (const auto& f : tel.unsupported_files) {
    const bool harp = f.reason.find("HARP") != std::string::npos;
    const bool pattern = f.reason.find("element pattern") != std::string::npos ||
                         f.reason.find("FEKO") != std::string::npos;
    if (!pattern && !harp) continue;
    throw Error::in_field(
        "ElementPatternConfig.enable_numerical", "true",
        "the telescope model holds element pattern data that fringe cannot evaluate ('" + f.path +
            "': " + f.reason +
            (harp ? "; fringe does not implement HARP (OSKAR evaluates it through an external "
                    "library)"
                  : "") +
            "); fringe evaluates OSKAR's spherical-wave coefficient text files "
            "(element_pattern_spherical_wave_[galileo_|feko_][x|y]_[te|tm]_[re|im]_<type>_<MHz>"
            ".txt) and FEKO HDF5 files (*FEKO*.h5) instead; or set this key to false to use the "
            "functional element pattern");
  }
  std::set<telescope::PatternFileMap> maps;
  telescope::PatternFileMap root;
  telescope::add_spherical_wave_files(tel.directory, root);
  for (const auto& m : tel.station_models) detail::collect_pattern_maps(m, root, maps);
  for (const auto& files : maps) {
    (void)telescope::load_spherical_wave_patterns(files,
                                                  beam.aperture_array.element_pattern.max_order);
  }
}

}  // namespace fringe::jones
