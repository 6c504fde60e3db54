// FitsViewer: the FITS image viewer of the results panel: colour map, scaling (linear,
// square root, logarithmic) between percentile clip limits, plane selection, zoom and pan
// (ImageCanvas), and under the cursor the pixel, its sky coordinate (SIN or TAN WCS: RA/Dec,
// or azimuth/elevation for the Horizon frame's HOLN/HOLT axes) and value. Files load off the
// GUI thread.
#pragma once

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>
#include <memory>

#include "gui/colour_map.h"
#include "gui/fits_image.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace fringe::gui {

class ImageCanvas;

enum class Scale { Linear, Sqrt, Log };

// The result of a load on a worker thread.
struct FitsLoad {
  std::shared_ptr<FitsImage> image;
  QString error;
};

struct RenderedImage {
  QImage image;  // top row first (ARGB32; blanks transparent)
  double low = 0, high = 0;
};
// Maps values in [low, high] (from the given percentiles of the finite pixels) through the
// scale and colour table.
RenderedImage render_fits(const FitsImage& img, const ColourTable& table, Scale scale,
                          double clip_percent);

class FitsViewer : public QWidget {
  Q_OBJECT

 public:
  explicit FitsViewer(QWidget* parent = nullptr);
  void open(const QString& path, int plane = 0);  // asynchronous
  const FitsImage* image() const { return image_.get(); }
  bool busy() const { return watcher_->isRunning(); }
  ImageCanvas* canvas() const { return canvas_; }
  // The status line text for FITS pixel (x, y): pixel, RA/Dec (Az/El) and value.
  QString describe(int x, int y) const;
  // The line above the image: file, size, planes and what the WCS is.
  QString title() const;

 signals:
  void loaded(const QString& path, const QString& error);

 private:
  void rerender();
  void on_loaded();
  QComboBox* map_;
  QComboBox* scale_;
  QComboBox* clip_;
  QSpinBox* plane_;
  QLabel* zoom_label_;
  QLabel* title_;
  QLabel* status_;
  ImageCanvas* canvas_;
  std::shared_ptr<FitsImage> image_;
  QFutureWatcher<FitsLoad>* watcher_;
  QString loading_path_;
};

}  // namespace fringe::gui
