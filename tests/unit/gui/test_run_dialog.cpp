// Qt Test unit tests of RunDialog with /bin/sh as the child: live log with merged stderr,
// progress parsed from "NN%" lines, exit status shown, Cancel stopping the child with SIGTERM
// (and killing one that ignores it), a program that does not start, the auto-close option,
// and that start() returns at once (the GUI's event loop keeps running during a run).
#include <QElapsedTimer>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include "gui/run_dialog.h"

using fringe::gui::RunDialog;
using Outcome = RunDialog::Outcome;

class TestRunDialog : public QObject {
  Q_OBJECT

 private slots:
  void success_with_progress() {
    RunDialog d;
    QSignalSpy done(&d, &RunDialog::finished_run);
    auto* bar = d.findChild<QProgressBar*>();
    QVERIFY(d.start("/bin/sh", {"-c", "echo 'predict: 10%'; sleep 0.5; echo 'predict: 60%'"}, "/"));
    QVERIFY(d.is_running());
    QCOMPARE(bar->maximum(), 0);  // busy until a percentage arrives
    QTRY_COMPARE_WITH_TIMEOUT(bar->value(), 10, 5000);
    QCOMPARE(bar->maximum(), 100);
    QVERIFY(done.wait(10000));
    QCOMPARE(d.outcome(), Outcome::Succeeded);
    QCOMPARE(d.exit_code(), 0);
    QCOMPARE(bar->value(), 100);
    QVERIFY(d.log_text().contains("predict: 60%"));
    QVERIFY(d.log_text().contains("exit code 0"));
  }

  void auto_close_only_after_success() {
    // "Close this window when the run succeeds": a success closes it, a failure leaves it.
    RunDialog d;
    d.set_auto_close(true);
    QSignalSpy done(&d, &RunDialog::finished_run);
    d.show();
    QVERIFY(d.start("/bin/sh", {"-c", "echo 'stage: 100%'"}, "/"));
    QVERIFY(done.wait(10000));
    QTRY_VERIFY(!d.isVisible());
    d.show();
    QVERIFY(d.start("/bin/sh", {"-c", "exit 1"}, "/"));
    QVERIFY(done.wait(10000));
    QTest::qWait(50);
    QVERIFY(d.isVisible());
  }

  void failure_shows_exit_code_and_stderr() {
    RunDialog d;
    QSignalSpy done(&d, &RunDialog::finished_run);
    d.start("/bin/sh", {"-c", "echo 'error: bad key' >&2; exit 2"}, "/");
    QVERIFY(done.wait(10000));
    QCOMPARE(d.outcome(), Outcome::Failed);
    QCOMPARE(d.exit_code(), 2);
    QVERIFY(d.log_text().contains("error: bad key"));
    QVERIFY(d.log_text().contains("exit code 2"));
    QCOMPARE(done.at(0).at(1).toInt(), 2);
  }

  void gui_keeps_running_during_a_run() {
    RunDialog d;
    QSignalSpy done(&d, &RunDialog::finished_run);
    QElapsedTimer clock;
    clock.start();
    d.start("/bin/sh", {"-c", "sleep 1.5"}, "/");
    QVERIFY(clock.elapsed() < 1000);  // start() does not wait for the child
    int ticks = 0;
    QTimer timer;
    connect(&timer, &QTimer::timeout, [&] { ++ticks; });
    timer.start(50);
    QVERIFY(done.wait(10000));
    QVERIFY2(ticks >= 10, "timers fired while the child ran");
  }

  void cancel_terminates_cleanly() {
    RunDialog d;
    QSignalSpy done(&d, &RunDialog::finished_run);
    d.start("/bin/sh",
            {"-c",
             "trap 'echo got TERM; exit 5' TERM; echo ready_$((40+2)); "
             "while true; do sleep 0.05; done"},
            "/");
    // (The marker is computed by the shell, so the echoed command line does not match it.)
    QTRY_VERIFY_WITH_TIMEOUT(d.log_text().contains("ready_42"), 5000);
    QElapsedTimer clock;
    clock.start();
    d.cancel();
    QVERIFY(done.wait(10000));
    QVERIFY(clock.elapsed() < d.kill_grace_ms);  // ended by SIGTERM, not the kill
    QCOMPARE(d.outcome(), Outcome::Cancelled);
    QVERIFY(d.log_text().contains("got TERM"));
    QVERIFY(!d.is_running());
  }

  void cancel_kills_a_child_that_ignores_sigterm() {
    RunDialog d;
    d.kill_grace_ms = 300;
    QSignalSpy done(&d, &RunDialog::finished_run);
    d.start("/bin/sh",
            {"-c", "trap '' TERM; echo ready_$((40+2)); while true; do sleep 0.05; done"}, "/");
    QTRY_VERIFY_WITH_TIMEOUT(d.log_text().contains("ready_42"), 5000);
    d.cancel();
    QVERIFY(done.wait(10000));
    QCOMPARE(d.outcome(), Outcome::Cancelled);
    QVERIFY2(d.log_text().contains("killing"), qPrintable(d.log_text()));
  }

  void program_that_does_not_start() {
    RunDialog d;
    QSignalSpy done(&d, &RunDialog::finished_run);
    d.start("/nonexistent/sim_interferometer", {"x.ini"}, "/");
    QVERIFY(done.count() == 1 || done.wait(5000));
    QCOMPARE(d.outcome(), Outcome::FailedToStart);
    QVERIFY(!d.is_running());
  }
};

QTEST_MAIN(TestRunDialog)
#include "test_run_dialog.moc"
