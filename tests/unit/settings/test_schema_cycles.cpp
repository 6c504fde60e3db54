// Schema imports that would never end (issue 16): a file or a settings group that imports
// itself, directly or through others, is refused with the chain of names, instead of
// overflowing the stack; groups that grow exponentially are bounded.
#include <gtest/gtest.h>

#include <string>

#include "fringe/core/error.h"
#include "fringe/settings/schema.h"

namespace {

using fringe::settings::Schema;
using fringe::settings::SchemaFiles;

std::string load_error(const SchemaFiles& files, const std::string& root) {
  try {
    Schema::load(files, root);
  } catch (const fringe::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SchemaCycles, FileImportingItselfNamesTheCycle) {
  const std::string e = load_error(
      {{"a.xml", "<root><s k=\"x\"><import filename=\"./a.xml\"/></s></root>"}}, "a.xml");
  EXPECT_NE(e.find("a.xml:1:"), std::string::npos) << e;
  EXPECT_NE(e.find("cycle: 'a.xml' -> 'a.xml'"), std::string::npos) << e;
}

TEST(SchemaCycles, FilesImportingEachOtherNameEveryFile) {
  const std::string e = load_error({{"top.xml", "<root><import filename=\"a.xml\"/></root>"},
                                    {"a.xml", "<root><import filename=\"b.xml\"/></root>"},
                                    {"b.xml", "<root>\n<import filename=\"a.xml\"/></root>"}},
                                   "top.xml");
  EXPECT_NE(e.find("b.xml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("'a.xml' -> 'b.xml' -> 'a.xml'"), std::string::npos) << e;
  EXPECT_EQ(e.find("top.xml' ->"), std::string::npos) << e;  // not part of the cycle
}

TEST(SchemaCycles, GroupNestingItselfIsRefusedAtOnce) {
  // Copying g into its own <s> nested one level per copy: the old loader went 10000 levels
  // deep before giving up (a stack overflow under sanitizers).
  const std::string e =
      load_error({{"a.xml",
                   "<root><group k=\"g\"><s k=\"x\"><import group=\"g\"/></s></group>"
                   "<import group=\"g\"/></root>"}},
                 "a.xml");
  EXPECT_NE(e.find("settings groups import each other in a cycle: 'g' -> 'g'"), std::string::npos)
      << e;
}

TEST(SchemaCycles, GroupsImportingEachOtherNameTheChain) {
  const std::string e =
      load_error({{"a.xml",
                   "<root><group k=\"g\"><s k=\"x\"><import group=\"h\"/></s></group>"
                   "<group k=\"h\"><s k=\"y\"><import group=\"g\"/></s></group>"
                   "<import group=\"g\"/></root>"}},
                 "a.xml");
  EXPECT_NE(e.find("'g' -> 'h' -> 'g'"), std::string::npos) << e;
}

TEST(SchemaCycles, ExponentialGroupsAreBounded) {
  // g_k imports g_(k-1) twice: 2^25 copies of g0's setting.
  std::string xml =
      "<root><group k=\"g0\"><s k=\"v\"><type name=\"Int\" default=\"1\"/></s></group>";
  for (int k = 1; k <= 25; ++k) {
    const std::string prev = "g" + std::to_string(k - 1);
    xml += "<group k=\"g" + std::to_string(k) + "\"><s k=\"a\"><import group=\"" + prev +
           "\"/></s><s k=\"b\"><import group=\"" + prev + "\"/></s></group>";
  }
  xml += "<import group=\"g25\"/></root>";
  const std::string e = load_error({{"a.xml", xml}}, "a.xml");
  EXPECT_NE(e.find("expand to more than"), std::string::npos) << e;
}

TEST(SchemaCycles, SharedGroupsStillExpandEverywhere) {
  const SchemaFiles files{
      {"a.xml",
       "<root><group k=\"leaf\"><s k=\"v\"><type name=\"Int\" default=\"3\"/></s></group>"
       "<group k=\"pair\"><s k=\"p\"><import group=\"leaf\"/></s><s k=\"q\">"
       "<import group=\"leaf\"/></s></group>"
       "<s k=\"one\"><import group=\"pair\"/></s><s k=\"two\"><import group=\"pair\"/></s>"
       "</root>"}};
  const Schema s = Schema::load(files, "a.xml");
  for (const char* key : {"one/p/v", "one/q/v", "two/p/v", "two/q/v"}) {
    ASSERT_TRUE(s.find(key)) << key;
    EXPECT_EQ(s.find(key)->default_value, "3");
  }
}

}  // namespace
