// The command-line apps the GUI drives and where it finds them. As in OSKAR's GUI, the
// schema of an app comes from running `<app> --settings` (the merged XML) and its version
// from `<app> --version`, in the "App Location" folder. An app is looked for as
// <location>/<app> (an install: apps side by side) and <location>/<app>/<app> (a build tree:
// build/apps/<app>/<app>).
#pragma once

#include <QString>
#include <QStringList>

#include "fringe/settings/schema.h"

namespace fringe::gui {

// Every app the GUI knows, in menu order (some may not be built yet).
QStringList known_apps();

// The App Location used when the user has not chosen one: the GUI executable's folder when an
// app lies beside it, else the build tree's apps folder when it exists, else the executable's
// folder.
QString default_app_location();

// The executable of `app` under `location`, or "" when there is none.
QString find_app(const QString& location, const QString& app);

struct AppSchema {
  QString app;      // e.g. "sim_interferometer"
  QString program;  // absolute path of the executable
  QString version;  // from --version, e.g. "0.1.0"
  fringe::settings::Schema schema;
};

// Runs the app's --version and --settings (each at most timeout_ms) and parses the schema.
// Throws fringe::Error saying what failed (not found, did not start, exit code, bad XML).
AppSchema load_app_schema(const QString& location, const QString& app, int timeout_ms = 15000);

}  // namespace fringe::gui
