// GainModel: OSKAR 2.13's per-station complex gain table, gain_model.h5 at the root of a
// telescope model (docs/station_beams.md, "Station gain model").
//
// File layout (HDF5, read through io::Hdf5File):
//   "freq (Hz)"  1-D, the frequency of each channel of the table (Hz)
//   "gain_xpol"  complex, dimensions (times, channels, stations): the X gain
//   "gain_ypol"  optional, same dimensions: the Y gain (absent: the X gain is used for Y)
// Selection (as OSKAR's gain evaluation): the table channel is the one whose frequency is
// closest to the simulated channel's (the first of equally close ones); the table time is the
// simulation's time index counted from the observation's start, clamped to the last time of
// the table (a table of one time applies to every time).
// Application (sim/station_gain_model.h): station p's Jones matrices become G_p J, with
// G_p = diag(g_X, g_Y), so the visibilities become G_p V G_q^H before the system noise is
// added; Scalar mode uses g_X. Stations take the table's entries in layout order; the table may
// hold more entries than stations (the rest are unused), not fewer.
// The same layout in a station or tile folder is a per-element table (one entry per element,
// third dimension = the folder's element count): StationModel::element_gains, applied to the
// beamforming weights (jones/aperture_array.cpp).
#pragma once

#include <complex>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace fringe::telescope {

struct GainModel {
  std::string path;             // the .h5 file
  std::vector<double> freq_hz;  // "freq (Hz)", one per table channel
  std::size_t num_times = 0, num_channels = 0, num_stations = 0;
  std::vector<std::complex<double>> x;  // [time][channel][station], row-major
  std::vector<std::complex<double>> y;  // as x; empty when the file has no "gain_ypol"

  // Table channel for a frequency (closest match, first on ties).
  std::size_t channel_of(double frequency_hz) const;
  // Table time for the simulation's time index (0-based from the start): clamped to the last.
  std::size_t time_of(int time_index) const;
  // Gain of table entry (time, channel, station) for polarisation 0 (X) or 1 (Y).
  std::complex<double> gain(std::size_t time, std::size_t channel, std::size_t station,
                            int pol) const;
};

// Reads gain_model.h5. `num_stations` is the telescope's station count: the table must hold at
// least that many. Throws fringe::Error naming the file, the dataset and what was expected
// (missing dataset, not complex, not 3-D, channel count unlike "freq (Hz)", too few stations,
// non-finite values).
GainModel load_gain_model(const std::filesystem::path& file, std::size_t num_stations);

}  // namespace fringe::telescope
