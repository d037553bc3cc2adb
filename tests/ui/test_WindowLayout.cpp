// The window's layout (docs/MainWindow.md, "Layout"): timeline first (the panes get at least 60% of
// the height at 1280x720, 1366x768 and 1600x1000 with the default layout, four ranks per pane, and
// the window fits 1280x720 and 1366x768 after loading a set), every dock shrinks to its title, F11 twice
// gives back every dock's geometry, View > Reset Layout, the layout saved only when the user changed it, a
// resize is no session change, C and E never widen the window. On the bundled samples (always present) and,
// when /work/shared/traces is there, the DLRM set.
#include "KnobPanel.h"
#include "MainWindow.h"
#include "PlanView.h"
#include "ResultCard.h"
#include "RowLayout.h"
#include "ScenarioController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "SweepView.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QtTest>

#include <map>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {
// Every dock's place: visible, floating, geometry in the window.
struct DockPlace {
    bool visible = false;
    bool floating = false;
    QRect geometry;
    bool operator==(const DockPlace&) const = default;
};
std::map<QString, DockPlace> places(const MainWindow& w) {
    std::map<QString, DockPlace> out;
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        // A dock behind another's tab is "visible" off screen: only the front one counts.
        if (d->isVisible() && d->visibleRegion().isEmpty() && !d->isFloating())
            out[d->objectName()] = {false, false, QRect()};
        else
            out[d->objectName()] = {d->isVisible(), d->isFloating(),
                                    d->isVisible() ? d->geometry() : QRect()};
    return out;
}
QString describe(const std::map<QString, DockPlace>& a, const std::map<QString, DockPlace>& b) {
    QString text;
    for (const auto& [name, p] : a) {
        const DockPlace& q = b.at(name);
        if (p == q) continue;
        const auto r = [](const DockPlace& x) {
            return QStringLiteral("%1%2 %3x%4+%5+%6")
                .arg(x.visible ? QString() : QStringLiteral("hidden "),
                     x.floating ? QStringLiteral("floating ") : QString())
                .arg(x.geometry.width())
                .arg(x.geometry.height())
                .arg(x.geometry.x())
                .arg(x.geometry.y());
        };
        text += QStringLiteral("%1: %2 -> %3; ").arg(name, r(p), r(q));
    }
    return text;
}
// Lets the layout settle (the default sizes apply on the event loop after the window shows).
void settleLayout() {
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }
}
} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT
    static QString sample(const char* name) { return QString::fromStdString(sltest::samplePath(name)); }
    // A window of size `size` with the default layout (no saved one) and `paths` loaded.
    static void open(MainWindow& w, QSize size, const QStringList& paths, bool simulate = false) {
        w.sessions()->driver()->setAutoSimulate(simulate);
        w.restoreLayout();
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        settleLayout();
        w.sessions()->openTraces(paths);
        QVERIFY(w.sessions()->loader()->waitForFinished(120'000));
        // With the simulation: the result card above the panes takes its share too.
        if (simulate) QVERIFY(w.sessions()->simRunner()->waitForIdle(120'000));
        if (simulate) QVERIFY(w.findChild<ScenarioController*>()->runner()->waitForIdle(120'000));
        settleLayout();
        w.setCloseQuestion([] { return MainWindow::CloseChoice::Discard; });
    }
    static QStringList sets() {
        QStringList out{sample("01-dp8-straggler"), sample("04-dp2-tp2-pp2-2nodes")};
        if (sltest::haveTraces())
            out.push_back(QString::fromStdString(sltest::tracePath("dlrm-8rank-v100/kineto")));
        return out;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_WindowLayout");
        QSettings().clear();
    }
    void init() { QSettings().clear(); }

    void timelineFirstAndFits_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("share");
        QTest::addColumn<QString>("set");
        for (const QString& set : sets()) {
            const QString name = QFileInfo(set).fileName() == QLatin1String("kineto")
                                     ? QStringLiteral("dlrm")
                                     : QFileInfo(set).fileName();
            QTest::addRow("1280x720 %s", qPrintable(name)) << QSize(1280, 720) << 0.6 << set;
            QTest::addRow("1366x768 %s", qPrintable(name)) << QSize(1366, 768) << 0.6 << set;
            QTest::addRow("1600x1000 %s", qPrintable(name)) << QSize(1600, 1000) << 0.6 << set;
        }
    }
    void timelineFirstAndFits() {
        QFETCH(QSize, size);
        QFETCH(double, share);
        QFETCH(QString, set);
        MainWindow w;
        open(w, size, {set}, true);
        QVERIFY(w.sessions()->traceSet());
        QVERIFY(part<ResultCard>(w)->isVisible());
        // Fits: the window kept its size and needs no more than it.
        QCOMPARE(w.size(), size);
        const QSize need = w.minimumSizeHint();
        QVERIFY2(need.width() <= size.width() && need.height() <= size.height(),
                 qPrintable(QStringLiteral("needs %1x%2").arg(need.width()).arg(need.height())));
        // Timeline first.
        const int panes = part<TimelinePanes>(w)->height();
        // Where the rest went, for when it fails.
        QString rest;
        for (QWidget* x : {static_cast<QWidget*>(w.menuBar()), static_cast<QWidget*>(part<MessageBar>(w)),
                           static_cast<QWidget*>(part<ResultCard>(w)), static_cast<QWidget*>(w.statusBar()),
                           static_cast<QWidget*>(part<QDockWidget>(w, QStringLiteral("deltaDock")))})
            rest += QStringLiteral(" %1 %2")
                        .arg(QString::fromLatin1(x->metaObject()->className()))
                        .arg(x->isVisible() ? x->height() : 0);
        qInfo("%dx%d: panes %d px (%.0f%%), window needs %dx%d;%s", size.width(), size.height(), panes,
              100.0 * panes / size.height(), need.width(), need.height(), qPrintable(rest));
        QVERIFY2(panes >= share * size.height(),
                 qPrintable(QStringLiteral("panes %1 of %2 px").arg(panes).arg(size.height())));
        // A short window shows several ranks per pane, not part of one: at least four rank rows
        // (header or summary row) whole in the measured pane's first screen. (A tall window opens
        // the ranks expanded, as before.)
        const TimelineView* measured = part<TimelinePanes>(w)->measured();
        int ranksShown = 0;
        for (const Row& row : measured->layout().rows())
            if (row.track == -1 && row.y + row.height <= measured->height()) ++ranksShown;
        const int ranks = static_cast<int>(w.sessions()->traceSet()->ranks.size());
        QVERIFY2(size.height() >= 800 || ranksShown >= std::min(4, ranks),
                 qPrintable(QStringLiteral("%1 of %2 ranks in a %3 px pane")
                                .arg(ranksShown)
                                .arg(ranks)
                                .arg(measured->height())));
        // The card's first line wraps: it never holds the right column under its default width
        // (it did at 1280: the card's one-line title needed about 700 px).
        auto* details = part<QDockWidget>(w, QStringLiteral("detailsDock"));
        QVERIFY2(details->width() >= std::min(380, size.width() / 4) - 12,
                 qPrintable(QStringLiteral("Details %1 px wide").arg(details->width())));
        // Every dock shrinks to about its title.
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            QVERIFY2(d->minimumSizeHint().height() <= 80,
                     qPrintable(QStringLiteral("%1 needs %2 px")
                                    .arg(d->objectName())
                                    .arg(d->minimumSizeHint().height())));
    }

    void sweepTallInFront() {
        MainWindow w;
        open(w, {1600, 1000}, {sample("01-dp8-straggler")}, true);
        auto* delta = part<QDockWidget>(w, QStringLiteral("deltaDock"));
        const int row = delta->height();
        const int panes = part<TimelinePanes>(w)->height();
        auto* sweepDock = part<QDockWidget>(w, QStringLiteral("sweepDock"));
        sweepDock->raise();
        settleLayout();
        // The plot is readable while its tab is in front, and the timeline stays on screen.
        QChart* chart = part<SweepView>(w)->chart()->chart();
        qInfo("bottom row %d -> %d px, plot %.0f px, panes %d -> %d px", row, sweepDock->height(),
              chart->plotArea().height(), panes, part<TimelinePanes>(w)->height());
        QVERIFY2(chart->plotArea().height() >= SweepView::kPlotHeight - 2,
                 qPrintable(QStringLiteral("plot %1 px").arg(chart->plotArea().height())));
        QVERIFY(part<TimelinePanes>(w)->height() >= 300);
        // Another tab in front gives the height back.
        delta->raise();
        settleLayout();
        QCOMPARE(delta->height(), row);
        QCOMPARE(part<TimelinePanes>(w)->height(), panes);
        QVERIFY(!w.sessions()->document()->modified());
        // And again after a sweep ran (a title and an axis title take the chart's room), with a
        // chart laid out for the taller row while its tab was behind.
        auto* sweep = part<SweepView>(w);
        QVERIFY(sweep->run(QStringLiteral("compute.speedup"), {1, 2}));
        QVERIFY(sweep->waitForIdle(60'000));
        sweepDock->raise();
        settleLayout();
        QVERIFY2(chart->plotArea().height() >= SweepView::kPlotHeight - 2,
                 qPrintable(QStringLiteral("plot %1 px the second time").arg(chart->plotArea().height())));
    }

    // The Plan tab grows the row as the Sweep tab does; going from one chart tab to the other keeps
    // the room, and a table tab in front gives it back.
    void planTallInFront() {
        MainWindow w;
        open(w, {1600, 1000}, {sample("01-dp8-straggler")}, true);
        auto* delta = part<QDockWidget>(w, QStringLiteral("deltaDock"));
        const int row = delta->height();
        part<QDockWidget>(w, QStringLiteral("planDock"))->raise();
        settleLayout();
        QChart* plan = part<PlanView>(w)->chart()->chart();
        QVERIFY2(plan->plotArea().height() >= SweepView::kPlotHeight - 2,
                 qPrintable(QStringLiteral("plan plot %1 px").arg(plan->plotArea().height())));
        part<QDockWidget>(w, QStringLiteral("sweepDock"))->raise();
        settleLayout();
        QChart* sweep = part<SweepView>(w)->chart()->chart();
        QVERIFY2(
            sweep->plotArea().height() >= SweepView::kPlotHeight - 2,
            qPrintable(QStringLiteral("sweep plot %1 px after the plan").arg(sweep->plotArea().height())));
        delta->raise();
        settleLayout();
        QCOMPARE(delta->height(), row);
    }

    void focusModeGivesEveryDockBack() {
        MainWindow w;
        open(w, {1600, 1000}, {sample("01-dp8-straggler")});
        // The user's own layout: the bottom row taller, a tab brought to the front.
        auto* delta = part<QDockWidget>(w, QStringLiteral("deltaDock"));
        w.resizeDocks({delta}, {300}, Qt::Vertical);
        part<QDockWidget>(w, QStringLiteral("sweepDock"))->raise();
        settleLayout();
        const auto before = places(w);
        for (int i = 0; i < 2; ++i) {
            QAction* f11 = w.menus()->focusModeAction();
            f11->trigger();
            settleLayout();
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                QVERIFY(!d->isVisible());
            f11->trigger();
            settleLayout();
            const auto after = places(w);
            QVERIFY2(after == before, qPrintable(describe(before, after)));
            for (QToolBar* bar : w.findChildren<QToolBar*>())
                QVERIFY(bar->isVisible());
        }
    }

    void resetLayout() {
        MainWindow fresh;
        open(fresh, {1600, 1000}, {sample("02-dp4")});
        const auto defaults = places(fresh);
        MainWindow w;
        open(w, {1600, 1000}, {sample("02-dp4")});
        QVERIFY2(places(w) == defaults, qPrintable(describe(defaults, places(w))));
        // Scramble it: a dock closed, one floated, the bottom row tall, the left column wide.
        part<QDockWidget>(w, QStringLiteral("tracksDock"))->close();
        part<QDockWidget>(w, QStringLiteral("detailsDock"))->setFloating(true);
        w.resizeDocks({part<QDockWidget>(w, QStringLiteral("deltaDock"))}, {500}, Qt::Vertical);
        part<QDockWidget>(w, QStringLiteral("criticalPathDock"))->raise();
        settleLayout();
        QVERIFY(places(w) != defaults);
        w.findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger();
        settleLayout();
        QVERIFY2(places(w) == defaults, qPrintable(describe(defaults, places(w))));
        // From focus mode too.
        w.menus()->focusModeAction()->trigger();
        w.findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger();
        settleLayout();
        QVERIFY(!w.menus()->focusModeAction()->isChecked());
        QVERIFY2(places(w) == defaults, qPrintable(describe(defaults, places(w))));
    }

    void layoutSavedOnlyWhenTheUserChangesIt() {
        {
            MainWindow w;
            open(w, {1280, 720}, {sample("02-dp4")});
            // Focus mode at close: not a change of the user's layout.
            w.menus()->focusModeAction()->trigger();
            QVERIFY(w.close());
        }
        QVERIFY(!QSettings().contains(QStringLiteral("window/state")));
        {
            MainWindow w;
            open(w, {1280, 720}, {sample("02-dp4")});
            // The user closes a dock from the View menu, then goes to focus mode and quits.
            part<QDockWidget>(w, QStringLiteral("tracksDock"))->toggleViewAction()->trigger();
            w.menus()->focusModeAction()->trigger();
            QVERIFY(w.close());
        }
        QVERIFY(QSettings().contains(QStringLiteral("window/state")));
        {
            // The next start: the user's layout, with the docks focus mode had hidden.
            MainWindow w;
            open(w, {1280, 720}, {sample("02-dp4")});
            QVERIFY(!part<QDockWidget>(w, QStringLiteral("tracksDock"))->isVisible());
            QVERIFY(part<QDockWidget>(w, QStringLiteral("detailsDock"))->isVisible());
            w.findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger();
            QVERIFY(!QSettings().contains(QStringLiteral("window/state")));
            QVERIFY(part<QDockWidget>(w, QStringLiteral("tracksDock"))->isVisible());
        }
    }

    void resizeIsNoSessionChange() {
        MainWindow w;
        open(w, {1280, 720}, {sample("02-dp4")});
        QVERIFY(!w.sessions()->document()->modified());
        w.showMaximized();
        settleLayout();
        w.resize(1366, 768);
        settleLayout();
        QVERIFY(!w.sessions()->document()->modified());
        QVERIFY(!w.isWindowModified());
        // A zoom still is.
        w.sessions()->view()->zoom(2.0);
        QVERIFY(w.sessions()->document()->modified());
    }

    void highlightsNeverWidenTheWindow() {
        MainWindow w;
        open(w, {1280, 720}, {sample("01-dp8-straggler")}, true);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        settleLayout();
        const auto before = places(w);
        for (QAction* a : {w.menus()->criticalPathAction(), w.menus()->exposedAction()}) {
            a->trigger();
            settleLayout();
            QCOMPARE(w.size(), QSize(1280, 720));
            QVERIFY2(places(w) == before, qPrintable(describe(before, places(w))));
        }
    }

    // A data-parallel what-if adds a line about the added ranks and the strip: the window keeps
    // its size (their long line once made it 1407 px wide at 1280x720, buttons off screen).
    void addedRanksNeverWidenTheWindow() {
        MainWindow w;
        open(w, {1280, 720}, {sample("02-dp4")}, true);
        SimKnobs dp;
        dp.dpDegree = 32;
        w.sessions()->knobs()->setKnobs(dp);
        QVERIFY(sltest::settleSimulations(w));
        settleLayout();
        QVERIFY(w.findChild<QWidget*>(QStringLiteral("addedRanksLine"))->isVisible());
        QCOMPARE(w.size(), QSize(1280, 720));
        QVERIFY2(w.minimumSizeHint().width() <= 1280,
                 qPrintable(QString::number(w.minimumSizeHint().width())));
    }
};

QTEST_MAIN(TestWindowLayout)
#include "test_WindowLayout.moc"
