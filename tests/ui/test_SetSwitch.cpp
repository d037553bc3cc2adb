// Replacing the open trace set: the tree, panes, details, charts and workers switch to the new set in
// one step, and late results of the old set (a simulation or range statistics still running) are
// dropped. The sequence that crashed: set A, then B with the same rank count and fewer tracks per rank,
// then A again, with a knob change in flight.
#include "ChartsPanel.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "RangeStatsModel.h"
#include "RangeStatsWorker.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"
#include "TestSupport.h"

#include <QAbstractItemModelTester>
#include <QTreeView>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {

// Everything the window shows describes `set`: tree rows, pane layouts, the track state.
void checkConsistent(MainWindow& w, const TraceSet& set) {
    QCOMPARE(w.sessions()->traceSet().get(), &set);
    QVERIFY(w.sessions()->tracks()->matches(set));
    TrackTreeModel* model = part<TrackTreeModel>(w);
    QCOMPARE(model->rowCount(), static_cast<int>(set.ranks.size()));
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex rank = model->index(r, 0);
        QCOMPARE(model->rowCount(rank),
                 static_cast<int>(set.ranks[static_cast<std::size_t>(r)].tracks.size()));
        for (int k = 0; k < model->rowCount(rank); ++k) {
            const auto [lr, lt] = model->location(model->index(k, 0, rank));
            QCOMPARE(lr, r);
            QVERIFY(lt >= 0 && lt < model->rowCount(rank));
            QVERIFY(!model->data(model->index(k, 0, rank)).toString().isEmpty());
        }
    }
    for (TimelineView* pane : {part<TimelinePanes>(w)->measured(), part<TimelinePanes>(w)->simulated()}) {
        if (!pane->data()) continue;
        QCOMPARE(&pane->data()->set(), &set);
        for (const Row& row : pane->layout().rows()) {
            QVERIFY(row.rank >= 0 && static_cast<std::size_t>(row.rank) < set.ranks.size());
            if (row.isTrack())
                QVERIFY(static_cast<std::size_t>(row.track) <
                        set.ranks[static_cast<std::size_t>(row.rank)].tracks.size());
        }
        pane->repaint(); // paints every visible row of the new layout
    }
    if (w.sessions()->simulation().timeline) QCOMPARE(&w.sessions()->simulation().timeline->set(), &set);
}

SimKnobs faster(double speedup) {
    SimKnobs k;
    k.computeSpeedup = speedup;
    return k;
}

} // namespace

class TestSetSwitch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_SetSwitch");
    }

    // A (4 ranks, 4 tracks each), B (4 ranks, 2 tracks each), A again, each with a knob change, a
    // range and a selection in flight, the tree fully expanded and watched by the model tester.
    void sameRankCountFewerTracks() {
        MainWindow w;
        QAbstractItemModelTester tester(part<TrackTreeModel>(w),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto a = sltest::makeSyntheticSet(4, 3, 600);
        const auto b = sltest::makeSyntheticSet(4, 1, 80, 11);
        auto busy = [&](double speedup) {
            // The user's hands: a knob edit (simulation requested), a range (statistics running), a
            // selected event, every rank and nested row open in the tree.
            w.sessions()->knobs()->setKnobs(faster(speedup));
            QVERIFY(w.sessions()->simRunner()->busy());
            w.sessions()->selection()->setRange(w.sessions()->measured()->start(),
                                                w.sessions()->measured()->end());
            w.sessions()->selection()->setEvent({3, {1, 5}});
            w.sessions()->tracks()->setAllRanksExpanded(true);
            for (std::size_t r = 0; r < w.sessions()->tracks()->rankCount(); ++r)
                w.sessions()->tracks()->setTrackNested(r, 0, true);
            QCoreApplication::processEvents();
        };

        w.sessions()->showTraceSet(a, {QStringLiteral("/synthetic/a")});
        checkConsistent(w, *a);
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        busy(2.0);
        w.sessions()->showTraceSet(b, {QStringLiteral("/synthetic/b")});
        checkConsistent(w, *b);
        QVERIFY(!w.sessions()->selection()->event().valid());
        busy(3.0);
        const auto a2 = sltest::makeSyntheticSet(4, 3, 600);
        w.sessions()->showTraceSet(a2, {QStringLiteral("/synthetic/a")});
        checkConsistent(w, *a2);
        // The late results of B (its simulation, its statistics) never reach the window.
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QVERIFY(part<RangeStatsPanel>(w)->worker()->waitForIdle(60'000));
        QCoreApplication::processEvents();
        checkConsistent(w, *a2);
        QVERIFY(w.sessions()->simulation().timeline);
        QCOMPARE(part<RangeStatsPanel>(w)->model()->rowCount(), 0);
        // And the new set works: a knob change simulates it.
        w.sessions()->knobs()->setKnobs(faster(1.5));
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QCoreApplication::processEvents();
        checkConsistent(w, *a2);
        QVERIFY(w.sessions()->simulation().result);
    }

    // Without waiting for anything between the sets: simulations of A and B are still running when A
    // returns; only the last set's simulation is shown.
    void rapidSwitches() {
        MainWindow w;
        w.show();
        const auto a = sltest::makeSyntheticSet(8, 3, 300);
        const auto b = sltest::makeSyntheticSet(8, 1, 40, 5);
        std::shared_ptr<const TraceSet> last;
        for (int i = 0; i < 6; ++i) {
            last = i % 2 ? b : a;
            w.sessions()->showTraceSet(last, {QStringLiteral("/synthetic/%1").arg(i % 2)});
            w.sessions()->knobs()->setKnobs(faster(1.0 + i));
            QCoreApplication::processEvents();
            checkConsistent(w, *last);
        }
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QCoreApplication::processEvents();
        checkConsistent(w, *last);
        QVERIFY(w.sessions()->simulation().timeline);
    }

    // The reported sequence on real files: an 8-rank set, then another 8-rank set with other
    // tracks, then the first again, knob changes in flight. The bundled samples
    // 04-dp2-tp2-pp2-2nodes (TP, DP and pipeline streams) and 01-dp8-straggler (one NCCL stream)
    // differ that way and are always present.
    void realSets() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        const QString pipeline = QString::fromStdString(sltest::samplePath("04-dp2-tp2-pp2-2nodes"));
        const QString sample = QString::fromStdString(sltest::samplePath("01-dp8-straggler"));
        for (const QString& path : {pipeline, sample, pipeline}) {
            w.sessions()->openTraces({path});
            w.sessions()->knobs()->setKnobs(faster(2.0)); // in flight while the next set loads
            QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
            QVERIFY(w.sessions()->traceSet());
            checkConsistent(w, *w.sessions()->traceSet());
            w.sessions()->tracks()->setAllRanksExpanded(true);
            w.sessions()->knobs()->setKnobs(faster(3.0));
            QCoreApplication::processEvents();
        }
        QVERIFY(w.sessions()->simRunner()->waitForIdle(120'000));
        QCoreApplication::processEvents();
        checkConsistent(w, *w.sessions()->traceSet());
        QVERIFY(w.sessions()->simulation().result);
    }
};

QTEST_MAIN(TestSetSwitch)
#include "test_SetSwitch.moc"
