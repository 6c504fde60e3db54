#include "gui/run_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

#include "gui/progress_line.h"

namespace fringe::gui {

RunDialog::RunDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Run"));
  auto* layout = new QVBoxLayout(this);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  log_->setLineWrapMode(QPlainTextEdit::NoWrap);
  log_->setMaximumBlockCount(200000);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 100);
  progress_->setValue(0);
  auto_close_ = new QCheckBox(tr("Close this window when the run succeeds"), this);
  auto* buttons = new QDialogButtonBox(this);
  cancel_button_ = buttons->addButton(QDialogButtonBox::Cancel);
  close_button_ = buttons->addButton(QDialogButtonBox::Close);
  close_button_->setEnabled(false);
  layout->addWidget(status_);
  layout->addWidget(log_, 1);
  layout->addWidget(progress_);
  layout->addWidget(auto_close_);
  layout->addWidget(buttons);
  const int em = fontMetrics().horizontalAdvance('m');
  resize(70 * em, 36 * fontMetrics().height());

  process_ = new QProcess(this);
  process_->setProcessChannelMode(QProcess::MergedChannels);
  kill_timer_ = new QTimer(this);
  kill_timer_->setSingleShot(true);
  connect(kill_timer_, &QTimer::timeout, this, [this] {
    if (is_running()) {
      append(tr("\n[still running %1 s after the stop request: killing it]\n")
                 .arg(kill_grace_ms / 1000.0));
      process_->kill();
    }
  });
  connect(process_, &QProcess::readyRead, this, &RunDialog::read_output);
  connect(process_, &QProcess::finished, this, &RunDialog::on_finished);
  connect(process_, &QProcess::errorOccurred, this, &RunDialog::on_error);
  connect(cancel_button_, &QPushButton::clicked, this, &RunDialog::cancel);
  connect(close_button_, &QPushButton::clicked, this, &QDialog::accept);
}

RunDialog::~RunDialog() {
  // Never leave a child behind: stop it, briefly wait, then kill.
  if (is_running()) {
    process_->disconnect(this);
    process_->terminate();
    if (!process_->waitForFinished(2000)) {
      process_->kill();
      process_->waitForFinished(2000);
    }
  }
}

bool RunDialog::is_running() const { return process_->state() != QProcess::NotRunning; }

QString RunDialog::log_text() const { return log_->toPlainText(); }

void RunDialog::set_auto_close(bool on) { auto_close_->setChecked(on); }

bool RunDialog::start(const QString& program, const QStringList& args, const QString& working_dir) {
  if (is_running()) return false;
  log_->clear();
  partial_line_.clear();
  seen_progress_ = false;
  cancel_requested_ = false;
  outcome_ = Outcome::Running;
  exit_code_ = 0;
  progress_->setRange(0, 0);  // busy until the app reports a percentage
  cancel_button_->setEnabled(true);
  close_button_->setEnabled(false);
  const QString name = QFileInfo(program).fileName();
  setWindowTitle(tr("Running %1").arg(name));
  status_->setText(
      tr("Running <b>%1</b> %2 in %3")
          .arg(name.toHtmlEscaped(), args.join(' ').toHtmlEscaped(), working_dir.toHtmlEscaped()));
  append("$ " + program + " " + args.join(' ') + "\n");
  process_->setWorkingDirectory(working_dir);
  process_->start(program, args);
  return true;
}

void RunDialog::cancel() {
  if (!is_running()) return;
  cancel_requested_ = true;
  cancel_button_->setEnabled(false);
  status_->setText(tr("Stopping..."));
  append(tr("\n[stop requested]\n"));
  process_->terminate();  // SIGTERM: the app can end cleanly (no partial output kept)
  kill_timer_->start(kill_grace_ms);
}

void RunDialog::reject() {
  if (is_running()) {
    cancel();
    return;
  }
  QDialog::reject();
}

void RunDialog::read_output() {
  const QString text = QString::fromLocal8Bit(process_->readAll());
  append(text);
  // Progress from complete lines and from '\r'-redrawn bars.
  partial_line_ += text;
  QStringList parts = partial_line_.split(QRegularExpression("[\r\n]"));
  partial_line_ = parts.takeLast();
  parts.append(partial_line_);
  for (const QString& line : parts) {
    if (auto p = parse_progress(line)) {
      if (!seen_progress_) progress_->setRange(0, 100);
      seen_progress_ = true;
      progress_->setValue(static_cast<int>(std::lround(*p)));
    }
  }
}

void RunDialog::append(const QString& text) {
  QScrollBar* bar = log_->verticalScrollBar();
  const bool at_end = bar->value() == bar->maximum();
  log_->moveCursor(QTextCursor::End);
  log_->insertPlainText(QString(text).replace('\r', '\n'));
  if (at_end) bar->setValue(bar->maximum());
}

void RunDialog::on_finished(int code, QProcess::ExitStatus status) {
  kill_timer_->stop();
  read_output();
  if (cancel_requested_)
    finish(Outcome::Cancelled, code, tr("Cancelled."));
  else if (status == QProcess::CrashExit)
    finish(Outcome::Crashed, code, tr("The app crashed."));
  else if (code == 0)
    finish(Outcome::Succeeded, code, tr("Finished successfully (exit code 0)."));
  else
    finish(Outcome::Failed, code,
           tr("Failed with exit code %1%2.")
               .arg(code)
               .arg(code == 2 ? tr(" (bad input: see the errors above)") : QString()));
}

void RunDialog::on_error(QProcess::ProcessError error) {
  if (error == QProcess::FailedToStart)
    finish(Outcome::FailedToStart, -1, tr("Could not start: %1").arg(process_->errorString()));
}

void RunDialog::finish(Outcome outcome, int code, const QString& message) {
  if (outcome_ != Outcome::Running) return;
  outcome_ = outcome;
  exit_code_ = code;
  progress_->setRange(0, 100);
  progress_->setValue(outcome == Outcome::Succeeded ? 100 : progress_->value());
  cancel_button_->setEnabled(false);
  close_button_->setEnabled(true);
  close_button_->setDefault(true);
  status_->setText("<b>" + message.toHtmlEscaped() + "</b>");
  append("\n[" + message + "]\n");
  setWindowTitle(windowTitle().replace(tr("Running"), tr("Finished")));
  emit finished_run(outcome, code);
  if (outcome == Outcome::Succeeded && auto_close_->isChecked()) accept();
}

}  // namespace fringe::gui
