#include "gui/scatter_plot.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

namespace fringe::gui {

QVector<double> nice_ticks(double lo, double hi, int target) {
  QVector<double> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.append(std::abs(t) < step * 1e-9 ? 0.0 : t);
  return ticks;
}

ScatterPlot::ScatterPlot(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(200, 160);
  setFocusPolicy(Qt::StrongFocus);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

QSize ScatterPlot::sizeHint() const {
  const int h = fontMetrics().height();
  return {36 * h, 30 * h};
}

void ScatterPlot::set_series(int series, QVector<QPointF> points, QStringList names,
                             QString legend) {
  if (series < 0 || series > 1) return;
  series_[series] = {std::move(points), std::move(names), std::move(legend)};
  user_view_ = false;
  reset_view();
}

void ScatterPlot::clear() {
  for (auto& s : series_) s = {};
  reset_view();
}

void ScatterPlot::set_title(const QString& title) {
  title_ = title;
  update();
}

void ScatterPlot::set_axis_labels(const QString& x, const QString& y) {
  x_label_ = x;
  y_label_ = y;
  update();
}

void ScatterPlot::set_equal_aspect(bool equal) {
  equal_aspect_ = equal;
  reset_view();
}

void ScatterPlot::set_message(const QString& message) {
  message_ = message;
  update();
}

int ScatterPlot::num_points() const {
  return static_cast<int>(series_[0].points.size() + series_[1].points.size());
}

QRectF ScatterPlot::plot_rect() const {
  const QFontMetrics fm = fontMetrics();
  const double h = fm.height();
  const double left = fm.horizontalAdvance("-0000.0") + 2.5 * h;
  const double top = 2.2 * h;
  const double bottom = 3.2 * h;
  const double right = 1.2 * h;
  return QRectF(left, top, std::max(10.0, width() - left - right),
                std::max(10.0, height() - top - bottom));
}

QPointF ScatterPlot::to_widget(QPointF d) const {
  const QPointF c = plot_rect().center();
  return {c.x() + (d.x() - cx_) / sx_, c.y() - (d.y() - cy_) / sy_};
}

QPointF ScatterPlot::to_data(QPointF w) const {
  const QPointF c = plot_rect().center();
  return {cx_ + (w.x() - c.x()) * sx_, cy_ - (w.y() - c.y()) * sy_};
}

void ScatterPlot::reset_view() {
  double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const auto& s : series_)
    for (const auto& p : s.points) {
      x0 = std::min(x0, p.x());
      x1 = std::max(x1, p.x());
      y0 = std::min(y0, p.y());
      y1 = std::max(y1, p.y());
    }
  if (x0 > x1) x0 = -1, x1 = 1, y0 = -1, y1 = 1;
  double wx = x1 - x0, wy = y1 - y0;
  const double span = std::max({wx, wy, 1e-9});
  if (wx <= 0) wx = span;
  if (wy <= 0) wy = span;
  cx_ = 0.5 * (x0 + x1);
  cy_ = 0.5 * (y0 + y1);
  const QRectF r = plot_rect();
  sx_ = 1.1 * wx / r.width();
  sy_ = 1.1 * wy / r.height();
  if (equal_aspect_) sx_ = sy_ = std::max(sx_, sy_);
  user_view_ = false;
  update();
}

void ScatterPlot::resizeEvent(QResizeEvent*) {
  if (!user_view_) reset_view();
}

void ScatterPlot::draw_axes(QPainter& p, const QRectF& area) const {
  const QPalette& pal = palette();
  const QFontMetrics fm = fontMetrics();
  const QPointF d0 = to_data(area.bottomLeft()), d1 = to_data(area.topRight());
  QPen grid(pal.color(QPalette::Mid));
  grid.setStyle(Qt::DotLine);
  grid.setCosmetic(true);
  const QPen text_pen(pal.color(QPalette::Text));
  for (double t : nice_ticks(d0.x(), d1.x())) {
    const double x = to_widget({t, 0}).x();
    p.setPen(grid);
    p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    p.setPen(text_pen);
    const QString s = QString::number(t, 'g', 6);
    p.drawText(QPointF(x - fm.horizontalAdvance(s) / 2.0, area.bottom() + fm.height()), s);
  }
  for (double t : nice_ticks(d0.y(), d1.y())) {
    const double y = to_widget({0, t}).y();
    p.setPen(grid);
    p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    p.setPen(text_pen);
    const QString s = QString::number(t, 'g', 6);
    p.drawText(QPointF(area.left() - fm.horizontalAdvance(s) - 0.4 * fm.height(),
                       y + fm.ascent() / 2.0 - 1),
               s);
  }
  p.setPen(text_pen);
  p.drawRect(area);
  p.drawText(QRectF(area.left(), area.bottom() + 1.2 * fm.height(), area.width(), fm.height()),
             Qt::AlignHCenter, x_label_);
  p.save();
  p.translate(0.9 * fm.height(), area.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-area.height() / 2, -fm.height(), area.height(), 1.2 * fm.height()),
             Qt::AlignHCenter, y_label_);
  p.restore();
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.drawText(QRectF(0, 0.4 * fm.height(), width(), 1.4 * fm.height()), Qt::AlignHCenter, title_);
  p.setFont(font());
}

void ScatterPlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, true);
  const QRectF area = plot_rect();
  const QFontMetrics fm = fontMetrics();
  draw_axes(p, area);
  if (num_points() == 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
               message_.isEmpty() ? tr("Nothing to show") : message_);
    return;
  }
  p.save();
  p.setClipRect(area);
  const QColor colours[2] = {palette().color(QPalette::Highlight), palette().color(QPalette::Link)};
  const double dot = std::max(2.0, fm.height() / 4.0);
  for (int s = 1; s >= 0; --s) {
    const auto& pts = series_[s].points;
    if (pts.isEmpty()) continue;
    if (pts.size() > 5000) {  // dense (uv coverage): plain dots are much faster
      QPen pen(colours[s]);
      pen.setWidthF(std::max(1.5, dot / 2));
      pen.setCapStyle(Qt::RoundCap);
      p.setPen(pen);
      QVector<QPointF> w;
      w.reserve(pts.size());
      for (const auto& q : pts) w.append(to_widget(q));
      p.drawPoints(w.constData(), static_cast<int>(w.size()));
    } else {
      p.setPen(QPen(colours[s].darker(130), 1.0));
      p.setBrush(colours[s]);
      for (const auto& q : pts) p.drawEllipse(to_widget(q), dot, dot);
    }
  }
  p.restore();
  // Legend (top right, inside the plot).
  double y = area.top() + 0.5 * fm.height();
  for (int s = 0; s < 2; ++s) {
    if (series_[s].legend.isEmpty() || series_[s].points.isEmpty()) continue;
    const double w = fm.horizontalAdvance(series_[s].legend);
    const QPointF at(area.right() - w - 0.6 * fm.height(), y + fm.ascent());
    p.setPen(Qt::NoPen);
    p.setBrush(colours[s]);
    p.drawEllipse(QPointF(at.x() - 0.8 * fm.height(), y + fm.height() / 2.0), dot, dot);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(at, series_[s].legend);
    y += 1.3 * fm.height();
  }
  if (hovering_) {
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(area.left(), height() - 1.3 * fm.height(), area.width(), fm.height()),
               Qt::AlignLeft, hover_text());
  }
}

QString ScatterPlot::hover_text() const {
  const QPointF d = to_data(hover_);
  QString text = QString("x = %1, y = %2").arg(d.x(), 0, 'g', 7).arg(d.y(), 0, 'g', 7);
  // Nearest named point within a few pixels.
  const double reach = fontMetrics().height() * 0.6;
  double best = reach * reach;
  QString name;
  QPointF at;
  for (const auto& s : series_) {
    for (qsizetype i = 0; i < s.points.size() && i < s.names.size(); ++i) {
      const QPointF w = to_widget(s.points[i]) - hover_;
      const double d2 = w.x() * w.x() + w.y() * w.y();
      if (d2 < best) {
        best = d2;
        name = s.names[i];
        at = s.points[i];
      }
    }
  }
  if (!name.isEmpty())
    text += QString("   %1 (%2, %3)").arg(name).arg(at.x(), 0, 'f', 2).arg(at.y(), 0, 'f', 2);
  return text;
}

void ScatterPlot::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  const double factor = std::pow(0.8, steps);
  const QPointF before = to_data(event->position());
  sx_ *= factor;
  sy_ *= factor;
  const QPointF after = to_data(event->position());
  cx_ += before.x() - after.x();
  cy_ += before.y() - after.y();
  user_view_ = true;
  update();
}

void ScatterPlot::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  dragging_ = true;
  drag_start_ = event->position();
  drag_cx_ = cx_;
  drag_cy_ = cy_;
  setCursor(Qt::ClosedHandCursor);
}

void ScatterPlot::mouseMoveEvent(QMouseEvent* event) {
  hover_ = event->position();
  hovering_ = plot_rect().contains(hover_);
  if (dragging_) {
    const QPointF d = event->position() - drag_start_;
    cx_ = drag_cx_ - d.x() * sx_;
    cy_ = drag_cy_ + d.y() * sy_;
    user_view_ = true;
  }
  update();
}

void ScatterPlot::mouseReleaseEvent(QMouseEvent*) {
  dragging_ = false;
  unsetCursor();
}

void ScatterPlot::mouseDoubleClickEvent(QMouseEvent*) { reset_view(); }

void ScatterPlot::leaveEvent(QEvent*) {
  hovering_ = false;
  update();
}

}  // namespace fringe::gui
