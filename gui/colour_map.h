// Colour maps for the image viewer: 256-entry tables. Viridis and Inferno are interpolated
// from nine evenly spaced samples of matplotlib's maps (van der Walt & Smith, 2015); Cubehelix
// follows D. A. Green, Bull. Astr. Soc. India 39, 289 (2011), eq. 2, with start 0.5,
// rotations -1.5, hue 1, gamma 1.
#pragma once

#include <QRgb>
#include <QStringList>
#include <array>

namespace fringe::gui {

enum class ColourMap { Grey, Viridis, Inferno, Cubehelix };

QStringList colour_map_names();  // in enum order
using ColourTable = std::array<QRgb, 256>;
ColourTable colour_table(ColourMap map);

}  // namespace fringe::gui
