#include "gui/value_editors.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QToolButton>
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

WordSpinBox::WordSpinBox(int min, int max, const QString& word, QWidget* parent)
    : QSpinBox(parent), word_(word) {
  const int low = min > std::numeric_limits<int>::min() ? min - 1 : min;
  setRange(low, max);
  setSpecialValueText(word);
  setAccelerated(true);
}

void WordSpinBox::set_text_value(const QString& text) {
  if (text.compare(word_, Qt::CaseInsensitive) == 0 || text.isEmpty()) {
    setValue(minimum());
    return;
  }
  bool ok = false;
  const int v = text.toInt(&ok);
  setValue(ok ? v : minimum());
}

QString WordSpinBox::text_value() const {
  return value() == minimum() ? word_ : QString::number(value());
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
