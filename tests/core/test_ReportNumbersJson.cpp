// The report's typed numbers and their JSON (report/ReportNumbersJson.h): reading a numbers object
// back and writing it again gives the same object, so the reader and the writer use the same keys
// (a misspelt key reads 0 and fails here). On samples/02-dp4 with knobs, gpu.target on the straggler
// sample (the GPU swap rows) and a Chakra set without measured times.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "report/ReportNumbersJson.h"
#include "report/SimulationReport.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

using namespace sl;

namespace {

// The report of `dir` simulated with `knobs` against its replay, typed and as JSON.
SimulationReport reportOf(const std::string& dir,
                          const std::vector<std::pair<std::string, std::string>>& knobs) {
    const TraceSet set = loadTraceSet({dir});
    const ExecutionGraph graph = buildExecutionGraph(set);
    SimKnobs k;
    for (const auto& [key, value] : knobs)
        setKnob(k, key, value);
    const SimResult replay = simulate(graph);
    const SimResult result = simulate(graph, k);
    const ReportSource source{{dir}, -1};
    return simulationReport(graph, result, k, &replay, nullptr, &source);
}

// Read back and written again, the object is unchanged; the typed numbers read back are those it
// was written from (checked on the fields people read first).
void roundTrips(const SimulationReport& report) {
    const ReportNumbers back = readReportNumbers(report.json);
    nlohmann::json again = report.json;
    writeReportNumbers(again, back);
    QCOMPARE(again.dump(), report.json.dump());
    const SimulationNumbers& a = report.numbers.run;
    const SimulationNumbers& b = back.run;
    QCOMPARE(b.simulatedUs, a.simulatedUs);
    QCOMPARE(b.measuredUs, a.measuredUs);
    QCOMPARE(b.criticalPathUs, a.criticalPathUs);
    QCOMPARE(b.ranks.size(), a.ranks.size());
    QCOMPARE(b.topEvents.size(), a.topEvents.size());
    QCOMPARE(b.gpuSwap.has_value(), a.gpuSwap.has_value());
    QCOMPARE(back.warnings, report.numbers.warnings);
    QCOMPARE(back.changedKnobs, report.numbers.changedKnobs);
}

} // namespace

class TestReportNumbersJson : public QObject {
    Q_OBJECT
private slots:
    void knobsRoundTrip() {
        const SimulationReport r = reportOf(sltest::samplePath("02-dp4"), {{"compute.speedup", "2"}});
        QVERIFY(r.numbers.run.measuredTimes);
        QVERIFY(r.numbers.run.kernelStart.has_value());
        QVERIFY(!r.numbers.run.ranks.empty() && r.numbers.run.ranks[0].measured.has_value());
        roundTrips(r);
    }

    void throughputRoundTrips() {
        const SimulationReport r = reportOf(sltest::samplePath("03-tp2-pp2"), {{"dp.degree", "4"}});
        QVERIFY(r.numbers.run.throughputVsBaseline.has_value());
        roundTrips(r);
    }

    void gpuSwapRoundTrips() {
        const SimulationReport r = reportOf(sltest::samplePath("01-dp8-straggler"), {{"gpu.target", "H100"}});
        QVERIFY(r.numbers.run.gpuSwap.has_value());
        QVERIFY(!r.numbers.run.gpuSwap->byClass.empty());
        roundTrips(r);
    }

    void withoutMeasuredTimes() {
        SL_REQUIRE_TRACES();
        const SimulationReport r = reportOf(sltest::tracePath("chakra/allreduce-8npus"), {});
        QVERIFY(!r.numbers.run.measuredTimes);
        QVERIFY(!r.numbers.run.measuredUs && !r.numbers.run.kernelStart);
        QVERIFY(r.json["kernel_start_error_us"].is_null());
        roundTrips(r);
    }
};

QTEST_GUILESS_MAIN(TestReportNumbersJson)
#include "test_ReportNumbersJson.moc"
