// SettingsFilter: the search filter of the settings tree. A row stays visible when its label
// or key contains the text (case-insensitive), when an ancestor matches (so a matching group
// shows its settings) or when a descendant matches (so matches keep their ancestors). Matching
// rows are highlighted.
#pragma once

#include <QSortFilterProxyModel>
#include <QString>

namespace fringe::gui {

class SettingsModel;

class SettingsFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit SettingsFilter(QObject* parent = nullptr);
  void set_filter_text(const QString& text);
  const QString& filter_text() const { return text_; }
  // True when this source row's label or key contains the filter text.
  bool matches(const QModelIndex& source_index) const;

  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

 protected:
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  bool descendant_matches(const QModelIndex& source_index) const;
  QString text_;
};

}  // namespace fringe::gui
