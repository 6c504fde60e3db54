// ScatterPlot: a small 2-D point plot widget (Qt Widgets only, no Qt Charts) for the station
// layout and uv coverage: axes with round-number ticks, optional equal aspect, up to two point
// series with a legend, zoom with the wheel (about the cursor), pan by dragging, reset with a
// double click, and the coordinate (and nearest named point) under the cursor. Colours come
// from the palette; sizes from the font, so it follows the theme and the screen's DPI.
#pragma once

#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <array>

namespace fringe::gui {

class ScatterPlot : public QWidget {
  Q_OBJECT

 public:
  explicit ScatterPlot(QWidget* parent = nullptr);

  // Series 0 is drawn in the palette's highlight colour, series 1 in its link colour.
  void set_series(int series, QVector<QPointF> points, QStringList names = {}, QString legend = {});
  void clear();
  void set_title(const QString& title);
  void set_axis_labels(const QString& x, const QString& y);
  void set_equal_aspect(bool equal);
  void set_message(const QString& message);  // shown when there are no points
  void reset_view();
  int num_points() const;
  // Plot area in widget coordinates and the data point shown at a widget position.
  QRectF plot_rect() const;
  QPointF to_data(QPointF widget_pos) const;
  QPointF to_widget(QPointF data) const;

  QSize sizeHint() const override;

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
  struct Series {
    QVector<QPointF> points;
    QStringList names;
    QString legend;
  };
  void draw_axes(class QPainter& p, const QRectF& area) const;
  QString hover_text() const;

  std::array<Series, 2> series_;
  QString title_, x_label_, y_label_, message_;
  bool equal_aspect_ = true;
  bool user_view_ = false;
  double cx_ = 0.0, cy_ = 0.0, sx_ = 1.0, sy_ = 1.0;  // view centre; data units per pixel
  QPointF drag_start_;
  double drag_cx_ = 0.0, drag_cy_ = 0.0;
  bool dragging_ = false;
  QPointF hover_;
  bool hovering_ = false;
};

// Round tick positions covering [lo, hi] with about `target` intervals (1, 2, 5 x 10^k steps).
QVector<double> nice_ticks(double lo, double hi, int target = 6);

}  // namespace fringe::gui
