// SettingsTree: the tree view of the settings (through SettingsFilter over SettingsModel).
// Editing always happens in the value column; Space toggles a check box; F2 (or typing)
// edits; arrows move and Left/Right collapse and expand. The context menu offers Reset (a
// setting), Reset Group (a group), Copy Setting Key and Expand All Below.
#pragma once

#include <QTreeView>

class QMenu;

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
  // The context menu of the row at proxy_index (actions named as in OSKAR), owned by parent.
  QMenu* make_context_menu(const QModelIndex& proxy_index, QWidget* parent);

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
