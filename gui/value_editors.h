// Editor widgets for setting values (used by SettingsDelegate):
//  - SettingValidator: a QValidator that accepts what the setting's type accepts
//    (fringe::settings::SettingType::normalise), for lists, date-times, times and numbers;
//  - WordSpinBox: an integer spin box whose lowest step is a special word ("auto", "all",
//    "time"): IntRangeExt and RandomSeed;
//  - PathEdit: a line edit with a "..." button opening a file or folder dialog.
#pragma once

#include <QLineEdit>
#include <QSpinBox>
#include <QValidator>
#include <QWidget>

#include "fringe/settings/setting_type.h"

class QToolButton;

namespace fringe::gui {

class SettingValidator : public QValidator {
  Q_OBJECT

 public:
  SettingValidator(fringe::settings::SettingType type, QObject* parent = nullptr);
  // Acceptable when the type accepts the text (an empty text only where "" is a value);
  // Intermediate otherwise, so partial input can be typed.
  State validate(QString& input, int& pos) const override;
  // The type's error message for text, or "" when it is acceptable.
  QString problem(const QString& text) const;
  const fringe::settings::SettingType& type() const { return type_; }

 private:
  fringe::settings::SettingType type_;
};

class WordSpinBox : public QSpinBox {
  Q_OBJECT

 public:
  // Integers in [min, max], plus `word` shown at the value min - 1.
  WordSpinBox(int min, int max, const QString& word, QWidget* parent = nullptr);
  void set_text_value(const QString& text);  // the word or an integer
  QString text_value() const;                // the word or the integer as text

 private:
  QString word_;
};

class PathEdit : public QWidget {
  Q_OBJECT

 public:
  enum class Mode { OpenFile, OpenFiles, SaveFile, Directory };
  PathEdit(Mode mode, const QString& base_dir, QWidget* parent = nullptr);
  QString text() const;
  void set_text(const QString& text);
  QLineEdit* line_edit() const { return edit_; }

 signals:
  void chosen();  // a path was picked in the dialog

 private:
  void browse();
  Mode mode_;
  QString base_dir_;
  QLineEdit* edit_;
  QToolButton* button_;
};

}  // namespace fringe::gui
