#include "gui/colour_map.h"

#include <QColor>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace fringe::gui {

namespace {

ColourTable from_anchors(const std::array<QRgb, 9>& anchors) {
  ColourTable t{};
  for (int i = 0; i < 256; ++i) {
    const double x = i / 255.0 * 8.0;
    const int k = std::min(7, static_cast<int>(x));
    const double f = x - k;
    auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + f * (b - a))); };
    t[i] = qRgb(mix(qRed(anchors[k]), qRed(anchors[k + 1])),
                mix(qGreen(anchors[k]), qGreen(anchors[k + 1])),
                mix(qBlue(anchors[k]), qBlue(anchors[k + 1])));
  }
  return t;
}

ColourTable cubehelix() {
  ColourTable t{};
  const double start = 0.5, rotations = -1.5, hue = 1.0;
  for (int i = 0; i < 256; ++i) {
    const double lambda = i / 255.0;
    const double phi = 2.0 * std::numbers::pi * (start / 3.0 + 1.0 + rotations * lambda);
    const double a = hue * lambda * (1.0 - lambda) / 2.0;
    const double c = std::cos(phi), s = std::sin(phi);
    auto channel = [](double v) {
      return static_cast<int>(std::lround(255 * std::clamp(v, 0.0, 1.0)));
    };
    t[i] = qRgb(channel(lambda + a * (-0.14861 * c + 1.78277 * s)),
                channel(lambda + a * (-0.29227 * c - 0.90649 * s)),
                channel(lambda + a * (1.97294 * c)));
  }
  return t;
}

}  // namespace

QStringList colour_map_names() { return {"Grey", "Viridis", "Inferno", "Cubehelix"}; }

ColourTable colour_table(ColourMap map) {
  switch (map) {
    case ColourMap::Viridis:
      return from_anchors({0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962,
                           0xaddc30, 0xfde725});
    case ColourMap::Inferno:
      return from_anchors({0x000004, 0x1f0c48, 0x550f6d, 0x88226a, 0xba3655, 0xe35933, 0xf98e09,
                           0xf8c932, 0xfcffa4});
    case ColourMap::Cubehelix:
      return cubehelix();
    case ColourMap::Grey:
    default: {
      ColourTable t{};
      for (int i = 0; i < 256; ++i) t[i] = qRgb(i, i, i);
      return t;
    }
  }
}

}  // namespace fringe::gui
