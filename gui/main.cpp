// fringe: the desktop GUI. Command line (all optional):
//   fringe [settings.ini] [--app NAME] [--app-location DIR] [--dark]
//          [--open-ms PATH] [--open-fits PATH]
//          [--run] [--run-and-exit] [--screenshot OUT.png] [--timeout SECONDS]
// --screenshot alone saves OUT.png once the results panel has loaded and exits.
// --run-and-exit runs the app on the settings file without dialogs, waits until it finishes
// and the results are shown, saves --screenshot (the main window with the station layout;
// OUT-uv.png with the uv coverage when a Measurement Set was written; OUT-run.png the run
// dialog) and exits with the app's exit code (3 on a GUI-side failure or timeout).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>
#include <cstdio>

#include "gui/app_catalog.h"
#include "gui/fits_viewer.h"
#include "gui/main_window.h"
#include "gui/results_panel.h"
#include "gui/scatter_plot.h"
#include "gui/theme.h"

namespace {

using fringe::gui::MainWindow;
using fringe::gui::RunDialog;

bool save_grab(QWidget* w, const QString& path) {
  const QImage image = w->grab().toImage();
  if (!image.save(path)) {
    std::fprintf(stderr, "fringe: could not write %s\n", qPrintable(path));
    return false;
  }
  std::printf("fringe: screenshot %s (%d x %d)\n", qPrintable(path), image.width(), image.height());
  return true;
}

// OUT.png -> OUT-<what>.png
QString suffixed(const QString& path, const QString& what) {
  const QFileInfo f(path);
  return f.dir().filePath(f.completeBaseName() + "-" + what + "." + f.suffix());
}

}  // namespace

int main(int argc, char** argv) {
  QGuiApplication::setHighDpiScaleFactorRoundingPolicy(
      Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
  QApplication qapp(argc, argv);
  QApplication::setOrganizationName("fringe");
  QApplication::setApplicationName("fringe");
  QApplication::setApplicationVersion(FRINGE_VERSION);

  QCommandLineParser cli;
  cli.setApplicationDescription("fringe: edit settings, run the simulator and look at results");
  cli.addHelpOption();
  cli.addVersionOption();
  cli.addPositionalArgument("settings", "Settings file (.ini) to open", "[settings.ini]");
  const QCommandLineOption app_opt("app", "Application to start with", "name");
  const QCommandLineOption location_opt("app-location", "Folder of the applications", "dir");
  const QCommandLineOption dark_opt("dark", "Use the dark theme");
  const QCommandLineOption ms_opt("open-ms", "Show the uv coverage of a Measurement Set", "path");
  const QCommandLineOption fits_opt("open-fits", "Show a FITS image", "path");
  const QCommandLineOption run_opt("run", "Run the app on the settings file at start");
  const QCommandLineOption exit_opt("run-and-exit", "Run without dialogs, screenshot, exit");
  const QCommandLineOption shot_opt("screenshot", "Save a PNG of the window (with --run-and-exit)",
                                    "png");
  const QCommandLineOption timeout_opt("timeout", "Give up after this many seconds", "s", "600");
  for (const auto& o : {app_opt, location_opt, dark_opt, ms_opt, fits_opt, run_opt, exit_opt,
                        shot_opt, timeout_opt})
    cli.addOption(o);
  cli.process(qapp);

  QSettings settings;
  if (cli.isSet(dark_opt) || settings.value("view/dark_theme", false).toBool())
    fringe::gui::apply_theme(true);

  MainWindow window;
  const bool batch = cli.isSet(exit_opt);
  window.set_interactive(!batch);
  QString location = cli.value(location_opt);
  if (location.isEmpty()) location = settings.value("app_location").toString();
  if (location.isEmpty() || !QDir(location).exists())
    location = fringe::gui::default_app_location();
  window.set_app_location(location);
  const QString app = cli.isSet(app_opt) ? cli.value(app_opt)
                                         : settings.value("app", "sim_interferometer").toString();
  window.select_app(app);
  const QStringList files = cli.positionalArguments();
  if (!files.isEmpty()) window.open_settings(files.first());
  if (cli.isSet(ms_opt)) window.results()->open_ms(cli.value(ms_opt));
  if (cli.isSet(fits_opt)) window.results()->open_fits(cli.value(fits_opt));
  window.show();

  if (cli.isSet(run_opt) && !batch) QTimer::singleShot(0, &window, [&window] { window.run(); });
  const QString shot = cli.value(shot_opt);
  if (!batch && !shot.isEmpty()) {
    // Grab once what was asked for has loaded.
    auto* poll = new QTimer(&window);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, shot] {
      if (window.results()->busy()) return;
      poll->stop();
      QApplication::exit(save_grab(&window, shot) ? 0 : 3);
    });
    poll->start(300);
  }
  if (!batch) return QApplication::exec();

  // --run-and-exit
  int exit_code = 3;
  QTimer::singleShot(static_cast<int>(cli.value(timeout_opt).toDouble() * 1000), &qapp, [] {
    std::fprintf(stderr, "fringe: timed out\n");
    QApplication::exit(3);
  });
  QObject::connect(
      &window, &MainWindow::run_finished, &qapp, [&](RunDialog::Outcome outcome, int code) {
        exit_code = outcome == RunDialog::Outcome::Succeeded ? 0 : (code > 0 ? code : 3);
        // Wait until the results panel has loaded what it shows, then grab.
        auto* poll = new QTimer(&window);
        QObject::connect(poll, &QTimer::timeout, &window, [&, poll] {
          if (window.results()->busy()) return;
          poll->stop();
          bool ok = true;
          if (!shot.isEmpty()) {
            // The station layout, then the uv coverage when a Measurement Set was read.
            auto* results = window.results();
            results->show_tab(fringe::gui::ResultsPanel::StationTab);
            ok = save_grab(&window, shot);
            if (results->uv_plot()->num_points() > 0) {
              results->show_tab(fringe::gui::ResultsPanel::UvTab);
              ok = save_grab(&window, suffixed(shot, "uv")) && ok;
            }
            if (results->fits_viewer()->image()) {  // e.g. a beam pattern the run wrote
              results->show_tab(fringe::gui::ResultsPanel::ImageTab);
              ok = save_grab(&window, suffixed(shot, "image")) && ok;
            }
            ok = save_grab(window.run_dialog(), suffixed(shot, "run")) && ok;
          }
          std::printf("%s", qPrintable(window.run_dialog()->log_text()));
          QApplication::exit(ok ? exit_code : 3);
        });
        poll->start(200);
      });
  QTimer::singleShot(0, &window, [&window] {
    if (!window.run()) QApplication::exit(3);
  });
  return QApplication::exec();
}
