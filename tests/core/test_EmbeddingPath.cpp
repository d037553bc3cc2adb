// Embedding work named where a user reads the path and the breakdown (docs/Embeddings.md, "On the
// critical path"): on a generated recommendation job whose rank 0 holds the heavy tables, the
// critical path's embedding lookup and all-to-all time equal the segments whose kernels are lookups
// or were launched inside an all-to-all phase (checked here from the kernels' names and their
// enclosing ranges, not through pathSegmentWork), the by-name sums keep them apart, the breakdown
// counts them per rank, a plan's knob effect counts their share, and a transformer job has no
// embedding all-to-all.
// Plus the embedding knobs' group.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "analysis/Breakdown.h"
#include "analysis/CriticalPath.h"
#include "analysis/KnobEffect.h"
#include "analysis/StepExplanation.h"
#include "models/EmbeddingPlan.h"
#include "report/PathReport.h"
#include "sim/KnobRegistry.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "trace/EmbeddingWork.h"

using namespace sl;

namespace {

synth::SynthConfig heavyOnRank0() {
    synth::SynthConfig c;
    c.dp = 4;
    c.recordShapes = true;
    c.recTables = parseEmbeddingTables(R"({"batch_per_rank": 2048, "tables": [
        {"name": "a", "rows": 20000000, "dim": 128, "pooling": 40, "rank": 0},
        {"name": "b", "rows": 10000000, "dim": 128, "pooling": 30, "rank": 0},
        {"name": "c", "rows": 1000000, "dim": 64, "pooling": 10, "rank": 1},
        {"name": "d", "rows": 500000, "dim": 64, "pooling": 5, "rank": 2},
        {"name": "e", "rows": 300000, "dim": 64, "pooling": 4, "rank": 3}]})",
                                       "gen");
    c.recPlan = tracedPlan(c.recTables);
    return c;
}

// Independent of trace/EmbeddingWork's code: a lookup kernel by the generator's kernel names, an
// all-to-all kernel by the range the generator wraps it in.
EmbeddingWork expectedWork(const ExecutionGraph& g, NodeId n) {
    const Rank& rank = g.rankOf(n);
    const std::string_view name = g.nodeName(n);
    if (name.find("split_embedding_") != std::string_view::npos) return EmbeddingWork::Lookup;
    if (name.find("SendRecv") == std::string_view::npos && name.find("AllToAll") == std::string_view::npos)
        return EmbeddingWork::None;
    const EventRef gpu = g.nodes[n].event;
    const EventRef call = EventRef::unpack(rank.tracks[gpu.track].events.link[gpu.index]);
    const auto& ev = rank.tracks[call.track].events;
    for (std::int32_t p = ev.parent[call.index]; p >= 0; p = ev.parent[static_cast<std::size_t>(p)]) {
        const std::string_view range = rank.name({call.track, static_cast<std::uint32_t>(p)});
        if (range == "## all2all_data:kjt values ##" || range == "## alltoall_fwd_single ##" ||
            range == "## alltoall_bwd_single ##")
            return EmbeddingWork::AllToAll;
    }
    return EmbeddingWork::None;
}

} // namespace

class TestEmbeddingPath : public QObject {
    Q_OBJECT

private slots:
    void pathAndBreakdownNameEmbeddingWork() {
        auto job = slsynth::generateAndLoad(heavyOnRank0());
        const ExecutionGraph& g = job->graph;
        const SimResult res = simulate(g);
        const CriticalPath cp = criticalPath(g, res);
        TimeNs lookup = 0, exchange = 0;
        for (const PathSegment& s : cp.segments) {
            const bool gpuTime = s.label == PathLabel::GpuCompute || s.label == PathLabel::GpuComm ||
                                 s.label == PathLabel::CollectiveWait;
            const EmbeddingWork want = gpuTime && g.nodes[s.node].kind != NodeKind::CpuCall &&
                                               g.nodes[s.node].kind != NodeKind::SyncCall
                                           ? expectedWork(g, s.node)
                                           : EmbeddingWork::None;
            QCOMPARE(pathSegmentWork(g, s), want);
            if (want == EmbeddingWork::Lookup) lookup += s.end - s.start;
            if (want == EmbeddingWork::AllToAll) exchange += s.end - s.start;
        }
        QCOMPARE(cp.embeddingLookup, lookup);
        QCOMPARE(cp.embeddingAllToAll, exchange);
        // Rank 0's heavy lookups hold a good part of this step.
        QVERIFY2(cp.sharePct(cp.embeddingLookup) > 20, qPrintable(QString::number(cp.sharePct(lookup))));
        QVERIFY(cp.embeddingLookup <= cp.byLabel[static_cast<std::size_t>(PathLabel::GpuCompute)]);
        // The totals-only walk agrees.
        const CriticalPath totals = criticalPathTotals(g, res);
        QCOMPARE(totals.embeddingLookup, cp.embeddingLookup);
        QCOMPARE(totals.embeddingAllToAll, cp.embeddingAllToAll);
        // By name: the lookup kernels under their work; the note and the JSON say the shares.
        bool namedLookup = false;
        for (const PathNameShare& sh : criticalPathByName(g, cp))
            if (sh.name.starts_with("void split_embedding_")) { // the kernels, not the host op
                QCOMPARE(sh.work, EmbeddingWork::Lookup);
                namedLookup = true;
            }
        QVERIFY(namedLookup);
        QVERIFY(embeddingPathNote(cp).starts_with("embedding lookups "));
        const nlohmann::json j = criticalPathJson(g, res, cp);
        QVERIFY(j.contains("embedding"));
        // (microseconds to two decimals, as the report writes them)
        QVERIFY(std::abs(j["embedding"]["lookup_us"].get<double>() -
                         static_cast<double>(cp.embeddingLookup) / 1e3) <= 0.005);

        // The breakdown: the union of each rank's lookup kernels, rank 0 the largest.
        const auto measured = measuredBreakdown(*g.trace, &g);
        QCOMPARE(measured.size(), std::size_t{4});
        for (std::size_t r = 0; r < measured.size(); ++r) {
            TimeNs lookups = 0;
            for (NodeId n = 0; n < g.nodes.size(); ++n)
                if (g.nodes[n].rank == r && expectedWork(g, n) == EmbeddingWork::Lookup)
                    lookups += g.measuredEnd(n) - g.measuredStart(n);
            QCOMPARE(measured[r].embeddingLookup, lookups); // one stream: no overlap between them
            QVERIFY(measured[r].embeddingAllToAll > 0);
            QVERIFY(measured[r].embeddingAllToAll <= measured[r].communication);
            if (r > 0) QVERIFY(measured[0].embeddingLookup > measured[r].embeddingLookup);
        }

        // A plan's knob effect counts the embedding share of the path (it said 0% before).
        SimKnobs k;
        setKnob(k, "embedding.plan", R"({"tables": {"rank0.t0": 3}})"); // the tables are inferred
        const SimResult moved = simulate(g, k);
        QVERIFY(moved.simulatedIteration < res.simulatedIteration);
        const KnobEffect effect = explainKnobEffect(g, res, moved, k);
        QVERIFY(std::abs(effect.targetSharePct - cp.sharePct(cp.embeddingLookup + cp.embeddingAllToAll)) <
                1e-9);
    }

    // A transformer job has no embedding all-to-all (its token embedding's kernels are lookups by
    // name); a path without embedding work keeps its JSON as it was.
    void noAllToAllInATransformer() {
        synth::SynthConfig c;
        c.dp = 2;
        c.layers = 2;
        auto job = slsynth::generateAndLoad(c);
        const SimResult res = simulate(job->graph);
        const CriticalPath cp = criticalPath(job->graph, res);
        QVERIFY(cp.length > 0);
        QCOMPARE(cp.embeddingAllToAll, TimeNs{0});
        QCOMPARE(criticalPathJson(job->graph, res, cp).contains("embedding"), cp.embeddingLookup > 0);
        QCOMPARE(embeddingPathNote(cp).empty(), cp.embeddingLookup == 0);
        for (const RankBreakdown& b : measuredBreakdown(*job->graph.trace, &job->graph))
            QCOMPARE(b.embeddingAllToAll, TimeNs{0});
        // A path through no embedding work at all: nothing added.
        CriticalPath none = cp;
        none.embeddingLookup = 0;
        QVERIFY(embeddingPathNote(none).empty());
        none.segments.clear();
        QVERIFY(!criticalPathJson(job->graph, res, none).contains("embedding"));
    }

    void knobGroup() {
        for (const char* key :
             {"embedding.plan", "embedding.tables", "embedding.calibrate", "embedding.resize_comm"})
            QCOMPARE(knobGroupOf(key), KnobGroup::Embeddings);
        QCOMPARE(std::string(knobGroupName(KnobGroup::Embeddings)), std::string("Embeddings"));
        QCOMPARE(knobGroupOf("compute.speedup"), KnobGroup::Gpu);
    }
};

QTEST_GUILESS_MAIN(TestEmbeddingPath)
#include "test_EmbeddingPath.moc"
