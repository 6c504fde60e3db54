// Progress in a line of an app's log: fringe's apps print "stage: 40%" lines when their
// output is not a terminal (fringe/core/progress.h); a terminal bar redraws with '\r'.
#pragma once

#include <QString>
#include <optional>

namespace fringe::gui {

// The last percentage (0..100) in the text, e.g. "predict: 40%" -> 40; nullopt if none.
std::optional<double> parse_progress(const QString& text);

}  // namespace fringe::gui
