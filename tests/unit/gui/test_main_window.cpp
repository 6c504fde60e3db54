// Qt Test unit tests of MainWindow with the real sim_interferometer and sim_beam_pattern
// (schemas from `<app> --settings`): opening a settings file, problems listed in the
// validation panel, a click on a problem selecting its setting in the tree, the station
// layout of the file's telescope model in the results panel, the app selector, a file
// switching the app, File > Recent Files, Save / Save As / Clear, write-through, a real run
// (sim_beam_pattern) with the event loop running throughout and its results shown (outputs,
// beam image, station layout), the dark theme and high DPI; a hand-written file's comments and
// unknown keys kept through Save and listed (with their lines) in the validation panel.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStyleOptionViewItem>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include "fringe/settings/ini.h"
#include "gui/app_catalog.h"
#include "gui/fits_image.h"
#include "gui/fits_viewer.h"
#include "gui/main_window.h"
#include "gui/results_panel.h"
#include "gui/scatter_plot.h"
#include "gui/settings_model.h"
#include "gui/settings_tree.h"
#include "gui/theme.h"
#include "gui/validation_panel.h"

using namespace fringe::gui;

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QApplication::setOrganizationName("fringe-tests");
    QApplication::setApplicationName("test_main_window");
  }

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

  // A hand-written file keeps its comment, unknown key (a typo) and '='-less line through
  // edits and Save; the validation panel lists the unknown key and the line as warnings with
  // their lines, on opening and on Validate.
  void unknown_keys_and_comments_survive_save() {
    const QString location = FRINGE_BINARY_DIR "/apps";
    if (find_app(location, "sim_interferometer").isEmpty()) QSKIP("sim_interferometer not built");
    QTemporaryDir dir;
    const QString ini = dir.filePath("hand.ini");
    const QByteArray original =
        "[General]\r\napp=sim_interferometer\r\n\r\n"            // 1-3
        "; my notes: keep me\r\n"                                // 4
        "[observation]\r\n"                                      // 5
        "num_time_stesp=4\r\n"                                   // 6: unknown (typo)
        "length 60\r\n"                                          // 7: no '='
        "start_frequency_hz = 1.4e9\r\n"                         // 8
        "\r\n[telescope]\r\ninput_directory=" FRINGE_SOURCE_DIR  // 9-11
        "/telescope-models/vla-c.tm\r\n";
    QFile f(ini);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(original);
    f.close();
    MainWindow w;
    w.set_interactive(false);
    QVERIFY(w.set_app_location(location));
    QVERIFY(w.select_app("sim_interferometer"));
    QVERIFY(w.open_settings(ini));
    auto find_row = [&](const QString& column1, const QString& line) -> QTreeWidgetItem* {
      QTreeWidget* list = w.validation()->list();
      for (int i = 0; i < list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = list->topLevelItem(i);
        if (item->text(ValidationPanel::KeyColumn) == column1 &&
            item->text(ValidationPanel::LineColumn) == line)
          return item;
      }
      return nullptr;
    };
    auto check_panel = [&] {
      QTreeWidgetItem* typo = find_row("observation/num_time_stesp", "6");
      QVERIFY(typo);
      QVERIFY2(typo->text(ValidationPanel::ProblemColumn).contains("num_time_steps"),
               qPrintable(typo->text(ValidationPanel::ProblemColumn)));
      QVERIFY(find_row("", "7"));
      QVERIFY(w.validation()->num_warnings() >= 2);
    };
    check_panel();
    // An edit is written through; Save writes again: only the edited line changes.
    QVERIFY(w.model()->set_value("observation/start_frequency_hz", "1.5e9"));
    QVERIFY(w.save());
    QFile saved(ini);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QByteArray expected = original;
    expected.replace("start_frequency_hz = 1.4e9", "start_frequency_hz = 1.5e9");
    QCOMPARE(saved.readAll(), expected);
    saved.close();
    // Validate (Run > Validate) shows the file's problems too, with their lines.
    w.validate();
    check_panel();
    // A reset removes the key's line only.
    QVERIFY(w.model()->reset(w.model()->index_of_key("observation/start_frequency_hz")));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    expected.replace("start_frequency_hz = 1.5e9\r\n", "");
    QCOMPARE(saved.readAll(), expected);
  }

  void app_selection_and_recent_files() {
    const QString location = FRINGE_BINARY_DIR "/apps";
    if (find_app(location, "sim_interferometer").isEmpty() ||
        find_app(location, "sim_beam_pattern").isEmpty())
      QSKIP("sim_interferometer or sim_beam_pattern not built");
    QSettings().remove("recent_files");
    QTemporaryDir dir;
    const QString beam_ini = dir.filePath("beam.ini"), vis_ini = dir.filePath("vis.ini");
    QVERIFY(QFile::copy(FRINGE_SOURCE_DIR "/settings/examples/sim_beam_pattern.ini", beam_ini));
    QVERIFY(QFile::copy(FRINGE_SOURCE_DIR "/settings/examples/sim_interferometer.ini", vis_ini));
    for (const QString& f : {beam_ini, vis_ini})
      QFile(f).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    MainWindow w;
    w.set_interactive(false);
    QVERIFY(w.set_app_location(location));
    QVERIFY(w.select_app("sim_interferometer"));
    QVERIFY(w.recent_menu()->actions().isEmpty());
    QVERIFY(!w.recent_menu()->isEnabled());

    // The app selector lists sim_beam_pattern; choosing it loads the schema that
    // `sim_beam_pattern --settings` prints.
    QComboBox* apps = w.app_selector();
    const int beam = apps->findText("sim_beam_pattern");
    QVERIFY(beam >= 0);
    QVERIFY(apps->findText("sim_interferometer") >= 0);
    emit apps->activated(beam);
    QCOMPARE(w.current_app(), QString("sim_beam_pattern"));
    QCOMPARE(w.model()->app(), QString("sim_beam_pattern"));
    QVERIFY(!w.model()->version().isEmpty());
    QVERIFY(w.model()->index_of_key("beam_pattern/coordinate_frame").isValid());
    QVERIFY(!w.model()->index_of_key("interferometer/ms_filename").isValid());

    // The search field filters the tree, keeping each match's ancestors (expanded).
    QLineEdit* search = nullptr;
    for (auto* e : w.findChildren<QLineEdit*>())
      if (e->placeholderText().startsWith("Search settings")) search = e;
    QVERIFY(search);
    QTest::keyClicks(search, "Coordinate_Frame");
    auto* filter = qobject_cast<QSortFilterProxyModel*>(w.tree()->model());
    QVERIFY(filter);
    const QModelIndex match =
        filter->mapFromSource(w.model()->index_of_key("beam_pattern/coordinate_frame"));
    QVERIFY(match.isValid());
    QVERIFY(w.tree()->isExpanded(match.parent()));
    QVERIFY(!filter->mapFromSource(w.model()->index_of_key("observation")).isValid());
    search->clear();
    QVERIFY(filter->mapFromSource(w.model()->index_of_key("observation")).isValid());

    // A file names its app ([General] app=): opening it switches the app.
    QVERIFY(w.open_settings(vis_ini));
    QCOMPARE(w.current_app(), QString("sim_interferometer"));
    QCOMPARE(apps->currentText(), QString("sim_interferometer"));
    QVERIFY(w.open_settings(beam_ini));
    QCOMPARE(w.current_app(), QString("sim_beam_pattern"));
    QCOMPARE(w.model()->settings()->get("beam_pattern/beam_image/size"), std::string("65"));

    // File > Recent Files: most recent first; choosing one opens it (and its app).
    QList<QAction*> recent = w.recent_menu()->actions();
    QCOMPARE(recent.size(), 2);
    QVERIFY(w.recent_menu()->isEnabled());
    QVERIFY(recent[0]->text().endsWith(QFileInfo(beam_ini).absoluteFilePath()));
    QVERIFY(recent[1]->text().endsWith(QFileInfo(vis_ini).absoluteFilePath()));
    recent[1]->trigger();
    QCOMPARE(w.current_app(), QString("sim_interferometer"));
    QCOMPARE(w.model()->ini_path(), QFileInfo(vis_ini).absoluteFilePath());
    recent = w.recent_menu()->actions();
    QCOMPARE(recent.size(), 2);
    QVERIFY(recent[0]->text().endsWith(QFileInfo(vis_ini).absoluteFilePath()));
    // The list survives a restart (QSettings).
    MainWindow again;
    QCOMPARE(again.recent_menu()->actions().size(), 2);

    // An edit in the window's model goes straight to the open file.
    QVERIFY(w.model()->set_value("observation/num_channels", "7"));
    QFile written(vis_ini);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(written.readAll());
    QVERIFY(text.startsWith("[General]"));
    QVERIFY(text.contains("app=sim_interferometer"));
    QVERIFY(text.contains("[observation]"));
    QVERIFY(text.contains("num_channels=7"));
  }

  void save_save_as_and_clear() {
    const QString location = FRINGE_BINARY_DIR "/apps";
    if (find_app(location, "sim_interferometer").isEmpty()) QSKIP("sim_interferometer not built");
    QTemporaryDir dir;
    MainWindow w;
    w.set_interactive(false);
    QVERIFY(w.set_app_location(location));
    QVERIFY(w.select_app("sim_interferometer"));
    QVERIFY(!w.save());  // no file open: batch mode cannot ask for a name
    QVERIFY(w.model()->set_value("observation/num_channels", "3"));
    const QString path = dir.filePath("saved.ini");
    QVERIFY(w.save_as(path));
    QCOMPARE(w.model()->ini_path(), QFileInfo(path).absoluteFilePath());
    QVERIFY(
        w.recent_menu()->actions().first()->text().endsWith(QFileInfo(path).absoluteFilePath()));
    // Save rewrites the open file (here after it was removed behind the GUI's back).
    QVERIFY(QFile::remove(path));
    QVERIFY(w.save());
    fringe::settings::Settings check(w.model()->settings()->schema());
    fringe::settings::load_ini(check, path.toStdString());
    QCOMPARE(check.get("observation/num_channels"), std::string("3"));
    // Clear: defaults and no file; the file on disk is left alone.
    w.model()->clear();
    QVERIFY(w.model()->ini_path().isEmpty());
    QCOMPARE(w.model()->settings()->get("observation/num_channels"), std::string("1"));
    QVERIFY(QFile::exists(path));
  }

  void run_shows_results_and_never_blocks() {
    const QString location = FRINGE_BINARY_DIR "/apps";
    if (find_app(location, "sim_beam_pattern").isEmpty()) QSKIP("sim_beam_pattern not built");
    QTemporaryDir dir;
    // The example with absolute input paths, writing into the temporary folder.
    QFile example(FRINGE_SOURCE_DIR "/settings/examples/sim_beam_pattern.ini");
    QVERIFY(example.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(example.readAll());
    text.replace(QRegularExpression("input_directory=[^\n]*"),
                 "input_directory=" FRINGE_SOURCE_DIR "/telescope-models/ska-low-aa0.5.tm");
    text.replace(QRegularExpression("root_path=[^\n]*"), "root_path=" + dir.filePath("beam"));
    const QString ini = dir.filePath("beam.ini");
    QFile out(ini);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();

    MainWindow w;
    w.set_interactive(false);
    w.show();
    QVERIFY(w.set_app_location(location));
    QVERIFY(w.open_settings(ini));
    QCOMPARE(w.current_app(), QString("sim_beam_pattern"));
    QSignalSpy finished(&w, &MainWindow::run_finished);
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(1);
    QVERIFY(w.run());
    QVERIFY(!w.run());  // one run at a time
    QVERIFY(finished.wait(120000));
    ticker.stop();
    QVERIFY(ticks > 0);  // the event loop ran while the app did
    QCOMPARE(finished.first().at(0).value<RunDialog::Outcome>(), RunDialog::Outcome::Succeeded);
    QCOMPARE(finished.first().at(1).toInt(), 0);
    QVERIFY(w.run_dialog()->log_text().contains("Finished successfully"));

    // Results: every file written with the root_path prefix is listed as written.
    QTreeWidget* outputs = w.results()->outputs();
    QVERIFY(outputs->topLevelItemCount() >= 4);
    for (int i = 0; i < outputs->topLevelItemCount(); ++i) {
      const QTreeWidgetItem* item = outputs->topLevelItem(i);
      QCOMPARE(item->text(0), QString("beam_pattern/root_path"));
      QVERIFY2(item->text(1).startsWith(dir.filePath("beam")), qPrintable(item->text(1)));
      QVERIFY2(item->text(2).startsWith("written"), qPrintable(item->text(2)));
    }
    // The first beam image opens in the viewer, with its equatorial WCS.
    FitsViewer* viewer = w.results()->fits_viewer();
    QTRY_VERIFY_WITH_TIMEOUT(viewer->image() && !viewer->busy(), 10000);
    QVERIFY(viewer->image()->path.endsWith(".fits"));
    QCOMPARE(viewer->image()->wcs.frame, SkyFrame::Equatorial);
    // The example's 65 x 65 image: the centre pixel is CRPIX = 33, the phase centre.
    const int cx = viewer->image()->width / 2, cy = viewer->image()->height / 2;
    QVERIFY2(viewer->describe(cx, cy).contains("RA 04:00:00.000  Dec -30:00:00.00"),
             qPrintable(viewer->describe(cx, cy)));
    // The station layout of the file's telescope model.
    QTRY_VERIFY_WITH_TIMEOUT(w.results()->station_plot()->num_points() > 0, 10000);
  }

  void dark_theme_and_high_dpi() {
    // The dark theme changes the palette, and the model's colours follow it.
    apply_theme(true);
    QVERIFY(palette_is_dark(QApplication::palette()));
    SettingsModel model;
    model.set_schema(fringe::settings::Schema::parse(
                         R"(<root app="t" version="1"><s k="a"><label>A</label>
                              <s k="n"><label>N</label><type name="Int" default="1"/></s></s>
                            </root>)"),
                     "t", "1");
    QVERIFY(model.set_value("a/n", "2"));
    QCOMPARE(model.index_of_key("a/n", 1).data(Qt::ForegroundRole).value<QColor>(),
             QApplication::palette().color(QPalette::Link));
    // Unchecked check boxes keep a visible frame on the dark base (a box, and the indicator
    // of the settings tree's Bool values).
    auto brightest = [](const QImage& image) {
      int best = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
          best = std::max(best, QColor(image.pixel(x, y)).lightness());
      return best;
    };
    QCheckBox box;
    box.resize(box.sizeHint());
    const int background = QApplication::palette().color(QPalette::Window).lightness();
    QVERIFY(brightest(box.grab().toImage()) > background + 50);
    QImage item(24, 24, QImage::Format_ARGB32);
    item.fill(QApplication::palette().color(QPalette::Base));
    {
      QStyleOptionViewItem option;
      option.palette = QApplication::palette();
      option.rect = QRect(2, 2, 18, 18);
      option.state = QStyle::State_Enabled | QStyle::State_Off;
      QPainter painter(&item);
      QApplication::style()->drawPrimitive(QStyle::PE_IndicatorItemViewItemCheck, &option,
                                           &painter);
    }
    QVERIFY(brightest(item) > QApplication::palette().color(QPalette::Base).lightness() + 50);
    apply_theme(false);
    QVERIFY(!palette_is_dark(QApplication::palette()));
    QCOMPARE(model.index_of_key("a/n", 1).data(Qt::ForegroundRole).value<QColor>(),
             QApplication::palette().color(QPalette::Link));

    // High DPI: the window renders at the screen's device pixel ratio (QT_SCALE_FACTOR in
    // gui.test_main_window_hidpi), its size in device-independent pixels set from the font.
    MainWindow w;
    w.set_interactive(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const double dpr = w.devicePixelRatioF();
    const QByteArray scale = qgetenv("QT_SCALE_FACTOR");
    if (!scale.isEmpty()) QCOMPARE(dpr, scale.toDouble());
    const QPixmap shot = w.grab();
    QCOMPARE(shot.devicePixelRatio(), dpr);
    QCOMPARE(shot.width(), qRound(w.width() * dpr));
    QVERIFY(w.width() > 40 * w.fontMetrics().horizontalAdvance('m'));
  }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
