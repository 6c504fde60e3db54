// Every settings type: valid, boundary and invalid values (docs/settings.md).
#include <gtest/gtest.h>

#include <cfloat>
#include <climits>
#include <string>

#include "fringe/core/error.h"
#include "fringe/settings/setting_type.h"

using fringe::Error;
using fringe::settings::SettingType;
using fringe::settings::TypeId;

namespace {

SettingType T(const char* name, const char* params = "") { return SettingType::make(name, params); }

// The error message for a value, "" if it is accepted.
std::string err(const SettingType& t, const std::string& v) {
  try {
    t.normalise(v);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

}  // namespace

TEST(SettingType, NamesAreCaseInsensitiveWithAliases) {
  EXPECT_EQ(T("bool").id(), TypeId::Bool);
  EXPECT_EQ(T("BOOL").id(), TypeId::Bool);
  EXPECT_EQ(T("uint").id(), TypeId::UnsignedInt);
  EXPECT_EQ(T("UInt").id(), TypeId::UnsignedInt);
  EXPECT_EQ(T("unsignedint").id(), TypeId::UnsignedInt);
  EXPECT_EQ(T("double").id(), TypeId::Double);
  EXPECT_EQ(T("datetime").id(), TypeId::DateTime);
  EXPECT_THROW(T("Float"), Error);
  EXPECT_THROW(T("IntRange", "1"), Error);
  EXPECT_THROW(T("IntRange", "5,1"), Error);
  EXPECT_THROW(T("DoubleRangeExt", "2.0,5.0"), Error);  // needs a word (as OSKAR)
  EXPECT_THROW(T("OptionList", ""), Error);
  EXPECT_THROW(T("IntListExt", ""), Error);
}

TEST(SettingType, BoolFollowsOskarAndRejectsGarbage) {
  auto t = T("Bool");
  // OSKAR: true iff the text starts with TRUE, ON or 1, case-insensitively.
  for (const char* v : {"true", "TRUE", "True", "on", "ON", "1", "truely", "10"})
    EXPECT_EQ(t.normalise(v), "true") << v;
  for (const char* v : {"false", "FALSE", "off", "Off", "0", "no"})
    EXPECT_EQ(t.normalise(v), "false") << v;
  for (const char* v : {"yes", "maybe", "2", "f", "t"})
    EXPECT_NE(err(t, v).find("true or false"), std::string::npos) << v;
  EXPECT_EQ(t.normalise(""), "");  // not set
  EXPECT_TRUE(t.to_bool("true"));
  EXPECT_FALSE(t.to_bool("false"));
}

TEST(SettingType, Integers) {
  auto i = T("Int");
  EXPECT_EQ(i.normalise(" -12 "), "-12");
  EXPECT_EQ(i.normalise("2147483647"), "2147483647");
  EXPECT_NE(err(i, "2147483648"), "");
  EXPECT_EQ(i.normalise("-2147483648"), "-2147483648");
  for (const char* v : {"1.5", "1e3", "abc", "1 2", "0x10", "--1"}) EXPECT_NE(err(i, v), "") << v;

  auto u = T("UnsignedInt");
  EXPECT_EQ(u.normalise("0"), "0");
  EXPECT_NE(err(u, "-1").find("out of range"), std::string::npos);
  EXPECT_NE(err(u, "-1").find(">= 0"), std::string::npos);

  auto p = T("IntPositive");
  EXPECT_EQ(p.normalise("1"), "1");
  EXPECT_NE(err(p, "0"), "");
  EXPECT_NE(err(p, "-3"), "");

  auto r = T("IntRange", "1,64");
  EXPECT_EQ(r.normalise("1"), "1");
  EXPECT_EQ(r.normalise("64"), "64");
  EXPECT_NE(err(r, "0").find("[1, 64]"), std::string::npos);
  EXPECT_NE(err(r, "65"), "");
  auto rmax = T("IntRange", "0,MAX");
  EXPECT_EQ(rmax.max(), INT_MAX);
  EXPECT_EQ(rmax.normalise("2147483647"), "2147483647");
}

TEST(SettingType, IntRangeExtWords) {
  auto t = T("IntRangeExt", "0,MAX,auto");
  EXPECT_EQ(t.normalise("auto"), "auto");
  EXPECT_EQ(t.normalise("AUTO"), "auto");  // stored as declared
  EXPECT_EQ(t.normalise("0"), "0");
  EXPECT_EQ(t.normalise("12"), "12");
  EXPECT_NE(err(t, "-1").find("'auto'"), std::string::npos);
  EXPECT_NE(err(t, "automatic"), "");
  EXPECT_THROW(t.to_int("auto"), Error);
  EXPECT_EQ(t.to_int("12"), 12);
  auto two = T("IntRangeExt", "0,100,smin,smax");
  EXPECT_EQ(two.normalise("smax"), "smax");
  EXPECT_EQ(two.normalise("smin"), "smin");
  EXPECT_NE(err(two, "101"), "");
}

TEST(SettingType, Doubles) {
  auto d = T("Double");
  EXPECT_EQ(d.normalise("150e6"), "150e6");  // kept as written
  EXPECT_EQ(d.normalise("-0.5"), "-0.5");
  EXPECT_DOUBLE_EQ(d.to_double("150e6"), 150e6);
  for (const char* v : {"nan", "inf", "1e999", "1,5", "abc", "1.2.3", "0x1p3"})
    EXPECT_NE(err(d, v), "") << v;
  auto u = T("UnsignedDouble");
  EXPECT_EQ(u.normalise("0"), "0");
  EXPECT_NE(err(u, "-1e-300"), "");
  auto r = T("DoubleRange", "0,180.0");
  EXPECT_EQ(r.normalise("180"), "180");
  EXPECT_EQ(r.normalise("0.0"), "0.0");
  EXPECT_NE(err(r, "180.0000001").find("[0, 180]"), std::string::npos);
  EXPECT_NE(err(r, "-0.1"), "");
}

TEST(SettingType, DoubleRangeExtWordsMapToLimits) {
  auto t = T("DoubleRangeExt", "-MAX,MAX,min,max");
  EXPECT_EQ(t.normalise("min"), "min");
  EXPECT_EQ(t.normalise("Max"), "max");
  EXPECT_EQ(t.to_double("min"), -DBL_MAX);
  EXPECT_EQ(t.to_double("max"), DBL_MAX);
  EXPECT_EQ(t.normalise("-3.5"), "-3.5");
  EXPECT_NE(err(t, "maximum"), "");
  auto f = T("DoubleRangeExt", "0,MAX,file");
  EXPECT_EQ(f.normalise("file"), "file");
  EXPECT_EQ(f.to_double("file"), 0.0);
  EXPECT_NE(err(f, "-1").find("'file'"), std::string::npos);
  auto s = T("DoubleRangeExt", "2.0,5.0,min, max");
  EXPECT_EQ(s.to_double("max"), 5.0);
  EXPECT_EQ(s.normalise("5.0"), "5.0");
  EXPECT_NE(err(s, "5.1"), "");
}

TEST(SettingType, Lists) {
  auto il = T("IntList");
  EXPECT_EQ(il.normalise("1, 2,3"), "1,2,3");
  EXPECT_EQ(il.to_int_list("1,2,3"), (std::vector<long long>{1, 2, 3}));
  EXPECT_NE(err(il, "1,,2").find("empty"), std::string::npos);
  EXPECT_NE(err(il, "1,x"), "");
  auto dl = T("DoubleList");
  EXPECT_EQ(dl.normalise("0, -27.5"), "0,-27.5");
  EXPECT_EQ(dl.to_double_list("0,-27.5"), (std::vector<double>{0.0, -27.5}));
  EXPECT_NE(err(dl, "1;2"), "");
  auto ext = T("IntListExt", "all");
  EXPECT_EQ(ext.normalise("ALL"), "all");
  EXPECT_EQ(ext.normalise("0,1"), "0,1");
  EXPECT_THROW(ext.to_int_list("all"), Error);
  EXPECT_NE(err(ext, "some").find("'all'"), std::string::npos);
  auto sl = T("StringList");
  EXPECT_EQ(sl.normalise("a, b ,c"), "a,b,c");
  EXPECT_EQ(sl.to_string_list("a,\"b,c\""), (std::vector<std::string>{"a", "b,c"}));
}

TEST(SettingType, FilesAndStrings) {
  auto s = T("String");
  EXPECT_EQ(s.normalise(" hello world "), "hello world");
  auto f = T("InputFile");
  EXPECT_EQ(f.normalise("\"my sky.osm\""), "my sky.osm");
  EXPECT_EQ(f.normalise("sky.osm"), "sky.osm");
  auto fl = T("InputFileList");
  EXPECT_EQ(fl.normalise("a.osm, \"b,c.osm\""), "a.osm,\"b,c.osm\"");
  EXPECT_EQ(fl.to_string_list(fl.normalise("a.osm, \"b,c.osm\"")),
            (std::vector<std::string>{"a.osm", "b,c.osm"}));
  EXPECT_NE(err(fl, "\"a.osm"), "");  // unbalanced quote
  EXPECT_EQ(T("OutputFile").normalise("out.ms"), "out.ms");
  EXPECT_EQ(T("InputDirectory").normalise("tel.tm/"), "tel.tm/");
}

TEST(SettingType, OptionListPrefixMatching) {
  auto t = T("OptionList", "Aperture array,Isotropic beam,Gaussian beam,\"VLA (PBCOR)\"");
  ASSERT_EQ(t.options().size(), 4u);
  EXPECT_EQ(t.normalise("A"), "Aperture array");  // OSKAR's default "A"
  EXPECT_EQ(t.normalise("gaussian"), "Gaussian beam");
  EXPECT_EQ(t.normalise("VLA"), "VLA (PBCOR)");
  EXPECT_EQ(t.normalise("isotropic BEAM"), "Isotropic beam");
  EXPECT_NE(err(t, "Dish").find("'Gaussian beam'"), std::string::npos);
  auto units = T("OptionList", "Jy/beam,Jy/pixel,K,mK");
  EXPECT_EQ(units.normalise("Jy"), "Jy/beam");  // first option that starts with the text
  EXPECT_EQ(units.normalise("k"), "K");
  EXPECT_EQ(units.normalise("mk"), "mK");  // exact match wins
  auto img =
      T("OptionList", "\"Linear (XX,XY,YX,YY)\",XX,XY,YX,YY,\"Stokes (I,Q,U,V)\",I,Q,U,V,PSF");
  EXPECT_EQ(img.options().size(), 11u);
  EXPECT_EQ(img.normalise("I"), "I");
  EXPECT_EQ(img.normalise("Stokes"), "Stokes (I,Q,U,V)");
  t.set_unsupported_options({"VLA"});
  EXPECT_NE(err(t, "vla (pbcor)").find("not supported yet"), std::string::npos);
  EXPECT_EQ(t.normalise("Gauss"), "Gaussian beam");
  EXPECT_THROW(t.set_unsupported_options({"Dish"}), Error);
}

TEST(SettingType, RandomSeed) {
  auto t = T("RandomSeed");
  EXPECT_EQ(t.normalise("1"), "1");
  EXPECT_EQ(t.normalise("TIME"), "time");
  EXPECT_NE(err(t, "0"), "");
  EXPECT_NE(err(t, "-4"), "");
  EXPECT_NE(err(t, "now").find("'time'"), std::string::npos);
}

TEST(SettingType, DateTimeAndTime) {
  auto dt = T("DateTime");
  EXPECT_EQ(dt.normalise("1-2-2015 10:05:23.2"), "01-02-2015 10:05:23.2");
  EXPECT_NE(err(dt, "2015-02-30 00:00:00").find("day"), std::string::npos);
  EXPECT_TRUE(dt.same("2015-02-01 10:05:23.2", "01-02-2015 10:05:23.2"));
  EXPECT_FALSE(dt.same("2015-02-01 10:05:23.2", "01-02-2015 10:05:23.3"));
  EXPECT_EQ(dt.compare("2015-02-01", "2015-01-31 23:59:59"), 1);
  auto tm = T("Time");
  EXPECT_EQ(tm.normalise("1:2:3"), "01:02:03");
  EXPECT_DOUBLE_EQ(tm.to_double("01:02:03"), 3723.0);
  EXPECT_TRUE(tm.same("00:08:00", "480"));
  EXPECT_NE(err(tm, "-5"), "");
}

TEST(SettingType, SameComparesMeaning) {
  EXPECT_TRUE(T("Double").same("0", "0.0"));
  EXPECT_TRUE(T("UnsignedDouble").same("408e6", "408000000"));
  EXPECT_FALSE(T("Double").same("0", "1"));
  EXPECT_TRUE(T("DoubleList").same("0", "0.0"));
  EXPECT_FALSE(T("IntRangeExt", "0,MAX,auto").same("auto", "0"));
  EXPECT_TRUE(T("Int").same("+5", "5"));
}
