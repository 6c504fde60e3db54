// The app layer's field -> key mapping (fringe/app/field_keys.h): errors and log lines of the
// library name config fields; the user reads settings keys.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "fringe/app/field_keys.h"
#include "fringe/core/error.h"
#include "fringe/core/log.h"

namespace fringe::app {
namespace {

const FieldKeys kKeys = {
    {"ImagerConfig.size", "image/size"},
    {"ImagerConfig.size_x", "image/size_x"},
    {"DeviceRequest.use_gpus", "image/use_gpus"},
};

TEST(FieldKeys, ReplacesWholeNamesOnly) {
  EXPECT_EQ(fields_to_keys("ImagerConfig.size and ImagerConfig.size_x", kKeys),
            "image/size and image/size_x");
  // Part of a longer name, or of another struct's member: left alone.
  EXPECT_EQ(fields_to_keys("ImagerConfig.sizes, MyImagerConfig.size, X.ImagerConfig.size", kKeys),
            "ImagerConfig.sizes, MyImagerConfig.size, X.ImagerConfig.size");
  EXPECT_EQ(fields_to_keys("", kKeys), "");
}

TEST(FieldKeys, ErrorFieldBecomesKey) {
  const Error e =
      Error::in_field("ImagerConfig.size", "3", "expected at least ImagerConfig.size_x");
  const Error k = with_keys(e, kKeys);
  EXPECT_EQ(k.context().key, "image/size");
  EXPECT_TRUE(k.context().field.empty());
  EXPECT_EQ(std::string(k.what()), "setting 'image/size' = '3': expected at least image/size_x");
  // An unknown field stays a field, named as such.
  const Error u = with_keys(Error::in_field("Other.x", "1", "bad"), kKeys);
  EXPECT_EQ(std::string(u.what()), "field 'Other.x' = '1': bad");
  // A settings key given where a field goes (outputs named by the app layer) is a key.
  const Error s = with_keys(Error::in_field("image/root_path", "/x", "bad"), kKeys);
  EXPECT_EQ(s.context().key, "image/root_path");
}

TEST(FieldKeys, WithSettingKeysRewritesErrorsAndLog) {
  std::ostringstream out;
  Logger log(out);
  log.set_timestamps(false);
  try {
    with_setting_keys(kKeys, &log, [&] {
      log.warning("DeviceRequest.use_gpus is true but there is no GPU");
      throw Error::in_field("ImagerConfig.size", "0", "expected > 0");
    });
    FAIL() << "nothing thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().key, "image/size");
  }
  log.warning("DeviceRequest.use_gpus after the scope");
  const std::string text = out.str();
  EXPECT_NE(text.find("image/use_gpus is true"), std::string::npos) << text;
  EXPECT_NE(text.find("DeviceRequest.use_gpus after the scope"), std::string::npos) << text;
}

// Every map of the four apps maps fields to keys of the form group/key.
TEST(FieldKeys, AppMapsAreWellFormed) {
  for (const FieldKeys* keys : {&simulator_field_keys(), &beam_pattern_field_keys(),
                                &imager_field_keys(), &calibrate_field_keys()}) {
    EXPECT_FALSE(keys->empty());
    for (const auto& [field, key] : *keys) {
      EXPECT_NE(field.find('.'), std::string::npos) << field;
      EXPECT_NE(key.find('/'), std::string::npos) << field << " -> " << key;
    }
  }
}

}  // namespace
}  // namespace fringe::app
