// ImageCanvas: draws a rendered image (FITS row 0 at the bottom) with zoom about the cursor
// (wheel), pan (drag), fit-to-window (double click), nearest-neighbour pixels when zoomed in,
// and a colour bar. Reports the image pixel under the cursor.
#pragma once

#include <QImage>
#include <QString>
#include <QWidget>

namespace fringe::gui {

class ImageCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit ImageCanvas(QWidget* parent = nullptr);

  // `image` is top row first (already flipped from FITS order); `bar` is a 256 x 1 colour bar.
  void set_image(QImage image, QImage bar, const QString& bar_low, const QString& bar_high);
  void clear(const QString& message);
  void fit();
  void zoom_by(double factor);
  double zoom() const { return zoom_; }
  // The image pixel (0-based, FITS orientation: y up) under a widget position; false outside.
  bool pixel_at(QPointF widget_pos, int& x, int& y) const;

  QSize sizeHint() const override;

 signals:
  void hovered(int x, int y);  // FITS pixel under the cursor
  void left();                 // the cursor left the image
  void zoom_changed(double zoom);

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  QRectF view_area() const;  // where the image may be drawn (leaves room for the bar)
  QPointF to_image(QPointF w) const;
  QImage image_, bar_;
  QString bar_low_, bar_high_, message_;
  double zoom_ = 1.0;  // screen (logical) pixels per image pixel
  QPointF offset_;     // widget position of the image's top-left corner
  bool fitted_ = true;
  bool dragging_ = false;
  QPointF drag_start_, drag_offset_;
};

}  // namespace fringe::gui
