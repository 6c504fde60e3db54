// libFuzzer target: the metadata and column reads of MsReader (fringe/io/ms/ms_reader.h).
//
// Fuzzing the bytes of a casacore table would fuzz casacore's own storage managers (not
// hardened against hostile files, not ours to fix). Instead the input describes a small
// Measurement Set, which this harness writes through casacore with inconsistent metadata:
// NUM_CHAN / NUM_CORR disagreeing with CHAN_FREQ / CORR_TYPE and the DATA cells, missing or
// empty subtable rows, undefined cells, PHASE_DIR of any shape, variable-shape DATA/FLAG/WEIGHT
// cells, any ANTENNA1/2 values. MsReader, and the imager's read of the MS
// (fuzz_ms_imager_read.cpp: channel, correlation and row selection), must answer every call with
// values or an exception naming the MS: a fringe::Error, or a casacore::AipsError, whose messages
// name the table (e.g. "no array in row 1 in column CHAN_FREQ of table <ms>/SPECTRAL_WINDOW").
// Crashes, out-of-bounds reads, leaks, undefined behaviour and other exceptions are findings.
// C++17, like fringe::io_ms (casacore 3.5's headers are not C++20-clean).
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/SetupNewTab.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fringe/io/ms/ms_reader.h"
#include "tests/fuzz/fuzz_support.h"

namespace fringe::fuzz {
// fuzz_ms_imager_read.cpp: the imager's read of the MS for image product `product` (0..4).
void imager_read(const std::string& ms_path, int product);
}  // namespace fringe::fuzz

namespace {
using casacore::IPosition;
using casacore::MeasurementSet;
using casacore::Table;
using MS = casacore::MeasurementSet;

// Reads the input front to back; zeros once it is used up.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  unsigned u8() { return pos_ < size_ ? data_[pos_++] : 0u; }
  int small(int n) { return static_cast<int>(u8() % static_cast<unsigned>(n)); }  // 0..n-1
  // Mostly small integers around the valid ranges, sometimes any 32-bit value.
  int integer() {
    const unsigned b = u8();
    if (b < 240) return static_cast<int>(b % 16) - 2;
    std::int32_t v = 0;
    for (int i = 0; i < 4; ++i) v = static_cast<std::int32_t>((std::uint32_t(v) << 8) | u8());
    return v;
  }
  // Ordinary values, special values (0, negative, NaN, Inf) or raw 8-byte doubles.
  double real() {
    static const double special[] = {0.0,    1.0,     -1.0, 1e8,  1.4e9, 1e300, -1e300, 1e-300,
                                     5e-324, 3.14159, 1e15, -1e6, 0.5,   2.0,   4.9e9,  1.0 / 0.0};
    const unsigned b = u8();
    if (b < 200) return special[b % 16];
    if (b < 230) return b == 229 ? std::nan("") : -(b * 1e6);
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | u8();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  std::string text() {
    std::string s;
    for (int n = small(8); n > 0; --n) s.push_back(static_cast<char>(' ' + small(95)));
    return s;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// An array cell of `shape` filled from the input, or left undefined when skip is set.
template <typename T, typename Fill>
void put_cell(casacore::ArrayColumn<T>& col, casacore::rownr_t row, const IPosition& shape,
              Fill fill) {
  casacore::Array<T> a(shape);
  for (auto& v : a) v = fill();
  col.put(row, a);
}

void write_ms(const std::string& path, Bytes& in) {
  casacore::TableDesc desc = MS::requiredTableDesc();
  MS::addColumnToDesc(desc, MS::DATA, 2);  // variable shape, as some MS writers make it
  casacore::SetupNewTable setup(path, desc, Table::New);
  const int nrow = in.small(7);
  MeasurementSet ms(setup, static_cast<casacore::rownr_t>(nrow));
  ms.createDefaultSubtables(Table::New);

  // ANTENNA: names and POSITION (fixed shape 3).
  {
    Table ant = ms.antenna();
    const int n = in.small(6);
    ant.addRow(n);
    casacore::ScalarColumn<casacore::String> name(ant, "NAME");
    casacore::ArrayColumn<casacore::Double> pos(ant, "POSITION");
    for (int r = 0; r < n; ++r) {
      name.put(r, in.text());
      if (in.small(4)) put_cell(pos, r, IPosition(1, 3), [&] { return in.real(); });
    }
  }
  // SPECTRAL_WINDOW: NUM_CHAN independent of the CHAN_FREQ / CHAN_WIDTH lengths.
  {
    Table spw = ms.spectralWindow();
    const int n = in.small(3);
    spw.addRow(n);
    casacore::ScalarColumn<casacore::Int> num(spw, "NUM_CHAN");
    casacore::ArrayColumn<casacore::Double> freq(spw, "CHAN_FREQ");
    casacore::ArrayColumn<casacore::Double> width(spw, "CHAN_WIDTH");
    for (int r = 0; r < n; ++r) {
      num.put(r, in.integer());
      if (in.small(4)) put_cell(freq, r, IPosition(1, in.small(6)), [&] { return in.real(); });
      if (in.small(4)) put_cell(width, r, IPosition(1, in.small(6)), [&] { return in.real(); });
    }
  }
  // POLARIZATION: NUM_CORR independent of CORR_TYPE.
  {
    Table pol = ms.polarization();
    const int n = in.small(3);
    pol.addRow(n);
    casacore::ScalarColumn<casacore::Int> num(pol, "NUM_CORR");
    casacore::ArrayColumn<casacore::Int> type(pol, "CORR_TYPE");
    for (int r = 0; r < n; ++r) {
      num.put(r, in.integer());
      if (in.small(4)) put_cell(type, r, IPosition(1, in.small(6)), [&] { return in.integer(); });
    }
  }
  // FIELD: PHASE_DIR of any 2-D shape (normally 2 x 1).
  {
    Table field = ms.field();
    const int n = in.small(3);
    field.addRow(n);
    casacore::ArrayColumn<casacore::Double> dir(field, "PHASE_DIR");
    for (int r = 0; r < n; ++r) {
      if (in.small(4)) {
        put_cell(dir, r, IPosition(2, in.small(4), in.small(3)), [&] { return in.real(); });
      }
    }
  }
  // OBSERVATION: the telescope name.
  {
    Table obs = ms.observation();
    const int n = in.small(2);
    obs.addRow(n);
    casacore::ScalarColumn<casacore::String> name(obs, "TELESCOPE_NAME");
    for (int r = 0; r < n; ++r) name.put(r, in.text());
  }
  // Main table: scalars, UVW (fixed shape 3) and variable-shape DATA, FLAG, WEIGHT cells.
  casacore::ScalarColumn<casacore::Double> time(ms, "TIME"), interval(ms, "INTERVAL"),
      exposure(ms, "EXPOSURE");
  casacore::ScalarColumn<casacore::Int> a1(ms, "ANTENNA1"), a2(ms, "ANTENNA2");
  casacore::ArrayColumn<casacore::Double> uvw(ms, "UVW");
  casacore::ArrayColumn<casacore::Complex> data(ms, "DATA");
  casacore::ArrayColumn<casacore::Bool> flag(ms, "FLAG");
  casacore::ArrayColumn<casacore::Float> weight(ms, "WEIGHT");
  const IPosition first(2, in.small(5), in.small(5));
  for (int r = 0; r < nrow; ++r) {
    time.put(r, in.real());
    interval.put(r, in.real());
    exposure.put(r, in.real());
    a1.put(r, in.integer());
    a2.put(r, in.integer());
    put_cell(uvw, r, IPosition(1, 3), [&] { return in.real(); });
    const IPosition shape = in.small(4) ? first : IPosition(2, in.small(5), in.small(5));
    if (in.small(8)) {
      put_cell(data, r, shape, [&] {
        return casacore::Complex(static_cast<float>(in.real()), static_cast<float>(in.real()));
      });
    }
    put_cell(flag, r, in.small(4) ? shape : IPosition(2, in.small(5), in.small(5)),
             [&] { return in.small(2) == 1; });
    put_cell(weight, r, IPosition(1, in.small(4) ? shape[0] : in.small(5)),
             [&] { return static_cast<float>(in.real()); });
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& scratch = fringe::fuzz::scratch();
  scratch.clear();
  const std::string path = (scratch.path() / "fuzz.ms").string();
  Bytes in(data, size);
  write_ms(path, in);  // the harness itself: any failure here is a harness bug

  using fringe::io::MsReader;
  const auto expect_clean_failure = [](const char* what, auto&& fn) {
    fringe::fuzz::expect_clean_failure(what, [&] {
      try {
        fn();
      } catch (const casacore::AipsError&) {
        // casacore's message names the table and the column: acceptable.
      }
    });
  };
  expect_clean_failure("ms", [&] {
    const MsReader ms(path);
    expect_clean_failure("ms num_rows", [&] { (void)ms.num_rows(); });
    expect_clean_failure("ms num_stations", [&] { (void)ms.num_stations(); });
    expect_clean_failure("ms num_channels", [&] { (void)ms.num_channels(); });
    expect_clean_failure("ms num_pols", [&] { (void)ms.num_pols(); });
    for (int spw : {0, 1, -1}) {
      expect_clean_failure("ms channel_frequencies_hz",
                           [&] { (void)ms.channel_frequencies_hz(spw); });
      expect_clean_failure("ms channel_widths_hz", [&] { (void)ms.channel_widths_hz(spw); });
    }
    expect_clean_failure("ms corr_types", [&] { (void)ms.corr_types(); });
    expect_clean_failure("ms station_names", [&] { (void)ms.station_names(); });
    expect_clean_failure("ms station_positions", [&] { (void)ms.station_positions_ecef_m(); });
    expect_clean_failure("ms phase_centre", [&] { (void)ms.phase_centre_rad(); });
    expect_clean_failure("ms telescope_name", [&] { (void)ms.telescope_name(); });
    expect_clean_failure("ms storage_manager", [&] { (void)ms.storage_manager("DATA"); });
    const std::size_t n = ms.num_rows();
    for (const std::size_t start : {std::size_t{0}, n / 2, n, n + 1}) {
      expect_clean_failure("ms read_time", [&] { (void)ms.read_time(start); });
      expect_clean_failure("ms read_interval", [&] { (void)ms.read_interval(start); });
      expect_clean_failure("ms read_exposure", [&] { (void)ms.read_exposure(start); });
      expect_clean_failure("ms read_antenna1", [&] { (void)ms.read_antenna1(start); });
      expect_clean_failure("ms read_antenna2", [&] { (void)ms.read_antenna2(start); });
      expect_clean_failure("ms read_uvw", [&] { (void)ms.read_uvw(start); });
      expect_clean_failure("ms read_data", [&] { (void)ms.read_data(start); });
      expect_clean_failure("ms read_flag", [&] { (void)ms.read_flag(start); });
      expect_clean_failure("ms read_weight", [&] { (void)ms.read_weight(start); });
    }
  });
  // The imager's selections from this metadata (its reader opens the MS itself).
  const int product = static_cast<int>(in.small(5));
  expect_clean_failure("imager read", [&] { fringe::fuzz::imager_read(path, product); });
  return 0;
}
