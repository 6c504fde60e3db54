// Qt Test unit tests of the settings tree view (SettingsTree over SettingsFilter over
// SettingsModel): the context menu (Reset, Reset Group, Copy Setting Key, Expand All Below),
// keyboard navigation (arrows, Left/Right, Space on a check box, F2 to edit, Enter to commit,
// Escape to cancel, the Menu key), expand/collapse and selecting a key hidden by the filter.
#include <QAbstractSpinBox>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTimer>
#include <memory>

#include "gui/settings_filter.h"
#include "gui/settings_model.h"
#include "gui/settings_tree.h"
#include "test_schema.h"

using namespace fringe::gui;
namespace fs = fringe::settings;

class TestSettingsTree : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<SettingsModel> model_;
  std::unique_ptr<SettingsFilter> filter_;
  std::unique_ptr<SettingsTree> tree_;

  QModelIndex row(const char* key, int column = 0) {
    return filter_->mapFromSource(model_->index_of_key(key, column));
  }
  QString value(const char* key) { return model_->index_of_key(key, 1).data().toString(); }
  static QAction* action(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions())
      if (a->text() == text) return a;
    return nullptr;
  }

 private slots:
  void init() {
    model_ = std::make_unique<SettingsModel>();
    model_->set_schema(fs::Schema::parse(kTestSchemaXml), "test_app", "1.2.3");
    filter_ = std::make_unique<SettingsFilter>();
    tree_ = std::make_unique<SettingsTree>(model_.get(), filter_.get());
    tree_->resize(600, 500);
    tree_->show();
    QApplication::setActiveWindow(tree_.get());
    QVERIFY(QTest::qWaitForWindowActive(tree_.get()));
    tree_->show_first_level();
  }
  void cleanup() {
    tree_.reset();
    filter_.reset();
    model_.reset();
  }

  void context_menu_of_a_setting() {
    QVERIFY(model_->set_value("obs/num_channels", "5"));
    std::unique_ptr<QMenu> menu(tree_->make_context_menu(row("obs/num_channels"), nullptr));
    QVERIFY(action(menu.get(), "Reset"));
    QVERIFY(!action(menu.get(), "Reset Group"));
    QVERIFY(!action(menu.get(), "Expand All Below")->isEnabled());
    action(menu.get(), "Reset")->trigger();
    QCOMPARE(value("obs/num_channels"), QString("1"));
    // Copy Setting Key puts the full key on the clipboard.
    QSignalSpy message(tree_.get(), &SettingsTree::message);
    action(menu.get(), "Copy Setting Key")->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QString("obs/num_channels"));
    QCOMPARE(message.count(), 1);
    // From the value column the menu is the same row's.
    std::unique_ptr<QMenu> value_menu(tree_->make_context_menu(row("obs/length", 1), nullptr));
    action(value_menu.get(), "Copy Setting Key")->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QString("obs/length"));
  }

  void context_menu_of_a_group() {
    QVERIFY(model_->set_value("beam/devices", "3"));
    QVERIFY(model_->set_value("beam/kind", "Gaussian"));
    QVERIFY(model_->set_value("obs/num_channels", "5"));
    std::unique_ptr<QMenu> menu(tree_->make_context_menu(row("beam"), nullptr));
    QVERIFY(!action(menu.get(), "Reset"));
    action(menu.get(), "Reset Group")->trigger();
    QCOMPARE(value("beam/devices"), QString("auto"));
    QCOMPARE(value("beam/kind"), QString("Isotropic"));
    QCOMPARE(value("obs/num_channels"), QString("5"));  // another group: untouched
    action(menu.get(), "Copy Setting Key")->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QString("beam"));
    // Expand All Below opens every group under the row.
    QVERIFY(model_->set_value("noise/enable", "true"));
    tree_->collapseAll();
    std::unique_ptr<QMenu> noise(tree_->make_context_menu(row("noise"), nullptr));
    QVERIFY(action(noise.get(), "Expand All Below")->isEnabled());
    action(noise.get(), "Expand All Below")->trigger();
    QVERIFY(tree_->isExpanded(row("noise")));
    QVERIFY(tree_->isExpanded(row("noise/details")));
    QVERIFY(!tree_->isExpanded(row("obs")));
  }

  void expand_and_collapse() {
    tree_->expandAll();
    QVERIFY(tree_->isExpanded(row("obs")));
    QVERIFY(tree_->isExpanded(row("noise/details")));
    tree_->collapseAll();
    QVERIFY(!tree_->isExpanded(row("obs")));
    QVERIFY(!tree_->isExpanded(row("noise")));
    tree_->show_first_level();
    QVERIFY(tree_->isExpanded(row("obs")));
    QVERIFY(tree_->isExpanded(row("noise")));
    QVERIFY(!tree_->isExpanded(row("noise/details")));
  }

  void keyboard_navigation() {
    tree_->collapseAll();
    tree_->setFocus();
    tree_->setCurrentIndex(row("obs"));
    // Right expands, Down enters the group, Left goes back up, Left again collapses.
    QTest::keyClick(tree_.get(), Qt::Key_Right);
    QVERIFY(tree_->isExpanded(row("obs")));
    QTest::keyClick(tree_.get(), Qt::Key_Down);
    QCOMPARE(tree_->current_source_index(), model_->index_of_key("obs/start_frequency_hz"));
    QTest::keyClick(tree_.get(), Qt::Key_Down);
    QCOMPARE(tree_->current_source_index(), model_->index_of_key("obs/num_channels"));
    QTest::keyClick(tree_.get(), Qt::Key_Left);
    QCOMPARE(tree_->current_source_index(), model_->index_of_key("obs"));
    QTest::keyClick(tree_.get(), Qt::Key_Left);
    QVERIFY(!tree_->isExpanded(row("obs")));

    // Space toggles a check box.
    tree_->select_key("noise/enable");
    QCOMPARE(value("noise/enable"), QString(""));  // Bool: shown as a check box
    QTest::keyClick(tree_.get(), Qt::Key_Space);
    QVERIFY(model_->settings()->get("noise/enable") == "true");
    QTest::keyClick(tree_.get(), Qt::Key_Space);
    QVERIFY(model_->settings()->get("noise/enable") == "false");

    // F2 edits the value (whichever column is current), Enter commits.
    tree_->select_key("obs/num_channels");
    QTest::keyClick(tree_.get(), Qt::Key_F2);
    auto* spin = qobject_cast<QSpinBox*>(tree_->indexWidget(row("obs/num_channels", 1)));
    QVERIFY(spin);
    QVERIFY(spin->hasFocus() || spin->findChild<QLineEdit*>()->hasFocus());
    QWidget* focus = QApplication::focusWidget();
    QTest::keyClick(focus, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(focus, "7");
    QTest::keyClick(focus, Qt::Key_Return);  // the delegate commits from the event loop
    QTRY_COMPARE(value("obs/num_channels"), QString("7"));
    QVERIFY(!tree_->indexWidget(row("obs/num_channels", 1)));  // the editor is closed
    // Escape cancels an edit.
    QTest::keyClick(tree_.get(), Qt::Key_F2);
    QVERIFY(tree_->indexWidget(row("obs/num_channels", 1)));
    focus = QApplication::focusWidget();
    QTest::keyClick(focus, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(focus, "9");
    QTest::keyClick(focus, Qt::Key_Escape);
    QTest::qWait(50);
    QCOMPARE(value("obs/num_channels"), QString("7"));
    QVERIFY(!tree_->indexWidget(row("obs/num_channels", 1)));
  }

  void context_menu_from_the_keyboard() {
    // The Menu key opens the menu of the current row (not of the row under the mouse).
    tree_->select_key("beam/out");  // a setting; the row at (1, 1) is the group "obs"
    QString first;
    QTimer::singleShot(0, [&first] {
      QTRY_VERIFY(qobject_cast<QMenu*>(QApplication::activePopupWidget()));
      auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
      first = menu->actions().first()->text();
      menu->close();
    });
    QContextMenuEvent event(QContextMenuEvent::Keyboard, QPoint(1, 1),
                            tree_->mapToGlobal(QPoint(1, 1)));
    QApplication::sendEvent(tree_.get(), &event);
    QCOMPARE(first, QString("Reset"));
  }

  void select_key_clears_a_hiding_filter() {
    filter_->set_filter_text("beam");
    QVERIFY(!row("obs/length").isValid());
    tree_->select_key("obs/length");
    QVERIFY(filter_->filter_text().isEmpty());
    QCOMPARE(tree_->current_source_index(), model_->index_of_key("obs/length"));
    QVERIFY(tree_->isExpanded(row("obs")));
  }
};

QTEST_MAIN(TestSettingsTree)
#include "test_settings_tree.moc"
