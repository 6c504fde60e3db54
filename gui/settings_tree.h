// SettingsTree: the tree view of the settings (through SettingsFilter over SettingsModel).
// Editing always happens in the value column; Space toggles a check box; the context menu
// offers Reset (a setting), Reset Group (a group) and Copy Setting Key.
#pragma once

#include <QTreeView>

namespace fringe::gui {

class SettingsModel;
class SettingsFilter;

class SettingsTree : public QTreeView {
  Q_OBJECT

 public:
  SettingsTree(SettingsModel* model, SettingsFilter* filter, QWidget* parent = nullptr);

  // Selects the setting with this key (clearing the filter if it hides it) and shows it.
  void select_key(const QString& key);
  void show_first_level();
  // Source-model index of the current row (column 0).
  QModelIndex current_source_index() const;

 signals:
  void message(const QString& text);  // status-bar feedback

 protected:
  bool edit(const QModelIndex& index, EditTrigger trigger, QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  SettingsModel* model_;
  SettingsFilter* filter_;
};

}  // namespace fringe::gui
