// A what-if says how much it moved the iteration and why: the share of the replay's critical path
// that the changed knobs act on (times in microseconds).
#include "GraphFixture.h"

#include "analysis/KnobEffect.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

using namespace sl;
using namespace slgraph;

class TestKnobEffect : public QObject {
    Q_OBJECT
private slots:
    // GPU-bound: one 1000 us kernel behind a sync. A faster GPU halves it and the note says the
    // knob acts on most of the path.
    void gpuBoundMoves() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k", 10, 1000, 1),
                       cpu("cudaDeviceSynchronize", 6, 1006, 2)})});
        SimKnobs k;
        setKnobAssignment(k, "compute.speedup=2");
        SimResult replay = simulate(f.graph), fast = simulate(f.graph, k);
        KnobEffect e = explainKnobEffect(f.graph, replay, fast, k);
        QVERIFY2(e.iterationChangePct < -45.0, qPrintable(QString::number(e.iterationChangePct)));
        QVERIFY(e.targetSharePct > 90.0);
        QVERIFY(e.note.find("barely") == std::string::npos);
    }

    // Host-bound: 2 ms of CPU work between two tiny kernels. A faster GPU barely moves it, and
    // the note says why instead of a bare "-0.0%".
    void hostBoundSaysWhy() {
        Fixture f;
        f.load({trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("k1", 10, 5, 1),
                       cpu("aten::heavy_cpu_work", 10, 2000, -1, 1, "cpu_op"),
                       cpu("cudaLaunchKernel", 2015, 5, 2), gpu("k2", 2025, 5, 2)})});
        SimKnobs k;
        setKnobAssignment(k, "compute.speedup=2");
        SimResult replay = simulate(f.graph), fast = simulate(f.graph, k);
        KnobEffect e = explainKnobEffect(f.graph, replay, fast, k);
        QVERIFY(std::abs(e.iterationChangePct) < 1.0);
        QVERIFY(e.targetSharePct < 1.0);
        QVERIFY2(e.note.find("barely moves") != std::string::npos, e.note.c_str());
        QVERIFY2(e.note.find("cpu") != std::string::npos, e.note.c_str());
        // A setup edit (dp.degree, model.layers, pp.microbatches) reshapes the job: it acts on the
        // whole path, whatever the path is made of (here: host CPU work only).
        for (const char* edit : {"dp.degree=8", "model.layers=48", "pp.microbatches=8"}) {
            SimKnobs setup;
            setKnobAssignment(setup, edit);
            QVERIFY2(explainKnobEffect(f.graph, replay, replay, setup).targetSharePct > 99.9, edit);
        }
        // Replay knobs: nothing to explain.
        QVERIFY(explainKnobEffect(f.graph, replay, replay, SimKnobs{}).note.empty());
    }
};

QTEST_GUILESS_MAIN(TestKnobEffect)
#include "test_KnobEffect.moc"
