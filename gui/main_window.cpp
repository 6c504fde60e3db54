#include "gui/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QSysInfo>
#include <QThread>
#include <QUrl>
#include <QVBoxLayout>
#include <cstdio>

#include "fringe/core/error.h"
#include "fringe/settings/ini.h"
#include "gui/app_catalog.h"
#include "gui/results_panel.h"
#include "gui/settings_filter.h"
#include "gui/settings_model.h"
#include "gui/settings_tree.h"
#include "gui/theme.h"
#include "gui/validation_panel.h"

namespace fringe::gui {

namespace fs = fringe::settings;

namespace {
constexpr int kMaxRecent = 10;
const char* kTelescopeKey = "telescope/input_directory";
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  model_ = new SettingsModel(this);
  filter_ = new SettingsFilter(this);
  run_dialog_ = new RunDialog(this);
  build_central();
  build_menus();
  connect(model_, &SettingsModel::edit_rejected, this,
          [this](const QString& why) { show_message(why, true); });
  connect(model_, &SettingsModel::write_failed, this,
          [this](const QString& why) { show_message(tr("Could not save: %1").arg(why), true); });
  connect(model_, &SettingsModel::values_changed, this, [this] {
    update_title();
    update_station_layout();
  });
  connect(tree_, &SettingsTree::message, this, [this](const QString& m) { show_message(m); });
  connect(validation_, &ValidationPanel::setting_activated, tree_, &SettingsTree::select_key);
  connect(run_dialog_, &RunDialog::finished_run, this, &MainWindow::after_run);

  QSettings s;
  const int em = fontMetrics().horizontalAdvance('m');
  resize(130 * em, 60 * fontMetrics().height());
  resizeDocks({validation_dock_}, {9 * fontMetrics().height()}, Qt::Vertical);
  restoreGeometry(s.value("window/geometry").toByteArray());
  keys_action_->setChecked(s.value("view/show_keys", false).toBool());
  update_recent_menu();
  update_title();
}

MainWindow::~MainWindow() = default;

void MainWindow::build_central() {
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  // Top row: app, run, working folder.
  auto* top = new QHBoxLayout;
  app_combo_ = new QComboBox(central);
  app_combo_->addItems(known_apps());
  app_combo_->setToolTip(tr("The application whose settings are edited and run"));
  run_button_ = new QPushButton(tr("&Run"), central);
  run_button_->setToolTip(tr("Validate the settings and run the application (Ctrl+R)"));
  run_button_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  dir_edit_ = new QLineEdit(central);
  dir_edit_->setReadOnly(true);
  dir_edit_->setToolTip(
      tr("The folder the application runs in (the settings file's folder "
         "unless changed)"));
  auto* change_dir = new QPushButton(tr("Change..."), central);
  top->addWidget(new QLabel(tr("App:"), central));
  top->addWidget(app_combo_);
  top->addWidget(run_button_);
  top->addSpacing(fontMetrics().height());
  top->addWidget(new QLabel(tr("Working folder:"), central));
  top->addWidget(dir_edit_, 1);
  top->addWidget(change_dir);
  layout->addLayout(top);

  auto* split = new QSplitter(Qt::Horizontal, central);
  auto* left = new QWidget(split);
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(0, 0, 0, 0);
  search_ = new QLineEdit(left);
  search_->setPlaceholderText(tr("Search settings (label or key)"));
  search_->setClearButtonEnabled(true);
  tree_ = new SettingsTree(model_, filter_, left);
  left_layout->addWidget(search_);
  left_layout->addWidget(tree_, 1);
  results_ = new ResultsPanel(split);
  split->addWidget(left);
  split->addWidget(results_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);
  setCentralWidget(central);

  validation_ = new ValidationPanel(this);
  validation_dock_ = new QDockWidget(tr("Validation"), this);
  validation_dock_->setObjectName("validation");
  validation_dock_->setWidget(validation_);
  addDockWidget(Qt::BottomDockWidgetArea, validation_dock_);
  validation_dock_->hide();

  connect(app_combo_, &QComboBox::activated, this,
          [this](int i) { select_app(app_combo_->itemText(i)); });
  connect(run_button_, &QPushButton::clicked, this, &MainWindow::run);
  connect(change_dir, &QPushButton::clicked, this, &MainWindow::choose_working_dir);
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) {
    filter_->set_filter_text(t);
    if (!t.trimmed().isEmpty()) tree_->expandAll();
  });
}

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::open_dialog);
  file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
  file->addAction(tr("Save &As..."), QKeySequence::SaveAs, this, &MainWindow::save_as_dialog);
  file->addAction(tr("&Clear"), this, &MainWindow::clear_settings);
  recent_menu_ = file->addMenu(tr("Recent &Files"));
  file->addSeparator();
  file->addAction(tr("Open &Measurement Set..."), this, &MainWindow::open_ms_dialog);
  file->addAction(tr("Open FITS &Image..."), this, &MainWindow::open_fits_dialog);
  file->addSeparator();
  file->addAction(tr("App &Location..."), this, &MainWindow::choose_app_location);
  file->addSeparator();
  file->addAction(tr("E&xit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Show &First Level"), tree_, &SettingsTree::show_first_level);
  view->addAction(tr("&Expand All"), tree_, &QTreeView::expandAll);
  view->addAction(tr("&Collapse All"), tree_, &QTreeView::collapseAll);
  keys_action_ = view->addAction(tr("Display &Keys"));
  keys_action_->setCheckable(true);
  connect(keys_action_, &QAction::toggled, this, [this](bool on) {
    model_->set_show_keys(on);
    QSettings().setValue("view/show_keys", on);
  });
  view->addSeparator();
  QAction* dark = view->addAction(tr("&Dark Theme"));
  dark->setCheckable(true);
  dark->setChecked(QSettings().value("view/dark_theme", false).toBool());
  connect(dark, &QAction::toggled, this, [](bool on) {
    apply_theme(on);
    QSettings().setValue("view/dark_theme", on);
  });
  view->addAction(validation_dock_->toggleViewAction());
  view->addAction(tr("Find Setting"), QKeySequence::Find, this, [this] {
    search_->setFocus();
    search_->selectAll();
  });

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(tr("&Validate"), QKeySequence(Qt::CTRL | Qt::Key_T), this, [this] { validate(); });
  run->addAction(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::run);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Documentation"), this, [] {
    QDesktopServices::openUrl(QUrl::fromLocalFile(QStringLiteral(FRINGE_DOCS_DIR "/gui.md")));
  });
  help->addAction(tr("&Qt Info"), this, [this] { QMessageBox::aboutQt(this); });
  help->addAction(tr("&System Info"), this, &MainWindow::show_system_info);
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(this, tr("About fringe"),
                       tr("<b>fringe</b> %1<br>GPU radio-interferometer simulator, "
                          "imager and calibrator.<br>Reads OSKAR settings, sky and telescope "
                          "models.")
                           .arg(FRINGE_VERSION));
  });
}

void MainWindow::show_message(const QString& text, bool error) {
  statusBar()->showMessage(text, error ? 15000 : 6000);
  if (error && !interactive_) std::fprintf(stderr, "fringe: %s\n", qPrintable(text));
}

bool MainWindow::set_app_location(const QString& folder) {
  app_location_ = QDir(folder).absolutePath();
  QSettings().setValue("app_location", app_location_);
  if (!app_.isEmpty()) return select_app(app_);
  return true;
}

bool MainWindow::select_app(const QString& app) {
  app_combo_->setCurrentText(app);
  QApplication::setOverrideCursor(Qt::WaitCursor);
  try {
    AppSchema schema = load_app_schema(app_location_, app);
    QApplication::restoreOverrideCursor();
    const QString previous_file = model_->ini_path();
    model_->set_schema(std::move(schema.schema), schema.app, schema.version);
    app_ = app;
    QSettings().setValue("app", app);
    validation_->clear();
    tree_->show_first_level();
    show_message(tr("%1 %2 from %3").arg(app, schema.version, schema.program));
    // Keep the open file when it belongs to this app.
    if (!previous_file.isEmpty()) {
      const QString file_app =
          QString::fromStdString(fs::read_ini(previous_file.toStdString()).app);
      if (file_app == app || file_app == "oskar_" + app) open_settings(previous_file);
    }
    update_title();
    return true;
  } catch (const std::exception& e) {
    QApplication::restoreOverrideCursor();
    const QString why = QString::fromUtf8(e.what());
    show_message(why, true);
    if (interactive_)
      QMessageBox::warning(this, tr("Cannot load %1").arg(app),
                           why + "\n\n" +
                               tr("Use File > App Location to say where fringe's "
                                  "applications are."));
    return false;
  }
}

bool MainWindow::open_settings(const QString& path) {
  try {
    // Switch to the app the file names, as OSKAR's GUI does ([General] app=).
    const fs::IniFile header = fs::read_ini(path.toStdString());
    QString file_app = QString::fromStdString(header.app);
    if (file_app.startsWith("oskar_")) file_app = file_app.mid(6);
    if (!file_app.isEmpty() && file_app != app_) {
      if (known_apps().contains(file_app)) {
        if (!select_app(file_app)) return false;
      } else {
        show_message(tr("The file is for '%1', not %2: loading it anyway").arg(file_app, app_),
                     true);
      }
    }
    if (!model_->has_schema()) {
      show_message(tr("No application schema is loaded."), true);
      return false;
    }
    const auto report = model_->load_ini(path, nullptr);
    std::vector<fs::Problem> problems = report.errors;
    problems.insert(problems.end(), report.warnings.begin(), report.warnings.end());
    validation_->show_problems(problems);
    if (!problems.empty()) validation_dock_->show();
    const QString version = QString::fromStdString(header.version);
    if (!version.isEmpty() && version != model_->version())
      show_message(
          tr("The file was written by version %1; this is %2").arg(version, model_->version()));
    else
      show_message(tr("Opened %1").arg(path));
    add_recent(model_->ini_path());
    update_title();
    update_station_layout();
    return true;
  } catch (const std::exception& e) {
    show_message(QString::fromUtf8(e.what()), true);
    if (interactive_) QMessageBox::warning(this, tr("Cannot open"), QString::fromUtf8(e.what()));
    return false;
  }
}

void MainWindow::open_dialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open settings"),
                                                    QFileInfo(model_->ini_path()).absolutePath(),
                                                    tr("Settings files (*.ini);;All files (*)"));
  if (!path.isEmpty()) open_settings(path);
}

void MainWindow::save_as_dialog() {
  if (!model_->has_schema()) return;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save settings as"),
      model_->ini_path().isEmpty() ? QDir::currentPath() + "/" + app_ + ".ini" : model_->ini_path(),
      tr("Settings files (*.ini)"));
  if (!path.isEmpty()) save_as(path);
}

bool MainWindow::save_as(const QString& path) {
  if (!model_->has_schema()) return false;
  const bool ok = model_->save_as(path);
  if (ok) {
    add_recent(model_->ini_path());
    show_message(tr("Saved %1").arg(model_->ini_path()));
  }
  update_title();
  return ok;
}

bool MainWindow::save() {
  if (!model_->has_schema()) return false;
  if (model_->ini_path().isEmpty()) {
    if (interactive_) save_as_dialog();
    if (model_->ini_path().isEmpty()) {
      show_message(tr("No settings file is open: use Save As."), !interactive_);
      return false;
    }
    return true;
  }
  return save_as(model_->ini_path());
}

void MainWindow::clear_settings() {
  model_->clear();
  validation_->clear();
  update_title();
  show_message(tr("All settings are back to their defaults; no file is open."));
}

void MainWindow::choose_app_location() {
  const QString dir = QFileDialog::getExistingDirectory(this,
                                                        tr("App Location: the folder of fringe's "
                                                           "applications"),
                                                        app_location_);
  if (!dir.isEmpty()) set_app_location(dir);
}

QString MainWindow::working_dir() const {
  if (!working_dir_override_.isEmpty()) return working_dir_override_;
  if (!model_->ini_path().isEmpty()) return QFileInfo(model_->ini_path()).absolutePath();
  return QDir::currentPath();
}

void MainWindow::choose_working_dir() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Working folder of the run"), working_dir());
  if (dir.isEmpty()) return;
  working_dir_override_ = dir;
  update_title();
}

void MainWindow::open_ms_dialog() {
  const QString path =
      QFileDialog::getExistingDirectory(this, tr("Open Measurement Set"), working_dir());
  if (!path.isEmpty()) results_->open_ms(path);
}

void MainWindow::open_fits_dialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open FITS image"), working_dir(),
                                                    tr("FITS images (*.fits *.fit *.fts);;All "
                                                       "files (*)"));
  if (!path.isEmpty()) results_->open_fits(path);
}

void MainWindow::add_recent(const QString& path) {
  QSettings s;
  QStringList files = s.value("recent_files").toStringList();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecent) files.removeLast();
  s.setValue("recent_files", files);
  update_recent_menu();
}

void MainWindow::update_recent_menu() {
  recent_menu_->clear();
  const QStringList files = QSettings().value("recent_files").toStringList();
  for (int i = 0; i < files.size(); ++i) {
    const QString& path = files[i];
    recent_menu_->addAction(QString("&%1 %2").arg((i + 1) % 10).arg(path), this,
                            [this, path] { open_settings(path); });
  }
  recent_menu_->setEnabled(!files.isEmpty());
}

void MainWindow::update_title() {
  const QString file = model_->ini_path().isEmpty() ? tr("(no settings file)")
                                                    : QFileInfo(model_->ini_path()).fileName();
  setWindowTitle(QString("%1 — %2 — fringe").arg(file, app_.isEmpty() ? tr("no app") : app_));
  dir_edit_->setText(working_dir());
  run_button_->setEnabled(model_->has_schema());
}

void MainWindow::update_station_layout() {
  const auto* s = model_->settings();
  QString dir;
  if (s && s->has(kTelescopeKey) && s->is_enabled(kTelescopeKey) && !s->get(kTelescopeKey).empty())
    dir = QString::fromStdString(s->get_path(kTelescopeKey));
  if (dir == last_telescope_dir_) return;
  last_telescope_dir_ = dir;
  results_->show_station_layout(dir);
}

int MainWindow::validate() {
  if (!model_->has_schema()) return 0;
  // The file's own problems (unknown keys, lines without '=', ...) first, with their lines.
  auto problems = model_->file_problems();
  for (auto& p : model_->settings()->validate()) problems.push_back(std::move(p));
  validation_->show_problems(problems);
  validation_dock_->show();
  return validation_->num_errors();
}

bool MainWindow::run() {
  if (!model_->has_schema()) {
    show_message(tr("No application is loaded."), true);
    return false;
  }
  if (run_dialog_->is_running()) {
    run_dialog_->show();
    run_dialog_->raise();
    return false;
  }
  if (model_->ini_path().isEmpty()) {
    if (!interactive_) {
      show_message(tr("Save the settings to a file before running."), true);
      return false;
    }
    save_as_dialog();
    if (model_->ini_path().isEmpty()) return false;
  }
  const int errors = validate();
  if (errors > 0 && interactive_) {
    const auto answer = QMessageBox::question(
        this, tr("Settings have problems"),
        tr("The settings have %n error(s) (listed in the Validation panel; click one to go to "
           "its setting). Run anyway?",
           "", errors),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return false;
  }
  const QString program = find_app(app_location_, app_);
  if (program.isEmpty()) {
    show_message(tr("'%1' is not in the App Location %2").arg(app_, app_location_), true);
    return false;
  }
  run_dialog_->start(program, {model_->ini_path()}, working_dir());
  run_dialog_->open();  // window-modal, non-blocking: the event loop keeps running
  run_button_->setEnabled(false);
  return true;
}

QList<QPair<QString, QString>> MainWindow::output_paths() const {
  QList<QPair<QString, QString>> out;
  const auto* s = model_->settings();
  if (!s) return out;
  for (const auto& node : s->schema().nodes()) {
    if (!node.is_setting() || node.type->id() != fs::TypeId::OutputFile) continue;
    if (!s->is_enabled(node.key) || s->get(node.key).empty()) continue;
    QString path = QString::fromStdString(s->get_path(node.key));
    const QString key = QString::fromStdString(node.key);
    // A Measurement Set name gets ".MS" unless it ends in .ms (the app's rule).
    if (key.endsWith("ms_filename") && !path.endsWith(".ms", Qt::CaseInsensitive)) path += ".MS";
    if (key.endsWith("root_path")) {
      // A prefix: list the files the app wrote with it.
      const QFileInfo prefix(path);
      const auto files = QDir(prefix.absolutePath())
                             .entryInfoList({prefix.fileName() + "*"},
                                            QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot);
      for (const auto& f : files) out.append({key, f.absoluteFilePath()});
      if (files.isEmpty()) out.append({key, path + "*"});
      continue;
    }
    out.append({key, path});
  }
  return out;
}

void MainWindow::after_run(RunDialog::Outcome outcome, int exit_code) {
  run_button_->setEnabled(true);
  const auto outputs = output_paths();
  results_->set_outputs(outputs);
  last_telescope_dir_.clear();
  update_station_layout();
  results_->show_tab(ResultsPanel::StationTab);
  bool shown_ms = false, shown_fits = false;
  for (const auto& [key, path] : outputs) {
    if (!QFileInfo::exists(path)) continue;
    if (!shown_ms && path.endsWith(".ms", Qt::CaseInsensitive)) {
      results_->open_ms(path);
      shown_ms = true;
    } else if (!shown_fits && !shown_ms && path.endsWith(".fits", Qt::CaseInsensitive)) {
      results_->open_fits(path);
      shown_fits = true;
    }
  }
  show_message(outcome == RunDialog::Outcome::Succeeded
                   ? tr("%1 finished.").arg(app_)
                   : tr("%1 did not succeed (exit code %2).").arg(app_).arg(exit_code),
               outcome != RunDialog::Outcome::Succeeded);
  emit run_finished(outcome, exit_code);
}

void MainWindow::show_system_info() {
  QString text;
  text += tr("fringe %1, Qt %2 (run time %3)\n").arg(FRINGE_VERSION, QT_VERSION_STR, qVersion());
  text +=
      tr("OS: %1 (%2)\n").arg(QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture());
  text += tr("CPU threads: %1\n").arg(QThread::idealThreadCount());
  if (auto* screen = this->screen())
    text += tr("Screen: %1 x %2 logical pixels, device pixel ratio %3\n")
                .arg(screen->size().width())
                .arg(screen->size().height())
                .arg(screen->devicePixelRatio());
  text += tr("App Location: %1\n").arg(app_location_);
  for (const auto& app : known_apps()) {
    const QString p = find_app(app_location_, app);
    text += QString("  %1: %2\n").arg(app, p.isEmpty() ? tr("not found") : p);
  }
  QMessageBox box(QMessageBox::Information, tr("System Info"), tr("System information"),
                  QMessageBox::Ok, this);
  box.setDetailedText(text);
  box.setInformativeText(text);
  box.exec();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (run_dialog_->is_running()) {
    if (interactive_ && QMessageBox::question(this, tr("A run is in progress"),
                                              tr("Stop the run and quit?")) != QMessageBox::Yes) {
      event->ignore();
      return;
    }
    run_dialog_->cancel();
  }
  QSettings().setValue("window/geometry", saveGeometry());
  event->accept();
}

}  // namespace fringe::gui
