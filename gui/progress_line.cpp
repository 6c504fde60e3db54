#include "gui/progress_line.h"

#include <QRegularExpression>

namespace fringe::gui {

std::optional<double> parse_progress(const QString& text) {
  static const QRegularExpression re(R"((?<![\d.])(\d{1,3}(?:\.\d+)?)\s*%)");
  std::optional<double> last;
  auto it = re.globalMatch(text);
  while (it.hasNext()) {
    const double v = it.next().captured(1).toDouble();
    if (v >= 0.0 && v <= 100.0) last = v;
  }
  return last;
}

}  // namespace fringe::gui
