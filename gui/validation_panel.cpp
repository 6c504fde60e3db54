#include "gui/validation_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace fringe::gui {

ValidationPanel::ValidationPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  summary_ = new QLabel(tr("Not validated yet."), this);
  list_ = new QTreeWidget(this);
  list_->setColumnCount(5);
  list_->setHeaderLabels({tr(""), tr("Setting"), tr("Value"), tr("Line"), tr("Problem")});
  list_->setRootIsDecorated(false);
  list_->setUniformRowHeights(true);
  list_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  list_->header()->setStretchLastSection(true);
  layout->addWidget(summary_);
  layout->addWidget(list_);
  connect(list_, &QTreeWidget::itemClicked, this,
          [this](QTreeWidgetItem* item) { activate(item); });
  connect(list_, &QTreeWidget::itemActivated, this,
          [this](QTreeWidgetItem* item) { activate(item); });
}

void ValidationPanel::clear() {
  list_->clear();
  errors_ = warnings_ = 0;
  summary_->setText(tr("Not validated yet."));
}

void ValidationPanel::show_problems(const std::vector<fringe::settings::Problem>& problems) {
  list_->clear();
  errors_ = warnings_ = 0;
  const QIcon error_icon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
  const QIcon warning_icon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
  for (const auto& p : problems) {
    auto* item = new QTreeWidgetItem(list_);
    item->setIcon(0, p.warning ? warning_icon : error_icon);
    item->setToolTip(0, p.warning ? tr("Warning") : tr("Error"));
    item->setText(1, QString::fromStdString(p.key));
    item->setText(2, QString::fromStdString(p.value));
    // The settings file's line (load problems: unknown keys, lines without '=', bad values).
    if (p.line > 0) item->setText(LineColumn, QString::number(p.line));
    item->setText(ProblemColumn, QString::fromStdString(p.message));
    item->setToolTip(ProblemColumn, QString::fromStdString(p.text()));
    item->setData(1, Qt::UserRole, QString::fromStdString(p.key));
    (p.warning ? warnings_ : errors_)++;
  }
  list_->resizeColumnToContents(1);
  list_->resizeColumnToContents(LineColumn);
  if (problems.empty())
    summary_->setText(tr("The settings are valid."));
  else
    summary_->setText(tr("%n error(s)", "", errors_) + ", " + tr("%n warning(s)", "", warnings_) +
                      tr(" — click a problem to go to its setting."));
}

void ValidationPanel::activate(QTreeWidgetItem* item) {
  if (!item) return;
  const QString key = item->data(1, Qt::UserRole).toString();
  if (!key.isEmpty()) emit setting_activated(key);
}

}  // namespace fringe::gui
