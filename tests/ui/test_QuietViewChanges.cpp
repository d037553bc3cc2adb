// Ways of looking are no edits, and the work survives a log-out (docs/MainWindow.md, "Never losing
// work"): C, E and G never mark the session modified; C goes to the rank and time that hold most of
// the critical path (01-dp8-straggler: rank 5, off a 1280x720 window's first screen); a geometry
// saved on a larger screen is fitted to this one; SIGTERM keeps unsaved work for the next start as
// a session the system closed, not a crash. On the bundled samples (always present).
#include "Autosave.h"
#include "KnobPanel.h"
#include "MainMenus.h"
#include "MainWindow.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimAnalysis.h"
#include "SimRunner.h"
#include "SimulationDriver.h"
#include "TerminationSignal.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QAction>
#include <QLayout>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QtTest>

#include <csignal>
#include <map>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestQuietViewChanges : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_QuietViewChanges");
        QSettings().clear();
    }

    void togglesAreNoEdit() {
        MainWindow w;
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        QVERIFY(sltest::openSample(w, "02-dp4"));
        QVERIFY(!w.sessions()->document()->modified());
        for (QAction* toggle :
             {w.menus()->criticalPathAction(), w.menus()->exposedAction(), w.menus()->arrowsAction()}) {
            toggle->trigger();
            QCoreApplication::processEvents();
            QVERIFY2(!w.sessions()->document()->modified(), qPrintable(toggle->text()));
            toggle->trigger();
        }
        QVERIFY(!w.isWindowModified());
        // A knob still is an edit.
        SimKnobs k;
        k.computeSpeedup = 2;
        w.sessions()->knobs()->setKnobs(k);
        QVERIFY(w.sessions()->document()->modified());
    }

    void criticalPathKeyGoesWhereThePathRuns() {
        MainWindow w;
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        QVERIFY(sltest::openSample(w, "01-dp8-straggler", 1280, 720));
        const SimOutput& out = w.sessions()->simulation();
        QVERIFY(out.analysis && out.graph);
        // The rank that holds most of the path, summed here from the path itself.
        std::map<std::uint32_t, TimeNs> byRank;
        for (const PathSegment& s : out.analysis->path.segments)
            byRank[out.graph->nodes[s.node].rank] += s.end - s.start;
        const auto most = std::max_element(byRank.begin(), byRank.end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
        QCOMPARE(most->first, 5u); // the straggler
        TimelineView* pane = part<TimelinePanes>(w)->measured();
        ViewController* view = w.sessions()->view();
        view->setScrollY(0);
        QCoreApplication::processEvents();
        QVERIFY(!w.sessions()->document()->modified());
        w.menus()->criticalPathAction()->trigger();
        QCoreApplication::processEvents();
        QVERIFY(w.menus()->criticalPathAction()->isChecked());
        const EventId selected = w.sessions()->selection()->event();
        QCOMPARE(selected.rank, 5);
        // Its row is in view, and the time of the event inside the window.
        const int row = pane->layout().rowOf(selected.rank, static_cast<int>(selected.ref.track));
        QVERIFY(row >= 0);
        const int y = pane->layout().rows()[static_cast<std::size_t>(row)].y;
        QVERIFY2(y >= view->scrollY() && y < view->scrollY() + pane->height(),
                 qPrintable(QStringLiteral("row at %1, view %2..%3")
                                .arg(y)
                                .arg(view->scrollY())
                                .arg(view->scrollY() + pane->height())));
        QVERIFY(view->scrollY() > 0); // rank 5 is below the first screen at 1280x720
        QVERIFY(!w.sessions()->document()->modified());
        // Turning the path off moves nothing.
        const int scroll = view->scrollY();
        w.menus()->criticalPathAction()->trigger();
        QCOMPARE(view->scrollY(), scroll);
    }

    void geometryFromALargerScreenFits() {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        // Saved on a larger screen: twice this one's size, its top-left at this one's middle.
        {
            MainWindow big;
            big.setGeometry(available.x() + available.width() / 2, available.y() + available.height() / 2,
                            available.width() * 2, available.height() * 2);
            QSettings().setValue(QStringLiteral("window/geometry"), big.saveGeometry());
        }
        MainWindow w;
        w.restoreLayout();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.fitToScreen(); // again once shown, with the window manager's frame (as main() does)
        const QRect frame = w.frameGeometry();
        // The smallest the window's layout allows (docks and panes at their minimum), with its frame.
        const QSize least = w.layout()->minimumSize().expandedTo(w.minimumSize()) + (frame.size() - w.size());
        const QString where = QStringLiteral("window %1,%2 %3x%4 on a screen of %5x%6, minimum %7x%8")
                                  .arg(frame.x())
                                  .arg(frame.y())
                                  .arg(frame.width())
                                  .arg(frame.height())
                                  .arg(available.width())
                                  .arg(available.height())
                                  .arg(least.width())
                                  .arg(least.height());
        // On the screen from its top-left corner, and no larger than the screen, unless the window
        // cannot be smaller (the offscreen test screen is 800x800).
        QVERIFY2(available.contains(frame.topLeft()), qPrintable(where));
        QVERIFY2(frame.width() <= std::max(available.width(), least.width()), qPrintable(where));
        QVERIFY2(frame.height() <= std::max(available.height(), least.height()), qPrintable(where));
        QVERIFY2(frame.width() < available.width() * 2, qPrintable(where));
        // A window that fits but lies half off the screen is moved onto it.
        {
            MainWindow half;
            half.setGeometry(available.x() + available.width() * 3 / 4,
                             available.y() + available.height() * 3 / 4, available.width() / 2,
                             available.height() / 2);
            QSettings().setValue(QStringLiteral("window/geometry"), half.saveGeometry());
        }
        MainWindow moved;
        moved.restoreLayout();
        QVERIFY2(available.contains(moved.geometry().topLeft()) &&
                     (available.contains(moved.geometry()) || moved.width() > available.width() / 2),
                 qPrintable(QStringLiteral("%1,%2 %3x%4")
                                .arg(moved.geometry().x())
                                .arg(moved.geometry().y())
                                .arg(moved.geometry().width())
                                .arg(moved.geometry().height())));
        QSettings().clear();
    }

    void signalKeepsUnsavedWorkForTheNextStart() {
        QTemporaryDir dir;
        {
            MainWindow w;
            w.sessions()->document()->enableAutosave(dir.path(), 60'000);
            QVERIFY(sltest::openSample(w, "02-dp4"));
            SimKnobs k;
            k.computeSpeedup = 2;
            w.sessions()->knobs()->setKnobs(k);
            QVERIFY(w.sessions()->document()->modified());
            bool ended = false;
            const TerminationSignal termination([&] {
                ended = true;
                w.endBySignal();
            });
            QVERIFY(termination.installed());
            std::raise(SIGTERM);
            QTRY_VERIFY(ended);
            QVERIFY(!QFile::exists(w.sessions()->document()->autosave()->markerPath()));
            QVERIFY(QFile::exists(w.sessions()->document()->autosave()->recoveredPath()));
            w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        }
        MainWindow next;
        next.sessions()->document()->enableAutosave(dir.path(), 60'000);
        next.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        QVERIFY(next.sessions()->document()->autosave()->recoverable());
        QVERIFY(next.sessions()->document()->autosave()->recoveredFromClose());
        next.show();
        next.offerRestore();
        auto* box = next.findChild<QMessageBox*>(QStringLiteral("restoreQuestion"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("closed by the system")), qPrintable(box->text()));
        QVERIFY(!box->text().contains(QStringLiteral("did not close cleanly")));
        box->close();
    }

    void unmodifiedSessionEndsCleanlyOnASignal() {
        QTemporaryDir dir;
        {
            MainWindow w;
            w.sessions()->document()->enableAutosave(dir.path(), 60'000);
            QVERIFY(sltest::openSample(w, "02-dp4"));
            QVERIFY(!w.sessions()->document()->modified());
            w.endBySignal();
            QVERIFY(!QFile::exists(w.sessions()->document()->autosave()->markerPath()));
            w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
        }
        MainWindow next;
        next.sessions()->document()->enableAutosave(dir.path(), 60'000);
        QVERIFY(!next.sessions()->document()->autosave()->recoverable());
    }
};

QTEST_MAIN(TestQuietViewChanges)
#include "test_QuietViewChanges.moc"
