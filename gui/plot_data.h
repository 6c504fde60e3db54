// Data for the results plots, loaded off the GUI thread (QtConcurrent) from fringe's
// libraries: station positions of a telescope model (fringe/telescope/tm_loader.h) and the
// uv coverage of a Measurement Set (fringe/io/ms/ms_reader.h). Units: metres.
#pragma once

#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

namespace fringe::gui {

struct StationLayout {
  QString directory;
  QVector<QPointF> measured_en;  // East, North (m) about the array centre
  QVector<QPointF> true_en;      // with position errors (equal to measured when none)
  QStringList names;
  double lon_deg = 0.0, lat_deg = 0.0;
  QStringList warnings;
  QString error;  // non-empty when loading failed
};

// Loads a .tm directory; never throws (errors go to StationLayout::error).
StationLayout load_station_layout(const QString& directory);

struct UvCoverage {
  QString path;
  QVector<QPointF> uv;  // (u, v) and (-u, -v) per cross-correlation row (m)
  std::size_t num_rows = 0;
  std::size_t rows_used = 0;  // cross-correlation rows plotted
  bool thinned = false;       // large sets: every k-th row only
  int num_stations = 0, num_channels = 0;
  double freq_min_hz = 0.0, freq_max_hz = 0.0;
  QString telescope;
  QString error;
};

// Reads UVW, ANTENNA1/2 of a Measurement Set; at most max_rows rows are plotted.
UvCoverage load_uv_coverage(const QString& ms_path, std::size_t max_rows = 400000);

}  // namespace fringe::gui
