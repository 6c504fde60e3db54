// The imager's Measurement Set input (fringe/imager/ms_input.h) for fuzz_ms_metadata: the
// channel, correlation and row selections it makes from the MS's metadata. A separate C++20
// translation unit (the MS harness is C++17 for casacore's headers).
#include <string>

#include "fringe/imager/ms_input.h"

namespace fringe::fuzz {

void imager_read(const std::string& ms_path, int product) {
  using imager::ImageType;
  static const ImageType types[] = {ImageType::I, ImageType::Linear, ImageType::Stokes,
                                    ImageType::XY, ImageType::Psf};
  imager::ImagerConfig config;
  config.input_ms = {ms_path};
  config.image_type = types[product % 5];
  imager::InputSummary summary;
  (void)imager::read_visibilities<float>(config, summary);
}

}  // namespace fringe::fuzz
