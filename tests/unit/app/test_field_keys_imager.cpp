// The imager app's field -> key map (fringe/app/field_keys_imager.cpp): every config field
// that fringe/imager names in an error, a warning or a hint is mapped, and the errors of its
// checks read, once mapped, as they did when the library named keys.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "fringe/app/field_keys.h"
#include "fringe/core/error.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/run_checks.h"

namespace fringe::app {
namespace {

namespace fs = std::filesystem;
using imager::ImagerConfig;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Every "Struct.member" of the imager's config structs written in fringe/imager's sources.
std::set<std::string> fields_named_in_imager() {
  const std::regex field(R"(\b(ImagerConfig|IdgConfig|ATermConfig|DeviceRequest)\.[a-z_]+)");
  std::set<std::string> fields;
  for (const auto& e : fs::directory_iterator(fs::path(FRINGE_SOURCE_DIR) / "fringe/imager")) {
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (std::sregex_iterator it(s.begin(), s.end(), field), end; it != end; ++it)
      fields.insert(it->str());
  }
  return fields;
}

TEST(ImagerFieldKeys, EveryFieldTheImagerNamesIsMapped) {
  const std::set<std::string> fields = fields_named_in_imager();
  EXPECT_GT(fields.size(), 15u);
  for (const std::string& f : fields) EXPECT_TRUE(imager_field_keys().contains(f)) << f;
}

ImagerConfig config() {
  ImagerConfig c;
  c.size = 64;
  c.cell_rad = 1e-5;
  c.devices.use_gpus = false;
  c.input_ms = {"absent.ms"};
  c.root_path = "img";
  return c;
}

// What the user reads for the error validate(c) throws ("" if none).
std::string shown(const ImagerConfig& c) {
  try {
    imager::validate(c);
  } catch (const Error& e) {
    return with_keys(e, imager_field_keys()).what();
  }
  return "";
}

TEST(ImagerFieldKeys, RangeErrorsNameTheKey) {
  EXPECT_EQ(shown(config()), "");
  ImagerConfig c = config();
  c.size = 63;
  EXPECT_EQ(shown(c), "setting 'image/size' = '63': expected an even, positive number of pixels");
  c.size = 4;  // a 6-cell grid cannot hold a 32-cell subgrid
  EXPECT_EQ(shown(c),
            "setting 'image/size' = '4': the grid (image/size x image/idg/padding 1.25, rounded up "
            "to even: 6 cells) must hold at least one subgrid (image/idg/subgrid_size 32): use a "
            "larger image/size or a smaller image/idg/subgrid_size");
  c = config();
  c.cell_rad = std::numeric_limits<double>::infinity();
  EXPECT_EQ(shown(c).rfind("setting 'image/cellsize_arcsec' = 'inf': ", 0), 0u) << shown(c);
  c = config();
  c.rephase = true;
  c.centre_dec_rad = 100 * std::acos(-1.0) / 180;
  EXPECT_EQ(shown(c),
            "setting 'image/direction/dec_deg' = '100': expected a declination in [-90, 90] "
            "degrees");
  c.centre_dec_rad = 0;
  c.centre_ra_rad = kNaN;
  EXPECT_EQ(shown(c).rfind("setting 'image/direction/ra_deg' = 'nan'", 0), 0u) << shown(c);
  const std::pair<void (*)(ImagerConfig&), const char*> idg_cases[] = {
      {[](ImagerConfig& x) { x.idg.padding = kNaN; }, "image/idg/padding"},
      {[](ImagerConfig& x) { x.idg.subgrid_size = 33; }, "image/idg/subgrid_size"},
      {[](ImagerConfig& x) { x.idg.kernel_size = 40; }, "image/idg/kernel_size"},
      {[](ImagerConfig& x) { x.idg.w_step_lambda = -1; }, "image/idg/w_step_lambda"},
      {[](ImagerConfig& x) { x.idg.aterm_interval_s = -1; }, "image/idg/aterm_interval_sec"},
  };
  for (const auto& [set, key] : idg_cases) {
    c = config();
    set(c);
    EXPECT_EQ(shown(c).rfind(std::string("setting '") + key + "'", 0), 0u) << shown(c);
  }
}

TEST(ImagerFieldKeys, RunErrorsAndHintsNameTheKey) {
  ImagerConfig c = config();
  c.root_path.clear();
  try {
    imager::run(c);
    FAIL() << "no root path accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(with_keys(e, imager_field_keys()).what()),
              "setting 'image/root_path' = '': expected the path of the output images");
  }
  c = config();
  c.rephase = true;
  c.model_image = "model.fits";
  try {
    imager::run(c);
    FAIL() << "prediction with re-phasing accepted";
  } catch (const Error& e) {
    const std::string m = with_keys(e, imager_field_keys()).what();
    EXPECT_NE(m.find("(image/model_image)"), std::string::npos) << m;
    EXPECT_NE(m.find("(image/direction)"), std::string::npos) << m;
  }
  // The outputs are named by the root path's key; the run-size hint lists keys.
  const auto targets = imager::output_targets(config());
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(with_keys(Error::in_field(targets[0].key, "img_I.fits", "x"), imager_field_keys())
                .context()
                .key,
            "image/root_path");
  EXPECT_EQ(fields_to_keys(imager::estimate_run(config()).setting_hint, imager_field_keys()),
            "image/size, image/idg/padding, image/channel_snapshots, image/double_precision");
}

}  // namespace
}  // namespace fringe::app
