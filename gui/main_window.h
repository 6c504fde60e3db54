// MainWindow: fringe's desktop application (OSKAR's GUI, docs/gui.md, plus
// validation and results). App selector, Run button and working folder at the top; the
// settings tree with its search filter on the left; results (outputs, station layout, uv
// coverage, FITS image) on the right; validation problems below. Menus: File (open, save,
// save as, clear, recent files, open MS / FITS, app location, exit), View, Run, Help.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include "gui/run_dialog.h"

class QComboBox;
class QLineEdit;
class QMenu;
class QAction;
class QLabel;
class QPushButton;
class QDockWidget;

namespace fringe::gui {

class ResultsPanel;
class SettingsFilter;
class SettingsModel;
class SettingsTree;
class ValidationPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Non-interactive mode: no dialogs (errors go to the status bar and stderr).
  void set_interactive(bool on) { interactive_ = on; }

  bool set_app_location(const QString& folder);
  const QString& app_location() const { return app_location_; }
  // Loads the app's schema (runs `<app> --settings`). False (and a message) on failure.
  bool select_app(const QString& app);
  // Opens an INI file (switching to the app its [General] app= names).
  bool open_settings(const QString& path);
  // File > Save: writes every value to the open file (asks for a name when none is open;
  // edits are written through anyway). File > Save As without the dialog: the file becomes
  // the write-through target. False (and a message) on failure.
  bool save();
  bool save_as(const QString& path);
  // Validates, then runs the current app on the current INI file in a RunDialog.
  bool run();
  // Validates the settings and shows the problems; returns the number of errors.
  int validate();

  SettingsModel* model() const { return model_; }
  SettingsTree* tree() const { return tree_; }
  ResultsPanel* results() const { return results_; }
  ValidationPanel* validation() const { return validation_; }
  RunDialog* run_dialog() const { return run_dialog_; }
  QString current_app() const { return app_; }
  QComboBox* app_selector() const { return app_combo_; }
  QMenu* recent_menu() const { return recent_menu_; }  // File > Recent Files

 signals:
  void run_finished(fringe::gui::RunDialog::Outcome outcome, int exit_code);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void build_menus();
  void build_central();
  void open_dialog();
  void save_as_dialog();
  void clear_settings();
  void choose_app_location();
  void choose_working_dir();
  void open_ms_dialog();
  void open_fits_dialog();
  void add_recent(const QString& path);
  void update_recent_menu();
  void update_title();
  void update_station_layout();
  void after_run(RunDialog::Outcome outcome, int exit_code);
  QList<QPair<QString, QString>> output_paths() const;
  void show_message(const QString& text, bool error = false);
  void show_system_info();
  QString working_dir() const;

  SettingsModel* model_;
  SettingsFilter* filter_;
  SettingsTree* tree_;
  ResultsPanel* results_;
  ValidationPanel* validation_;
  QDockWidget* validation_dock_;
  RunDialog* run_dialog_;
  QComboBox* app_combo_;
  QPushButton* run_button_;
  QLineEdit* search_;
  QLineEdit* dir_edit_;
  QMenu* recent_menu_;
  QAction* keys_action_;
  QString app_, app_location_, working_dir_override_, last_telescope_dir_;
  bool interactive_ = true;
};

}  // namespace fringe::gui
