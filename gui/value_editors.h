// Editor widgets for setting values (used by SettingsDelegate):
//  - SettingValidator: a QValidator that accepts what the setting's type accepts
//    (fringe::settings::SettingType::normalise), for lists, date-times, times and numbers;
//  - WordSpinBox: an integer spin box whose lowest step is a special word ("auto", "all",
//    "time") and, with a second word, whose highest step is another: IntRangeExt, RandomSeed;
//  - WordDoubleSpinBox: a spin box of numbers as typed (so "150e6" stays) between the
//    special words of a DoubleRangeExt ("min" below the range, "max" above it, or "auto");
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
  // Integers in [min, max], plus `word` shown at the value min - 1 and, when given,
  // `high_word` at max + 1 (OSKAR's IntRangeExt "min,max,smin,smax").
  WordSpinBox(int min, int max, const QString& word, const QString& high_word = {},
              QWidget* parent = nullptr);
  void set_text_value(const QString& text);  // a word or an integer
  QString text_value() const;                // a word or the integer as text
  QValidator::State validate(QString& text, int& pos) const override;

 protected:
  QString textFromValue(int value) const override;
  int valueFromText(const QString& text) const override;

 private:
  QString word_, high_word_;
};

class WordDoubleSpinBox : public QAbstractSpinBox {
  Q_OBJECT

 public:
  // type must be a DoubleRangeExt: its range and words (first word below, second above).
  explicit WordDoubleSpinBox(fringe::settings::SettingType type, QWidget* parent = nullptr);
  void set_text_value(const QString& text);
  QString text_value() const;  // a word as declared, or the number as typed
  double step() const { return 1.0; }

  void stepBy(int steps) override;
  QValidator::State validate(QString& text, int& pos) const override;
  StepEnabled stepEnabled() const override;

 private:
  QString low_word() const;
  QString high_word() const;  // "" when the type has one word
  fringe::settings::SettingType type_;
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
