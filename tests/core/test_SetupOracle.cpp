// Oracle tests of the setup edits: generate a job (A) and the same job (same seed and model) in a
// new setup (B: more or fewer data-parallel replicas, weak or strong scaling), predict B from A's
// trace with the edit knob, and require the prediction to match B's measured iteration and, for
// every rank of B (clones included: each is given the times of the loaded rank it copies), its
// iteration, compute and communication time within 3%. Each case also requires that A simulated
// without the edit misses B by more than 3% (the iteration or a rank's communication), so a
// skipped edit fails it.
#include "SynthFixture.h"

#include "analysis/Breakdown.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace sl;
using namespace sl::synth;
using slsynth::errPct;
using slsynth::generateAndLoad;
using slsynth::Loaded;

namespace {

constexpr double kTolerancePct = 3.0;

// Plain data parallel on one node of 8 GPUs: four replicas of four layers of a 4096-wide model.
SynthConfig dataParallelJob() {
    SynthConfig c;
    c.layers = 4;
    c.hidden = 4096;
    c.heads = 32;
    c.seq = 1024;
    c.vocab = 32000;
    c.dp = 4;
    return c;
}

// The same as a 1F1B pipeline of two stages (two layers each) and four micro-batches. 16 GPUs per
// node: every group of A and B stays inside a node.
SynthConfig pipelineJob() {
    SynthConfig c = dataParallelJob();
    c.pp = 2;
    c.microbatches = 4;
    c.gpusPerNode = 16;
    return c;
}

struct Worst {
    double pct = 0;
    std::string what;
    void add(double e, const std::string& name) {
        if (e > pct || what.empty()) {
            pct = e;
            what = name;
        }
    }
};

// Worst error of a prediction from A against B's measured numbers, over the iteration and every
// rank of B. A rank of B that the prediction lacks counts as 100% off.
Worst compare(const Loaded& a, const SimResult& pred, const Loaded& b, const SimResult& bReplay) {
    Worst w;
    w.add(
        errPct(static_cast<double>(pred.simulatedIteration), static_cast<double>(bReplay.measuredIteration)),
        "iteration");
    auto predBd = simulatedBreakdown(a.set, pred.timeline);
    auto measBd = measuredBreakdown(b.set, &b.graph);
    std::map<int, std::uint32_t> sourceOf; // rank id in the predicted job -> trace rank of A
    for (const auto& r : pred.setup.ranks)
        sourceOf[r.rank] = r.source;
    for (std::size_t rb = 0; rb < b.set.ranks.size(); ++rb) {
        const int id = b.set.ranks[rb].rank;
        const std::string r = "rank " + std::to_string(id);
        auto it = sourceOf.find(id);
        if (it == sourceOf.end()) {
            w.add(100, r + " missing");
            continue;
        }
        const std::uint32_t ra = it->second;
        w.add(errPct(static_cast<double>(pred.ranks[ra].simulated()),
                     static_cast<double>(bReplay.ranks[rb].measured())),
              r + " iteration");
        w.add(errPct(static_cast<double>(predBd[ra].compute), static_cast<double>(measBd[rb].compute)),
              r + " compute");
        w.add(errPct(static_cast<double>(predBd[ra].communication),
                     static_cast<double>(measBd[rb].communication)),
              r + " communication");
    }
    return w;
}

// Communication error alone, with ranks matched by id where both have them (the knob ignored
// keeps A's ranks only).
double worstCommError(const Loaded& a, const SimResult& pred, const Loaded& b) {
    auto predBd = simulatedBreakdown(a.set, pred.timeline);
    auto measBd = measuredBreakdown(b.set, &b.graph);
    double worst = 0;
    for (std::size_t ra = 0; ra < a.set.ranks.size(); ++ra)
        for (std::size_t rb = 0; rb < b.set.ranks.size(); ++rb)
            if (a.set.ranks[ra].rank == b.set.ranks[rb].rank)
                worst = std::max(worst, errPct(static_cast<double>(predBd[ra].communication),
                                               static_cast<double>(measBd[rb].communication)));
    return worst;
}

struct Case {
    std::function<SynthConfig()> a;
    std::function<void(SynthConfig&)> change;
    std::vector<std::string> knobs;
    std::size_t addedRanks = 0; // ranks of B that A does not have
};

std::map<std::string, Case>& cases() {
    static std::map<std::string, Case> all;
    return all;
}

void addCase(const char* name, std::function<SynthConfig()> a, std::function<void(SynthConfig&)> change,
             std::vector<std::string> knobs, std::size_t added) {
    cases()[name] = {std::move(a), std::move(change), std::move(knobs), added};
    QTest::newRow(name) << QString(name);
}

} // namespace

class TestSetupOracle : public QObject {
    Q_OBJECT
private slots:
    void editPredictsTheNewSetup_data() {
        QTest::addColumn<QString>("name");
        // Twice the replicas of a 1F1B pipeline job: gradient all-reduces of 8 instead of 4.
        addCase(
            "dp.degree 4 -> 8, pp 2", pipelineJob, [](SynthConfig& c) { c.dp = 8; }, {"dp.degree=8"}, 8);
        // Half the replicas: ranks of replicas 2 and 3 dropped, all-reduces of 2.
        addCase(
            "dp.degree 4 -> 2, pp 2", pipelineJob, [](SynthConfig& c) { c.dp = 2; }, {"dp.degree=2"}, 0);
        // Four times the replicas: the all-reduce spans two nodes of 8 GPUs (alpha-beta with the
        // link the generator uses: 450 GB/s NVLink, 50 GB/s between nodes, 10 us).
        addCase(
            "dp.degree 4 -> 16 across nodes", dataParallelJob, [](SynthConfig& c) { c.dp = 16; },
            {"dp.degree=16", "comm.model=alpha-beta", "comm.intra_node_GBps=450", "comm.inter_node_GBps=50",
             "comm.latency_us=10"},
            12);
        // Strong scaling: the global batch of 4 x 2 sequences spread over 8 replicas of 1.
        addCase(
            "dp.degree 4 -> 8 strong, pp 2",
            [] {
                SynthConfig c = pipelineJob();
                c.microbatch = 2;
                return c;
            },
            [](SynthConfig& c) {
                c.dp = 8;
                c.microbatch = 1;
            },
            {"dp.degree=8", "dp.strong=true"}, 8);
    }

    void editPredictsTheNewSetup() {
        QFETCH(QString, name);
        const Case& c = cases().at(name.toStdString());
        SynthConfig configA = c.a();
        SynthConfig configB = configA;
        c.change(configB);
        auto a = generateAndLoad(configA);
        auto b = generateAndLoad(configB);
        SimKnobs knobs;
        for (const auto& k : c.knobs)
            setKnobAssignment(knobs, k);
        SimKnobs without = knobs; // the same knobs but the edit
        without.dpDegree = 0;
        without.dpStrong = false;
        SimResult pred = simulate(a->graph, knobs);
        SimResult ignored = simulate(a->graph, without);
        SimResult bReplay = simulate(b->graph);
        QVERIFY(pred.complete && ignored.complete && bReplay.complete);
        QVERIFY2(pred.warnings.empty(), pred.warnings.empty() ? "" : pred.warnings.front().text.c_str());
        QVERIFY(pred.setup.edited);
        QCOMPARE(pred.setup.ranks.size(), b->set.ranks.size());
        QCOMPARE(pred.setup.added(), c.addedRanks);

        Worst with = compare(*a, pred, *b, bReplay);
        const double iterIgnored = errPct(static_cast<double>(ignored.simulatedIteration),
                                          static_cast<double>(bReplay.measuredIteration));
        const double commIgnored = worstCommError(*a, ignored, *b);
        qInfo("%s: B measured %.1f us, predicted %.1f us, edit ignored %.1f us (%.2f%%, communication up to "
              "%.2f%% off); worst error with the edit %.2f%% (%s)",
              qPrintable(name), static_cast<double>(bReplay.measuredIteration) / 1000.0,
              static_cast<double>(pred.simulatedIteration) / 1000.0,
              static_cast<double>(ignored.simulatedIteration) / 1000.0, iterIgnored, commIgnored, with.pct,
              with.what.c_str());
        // Without the edit the prediction misses B.
        QVERIFY2(
            std::max(iterIgnored, commIgnored) > kTolerancePct,
            qPrintable(QString("ignoring the edit is only %1% off").arg(std::max(iterIgnored, commIgnored))));
        QVERIFY2(with.pct <= kTolerancePct,
                 qPrintable(QString("%1: %2% off").arg(QString::fromStdString(with.what)).arg(with.pct)));
    }
};

QTEST_GUILESS_MAIN(TestSetupOracle)
#include "test_SetupOracle.moc"
