// ResultsPanel: what a run produced and plots of it: the output paths named by the settings
// (and whether each exists), the station layout of the telescope model, the uv coverage of a
// Measurement Set and a FITS image viewer. Loading happens off the GUI thread.
#pragma once

#include <QFutureWatcher>
#include <QList>
#include <QPair>
#include <QWidget>

#include "gui/plot_data.h"

class QLabel;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace fringe::gui {

class FitsViewer;
class ScatterPlot;

class ResultsPanel : public QWidget {
  Q_OBJECT

 public:
  enum Tab { StationTab = 0, UvTab = 1, ImageTab = 2 };
  explicit ResultsPanel(QWidget* parent = nullptr);

  // (setting key, absolute path) of each output file the settings name.
  void set_outputs(const QList<QPair<QString, QString>>& outputs);
  void show_station_layout(const QString& tm_directory);
  void open_ms(const QString& path);
  void open_fits(const QString& path);
  void show_tab(Tab tab);
  // True while a telescope model, Measurement Set or image is being loaded.
  bool busy() const;

  ScatterPlot* station_plot() const { return station_plot_; }
  ScatterPlot* uv_plot() const { return uv_plot_; }
  FitsViewer* fits_viewer() const { return fits_; }
  QTreeWidget* outputs() const { return outputs_; }
  QString station_layout_directory() const { return station_dir_; }

 signals:
  void station_layout_loaded(bool ok, const QString& message);
  void uv_coverage_loaded(bool ok, const QString& message);

 private:
  void open_output(QTreeWidgetItem* item);
  void on_layout_loaded();
  void on_uv_loaded();

  QTreeWidget* outputs_;
  QTabWidget* tabs_;
  ScatterPlot* station_plot_;
  QLabel* station_info_;
  ScatterPlot* uv_plot_;
  QLabel* uv_info_;
  FitsViewer* fits_;
  QString station_dir_;
  QFutureWatcher<StationLayout>* layout_watcher_;
  QFutureWatcher<UvCoverage>* uv_watcher_;
};

}  // namespace fringe::gui
