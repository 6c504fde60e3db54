#include "gui/settings_tree.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <memory>

#include "gui/settings_delegate.h"
#include "gui/settings_filter.h"
#include "gui/settings_model.h"

namespace fringe::gui {

SettingsTree::SettingsTree(SettingsModel* model, SettingsFilter* filter, QWidget* parent)
    : QTreeView(parent), model_(model), filter_(filter) {
  filter_->setSourceModel(model_);
  setModel(filter_);
  auto* delegate = new SettingsDelegate(this);
  setItemDelegate(delegate);
  connect(delegate, &SettingsDelegate::rejected, this, &SettingsTree::message);
  setAlternatingRowColors(true);
  setUniformRowHeights(true);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                  QAbstractItemView::SelectedClicked | QAbstractItemView::AnyKeyPressed);
  header()->setSectionResizeMode(0, QHeaderView::Interactive);
  header()->setStretchLastSection(true);
  header()->resizeSection(0, fontMetrics().horizontalAdvance(QString(34, 'x')));
}

QModelIndex SettingsTree::current_source_index() const {
  return filter_->mapToSource(currentIndex().siblingAtColumn(0));
}

bool SettingsTree::edit(const QModelIndex& index, EditTrigger trigger, QEvent* event) {
  // Whatever column was clicked or is current, the value column is edited.
  if (index.isValid() && index.column() != SettingsModel::ValueColumn) {
    const QModelIndex value = index.siblingAtColumn(SettingsModel::ValueColumn);
    if (trigger == QAbstractItemView::SelectedClicked ||
        trigger == QAbstractItemView::DoubleClicked)
      return QTreeView::edit(value, QAbstractItemView::AllEditTriggers, event);
    return QTreeView::edit(value, trigger, event);
  }
  return QTreeView::edit(index, trigger, event);
}

void SettingsTree::keyPressEvent(QKeyEvent* event) {
  const QModelIndex value = currentIndex().siblingAtColumn(SettingsModel::ValueColumn);
  if ((event->key() == Qt::Key_Space || event->key() == Qt::Key_Select) && value.isValid() &&
      (value.flags() & Qt::ItemIsUserCheckable)) {
    const bool on = value.data(Qt::CheckStateRole).toInt() == Qt::Checked;
    model()->setData(value, on ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole);
    return;
  }
  QTreeView::keyPressEvent(event);
}

QMenu* SettingsTree::make_context_menu(const QModelIndex& proxy_index, QWidget* parent) {
  const QModelIndex label = proxy_index.siblingAtColumn(0);
  const QModelIndex source = filter_->mapToSource(label);
  const bool is_setting = source.data(SettingsModel::IsSettingRole).toBool();
  const QString key = source.data(SettingsModel::KeyRole).toString();
  const QPersistentModelIndex target(source), row(label);
  auto* menu = new QMenu(parent);
  menu->addAction(is_setting ? tr("Reset") : tr("Reset Group"), this,
                  [this, target] { model_->reset(target); });
  menu->addAction(tr("Copy Setting Key"), this, [this, key] {
    QGuiApplication::clipboard()->setText(key);
    emit message(tr("Copied '%1'").arg(key));
  });
  menu->addSeparator();
  QAction* expand = menu->addAction(tr("Expand All Below"), this, [this, row] {
    if (row.isValid()) expandRecursively(row);
  });
  expand->setEnabled(!is_setting);
  return menu;
}

void SettingsTree::contextMenuEvent(QContextMenuEvent* event) {
  // From the keyboard (Menu key, Shift+F10) the menu is for the current row.
  const bool keyboard = event->reason() == QContextMenuEvent::Keyboard;
  const QModelIndex proxy_index = keyboard ? currentIndex() : indexAt(event->pos());
  if (!proxy_index.isValid()) return;
  const QPoint at =
      keyboard ? viewport()->mapToGlobal(visualRect(proxy_index).center()) : event->globalPos();
  const std::unique_ptr<QMenu> menu(make_context_menu(proxy_index, this));
  menu->exec(at);
}

void SettingsTree::select_key(const QString& key) {
  QModelIndex source = model_->index_of_key(key);
  if (!source.isValid()) return;
  QModelIndex proxy = filter_->mapFromSource(source);
  if (!proxy.isValid()) {
    filter_->set_filter_text({});
    proxy = filter_->mapFromSource(source);
  }
  for (QModelIndex a = proxy.parent(); a.isValid(); a = a.parent()) expand(a);
  setCurrentIndex(proxy);
  scrollTo(proxy, QAbstractItemView::PositionAtCenter);
  setFocus();
}

void SettingsTree::show_first_level() {
  collapseAll();
  expandToDepth(0);
}

}  // namespace fringe::gui
