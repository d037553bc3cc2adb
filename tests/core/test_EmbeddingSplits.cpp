// Per-pair all_to_allv split sizes (docs/Embeddings.md, "What the trace says"): on the shared 8-rank
// DLRM set, the split sizes the attached execution traces give each member of the embedding
// all-to-alls, and the elements each pair of ranks exchanges, equal what the raw ET files say. The
// raw files are read here on their own: the gzip inflated with zlib, the JSON parsed with
// nlohmann::json, and every c10d::alltoall_base_ node's output_split_sizes / input_split_sizes
// taken in node order, none of the loader's ET code involved.
#include "SampleCounts.h"
#include "TestSupport.h"

#include "io/EtFolder.h"
#include "sim/EmbeddingWhatIf.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

using namespace sl;

namespace {

struct RawSplits {
    std::vector<std::int64_t> in, out; // input_split_sizes (sent), output_split_sizes (received)
};

// The split sizes of rank r's all_to_allv calls, in the ET's node order (ids rise with time on the
// thread that issues the collectives), those without split lists (an even split) left out.
std::vector<RawSplits> rawSplitsOfRank(int r) {
    const std::string name = "dlrm-8rank-v100/et/dlrm_eg_" + std::to_string(r) + ".json.gz";
    const std::string path = sltest::tracePath(name.c_str());
    const nlohmann::json et = nlohmann::json::parse(sltest::gunzipFile(path));
    std::vector<std::pair<std::int64_t, RawSplits>> byId;
    for (const auto& node : et.at("nodes")) {
        if (node.at("name").get<std::string>() != "c10d::alltoall_base_") continue;
        // (Tensor output, Tensor input, ProcessGroup, int[] output_split_sizes,
        //  int[] input_split_sizes, int timeout)
        const auto& inputs = node.at("inputs");
        RawSplits s;
        s.out = inputs.at(3).get<std::vector<std::int64_t>>();
        s.in = inputs.at(4).get<std::vector<std::int64_t>>();
        if (s.in.empty() && s.out.empty()) continue;
        byId.emplace_back(node.at("id").get<std::int64_t>(), std::move(s));
    }
    std::sort(byId.begin(), byId.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<RawSplits> out;
    for (auto& [id, s] : byId)
        out.push_back(std::move(s));
    return out;
}

} // namespace

class TestEmbeddingSplits : public QObject {
    Q_OBJECT

private slots:
    void dlrmSplitsPerPair() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        applyExecutionTraces(set, {sltest::tracePath("dlrm-8rank-v100/et")});
        QCOMPARE(set.ranks.size(), std::size_t{8});
        std::vector<std::vector<RawSplits>> raw(8);
        for (int r = 0; r < 8; ++r) {
            raw[static_cast<std::size_t>(r)] = rawSplitsOfRank(r);
            // kjt lengths, kjt values, pooled forward and backward (the kjt splits go evenly)
            QCOMPARE(raw[static_cast<std::size_t>(r)].size(), std::size_t{4});
        }
        // The raw files agree with themselves pair by pair: what rank a sends to b in its k-th
        // all_to_allv is what b receives from a in its own.
        for (std::size_t k = 0; k < raw[0].size(); ++k)
            for (std::size_t a = 0; a < 8; ++a)
                for (std::size_t b = 0; b < 8; ++b)
                    QCOMPARE(raw[a][k].in.at(b), raw[b][k].out.at(a));

        // The embedding all-to-alls, per pair of ranks: the k-th exchange with split sizes is the
        // k-th all_to_allv of every raw file.
        const ExecutionGraph g = buildExecutionGraph(set);
        EmbeddingInventory inv = embeddingInventory(g);
        std::stable_sort(inv.exchanges.begin(), inv.exchanges.end(), [&](const auto& a, const auto& b) {
            return g.measuredStart(a.members.front()) < g.measuredStart(b.members.front());
        });
        std::size_t k = 0;
        std::int64_t pairsChecked = 0;
        for (const auto& x : inv.exchanges) {
            if (x.pairElements(0, 0) < 0) continue; // no split sizes (the kjt splits: an even split)
            QVERIFY(k < raw[0].size());
            // Each member's lists as loaded, against its rank's raw file.
            QCOMPARE(x.memberRanks.size(), std::size_t{8});
            for (std::size_t m = 0; m < x.memberRanks.size(); ++m) {
                const RawSplits& want = raw[static_cast<std::size_t>(x.memberRanks[m])][k];
                QCOMPARE(x.sentTo[m], want.in);
                QCOMPARE(x.receivedFrom[m], want.out);
            }
            for (int a = 0; a < 8; ++a)
                for (int b = 0; b < 8; ++b, ++pairsChecked)
                    QCOMPARE(x.pairElements(a, b),
                             raw[static_cast<std::size_t>(a)][k].in.at(static_cast<std::size_t>(b)));
            if (x.phase == EmbeddingExchange::Indices) {
                // Each rank receives the indices of its own tables from every rank: its lookups.
                const std::int64_t lookups[8] = {768, 1792, 2304, 13312, 4736, 768, 1536, 1920};
                for (int b = 0; b < 8; ++b) {
                    std::int64_t received = 0;
                    for (int a = 0; a < 8; ++a)
                        received += x.pairElements(a, b);
                    QCOMPARE(received, lookups[b]);
                }
                // Rank 3 holds the heavy tables: every rank sends it the most.
                for (int a = 0; a < 8; ++a)
                    for (int b = 0; b < 8; ++b)
                        QVERIFY(x.pairElements(a, 3) >= x.pairElements(a, b));
            }
            ++k;
        }
        QCOMPARE(k, raw[0].size());
        QCOMPARE(pairsChecked, std::int64_t{64} * static_cast<std::int64_t>(k));
        std::printf("dlrm: %zu embedding all-to-alls with split sizes, %lld pairs checked\n", k,
                    static_cast<long long>(pairsChecked));
    }
};

QTEST_GUILESS_MAIN(TestEmbeddingSplits)
#include "test_EmbeddingSplits.moc"
