#include "gui/theme.h"

#include <QApplication>
#include <QProxyStyle>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <memory>

namespace fringe::gui {

QColor required_colour() { return QColor(0xc0, 0x39, 0x2b); }

QColor match_colour(const QPalette& palette) {
  QColor c = palette.color(QPalette::Highlight);
  c.setAlpha(90);
  return c;
}

bool palette_is_dark(const QPalette& palette) {
  return palette.color(QPalette::Window).lightness() < 128;
}

namespace {

// Fusion draws a check box's frame in the window colour darkened, which vanishes against a
// dark base: with a dark palette the frame is drawn in a mid grey instead, so unchecked boxes
// (settings tree, run dialog) stay visible.
class VisibleCheckStyle : public QProxyStyle {
 public:
  using QProxyStyle::QProxyStyle;
  void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override {
    if ((element == PE_IndicatorCheckBox || element == PE_IndicatorItemViewItemCheck) &&
        palette_is_dark(option->palette)) {
      std::unique_ptr<QStyleOption> copy;
      if (auto* view = qstyleoption_cast<const QStyleOptionViewItem*>(option))
        copy = std::make_unique<QStyleOptionViewItem>(*view);
      else if (auto* button = qstyleoption_cast<const QStyleOptionButton*>(option))
        copy = std::make_unique<QStyleOptionButton>(*button);
      else
        copy = std::make_unique<QStyleOption>(*option);
      copy->palette.setColor(QPalette::Window, QColor(0xa0, 0xa0, 0xa0));
      QProxyStyle::drawPrimitive(element, copy.get(), painter, widget);
      return;
    }
    QProxyStyle::drawPrimitive(element, option, painter, widget);
  }
};

}  // namespace

void apply_theme(bool dark) {
  // QApplication takes ownership of the style.
  QApplication::setStyle(new VisibleCheckStyle(QStyleFactory::create("Fusion")));
  if (!dark) {
    QApplication::setPalette(QApplication::style()->standardPalette());
    return;
  }
  QPalette p;
  const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe6, 0xe6, 0xe6);
  const QColor disabled(0x7f, 0x7f, 0x7f);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
  p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, disabled);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, Qt::red);
  p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
  p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xb3));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Mid, QColor(0x4a, 0x4a, 0x4a));
  p.setColor(QPalette::Dark, QColor(0x20, 0x20, 0x20));
  p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
  for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  QApplication::setPalette(p);
}

}  // namespace fringe::gui
