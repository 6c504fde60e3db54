// Qt Test unit tests of the per-type editors (SettingsDelegate, SettingValidator,
// WordSpinBox, WordDoubleSpinBox, PathEdit): the right widget for each type, its range or options,
// type validation of typed text, and that a rejected value never reaches the settings.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyleOptionViewItem>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <memory>

#include "gui/settings_delegate.h"
#include "gui/settings_model.h"
#include "gui/value_editors.h"
#include "test_schema.h"

using fringe::gui::PathEdit;
using fringe::gui::SettingsDelegate;
using fringe::gui::SettingsModel;
using fringe::gui::SettingValidator;
using fringe::gui::WordDoubleSpinBox;
using fringe::gui::WordSpinBox;
namespace fs = fringe::settings;

class TestSettingsEditors : public QObject {
  Q_OBJECT

 private:
  SettingsModel* model_ = nullptr;
  SettingsDelegate* delegate_ = nullptr;
  std::unique_ptr<QWidget> parent_;
  QModelIndex value(const char* key) { return model_->index_of_key(key, 1); }
  QWidget* editor(const char* key) {
    return delegate_->createEditor(parent_.get(), QStyleOptionViewItem(), value(key));
  }
  static QValidator::State check(const SettingValidator& v, QString text) {
    int pos = 0;
    return v.validate(text, pos);
  }
  static SettingValidator validator(const char* type, const char* params = "") {
    return SettingValidator(fs::SettingType::make(type, params));
  }

 private slots:
  void init() {
    parent_ = std::make_unique<QWidget>();
    model_ = new SettingsModel(this);
    model_->set_schema(fs::Schema::parse(kTestSchemaXml), "test_app", "1.2.3");
    model_->set_value("noise/enable", "true");
    delegate_ = new SettingsDelegate(this);
  }
  void cleanup() {
    delete delegate_;
    delete model_;
    parent_.reset();
  }

  void editor_per_type() {
    QVERIFY(editor("noise/enable") == nullptr);  // Bool: the check box, no editor
    // OptionList: a combo of the options; unsupported ones cannot be chosen.
    auto* combo = qobject_cast<QComboBox*>(editor("beam/kind"));
    QVERIFY(combo && !combo->isEditable());
    QCOMPARE(combo->count(), 3);
    auto* items = qobject_cast<QStandardItemModel*>(combo->model());
    QVERIFY(items->item(1)->isEnabled());
    QVERIFY(!items->item(2)->isEnabled());  // "Numerical"
    // IntRange: a spin box over the type's range.
    auto* spin = qobject_cast<QSpinBox*>(editor("obs/num_channels"));
    QVERIFY(spin && !qobject_cast<WordSpinBox*>(spin));
    QCOMPARE(spin->minimum(), 1);
    QCOMPARE(spin->maximum(), 100);
    // IntRangeExt and RandomSeed: spin boxes with the special word below the range.
    auto* ext = qobject_cast<WordSpinBox*>(editor("beam/devices"));
    QVERIFY(ext);
    QCOMPARE(ext->specialValueText(), QString("auto"));
    QCOMPARE(ext->minimum(), -1);
    QCOMPARE(ext->maximum(), 64);
    auto* seed = qobject_cast<WordSpinBox*>(editor("noise/seed"));
    QVERIFY(seed);
    QCOMPARE(seed->specialValueText(), QString("time"));
    // DoubleRangeExt: a spin box between its words ("min" below the range, "max" above).
    QVERIFY(qobject_cast<WordDoubleSpinBox*>(editor("beam/limit")));
    // Files: a path editor; typed text (lists, times, dates, numbers): validated line edits.
    QVERIFY(qobject_cast<PathEdit*>(editor("noise/rms_file")));
    QVERIFY(qobject_cast<PathEdit*>(editor("beam/out")));
    for (const char* key : {"obs/start_time_utc", "obs/length", "obs/ra_deg",
                            "obs/start_frequency_hz", "noise/details/channels"}) {
      auto* line = qobject_cast<QLineEdit*>(editor(key));
      QVERIFY2(line, key);
      QVERIFY2(qobject_cast<const SettingValidator*>(line->validator()), key);
      QVERIFY2(!line->placeholderText().isEmpty(), key);
    }
    // Groups and the label column have no editor.
    QVERIFY(delegate_->createEditor(parent_.get(), QStyleOptionViewItem(),
                                    model_->index_of_key("obs", 1)) == nullptr);
    QVERIFY(delegate_->createEditor(parent_.get(), QStyleOptionViewItem(),
                                    model_->index_of_key("obs/length", 0)) == nullptr);
  }

  void validators_follow_the_types() {
    using S = QValidator;
    const auto dt = validator("DateTime");
    QCOMPARE(check(dt, "2025-01-01 13:17:30.000"), S::Acceptable);
    QCOMPARE(check(dt, "2025-13-45 99:00:00"), S::Intermediate);
    QCOMPARE(check(dt, "2025-01-"), S::Intermediate);  // partial input may be typed on
    const auto time = validator("Time");
    QCOMPARE(check(time, "00:20:00.000"), S::Acceptable);
    QCOMPARE(check(time, "ab:cd"), S::Intermediate);
    const auto list = validator("DoubleList");
    QCOMPARE(check(list, "60, -10.5,1e3"), S::Acceptable);
    QCOMPARE(check(list, "1,x"), S::Intermediate);
    const auto ints = validator("IntListExt", "all");
    QCOMPARE(check(ints, "all"), S::Acceptable);
    QCOMPARE(check(ints, "1,2,3"), S::Acceptable);
    QCOMPARE(check(ints, "1.5"), S::Intermediate);
    const auto dbl = validator("UnsignedDouble");
    QCOMPARE(check(dbl, "150e6"), S::Acceptable);
    QCOMPARE(check(dbl, "-1"), S::Intermediate);
    QCOMPARE(check(dbl, ""), S::Intermediate);  // a scalar needs a value
    QCOMPARE(check(validator("String"), ""), S::Acceptable);
    const auto range = validator("DoubleRangeExt", "-10,10,min,max");
    QCOMPARE(check(range, "MAX"), S::Acceptable);
    QCOMPARE(check(range, "11"), S::Intermediate);
    QVERIFY(!range.problem("11").isEmpty());
  }

  void word_spin_box() {
    WordSpinBox box(0, 64, "auto");
    box.set_text_value("AUTO");
    QCOMPARE(box.text_value(), QString("auto"));
    QCOMPARE(box.text(), QString("auto"));
    box.set_text_value("0");  // 0 is a number here, not the word
    QCOMPARE(box.text_value(), QString("0"));
    box.stepBy(-1);
    QCOMPARE(box.text_value(), QString("auto"));
  }

  void word_spin_box_with_two_words() {
    // OSKAR's IntRangeExt "min,max,smin,smax": one word below the range, one above.
    WordSpinBox box(0, 10, "min", "max");
    QCOMPARE(box.minimum(), -1);
    QCOMPARE(box.maximum(), 11);
    box.set_text_value("MAX");
    QCOMPARE(box.text_value(), QString("max"));
    QCOMPARE(box.text(), QString("max"));
    box.stepBy(-1);
    QCOMPARE(box.text_value(), QString("10"));
    box.set_text_value("min");
    QCOMPARE(box.text(), QString("min"));
    QString typed = "ma";
    int pos = 2;
    QCOMPARE(box.validate(typed, pos), QValidator::Intermediate);
    typed = "max";
    QCOMPARE(box.validate(typed, pos), QValidator::Acceptable);
  }

  void word_double_spin_box() {
    using S = QValidator;
    // Finite range with min/max words: the arrows walk min -> -10 .. 10 -> max.
    WordDoubleSpinBox box(fs::SettingType::make("DoubleRangeExt", "-10,10,min,max"));
    box.set_text_value("MIN");
    QCOMPARE(box.text_value(), QString("min"));
    QCOMPARE(box.stepEnabled(), QAbstractSpinBox::StepUpEnabled);
    box.stepBy(1);
    QCOMPARE(box.text_value(), QString("-10"));
    box.stepBy(-1);
    QCOMPARE(box.text_value(), QString("min"));
    box.set_text_value("9.5");
    box.stepBy(1);
    QCOMPARE(box.text_value(), QString("max"));
    QCOMPARE(box.stepEnabled(), QAbstractSpinBox::StepDownEnabled);
    box.stepBy(-2);
    QCOMPARE(box.text_value(), QString("9"));
    // Numbers stay as typed; typed text is validated by the type.
    box.set_text_value("2.5e0");
    QCOMPARE(box.text_value(), QString("2.5e0"));
    int pos = 0;
    for (auto [text, state] : QList<QPair<QString, S::State>>{{"max", S::Acceptable},
                                                              {"Ma", S::Intermediate},
                                                              {"-3.5", S::Acceptable},
                                                              {"11", S::Intermediate},
                                                              {"1e", S::Intermediate},
                                                              {"x", S::Intermediate}}) {
      QString t = text;
      QCOMPARE(box.validate(t, pos), state);
    }
    // Unbounded (OSKAR's -MAX,MAX,min,max): from a word the arrows go to 0.
    WordDoubleSpinBox open(fs::SettingType::make("DoubleRangeExt", "-MAX,MAX,min,max"));
    open.set_text_value("max");
    open.stepBy(-1);
    QCOMPARE(open.text_value(), QString("0"));
    // One word ("auto" below 0,MAX): no word above the range.
    WordDoubleSpinBox one(fs::SettingType::make("DoubleRangeExt", "0,MAX,auto"));
    one.set_text_value("0");
    one.stepBy(-1);
    QCOMPARE(one.text_value(), QString("auto"));
    one.stepBy(3);
    QCOMPARE(one.text_value(), QString("2"));
  }

  void path_edit_pickers() {
    // The "..." button opens a file (or folder) dialog; a path under the settings file's
    // folder is stored relative to it. Qt's own dialog (offscreen) is answered from a timer.
    QTemporaryDir base;
    QVERIFY(QDir(base.path()).mkpath("models/vla.tm"));
    QFile sky(base.filePath("models/sky.osm"));
    QVERIFY(sky.open(QIODevice::WriteOnly));
    sky.close();
    auto pick = [](PathEdit& edit, const QString& answer) {
      QTimer::singleShot(0, [answer] {
        QTRY_VERIFY(qobject_cast<QFileDialog*>(QApplication::activeModalWidget()));
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        dialog->setOption(QFileDialog::DontUseNativeDialog);
        dialog->selectFile(answer);
        QMetaObject::invokeMethod(dialog, "accept");
      });
      QSignalSpy chosen(&edit, &PathEdit::chosen);
      edit.findChild<QToolButton*>()->click();
      return chosen.count() == 1;
    };
    PathEdit file(PathEdit::Mode::OpenFile, base.path());
    QVERIFY(pick(file, base.filePath("models/sky.osm")));
    QCOMPARE(file.text(), QString("models/sky.osm"));
    PathEdit folder(PathEdit::Mode::Directory, base.path());
    QVERIFY(pick(folder, base.filePath("models/vla.tm")));
    QCOMPARE(folder.text(), QString("models/vla.tm"));
  }

  void rejected_text_never_reaches_settings() {
    QSignalSpy rejected(delegate_, &SettingsDelegate::rejected);
    std::unique_ptr<QWidget> e(editor("obs/start_time_utc"));
    delegate_->setEditorData(e.get(), value("obs/start_time_utc"));
    auto* line = qobject_cast<QLineEdit*>(e.get());
    QCOMPARE(line->text(), QString("2000-01-01 12:00:00.000"));
    line->setText("2025-02-30 10:00:00");  // no 30th of February
    delegate_->setModelData(e.get(), model_, value("obs/start_time_utc"));
    QCOMPARE(rejected.count(), 1);
    QCOMPARE(value("obs/start_time_utc").data().toString(), QString("2000-01-01 12:00:00.000"));
    line->setText("2025-02-28 10:00:00");
    delegate_->setModelData(e.get(), model_, value("obs/start_time_utc"));
    QCOMPARE(rejected.count(), 1);
    QVERIFY(value("obs/start_time_utc").data().toString().startsWith("2025-02-28 10:00:00"));
  }

  void editors_write_their_values() {
    // Combo: choose an option.
    std::unique_ptr<QWidget> c(editor("beam/kind"));
    delegate_->setEditorData(c.get(), value("beam/kind"));
    auto* combo = qobject_cast<QComboBox*>(c.get());
    QCOMPARE(combo->currentText(), QString("Isotropic"));
    combo->setCurrentIndex(1);
    delegate_->setModelData(c.get(), model_, value("beam/kind"));
    QCOMPARE(value("beam/kind").data().toString(), QString("Gaussian"));
    // Spin box with a word: step from the word to a number.
    std::unique_ptr<QWidget> s(editor("beam/devices"));
    delegate_->setEditorData(s.get(), value("beam/devices"));
    auto* spin = qobject_cast<WordSpinBox*>(s.get());
    QCOMPARE(spin->text_value(), QString("auto"));
    spin->stepBy(3);
    delegate_->setModelData(s.get(), model_, value("beam/devices"));
    QCOMPARE(value("beam/devices").data().toString(), QString("2"));
    // DoubleRangeExt spin box: step from the word "min" into the range, then up to "max".
    std::unique_ptr<QWidget> d(editor("beam/limit"));
    delegate_->setEditorData(d.get(), value("beam/limit"));
    auto* dspin = qobject_cast<WordDoubleSpinBox*>(d.get());
    QCOMPARE(dspin->text_value(), QString("min"));
    dspin->stepBy(1);
    delegate_->setModelData(d.get(), model_, value("beam/limit"));
    QCOMPARE(value("beam/limit").data().toString(), QString("-10"));
    dspin->stepBy(100);
    delegate_->setModelData(d.get(), model_, value("beam/limit"));
    QCOMPARE(value("beam/limit").data().toString(), QString("max"));
    // Path editor: typed path.
    std::unique_ptr<QWidget> p(editor("beam/out"));
    qobject_cast<PathEdit*>(p.get())->set_text("out/vis.ms");
    delegate_->setModelData(p.get(), model_, value("beam/out"));
    QCOMPARE(value("beam/out").data().toString(), QString("out/vis.ms"));
  }
};

QTEST_MAIN(TestSettingsEditors)
#include "test_settings_editors.moc"
