// PyTorch Execution Trace import (io/ExecutionTrace) and its link to Kineto (io/EtLinker).
// Expected sizes were read independently from the ET files with python (json + gzip).
#include "TestSupport.h"

#include "io/EtLinker.h"
#include "io/ExecutionTrace.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <algorithm>

using namespace sl;

namespace {

// The rank's collectives in kernel start order.
std::vector<const CollectiveMeta*> byStart(const Rank& rank) {
    std::vector<const CollectiveMeta*> v;
    for (const auto& c : rank.collectives)
        if (c.kernel.valid()) v.push_back(&c);
    std::stable_sort(v.begin(), v.end(), [&](const CollectiveMeta* a, const CollectiveMeta* b) {
        return rank.tracks[a->kernel.track].events.start[a->kernel.index] <
               rank.tracks[b->kernel.track].events.start[b->kernel.index];
    });
    return v;
}

std::string dlrmKineto(int r) {
    for (const auto& f : expandTracePaths({sltest::tracePath("dlrm-8rank-v100/kineto")}))
        if (f.find("/worker" + std::to_string(r) + "_") != std::string::npos) return f;
    return {};
}

std::string dlrmEt(int r) {
    return sltest::tracePath("dlrm-8rank-v100/et/dlrm_eg_") + std::to_string(r) + ".json.gz";
}

QString loadErrorOf(const std::string& text, const std::string& name) {
    try {
        parseExecutionTrace(text, name);
    } catch (const LoadError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestExecutionTrace : public QObject {
    Q_OBJECT
private slots:
    void parsesRecordParamCommsAllToAllv() {
        const char* text = R"ET({"schema": "1.0.1", "nodes": [
          {"name": "[pytorch|profiler|execution_graph|thread]", "id": 2, "rf_id": 0, "parent": 1, "tid": 1,
           "inputs": [], "input_shapes": [], "input_types": [], "outputs": [], "output_shapes": [], "output_types": []},
          {"name": "record_param_comms", "id": 10, "rf_id": 7, "parent": 2, "tid": 1,
           "inputs": [[1, 2, 0, 3392, 4, "cuda:0"], 150, 9, 0, "all_to_allv", [96, 224, 288, 1664, 592, 96, 192, 240], [96, 96, 96, 96, 96, 96, 96, 96]],
           "input_shapes": [[3392], [], [], [], [], [[], [], [], [], [], [], [], []], [[], [], [], [], [], [], [], []]],
           "input_types": ["Tensor(int)", "Int", "Int", "Int", "String", "GenericList[Int,Int,Int,Int,Int,Int,Int,Int]", "GenericList[Int,Int,Int,Int,Int,Int,Int,Int]"],
           "outputs": [[3, 4, 0, 768, 4, "cuda:0"]], "output_shapes": [[768]], "output_types": ["Tensor(int)"]},
          {"name": "record_param_comms", "id": 11, "rf_id": 8, "parent": 2, "tid": 1,
           "inputs": [[[5, 6, 0, 112, 4, "cuda:0"]], 151, 9, 0, "allreduce", [], []],
           "input_shapes": [[[112]], [], [], [], [], [], []],
           "input_types": ["GenericList[Tensor(c10::BFloat16)]", "Int", "Int", "Int", "String", "GenericList[]", "GenericList[]"],
           "outputs": [], "output_shapes": [], "output_types": []},
          {"name": "record_param_comms", "id": 12, "rf_id": 9, "parent": 2, "tid": 1,
           "inputs": [151, 0, 0, "wait", [], []], "input_shapes": [[], [], [], [], [], []],
           "input_types": ["Int", "Int", "Int", "String", "GenericList[]", "GenericList[]"],
           "outputs": [], "output_shapes": [], "output_types": []},
          {"name": "nccl:all_to_all", "id": 13, "rf_id": 10, "parent": 10, "tid": 1,
           "inputs": [[1, 2, 0, 24, 8, "cuda:0"]], "input_shapes": [[24]], "input_types": ["Tensor(long int)"],
           "outputs": [], "output_shapes": [], "output_types": []}
        ]})ET";
        ExecutionTrace et = parseExecutionTrace(text, "mem.json");
        QCOMPARE(et.schema, std::string("1.0.1"));
        QCOMPARE(et.nodes.size(), std::size_t(5));
        QVERIFY(et.nodes[0].isRoot());
        QVERIFY(!et.findRfId(0)); // roots are no record functions
        const EtNode* a2a = et.findRfId(7);
        QVERIFY(a2a);
        const EtCollective& c = a2a->collective;
        QVERIFY(c.valid);
        QCOMPARE(c.type, CollectiveType::AllToAll);
        QCOMPARE(c.name, std::string("all_to_allv"));
        QCOMPARE(c.inNelems, std::int64_t(3392));
        QCOMPARE(c.outNelems, std::int64_t(768));
        QCOMPARE(c.dtype, std::string("Int"));
        QCOMPARE(c.groupSize, 8);
        QCOMPARE(c.inSplits.size(), std::size_t(8));
        QCOMPARE(a2a->inputs[0].tensors[0].shape, std::vector<std::int64_t>{3392});
        const EtCollective& ar = et.findRfId(8)->collective;
        QVERIFY(ar.valid);
        QCOMPARE(ar.type, CollectiveType::AllReduce);
        QCOMPARE(ar.inNelems, std::int64_t(112));
        QCOMPARE(ar.outNelems, std::int64_t(112));
        QCOMPARE(ar.dtype, std::string("BFloat16"));
        QVERIFY(!et.findRfId(9)->collective.valid); // "wait" moves no data
        const EtCollective& nc = et.findRfId(10)->collective;
        QVERIFY(nc.valid);
        QCOMPARE(nc.priority, 1);
        QCOMPARE(nc.dtype, std::string("Long"));
        QCOMPARE(dtypeSize(nc.dtype), 8);
        QCOMPARE(et.collectiveCount(), std::size_t(2));
    }

    void dtypeNames() {
        QCOMPARE(etDtypeName("float", 4), std::string("Float"));
        QCOMPARE(etDtypeName("long int", 8), std::string("Long"));
        QCOMPARE(etDtypeName("c10::Half", 2), std::string("Half"));
        QCOMPARE(etDtypeName("unsigned char", 1), std::string("Byte"));
        QCOMPARE(etDtypeName("SomethingNew", 2), std::string("Short")); // from the item size
        QCOMPARE(etDtypeName("SomethingNew", 0), std::string());
    }

    void rankFromFileNames() {
        QCOMPARE(rankFromEtFileName("/x/dlrm_eg_3.json.gz"), 3);
        QCOMPARE(rankFromEtFileName("et/rank-5.json"), 5);
        QCOMPARE(rankFromEtFileName("worker12_et.json"), 12);
        QCOMPARE(rankFromEtFileName("et/RANK-7.json"), 7); // the key in any case (ASCII)
        QCOMPARE(rankFromEtFileName("Worker3_et.json"), 3);
        QCOMPARE(rankFromEtFileName("a100-simple-add-small.et.json.gz"), -1);
        QCOMPARE(rankFromEtFileName("trace.json"), -1);
    }

    void badInputIsOneLineLoadError() {
        const std::pair<const char*, const char*> cases[] = {
            {"", "invalid JSON"},
            {"{\"nodes\": [", "invalid JSON"},
            {"[1, 2]", "no \"nodes\" array"},
            {"{\"nodes\": 5}", "no \"nodes\" array"},
            {"{\"nodes\": []}", "no nodes"},
            {"{\"nodes\": [3]}", "not an object"},
        };
        for (const auto& [text, what] : cases) {
            QString msg = loadErrorOf(text, "bad.json");
            QVERIFY2(msg.startsWith("bad.json: "), qPrintable(msg));
            QVERIFY2(msg.contains(what), qPrintable(msg));
            QVERIFY(!msg.contains('\n'));
        }
        // Wrong value types are ignored, not fatal.
        ExecutionTrace et = parseExecutionTrace(
            R"ET({"nodes": [{"name": 5, "id": "x", "rf_id": [1], "inputs": {"values": 3}, "input_types": 7,
                          "outputs": [[1, 2]], "output_types": ["Tensor(float)"]
},
                         {"name": "record_param_comms", "rf_id": 4, "inputs": [[1], "allreduce"],
                          "input_types": ["Tensor(float)", "String"]}]
})ET",
            "odd.json");
        QCOMPARE(et.nodes.size(), std::size_t(2));
        QVERIFY(!et.nodes[1].collective.valid);
        try {
            loadExecutionTrace("/nonexistent/et.json");
            QFAIL("no error");
        } catch (const LoadError& e) {
            QVERIFY(QString(e.what()).startsWith("/nonexistent/et.json: "));
        }
    }

    // DLRM rank 0: the Kineto trace has no collective metadata; its 8 collectives get their sizes
    // from dlrm_eg_0 (values from python on the ET: record_param_comms in rf_id order).
    void dlrmRank0Sizes() {
        SL_REQUIRE_TRACES();
        Rank rank = loadKinetoFile(dlrmKineto(0));
        for (const auto& c : rank.collectives)
            QCOMPARE(c.bytes(rank.strings), std::int64_t(-1));
        ExecutionTrace et = loadExecutionTrace(dlrmEt(0));
        QCOMPARE(et.schema, std::string("1.0.1"));
        QCOMPARE(et.nodes.size(), std::size_t(1675));
        QCOMPARE(et.collectiveCount(), std::size_t(8));
        EtLinkStats st = attachExecutionTrace(rank, et);
        // "Ev Idx" is not the rf_id in this trace: linked by per-thread order. Python: ET threads
        // 1 / 2 hold 988 / 684 record functions, equal by name to Kineto threads 59811 (989 ops,
        // one more: ProfilerStep#10) / 59976 (684).
        QCOMPARE(st.method, std::string("order"));
        QCOMPARE(st.kinetoOps, std::int64_t(1673));
        QCOMPARE(st.etOps, std::int64_t(1672));
        QCOMPARE(st.linkedOps, std::int64_t(1672));
        QCOMPARE(st.collectives, 8);
        QCOMPARE(st.filled, 8);
        QCOMPARE(st.unmatched, 0);
        QVERIFY(st.warnings.empty());
        struct Want {
            CollectiveType type;
            std::int64_t in, out;
            const char* dtype;
        };
        const Want want[] = {
            {CollectiveType::AllToAll, 6144, 6144, "Float"},
            {CollectiveType::AllToAll, 24, 24, "Long"},
            {CollectiveType::AllToAll, 384, 384, "Int"},
            {CollectiveType::AllToAll, 3392, 768, "Int"},
            {CollectiveType::AllReduce, 394241, 394241, "Float"},
            {CollectiveType::AllToAll, 6144, 6144, "Float"},
            {CollectiveType::AllReduce, 112, 112, "Float"},
            {CollectiveType::AllReduce, 226960, 226960, "Float"},
        };
        auto colls = byStart(rank);
        QCOMPARE(colls.size(), std::size_t(8));
        for (std::size_t k = 0; k < 8; ++k) {
            QCOMPARE(colls[k]->type, want[k].type);
            QCOMPARE(colls[k]->inNelems, want[k].in);
            QCOMPARE(colls[k]->outNelems, want[k].out);
            QCOMPARE(std::string(rank.strings.str(colls[k]->dtype)), std::string(want[k].dtype));
            QVERIFY(!colls[k]->hasMetadata);
        }
        QCOMPARE(colls[4]->bytes(rank.strings), std::int64_t(394241 * 4));
        QCOMPARE(colls[1]->bytes(rank.strings), std::int64_t(24 * 8));
        QCOMPARE(colls[0]->groupSize, 8); // all_to_allv: 8 split sizes
    }

    // all_to_allv splits differ per rank (python: rank 3 receives 13312 ints in the 4th
    // collective, rank 0 768); harmonizing gives every member the group's largest counts.
    void dlrmSetHarmonized() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        QCOMPARE(set.ranks.size(), std::size_t(8));
        const std::int64_t out4[] = {768, 1792, 2304, 13312, 4736, 768, 1536, 1920};
        for (auto& rank : set.ranks) {
            EtLinkStats st = attachExecutionTrace(rank, loadExecutionTrace(dlrmEt(rank.rank)));
            QCOMPARE(st.filled, 8);
            QCOMPARE(st.unmatched, 0);
            QCOMPARE(byStart(rank)[3]->outNelems, out4[rank.rank]);
            QCOMPARE(byStart(rank)[3]->inNelems, std::int64_t(3392));
        }
        Warnings warnings;
        QCOMPARE(harmonizeAllToAllSizes(set, &warnings), 7); // every rank but rank 3
        QVERIFY(warnings.empty());
        for (const auto& rank : set.ranks) {
            QCOMPARE(byStart(rank)[3]->outNelems, std::int64_t(13312));
            QCOMPARE(byStart(rank)[3]->bytes(rank.strings), std::int64_t(13312 * 4));
            QCOMPARE(byStart(rank)[0]->bytes(rank.strings), std::int64_t(6144 * 4));
        }
    }

    // et-pairs: a100-simple-add-small (ET and Kineto of one run, no collectives). Python: the 36 ET
    // record functions (rf_id 1..36) equal the 36 Kineto ops in Ev Idx order (Ev Idx = rf_id - 1).
    void etPairA100Links() {
        SL_REQUIRE_TRACES();
        Rank rank = loadKinetoFile(sltest::tracePath("et-pairs/a100-simple-add-small.kineto.json.gz"));
        ExecutionTrace et =
            loadExecutionTrace(sltest::tracePath("et-pairs/a100-simple-add-small.et.json.gz"));
        QCOMPARE(et.nodes.size(), std::size_t(38));
        EtLinkStats st;
        EtOpLinks links = linkExecutionTraceOps(rank, et, &st);
        QCOMPARE(st.method, std::string("order"));
        QCOMPARE(st.kinetoOps, std::int64_t(36));
        QCOMPARE(st.etOps, std::int64_t(36));
        QCOMPARE(st.linkedOps, std::int64_t(36));
        for (const auto& [packed, idx] : links) {
            EventRef r = EventRef::unpack(packed);
            QCOMPARE(std::string(rank.name(r)), et.nodes[idx].name);
            std::string_view args = rank.args(r);
            auto p = args.find("\"Ev Idx\"");
            QVERIFY(p != std::string_view::npos);
            std::int64_t ev = std::stoll(std::string(args.substr(args.find(':', p) + 1, 12)));
            QCOMPARE(ev, et.nodes[idx].rfId - 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestExecutionTrace)
#include "test_ExecutionTrace.moc"
