// The output guard: what may be replaced, what is refused, and that a refusal touches nothing.
#include "fringe/core/output_guard.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"

namespace fs = std::filesystem;
using fringe::OutputKind;
using fringe::OutputTarget;

namespace {

class OutputGuard : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fringe_guard_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string p(const std::string& name) const { return (dir_ / name).string(); }
  static void write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
  }
  static std::string read(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // A folder that looks like a casacore table of the given type.
  static void make_table(const std::string& path, const std::string& type) {
    fs::create_directories(path);
    write(path + "/table.dat", "x");
    write(path + "/table.info", "Type = " + type + "\nSubType = \n\n");
  }
  fs::path dir_;
};

OutputTarget ms_target(const std::string& path) {
  return OutputTarget{"interferometer/ms_filename", path, OutputKind::MeasurementSet, "", ""};
}

TEST_F(OutputGuard, NewPathInWritableFolderIsAccepted) {
  EXPECT_NO_THROW(fringe::check_output(ms_target(p("new.ms"))));
}

TEST_F(OutputGuard, FolderOfUserFilesIsRefusedAndUntouched) {
  fs::create_directories(p("results.ms"));
  write(p("results.ms/thesis.tex"), "my thesis");
  try {
    fringe::check_output(ms_target(p("results.ms")));
    FAIL() << "expected a refusal";
  } catch (const fringe::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("interferometer/ms_filename"), std::string::npos) << m;
    EXPECT_NE(m.find("a folder holding 1 entry"), std::string::npos) << m;
  }
  EXPECT_EQ(read(p("results.ms/thesis.tex")), "my thesis");
}

TEST_F(OutputGuard, EarlierOutputOfSameKindMayBeReplaced) {
  make_table(p("old.ms"), "Measurement Set");
  EXPECT_NO_THROW(fringe::check_output(ms_target(p("old.ms"))));
  make_table(p("gains"), "fringe gains");
  OutputTarget g{"calibrate/output_gains", p("gains"), OutputKind::CasacoreTable, "fringe gains",
                 ""};
  EXPECT_NO_THROW(fringe::check_output(g));
  g.path = p("old.ms");  // a table of another type
  EXPECT_THROW(fringe::check_output(g), fringe::Error);
}

TEST_F(OutputGuard, RegularFileRefusedForMsAndFits) {
  write(p("sky.osm"), "0 0 1\n");
  EXPECT_THROW(fringe::check_output(ms_target(p("sky.osm"))), fringe::Error);
  OutputTarget f{"image/root_path", p("sky.osm"), OutputKind::Fits, "", ""};
  EXPECT_THROW(fringe::check_output(f), fringe::Error);
  write(p("img.fits"), "SIMPLE  =                    T");
  f.path = p("img.fits");
  EXPECT_NO_THROW(fringe::check_output(f));
}

TEST_F(OutputGuard, TextNeedsItsSignatureAndFileNeverReplaces) {
  OutputTarget t{"k", p("g.csv"), OutputKind::Text, "", "# fringe gains"};
  write(p("g.csv"), "# fringe gains: x\n1,2\n");
  EXPECT_NO_THROW(fringe::check_output(t));
  write(p("g.csv"), "time,amp\n1,2\n");
  EXPECT_THROW(fringe::check_output(t), fringe::Error);
  OutputTarget any{"k", p("g.csv"), OutputKind::File, "", ""};
  EXPECT_THROW(fringe::check_output(any), fringe::Error);
}

TEST_F(OutputGuard, InputsAreNeverOutputs) {
  make_table(p("in.ms"), "Measurement Set");
  write(p("cal.ini"), "[calibrate]\n");
  OutputTarget g{"calibrate/output_gains", p("in.ms"), OutputKind::CasacoreTable, "", ""};
  const std::vector<std::string> inputs = {p("in.ms"), p("cal.ini")};
  EXPECT_THROW(fringe::check_output(g, inputs), fringe::Error);
  g.path = dir_.string();  // "." : the folder holding the inputs
  EXPECT_THROW(fringe::check_output(g, inputs), fringe::Error);
  g.path = p("in.ms/sub");  // inside an input
  EXPECT_THROW(fringe::check_output(g, inputs), fringe::Error);
  g.path = p("in.ms/../in.ms");  // the same input spelled differently
  EXPECT_THROW(fringe::check_output(g, inputs), fringe::Error);
  EXPECT_TRUE(fs::exists(p("in.ms/table.dat")));
}

TEST_F(OutputGuard, MissingFolderAndDuplicateOutputsRefused) {
  EXPECT_THROW(fringe::check_output(ms_target(p("no/such/dir/x.ms"))), fringe::Error);
  EXPECT_THROW(fringe::check_outputs({ms_target(p("a.ms")), ms_target(p("a.ms"))}), fringe::Error);
  EXPECT_NO_THROW(fringe::check_outputs({ms_target(p("a.ms")), ms_target(p("b.ms"))}));
}

TEST_F(OutputGuard, TemporaryCommitReplacesOnlyWhenComplete) {
  OutputTarget f{"k", p("img.fits"), OutputKind::Fits, "", ""};
  write(p("img.fits"), "SIMPLE  = old");
  {
    fringe::TemporaryOutput t(f);
    write(t.path(), "SIMPLE  = new");
    EXPECT_EQ(read(p("img.fits")), "SIMPLE  = old");  // untouched until commit
    t.commit();
  }
  EXPECT_EQ(read(p("img.fits")), "SIMPLE  = new");
  std::string temp;
  {
    fringe::TemporaryOutput t(f);
    temp = t.path();
    write(temp, "SIMPLE  = abandoned");
  }  // not committed: removed, final untouched
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_EQ(read(p("img.fits")), "SIMPLE  = new");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(OutputGuard, CommitRefusesWhatAppearedDuringTheRun) {
  OutputTarget f{"k", p("img.fits"), OutputKind::Fits, "", ""};
  fringe::TemporaryOutput t(f);
  write(t.path(), "SIMPLE  = new");
  write(p("img.fits"), "user notes");  // appeared after the check
  EXPECT_THROW(t.commit(), fringe::Error);
  EXPECT_EQ(read(p("img.fits")), "user notes");
}

TEST_F(OutputGuard, DescribePath) {
  EXPECT_EQ(fringe::describe_path(p("none")), "nothing");
  make_table(p("m.ms"), "Measurement Set");
  EXPECT_EQ(fringe::describe_path(p("m.ms")), "a Measurement Set");
  write(p("f"), "12345");
  EXPECT_EQ(fringe::describe_path(p("f")), "a file of 5 bytes");
}

}  // namespace
