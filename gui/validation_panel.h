// ValidationPanel: the problems fringe::settings::Settings::validate() finds before a run,
// and those of the settings file (unknown keys, lines without '=', bad values), one row each
// (error or warning, key, value, the file's line when known, message). Activating a row (click,
// Enter) emits setting_activated(key) so the settings tree can select that setting.
#pragma once

#include <QWidget>
#include <vector>

#include "fringe/settings/settings.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace fringe::gui {

class ValidationPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column { IconColumn = 0, KeyColumn, ValueColumn, LineColumn, ProblemColumn };

  explicit ValidationPanel(QWidget* parent = nullptr);
  void show_problems(const std::vector<fringe::settings::Problem>& problems);
  void clear();
  int num_errors() const { return errors_; }
  int num_warnings() const { return warnings_; }
  QTreeWidget* list() const { return list_; }

 signals:
  void setting_activated(const QString& key);

 private:
  void activate(QTreeWidgetItem* item);
  QLabel* summary_;
  QTreeWidget* list_;
  int errors_ = 0, warnings_ = 0;
};

}  // namespace fringe::gui
