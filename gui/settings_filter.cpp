#include "gui/settings_filter.h"

#include <QGuiApplication>

#include "gui/settings_model.h"
#include "gui/theme.h"

namespace fringe::gui {

SettingsFilter::SettingsFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  setDynamicSortFilter(false);
}

void SettingsFilter::set_filter_text(const QString& text) {
  const QString t = text.trimmed();
  if (t == text_) return;
  text_ = t;
  invalidateFilter();
}

bool SettingsFilter::matches(const QModelIndex& source_index) const {
  if (text_.isEmpty() || !source_index.isValid()) return false;
  const QModelIndex label = source_index.siblingAtColumn(SettingsModel::LabelColumn);
  const QString shown = label.data(Qt::DisplayRole).toString();
  const QString key = label.data(SettingsModel::KeyRole).toString();
  return shown.contains(text_, Qt::CaseInsensitive) || key.contains(text_, Qt::CaseInsensitive);
}

bool SettingsFilter::descendant_matches(const QModelIndex& source_index) const {
  const auto* m = sourceModel();
  for (int r = 0; r < m->rowCount(source_index); ++r) {
    const QModelIndex child = m->index(r, 0, source_index);
    if (matches(child) || descendant_matches(child)) return true;
  }
  return false;
}

bool SettingsFilter::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
  if (text_.isEmpty()) return true;
  const QModelIndex idx = sourceModel()->index(source_row, 0, source_parent);
  for (QModelIndex a = idx; a.isValid(); a = a.parent())
    if (matches(a)) return true;
  return descendant_matches(idx);
}

QVariant SettingsFilter::data(const QModelIndex& index, int role) const {
  if (role == Qt::BackgroundRole && index.column() == SettingsModel::LabelColumn &&
      !text_.isEmpty()) {
    const QModelIndex source = mapToSource(index);
    if (!source.data(SettingsModel::RequiredUnsetRole).toBool() && matches(source))
      return match_colour(QGuiApplication::palette());
  }
  return QSortFilterProxyModel::data(index, role);
}

}  // namespace fringe::gui
