#include "gui/fits_viewer.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "gui/image_canvas.h"

namespace fringe::gui {

RenderedImage render_fits(const FitsImage& img, const ColourTable& table, Scale scale,
                          double clip_percent) {
  RenderedImage out;
  // Percentile limits from (at most ~1e6) evenly spaced finite samples.
  std::vector<float> samples;
  const size_t n = img.pixels.size();
  const size_t stride = std::max<size_t>(1, n / 1000000);
  samples.reserve(n / stride + 1);
  for (size_t i = 0; i < n; i += stride)
    if (std::isfinite(img.pixels[i])) samples.push_back(img.pixels[i]);
  if (!samples.empty()) {
    const double tail = (100.0 - clip_percent) / 200.0;
    auto at = [&](double q) {
      const size_t k =
          std::min(samples.size() - 1, static_cast<size_t>(std::lround(q * (samples.size() - 1))));
      std::nth_element(samples.begin(), samples.begin() + static_cast<long>(k), samples.end());
      return static_cast<double>(samples[k]);
    };
    out.low = at(tail);
    out.high = at(1.0 - tail);
  }
  const double span = out.high > out.low ? out.high - out.low : 1.0;
  out.image = QImage(img.width, img.height, QImage::Format_ARGB32);
  for (int y = 0; y < img.height; ++y) {
    auto* line = reinterpret_cast<QRgb*>(out.image.scanLine(img.height - 1 - y));
    for (int x = 0; x < img.width; ++x) {
      const float v = img.value(x, y);
      if (!std::isfinite(v)) {
        line[x] = qRgba(0, 0, 0, 0);
        continue;
      }
      double t = std::clamp((v - out.low) / span, 0.0, 1.0);
      if (scale == Scale::Sqrt) t = std::sqrt(t);
      if (scale == Scale::Log) t = std::log10(1.0 + 999.0 * t) / 3.0;  // 3 decades
      line[x] = table[static_cast<size_t>(std::lround(t * 255.0))];
    }
  }
  return out;
}

FitsViewer::FitsViewer(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QHBoxLayout;
  map_ = new QComboBox(this);
  map_->addItems(colour_map_names());
  map_->setCurrentIndex(static_cast<int>(ColourMap::Viridis));
  map_->setToolTip(tr("Colour map"));
  scale_ = new QComboBox(this);
  scale_->addItems({tr("Linear"), tr("Square root"), tr("Logarithmic")});
  scale_->setToolTip(tr("Scaling between the limits"));
  clip_ = new QComboBox(this);
  clip_->addItems({"100%", "99.9%", "99.5%", "99%", "95%"});
  clip_->setCurrentIndex(1);
  clip_->setToolTip(tr("Percentage of pixels between the colour limits"));
  plane_ = new QSpinBox(this);
  plane_->setPrefix(tr("plane "));
  plane_->setEnabled(false);
  auto* zoom_in = new QToolButton(this);
  zoom_in->setText("+");
  zoom_in->setToolTip(tr("Zoom in (or use the mouse wheel)"));
  auto* zoom_out = new QToolButton(this);
  zoom_out->setText("\u2212");
  zoom_out->setToolTip(tr("Zoom out"));
  auto* fit = new QToolButton(this);
  fit->setText(tr("Fit"));
  fit->setToolTip(tr("Fit the image to the window (or double click)"));
  zoom_label_ = new QLabel(this);
  for (QWidget* w : std::initializer_list<QWidget*>{map_, scale_, clip_, plane_, zoom_in, zoom_out,
                                                    fit, zoom_label_})
    bar->addWidget(w);
  bar->addStretch(1);
  title_ = new QLabel(this);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  title_->setWordWrap(true);  // a long file name or WCS line must not widen the panel
  canvas_ = new ImageCanvas(this);
  canvas_->clear(tr("No image open. Use File > Open FITS Image..."));
  status_ = new QLabel(this);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setMinimumWidth(10);
  layout->addLayout(bar);
  layout->addWidget(title_);
  layout->addWidget(canvas_, 1);
  layout->addWidget(status_);

  watcher_ = new QFutureWatcher<FitsLoad>(this);
  connect(watcher_, &QFutureWatcher<FitsLoad>::finished, this, &FitsViewer::on_loaded);
  for (QComboBox* c : {map_, scale_, clip_})
    connect(c, &QComboBox::currentIndexChanged, this, &FitsViewer::rerender);
  connect(plane_, &QSpinBox::valueChanged, this, [this](int p) {
    if (image_ && p != image_->plane) open(image_->path, p);
  });
  connect(zoom_in, &QToolButton::clicked, this, [this] { canvas_->zoom_by(1.25); });
  connect(zoom_out, &QToolButton::clicked, this, [this] { canvas_->zoom_by(0.8); });
  connect(fit, &QToolButton::clicked, canvas_, &ImageCanvas::fit);
  connect(canvas_, &ImageCanvas::zoom_changed, this, [this](double z) {
    zoom_label_->setText(tr("zoom %1%").arg(z * 100.0, 0, 'f', z < 0.1 ? 1 : 0));
  });
  connect(canvas_, &ImageCanvas::hovered, this,
          [this](int x, int y) { status_->setText(describe(x, y)); });
  connect(canvas_, &ImageCanvas::left, this, [this] { status_->clear(); });
}

void FitsViewer::open(const QString& path, int plane) {
  loading_path_ = path;
  title_->setText(tr("Loading %1...").arg(path));
  watcher_->setFuture(QtConcurrent::run([path, plane]() -> FitsLoad {
    try {
      return {std::make_shared<FitsImage>(load_fits_image(path, plane)), {}};
    } catch (const std::exception& e) {
      return {nullptr, QString::fromUtf8(e.what())};
    }
  }));
}

void FitsViewer::on_loaded() {
  FitsLoad result = watcher_->result();
  if (!result.image) {
    title_->setText(tr("Could not open the image: %1").arg(result.error.toHtmlEscaped()));
    emit loaded(loading_path_, result.error);
    return;
  }
  image_ = std::move(result.image);
  const QSignalBlocker block(plane_);
  plane_->setRange(0, image_->num_planes - 1);
  plane_->setValue(image_->plane);
  plane_->setEnabled(image_->num_planes > 1);
  const FitsWcs& w = image_->wcs;
  QString wcs;
  if (!w.supported())
    wcs =
        tr("no supported celestial WCS (%1 %2): pixel and value only").arg(w.ctype[0], w.ctype[1]);
  else if (w.frame == SkyFrame::Equatorial)
    wcs = tr("%1 projection, centre %2 %3")
              .arg(w.projection, format_ra(w.crval[0]), format_dec(w.crval[1]));
  else if (w.frame == SkyFrame::Horizon)
    wcs = tr("%1 projection, Horizon frame: azimuth (Az, from North through East) and "
             "elevation (El), centre El %2\u00b0")
              .arg(w.projection)
              .arg(w.crval[1]);
  else
    wcs = tr("%1 projection, centre %2 %3\u00b0, %4 %5\u00b0")
              .arg(w.projection, w.lon_name())
              .arg(w.crval[0])
              .arg(w.lat_name())
              .arg(w.crval[1]);
  title_->setText(tr("<b>%1</b> — %2 x %3 pixels, %4 plane(s); %5")
                      .arg(QFileInfo(image_->path).fileName().toHtmlEscaped())
                      .arg(image_->width)
                      .arg(image_->height)
                      .arg(image_->num_planes)
                      .arg(wcs.toHtmlEscaped()));
  rerender();
  emit loaded(image_->path, {});
}

void FitsViewer::rerender() {
  if (!image_) return;
  static const double clips[] = {100.0, 99.9, 99.5, 99.0, 95.0};
  const auto table = colour_table(static_cast<ColourMap>(map_->currentIndex()));
  const auto r = render_fits(*image_, table, static_cast<Scale>(scale_->currentIndex()),
                             clips[std::clamp(clip_->currentIndex(), 0, 4)]);
  QImage bar(256, 1, QImage::Format_ARGB32);
  const auto scale = static_cast<Scale>(scale_->currentIndex());
  for (int i = 0; i < 256; ++i) {
    double t = i / 255.0;
    if (scale == Scale::Sqrt) t = std::sqrt(t);
    if (scale == Scale::Log) t = std::log10(1.0 + 999.0 * t) / 3.0;
    bar.setPixel(i, 0, table[static_cast<size_t>(std::lround(t * 255.0))]);
  }
  canvas_->set_image(r.image, bar, QString::number(r.low, 'g', 4), QString::number(r.high, 'g', 4));
}

QString FitsViewer::title() const { return title_->text(); }

QString FitsViewer::describe(int x, int y) const {
  if (!image_ || x < 0 || y < 0 || x >= image_->width || y >= image_->height) return {};
  // FITS pixels are 1-based.
  QString s = tr("pixel (%1, %2)").arg(x + 1).arg(y + 1);
  const FitsWcs& w = image_->wcs;
  if (auto sky = pixel_to_sky(w, x, y)) {
    if (w.frame == SkyFrame::Equatorial)
      s += tr("   RA %1  Dec %2  (%3\u00b0, %4\u00b0)")
               .arg(format_ra(sky->lon_deg), format_dec(sky->lat_deg))
               .arg(sky->lon_deg, 0, 'f', 5)
               .arg(sky->lat_deg, 0, 'f', 5);
    else
      s += tr("   %1 %2\u00b0  %3 %4\u00b0")
               .arg(w.lon_name())
               .arg(sky->lon_deg, 0, 'f', 4)
               .arg(w.lat_name())
               .arg(sky->lat_deg, 0, 'f', 4);
  } else if (w.supported()) {
    s += tr("   (outside the projection)");
  }
  const float v = image_->value(x, y);
  s += tr("   value %1 %2")
           .arg(std::isfinite(v) ? QString::number(v, 'g', 6) : tr("blank"), image_->bunit);
  return s;
}

}  // namespace fringe::gui
