// Embedding work as the trace shows it (docs/Embeddings.md): the names that make a lookup kernel
// or an all-to-all phase, the tables and plan files and every way they can be wrong (one line
// naming the file, no result), tables inferred from a generated trace, and the shared 8-rank DLRM
// set with its execution traces: per-rank totals and all-to-all sizes equal what the raw files say
// (read independently with python: json + gzip, see the comments), and the direction of a
// balanced plan against one that puts the heavy tables on one rank.
#include "SynthFixture.h"
#include "TestSupport.h"

#include "analysis/StepExplanation.h"
#include "io/EtFolder.h"
#include "models/EmbeddingPlan.h"
#include "sim/EmbeddingCandidates.h"
#include "sim/EmbeddingWhatIf.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "trace/EmbeddingWork.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

using namespace sl;

namespace {

// The error of f, or "" when it throws none.
template <class F> std::string errorOf(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

const char* kTables = R"({"batch_per_rank": 64, "tables": [
    {"name": "a", "rows": 1000, "dim": 16, "pooling": 2, "rank": 0},
    {"name": "b", "rows": 5000, "dim": 32, "pooling": 4, "rank": 1}]})";

synth::SynthConfig smallRecJob() {
    synth::SynthConfig c;
    c.dp = 4;
    c.recordShapes = true;
    c.recTables = parseEmbeddingTables(R"({"batch_per_rank": 256, "tables": [
        {"name": "a", "rows": 200000, "dim": 64, "pooling": 10, "rank": 0},
        {"name": "b", "rows": 300000, "dim": 64, "pooling": 20, "rank": 1},
        {"name": "c", "rows": 400000, "dim": 64, "pooling": 5, "rank": 2},
        {"name": "d", "rows": 500000, "dim": 64, "pooling": 8, "rank": 3}]})",
                                       "gen");
    c.recPlan = tracedPlan(c.recTables);
    return c;
}

} // namespace

class TestEmbeddingInput : public QObject {
    Q_OBJECT

private slots:
    void lookupKernels() {
        QCOMPARE(embeddingLookupKernel(
                     "void split_embedding_codegen_forward_unweighted_kernel<float, float, float, "
                     "false, long, 1ul, 8ul>(at::GenericPackedTensorAccessor<float, 1ul>)"),
                 EmbeddingLookup::Forward);
        QCOMPARE(
            embeddingLookupKernel("void bounds_check_indices_kernel<long>(at::GenericPackedTensorAccessor)"),
            EmbeddingLookup::Forward);
        QCOMPARE(embeddingLookupKernel(
                     "split_embedding_backward_codegen_adagrad_unweighted_find_long_segments(at::"
                     "GenericPackedTensorAccessor<int, 1ul>)"),
                 EmbeddingLookup::Backward);
        QCOMPARE(
            embeddingLookupKernel("void at::native::(anonymous namespace)::embedding_backward_feature_kernel<"
                                  "c10::BFloat16, float, long>(long const*)"),
            EmbeddingLookup::Backward);
        QCOMPARE(
            embeddingLookupKernel("void at::native::EmbeddingBag_updateOutputKernel_sum_mean<float, long>()"),
            EmbeddingLookup::Forward);
        QCOMPARE(embeddingLookupKernel("ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn"),
                 EmbeddingLookup::None);
        QVERIFY(isEmbeddingLookupOp("fbgemm::split_embedding_codegen_lookup_adagrad_function"));
        QVERIFY(isEmbeddingLookupOp("aten::embedding_bag"));
        QVERIFY(!isEmbeddingLookupOp("aten::linear"));
    }

    void exchangePhases() {
        QCOMPARE(embeddingExchangeOf("## alltoall_fwd_single ##"), EmbeddingExchange::Pooled);
        QCOMPARE(embeddingExchangeOf("## PooledEmbeddingsAwaitable wait() ##"), EmbeddingExchange::Pooled);
        QCOMPARE(embeddingExchangeOf("## alltoall_bwd_single ##"), EmbeddingExchange::PooledBackward);
        QCOMPARE(embeddingExchangeOf("All2All_Pooled_ReqBackward"), EmbeddingExchange::PooledBackward);
        QCOMPARE(embeddingExchangeOf("## all2all_data:kjt values ##"), EmbeddingExchange::Indices);
        QCOMPARE(embeddingExchangeOf("## KJTAllToAllTensorsAwaitable wait() ##"), EmbeddingExchange::Indices);
        QCOMPARE(embeddingExchangeOf("## all2all_data:kjt splits ##"), EmbeddingExchange::Splits);
        QCOMPARE(embeddingExchangeOf("## all2all_data:kjt lengths ##"), EmbeddingExchange::Splits);
        QCOMPARE(embeddingExchangeOf("record_param_comms"), EmbeddingExchange::None);
    }

    void plansAndBytes() {
        const EmbeddingTables t = parseEmbeddingTables(kTables, "tables.json");
        const EmbeddingPlan p = parseEmbeddingPlan(
            R"({"tables": {"a": {"sharding": "row_wise", "ranks": [0, 1]}}})", "plan.json", t, 2);
        QCOMPARE(p.placements.size(), std::size_t{2});
        QCOMPARE(p.placements[0].sharding, Sharding::RowWise);
        QCOMPARE(p.placements[1].ranks, std::vector<int>{1}); // b stays where the trace has it
        const auto shards = planShards(p, t, 2, 64);
        QCOMPARE(shards.size(), std::size_t{3});
        // b on rank 1: 64 samples x 32 x 4 bytes to rank 0; a's halves: 64 x 16 x 4 each way.
        const ExchangeBytes pooled = pooledExchange(shards, t, 2, 64);
        QCOMPARE(pooled.send[1], 64.0 * 32 * 4 + 64.0 * 16 * 4);
        QCOMPARE(pooled.send[0], 64.0 * 16 * 4);
        // Indices: rank 0 sends its samples' b indices (64 x 4) and half of a's (64 x 2 / 2), 8 bytes each.
        const ExchangeBytes idx = indexExchange(shards, t, 2, 64);
        QCOMPARE(idx.send[0], (64.0 * 4 + 64.0 * 2 / 2) * 8);
        // The plan written back reads the same.
        const EmbeddingPlan again = parseEmbeddingPlan(embeddingPlanJson(p, t), "x", t, 2);
        QCOMPARE(again.placements[0].ranks, (std::vector<int>{0, 1}));
    }

    void badInput_data() {
        QTest::addColumn<QString>("tables");
        QTest::addColumn<QString>("plan");
        QTest::addColumn<QString>("expected");
        QTest::newRow("table listed twice in the side file")
            << R"({"tables": [{"name": "a", "rows": 1, "dim": 1}, {"name": "a", "rows": 2, "dim": 1}]})"
            << "{}"
            << "tables.json: table a is listed twice";
        QTest::newRow("missing table") << kTables << R"({"tables": {"zz": 0}})"
                                       << "plan.json: table zz is not in tables.json";
        QTest::newRow("missing rank") << kTables << R"({"tables": {"a": 5}})"
                                      << "plan.json: table a: rank 5 is not in the job (ranks 0..1)";
        QTest::newRow("table listed twice in the plan")
            << kTables << R"([{"table": "a", "rank": 0}, {"table": "a", "rank": 1}])"
            << "plan.json: table a is listed twice";
        QTest::newRow("bad sharding")
            << kTables << R"({"tables": {"a": {"sharding": "diagonal", "ranks": [0]}}})"
            << "plan.json: table a: unknown sharding";
        QTest::newRow("negative rows") << R"({"tables": [{"name": "a", "rows": -1, "dim": 4}]})"
                                       << "{}"
                                       << "tables.json: table a: rows, dim";
        QTest::newRow("not JSON") << "{"
                                  << "{}"
                                  << "tables.json: not valid JSON";
        QTest::newRow("huge rows") << R"({"tables": [{"name": "a", "rows": 1e30, "dim": 4}]})"
                                   << "{}"
                                   << "tables.json: table a: rows (at most 1e15)";
        QTest::newRow("rows not a number") << R"({"tables": [{"name": "a", "rows": "many", "dim": 4}]})"
                                           << "{}"
                                           << "tables.json: table a: \"rows\" is not a number";
    }
    void badInput() {
        QFETCH(QString, tables);
        QFETCH(QString, plan);
        QFETCH(QString, expected);
        const std::string err = errorOf([&] {
            const EmbeddingTables t = parseEmbeddingTables(tables.toStdString(), "tables.json");
            parseEmbeddingPlan(plan.toStdString(), "plan.json", t, 2);
        });
        QVERIFY2(err.starts_with(expected.toStdString()), err.c_str());
        QVERIFY(err.find('\n') == std::string::npos);
    }

    // Through the knobs: a side file whose totals disagree with the trace, and a plan naming a rank
    // the job does not have, stop the simulation with one line naming the file.
    void badInputThroughTheSimulator() {
        auto job = slsynth::generateAndLoad(smallRecJob());
        QTemporaryDir dir;
        const std::string wrong = sltest::writeFile(
            dir, "tables.json",
            R"({"tables": [{"name": "a", "rows": 7, "dim": 64, "pooling": 10, "rank": 0}]})");
        SimKnobs k;
        setKnob(k, "embedding.tables", wrong);
        setKnob(k, "embedding.plan", R"({"tables": {"a": 1}})");
        std::string err = errorOf([&] { simulate(job->graph, k); });
        QVERIFY2(err.starts_with(wrong + ": rank 0 holds 1 tables"), err.c_str());
        const std::string plan = sltest::writeFile(dir, "plan.json", R"({"tables": {"rank0.t0": 9}})");
        SimKnobs k2;
        setKnob(k2, "embedding.plan", plan);
        err = errorOf([&] { simulate(job->graph, k2); });
        QVERIFY2(err.starts_with(plan + ": table rank0.t0: rank 9 is not in the job"), err.c_str());
        const std::string outside = sltest::writeFile(
            dir, "outside.json",
            R"({"tables": [{"name": "a", "rows": 7, "dim": 64, "pooling": 10, "rank": 9}]})");
        SimKnobs k4;
        setKnob(k4, "embedding.tables", outside);
        setKnob(k4, "embedding.plan", R"({"tables": {"a": 1}})");
        err = errorOf([&] { simulate(job->graph, k4); });
        QVERIFY2(err.starts_with(outside + ": table a: \"rank\" 9 is not a rank of the trace"), err.c_str());
        SimKnobs k3;
        setKnob(k3, "embedding.plan", dir.filePath("absent.json").toStdString());
        err = errorOf([&] { simulate(job->graph, k3); });
        QVERIFY2(err.find("absent.json: cannot open") != std::string::npos, err.c_str());
    }

    // Without a side file the tables are inferred evenly from each rank's lookup op, and the result
    // says so; the traced plan then replays the trace.
    void inferredFromTheTrace() {
        auto job = slsynth::generateAndLoad(smallRecJob());
        const EmbeddingInventory inv = embeddingInventory(job->graph);
        QCOMPARE(inv.worldSize, 4);
        QCOMPARE(inv.batchPerRank, std::int64_t{256});
        const EmbeddingTables t = embeddingTablesFor(inv, "");
        QVERIFY(t.inferred);
        QCOMPARE(t.tables.size(), std::size_t{4});
        QCOMPARE(t.tables[1].rows, std::int64_t{300000});
        QCOMPARE(t.tables[1].dim, 64);
        QCOMPARE(t.tables[1].pooling, 20.0);
        QCOMPARE(inv.exchanges.size(), std::size_t{3}); // indices, pooled, pooled backward
        SimKnobs k;
        setKnob(k, "embedding.plan", embeddingPlanJson(tracedPlan(t), t));
        const SimResult replay = simulate(job->graph), same = simulate(job->graph, k);
        QVERIFY(same.warnings.has(Warn::EmbeddingTablesInferred));
        QVERIFY(!replay.warnings.has(Warn::EmbeddingTablesInferred));
        QVERIFY(std::abs(static_cast<double>(same.simulatedIteration - replay.simulatedIteration)) <
                0.005 * static_cast<double>(replay.simulatedIteration));
        // A window of two profiler steps holds two lookup ops per rank: still the 4 tables of a step.
        synth::SynthConfig two = smallRecJob();
        two.steps = 2;
        auto twoSteps = slsynth::generateAndLoad(two);
        QCOMPARE(windowSteps(twoSteps->graph), 2);
        const EmbeddingInventory inv2 = embeddingInventory(twoSteps->graph);
        const EmbeddingTables t2 = embeddingTablesFor(inv2, "");
        QCOMPARE(t2.tables.size(), std::size_t{4});
        QCOMPARE(t2.tables[1].rows, std::int64_t{300000});
        QCOMPARE(t2.tables[1].pooling, 20.0);
        for (std::size_t r = 0; r < inv.ranks.size(); ++r)
            QCOMPARE(inv2.ranks[r].lookups, inv.ranks[r].lookups);
    }

    void dlrm() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        applyExecutionTraces(set, {sltest::tracePath("dlrm-8rank-v100/et")});
        const ExecutionGraph g = buildExecutionGraph(set);
        const EmbeddingInventory inv = embeddingInventory(g);
        // From the raw files (python): per rank, the split TBE op's Input Dims: weights_offsets (3
        // tables), dev_weights, indices, offsets (385 = 3 x 128 + 1); the dense TBE op's (2 tables,
        // 112 weights); kernels whose names are lookups: 3 forward, 6 backward; ET: the pooled
        // all-to-all's input_split_sizes add up to 6144 on every rank.
        const std::int64_t weights[8] = {640649648, 640339856, 640279200, 640209296,
                                         640192016, 49206656,  9556608,   6520016};
        const std::int64_t lookups[8] = {768, 1792, 2304, 13312, 4736, 768, 1536, 1920};
        QCOMPARE(inv.worldSize, 8);
        QCOMPARE(inv.batchPerRank, std::int64_t{16});
        for (int r = 0; r < 8; ++r) {
            const RankEmbedding& re = inv.ranks[static_cast<std::size_t>(r)];
            QCOMPARE(re.tables, 3);
            QCOMPARE(re.weights, weights[r]);
            QCOMPARE(re.lookups, lookups[r]);
            QCOMPARE(re.samples, std::int64_t{128});
            QCOMPARE(re.totalDim, std::int64_t{48}); // 6144 pooled elements / 128 samples
            QCOMPARE(re.denseTables, 2);
            QCOMPARE(re.denseWeights, std::int64_t{112});
            QCOMPARE(re.forward.size(), std::size_t{3});
            QCOMPARE(re.backward.size(), std::size_t{6});
        }
        // Five all-to-alls per rank: kjt splits (24 elements, no split lists), kjt lengths (384),
        // kjt values (3392 sent), pooled forward and backward (6144 each).
        int phases[5] = {0, 0, 0, 0, 0};
        for (const auto& x : inv.exchanges)
            ++phases[static_cast<int>(x.phase)];
        QCOMPARE(phases[static_cast<int>(EmbeddingExchange::Pooled)], 1);
        QCOMPARE(phases[static_cast<int>(EmbeddingExchange::PooledBackward)], 1);
        QCOMPARE(phases[static_cast<int>(EmbeddingExchange::Indices)], 1);
        QCOMPARE(phases[static_cast<int>(EmbeddingExchange::Splits)], 2);
        for (const auto& x : inv.exchanges) {
            const std::int64_t expected = x.phase == EmbeddingExchange::Indices  ? 3392
                                          : x.phase == EmbeddingExchange::Splits ? -1
                                                                                 : 6144;
            if (expected < 0) continue;
            for (std::int64_t e : x.inElems)
                QCOMPARE(e, expected);
        }
        // Balanced (the greedy candidate) against every heavy table on rank 0: the eight largest
        // tables of the inferred 24 there, the rest round robin over the others.
        const EmbeddingTables t = embeddingTablesFor(inv, "");
        QVERIFY(t.inferred);
        QCOMPARE(t.tables.size(), std::size_t{24});
        std::vector<int> bySize(t.tables.size());
        std::iota(bySize.begin(), bySize.end(), 0);
        std::stable_sort(bySize.begin(), bySize.end(), [&](int a, int b) {
            const auto& x = t.tables[static_cast<std::size_t>(a)];
            const auto& y = t.tables[static_cast<std::size_t>(b)];
            return static_cast<double>(x.rows) * x.dim * x.pooling >
                   static_cast<double>(y.rows) * y.dim * y.pooling;
        });
        EmbeddingPlan heavy;
        for (std::size_t i = 0; i < bySize.size(); ++i)
            heavy.placements.push_back(
                {bySize[i], Sharding::TableWise, {i < 8 ? 0 : 1 + static_cast<int>((i - 8) % 7)}});
        std::sort(heavy.placements.begin(), heavy.placements.end(),
                  [](const TablePlacement& a, const TablePlacement& b) { return a.table < b.table; });
        const auto candidates = candidatePlans(t, 8, EmbeddingMachine{});
        const auto balanced = std::find_if(candidates.begin(), candidates.end(),
                                           [](const NamedPlan& p) { return p.name == "greedy table-wise"; });
        QVERIFY(balanced != candidates.end());
        auto predict = [&](const EmbeddingPlan& p) {
            SimKnobs k;
            setKnob(k, "embedding.plan", embeddingPlanJson(p, t));
            return simulate(g, k).simulatedIteration;
        };
        const TimeNs replay = simulate(g).simulatedIteration, b = predict(balanced->plan), h = predict(heavy);
        const EmbeddingMachine m = embeddingMachine(nullptr);
        const auto wb = planEmbeddingWhatIf(inv, t, balanced->plan, m),
                   wh = planEmbeddingWhatIf(inv, t, heavy, m);
        const auto maxOf = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
        std::printf(
            "dlrm: replay %.1f us, balanced %.1f us, heavy on rank 0 %.1f us; largest lookup time per rank "
            "traced %.1f balanced %.1f heavy %.1f us; pooled bytes per step %.0f (peak per rank traced %.0f "
            "balanced %.0f heavy %.0f); index bytes %.0f (peak %.0f / %.0f / %.0f)\n",
            static_cast<double>(replay) / 1e3, static_cast<double>(b) / 1e3, static_cast<double>(h) / 1e3,
            maxOf(wb.tracedLookupUs), maxOf(wb.lookupUs), maxOf(wh.lookupUs), wb.pooled.total(),
            wb.tracedPooled.peak(), wb.pooled.peak(), wh.pooled.peak(), wb.indices.total(),
            wb.tracedIndices.peak(), wb.indices.peak(), wh.indices.peak());
        // The DLRM step is host-bound (the GPU idles most of the 19 ms): neither plan may make it
        // faster than the balanced one, and the heavy plan's busiest rank looks up the longest.
        QVERIFY(h >= b);
        QVERIFY(maxOf(wh.lookupUs) > maxOf(wb.lookupUs));
        // The same tables move the same pooled bytes in total (every table serves every sample); the
        // heavy plan concentrates them on rank 0.
        QCOMPARE(wb.pooled.total(), wh.pooled.total());
        QVERIFY(wh.pooled.peak() > wb.pooled.peak());
    }
};

QTEST_GUILESS_MAIN(TestEmbeddingInput)
#include "test_EmbeddingInput.moc"
