// Qt Test unit tests of MainWindow with the real sim_interferometer (schema from
// `sim_interferometer --settings`): opening a settings file, problems listed in the
// validation panel, a click on a problem selecting its setting in the tree, and the station
// layout of the file's telescope model appearing in the results panel.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "gui/app_catalog.h"
#include "gui/main_window.h"
#include "gui/results_panel.h"
#include "gui/scatter_plot.h"
#include "gui/settings_model.h"
#include "gui/settings_tree.h"
#include "gui/validation_panel.h"

using namespace fringe::gui;

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void validation_click_selects_setting() {
    const QString location = FRINGE_BINARY_DIR "/apps";
    if (find_app(location, "sim_interferometer").isEmpty()) QSKIP("sim_interferometer not built");
    QTemporaryDir dir;
    const QString ini = dir.filePath("bad.ini");
    QFile f(ini);
    QVERIFY(f.open(QIODevice::WriteOnly));
    // A missing sky file (validation error) and a telescope model that exists.
    f.write(
        "[General]\napp=sim_interferometer\n\n[sky]\noskar_sky_model/file=missing.osm\n\n"
        "[telescope]\ninput_directory=" FRINGE_SOURCE_DIR "/telescope-models/vla-c.tm\n");
    f.close();
    MainWindow w;
    w.set_interactive(false);
    QVERIFY(w.set_app_location(location));
    QVERIFY(w.select_app("sim_interferometer"));
    QSignalSpy layout(w.results(), &ResultsPanel::station_layout_loaded);
    QVERIFY(w.open_settings(ini));
    QCOMPARE(w.model()->ini_path(), QFileInfo(ini).absoluteFilePath());
    // The telescope model's stations are plotted (27 VLA antennas).
    QVERIFY(layout.count() > 0 || layout.wait(10000));
    QVERIFY(layout.last().at(0).toBool());
    QCOMPARE(w.results()->station_plot()->num_points(), 27);
    // Validation lists the missing file; clicking it selects that setting.
    QVERIFY(w.validate() >= 1);
    QTreeWidget* list = w.validation()->list();
    QTreeWidgetItem* item = nullptr;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
      if (list->topLevelItem(i)->text(1) == "sky/oskar_sky_model/file")
        item = list->topLevelItem(i);
    QVERIFY(item);
    emit list->itemClicked(item, 1);
    QCOMPARE(w.tree()->current_source_index().data(SettingsModel::KeyRole).toString(),
             QString("sky/oskar_sky_model/file"));
    // Without a file to run on, batch mode refuses rather than asking.
    w.model()->clear();
    QVERIFY(!w.run());
  }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
