// TelescopeModel: an interferometer array as loaded from an OSKAR .tm directory: the array
// centre, every station's measured and true position, the station models the stations use,
// per-station cable length errors and noise, and any model files fringe does not support.
// Units: metres and radians. "Offset ECEF" is a station's ECEF position minus the array
// centre's ECEF position (what station (u,v,w) are formed from); ENU is local East-North-Up
// about the array centre. "Measured" positions are the file's first three columns, "true"
// positions add the optional error columns (OSKAR: UVW written to files use measured
// positions, the simulated signal uses true positions).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fringe/astro/geodesy.h"
#include "fringe/telescope/gain_model.h"
#include "fringe/telescope/station_model.h"

namespace fringe::telescope {

// Which file gave the station coordinates.
enum class LayoutFrame { Enu, Ecef, Wgs84 };
const char* to_string(LayoutFrame frame);

struct Station {
  std::string name;  // station folder name when each station has its own, else "s0000", ...
  astro::Vec3 measured_offset_ecef;   // m
  astro::Vec3 true_offset_ecef;       // m
  astro::Vec3 measured_enu;           // m, about the array centre
  astro::Vec3 true_enu;               // m
  astro::Geodetic geodetic;           // the station's own lon/lat (rad)/height (m), from its
                                      // true position (its beam, horizon, parallactic angle)
  astro::Vec3 true_ecef;              // m, absolute
  int model_index = 0;                // index into TelescopeModel::station_models
  double cable_length_error_x = 0.0;  // m (root cable_length_error[_x].txt)
  double cable_length_error_y = 0.0;  // m (root cable_length_error[_y].txt)
};

// A file found in the model that fringe does not load (HDF5 gain models, HARP or FEKO beam
// coefficients, numerical element patterns, ...). The loader warns about each; a later stage
// that would need one can refuse to run.
struct UnsupportedFile {
  std::string path;
  std::string reason;
};

struct TelescopeModel {
  std::string directory;    // the .tm folder as given
  astro::Geodetic centre;   // array centre from position.txt
  astro::Vec3 centre_ecef;  // m
  LayoutFrame layout_frame = LayoutFrame::Enu;
  std::string layout_file;  // path of the station coordinate file used

  std::vector<Station> stations;
  std::vector<StationModel> station_models;  // distinct models; Station::model_index selects

  std::vector<double> noise_freq_hz;    // noise_frequencies.txt at the root (may be empty)
  std::optional<GainModel> gain_model;  // gain_model.h5 at the root (gain_model.h)

  std::vector<UnsupportedFile> unsupported_files;
  std::vector<std::string> warnings;  // every warning the loader gave, in order

  std::size_t num_stations() const { return stations.size(); }
  const StationModel& model_of(std::size_t station) const {
    return station_models[static_cast<std::size_t>(stations[station].model_index)];
  }
  // Noise RMS of a station per noise frequency (Jy); empty if the model gives none.
  const std::vector<double>& noise_rms_jy(std::size_t station) const {
    return model_of(station).noise_rms_jy;
  }
  // True when any station has position errors (measured != true).
  bool has_position_errors() const;
};

}  // namespace fringe::telescope
