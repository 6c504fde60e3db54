#include "gui/image_canvas.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace fringe::gui {

ImageCanvas::ImageCanvas(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(200, 160);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
  setFocusPolicy(Qt::StrongFocus);
}

QSize ImageCanvas::sizeHint() const {
  const int h = fontMetrics().height();
  return {36 * h, 30 * h};
}

void ImageCanvas::set_image(QImage image, QImage bar, const QString& bar_low,
                            const QString& bar_high) {
  const bool same_size = image.size() == image_.size();
  image_ = std::move(image);
  bar_ = std::move(bar);
  bar_low_ = bar_low;
  bar_high_ = bar_high;
  message_.clear();
  if (!same_size || fitted_) fit();
  update();
}

void ImageCanvas::clear(const QString& message) {
  image_ = {};
  bar_ = {};
  message_ = message;
  update();
}

QRectF ImageCanvas::view_area() const {
  const double h = fontMetrics().height();
  const double bar_room =
      bar_.isNull() ? 0.0 : fontMetrics().horizontalAdvance("-0.000e-00") + 2.5 * h;
  return QRectF(0.5 * h, 0.5 * h, std::max(10.0, width() - bar_room - h),
                std::max(10.0, height() - h));
}

void ImageCanvas::fit() {
  fitted_ = true;
  if (image_.isNull()) return;
  const QRectF a = view_area();
  zoom_ = std::min(a.width() / image_.width(), a.height() / image_.height());
  offset_ = a.center() - QPointF(image_.width() * zoom_ / 2, image_.height() * zoom_ / 2);
  emit zoom_changed(zoom_);
  update();
}

void ImageCanvas::zoom_by(double factor) {
  if (image_.isNull()) return;
  const QPointF c = view_area().center();
  const QPointF at = to_image(c);
  zoom_ = std::clamp(zoom_ * factor, 0.01, 200.0);
  offset_ = c - at * zoom_;
  fitted_ = false;
  emit zoom_changed(zoom_);
  update();
}

QPointF ImageCanvas::to_image(QPointF w) const { return (w - offset_) / zoom_; }

bool ImageCanvas::pixel_at(QPointF widget_pos, int& x, int& y) const {
  if (image_.isNull()) return false;
  const QPointF p = to_image(widget_pos);
  const int col = static_cast<int>(std::floor(p.x()));
  const int row = static_cast<int>(std::floor(p.y()));
  if (col < 0 || row < 0 || col >= image_.width() || row >= image_.height()) return false;
  x = col;
  y = image_.height() - 1 - row;  // back to FITS orientation
  return true;
}

void ImageCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  if (image_.isNull()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               message_.isEmpty() ? tr("No image") : message_);
    return;
  }
  // Nearest neighbour when zoomed in, so pixels stay visible; smooth when zoomed out.
  p.setRenderHint(QPainter::SmoothPixmapTransform, zoom_ < 1.0);
  p.save();
  p.setClipRect(view_area());
  p.drawImage(QRectF(offset_, QSizeF(image_.width() * zoom_, image_.height() * zoom_)), image_);
  p.restore();
  if (!bar_.isNull()) {
    const QFontMetrics fm = fontMetrics();
    const QRectF a = view_area();
    const QRectF bar(a.right() + 0.8 * fm.height(), a.top() + fm.height(), fm.height(),
                     a.height() - 2 * fm.height());
    p.save();
    p.translate(bar.bottomLeft());
    p.rotate(-90);  // the 256 x 1 bar runs from low (bottom) to high (top)
    p.drawImage(QRectF(0, 0, bar.height(), bar.width()), bar_);
    p.restore();
    p.setPen(palette().color(QPalette::Text));
    p.drawRect(bar);
    p.drawText(QPointF(bar.right() + 0.3 * fm.height(), bar.top() + fm.ascent() / 2.0), bar_high_);
    p.drawText(QPointF(bar.right() + 0.3 * fm.height(), bar.bottom() + fm.ascent() / 2.0),
               bar_low_);
  }
}

void ImageCanvas::resizeEvent(QResizeEvent*) {
  if (fitted_) fit();
}

void ImageCanvas::wheelEvent(QWheelEvent* event) {
  if (image_.isNull()) return;
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  const QPointF at = to_image(event->position());
  zoom_ = std::clamp(zoom_ * std::pow(1.25, steps), 0.01, 200.0);
  offset_ = event->position() - at * zoom_;
  fitted_ = false;
  emit zoom_changed(zoom_);
  update();
}

void ImageCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  dragging_ = true;
  drag_start_ = event->position();
  drag_offset_ = offset_;
  setCursor(Qt::ClosedHandCursor);
}

void ImageCanvas::mouseMoveEvent(QMouseEvent* event) {
  if (dragging_) {
    offset_ = drag_offset_ + (event->position() - drag_start_);
    fitted_ = false;
    update();
  }
  int x = 0, y = 0;
  if (pixel_at(event->position(), x, y))
    emit hovered(x, y);
  else
    emit left();
}

void ImageCanvas::mouseReleaseEvent(QMouseEvent*) {
  dragging_ = false;
  unsetCursor();
}

void ImageCanvas::mouseDoubleClickEvent(QMouseEvent*) { fit(); }

void ImageCanvas::leaveEvent(QEvent*) { emit left(); }

}  // namespace fringe::gui
