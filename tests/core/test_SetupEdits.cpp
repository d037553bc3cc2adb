// The plan of the setup edits (dp.degree, dp.strong): which ranks the new job has and which loaded
// rank each clone copies, which ranks are dropped, the group size and node span of every collective
// kernel after the edit, and which kernels strong scaling shrinks. Expected values are worked out by
// hand from how the sets were made (scripts/make-samples.sh; Megatron order rank = (pp x dp + d) x
// tp + t, core/synth/README.md; 8 GPUs per node in the samples' deviceProperties).
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/JobRankIds.h"
#include "sim/Knobs.h"
#include "sim/SetupEdits.h"
#include "sim/Simulator.h"
#include "structure/CollectiveCalls.h"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace sl;

namespace {

struct Loaded {
    TraceSet set;
    ExecutionGraph graph;
    std::vector<CollectiveCall> calls;
};

Loaded load(const std::string& path) {
    Loaded l;
    l.set = loadTraceSet({path});
    l.graph = buildExecutionGraph(l.set);
    l.calls = collectiveCalls(l.graph);
    return l;
}

SetupEditPlan plan(const Loaded& l, int degree, bool strong = false, int gpusPerNode = 8) {
    SetupKnobs k;
    k.dpDegree = degree;
    k.dpStrong = strong;
    return planSetupEdits(l.graph, k, l.calls, gpusPerNode);
}

// rank id -> source rank id and measured flag.
std::map<int, std::pair<int, bool>> ranksOf(const Loaded& l, const SetupEditPlan& p) {
    std::map<int, std::pair<int, bool>> out;
    for (const auto& r : p.setup.ranks)
        out[r.rank] = {l.set.ranks[r.source].rank, r.measured};
    return out;
}

// Group sizes after the edit of the all-reduce kernels, by (old size -> new sizes seen).
std::map<int, std::set<int>> allReduceSizes(const Loaded& l, const SetupEditPlan& p, CollectiveType type) {
    std::map<int, std::set<int>> out;
    for (std::size_t i = 0; i < l.calls.size(); ++i)
        if (l.calls[i].type == type) out[l.calls[i].groupSize].insert(p.calls[i].groupSize);
    return out;
}

} // namespace

class TestSetupEdits : public QObject {
    Q_OBJECT
private slots:
    // The counts read the plan's own lists: clones are the ranks not measured, drops the 1s.
    void countsOfAHandWrittenSetup() {
        SimulatedSetup s;
        s.ranks = {{0, 0, true, 0, 0, 0}, {1, 0, false, 1, 0, 0}, {2, 1, false, 2, 0, 0}};
        s.dropped = {0, 1, 1, 0, 1};
        QCOMPARE(s.added(), std::size_t{2});
        QCOMPARE(s.droppedCount(), std::size_t{3});
        QCOMPARE(SimulatedSetup{}.droppedCount(), std::size_t{0});
    }

    void noKnobNoEdit() {
        Loaded l = load(sltest::samplePath("02-dp4"));
        SetupEditPlan p = plan(l, 0);
        QVERIFY(!p.active);
        QCOMPARE(p.setup.ranks.size(), std::size_t{4});
        QCOMPARE(p.setup.added(), std::size_t{0});
        QCOMPARE(p.setup.droppedCount(), std::size_t{0});
        SetupEditPlan strongOnly = plan(l, 0, true);
        QVERIFY(!strongOnly.active);
        QCOMPARE(strongOnly.warnings.size(), std::size_t{1});
        QCOMPARE(strongOnly.warnings.count(Warn::KnobNoEffect), std::int64_t{1});
    }

    // 02-dp4 -> 8 replicas: ranks 4..7 are clones of ranks 0..3; every gradient all-reduce (group
    // of 4) becomes a group of 8, still inside one 8-GPU node.
    void growDataParallel() {
        Loaded l = load(sltest::samplePath("02-dp4"));
        SetupEditPlan p = plan(l, 8);
        QVERIFY(p.active);
        QVERIFY(p.warnings.empty());
        QCOMPARE(p.setup.world, 8);
        QCOMPARE(p.setup.dp, 8);
        auto ranks = ranksOf(l, p);
        QCOMPARE(ranks.size(), std::size_t{8});
        for (int r = 0; r < 8; ++r) {
            QCOMPARE(ranks[r].first, r % 4);
            QCOMPARE(ranks[r].second, r < 4);
        }
        QCOMPARE(p.setup.added(), std::size_t{4});
        QCOMPARE(p.setup.droppedCount(), std::size_t{0});
        auto sizes = allReduceSizes(l, p, CollectiveType::AllReduce);
        QCOMPARE(sizes.size(), std::size_t{1});
        QCOMPARE(sizes[4], (std::set<int>{8}));
        for (std::size_t i = 0; i < l.calls.size(); ++i)
            QVERIFY(!p.calls[i].spansNodes);
        bool cloneNote = false;
        for (const auto& n : p.setup.notes)
            cloneNote = cloneNote || n.find("added ranks 4..7: clones of ranks 0..3") != std::string::npos;
        QVERIFY(cloneNote);
    }

    // 16 replicas no longer fit one node of 8 GPUs: the all-reduce spans nodes.
    void growAcrossNodes() {
        Loaded l = load(sltest::samplePath("02-dp4"));
        SetupEditPlan p = plan(l, 16);
        QCOMPARE(p.setup.ranks.size(), std::size_t{16});
        for (std::size_t i = 0; i < l.calls.size(); ++i) {
            QCOMPARE(p.calls[i].groupSize, 16);
            QVERIFY(p.calls[i].spansNodes);
        }
    }

    // 02-dp4 -> 2 replicas: ranks 2 and 3 are dropped, the all-reduce groups have 2 members.
    void shrinkDataParallel() {
        Loaded l = load(sltest::samplePath("02-dp4"));
        SetupEditPlan p = plan(l, 2);
        QVERIFY(p.active);
        QCOMPARE(p.setup.ranks.size(), std::size_t{2});
        QVERIFY(!p.setup.isDropped(0) && !p.setup.isDropped(1));
        QVERIFY(p.setup.isDropped(2) && p.setup.isDropped(3));
        QCOMPARE(p.setup.droppedCount(), std::size_t{2});
        QCOMPARE(p.setup.added(), std::size_t{0});
        QCOMPARE(allReduceSizes(l, p, CollectiveType::AllReduce)[4], (std::set<int>{2}));
    }

    // 04-dp2-tp2-pp2 (4 GPUs per node) -> dp 4: Megatron ids with dp 4 are (pp x 4 + d) x 2 + t,
    // so stage 1 (ranks 4..7) becomes ranks 8..11 and the clones are 4..7 (stage 0) and 12..15
    // (stage 1). Tensor groups keep 2 members; the data-parallel all-reduce grows to 4; the
    // pipeline pairs (0, 8), ... now span nodes of 4 GPUs (they already did).
    void growPipelineJob() {
        Loaded l = load(sltest::samplePath("04-dp2-tp2-pp2-2nodes"));
        SetupEditPlan p = plan(l, 4, false, 4);
        QVERIFY(p.active);
        QCOMPARE(p.setup.world, 16);
        auto ranks = ranksOf(l, p);
        QCOMPARE(ranks.size(), std::size_t{16});
        // Traced rank (pp, d, t) -> new id: rank 4 = (1, 0, 0) -> 8; rank 7 = (1, 1, 1) -> 11.
        QCOMPARE(ranks[8].first, 4);
        QVERIFY(ranks[8].second);
        QCOMPARE(ranks[11].first, 7);
        // Clones: (0, 2, 1) -> id 5, copy of replica 0 at tp 1 = traced rank 1; (1, 3, 0) -> id 14,
        // copy of replica 1 at (1, t 0) = traced rank 6.
        QCOMPARE(ranks[5].first, 1);
        QVERIFY(!ranks[5].second);
        QCOMPARE(ranks[14].first, 6);
        QVERIFY(!ranks[14].second);
        auto sizes = allReduceSizes(l, p, CollectiveType::AllReduce);
        QCOMPARE(sizes[2], (std::set<int>{2, 4})); // tensor groups stay 2, data groups become 4
        for (std::size_t i = 0; i < l.calls.size(); ++i) {
            const auto& c = l.calls[i];
            if (c.type == CollectiveType::Send || c.type == CollectiveType::Recv) {
                QCOMPARE(p.calls[i].groupSize, 2);
                QVERIFY(p.calls[i].spansNodes);
            }
        }
    }

    // pp.degree=2 with dp.degree=2 on 02-dp4 (dp 4, pp 1): each kept rank (0, 1) is the column of 2
    // stages, stage 1 of replica d gets id (1 x 2 + d) x 1 + 0 = 2 + d; ranks 2, 3 are dropped. A
    // collective on lane 1 has its members at stage 1: on nodes of 3 GPUs the gradient all-reduce of
    // stage 0 (ids 0, 1) stays in node 0, stage 1's (ids 2, 3) spans nodes 0 and 1.
    void pipelineStagesInTheColumns() {
        Loaded l = load(sltest::samplePath("02-dp4"));
        std::vector<std::uint8_t> laneOf(l.graph.nodes.size(), 0);
        for (std::size_t i = 0; i < l.calls.size(); ++i)
            if (i % 2 == 1) laneOf[l.calls[i].node] = 1;
        SetupKnobs k;
        k.dpDegree = 2;
        k.ppDegree = 2;
        k.laneOf = &laneOf;
        const SetupEditPlan p = planSetupEdits(l.graph, k, l.calls, 3);
        QVERIFY(p.active);
        QCOMPARE(p.setup.world, 4);
        QCOMPARE(p.setup.pp, 2);
        QCOMPARE(p.setup.dp, 2);
        std::map<int, std::pair<int, int>> stages; // id -> (source rank id, lane)
        for (const auto& r : p.setup.ranks) {
            stages[r.rank] = {l.set.ranks[r.source].rank, r.lane};
            QCOMPARE(r.pp, r.lane);
            QCOMPARE(r.measured, r.lane == 0);
        }
        const std::map<int, std::pair<int, int>> want{{0, {0, 0}}, {1, {1, 0}}, {2, {0, 1}}, {3, {1, 1}}};
        QCOMPARE(stages, want);
        QVERIFY(p.setup.isDropped(2) && p.setup.isDropped(3));
        int seen[2] = {0, 0};
        for (std::size_t i = 0; i < l.calls.size(); ++i) {
            if (l.calls[i].type != CollectiveType::AllReduce || l.calls[i].groupSize != 4) continue;
            const int lane = laneOf[l.calls[i].node];
            QCOMPARE(p.calls[i].groupSize, 2);
            QCOMPARE(p.calls[i].spansNodes, lane == 1);
            ++seen[lane];
        }
        QVERIFY(seen[0] > 0 && seen[1] > 0);
    }

    // The straggler box's upper limit (largestJobRankId) is the largest id of the job the plan
    // makes, whatever the numbering: Megatron order on the samples, loaded ids kept and new replicas
    // after the traced world otherwise, and a set whose ids have gaps (ranks 0, 8, 16, 24 of a
    // 32-rank job: the box stopped at 3, the loaded rank count less one).
    void largestJobRankIdIsThePlans() {
        for (const char* sample : {"02-dp4", "03-tp2-pp2", "04-dp2-tp2-pp2-2nodes"}) {
            Loaded l = load(sltest::samplePath(sample));
            const ParallelStructure s = recognizeStructure(l.set, nullptr, false);
            int loaded = -1;
            for (const Rank& r : l.set.ranks)
                loaded = std::max(loaded, r.rank);
            for (int n : {0, 1, 2, 3, 8, 16}) {
                int expected = loaded;
                if (n > 0) {
                    const SetupEditPlan p = plan(l, n);
                    if (p.active) {
                        expected = -1;
                        for (const SimulatedRank& r : p.setup.ranks)
                            expected = std::max(expected, r.rank);
                    }
                }
                QVERIFY2(largestJobRankId(s, n) == expected,
                         qPrintable(QStringLiteral("%1 dp.degree=%2: %3, the plan's %4")
                                        .arg(sample)
                                        .arg(n)
                                        .arg(largestJobRankId(s, n))
                                        .arg(expected)));
            }
        }
        // dp 2 x tp 2 numbered data-parallel first (ranks 0, 1 are replica 0 and 1 at tp 0): not
        // Megatron order, so under dp.degree=4 the new replicas take ids 4..7.
        ParallelStructure dpFirst;
        dpFirst.world = 4;
        dpFirst.dp = 2;
        dpFirst.tp = 2;
        dpFirst.recognised = true;
        dpFirst.places = {{0, 0, 0, 0, true}, {1, 1, 0, 0, true}, {2, 0, 1, 0, true}, {3, 1, 1, 0, true}};
        QCOMPARE(largestJobRankId(dpFirst, 0), 3);
        QCOMPARE(largestJobRankId(dpFirst, 4), 7);
        QCOMPARE(largestJobRankId(dpFirst, 1), 2); // replica 1 (ranks 1 and 3) dropped
        ParallelStructure gaps;
        gaps.world = 32;
        for (int id : {0, 8, 16, 24})
            gaps.places.push_back({id, 0, 0, 0, false});
        QCOMPARE(largestJobRankId(gaps, 0), 24);
        QCOMPARE(largestJobRankId(gaps, 8), 24); // no layout: dp.degree is ignored
    }

    // 03-tp2-pp2 has no data parallelism: replicas can be added, but there is no gradient
    // all-reduce to re-size, and the plan says so.
    void fromNoDataParallel() {
        Loaded l = load(sltest::samplePath("03-tp2-pp2"));
        SetupEditPlan p = plan(l, 2);
        QVERIFY(p.active);
        QCOMPARE(p.setup.world, 8);
        QCOMPARE(p.warnings.size(), std::size_t{1});
        QCOMPARE(p.warnings.count(Warn::DpNoGradientSync), std::int64_t{1});
    }

    // Strong scaling 4 -> 8: compute kernels inside the micro-batch blocks run x 0.5; the fused
    // AdamW kernels (after the last backward block) and the collectives do not; the gradient
    // all-reduce keeps its message size.
    void strongScaling() {
        Loaded l = load(sltest::samplePath("02-dp4"));
        SetupEditPlan p = plan(l, 8, true);
        QCOMPARE(p.workFactor, 0.5);
        QCOMPARE(p.scaledWork.size(), l.graph.nodes.size());
        int adam = 0, gemm = 0;
        for (NodeId n = 0; n < l.graph.nodes.size(); ++n) {
            std::string_view name = l.graph.nodeName(n);
            if (name.find("FusedAdamMathFunctor") != std::string_view::npos) {
                QCOMPARE(int(p.scaledWork[n]), 0);
                ++adam;
            }
            if (name.find("gemm") != std::string_view::npos ||
                name.find("sm90_xmma") != std::string_view::npos) {
                QCOMPARE(int(p.scaledWork[n]), 1);
                ++gemm;
            }
            if (l.graph.nodes[n].kind == NodeKind::Collective) QCOMPARE(int(p.scaledWork[n]), 0);
        }
        QVERIFY(adam > 0);
        QVERIFY(gemm > 0);
        for (std::size_t i = 0; i < l.calls.size(); ++i)
            QCOMPARE(p.calls[i].bytesFactor, 1.0);
    }

    // DLRM-8 -> 16: the all-to-alls and all-reduces over all 8 ranks become groups of 16 that span
    // two 8-GPU nodes; -> 4: groups of 4 on one node, ranks 4..7 dropped.
    void dlrm() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        Loaded l = load(sltest::tracePath("dlrm-8rank-v100/kineto"));
        SetupEditPlan up = plan(l, 16);
        QVERIFY(up.active);
        QCOMPARE(up.setup.ranks.size(), std::size_t{16});
        int allToAll = 0, allReduce = 0;
        for (std::size_t i = 0; i < l.calls.size(); ++i) {
            if (!l.calls[i].matched) continue;
            allToAll +=
                l.calls[i].type == CollectiveType::SendRecv || l.calls[i].type == CollectiveType::AllToAll;
            allReduce += l.calls[i].type == CollectiveType::AllReduce;
            QCOMPARE(up.calls[i].groupSize, 16);
            QVERIFY(up.calls[i].spansNodes);
        }
        QVERIFY(allToAll > 0);
        QVERIFY(allReduce > 0);
        SetupEditPlan down = plan(l, 4);
        QCOMPARE(down.setup.ranks.size(), std::size_t{4});
        for (std::size_t r = 0; r < 8; ++r)
            QCOMPARE(down.setup.isDropped(r), r >= 4);
        for (std::size_t i = 0; i < l.calls.size(); ++i)
            if (l.calls[i].matched) {
                QCOMPARE(down.calls[i].groupSize, 4);
                QVERIFY(!down.calls[i].spansNodes);
            }
    }

    // DLRM-8 simulated with dp.degree=16 and =4. Its kernels carry no message sizes, so each
    // collective keeps its measured transfer x the ring bus-factor ratio: all-reduce 2(n-1)/n,
    // all-to-all (SendRecv kernels in a group of 8) (n-1)/n. 8 -> 16: x (30/16)/(14/8) = 15/14 for
    // all-reduce, x (15/16)/(7/8) = 15/14 too; 8 -> 4: x (6/4)/(14/8) = 6/7. The groups of 16 cross
    // nodes with no bandwidth known for either locality: a warning says only the size was re-timed.
    void dlrmSimulated() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        Loaded l = load(sltest::tracePath("dlrm-8rank-v100/kineto"));
        for (auto [degree, ratio] : {std::pair{16, 15.0 / 14.0}, std::pair{4, 6.0 / 7.0}}) {
            SimKnobs k;
            k.dpDegree = degree;
            SimResult r = simulate(l.graph, k);
            QVERIFY(r.complete);
            QVERIFY(r.setup.edited);
            QCOMPARE(static_cast<int>(r.setup.ranks.size()), degree);
            double traced = 0, simulated = 0;
            for (const auto& c : l.calls)
                if (c.matched && !r.setup.isDropped(l.graph.nodes[c.node].rank)) {
                    traced += static_cast<double>(l.graph.nodes[c.node].duration);
                    simulated += static_cast<double>(r.nodes[c.node].own);
                }
            QVERIFY(traced > 0);
            QVERIFY2(
                std::abs(simulated / traced - ratio) < 1e-3,
                qPrintable(QString("transfer ratio %1, expected %2").arg(simulated / traced).arg(ratio)));
            QCOMPARE(r.warnings.has(Warn::CommLocalityUnknown), degree == 16);
        }
    }
};

QTEST_GUILESS_MAIN(TestSetupEdits)
#include "test_SetupEdits.moc"
