// The window title names the session (or the traces, with their folder) and shows a modified marker
// once the user changes something; focus mode (F11) leaves only the timeline and brings the panels back.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "SessionDocument.h"
#include "SimRunner.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"

#include <QDockWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestTitleAndFocus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_TitleAndFocus");
    }

    void titleAndModifiedMarker() {
        MainWindow w;
        w.show();
        QCOMPARE(w.windowTitle(), QStringLiteral("Sightline"));
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(2, 1, 50),
                                   {QStringLiteral("/runs/dlrm-8rank/kineto")});
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("dlrm-8rank/kineto")));
        QVERIFY(!w.isWindowModified()); // loading is not an edit
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        SimKnobs k;
        k.computeSpeedup = 2;
        w.sessions()->knobs()->setKnobs(k);
        QVERIFY(w.isWindowModified());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("study.sightline.json"));
        QVERIFY(w.sessions()->document()->saveSession(path).isEmpty());
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("study.sightline.json")));
        // A zoom is an edit of the session's view.
        w.sessions()->view()->zoom(2.0);
        QVERIFY(w.isWindowModified());
        // Other traces: the title names them, and the session file is no longer theirs.
        w.sessions()->showTraceSet(sltest::makeSyntheticSet(1, 1, 20),
                                   {QStringLiteral("/runs/llama/rank-0.json")});
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("llama/rank-0.json")));
        QVERIFY(w.sessions()->document()->sessionPath().isEmpty());
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
    }

    void focusMode() {
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto visibleDocks = [&] {
            int n = 0;
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                n += d->isVisible() ? 1 : 0;
            return n;
        };
        const int before = visibleDocks();
        QVERIFY(before >= 4);
        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(w.menus()->focusModeAction()->isChecked());
        QCOMPARE(visibleDocks(), 0);
        for (QToolBar* bar : w.findChildren<QToolBar*>())
            QVERIFY(!bar->isVisible());
        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(!w.menus()->focusModeAction()->isChecked());
        QCOMPARE(visibleDocks(), before);
    }
};

QTEST_MAIN(TestTitleAndFocus)
#include "test_TitleAndFocus.moc"
