#include "fringe/io/ms/gain_table.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/tables/DataMan/StandardStMan.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScaColDesc.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/SetupNewTab.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableDesc.h>
#include <casacore/tables/Tables/TableInfo.h>
#include <casacore/tables/Tables/TableRecord.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/io/ms/write_error.h"

namespace fringe::io {

namespace fs = std::filesystem;
using casacore::IPosition;

namespace {

Error table_error(const std::string& path, const std::string& what) {
  return Error::in_file(path, 0, what);
}

}  // namespace

OutputTarget gain_table_target(const std::string& key, const std::string& path) {
  OutputTarget t;
  t.key = key;
  t.path = path;
  t.kind = OutputKind::CasacoreTable;
  t.table_type = kGainTableType;
  return t;
}

OutputTarget gain_csv_target(const std::string& key, const std::string& path) {
  OutputTarget t;
  t.key = key;
  t.path = path;
  t.kind = OutputKind::Text;
  t.text_signature = kGainCsvSignature;
  return t;
}

namespace {

void fill_gain_table(casacore::Table& table, const GainTable& t) {
  // table.info "Type = fringe gains": how output_guard recognises an earlier gain table.
  table.tableInfo().setType(kGainTableType);
  table.tableInfo().readmeAddLine("fringe gain solutions or true gains (docs/calibration.md)");
  table.rwKeywordSet().define("GAIN_TYPE", t.gain_type);
  table.rwKeywordSet().define("REFERENCE_ANTENNA", t.reference_station);
  table.rwKeywordSet().define("CONVENTION", "V_pq = G_p M_pq G_q^H");
  casacore::Vector<casacore::String> names(t.station_names.size());
  for (std::size_t i = 0; i < t.station_names.size(); ++i) names(i) = t.station_names[i];
  table.rwKeywordSet().define("STATION_NAMES", names);
  casacore::ScalarColumn<casacore::Double> time(table, "TIME"), interval(table, "INTERVAL"),
      freq(table, "FREQUENCY"), before(table, "RMS_BEFORE"), after(table, "RMS_AFTER");
  casacore::ScalarColumn<casacore::Int> ant(table, "ANTENNA1"), c0(table, "CHAN_START"),
      c1(table, "CHAN_END"), iters(table, "ITERATIONS");
  casacore::ScalarColumn<casacore::Bool> flag(table, "FLAG");
  casacore::ScalarColumn<casacore::String> state(table, "STATE");
  casacore::ArrayColumn<casacore::DComplex> gain(table, "GAIN");
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const GainTableRow& row = t.rows[r];
    time.put(r, row.time_mjd_sec);
    interval.put(r, row.interval_sec);
    freq.put(r, row.frequency_hz);
    before.put(r, row.rms_before);
    after.put(r, row.rms_after);
    ant.put(r, row.station);
    c0.put(r, row.chan_start);
    c1.put(r, row.chan_end);
    iters.put(r, row.iterations);
    flag.put(r, row.flag);
    state.put(r, row.state);
    casacore::Vector<casacore::DComplex> g(4);
    for (int k = 0; k < 4; ++k) g(k) = casacore::DComplex(row.gain[k].re, row.gain[k].im);
    gain.put(r, g);
  }
}

casacore::TableDesc gain_table_desc() {
  casacore::TableDesc desc(kGainTableType, "1", casacore::TableDesc::Scratch);
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Double>("TIME"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Double>("INTERVAL"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Int>("ANTENNA1"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Int>("CHAN_START"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Int>("CHAN_END"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Double>("FREQUENCY"));
  desc.addColumn(casacore::ArrayColumnDesc<casacore::DComplex>(
      "GAIN", "Jones matrix XX XY YX YY", IPosition(1, 4), casacore::ColumnDesc::FixedShape));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Bool>("FLAG"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Int>("ITERATIONS"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::String>("STATE"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Double>("RMS_BEFORE"));
  desc.addColumn(casacore::ScalarColumnDesc<casacore::Double>("RMS_AFTER"));
  return desc;
}

}  // namespace

void write_gain_table(const std::string& path, const GainTable& t) {
  if (path.empty()) throw Error("gain table: empty output path");
  const OutputTarget target = gain_table_target("", path);
  check_output(target);
  TemporaryOutput temp(target);  // removed below on failure, and on SIGINT/SIGTERM
  try {
    casacore::SetupNewTable setup(temp.path(), gain_table_desc(), casacore::Table::New);
    casacore::StandardStMan ssm;
    setup.bindAll(ssm);
    casacore::Table table(setup, t.rows.size());
    try {
      fill_gain_table(table, t);
      table.flush();  // explicitly: a write error is an exception here, not in ~Table
    } catch (...) {
      // Marked for delete, the table's destructor writes nothing (a failed write there would
      // abort the process) and removes its files.
      table.markForDelete();
      throw;
    }
  } catch (const std::exception& e) {
    temp.discard();
    throw table_error(path, std::string("cannot write the gain table (temporary '") + temp.path() +
                                "' removed): " + detail::write_failure_text(e.what()));
  }
  temp.commit();
}

void write_gain_csv(const std::string& path, const GainTable& t) {
  if (path.empty()) throw Error("gain CSV: empty output path");
  const OutputTarget target = gain_csv_target("", path);
  check_output(target);
  TemporaryOutput temp(target);
  {
    std::ofstream out(temp.path());
    if (!out) throw table_error(path, "cannot create the gain CSV file (as '" + temp.path() + "')");
    // The first line starts with kGainCsvSignature (how a later run recognises this file).
    out << kGainCsvSignature << ": GAIN_TYPE=" << t.gain_type
        << " REFERENCE_ANTENNA=" << t.reference_station << " CONVENTION=V_pq = G_p M_pq G_q^H\n";
    out << "time_mjd_s,interval_s,station,chan_start,chan_end,frequency_hz,"
           "xx_re,xx_im,xy_re,xy_im,yx_re,yx_im,yy_re,yy_im,flag,iterations,state,rms_before,"
           "rms_after\n";
    out << std::setprecision(17);
    for (const GainTableRow& r : t.rows) {
      out << r.time_mjd_sec << ',' << r.interval_sec << ',' << r.station << ',' << r.chan_start
          << ',' << r.chan_end << ',' << r.frequency_hz;
      for (const auto& g : r.gain) out << ',' << g.re << ',' << g.im;
      out << ',' << (r.flag ? 1 : 0) << ',' << r.iterations << ',' << r.state << ',' << r.rms_before
          << ',' << r.rms_after << '\n';
    }
    out.close();
    if (!out) {
      temp.discard();
      throw table_error(path,
                        "writing the gain CSV file failed (disk full or file too large?); "
                        "temporary '" +
                            temp.path() + "' removed");
    }
  }
  temp.commit();
}

GainTable read_gain_table(const std::string& path) {
  GainTable t;
  try {
    if (!casacore::Table::isReadable(path)) throw table_error(path, "not a readable table");
    casacore::Table table(path);
    if (!table.tableDesc().isColumn("GAIN")) throw table_error(path, "not a fringe gain table");
    t.gain_type = table.keywordSet().asString("GAIN_TYPE");
    t.reference_station = table.keywordSet().asInt("REFERENCE_ANTENNA");
    const casacore::Vector<casacore::String> names =
        table.keywordSet().asArrayString("STATION_NAMES");
    for (const auto& n : names) t.station_names.push_back(n);
    casacore::ScalarColumn<casacore::Double> time(table, "TIME"), interval(table, "INTERVAL"),
        freq(table, "FREQUENCY"), before(table, "RMS_BEFORE"), after(table, "RMS_AFTER");
    casacore::ScalarColumn<casacore::Int> ant(table, "ANTENNA1"), c0(table, "CHAN_START"),
        c1(table, "CHAN_END"), iters(table, "ITERATIONS");
    casacore::ScalarColumn<casacore::Bool> flag(table, "FLAG");
    casacore::ScalarColumn<casacore::String> state(table, "STATE");
    casacore::ArrayColumn<casacore::DComplex> gain(table, "GAIN");
    t.rows.resize(table.nrow());
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      GainTableRow& row = t.rows[r];
      row.time_mjd_sec = time(r);
      row.interval_sec = interval(r);
      row.frequency_hz = freq(r);
      row.rms_before = before(r);
      row.rms_after = after(r);
      row.station = ant(r);
      row.chan_start = c0(r);
      row.chan_end = c1(r);
      row.iterations = iters(r);
      row.flag = flag(r);
      row.state = state(r);
      const casacore::Vector<casacore::DComplex> g = gain(r);
      for (int k = 0; k < 4; ++k) row.gain[k] = {g(k).real(), g(k).imag()};
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw table_error(path, std::string("cannot read the gain table: ") + e.what());
  }
  return t;
}

}  // namespace fringe::io
