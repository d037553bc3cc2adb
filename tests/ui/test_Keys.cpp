// Keys work whatever has focus: W/S/A/D/F (and C/E/G) are application-wide shortcuts, text fields keep
// their letters, ? and F1 open the key sheet; `sightline --help` and `--version` print without a display.
#include "CommandLine.h"
#include "DetailsPanel.h"
#include "FindBar.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "SimRunner.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"
#include "TestSupport.h"

#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QProcess>
#include <QTextBrowser>
#include <QTreeView>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestKeys : public QObject {
    Q_OBJECT

    static QString guiBinary() {
        // Built next to sightline-cli (app/ of the build tree).
        return QFileInfo(QStringLiteral(SIGHTLINE_CLI)).dir().filePath(QStringLiteral("sightline"));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Keys");
    }

    void keysWhateverHasFocus() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(2, 2, 300), {QStringLiteral("/synthetic/keys")});
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        ViewController* c = w.sessions()->view();
        auto* tree = w.findChild<QTreeView*>();
        QVERIFY(tree);
        // Focus in the track tree (where W/S used to do nothing): W zooms in, S out, D and A pan.
        tree->setFocus();
        QVERIFY(tree->hasFocus());
        TimeNs d = c->windowDuration();
        QTest::keyClick(tree, Qt::Key_W);
        QVERIFY(c->windowDuration() < d);
        d = c->windowDuration();
        QTest::keyClick(tree, Qt::Key_S);
        QVERIFY(c->windowDuration() > d);
        QTest::keyClick(tree, Qt::Key_W);
        QTest::keyClick(tree, Qt::Key_W);
        TimeNs s = c->windowStart();
        QTest::keyClick(tree, Qt::Key_D);
        QVERIFY(c->windowStart() > s);
        s = c->windowStart();
        QTest::keyClick(tree, Qt::Key_A);
        QVERIFY(c->windowStart() < s);
        // In the details panel (read-only text): F fits the selected event.
        w.sessions()->selection()->setEvent({1, {1, 10}});
        part<DetailsPanel>(w)->setFocus();
        QTest::keyClick(part<DetailsPanel>(w), Qt::Key_F);
        const auto& t = w.sessions()->measured()->track(1, 1);
        QVERIFY(c->windowStart() <= t.start[10] && c->windowEnd() >= t.end(10));
        QVERIFY(c->windowDuration() < t.duration[10] * 2);
        // C toggles the critical path from anywhere too.
        const bool path = w.menus()->criticalPathAction()->isChecked();
        QTest::keyClick(part<DetailsPanel>(w), Qt::Key_C);
        QCOMPARE(w.menus()->criticalPathAction()->isChecked(), !path);
    }

    void textFieldsKeepTheirLetters() {
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(1, 1, 50), {QStringLiteral("/synthetic/keys")});
        part<FindBar>(w)->activate();
        QLineEdit* field = part<FindBar>(w)->field();
        QVERIFY(field->hasFocus());
        const TimeNs d = w.sessions()->view()->windowDuration();
        const TimeNs s = w.sessions()->view()->windowStart();
        QTest::keyClicks(field, QStringLiteral("wasdf"));
        QCOMPARE(field->text(), QStringLiteral("wasdf"));
        QCOMPARE(w.sessions()->view()->windowDuration(), d);
        QCOMPARE(w.sessions()->view()->windowStart(), s);
    }

    void questionMarkShowsKeySheet() {
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(!part<HelpSheets>(w)->keySheet() || !part<HelpSheets>(w)->keySheet()->isVisible());
        // "?" as X11 reports it on a US layout (Shift+/ gives Key_Question with Shift held).
        QTest::keyClick(&w, Qt::Key_Question, Qt::ShiftModifier);
        QVERIFY(part<HelpSheets>(w)->keySheet());
        QVERIFY(part<HelpSheets>(w)->keySheet()->isVisible());
        part<HelpSheets>(w)->keySheet()->hide();
        // ... and as layouts without Shift for it report it.
        QTest::keyClick(&w, Qt::Key_Question);
        QVERIFY(part<HelpSheets>(w)->keySheet());
        QVERIFY(part<HelpSheets>(w)->keySheet()->isVisible());
        auto* text =
            part<HelpSheets>(w)->keySheet()->findChild<QTextBrowser*>(QStringLiteral("keySheetText"));
        QVERIFY(text);
        for (const char* key : {"W / S", "A / D", "Right-click", "Ctrl+F", "? or F1"})
            QVERIFY2(text->toPlainText().contains(QLatin1String(key)), key);
        part<HelpSheets>(w)->keySheet()->hide();
        QTest::keyClick(&w, Qt::Key_F1);
        QVERIFY(part<HelpSheets>(w)->keySheet()->isVisible());
        // Keys still work while the sheet is open (it is a tool window, not a modal box).
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(1, 1, 50), {QStringLiteral("/synthetic/keys")});
        const TimeNs d = w.sessions()->view()->windowDuration();
        QTest::keyClick(text, Qt::Key_W);
        QVERIFY(w.sessions()->view()->windowDuration() < d);
    }

    void infoOptionsAreRecognised() {
        const char* help[] = {"sightline", "--help"};
        const char* version[] = {"sightline", "trace.json", "--version"};
        const char* traces[] = {"sightline", "trace.json", "--", "--help"};
        const char* plain[] = {"sightline", "--set", "compute.speedup=2", "t.json"};
        QVERIFY(wantsInfoOnly(2, help));
        QVERIFY(wantsInfoOnly(3, version));
        QVERIFY(!wantsInfoOnly(4, traces));
        QVERIFY(!wantsInfoOnly(4, plain));
        QVERIFY(!applicationVersion().isEmpty());
    }

    // The real program, with no display at all: no DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM.
    void helpAndVersionWithoutDisplay() {
        if (!QFileInfo::exists(guiBinary())) QSKIP(qPrintable(guiBinary() + " is not built"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QLatin1String(var));
        auto run = [&](const QString& arg) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(guiBinary(), {arg});
            if (!p.waitForFinished(30'000)) p.kill();
            return std::make_tuple(p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                                   QString::fromUtf8(p.readAllStandardOutput()),
                                   QString::fromUtf8(p.readAllStandardError()));
        };
        const auto [helpCode, helpOut, helpErr] = run(QStringLiteral("--help"));
        QVERIFY2(helpCode == 0, qPrintable(helpErr));
        for (const char* text : {"Usage:", "--screenshot", "--set", "--critical-path", "--version"})
            QVERIFY2(helpOut.contains(QLatin1String(text)), qPrintable(helpOut));
        const auto [versionCode, versionOut, versionErr] = run(QStringLiteral("--version"));
        QVERIFY2(versionCode == 0, qPrintable(versionErr));
        QVERIFY2(versionOut.contains(applicationVersion()), qPrintable(versionOut));
    }
};

QTEST_MAIN(TestKeys)
#include "test_Keys.moc"
