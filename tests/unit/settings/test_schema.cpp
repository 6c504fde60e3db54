// Schema loading: OSKAR's XML vocabulary, file and group imports, embedded schema files.
#include <gtest/gtest.h>

#include <string>

#include "fringe/core/error.h"
#include "fringe/settings/embedded_schemas.h"
#include "fringe/settings/schema.h"

using fringe::Error;
using fringe::settings::Compare;
using fringe::settings::Schema;
using fringe::settings::SchemaFiles;
using fringe::settings::TypeId;

namespace {

std::string load_error(const SchemaFiles& files, const std::string& root) {
  try {
    Schema::load(files, root);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string parse_error(const std::string& xml) { return load_error({{"x.xml", xml}}, "x.xml"); }

}  // namespace

TEST(Schema, EmbeddedFilesAreCompiledIn) {
  const SchemaFiles& files = fringe::settings::embedded_schemas();
  ASSERT_EQ(files.size(), 3u);
  EXPECT_TRUE(files.count("app.xml"));
  EXPECT_TRUE(files.count("common/observation.xml"));
  EXPECT_TRUE(files.count("common/filter.xml"));
  EXPECT_NE(files.at("app.xml").find("<import filename=\"observation.xml\"/>"), std::string::npos);
}

TEST(Schema, KeysAttributesAndOrder) {
  Schema s = Schema::load(fringe::settings::embedded_schemas(), "app.xml");
  const auto* dp = s.find("simulator/double_precision");
  ASSERT_TRUE(dp);
  EXPECT_EQ(dp->type->id(), TypeId::Bool);
  EXPECT_EQ(dp->default_value, "true");
  EXPECT_EQ(dp->priority, 1);
  EXPECT_EQ(dp->label, "Double precision");
  EXPECT_EQ(dp->leaf, "double_precision");
  EXPECT_EQ(s.nodes()[dp->parent].key, "simulator");
  EXPECT_FALSE(s.nodes()[dp->parent].is_setting());  // a group
  // <l> and <t n= d=> aliases.
  EXPECT_EQ(s.find("sky/oskar_sky_model")->label, "OSKAR sky model");
  EXPECT_EQ(s.find("sky/oskar_sky_model/file")->type->id(), TypeId::InputFileList);
  // req="yes", r="TRUE", required="true".
  EXPECT_TRUE(s.find("observation/start_frequency_hz")->required);
  EXPECT_TRUE(s.find("observation/start_time_utc")->required);
  EXPECT_TRUE(s.find("observation/length")->required);
  EXPECT_FALSE(s.find("telescope")->required);
  // Descriptions keep markup, white space collapsed.
  EXPECT_EQ(s.find("observation")->description, "Frequencies and <b>times</b> of the observation.");
  // OptionList default given as a prefix is stored in full.
  EXPECT_EQ(s.find("sky/healpix_fits/coord_sys")->default_value, "Galactic");
  EXPECT_EQ(s.find("telescope/station_type")->default_value, "Aperture array");
  // Case-insensitive lookup.
  EXPECT_EQ(s.find("SIMULATOR/Double_Precision"), dp);
  EXPECT_EQ(s.find("simulator/nothing"), nullptr);
  // Document order: the imported filter group comes first, the observation import in place.
  auto keys = s.setting_keys();
  auto pos = [&](const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) - keys.begin();
  };
  EXPECT_LT(pos("simulator/use_gpus"), pos("sky/oskar_sky_model/file"));
  EXPECT_LT(pos("sky/output_text_file"), pos("observation/mode"));
  EXPECT_LT(pos("observation/num_time_steps"), pos("telescope/input_directory"));
}

TEST(Schema, GroupTemplatesAreCopiedWhereImported) {
  Schema s = Schema::load(fringe::settings::embedded_schemas(), "app.xml");
  for (const char* prefix : {"sky/oskar_sky_model/filter/", "sky/healpix_fits/filter/"}) {
    const auto* n = s.find(std::string(prefix) + "flux_min");
    ASSERT_TRUE(n) << prefix;
    EXPECT_EQ(n->type->id(), TypeId::DoubleRangeExt);
    EXPECT_EQ(n->default_value, "min");
    EXPECT_TRUE(s.find(std::string(prefix) + "radius_inner_deg"));
  }
  // The template itself is not a setting.
  EXPECT_EQ(s.find("sky/filter/flux_min"), nullptr);
  EXPECT_EQ(s.find("filter/flux_min"), nullptr);
}

TEST(Schema, Dependencies) {
  Schema s = Schema::load(fringe::settings::embedded_schemas(), "app.xml");
  const auto* fov = s.find("sky/generator/grid/fov_deg");
  ASSERT_EQ(fov->depends.deps.size(), 1u);
  EXPECT_EQ(fov->depends.deps[0].op, Compare::GT);
  const auto* rms_file = s.find("interferometer/noise/rms_file");
  ASSERT_EQ(rms_file->depends.groups.size(), 1u);
  const auto& g = rms_file->depends.groups[0];
  EXPECT_FALSE(g.any);
  ASSERT_EQ(g.groups.size(), 1u);
  EXPECT_TRUE(g.groups[0].any);
  // Dependency values are normalised with the target's type ("R" -> "Range").
  EXPECT_EQ(g.groups[0].deps[1].value, "Range");
}

TEST(Schema, MergedXmlInlinesImports) {
  Schema s = Schema::load(fringe::settings::embedded_schemas(), "app.xml");
  const std::string& xml = s.merged_xml();
  EXPECT_EQ(xml.find("import filename"), std::string::npos);
  EXPECT_NE(xml.find("k=\"start_frequency_hz\""), std::string::npos);
  EXPECT_NE(xml.find("<group k=\"sky/filter\">"), std::string::npos);
  // The merged text loads to the same schema.
  Schema again = Schema::parse(xml);
  EXPECT_EQ(again.setting_keys(), s.setting_keys());
}

TEST(Schema, AllTypesAreDeclarable) {
  std::string xml = "<root>";
  const char* types[][2] = {{"Bool", ""},
                            {"Int", ""},
                            {"UnsignedInt", ""},
                            {"IntPositive", ""},
                            {"IntRange", "0,5"},
                            {"IntRangeExt", "0,MAX,auto"},
                            {"Double", ""},
                            {"UnsignedDouble", ""},
                            {"DoubleRange", "0,1"},
                            {"DoubleRangeExt", "-MAX,MAX,min,max"},
                            {"IntList", ""},
                            {"DoubleList", ""},
                            {"IntListExt", "all"},
                            {"String", ""},
                            {"StringList", ""},
                            {"InputFile", ""},
                            {"InputFileList", ""},
                            {"InputDirectory", ""},
                            {"OutputFile", ""},
                            {"OptionList", "a,b"},
                            {"RandomSeed", ""},
                            {"DateTime", ""},
                            {"Time", ""}};
  int i = 0;
  for (auto& t : types)
    xml +=
        "<s k=\"k" + std::to_string(i++) + "\"><type name=\"" + t[0] + "\">" + t[1] + "</type></s>";
  xml += "</root>";
  Schema s = Schema::parse(xml);
  EXPECT_EQ(s.setting_keys().size(), 23u);
}

TEST(Schema, ErrorsNameTheProblem) {
  EXPECT_NE(parse_error("<root><s k=\"a\"><type name=\"Float\"/></s></root>")
                .find("unknown setting type 'Float'"),
            std::string::npos);
  EXPECT_NE(parse_error("<root><s k=\"a\"><type name=\"Int\" default=\"x\"/></s></root>")
                .find("setting 'a'"),
            std::string::npos);
  EXPECT_NE(parse_error(
                "<root><s k=\"a\" required=\"true\"><type name=\"Int\" default=\"1\"/></s></root>")
                .find("required setting cannot have a default"),
            std::string::npos);
  EXPECT_NE(
      parse_error("<root><s k=\"a\"><type name=\"Int\"/><depends k=\"b\" v=\"1\"/></s></root>")
          .find("depends on unknown setting 'b'"),
      std::string::npos);
  EXPECT_NE(parse_error("<root><s k=\"b\"><type name=\"Int\"/></s><s k=\"a\"><type name=\"Int\"/>"
                        "<depends k=\"b\" v=\"x\"/></s></root>")
                .find("depends on 'b' = 'x'"),
            std::string::npos);
  EXPECT_NE(
      parse_error("<root><s k=\"a\"><type name=\"Int\"/><depends k=\"a\" c=\"XX\"/></s></root>")
          .find("unknown dependency condition 'XX'"),
      std::string::npos);
  EXPECT_NE(parse_error("<root><s k=\"a\"/><s k=\"a\"/></root>").find("declared twice"),
            std::string::npos);
  EXPECT_NE(parse_error("<root><s k=\"a\"><type name=\"Int\"></s></root>").find("x.xml:1"),
            std::string::npos);  // invalid XML
  EXPECT_NE(
      parse_error("<root><import group=\"nope\"/></root>").find("unknown settings group 'nope'"),
      std::string::npos);
  EXPECT_NE(parse_error("<root><s k=\"a\"><type name=\"Int\" unsupported=\"1\"/></s></root>")
                .find("only for OptionList"),
            std::string::npos);
  EXPECT_NE(parse_error("<root><s k=\"a\"><type name=\"OptionList\" default=\"b\" "
                        "unsupported=\"b\">a,b</type></s></root>")
                .find("not supported yet"),
            std::string::npos);
  EXPECT_NE(load_error({{"a.xml", "<root><import filename=\"b.xml\"/></root>"}}, "a.xml")
                .find("'b.xml' not found"),
            std::string::npos);
  EXPECT_NE(load_error({{"a.xml", "<root><import filename=\"b.xml\"/></root>"},
                        {"b.xml", "<root><import filename=\"a.xml\"/></root>"}},
                       "a.xml")
                .find("cycle"),
            std::string::npos);
}

TEST(Schema, ImportsResolveRelativeToTheImporter) {
  SchemaFiles files{
      {"top.xml", "<root><import filename=\"sub/one.xml\"/></root>"},
      {"sub/one.xml", "<s k=\"one\"><import filename=\"two.xml\"/></s>"},
      {"sub/two.xml", "<s k=\"two\"><type name=\"Int\" default=\"2\"/></s>"},
  };
  Schema s = Schema::load(files, "top.xml");
  ASSERT_TRUE(s.find("one/two"));
  EXPECT_EQ(s.find("one/two")->default_value, "2");
}
