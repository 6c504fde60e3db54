// Hdf5File against tests/data/hdf5/reader_cases.h5, written by h5py (make_files.py there), whose
// values are formulas stated again here, so a wrong reader (member order, trailing dimension,
// row-major order, type conversion) fails.
#include "fringe/io/hdf5/hdf5_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"
#include "tests/support/error_of.h"

namespace {

using fringe::io::Hdf5File;
using fringe::io::Hdf5Kind;

const std::string kFile = std::string(FRINGE_SOURCE_DIR) + "/tests/data/hdf5/reader_cases.h5";

// The message of the fringe::Error thrown by f (fails the test when none is thrown).
using fringe::test::error_of;

TEST(Hdf5File, ListsMembersAndKinds) {
  Hdf5File f(kFile);
  EXPECT_EQ(f.groups(), std::vector<std::string>({"grp"}));
  EXPECT_EQ(f.datasets(), std::vector<std::string>(
                              {"cplx", "cplx64", "ints", "pairs", "real", "scalar", "text"}));
  EXPECT_EQ(f.datasets("/grp"), std::vector<std::string>({"inner"}));
  EXPECT_EQ(f.kind("grp/inner"), Hdf5Kind::Dataset);
  EXPECT_EQ(f.kind("/grp"), Hdf5Kind::Group);
  EXPECT_EQ(f.kind("nope/inner"), Hdf5Kind::Missing);
  EXPECT_FALSE(f.has_dataset("grp"));
  EXPECT_TRUE(f.has_dataset("/cplx"));
}

TEST(Hdf5File, ReadsCompoundComplexRowMajor) {
  Hdf5File f(kFile);
  for (const char* name : {"cplx", "cplx64"}) {
    const fringe::io::Hdf5Complex c = f.read_complex(name);
    ASSERT_EQ(c.dims, std::vector<std::size_t>({2, 3})) << name;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        // cplx[i, j] = (i + 1) + 1j (j - 1), exact in float and double.
        EXPECT_EQ(c.values[i * 3 + j].real(), i + 1.0) << name;
        EXPECT_EQ(c.values[i * 3 + j].imag(), j - 1.0) << name;
      }
  }
  EXPECT_EQ(f.dims("cplx"), std::vector<std::size_t>({2, 3}));
}

TEST(Hdf5File, ReadsTrailingPairAsComplex) {
  Hdf5File f(kFile);
  const fringe::io::Hdf5Complex c = f.read_complex("pairs");  // float32 (2, 4, 2)
  ASSERT_EQ(c.dims, std::vector<std::size_t>({2, 4}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(c.values[i * 4 + j].real(), 10.0 * i + j);
      EXPECT_EQ(c.values[i * 4 + j].imag(), -1.0 * j);
    }
}

TEST(Hdf5File, ReadsRealsAndIntegersAsDouble) {
  Hdf5File f(kFile);
  const fringe::io::Hdf5Real r = f.read_real("real");
  ASSERT_EQ(r.dims, std::vector<std::size_t>({2, 3}));
  for (int k = 0; k < 6; ++k) EXPECT_EQ(r.values[k], 0.5 * k);
  EXPECT_EQ(f.read_real("ints").values, std::vector<double>({3, -4, 5}));
  const fringe::io::Hdf5Real s = f.read_real("scalar");
  EXPECT_TRUE(s.dims.empty());
  EXPECT_EQ(s.values, std::vector<double>({7.25}));
  const fringe::io::Hdf5Complex rc = f.read_real_or_complex("ints");
  EXPECT_EQ(rc.values[1], std::complex<double>(-4, 0));
}

TEST(Hdf5File, ReadsAttributes) {
  Hdf5File f(kFile);
  EXPECT_EQ(f.attribute_double("cplx", "scale"), 2.5);
  EXPECT_EQ(f.attribute_string("cplx", "unit"), "volt");
  EXPECT_EQ(f.attribute_string("cplx", "fixed"), "abc");
  EXPECT_EQ(f.attribute_doubles("cplx", "vector"), std::vector<double>({1, 2, 3}));
  EXPECT_EQ(f.attribute_double("/grp", "count"), 4.0);
  EXPECT_EQ(f.attribute_string("/", "title"), "reader cases");
  EXPECT_FALSE(f.attribute_double("cplx", "absent").has_value());
  EXPECT_FALSE(f.has_attribute("cplx", "absent"));
}

TEST(Hdf5File, ErrorsNameFileDatasetAndExpectation) {
  Hdf5File f(kFile);
  std::string m = error_of([&] { f.read_complex("missing_one"); });
  EXPECT_NE(m.find(kFile), std::string::npos) << m;
  EXPECT_NE(m.find("'missing_one' is missing"), std::string::npos) << m;
  m = error_of([&] { f.read_complex("real"); });  // float, last dimension 3
  EXPECT_NE(m.find("dataset 'real': expected complex"), std::string::npos) << m;
  EXPECT_NE(m.find("last dimension 3"), std::string::npos) << m;
  m = error_of([&] { f.read_real("text"); });
  EXPECT_NE(m.find("dataset 'text': expected real numbers"), std::string::npos) << m;
  EXPECT_NE(m.find("found string"), std::string::npos) << m;
  m = error_of([&] { f.read_real("cplx"); });
  EXPECT_NE(m.find("found compound of 2 members"), std::string::npos) << m;
  m = error_of([&] { f.attribute_double("cplx", "unit"); });
  EXPECT_NE(m.find("attribute 'unit' of 'cplx': expected a number"), std::string::npos) << m;
  m = error_of([&] { f.attribute_double("cplx", "vector"); });
  EXPECT_NE(m.find("expected one number, found 3"), std::string::npos) << m;
  m = error_of([&] { f.members("cplx"); });
  EXPECT_NE(m.find("'cplx' is not a group"), std::string::npos) << m;
}

TEST(Hdf5File, RefusesMissingAndNonHdf5Files) {
  std::string m = error_of([] { Hdf5File f("/nonexistent/dir/x.h5"); });
  EXPECT_NE(m.find("/nonexistent/dir/x.h5: cannot open HDF5 file"), std::string::npos) << m;
  const std::filesystem::path p =
      std::filesystem::path(::testing::TempDir()) / "fringe_not_hdf5.h5";
  { std::ofstream(p) << "plain text, not HDF5\n"; }
  m = error_of([&] { Hdf5File f(p.string()); });
  EXPECT_NE(m.find(p.string() + ": cannot open HDF5 file"), std::string::npos) << m;
  std::filesystem::remove(p);
}

}  // namespace
