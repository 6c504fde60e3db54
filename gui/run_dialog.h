// RunDialog: runs an app as a child process (QProcess; the GUI's event loop keeps running)
// with its merged stdout/stderr shown live, a progress bar (from "NN%" in the log when the app
// prints it, else a busy indicator), Cancel (SIGTERM, then a kill after a grace period) and
// the exit status at the end. Non-modal: open() it and connect finished().
#pragma once

#include <QDialog>
#include <QProcess>
#include <QStringList>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace fringe::gui {

class RunDialog : public QDialog {
  Q_OBJECT

 public:
  enum class Outcome { Running, Succeeded, Failed, Cancelled, Crashed, FailedToStart };

  explicit RunDialog(QWidget* parent = nullptr);
  ~RunDialog() override;

  // Starts `program args...` in working_dir. Returns false if a run is in progress.
  bool start(const QString& program, const QStringList& args, const QString& working_dir);
  void cancel();
  bool is_running() const;
  Outcome outcome() const { return outcome_; }
  int exit_code() const { return exit_code_; }
  QString log_text() const;
  void set_auto_close(bool on);
  int kill_grace_ms = 5000;  // after terminate(), kill() if still running

 signals:
  void finished_run(fringe::gui::RunDialog::Outcome outcome, int exit_code);

 protected:
  void reject() override;  // Esc / close button: cancel a run first

 private:
  void read_output();
  void append(const QString& text);
  void on_finished(int code, QProcess::ExitStatus status);
  void on_error(QProcess::ProcessError error);
  void finish(Outcome outcome, int code, const QString& message);

  QProcess* process_;
  QTimer* kill_timer_;
  QLabel* status_;
  QPlainTextEdit* log_;
  QProgressBar* progress_;
  QCheckBox* auto_close_;
  QPushButton* cancel_button_;
  QPushButton* close_button_;
  QString partial_line_;
  bool seen_progress_ = false;
  bool cancel_requested_ = false;
  Outcome outcome_ = Outcome::Succeeded;
  int exit_code_ = 0;
};

}  // namespace fringe::gui
