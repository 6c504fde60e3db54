#include "gui/results_panel.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "gui/fits_viewer.h"
#include "gui/scatter_plot.h"

namespace fringe::gui {

namespace {

QWidget* plot_page(ScatterPlot* plot, QLabel* info, QWidget* parent) {
  auto* page = new QWidget(parent);
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  info->setWordWrap(true);
  info->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(plot, 1);
  layout->addWidget(info);
  return page;
}

bool is_ms(const QString& path) {
  return path.endsWith(".ms", Qt::CaseInsensitive) || QFileInfo(path + "/table.dat").exists();
}

bool is_fits(const QString& path) {
  return path.endsWith(".fits", Qt::CaseInsensitive) || path.endsWith(".fit", Qt::CaseInsensitive);
}

}  // namespace

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* split = new QSplitter(Qt::Vertical, this);
  outputs_ = new QTreeWidget(split);
  outputs_->setHeaderLabels({tr("Output"), tr("Path"), tr("Status")});
  outputs_->setRootIsDecorated(false);
  outputs_->setToolTip(tr("Double click an output to show it"));
  outputs_->header()->setStretchLastSection(false);
  outputs_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
  tabs_ = new QTabWidget(split);
  station_plot_ = new ScatterPlot(tabs_);
  station_plot_->set_axis_labels(tr("East (m)"), tr("North (m)"));
  station_plot_->set_title(tr("Station layout"));
  station_plot_->set_message(tr("Set the telescope model folder to see its stations."));
  station_info_ = new QLabel(tabs_);
  uv_plot_ = new ScatterPlot(tabs_);
  uv_plot_->set_axis_labels(tr("u (m)"), tr("v (m)"));
  uv_plot_->set_title(tr("uv coverage"));
  uv_plot_->set_message(
      tr("No Measurement Set yet. Run a simulation or use File > Open Measurement Set..."));
  uv_info_ = new QLabel(tabs_);
  fits_ = new FitsViewer(tabs_);
  tabs_->addTab(plot_page(station_plot_, station_info_, tabs_), tr("Station layout"));
  tabs_->addTab(plot_page(uv_plot_, uv_info_, tabs_), tr("uv coverage"));
  tabs_->addTab(fits_, tr("Image"));
  split->addWidget(outputs_);
  split->addWidget(tabs_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 5);
  layout->addWidget(split);

  layout_watcher_ = new QFutureWatcher<StationLayout>(this);
  uv_watcher_ = new QFutureWatcher<UvCoverage>(this);
  connect(layout_watcher_, &QFutureWatcher<StationLayout>::finished, this,
          &ResultsPanel::on_layout_loaded);
  connect(uv_watcher_, &QFutureWatcher<UvCoverage>::finished, this, &ResultsPanel::on_uv_loaded);
  connect(outputs_, &QTreeWidget::itemActivated, this, &ResultsPanel::open_output);
}

void ResultsPanel::set_outputs(const QList<QPair<QString, QString>>& outputs) {
  outputs_->clear();
  for (const auto& [key, path] : outputs) {
    auto* item = new QTreeWidgetItem(outputs_);
    item->setText(0, key);
    item->setText(1, path);
    item->setToolTip(1, path);
    QFileInfo info(path);
    if (info.isDir())
      item->setText(2, tr("written (folder)"));
    else if (info.exists())
      item->setText(2, tr("written, %1").arg(QLocale().formattedDataSize(info.size())));
    else
      item->setText(2, tr("not written"));
    item->setData(0, Qt::UserRole, path);
  }
  outputs_->resizeColumnToContents(0);
  outputs_->resizeColumnToContents(2);
}

void ResultsPanel::open_output(QTreeWidgetItem* item) {
  const QString path = item->data(0, Qt::UserRole).toString();
  if (!QFileInfo::exists(path)) return;
  if (is_ms(path)) {
    open_ms(path);
  } else if (is_fits(path)) {
    open_fits(path);
  } else {
    QDesktopServices::openUrl(QUrl::fromLocalFile(path));
  }
}

bool ResultsPanel::busy() const {
  return layout_watcher_->isRunning() || uv_watcher_->isRunning() || fits_->busy();
}

void ResultsPanel::show_tab(Tab tab) { tabs_->setCurrentIndex(tab); }

void ResultsPanel::show_station_layout(const QString& tm_directory) {
  station_dir_ = tm_directory;
  if (tm_directory.isEmpty()) {
    station_plot_->clear();
    station_info_->setText(tr("No telescope model is set (telescope/input_directory)."));
    return;
  }
  station_info_->setText(tr("Loading %1...").arg(tm_directory));
  layout_watcher_->setFuture(QtConcurrent::run(load_station_layout, tm_directory));
}

void ResultsPanel::on_layout_loaded() {
  const StationLayout l = layout_watcher_->result();
  if (!l.error.isEmpty()) {
    station_plot_->clear();
    station_plot_->set_message(tr("Could not load the telescope model."));
    station_info_->setText(l.error);
    emit station_layout_loaded(false, l.error);
    return;
  }
  const bool errors = l.true_en != l.measured_en;
  station_plot_->set_series(0, l.measured_en, l.names, errors ? tr("measured") : QString());
  station_plot_->set_series(1, errors ? l.true_en : QVector<QPointF>{},
                            errors ? l.names : QStringList{}, tr("true (with errors)"));
  station_plot_->set_title(tr("%1: %n station(s)", "", static_cast<int>(l.names.size()))
                               .arg(QFileInfo(l.directory).fileName()));
  QString info = tr("%1 — array centre lon %2\u00b0, lat %3\u00b0")
                     .arg(l.directory)
                     .arg(l.lon_deg, 0, 'f', 6)
                     .arg(l.lat_deg, 0, 'f', 6);
  if (!l.warnings.isEmpty()) info += "\n" + tr("Warnings: ") + l.warnings.join("; ");
  station_info_->setText(info);
  emit station_layout_loaded(true, info);
}

void ResultsPanel::open_ms(const QString& path) {
  show_tab(UvTab);
  uv_info_->setText(tr("Loading %1...").arg(path));
  uv_watcher_->setFuture(QtConcurrent::run([path] { return load_uv_coverage(path); }));
}

void ResultsPanel::on_uv_loaded() {
  const UvCoverage uv = uv_watcher_->result();
  if (!uv.error.isEmpty()) {
    uv_plot_->clear();
    uv_plot_->set_message(tr("Could not read the Measurement Set."));
    uv_info_->setText(uv.error);
    emit uv_coverage_loaded(false, uv.error);
    return;
  }
  uv_plot_->set_series(0, uv.uv);
  uv_plot_->set_title(tr("uv coverage: %1").arg(QFileInfo(uv.path).fileName()));
  QString info = tr("%1 rows, %2 stations, %3 channel(s) %4–%5 MHz")
                     .arg(uv.num_rows)
                     .arg(uv.num_stations)
                     .arg(uv.num_channels)
                     .arg(uv.freq_min_hz / 1e6, 0, 'g', 8)
                     .arg(uv.freq_max_hz / 1e6, 0, 'g', 8);
  if (!uv.telescope.isEmpty()) info += tr(", telescope %1").arg(uv.telescope);
  if (uv.thinned) info += tr("; %1 rows plotted (thinned)").arg(uv.rows_used);
  info += tr("; each baseline drawn at (u, v) and (\u2212u, \u2212v)");
  uv_info_->setText(info);
  emit uv_coverage_loaded(true, info);
}

void ResultsPanel::open_fits(const QString& path) {
  show_tab(ImageTab);
  fits_->open(path);
}

}  // namespace fringe::gui
