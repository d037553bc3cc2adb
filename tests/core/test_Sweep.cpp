// The sweep (analysis/Sweep.h) that `sightline-cli sweep` and the GUI's sweep view run: on the
// bundled sample 02-dp4 every setting gives what simulating it alone gives (iteration, exposed
// communication over the simulated job, critical path, step work against the traced structure),
// whatever the number of threads; a setting the simulator refuses keeps its error and the others
// go on; a raised cancel flag leaves the runs undone; onRun reports every run once.
#include "TestSupport.h"

#include "analysis/Sweep.h"
#include "io/KinetoLoader.h"
#include "sim/KnobRegistry.h"
#include "sim/Simulator.h"
#include "structure/Structure.h"

#include <QtTest>

#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>

using namespace sl;

namespace {
SimKnobs knobsOf(const std::vector<std::string>& assignments) {
    SimKnobs k;
    for (const auto& a : assignments)
        setKnobAssignment(k, a);
    return k;
}

// The sample and its graph, built once for every test function.
struct Sample {
    TraceSet set = loadTraceSet({sltest::samplePath("02-dp4")});
    ExecutionGraph graph = buildExecutionGraph(set);
};
} // namespace

class TestSweep : public QObject {
    Q_OBJECT
    std::unique_ptr<Sample> sample_;
    const ExecutionGraph& graph() const { return sample_->graph; }

private slots:
    void initTestCase() { sample_ = std::make_unique<Sample>(); }

    void eachRunAsSimulatedAlone() {
        const std::vector<SimKnobs> knobs = {knobsOf({}), knobsOf({"compute.speedup=2"}),
                                             knobsOf({"dp.degree=8"}), knobsOf({"dp.degree=2"})};
        for (std::size_t threads : {std::size_t{1}, std::size_t{4}}) {
            SweepOptions options;
            options.threads = threads;
            options.criticalPath = true;
            std::mutex m;
            std::multiset<std::size_t> reported;
            options.onRun = [&](std::size_t i, const SweepRun& run) {
                QVERIFY(run.done);
                const std::lock_guard lock(m);
                reported.insert(i);
            };
            const std::vector<SweepRun> runs = runSweep(graph(), knobs, options);
            QCOMPARE(runs.size(), knobs.size());
            QCOMPARE(reported, (std::multiset<std::size_t>{0, 1, 2, 3}));
            // The traced structure, once, with the blocks only where a setting needs them.
            const ParallelStructure traced = recognizeStructure(sample_->set, &graph(), false);
            for (std::size_t i = 0; i < knobs.size(); ++i) {
                const SimResult alone = simulate(graph(), knobs[i]);
                const SweepRun& run = runs[i];
                QVERIFY(run.done);
                QVERIFY(!run.error);
                QCOMPARE(run.iteration, alone.simulatedIteration);
                QCOMPARE(run.warnings.lines(), alone.warnings.lines());
                const JobExposedComm exposed = jobExposedComm(graph(), alone);
                QCOMPARE(run.exposed.meanNs, exposed.meanNs);
                QCOMPARE(run.exposed.maxNs, exposed.maxNs);
                QCOMPARE(run.exposed.ranks, exposed.ranks);
                QCOMPARE(run.path.length, criticalPath(graph(), alone).length);
                const StepWork work = stepWork(traced, knobs[i], alone);
                QCOMPARE(run.work.dp, work.dp);
                QCOMPARE(run.work.samples, work.samples);
            }
            // The grown job counts its added ranks; the replay counts the four loaded ones.
            QCOMPARE(runs[0].exposed.ranks, std::size_t{4});
            QCOMPARE(runs[2].exposed.ranks, std::size_t{8});
            QCOMPARE(runs[2].work.dp, 8);
            QVERIFY(runs[1].iteration < runs[0].iteration);
        }
    }

    void withoutCriticalPathItStaysEmpty() {
        const std::vector<SweepRun> runs = runSweep(graph(), {knobsOf({})});
        QVERIFY(runs[0].done);
        QCOMPARE(runs[0].path.length, TimeNs{0});
        // No setting changes the work: the structure is not read and the work is the traced one.
        QCOMPARE(runs[0].work.samples, 1.0);
    }

    void aRefusedSettingKeepsItsError() {
        const std::vector<SimKnobs> knobs = {knobsOf({"straggler.rank=1"}), knobsOf({"straggler.rank=99"})};
        const std::vector<SweepRun> runs = runSweep(graph(), knobs);
        QVERIFY(runs[0].done);
        QVERIFY(!runs[0].error);
        QVERIFY(!runs[1].done);
        QVERIFY(runs[1].error);
        try {
            std::rethrow_exception(runs[1].error);
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("no such rank") != std::string::npos, e.what());
        }
    }

    void cancelledBeforeItStarts() {
        std::atomic<bool> cancel{true};
        SweepOptions options;
        options.cancel = &cancel;
        int reported = 0;
        options.onRun = [&](std::size_t, const SweepRun&) { ++reported; };
        const std::vector<SweepRun> runs =
            runSweep(graph(), {knobsOf({}), knobsOf({"compute.speedup=2"})}, options);
        QCOMPARE(runs.size(), std::size_t{2});
        for (const SweepRun& run : runs) {
            QVERIFY(!run.done);
            QVERIFY(!run.error);
        }
        QCOMPARE(reported, 0);
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "test_Sweep.moc"
