// Qt Test unit tests of SettingsModel and SettingsFilter: dependency greying, required flags
// (up the tree), non-default marks, reset, round trip to OSKAR-format INI files (write-through),
// and the filter keeping ancestors visible.
#include <QFile>
#include <QGuiApplication>
#include <QPalette>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "fringe/settings/ini.h"
#include "gui/app_catalog.h"
#include "gui/settings_filter.h"
#include "gui/settings_model.h"
#include "gui/theme.h"
#include "test_schema.h"

using fringe::gui::SettingsFilter;
using fringe::gui::SettingsModel;
namespace fs = fringe::settings;

class TestSettingsModel : public QObject {
  Q_OBJECT

 private:
  SettingsModel* model_ = nullptr;
  QModelIndex at(const char* key, int column = 0) { return model_->index_of_key(key, column); }
  QString read(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QString::fromUtf8(f.readAll());
  }

 private slots:
  void init() {
    model_ = new SettingsModel(this);
    model_->set_schema(fs::Schema::parse(kTestSchemaXml), "test_app", "1.2.3");
  }
  void cleanup() { delete model_; }

  void tree_structure() {
    QCOMPARE(model_->rowCount(), 3);  // obs, noise, beam
    QCOMPARE(model_->columnCount(), 2);
    const QModelIndex noise = model_->index(1, 0);
    QCOMPARE(noise.data().toString(), QString("Noise"));
    QCOMPARE(model_->rowCount(noise), 4);
    const QModelIndex seed = model_->index(1, 0, noise);
    QCOMPARE(seed.data(SettingsModel::KeyRole).toString(), QString("noise/seed"));
    QCOMPARE(model_->parent(seed), noise);
    QCOMPARE(at("noise/details/channels").parent(), at("noise/details"));
    // Labels or keys.
    QCOMPARE(at("obs/num_channels").data().toString(), QString("Number of channels"));
    model_->set_show_keys(true);
    QCOMPARE(at("obs/num_channels").data().toString(), QString("obs/num_channels"));
    // Tooltips carry the description and the required mark.
    const QString tip = at("obs/start_frequency_hz").data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains("First channel centre."));
    QVERIFY(tip.contains("[Required]"));
  }

  void dependency_greying() {
    const QColor grey = QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
    // noise/enable defaults to false: its dependants (and a dependent group's children) are
    // greyed and read-only.
    for (const char* key : {"noise/seed", "noise/details", "noise/details/channels"}) {
      QVERIFY2(!at(key).data(SettingsModel::EnabledRole).toBool(), key);
      QCOMPARE(at(key).data(Qt::ForegroundRole).value<QColor>(), grey);
    }
    QVERIFY(!(model_->flags(at("noise/seed", 1)) & Qt::ItemIsEditable));
    QVERIFY(!model_->setData(at("noise/seed", 1), "5"));
    // Switch it on through the check box.
    const QModelIndex enable = at("noise/enable", 1);
    QVERIFY(model_->flags(enable) & Qt::ItemIsUserCheckable);
    QCOMPARE(enable.data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    QVERIFY(model_->setData(enable, Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(enable.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    for (const char* key : {"noise/seed", "noise/details", "noise/details/channels"})
      QVERIFY2(at(key).data(SettingsModel::EnabledRole).toBool(), key);
    QVERIFY(model_->flags(at("noise/seed", 1)) & Qt::ItemIsEditable);
    QVERIFY(model_->setData(at("noise/seed", 1), "5"));
    QCOMPARE(at("noise/seed", 1).data().toString(), QString("5"));
  }

  void required_flags_up_the_tree() {
    // obs/start_frequency_hz is required and unset: it and its group are flagged.
    QVERIFY(at("obs/start_frequency_hz").data(SettingsModel::RequiredUnsetRole).toBool());
    QVERIFY(at("obs").data(SettingsModel::RequiredUnsetRole).toBool());
    QCOMPARE(at("obs/start_frequency_hz").data(Qt::BackgroundRole).value<QColor>(),
             fringe::gui::required_colour());
    QCOMPARE(at("obs").data(Qt::BackgroundRole).value<QColor>(), fringe::gui::required_colour());
    QCOMPARE(at("obs/start_frequency_hz").data(Qt::ForegroundRole).value<QColor>(),
             QColor(Qt::white));
    // noise/rms_file is required but disabled (noise off): not flagged, nor is its group.
    QVERIFY(!at("noise/rms_file").data(SettingsModel::RequiredUnsetRole).toBool());
    QVERIFY(!at("noise").data(SettingsModel::RequiredUnsetRole).toBool());
    QVERIFY(!at("beam").data(SettingsModel::RequiredUnsetRole).toBool());
    // Enabling noise makes rms_file required: now noise is flagged too.
    QVERIFY(model_->set_value("noise/enable", "true"));
    QVERIFY(at("noise/rms_file").data(SettingsModel::RequiredUnsetRole).toBool());
    QVERIFY(at("noise").data(SettingsModel::RequiredUnsetRole).toBool());
    // Giving the frequency clears its flag and its group's.
    QVERIFY(model_->setData(at("obs/start_frequency_hz", 1), "150e6"));
    QVERIFY(!at("obs/start_frequency_hz").data(SettingsModel::RequiredUnsetRole).toBool());
    QVERIFY(!at("obs").data(SettingsModel::RequiredUnsetRole).toBool());
  }

  void non_default_marked_and_reset() {
    const QColor link = QGuiApplication::palette().color(QPalette::Link);
    QVERIFY(!at("obs/num_channels").data(SettingsModel::NonDefaultRole).toBool());
    QVERIFY(model_->setData(at("obs/num_channels", 1), "7"));
    QVERIFY(at("obs/num_channels").data(SettingsModel::NonDefaultRole).toBool());
    QCOMPARE(at("obs/num_channels", 1).data(Qt::ForegroundRole).value<QColor>(), link);
    // A value equal to the default is not marked.
    QVERIFY(model_->setData(at("beam/kind", 1), "isotropic"));  // normalised to "Isotropic"
    QCOMPARE(at("beam/kind", 1).data().toString(), QString("Isotropic"));
    QVERIFY(!at("beam/kind").data(SettingsModel::NonDefaultRole).toBool());
    // Reset one, then a whole group.
    QVERIFY(model_->setData(at("obs/ra_deg", 1), "10,20"));
    QVERIFY(model_->reset(at("obs/num_channels")));
    QCOMPARE(at("obs/num_channels", 1).data().toString(), QString("1"));
    QCOMPARE(at("obs/ra_deg", 1).data().toString(), QString("10,20"));
    QVERIFY(model_->reset(at("obs")));
    QCOMPARE(at("obs/ra_deg", 1).data().toString(), QString("0"));
    QVERIFY(!model_->reset(at("obs")));  // nothing left to reset
  }

  void invalid_values_rejected() {
    QSignalSpy rejected(model_, &SettingsModel::edit_rejected);
    QVERIFY(!model_->setData(at("obs/num_channels", 1), "1000"));  // range 1..100
    QVERIFY(!model_->setData(at("obs/start_time_utc", 1), "yesterday"));
    QCOMPARE(rejected.count(), 2);
    QVERIFY(rejected.at(0).at(0).toString().contains("obs/num_channels"));
    QCOMPARE(at("obs/num_channels", 1).data().toString(), QString("1"));
  }

  void round_trip_to_ini() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.ini");
    QVERIFY(model_->save_as(path));
    // Write-through: every accepted edit rewrites the file.
    QVERIFY(model_->setData(at("obs/start_frequency_hz", 1), "150e6"));
    QVERIFY(read(path).contains("start_frequency_hz=150e6"));
    QVERIFY(model_->setData(at("obs/start_time_utc", 1), "2025-01-01 13:17:30"));
    QVERIFY(model_->setData(at("obs/length", 1), "00:20:00"));
    QVERIFY(model_->setData(at("obs/ra_deg", 1), "60, -10.5"));
    QVERIFY(model_->setData(at("noise/enable", 1), Qt::Checked, Qt::CheckStateRole));
    QVERIFY(model_->setData(at("noise/details/channels", 1), "1,3"));
    QVERIFY(model_->setData(at("beam/kind", 1), "g"));        // OptionList prefix -> "Gaussian"
    QVERIFY(model_->setData(at("beam/devices", 1), "AUTO"));  // the default word
    QVERIFY(model_->setData(at("beam/limit", 1), "max"));
    const QString text = read(path);
    // OSKAR's layout: [General] app/version first, then [group] with sub-keys; only
    // non-default values.
    QVERIFY2(text.startsWith("[General]\napp=test_app\nversion=1.2.3\n"), qPrintable(text));
    QVERIFY(text.contains("[obs]\n"));
    QVERIFY(text.contains("[noise]\n"));
    QVERIFY(text.contains("details/channels=1,3"));
    QVERIFY(text.contains("kind=Gaussian"));
    QVERIFY2(!text.contains("devices="), qPrintable(text));  // default: not written
    QVERIFY(!text.contains("num_channels="));
    // Read back with the settings library, independently of the model.
    fs::Settings check(fs::Schema::parse(kTestSchemaXml));
    const auto report = fs::load_ini(check, path.toStdString());
    QVERIFY(report.errors.empty());
    QVERIFY(report.warnings.empty());
    for (const auto& key : check.schema().setting_keys())
      QCOMPARE(QString::fromStdString(check.get(key)),
               QString::fromStdString(model_->settings()->get(key)));
    // And into a second model through its own loader.
    SettingsModel other;
    other.set_schema(fs::Schema::parse(kTestSchemaXml), "test_app", "1.2.3");
    other.load_ini(path);
    QCOMPARE(other.index_of_key("beam/limit", 1).data().toString(), QString("max"));
    QCOMPARE(other.index_of_key("obs/ra_deg", 1).data().toString(),
             at("obs/ra_deg", 1).data().toString());
    QCOMPARE(other.ini_path(), QFileInfo(path).absoluteFilePath());
  }

  void loads_oskar_style_file() {
    QTemporaryDir dir;
    const QString path = dir.filePath("oskar.ini");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    // OSKAR writes backslash-separated sub-keys and its own app name.
    f.write(
        "[General]\napp=oskar_test_app\nversion=2.13.0\n\n[noise]\nenable=true\n"
        "details\\channels=2\n\n[obs]\nstart_frequency_hz=1e8\nbogus=1\n");
    f.close();
    QString app;
    const auto report = model_->load_ini(path, &app);
    QCOMPARE(app, QString("oskar_test_app"));
    QCOMPARE(report.warnings.size(), size_t(1));  // the unknown key
    QCOMPARE(at("noise/details/channels", 1).data().toString(), QString("2"));
    QVERIFY(at("noise/seed").data(SettingsModel::EnabledRole).toBool());
    // Loading does not rewrite the file.
    QVERIFY(read(path).contains("bogus=1"));
    // An edit changes that key's line only: the unknown key and the backslash key stay.
    const QString original = read(path);
    QVERIFY(model_->setData(at("obs/start_frequency_hz", 1), "2e8"));
    QString expected = original;
    expected.replace("start_frequency_hz=1e8", "start_frequency_hz=2e8");
    QCOMPARE(read(path), expected);
    // The file's problems, with their lines, for the validation panel.
    const auto problems = model_->file_problems();
    QCOMPARE(problems.size(), size_t(1));
    QCOMPARE(problems[0].key, std::string("obs/bogus"));
    QCOMPARE(problems[0].line, 11L);
    QVERIFY(problems[0].warning);
    // Save As writes the same lines to the new file, which then takes the edits.
    const QString copy = dir.filePath("copy.ini");
    QVERIFY(model_->save_as(copy));
    QCOMPARE(read(copy), expected);
    QVERIFY(model_->reset(at("noise/details/channels")));
    expected.replace("details\\channels=2\n", "");
    QCOMPARE(read(copy), expected);
    QVERIFY(read(path).contains("details\\channels=2"));
  }

  void clear_forgets_file() {
    QTemporaryDir dir;
    QVERIFY(model_->save_as(dir.filePath("a.ini")));
    QVERIFY(model_->setData(at("obs/num_channels", 1), "3"));
    model_->clear();
    QVERIFY(model_->ini_path().isEmpty());
    QCOMPARE(at("obs/num_channels", 1).data().toString(), QString("1"));
    QVERIFY(read(dir.filePath("a.ini")).contains("num_channels=3"));  // file left alone
  }

  void filter_keeps_ancestors_and_descendants() {
    SettingsFilter filter;
    filter.setSourceModel(model_);
    filter.set_filter_text("CHANNELS");  // case-insensitive; matches two settings
    // Visible: obs (ancestor), obs/num_channels, noise, noise/details, noise/details/channels.
    QCOMPARE(filter.rowCount(), 2);
    const QModelIndex obs = filter.index(0, 0);
    QCOMPARE(obs.data().toString(), QString("Observation"));
    QCOMPARE(filter.rowCount(obs), 1);
    QCOMPARE(filter.index(0, 0, obs).data(SettingsModel::KeyRole).toString(),
             QString("obs/num_channels"));
    // Matches are highlighted; ancestors are not.
    QVERIFY(filter.index(0, 0, obs).data(Qt::BackgroundRole).isValid());
    QVERIFY(!filter.index(1, 0).data(Qt::BackgroundRole).isValid());  // "Noise" group
    // A matching group keeps all its children.
    filter.set_filter_text("beam");
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 4);
    // Keys match too.
    filter.set_filter_text("rms_file");
    QCOMPARE(filter.rowCount(), 1);
    filter.set_filter_text("");
    QCOMPARE(filter.rowCount(), 3);
  }

  void real_app_schema_and_example() {
    // The schema comes from `sim_interferometer --settings`, as in the GUI.
    const QString location = FRINGE_BINARY_DIR "/apps";
    if (fringe::gui::find_app(location, "sim_interferometer").isEmpty())
      QSKIP("sim_interferometer is not built");
    auto app = fringe::gui::load_app_schema(location, "sim_interferometer");
    QVERIFY(!app.version.isEmpty());
    model_->set_schema(std::move(app.schema), app.app, app.version);
    const auto report =
        model_->load_ini(FRINGE_SOURCE_DIR "/settings/examples/sim_interferometer.ini");
    QVERIFY(report.errors.empty());
    QCOMPARE(at("observation/num_channels", 1).data().toString(), QString("3"));
    QCOMPARE(at("telescope/station_type", 1).data().toString(), QString("Aperture array"));
    const auto problems = model_->settings()->validate();
    for (const auto& p : problems) QVERIFY2(p.warning, p.text().c_str());
  }
};

QTEST_MAIN(TestSettingsModel)
#include "test_settings_model.moc"
