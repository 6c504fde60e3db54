#include "gui/app_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>

#include "fringe/core/error.h"

namespace fringe::gui {

QStringList known_apps() {
  return {"sim_interferometer", "sim_beam_pattern", "imager", "calibrate"};
}

namespace {

bool any_app_in(const QString& location) {
  for (const auto& app : known_apps())
    if (!find_app(location, app).isEmpty()) return true;
  return false;
}

// Runs program with args; returns stdout. Throws fringe::Error on failure.
QString run_for_output(const QString& program, const QStringList& args, int timeout_ms) {
  QProcess p;
  p.start(program, args);
  const QString what = QFileInfo(program).fileName() + " " + args.join(' ');
  if (!p.waitForStarted(timeout_ms))
    throw fringe::Error("could not start '" + what.toStdString() +
                        "': " + p.errorString().toStdString());
  if (!p.waitForFinished(timeout_ms)) {
    p.kill();
    p.waitForFinished(1000);
    throw fringe::Error("'" + what.toStdString() + "' did not finish within " +
                        std::to_string(timeout_ms / 1000) + " s");
  }
  if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
    throw fringe::Error("'" + what.toStdString() + "' failed (exit code " +
                        std::to_string(p.exitCode()) +
                        "): " + QString::fromUtf8(p.readAllStandardError()).toStdString());
  return QString::fromUtf8(p.readAllStandardOutput());
}

}  // namespace

QString default_app_location() {
  QString exe_dir = QCoreApplication::applicationDirPath();
  if (any_app_in(exe_dir)) return exe_dir;
#ifdef FRINGE_BUILD_APP_LOCATION
  QString build = QStringLiteral(FRINGE_BUILD_APP_LOCATION);
  if (QDir(build).exists()) return build;
#endif
  const QString sibling = QDir(exe_dir).absoluteFilePath("../apps");
  if (QDir(sibling).exists()) return QDir(sibling).canonicalPath();
  return exe_dir;
}

QString find_app(const QString& location, const QString& app) {
  if (location.isEmpty()) return {};
  const QDir dir(location);
  for (const QString& candidate : {dir.filePath(app), dir.filePath(app + "/" + app)}) {
    QFileInfo info(candidate);
    if (info.isFile() && info.isExecutable()) return info.absoluteFilePath();
  }
  return {};
}

AppSchema load_app_schema(const QString& location, const QString& app, int timeout_ms) {
  AppSchema out;
  out.app = app;
  out.program = find_app(location, app);
  if (out.program.isEmpty())
    throw fringe::Error("no '" + app.toStdString() + "' executable in the App Location '" +
                        location.toStdString() + "' (looked for " + app.toStdString() + " and " +
                        app.toStdString() + "/" + app.toStdString() + ")");
  // "--version" prints "<app> (fringe) <version>": the version is the last word.
  const QString version_line = run_for_output(out.program, {"--version"}, timeout_ms).trimmed();
  out.version = version_line.section(' ', -1);
  const QString xml = run_for_output(out.program, {"--settings"}, timeout_ms);
  out.schema =
      fringe::settings::Schema::parse(xml.toStdString(), app.toStdString() + " --settings");
  return out;
}

}  // namespace fringe::gui
