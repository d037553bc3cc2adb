// Collective cost model: bus factors, alpha-beta times, calibration on the samples (generated
// with a known alpha-beta model) and on a real trace, dp.scale, pipeline send / recv matching.
#include "GraphFixture.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "structure/CollectiveCalls.h"

#include <map>
#include <memory>

using namespace sl;

namespace {

using Loaded = slgraph::LoadedSet;

const Loaded& load(const std::string& path) {
    return slgraph::loadCached(path);
}
std::string sample(const char* name) {
    return sltest::samplePath(name);
}

// Simulated transfer of each matched collective: end minus the latest member start.
std::map<std::uint32_t, TimeNs> transfers(const ExecutionGraph& g, const SimResult& r) {
    std::map<std::uint32_t, TimeNs> out;
    for (std::uint32_t i = 0; i < g.collectives.size(); ++i) {
        const auto& c = g.collectives[i];
        if (!c.complete) continue;
        TimeNs latest = 0, end = 0;
        for (NodeId n : c.members) {
            latest = std::max(latest, r.nodes[n].start - g.ranks[g.nodes[n].rank].origin);
            end = std::max(end, r.nodes[n].end - g.ranks[g.nodes[n].rank].origin);
        }
        out[i] = end - latest;
    }
    return out;
}

} // namespace

class TestCostModel : public QObject {
    Q_OBJECT
private slots:
    void busFactors() {
        QCOMPARE(busFactor(CollectiveType::AllReduce, 8), 2.0 * 7 / 8);
        QCOMPARE(busFactor(CollectiveType::AllGather, 4), 0.75);
        QCOMPARE(busFactor(CollectiveType::ReduceScatter, 2), 0.5);
        QCOMPARE(busFactor(CollectiveType::AllToAll, 8), 7.0 / 8);
        QCOMPARE(busFactor(CollectiveType::Broadcast, 8), 1.0);
        QCOMPARE(busFactor(CollectiveType::Send, 2), 1.0);
        QCOMPARE(busFactor(CollectiveType::Recv, 2), 1.0);
        QCOMPARE(busFactor(CollectiveType::SendRecv, 8), 7.0 / 8); // all-to-all as sendrecv
    }

    void alphaBeta() {
        CollectiveModel m;
        for (auto& g : m.params) {
            g[0] = {10, 450}; // intra: 10 us, 450 GB/s
            g[1] = {20, 50};
        }
        // 100 MB all-reduce over 8 GPUs in a node: 10 us + 1e8 x 1.75 / 450 GB/s.
        QCOMPARE(m.time(CollectiveType::AllReduce, 100'000'000, 8, false), TimeNs(10'000 + 388'889));
        QCOMPARE(m.time(CollectiveType::AllReduce, 100'000'000, 16, true), TimeNs(20'000 + 3'750'000));
        QCOMPARE(m.time(CollectiveType::Send, 1'000'000, 2, false), TimeNs(10'000 + 2'222));
        QCOMPARE(m.time(CollectiveType::AllReduce, -1, 8, false), TimeNs(-1));
        m.tree = true; // depth 3 for 8 GPUs, the full message up and down
        QCOMPARE(m.time(CollectiveType::AllReduce, 100'000'000, 8, false), TimeNs(30'000 + 444'444));
        CollectiveCall c;
        c.ranks = {4, 5};
        QVERIFY(!c.spansNodes(4));
        c.ranks = {3, 4};
        QVERIFY(c.spansNodes(4));
    }

    // The samples were generated with latency 10 us, 450 GB/s intra-node and 50 GB/s inter-node
    // (core/synth/README.md): calibration finds them where sizes vary.
    void calibrationRecoversGenerator() {
        const Loaded& dp4 = load(sample("02-dp4"));
        Calibration c = calibrate(dp4.graph, gpusPerNodeOf(dp4.set, 0));
        const CalibrationFit* intra = c.pooled(false);
        QVERIFY(intra && intra->distinctSizes >= 2);
        QVERIFY2(std::abs(intra->fit.GBps - 450) < 450 * 0.01, qPrintable(QString::number(intra->fit.GBps)));
        QVERIFY2(std::abs(intra->fit.latencyUs - 10) < 0.5,
                 qPrintable(QString::number(intra->fit.latencyUs)));
        QVERIFY(!c.pooled(true));

        const Loaded& two = load(sample("04-dp2-tp2-pp2-2nodes"));
        Calibration c4 = calibrate(two.graph, gpusPerNodeOf(two.set, 0));
        QCOMPARE(c4.gpusPerNode, 4);
        const CalibrationFit* ar = c4.ofGroup(commParamGroup(CollectiveType::AllReduce), false);
        QVERIFY(ar && std::abs(ar->fit.GBps - 450) < 4.5 && std::abs(ar->fit.latencyUs - 10) < 0.5);
        // Pipeline transfers between the nodes: one size only, so bandwidth and latency are not
        // separable; the fit reproduces the measured time (10 us + 4 MiB / 50 GB/s).
        const CalibrationFit* p2p = c4.ofGroup(commParamGroup(CollectiveType::Send), true);
        QVERIFY(p2p && p2p->samples > 0 && p2p->rmsErrorUs < 0.5);
        nlohmann::json j = c4.toKnobJson();
        QCOMPARE(j["comm.model"].get<std::string>(), std::string("alpha-beta"));
        QVERIFY(j.contains("comm.inter_node_GBps") && j.contains("comm.send_recv.inter_node_GBps"));
    }

    // Alpha-beta on the calibrated values replays the calibrated trace within 3%.
    void calibratedReplayWithin3Pct_data() {
        QTest::addColumn<QString>("path");
        for (const char* s : {"01-dp8-straggler", "02-dp4", "03-tp2-pp2", "04-dp2-tp2-pp2-2nodes"})
            QTest::newRow(s) << QString::fromStdString(sample(s));
        QTest::newRow("a100-nccl-metadata")
            << QString::fromStdString(sltest::tracePath("single-rank/a100-nccl-metadata-rank0of2.json.gz"));
    }
    void calibratedReplayWithin3Pct() {
        QFETCH(QString, path);
        if (path.startsWith(sltest::tracesDir())) SL_REQUIRE_TRACES();
        const Loaded& l = load(path.toStdString());
        Calibration c = calibrate(l.graph, gpusPerNodeOf(l.set, 0));
        SimKnobs k;
        applyKnobsJson(k, c.toKnobJson());
        QCOMPARE(k.commModel, CommModel::AlphaBeta);
        SimResult r = simulate(l.graph, k);
        QVERIFY(r.complete);
        QVERIFY2(r.iterationErrorPct() < 3.0, qPrintable(QString::number(r.iterationErrorPct())));
        for (const auto& s : r.ranks)
            QVERIFY2(s.errorPct() < 3.0, qPrintable(QString("rank %1: %2").arg(s.rank).arg(s.errorPct())));
        // And the model matters: half the bandwidth everywhere is never faster.
        SimKnobs slow = k;
        for (auto& [key, v] : slow.commPerType)
            if (key.find("GBps") != std::string::npos) v /= 2;
        slow.commIntraNodeGBps /= 2;
        slow.commInterNodeGBps /= 2;
        QVERIFY(simulate(l.graph, slow).simulatedIteration >= r.simulatedIteration - 1000);
    }

    // dp.scale=4 re-times the data-parallel all-reduces by the bus factor of a 4x larger group:
    // 02-dp4 (one node when gpus_per_node is large): 2(16-1)/16 / (2(4-1)/4) = 1.25.
    void dpScaleBusFactor() {
        const Loaded& l = load(sample("02-dp4"));
        SimResult base = simulate(l.graph);
        SimKnobs k;
        setKnobAssignment(k, "dp.scale=4");
        setKnobAssignment(k, "comm.gpus_per_node=64");
        SimResult scaled = simulate(l.graph, k);
        auto tb = transfers(l.graph, base), ts = transfers(l.graph, scaled);
        int checked = 0;
        for (const auto& [i, t] : tb) {
            if (l.graph.collectives[i].type != CollectiveType::AllReduce) continue;
            QVERIFY2(std::abs(static_cast<double>(ts[i]) - 1.25 * static_cast<double>(t)) <= 2,
                     qPrintable(QString("%1 -> %2").arg(t).arg(ts[i])));
            ++checked;
        }
        QVERIFY(checked >= 8);
        QVERIFY(scaled.simulatedIteration > base.simulatedIteration);

        // 04: the DP pairs sit in one node of 4 GPUs; 4x as many ranks (8) span two nodes, so the
        // alpha-beta time uses the inter-node bandwidth and the 8-rank bus factor.
        const Loaded& l4 = load(sample("04-dp2-tp2-pp2-2nodes"));
        SimKnobs ab;
        for (const char* s : {"comm.model=alpha-beta", "comm.intra_node_GBps=450", "comm.inter_node_GBps=50",
                              "comm.latency_us=10", "dp.scale=4"})
            setKnobAssignment(ab, s);
        SimResult r4 = simulate(l4.graph, ab);
        auto t4 = transfers(l4.graph, r4);
        std::vector<CollectiveCall> calls = collectiveCalls(l4.graph);
        int dp = 0;
        for (const auto& c : calls) {
            if (!c.dataParallel || !c.matched) continue;
            QCOMPARE(c.type, CollectiveType::AllReduce);
            QCOMPARE(c.groupSize, 2);
            double expected = 10'000 + static_cast<double>(c.bytes) * (2.0 * 7 / 8) / 50.0;
            double got = static_cast<double>(t4[l4.graph.nodes[c.node].collective]);
            QVERIFY2(std::abs(got - expected) <= 2, qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
            ++dp;
        }
        QVERIFY(dp >= 4);
    }

    // Pipeline sets: the k-th send of a stage meets the k-th receive of its peer.
    void pipelineSendRecvMatched_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("03") << "03-tp2-pp2";
        QTest::newRow("04") << "04-dp2-tp2-pp2-2nodes";
    }
    void pipelineSendRecvMatched() {
        QFETCH(QString, name);
        const Loaded& l = load(sample(qPrintable(name)));
        QCOMPARE(l.graph.stats.collectivesUnmatched, std::int64_t(0));
        QVERIFY(!l.graph.warnings.has(Warn::CollectiveUnmatched));
        int pairs = 0;
        for (const auto& c : l.graph.collectives) {
            if (c.type != CollectiveType::SendRecv) continue;
            QVERIFY(c.complete);
            QCOMPARE(c.members.size(), std::size_t(2));
            ++pairs;
        }
        QVERIFY(pairs >= 16);
        // Faster pipeline transfers (send / recv only) never slow the job down.
        SimKnobs k;
        setKnobAssignment(k, "comm.model=alpha-beta");
        setKnobAssignment(k, "comm.send_recv.intra_node_GBps=1e5");
        setKnobAssignment(k, "comm.send_recv.inter_node_GBps=1e5");
        setKnobAssignment(k, "comm.send_recv.latency_us=0");
        QVERIFY(simulate(l.graph, k).simulatedIteration <= simulate(l.graph).simulatedIteration + 1000);
    }
};

QTEST_GUILESS_MAIN(TestCostModel)
#include "test_CostModel.moc"
