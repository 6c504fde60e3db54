// io/fits FitsImageWriter: round trips through CFITSIO's own reader (axes, WCS keywords,
// typed keywords, HISTORY, pixel values in both precisions, NaN), streamed writes in any
// order, the temporary name (never left behind, never visible as the final name before
// finish()), and errors that name the file and carry CFITSIO's message.
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/io/fits/fits_image_writer.h"

namespace fringe::io {
namespace {

namespace fs = std::filesystem;

std::string test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(FRINGE_BINARY_DIR) / "tests" / "tmp_io_fits" /
                       (std::string(info->test_suite_name()) + "_" + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// Names of the files in dir.
std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

// A minimal CFITSIO reader for the checks (independent of the writer's code).
class Reader {
 public:
  explicit Reader(const std::string& path) {
    int status = 0;
    fits_open_diskfile(&f_, path.c_str(), READONLY, &status);
    EXPECT_EQ(status, 0) << "cannot open " << path;
  }
  ~Reader() {
    int status = 0;
    if (f_) fits_close_file(f_, &status);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  int bitpix() {
    int status = 0, b = 0;
    fits_get_img_type(f_, &b, &status);
    return b;
  }
  std::vector<long> axes() {
    int status = 0, n = 0;
    fits_get_img_dim(f_, &n, &status);
    std::vector<long> a(static_cast<std::size_t>(n));
    fits_get_img_size(f_, n, a.data(), &status);
    return a;
  }
  double key_double(const std::string& name) {
    int status = 0;
    double v = 0;
    fits_read_key(f_, TDOUBLE, name.c_str(), &v, nullptr, &status);
    EXPECT_EQ(status, 0) << name;
    return v;
  }
  long key_long(const std::string& name) {
    int status = 0;
    long v = 0;
    fits_read_key(f_, TLONG, name.c_str(), &v, nullptr, &status);
    EXPECT_EQ(status, 0) << name;
    return v;
  }
  bool key_bool(const std::string& name) {
    int status = 0, v = 0;
    fits_read_key(f_, TLOGICAL, name.c_str(), &v, nullptr, &status);
    EXPECT_EQ(status, 0) << name;
    return v != 0;
  }
  std::string key_string(const std::string& name, std::string* comment = nullptr) {
    int status = 0;
    char v[FLEN_VALUE] = {0}, c[FLEN_COMMENT] = {0};
    fits_read_key(f_, TSTRING, name.c_str(), v, c, &status);
    EXPECT_EQ(status, 0) << name;
    if (comment) *comment = c;
    return v;
  }
  bool has_key(const std::string& name) {
    int status = 0;
    char card[FLEN_CARD] = {0};
    fits_read_card(f_, name.c_str(), card, &status);
    fits_clear_errmsg();
    return status == 0;
  }
  std::vector<std::string> history() {
    std::vector<std::string> out;
    int status = 0, n = 0;
    fits_get_hdrspace(f_, &n, nullptr, &status);
    for (int k = 1; k <= n; ++k) {
      char card[FLEN_CARD] = {0};
      fits_read_record(f_, k, card, &status);
      std::string c(card);
      if (c.rfind("HISTORY ", 0) == 0) out.push_back(c.substr(8));
    }
    return out;
  }
  std::vector<double> pixels(std::size_t n) {
    std::vector<double> v(n);
    int status = 0, anynul = 0;
    double nulval = 0;  // 0: no null substitution (NaN comes back as NaN)
    fits_read_img(f_, TDOUBLE, 1, static_cast<LONGLONG>(n), &nulval, v.data(), &anynul, &status);
    EXPECT_EQ(status, 0);
    return v;
  }

 private:
  fitsfile* f_ = nullptr;
};

FitsImageHeader cube_header(FitsPixelType type) {
  FitsImageHeader h;
  h.pixel_type = type;
  h.axes = {{5, "RA---SIN", 60.0, -0.25, 3.0, "deg", "Right Ascension"},
            {4, "DEC--SIN", -30.0, 0.25, 3.0, "deg", "Declination"},
            {3, "FREQ", 1.0e8, 2.5e7, 1.0, "Hz", "Frequency"},
            {2, "UTC", 5.22e9 + 0.123456789, 300.0, 1.0, "s", "Time"}};
  h.keywords = {{"EQUINOX", 2000.0, "J2000"},
                {"RADESYS", std::string("FK5"), ""},
                {"STATION", 7L, "telescope station index"},
                {"AVERAGED", true, ""},
                {"PRODUCT", std::string("AUTO_POWER_AMP"), "what the pixels hold"}};
  h.history = {"first line", std::string(150, 'x')};
  return h;
}

TEST(FitsImageWriter, RoundTripFloatCubeWithWcsAndKeywords) {
  const std::string dir = test_dir();
  const std::string path = dir + "/cube.fits";
  const FitsImageHeader h = cube_header(FitsPixelType::Float32);
  const std::size_t plane = 5 * 4, n = plane * 3 * 2;
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = 0.5f * float(i) - 3.0f;
  values[7] = std::numeric_limits<float>::quiet_NaN();
  {
    FitsImageWriter w(path, h);
    EXPECT_EQ(w.num_pixels(), n);
    // Planes in reverse order, the last one in two pieces.
    for (std::size_t p = 6; p-- > 0;) {
      if (p == 0) {
        w.write(0, std::span<const float>(values.data(), 7));
        w.write(7, std::span<const float>(values.data() + 7, plane - 7));
      } else {
        w.write(p * plane, std::span<const float>(values.data() + p * plane, plane));
      }
    }
    w.finish();
    EXPECT_TRUE(w.finished());
  }
  Reader r(path);
  EXPECT_EQ(r.bitpix(), FLOAT_IMG);
  EXPECT_EQ(r.axes(), (std::vector<long>{5, 4, 3, 2}));
  std::string comment;
  EXPECT_EQ(r.key_string("CTYPE1", &comment), "RA---SIN");
  EXPECT_EQ(comment, "Right Ascension");
  EXPECT_EQ(r.key_string("CTYPE4"), "UTC");
  EXPECT_EQ(r.key_string("CUNIT3"), "Hz");
  EXPECT_EQ(r.key_double("CRVAL1"), 60.0);
  EXPECT_EQ(r.key_double("CDELT1"), -0.25);
  EXPECT_EQ(r.key_double("CRPIX2"), 3.0);
  EXPECT_EQ(r.key_double("CRVAL4"), 5.22e9 + 0.123456789);  // 17 significant digits
  EXPECT_EQ(r.key_double("CDELT3"), 2.5e7);
  EXPECT_EQ(r.key_double("EQUINOX"), 2000.0);
  EXPECT_EQ(r.key_string("RADESYS"), "FK5");
  EXPECT_EQ(r.key_long("STATION"), 7);
  EXPECT_TRUE(r.key_bool("AVERAGED"));
  EXPECT_EQ(r.key_string("PRODUCT", &comment), "AUTO_POWER_AMP");
  EXPECT_EQ(comment, "what the pixels hold");
  EXPECT_TRUE(r.has_key("DATE"));
  const auto hist = r.history();
  ASSERT_GE(hist.size(), 3u);  // the long entry takes more than one card
  EXPECT_EQ(hist[0].substr(0, 10), "first line");
  const auto back = r.pixels(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i == 7) {
      EXPECT_TRUE(std::isnan(back[i]));
    } else {
      EXPECT_EQ(back[i], double(values[i])) << i;
    }
  }
  EXPECT_EQ(listing(dir), std::vector<std::string>{"cube.fits"});
}

TEST(FitsImageWriter, RoundTripDoubleIsExact) {
  const std::string dir = test_dir();
  const std::string path = dir + "/d.fits";
  FitsImageHeader h;
  h.pixel_type = FitsPixelType::Float64;
  h.axes = {{3, "X", 0, 1, 1, "", ""}, {2, "Y", 0, 1, 1, "", ""}};
  const std::vector<double> v = {1.0 / 3.0, -2e-300, 1e300, std::nextafter(1.0, 2.0), -0.0, 42.0};
  write_fits_image(path, h, std::span<const double>(v));
  Reader r(path);
  EXPECT_EQ(r.bitpix(), DOUBLE_IMG);
  EXPECT_EQ(r.axes(), (std::vector<long>{3, 2}));
  EXPECT_EQ(r.pixels(6), v);
  EXPECT_FALSE(r.has_key("CUNIT1"));  // empty strings are not written
}

TEST(FitsImageWriter, DoubleValuesIntoFloatImageAreRounded) {
  const std::string path = test_dir() + "/f.fits";
  FitsImageHeader h;
  h.axes = {{2, "", 0, 1, 1, "", ""}};
  const std::vector<double> v = {1.0 / 3.0, 2.5};
  write_fits_image(path, h, std::span<const double>(v));
  Reader r(path);
  EXPECT_EQ(r.bitpix(), FLOAT_IMG);
  EXPECT_EQ(r.pixels(2), (std::vector<double>{double(float(1.0 / 3.0)), 2.5}));
}

TEST(FitsImageWriter, TemporaryNameUntilFinish) {
  const std::string dir = test_dir();
  const std::string path = dir + "/img.fits";
  FitsImageHeader h;
  h.axes = {{4, "", 0, 1, 1, "", ""}, {4, "", 0, 1, 1, "", ""}};
  FitsImageWriter w(path, h);
  EXPECT_EQ(w.path(), path);
  EXPECT_EQ(w.temporary_path().rfind(path + ".tmp-", 0), 0u) << w.temporary_path();
  const std::vector<float> row(4, 1.0f);
  w.write(4, row);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::exists(w.temporary_path()));
  w.finish();
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(w.temporary_path()));
  Reader r(path);
  const auto px = r.pixels(16);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(px[i], (i >= 4 && i < 8) ? 1.0 : 0.0) << i;
}

TEST(FitsImageWriter, UnfinishedWriterLeavesNothingAndKeepsOldFile) {
  const std::string dir = test_dir();
  const std::string path = dir + "/keep.fits";
  FitsImageHeader h;
  h.axes = {{8, "", 0, 1, 1, "", ""}};
  write_fits_image(path, h, std::vector<float>(8, 1.0f));  // an earlier output
  std::string temp;
  {
    FitsImageWriter w(path, h);
    temp = w.temporary_path();
    w.write(0, std::vector<float>(8, 2.0f));
    EXPECT_TRUE(fs::exists(temp));
  }  // destroyed without finish(), as when a run fails
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_EQ(listing(dir), std::vector<std::string>{"keep.fits"});
  Reader r(path);
  EXPECT_EQ(r.pixels(8), std::vector<double>(8, 1.0));
}

TEST(FitsImageWriter, FinishReplacesAnExistingFile) {
  const std::string dir = test_dir();
  const std::string path = dir + "/again.fits";
  FitsImageHeader h;
  h.axes = {{2, "", 0, 1, 1, "", ""}};
  write_fits_image(path, h, std::vector<float>{1, 2});
  write_fits_image(path, h, std::vector<float>{3, 4});
  Reader r(path);
  EXPECT_EQ(r.pixels(2), (std::vector<double>{3, 4}));
  EXPECT_EQ(listing(dir), std::vector<std::string>{"again.fits"});
}

TEST(FitsImageWriter, ClosedBetweenWrites) {
  const std::string dir = test_dir();
  const std::string path = dir + "/closed.fits";
  FitsImageHeader h = cube_header(FitsPixelType::Float64);
  FitsImageWriter w(path, h, /*keep_open=*/false);
  const std::size_t n = w.num_pixels();
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = double(i);
  for (std::size_t i = 0; i < n; i += 20) {
    w.write(i, std::span<const double>(v.data() + i, std::min<std::size_t>(20, n - i)));
  }
  w.finish();
  Reader r(path);
  EXPECT_EQ(r.pixels(n), v);
  EXPECT_EQ(r.key_string("CTYPE2"), "DEC--SIN");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"closed.fits"});
}

TEST(FitsImageWriter, NamesWithCfitsioSyntaxCharacters) {
  const std::string dir = test_dir();
  const std::string path = dir + "/odd[1]!name.fits";
  FitsImageHeader h;
  h.axes = {{1, "", 0, 1, 1, "", ""}};
  write_fits_image(path, h, std::vector<float>{5});
  EXPECT_TRUE(fs::exists(path));
  Reader r(path);
  EXPECT_EQ(r.pixels(1), (std::vector<double>{5}));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(FitsImageWriter, ErrorsNameTheFileAndCfitsio) {
  const std::string dir = test_dir();
  FitsImageHeader h;
  h.axes = {{2, "", 0, 1, 1, "", ""}};
  const std::string missing = dir + "/no_such_folder/x.fits";
  const std::string e1 = error_of([&] { FitsImageWriter w(missing, h); });
  EXPECT_NE(e1.find(missing), std::string::npos) << e1;
  EXPECT_NE(e1.find("does not exist"), std::string::npos) << e1;

  {
    const std::string path = dir + "/y.fits";
    FitsImageWriter w(path, h);
    const std::string e2 = error_of([&] { w.write(1, std::vector<float>{1, 2}); });
    EXPECT_NE(e2.find(path), std::string::npos) << e2;
    EXPECT_NE(e2.find("past the end"), std::string::npos) << e2;
  }

  FitsImageHeader none;
  EXPECT_NE(error_of([&] { FitsImageWriter x(dir + "/z.fits", none); }).find("0 axes"),
            std::string::npos);
  FitsImageHeader five;
  five.axes.assign(5, FitsAxis{});
  EXPECT_NE(error_of([&] { FitsImageWriter x(dir + "/z.fits", five); }).find("1 to 4"),
            std::string::npos);
  FitsImageHeader empty_axis;
  empty_axis.axes = {{0, "", 0, 1, 1, "", ""}};
  EXPECT_NE(error_of([&] { FitsImageWriter x(dir + "/z.fits", empty_axis); }).find("length 0"),
            std::string::npos);

  const std::string e3 =
      error_of([&] { write_fits_image(dir + "/short.fits", h, std::vector<float>{1}); });
  EXPECT_NE(e3.find("1 values for a FITS image of 2 pixels"), std::string::npos) << e3;
  // A folder at the path is refused before anything is written (output_guard.h).
  fs::create_directories(dir + "/folder.fits/inside");
  const std::string e4 = error_of([&] {
    write_fits_image(dir + "/folder.fits", h, std::vector<float>{1, 2});
  });
  EXPECT_NE(e4.find("refusing to replace a folder"), std::string::npos) << e4;
  EXPECT_TRUE(fs::is_directory(dir + "/folder.fits/inside"));
  for (const auto& name : listing(dir)) EXPECT_EQ(name.find(".tmp-"), std::string::npos) << name;
}

}  // namespace
}  // namespace fringe::io
