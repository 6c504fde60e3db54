// Text table rules of OSKAR telescope files: separators, comments, numbers, errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/telescope/text_table.h"

namespace fs = std::filesystem;
using fringe::telescope::parse_number;
using fringe::telescope::read_int_column;
using fringe::telescope::read_number_table;
using fringe::telescope::read_text_rows;

namespace {

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "fringe_test_text_table";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

}  // namespace

TEST(TextTable, SeparatorsCommentsAndBlankLines) {
  const auto p = write_temp("sep.txt",
                            "# header\n"
                            "1 2 3\n"
                            "\n"
                            "   \t  \n"
                            "4,5,6  # trailing comment\n"
                            "7\t,\t8 ,, 9\r\n"
                            "#\n");
  const auto rows = read_text_rows(p);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].line, 2);
  EXPECT_EQ(rows[1].line, 5);
  EXPECT_EQ(rows[2].line, 6);
  for (const auto& r : rows) EXPECT_EQ(r.fields.size(), 3u);
  EXPECT_EQ(rows[2].fields[2], "9");
}

TEST(TextTable, NumbersWithDefaults) {
  const auto p = write_temp("num.txt", "1.5 -2e3\n+3 4 5\n");
  const auto t = read_number_table(p, 2, {0, 0, 7}, "a b [c]");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_DOUBLE_EQ(t[0][0], 1.5);
  EXPECT_DOUBLE_EQ(t[0][1], -2000.0);
  EXPECT_DOUBLE_EQ(t[0][2], 7.0);  // default for the missing column
  EXPECT_DOUBLE_EQ(t[1][0], 3.0);
  EXPECT_DOUBLE_EQ(t[1][2], 5.0);
}

TEST(TextTable, BadNumberNamesFileLineAndColumn) {
  const auto p = write_temp("bad.txt", "1 2\n# c\n3 abc\n");
  try {
    read_number_table(p, 2, {0, 0}, "a b");
    FAIL() << "expected fringe::Error";
  } catch (const fringe::Error& e) {
    EXPECT_EQ(e.context().line, 3);
    EXPECT_EQ(e.context().column, 2);
    EXPECT_NE(std::string(e.what()).find("bad.txt:3:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'abc'"), std::string::npos) << e.what();
  }
}

TEST(TextTable, RejectsNonFiniteAndPartialNumbers) {
  for (const char* s : {"nan", "inf", "-inf", "1.0.0", "2x", "", "+"}) {
    EXPECT_THROW(parse_number("f.txt", 1, 1, s), fringe::Error) << s;
  }
  EXPECT_DOUBLE_EQ(parse_number("f.txt", 1, 1, "1e-3"), 1e-3);
  EXPECT_DOUBLE_EQ(parse_number("f.txt", 1, 1, "+.5"), 0.5);
}

TEST(TextTable, ColumnCountOutOfRange) {
  const auto p = write_temp("cols.txt", "1 2\n1 2 3 4\n");
  try {
    read_number_table(p, 2, {0, 0, 0}, "a b [c]");
    FAIL() << "expected fringe::Error";
  } catch (const fringe::Error& e) {
    EXPECT_EQ(e.context().line, 2);
    EXPECT_NE(e.message().find("expected 2 to 3 columns"), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("found 4"), std::string::npos) << e.what();
  }
}

TEST(TextTable, IntegerColumn) {
  const auto p = write_temp("ints.txt", "0\n# skip\n12\n+3\n");
  std::vector<long> lines;
  const auto v = read_int_column(p, "index", &lines);
  ASSERT_EQ(v, (std::vector<int>{0, 12, 3}));
  EXPECT_EQ(lines, (std::vector<long>{1, 3, 4}));
  const auto bad = write_temp("ints_bad.txt", "0\n1.5\n");
  EXPECT_THROW(read_int_column(bad, "index"), fringe::Error);
}

TEST(TextTable, MissingFile) {
  EXPECT_THROW(read_text_rows("/nonexistent/fringe/none.txt"), fringe::Error);
}
