#include "gui/value_editors.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QToolButton>
#include <algorithm>
#include <cmath>
#include <limits>

#include "fringe/core/error.h"

namespace fringe::gui {

SettingValidator::SettingValidator(fringe::settings::SettingType type, QObject* parent)
    : QValidator(parent), type_(std::move(type)) {}

QString SettingValidator::problem(const QString& text) const {
  if (text.trimmed().isEmpty())
    return type_.empty_is_value()
               ? QString()
               : tr("a value is needed: %1").arg(QString::fromStdString(type_.expected()));
  try {
    type_.normalise(text.toStdString());
  } catch (const fringe::Error& e) {
    return QString::fromStdString(e.message());
  }
  return {};
}

QValidator::State SettingValidator::validate(QString& input, int&) const {
  return problem(input).isEmpty() ? Acceptable : Intermediate;
}

WordSpinBox::WordSpinBox(int min, int max, const QString& word, const QString& high_word,
                         QWidget* parent)
    : QSpinBox(parent), word_(word), high_word_(high_word) {
  const int low = min > std::numeric_limits<int>::min() ? min - 1 : min;
  const int high = !high_word.isEmpty() && max < std::numeric_limits<int>::max() ? max + 1 : max;
  setRange(low, high);
  setSpecialValueText(word);
  setAccelerated(true);
}

void WordSpinBox::set_text_value(const QString& text) {
  if (text.compare(word_, Qt::CaseInsensitive) == 0 || text.isEmpty()) {
    setValue(minimum());
    return;
  }
  if (!high_word_.isEmpty() && text.compare(high_word_, Qt::CaseInsensitive) == 0) {
    setValue(maximum());
    return;
  }
  bool ok = false;
  const int v = text.toInt(&ok);
  setValue(ok ? v : minimum());
}

QString WordSpinBox::text_value() const {
  if (value() == minimum()) return word_;
  if (!high_word_.isEmpty() && value() == maximum()) return high_word_;
  return QString::number(value());
}

QString WordSpinBox::textFromValue(int value) const {
  if (!high_word_.isEmpty() && value == maximum()) return high_word_;
  return QSpinBox::textFromValue(value);
}

int WordSpinBox::valueFromText(const QString& text) const {
  if (!high_word_.isEmpty() && text.trimmed().compare(high_word_, Qt::CaseInsensitive) == 0)
    return maximum();
  return QSpinBox::valueFromText(text);
}

QValidator::State WordSpinBox::validate(QString& text, int& pos) const {
  if (!high_word_.isEmpty() && !text.trimmed().isEmpty() &&
      high_word_.startsWith(text.trimmed(), Qt::CaseInsensitive))
    return text.trimmed().size() == high_word_.size() ? QValidator::Acceptable
                                                      : QValidator::Intermediate;
  return QSpinBox::validate(text, pos);
}

namespace {
// DBL_MAX stands for "no limit" in OSKAR's schemas (-MAX, MAX).
bool finite_limit(double v) { return std::abs(v) < 1e300; }
}  // namespace

WordDoubleSpinBox::WordDoubleSpinBox(fringe::settings::SettingType type, QWidget* parent)
    : QAbstractSpinBox(parent), type_(std::move(type)) {
  setAccelerated(true);
  setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
  lineEdit()->setPlaceholderText(QString::fromStdString(type_.expected()));
  setToolTip(tr("%1; the arrows step by %2 and reach the words beyond the range")
                 .arg(QString::fromStdString(type_.expected()))
                 .arg(step()));
}

QString WordDoubleSpinBox::low_word() const {
  return type_.words().empty() ? QString() : QString::fromStdString(type_.words().front());
}

QString WordDoubleSpinBox::high_word() const {
  return type_.words().size() > 1 ? QString::fromStdString(type_.words()[1]) : QString();
}

void WordDoubleSpinBox::set_text_value(const QString& text) {
  lineEdit()->setText(text.isEmpty() ? low_word() : text);
}

QString WordDoubleSpinBox::text_value() const {
  const QString t = lineEdit()->text().trimmed();
  const std::string w = type_.match_word(t.toStdString());
  return w.empty() ? t : QString::fromStdString(w);
}

QValidator::State WordDoubleSpinBox::validate(QString& text, int&) const {
  const QString t = text.trimmed();
  try {
    if (!t.isEmpty()) {
      type_.normalise(t.toStdString());
      return QValidator::Acceptable;
    }
  } catch (const fringe::Error&) {
  }
  return QValidator::Intermediate;  // partial input (a word's prefix, "1e", "-") may go on
}

void WordDoubleSpinBox::stepBy(int steps) {
  if (steps == 0) return;
  const QString t = text_value();
  const double lo = type_.min(), hi = type_.max();
  double v = 0;
  if (!low_word().isEmpty() && t == low_word() && steps > 0) {
    // From the word below the range: to its first number.
    v = finite_limit(lo) ? lo : std::clamp(0.0, lo, hi);
    --steps;
  } else if (!high_word().isEmpty() && t == high_word() && steps < 0) {
    v = finite_limit(hi) ? hi : std::clamp(0.0, lo, hi);
    ++steps;
  } else if (t == low_word() || (!high_word().isEmpty() && t == high_word())) {
    return;  // already at the end in that direction
  } else {
    bool ok = false;
    v = t.toDouble(&ok);
    if (!ok) v = std::clamp(0.0, lo, hi);
  }
  v += steps * step();
  QString next;
  if (v < lo)
    next = low_word().isEmpty() ? QString::number(lo, 'g', 15) : low_word();
  else if (v > hi)
    next = high_word().isEmpty() ? QString::number(hi, 'g', 15) : high_word();
  else
    next = QString::number(v, 'g', 15);
  lineEdit()->setText(next);
}

QAbstractSpinBox::StepEnabled WordDoubleSpinBox::stepEnabled() const {
  const QString t = text_value();
  if (!low_word().isEmpty() && t == low_word()) return StepUpEnabled;
  if (!high_word().isEmpty() && t == high_word()) return StepDownEnabled;
  return StepUpEnabled | StepDownEnabled;
}

PathEdit::PathEdit(Mode mode, const QString& base_dir, QWidget* parent)
    : QWidget(parent), mode_(mode), base_dir_(base_dir) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  edit_ = new QLineEdit(this);
  button_ = new QToolButton(this);
  button_->setText("...");
  button_->setToolTip(mode == Mode::Directory ? tr("Choose a folder") : tr("Choose a file"));
  layout->addWidget(edit_);
  layout->addWidget(button_);
  setFocusProxy(edit_);
  connect(button_, &QToolButton::clicked, this, &PathEdit::browse);
}

QString PathEdit::text() const { return edit_->text(); }
void PathEdit::set_text(const QString& text) { edit_->setText(text); }

void PathEdit::browse() {
  // The dialog's parent is this editor, so the item delegate keeps the editor open while it
  // is shown (focus stays inside the editor's widget tree).
  const QString start = edit_->text().isEmpty()
                            ? base_dir_
                            : QDir(base_dir_).absoluteFilePath(edit_->text().split(',').first());
  QString picked;
  switch (mode_) {
    case Mode::OpenFile:
      picked = QFileDialog::getOpenFileName(this, tr("Choose a file"), start);
      break;
    case Mode::SaveFile:
      picked = QFileDialog::getSaveFileName(this, tr("Choose an output file"), start);
      break;
    case Mode::Directory:
      picked = QFileDialog::getExistingDirectory(this, tr("Choose a folder"), start);
      break;
    case Mode::OpenFiles: {
      QStringList files = QFileDialog::getOpenFileNames(this, tr("Choose files"), start);
      for (auto& f : files)
        if (f.contains(',')) f = '"' + f + '"';
      picked = files.join(',');
      break;
    }
  }
  if (picked.isEmpty()) return;
  // Paths under the INI file's folder are stored relative to it, as OSKAR users write them.
  if (!base_dir_.isEmpty() && mode_ != Mode::OpenFiles) {
    const QString rel = QDir(base_dir_).relativeFilePath(picked);
    if (!rel.startsWith("../..")) picked = rel;
  }
  edit_->setText(picked);
  emit chosen();
}

}  // namespace fringe::gui
