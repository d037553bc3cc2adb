// Pinned time (analysis/PinnedTime.h): the measured time without a cause on a critical path, by
// kind, with the largest pin named; and the what-if explanation that names it when a knob barely
// moves the step. Hand-made traces, times in microseconds.
#include "GraphFixture.h"

#include "analysis/CriticalPath.h"
#include "analysis/KnobEffect.h"
#include "analysis/PinnedTime.h"
#include "analysis/StepExplanation.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

using namespace sl;
using namespace slgraph;

namespace {

TimeNs pinned(const RankPinnedTime& p, PinKind k) {
    return p.byKind[static_cast<std::size_t>(k)];
}

} // namespace

class TestPinnedTime : public QObject {
    Q_OBJECT
private slots:
    // The 2 ms the peers kept this rank waiting are pinned (phantom_wait); the compute and the
    // transfers are not.
    void phantomWaitIsPinned() {
        Fixture f;
        f.load(rankWithLatePeers());
        const SimResult replay = simulate(f.graph);
        const std::vector<RankPinnedTime> pins = pinnedTime(f.graph, replay);
        QCOMPARE(pins.size(), std::size_t(1));
        QCOMPARE(pinned(pins[0], PinKind::PhantomWait), us(2000));
        QCOMPARE(pins[0].largest.kind, PinKind::PhantomWait);
        QCOMPARE(pins[0].pathLength, us(3210));
        QVERIFY(std::abs(pins[0].sharePct() - 100.0 * 2000 / 3210) < 0.01);
        const std::string words = describePin(f.graph, pins[0].largest);
        QVERIFY2(words.find("peers missing from the trace") != std::string::npos, words.c_str());
        QVERIFY2(words.find("2.0 ms") != std::string::npos, words.c_str());
    }

    // 18 ms between two calls that no op covers: an unexplained wait, pinned and named; a faster GPU
    // barely moves the step, and the explanation says which pin holds it.
    void unexplainedGapNamesThePin() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 100, 1),
                       cpu("cudaEventRecord", 18040, 5, 2), cpu("cudaLaunchKernel", 18050, 5, 3),
                       gpu("k2", 18065, 100, 3)})});
        const SimResult replay = simulate(f.graph);
        const CriticalPath path = criticalPath(f.graph, replay);
        const RankPinnedTime pins = pinsOnPath(f.graph, replay, path);
        QCOMPARE(pinned(pins, PinKind::UnexplainedWait), us(18040)); // 5..18040 and 18045..18050
        QCOMPARE(pins.largest.node, f.node("cudaEventRecord"));
        SimKnobs fast;
        setKnob(fast, "compute.speedup", "2");
        const SimResult whatIf = simulate(f.graph, fast);
        const KnobEffect effect = explainKnobEffect(f.graph, replay, whatIf, fast);
        QVERIFY(effect.pinnedSharePct > 95.0);
        QVERIFY2(effect.note.find("pinned to measured time") != std::string::npos, effect.note.c_str());
        QVERIFY2(effect.note.find("cudaEventRecord") != std::string::npos, effect.note.c_str());
        const std::string reason = noEffectReason(f.graph, replay, whatIf, fast, 1.0);
        QVERIFY2(reason.find("no knob moves") != std::string::npos, reason.c_str());
    }

    // A step without pins: every gap is covered by ops, nothing before the first call.
    void coveredStepHasNoPins() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 100, 1),
                       cpu("aten::mm", 5, 100, -1, 1, "cpu_op"), cpu("cudaLaunchKernel", 105, 5, 2),
                       gpu("k2", 115, 100, 2)})});
        const SimResult replay = simulate(f.graph);
        const std::vector<RankPinnedTime> pins = pinnedTime(f.graph, replay);
        QCOMPARE(pins[0].total(), TimeNs(0));
        QVERIFY(describePin(f.graph, pins[0].largest).empty());
        QVERIFY(pinnedNote(f.graph, replay, criticalPath(f.graph, replay)).empty());
    }
};

QTEST_GUILESS_MAIN(TestPinnedTime)
#include "test_PinnedTime.moc"
