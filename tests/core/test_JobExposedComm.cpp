// Exposed communication over the simulated job, as `sweep` and the GUI's sweep view report it
// (analysis/JobExposedComm.h): hand-written breakdowns with and without a setup edit, and the
// sample 02-dp4 simulated as traced, grown to 8 replicas and shrunk to 2, and grown with a
// straggler among the added ranks (counted with its own times, not its source's).
#include "TestSupport.h"

#include "analysis/JobExposedComm.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace sl;

namespace {

std::vector<RankBreakdown> exposedOf(const std::vector<TimeNs>& exposed) {
    std::vector<RankBreakdown> out(exposed.size());
    for (std::size_t i = 0; i < exposed.size(); ++i)
        out[i].exposedCommunication = exposed[i];
    return out;
}

SimulatedRank rankOf(int id, std::uint32_t source, bool measured) {
    SimulatedRank r;
    r.rank = id;
    r.source = source;
    r.measured = measured;
    return r;
}

double meanOver(const std::vector<RankBreakdown>& bd, const std::vector<std::size_t>& ranks) {
    double sum = 0;
    for (std::size_t r : ranks)
        sum += static_cast<double>(bd[r].exposedCommunication);
    return sum / static_cast<double>(ranks.size());
}

} // namespace

class TestJobExposedComm : public QObject {
    Q_OBJECT
private slots:
    void loadedRanksAsTraced() {
        SimulatedSetup s;
        s.ranks = {rankOf(0, 0, true), rankOf(1, 1, true), rankOf(2, 2, true)};
        const JobExposedComm e = jobExposedComm(exposedOf({100, 200, 600}), s);
        QCOMPARE(e.ranks, std::size_t{3});
        QCOMPARE(e.meanNs, 300.0);
        QCOMPARE(e.maxNs, TimeNs{600});
    }

    // Rank 2 dropped, two clones of ranks 1 and 0: (100 + 200 + 200 + 100) / 4.
    void clonesCountDroppedRanksDoNot() {
        SimulatedSetup s;
        s.edited = true;
        s.ranks = {rankOf(0, 0, true), rankOf(1, 1, true), rankOf(2, 1, false), rankOf(3, 0, false)};
        s.dropped = {0, 0, 1};
        const JobExposedComm e = jobExposedComm(exposedOf({100, 200, 600}), s);
        QCOMPARE(e.ranks, std::size_t{4});
        QCOMPARE(e.meanNs, 150.0);
        QCOMPARE(e.maxNs, TimeNs{200});
    }

    void noRanks() {
        const JobExposedComm e = jobExposedComm(exposedOf({}), SimulatedSetup{});
        QCOMPARE(e.ranks, std::size_t{0});
        QCOMPARE(e.meanNs, 0.0);
        QCOMPARE(e.maxNs, TimeNs{0});
    }

    // On a simulation: as traced the mean of every loaded rank; with 8 replicas of 4 each loaded
    // rank counts twice (the mean of the four over twice the ranks); 2 replicas keep ranks 0 and 1.
    void ofASimulation() {
        const TraceSet set = loadTraceSet({sltest::samplePath("02-dp4")});
        const ExecutionGraph g = buildExecutionGraph(set);
        const SimResult traced = simulate(g, SimKnobs{});
        const auto bd = simulatedBreakdown(set, traced.timeline);
        QCOMPARE(bd.size(), std::size_t{4});
        const JobExposedComm asTraced = jobExposedComm(g, traced);
        QCOMPARE(asTraced.ranks, std::size_t{4});
        QCOMPARE(asTraced.meanNs, meanOver(bd, {0, 1, 2, 3}));
        QVERIFY(asTraced.meanNs > 0);

        SimKnobs grow;
        grow.dpDegree = 8;
        const SimResult grownRun = simulate(g, grow);
        const JobExposedComm grown = jobExposedComm(g, grownRun);
        QCOMPARE(grown.ranks, std::size_t{8});
        const double fourMean = meanOver(simulatedBreakdown(set, grownRun.timeline), {0, 1, 2, 3});
        QVERIFY(std::abs(grown.meanNs - fourMean) <= 1e-9 * fourMean);

        SimKnobs shrink;
        shrink.dpDegree = 2;
        const SimResult shrunk = simulate(g, shrink);
        QCOMPARE(jobExposedComm(g, shrunk).ranks, std::size_t{2});
        QCOMPARE(jobExposedComm(g, shrunk).meanNs,
                 meanOver(simulatedBreakdown(set, shrunk.timeline), {0, 1}));
    }

    // dp.degree=8 with added rank 6 (a copy of rank 2) twice as slow: the others wait for it at
    // every all-reduce, it waits for nobody. Its own exposed communication counts, not rank 2's.
    void addedRanksCountWithTheirOwnTimes() {
        const TraceSet set = loadTraceSet({sltest::samplePath("02-dp4")});
        const ExecutionGraph g = buildExecutionGraph(set);
        SimKnobs k;
        setKnobAssignment(k, "dp.degree=8");
        setKnobAssignment(k, "straggler.rank=6");
        setKnobAssignment(k, "straggler.slowdown=2");
        const SimResult r = simulate(g, k);
        QCOMPARE(r.addedRanks.count(), std::size_t{4});
        const auto loaded = simulatedBreakdown(set, r.timeline);
        const auto added = addedRanksBreakdown(g, r);
        // By hand: the four loaded ranks and the four added ones, each with its own numbers.
        std::vector<TimeNs> own;
        for (const auto& b : loaded)
            own.push_back(b.exposedCommunication);
        for (const auto& b : added)
            own.push_back(b.exposedCommunication);
        double sum = 0;
        for (TimeNs e : own)
            sum += static_cast<double>(e);
        const JobExposedComm e = jobExposedComm(g, r);
        QCOMPARE(e.ranks, std::size_t{8});
        QVERIFY2(std::abs(e.meanNs - sum / 8.0) <= 1e-9 * e.meanNs, qPrintable(QString::number(e.meanNs)));
        QCOMPARE(e.maxNs, *std::max_element(own.begin(), own.end()));
        // Mirroring the sources counts the straggler's copy as a rank that waits (rank 2): more.
        const JobExposedComm mirrored = jobExposedComm(loaded, r.setup);
        qInfo("exposed mean: own %.1f us, mirrored %.1f us", e.meanNs / 1e3, mirrored.meanNs / 1e3);
        QVERIFY2(mirrored.meanNs > e.meanNs * 1.02, qPrintable(QString::number(mirrored.meanNs)));
    }
};

QTEST_MAIN(TestJobExposedComm)
#include "test_JobExposedComm.moc"
