// Creation of the Measurement Set layout. Table and column names, shapes, units and storage
// managers follow what OSKAR 2.13 writes (checked against the reference MSs in
// shared/oskar-reference with python-casacore; docs/conventions.md, "Measurement Set output").
#include "fringe/io/ms/ms_tables.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Containers/Record.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MSSource.h>
#include <casacore/tables/DataMan/IncrementalStMan.h>
#include <casacore/tables/DataMan/StandardStMan.h>
#include <casacore/tables/DataMan/TiledColumnStMan.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ScaColDesc.h>
#include <casacore/tables/Tables/SetupNewTab.h>
#include <casacore/tables/Tables/TableDesc.h>
#include <casacore/tables/Tables/TableRecord.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "fringe/astro/geodesy.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/ms/ms_history.h"

namespace fringe::io::detail {

using namespace casacore;

namespace {

constexpr double kUnixEpochMjd = 40587.0;  // 1970-01-01 as MJD
// OBSERVATION::RELEASE_DATE - end of the observation: one Julian year (OSKAR 2.13's choice).
constexpr double kReleaseDelaySec = 365.25 * kSecondsPerDay;

// Attaches the units and measure keywords of an ITRF position column.
void set_position_keywords(BaseColumnDesc& column) {
  Vector<String> units(3, "m");
  column.rwKeywordSet().define("QuantumUnits", units);
  Record measinfo;
  measinfo.define("type", "position");
  measinfo.define("Ref", "ITRF");
  column.rwKeywordSet().defineRecord("MEASINFO", measinfo);
}

std::string utc_text(double mjd_utc_sec) {
  const std::time_t unix = static_cast<std::time_t>(mjd_utc_sec - kUnixEpochMjd * kSecondsPerDay);
  std::tm tm{};
  gmtime_r(&unix, &tm);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d, %H:%M:%S", &tm);
  return text;
}

void create_main_and_default_subtables(const std::string& path, int npol, int nchan,
                                       std::size_t rows_per_time,
                                       std::unique_ptr<MeasurementSet>& ms) {
  TableDesc desc = MS::requiredTableDesc();
  MS::addColumnToDesc(desc, MS::DATA, 2);
  const IPosition data_shape(2, npol, nchan);
  desc.rwColumnDesc(MS::columnName(MS::DATA)).setShape(data_shape);
  desc.rwColumnDesc(MS::columnName(MS::FLAG)).setShape(data_shape);
  desc.rwColumnDesc(MS::columnName(MS::WEIGHT)).setShape(IPosition(1, npol));
  desc.rwColumnDesc(MS::columnName(MS::SIGMA)).setShape(IPosition(1, npol));
  desc.rwColumnDesc(MS::columnName(MS::DATA)).rwKeywordSet().define("UNIT", "Jy");

  SetupNewTable setup(path, desc, Table::New);
  // Scalar bookkeeping columns change rarely: incremental storage. ANTENNA1/2 change every
  // row: standard storage. Arrays: tiled, one hypercube per column.
  IncrementalStMan ism("ISMData");
  setup.bindAll(ism);
  // 32 KiB buckets: the default (32 rows of ANTENNA1/2, 256 bytes) costs a seek, a read and a
  // write per 32 rows (2 million rows: 0.5 s of system calls).
  StandardStMan ssm("SSMData", 32768);
  setup.bindColumn(MS::columnName(MS::ANTENNA1), ssm);
  setup.bindColumn(MS::columnName(MS::ANTENNA2), ssm);
  const std::size_t bytes_per_row = std::size_t(npol) * std::size_t(nchan) * sizeof(Complex);
  const ssize_t rows = static_cast<ssize_t>(tile_rows(bytes_per_row, rows_per_time));
  TiledColumnStMan tiled_uvw("TiledUVW", IPosition(2, 3, rows));
  TiledColumnStMan tiled_weight("TiledWeight", IPosition(2, npol, rows));
  TiledColumnStMan tiled_sigma("TiledSigma", IPosition(2, npol, rows));
  TiledColumnStMan tiled_data("TiledData", IPosition(3, npol, nchan, rows));
  TiledColumnStMan tiled_flag("TiledFlag", IPosition(3, npol, nchan, rows));
  setup.bindColumn(MS::columnName(MS::UVW), tiled_uvw);
  setup.bindColumn(MS::columnName(MS::WEIGHT), tiled_weight);
  setup.bindColumn(MS::columnName(MS::SIGMA), tiled_sigma);
  setup.bindColumn(MS::columnName(MS::DATA), tiled_data);
  setup.bindColumn(MS::columnName(MS::FLAG), tiled_flag);

  // Locked until closed: the writer's column tasks run concurrently (column_tasks.h).
  ms = std::make_unique<MeasurementSet>(setup, TableLock(TableLock::PermanentLocking), 0);
  ms->createDefaultSubtables(Table::New);

  // SOURCE (empty, with the optional POSITION and REST_FREQUENCY columns, as OSKAR).
  {
    TableDesc source_desc = MSSource::requiredTableDesc();
    MSSource::addColumnToDesc(source_desc, MSSource::REST_FREQUENCY, 1);
    MSSource::addColumnToDesc(source_desc, MSSource::POSITION);
    source_desc.rwColumnDesc(MSSource::columnName(MSSource::POSITION)).setShape(IPosition(1, 3));
    SetupNewTable source_setup(ms->sourceTableName(), source_desc, Table::New);
    ms->rwKeywordSet().defineTable(MS::keywordName(MS::SOURCE), Table(source_setup));
  }
  // PHASED_ARRAY: the columns OSKAR 2.13 creates (names, types, shapes, column comments and
  // the ITRF metre keywords of POSITION and ELEMENT_OFFSET), the layout EveryBeam reads for
  // an aperture-array ("OSKAR") telescope. Rows: fill_phased_array().
  {
    TableDesc pa_desc;
    pa_desc.addColumn(ScalarColumnDesc<Int>("ANTENNA_ID", "Antenna ID"));
    ArrayColumnDesc<Double> position("POSITION", "Position of antenna field", IPosition(1, 3),
                                     ColumnDesc::FixedShape);
    set_position_keywords(position);
    pa_desc.addColumn(position);
    pa_desc.addColumn(ArrayColumnDesc<Double>("COORDINATE_AXES", "Local coordinate system",
                                              IPosition(2, 3, 3), ColumnDesc::FixedShape));
    ArrayColumnDesc<Double> element_offset("ELEMENT_OFFSET", "Offset per element");
    set_position_keywords(element_offset);
    pa_desc.addColumn(element_offset);
    pa_desc.addColumn(ArrayColumnDesc<Bool>("ELEMENT_FLAG", "Flag of elements in array"));
    SetupNewTable pa_setup(ms->tableName() + "/PHASED_ARRAY", pa_desc, Table::New);
    ms->rwKeywordSet().defineTable("PHASED_ARRAY", Table(pa_setup));
  }
  ms->initRefs();
}

void fill_antenna_and_feed(MeasurementSet& ms, const vis::VisMeta& meta) {
  const std::size_t n = meta.num_stations();
  MSAntennaColumns ant(ms.antenna());
  ms.antenna().addRow(n);
  MSFeedColumns feed(ms.feed());
  ms.feed().addRow(n);
  Vector<String> receptors(2);
  receptors(0) = "X";
  receptors(1) = "Y";
  for (std::size_t i = 0; i < n; ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "s%04zu", i);
    const std::string& label = meta.station_names[i];
    if (!meta.antenna_names.empty())
      ant.name().put(i, meta.antenna_names[i]);
    else
      ant.name().put(i, label.empty() ? std::string(id) : std::string(id) + " (" + label + ")");
    ant.station().put(i, id);
    ant.type().put(i, "GROUND-BASED");
    ant.mount().put(i, "FIXED");
    Vector<Double> pos(3);
    for (int k = 0; k < 3; ++k) pos(k) = meta.station_ecef_m[i][k];
    ant.position().put(i, pos);
    ant.offset().put(i, Vector<Double>(3, 0.0));
    ant.dishDiameter().put(i, meta.dish_diameter_m);
    ant.flagRow().put(i, False);

    const double ax = meta.feed_angles_rad.empty() ? 0.0 : meta.feed_angles_rad[i][0];
    const double ay = meta.feed_angles_rad.empty() ? 0.0 : meta.feed_angles_rad[i][1];
    feed.antennaId().put(i, static_cast<Int>(i));
    feed.feedId().put(i, 0);
    feed.spectralWindowId().put(i, -1);
    feed.beamId().put(i, -1);
    feed.time().put(i, 0.0);
    feed.interval().put(i, 0.0);
    feed.numReceptors().put(i, 2);
    feed.beamOffset().put(i, Matrix<Double>(2, 2, 0.0));
    feed.polarizationType().put(i, receptors);
    Matrix<Complex> response(2, 2, Complex(0.0f, 0.0f));
    response(0, 0) = response(1, 1) = Complex(1.0f, 0.0f);
    feed.polResponse().put(i, response);
    feed.position().put(i, Vector<Double>(3, 0.0));
    Vector<Double> angle(2);
    angle(0) = ax + kPi / 2.0;  // X receptor: alpha_x + 90 deg (OSKAR)
    angle(1) = ay;
    feed.receptorAngle().put(i, angle);
  }
}

// One PHASED_ARRAY row per station up to the last station with elements (row = station
// index, as OSKAR 2.13 writes them; a station without elements before that gets a row with
// no elements). Per row (OSKAR's oskar_vis_header_write_ms, facts only):
//  - ANTENNA_ID = the station index; POSITION = the station's ITRF position (ANTENNA).
//  - COORDINATE_AXES: a 3x3 matrix whose columns (casacore axes(0..2, j)) are the station's
//    p, q, r unit vectors in ITRF: r = the WGS84 ellipsoid normal at the station, p and q the
//    local East and North rotated about r by the station angle alpha_x (the first element's X
//    feed angle, towards North): p = cos(a) E + sin(a) N, q = -sin(a) E + cos(a) N. EveryBeam
//    reads p, q, r as these columns.
//  - ELEMENT_OFFSET [3, elements]: each element's (p, q, r) position in metres turned into an
//    ITRF offset from POSITION: x p + y q + z r.
//  - ELEMENT_FLAG [2, elements] (1 for a one-product MS): all false.
std::array<std::array<double, 3>, 3> station_axes(const std::array<double, 3>& ecef,
                                                  double alpha_x) {
  const astro::Geodetic g = astro::ecef_to_geodetic({ecef[0], ecef[1], ecef[2]});
  const double sl = std::sin(g.lon), cl = std::cos(g.lon);
  const double sb = std::sin(g.lat), cb = std::cos(g.lat);
  const std::array<double, 3> east{-sl, cl, 0.0};
  const std::array<double, 3> north{-sb * cl, -sb * sl, cb};
  const std::array<double, 3> up{cb * cl, cb * sl, sb};
  const double ca = std::cos(alpha_x), sa = std::sin(alpha_x);
  std::array<std::array<double, 3>, 3> axes{};  // axes[j] = p, q, r
  for (int k = 0; k < 3; ++k) {
    axes[0][k] = ca * east[k] + sa * north[k];
    axes[1][k] = -sa * east[k] + ca * north[k];
    axes[2][k] = up[k];
  }
  return axes;
}

void fill_phased_array(MeasurementSet& ms, const vis::VisMeta& meta, int npol) {
  std::size_t rows = 0;
  for (std::size_t i = 0; i < meta.element_enu_m.size(); ++i)
    if (!meta.element_enu_m[i].empty()) rows = i + 1;
  if (rows == 0) return;
  Table pa = ms.keywordSet().asTable("PHASED_ARRAY");
  pa.reopenRW();
  pa.addRow(rows);
  ScalarColumn<Int> antenna_id(pa, "ANTENNA_ID");
  ArrayColumn<Double> position(pa, "POSITION");
  ArrayColumn<Double> coordinate_axes(pa, "COORDINATE_AXES");
  ArrayColumn<Double> element_offset(pa, "ELEMENT_OFFSET");
  ArrayColumn<Bool> element_flag(pa, "ELEMENT_FLAG");
  const int flag_rows = npol == 4 ? 2 : 1;
  for (std::size_t i = 0; i < rows; ++i) {
    const auto& ecef = meta.station_ecef_m[i];
    const double alpha_x = meta.feed_angles_rad.empty() ? 0.0 : meta.feed_angles_rad[i][0];
    std::array<std::array<double, 3>, 3> axes;
    try {
      axes = station_axes(ecef, alpha_x);
    } catch (const Error& e) {
      throw Error("PHASED_ARRAY row " + std::to_string(i) +
                  ": the station position is not on the Earth: " + e.message());
    }
    Vector<Double> pos(3);
    Matrix<Double> m(3, 3);
    for (int k = 0; k < 3; ++k) {
      pos(k) = ecef[k];
      for (int j = 0; j < 3; ++j) m(k, j) = axes[j][k];
    }
    const auto& elements = meta.element_enu_m[i];
    const ssize_t n = static_cast<ssize_t>(elements.size());
    Matrix<Double> offset(3, n);
    for (ssize_t e = 0; e < n; ++e) {
      const auto& xyz = elements[static_cast<std::size_t>(e)];
      for (int k = 0; k < 3; ++k)
        offset(k, e) = xyz[0] * axes[0][k] + xyz[1] * axes[1][k] + xyz[2] * axes[2][k];
    }
    antenna_id.put(i, static_cast<Int>(i));
    position.put(i, pos);
    coordinate_axes.put(i, m);
    element_offset.put(i, offset);
    element_flag.put(i, Matrix<Bool>(flag_rows, n, False));
  }
}

void fill_field(MeasurementSet& ms, const vis::VisMeta& meta) {
  MSFieldColumns field(ms.field());
  ms.field().addRow(1);
  Matrix<Double> dir(2, 1);
  dir(0, 0) = meta.phase_centre_ra_rad;
  dir(1, 0) = meta.phase_centre_dec_rad;
  // As OSKAR 2.13: TIME 0 and SOURCE_ID 0 (OSKAR leaves them unset, which reads as 0; with
  // NUM_POLY = 0 the directions do not depend on TIME), empty NAME and CODE.
  field.name().put(0, "");
  field.code().put(0, "");
  field.time().put(0, 0.0);
  field.numPoly().put(0, 0);
  field.delayDir().put(0, dir);
  field.phaseDir().put(0, dir);
  field.referenceDir().put(0, dir);
  field.sourceId().put(0, 0);
  field.flagRow().put(0, False);
}

void fill_spectral_window(MeasurementSet& ms, const vis::VisMeta& meta) {
  MSSpWindowColumns spw(ms.spectralWindow());
  ms.spectralWindow().addRow(1);
  const int nchan = meta.num_channels;
  // CHAN_WIDTH is the channel spacing, not the smearing bandwidth (OSKAR; 1 Hz if <= 0).
  const double width = meta.frequency_inc_hz > 0.0 ? meta.frequency_inc_hz : 1.0;
  Vector<Double> freq(nchan), widths(nchan, width);
  for (int c = 0; c < nchan; ++c) freq(c) = meta.channel_frequency_hz(c);
  spw.name().put(0, "");
  spw.numChan().put(0, nchan);
  spw.chanFreq().put(0, freq);
  spw.chanWidth().put(0, widths);
  spw.effectiveBW().put(0, widths);
  spw.resolution().put(0, widths);
  spw.refFrequency().put(0, meta.start_frequency_hz);
  spw.totalBandwidth().put(0, width * nchan);
  spw.measFreqRef().put(0, 5);  // MFrequency::TOPO
  spw.netSideband().put(0, 1);
  spw.freqGroup().put(0, 0);
  spw.freqGroupName().put(0, "");
  spw.ifConvChain().put(0, 0);
  spw.flagRow().put(0, False);
}

void fill_polarization_and_data_description(MeasurementSet& ms, int npol) {
  MSPolarizationColumns pol(ms.polarization());
  ms.polarization().addRow(1);
  Vector<Int> corr_type(npol);
  Matrix<Int> corr_product(2, npol);
  for (int k = 0; k < npol; ++k) {
    corr_type(k) = 9 + k;        // Stokes::XX, XY, YX, YY
    corr_product(0, k) = k / 2;  // receptor of the first antenna
    corr_product(1, k) = k % 2;  // receptor of the second antenna
  }
  pol.numCorr().put(0, npol);
  pol.corrType().put(0, corr_type);
  pol.corrProduct().put(0, corr_product);
  pol.flagRow().put(0, False);

  MSDataDescColumns dd(ms.dataDescription());
  ms.dataDescription().addRow(1);
  dd.spectralWindowId().put(0, 0);
  dd.polarizationId().put(0, 0);
  dd.flagRow().put(0, False);
}

void fill_observation_and_state(MeasurementSet& ms, const vis::VisMeta& meta) {
  // OSKAR adds ARRAY_CENTER (ITRF, m) to OBSERVATION.
  ArrayColumnDesc<Double> centre_desc("ARRAY_CENTER", IPosition(1, 3), ColumnDesc::FixedShape);
  set_position_keywords(centre_desc);
  ms.observation().addColumn(centre_desc);

  MSObservationColumns obs(ms.observation());
  ms.observation().addRow(1);
  const double start = meta.start_time_mjd_utc * kSecondsPerDay;
  const double end = start + meta.num_times * meta.time_inc_sec;
  Vector<Double> range(2);
  range(0) = start;
  range(1) = end;
  // OBSERVER: the user running the program, as OSKAR 2.13 (USERNAME, else USER, else
  // "Unknown"), unless meta.observer says otherwise.
  std::string observer = meta.observer;
  if (observer.empty()) {
    const char* user = std::getenv("USERNAME");
    if (!user) user = std::getenv("USER");
    observer = user ? user : "Unknown";
  }
  obs.telescopeName().put(0, meta.telescope_name);
  obs.observer().put(0, observer);
  obs.project().put(0, "");
  obs.timeRange().put(0, range);
  // RELEASE_DATE one Julian year after the end, LOG left undefined, as OSKAR 2.13.
  obs.releaseDate().put(0, end + kReleaseDelaySec);
  obs.scheduleType().put(0, "");
  obs.schedule().put(0, Vector<String>(1, ""));
  obs.flagRow().put(0, False);
  ArrayColumn<Double> centre(ms.observation(), "ARRAY_CENTER");
  Vector<Double> c(3);
  for (int k = 0; k < 3; ++k) c(k) = meta.array_centre_ecef_m[k];
  centre.put(0, c);

  MSStateColumns state(ms.state());
  ms.state().addRow(1);
  state.sig().put(0, True);
  state.ref().put(0, False);
  state.cal().put(0, 0.0);
  state.load().put(0, 0.0);
  state.subScan().put(0, 0);
  state.obsMode().put(0, "OBSERVE_TARGET#ON_SOURCE");
  state.flagRow().put(0, False);
}

}  // namespace

std::size_t tile_rows(std::size_t bytes_per_row, std::size_t rows_per_time) {
  constexpr double target = 1024.0 * 1024.0;
  bytes_per_row = std::max<std::size_t>(bytes_per_row, 1);
  rows_per_time = std::max<std::size_t>(rows_per_time, 1);
  const double dump_bytes = double(bytes_per_row) * double(rows_per_time);
  if (dump_bytes <= 8.0 * target) {
    return rows_per_time * static_cast<std::size_t>(std::ceil(target / dump_bytes));
  }
  return std::max<std::size_t>(1, static_cast<std::size_t>(target / double(bytes_per_row)));
}

double now_mjd_utc_sec() {
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration<double>(since_epoch).count() + kUnixEpochMjd * kSecondsPerDay;
}

void add_history_rows(MeasurementSet& ms, const std::vector<std::string>& lines,
                      const std::string& origin, const std::string& application) {
  if (lines.empty()) return;
  MSHistoryColumns hist(ms.history());
  const rownr_t row0 = ms.history().nrow();
  ms.history().addRow(lines.size());
  // Whole seconds, as OSKAR 2.13 (its HISTORY TIME is the system time in seconds).
  const double now = std::floor(now_mjd_utc_sec());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const rownr_t r = row0 + i;
    hist.time().put(r, now);
    hist.observationId().put(r, -1);  // OSKAR 2.13: -1 (no particular observation)
    hist.message().put(r, lines[i]);
    hist.priority().put(r, "INFO");
    hist.origin().put(r, origin);
    hist.objectId().put(r, 0);
    hist.application().put(r, application);
    hist.cliCommand().put(r, Vector<String>());
    hist.appParams().put(r, Vector<String>());
  }
}

std::unique_ptr<MeasurementSet> create_ms(const std::string& path, const vis::VisMeta& meta,
                                          int num_ms_pols, std::size_t rows_per_time) {
  std::unique_ptr<MeasurementSet> ms;
  try {
    create_main_and_default_subtables(path, num_ms_pols, meta.num_channels, rows_per_time, ms);
    fill_antenna_and_feed(*ms, meta);
    fill_field(*ms, meta);
    fill_spectral_window(*ms, meta);
    fill_polarization_and_data_description(*ms, num_ms_pols);
    fill_observation_and_state(*ms, meta);
    fill_phased_array(*ms, meta, num_ms_pols);
    // HISTORY as OSKAR 2.13 (docs/ms_output.md): the creation row (ORIGIN = APPLICATION),
    // then the settings file, one row per line, ORIGIN OSKAR_SETTINGS; fringe's run log
    // follows with ORIGIN FRINGE_LOG (its lines are not OSKAR's log format).
    add_history_rows(*ms, {"Measurement Set created at " + utc_text(now_mjd_utc_sec()) + " (UTC)"},
                     meta.application, meta.application);
    add_history_rows(*ms, meta.settings_lines, kMsSettingsOrigin, meta.application);
    add_history_rows(*ms, meta.log_lines, kMsLogOrigin, meta.application);
  } catch (...) {
    abandon_ms(ms);  // a half-built MS must not be written by its destructors
    throw;
  }
  return ms;
}

void abandon_ms(std::unique_ptr<MeasurementSet>& ms) noexcept {
  if (!ms) return;
  try {
    const TableRecord& keywords = ms->keywordSet();
    for (uInt i = 0; i < keywords.nfields(); ++i) {
      if (keywords.type(i) != TpTable) continue;
      try {
        Table sub = keywords.asTable(i);
        sub.markForDelete();
      } catch (...) {  // an unreadable subtable goes with the folder of the main table
      }
    }
  } catch (...) {
  }
  try {
    ms->markForDelete();
  } catch (...) {
  }
  try {
    ms.reset();
  } catch (...) {  // (casacore destructors are noexcept: nothing is thrown here in practice)
    ms.release();
  }
}

}  // namespace fringe::io::detail
