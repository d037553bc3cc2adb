// The critical path after a block edit (model.layers, pp.microbatches) walks the copied blocks
// (docs/Structure.md, "Reports after a block edit"): a path that stopped at the first copy called
// everything before it a late start and pinned 75-90% of the step.
#include "GraphFixture.h"
#include "TestSupport.h"

#include "analysis/CriticalPath.h"
#include "analysis/PinnedTime.h"

#include <QtTest>

using namespace sl;
using namespace slgraph;

namespace {

struct PathFacts {
    double lateStartPct = 0;
    double pinnedPct = 0;
    TimeNs length = 0;
    TimeNs iteration = 0;
};

PathFacts pathAfter(const char* sample, std::initializer_list<const char*> knobs) {
    const LoadedSet& s = loadCached(sltest::samplePath(sample));
    const SimResult r = simulate(s.graph, knobsOf(knobs));
    const CriticalPath cp = criticalPath(s.graph, r);
    PathFacts f;
    f.lateStartPct = cp.sharePct(cp.byLabel[static_cast<std::size_t>(PathLabel::LateStart)]);
    f.pinnedPct = pinsOnPath(s.graph, r, cp).sharePct();
    f.length = cp.length;
    f.iteration = r.simulatedIteration;
    return f;
}

} // namespace

class TestEditedCriticalPath : public QObject {
    Q_OBJECT
private slots:
    void pathWalksTheCopies_data() {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("knob");
        // 4 -> 8 micro-batches: the path ran back to 18.6 ms of rank 3 and called the rest late.
        QTest::newRow("pp.microbatches=8") << "03-tp2-pp2"
                                           << "pp.microbatches=8";
        QTest::newRow("pp.microbatches=6") << "03-tp2-pp2"
                                           << "pp.microbatches=6";
        // 2x layers: 9.1 ms of rank 0's stream called a late start.
        QTest::newRow("model.layers=8 tp-pp") << "03-tp2-pp2"
                                              << "model.layers=8";
        QTest::newRow("model.layers=8 dp") << "02-dp4"
                                           << "model.layers=8";
    }
    void pathWalksTheCopies() {
        QFETCH(QString, sample);
        QFETCH(QString, knob);
        const QByteArray name = sample.toUtf8(), k = knob.toUtf8();
        const PathFacts replay = pathAfter(name.constData(), {});
        const PathFacts edited = pathAfter(name.constData(), {k.constData()});
        // The edit made the step longer (the copies run), and the path spans it as the replay's does.
        QVERIFY2(edited.iteration > replay.iteration * 11 / 10,
                 qPrintable(QString::number(edited.iteration)));
        QVERIFY2(
            edited.length >= edited.iteration * 95 / 100,
            qPrintable(QStringLiteral("path %1 of iteration %2").arg(edited.length).arg(edited.iteration)));
        // No more late start than the replay has, give or take a point.
        QVERIFY2(edited.lateStartPct <= replay.lateStartPct + 1.0,
                 qPrintable(QStringLiteral("late start %1% (replay %2%)")
                                .arg(edited.lateStartPct)
                                .arg(replay.lateStartPct)));
        // Pinned time: the copies repeat their sources' unexplained CPU waits (measured time without
        // a cause), so a little more than the replay's 0.7%, never most of the step (it was 75-90%).
        QVERIFY2(edited.pinnedPct < 5.0,
                 qPrintable(
                     QStringLiteral("pinned %1% (replay %2%)").arg(edited.pinnedPct).arg(replay.pinnedPct)));
    }

    // Every segment names a node of the caller's graph, and every edge resolves through the result.
    void segmentsResolveOnTheCallersGraph() {
        const LoadedSet& s = loadCached(sltest::samplePath("03-tp2-pp2"));
        const SimResult r = simulate(s.graph, knobsOf({"pp.microbatches=8"}));
        QVERIFY(r.edited);
        const CriticalPath cp = criticalPath(s.graph, r);
        QVERIFY(!cp.segments.empty());
        std::size_t throughMadeEdges = 0;
        for (const PathSegment& seg : cp.segments) {
            QVERIFY(seg.node < s.graph.nodes.size());
            QVERIFY(!pathSegmentName(s.graph, seg).empty());
            if (seg.edge == kNoEdge) continue;
            const GraphEdge& e = r.edge(s.graph, seg.edge);
            QVERIFY(e.from < s.graph.nodes.size() && e.to < s.graph.nodes.size());
            if (seg.edge >= s.graph.edges.size()) ++throughMadeEdges;
        }
        // The copies are on the path: some of its gaps cross edges the edit made.
        QVERIFY(throughMadeEdges > 0);
    }
};

QTEST_GUILESS_MAIN(TestEditedCriticalPath)
#include "test_EditedCriticalPath.moc"
