// Colours and the optional dark theme. Everything else in the GUI takes its colours from the
// palette (QPalette roles), so it follows the light or dark theme in use.
#pragma once

#include <QColor>
#include <QPalette>

namespace fringe::gui {

// Background of required-but-unset settings (shown with white text; OSKAR's cue).
QColor required_colour();
// Background of search matches: the palette's highlight, translucent.
QColor match_colour(const QPalette& palette);

// Fusion style with a dark palette (dark = true) or the platform's default palette.
void apply_theme(bool dark);
// True when the current palette's window colour is dark.
bool palette_is_dark(const QPalette& palette);

}  // namespace fringe::gui
