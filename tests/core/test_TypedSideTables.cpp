// Typed side tables on the rank (docs/Loader.md, "Typed side tables"): the Kineto loader fills each
// GPU kernel's launch configuration once (Rank::kernelLaunches, from "grid" and "blocks per SM"),
// whole file, in pieces and from bytes in memory alike; an op's shapes have one reader
// (Rank::opShapes: its own "Input Dims", else those an attached execution trace gave it).
#include "TestSupport.h"

#include "io/EtLinker.h"
#include "io/ExecutionTrace.h"
#include "io/FileReader.h"
#include "io/KinetoLoader.h"
#include "trace/OpShapes.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>

using namespace sl;

namespace {

// Stream 7: kernels written out of start order (the loader sorts them, the table must follow),
// one with grid and blocks per SM, one with a grid only, one with neither, and a copy. Stream 8:
// one kernel without launch configuration (its table stays empty). Enough padding events on the
// CPU thread for a load in several small pieces.
std::string launchTrace() {
    std::string text =
        R"({"traceEvents":[)"
        R"({"ph":"X","cat":"kernel","name":"k_grid_only","pid":0,"tid":7,"ts":300,"dur":10,)"
        R"("args":{"correlation":2,"stream":7,"device":0,"grid":[216, 1, 1],"block":[128,1,1]}},)"
        R"({"ph":"X","cat":"kernel","name":"k_full","pid":0,"tid":7,"ts":100,"dur":10,)"
        R"("args":{"correlation":1,"stream":7,"device":0,"grid":[4, 2, 3],"blocks per SM":0.5}},)"
        R"({"ph":"X","cat":"kernel","name":"k_none","pid":0,"tid":7,"ts":500,"dur":10,)"
        R"("args":{"correlation":3,"stream":7,"device":0}},)"
        R"({"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":700,"dur":10,)"
        R"("args":{"correlation":4,"stream":7,"device":0,"bytes":1024}},)"
        R"({"ph":"X","cat":"kernel","name":"k_other_stream","pid":0,"tid":8,"ts":200,"dur":10,)"
        R"("args":{"correlation":5,"stream":8,"device":0}})";
    for (int i = 0; i < 400; ++i)
        text += R"(,{"ph":"X","cat":"cpu_op","name":"aten::pad","pid":1,"tid":1,"ts":)" +
                std::to_string(1000 + 10 * i) + R"(,"dur":5,"args":{"External id":)" + std::to_string(i) +
                "}}";
    return text + "]}";
}

EventRef find(const Rank& rank, std::string_view name) {
    for (std::uint32_t t = 0; t < rank.tracks.size(); ++t)
        for (std::uint32_t i = 0; i < rank.tracks[t].events.size(); ++i)
            if (rank.name({t, i}) == name) return {t, i};
    qFatal("no event %s", std::string(name).c_str());
}

void checkLaunches(const Rank& rank) {
    const KernelLaunch* full = rank.kernelLaunch(find(rank, "k_full"));
    QVERIFY(full);
    QCOMPARE(full->gridBlocks, 24.0f);
    QCOMPARE(full->blocksPerSm, 0.5f);
    const KernelLaunch* gridOnly = rank.kernelLaunch(find(rank, "k_grid_only"));
    QVERIFY(gridOnly);
    QCOMPARE(gridOnly->gridBlocks, 216.0f);
    QCOMPARE(gridOnly->blocksPerSm, -1.0f);
    // The same stream, nothing recorded: an entry of the stream's table that says so.
    const KernelLaunch* none = rank.kernelLaunch(find(rank, "k_none"));
    QVERIFY(none);
    QCOMPARE(none->gridBlocks, -1.0f);
    QCOMPARE(none->blocksPerSm, -1.0f);
    QCOMPARE(rank.kernelLaunch(find(rank, "Memcpy HtoD"))->gridBlocks, -1.0f);
    // A stream without any and a CPU thread have no table.
    QVERIFY(!rank.kernelLaunch(find(rank, "k_other_stream")));
    QVERIFY(!rank.kernelLaunch(find(rank, "aten::pad")));
    QCOMPARE(rank.kernelLaunches.size(), rank.tracks.size());
}

// aten::mm recorded with shapes; aten::cat with a tensor list (nested dims) and a scalar;
// aten::add without shapes (record function id 6 links it to the ET below).
const char* kShapesTrace = R"json({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":50,"args":{"Input Dims":[[64, 32], [32, 128]],"Input type":["float", "float"],"Concrete Inputs":["", ""]}},
{"ph":"X","cat":"cpu_op","name":"aten::cat","pid":1,"tid":1,"ts":60,"dur":10,"args":{"Input Dims":[[[2, 3], [2, 3]], []],"Input type":["TensorList", "Scalar"],"Concrete Inputs":["", "0"]}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":80,"dur":20,"args":{"Record function id":6}}
]})json";

const char* kShapesEt = R"json({"schema":"1.0.1","pid":1,"nodes":[
{"name":"[pytorch|profiler|execution_graph|thread]","id":1,"rf_id":0,"parent":1,"tid":1,"inputs":[],"input_shapes":[],"input_types":[],"outputs":[],"output_shapes":[],"output_types":[]},
{"name":"aten::add","id":3,"rf_id":6,"parent":1,"tid":1,
 "inputs":[[20,21,0,65536,4,"cuda:0"],[22,23,0,65536,4,"cuda:0"],1],"input_shapes":[[256,256],[256,256],[]],"input_types":["Tensor(float)","Tensor(float)","Int"],
 "outputs":[[24,25,0,65536,4,"cuda:0"]],"output_shapes":[[256,256]],"output_types":["Tensor(float)"]}
]})json";

// A kernel's launch configuration computed from its full args with a JSON parser, as the table
// must hold it: the product of "grid", the "blocks per SM" value; -1 for what is absent.
KernelLaunch expectedLaunch(std::string_view args) {
    KernelLaunch out;
    if (args.empty()) return out;
    const nlohmann::json j = nlohmann::json::parse(args);
    if (j.contains("grid")) {
        double blocks = 1;
        for (const auto& x : j["grid"])
            blocks *= x.get<double>();
        out.gridBlocks = KernelLaunch::atMost(blocks);
    }
    if (j.contains("blocks per SM")) out.blocksPerSm = KernelLaunch::atMost(j["blocks per SM"].get<double>());
    return out;
}

} // namespace

class TestTypedSideTables : public QObject {
    Q_OBJECT
private slots:
    void kernelLaunchesFromBytes() {
        const Rank rank = loadKinetoBytes(launchTrace(), "launches.json");
        QVERIFY(!rank.argsFile); // every args object in memory
        checkLaunches(rank);
    }

    void kernelLaunchesFromAFileWholeAndInPieces() {
        QTemporaryDir dir;
        const std::string path =
            sltest::writeFile(dir, "launches.json", QByteArray::fromStdString(launchTrace()));
        for (std::int64_t chunk : {std::int64_t{1} << 40, std::int64_t{4096}}) {
            LoadOptions options;
            options.chunkBytes = chunk;
            LoadReport report;
            options.report = &report;
            const Rank rank = loadKinetoFile(path, 0, options);
            QVERIFY(rank.argsFile); // lazy args: the table comes from the kept fields
            QCOMPARE(report.pieces > 1, chunk == 4096);
            checkLaunches(rank);
        }
    }

    void kernelLaunchesOfARealTraceMatchItsArgs() {
        SL_REQUIRE_TRACES();
        // v100-rank1of2: 9876 kernels with "grid" and "blocks per SM". Every kernel's entry equals
        // what a JSON parser reads from its full args, loaded lazily from the file (kept fields)
        // and eagerly from the same bytes in memory (whole args).
        const std::string gz = sltest::tracePath("single-rank/v100-rank1of2.json.gz");
        const TraceBuffer inflated = readTraceFile(gz);
        const Rank eager = loadKinetoBytes(std::string_view(inflated.data(), inflated.size()), gz);
        const Rank lazy = loadKinetoFile(gz);
        QVERIFY(lazy.argsFile);
        QCOMPARE(lazy.tracks.size(), eager.tracks.size());
        int withGrid = 0, withPerSm = 0;
        for (std::uint32_t t = 0; t < eager.tracks.size(); ++t) {
            const auto& ev = eager.tracks[t].events;
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                if (ev.kind[i] != EventKind::Kernel) continue;
                const KernelLaunch want = expectedLaunch(eager.args({t, i}));
                for (const Rank* r : {&eager, &lazy}) {
                    const KernelLaunch* got = r->kernelLaunch({t, i});
                    const KernelLaunch have = got ? *got : KernelLaunch{};
                    if (have.gridBlocks != want.gridBlocks || have.blocksPerSm != want.blocksPerSm)
                        qFatal("kernel %u of track %u: %g / %g, expected %g / %g", i, t,
                               double(have.gridBlocks), double(have.blocksPerSm), double(want.gridBlocks),
                               double(want.blocksPerSm));
                }
                withGrid += want.gridBlocks >= 0;
                withPerSm += want.blocksPerSm >= 0;
            }
        }
        QCOMPARE(withGrid, 9876);
        QCOMPARE(withPerSm, 9876);
    }

    void launchValuesRoundDown() {
        // Stored as floats no larger than the value written: comparisons with whole numbers hold.
        QCOMPARE(KernelLaunch::atMost(0.5), 0.5f);
        QVERIFY(KernelLaunch::atMost(0.99999999) < 1.0f);
        QCOMPARE(KernelLaunch::atMost(1.0), 1.0f);
        QVERIFY(double(KernelLaunch::atMost(0.1)) <= 0.1);
        QVERIFY(double(KernelLaunch::atMost(16777217.0)) >= 108);
        QVERIFY(KernelLaunch::atMost(-1e-50) < 0.0f);
        QCOMPARE(KernelLaunch::atMost(1e300), std::numeric_limits<float>::max());
    }

    void opShapesFromTheArgs() {
        const Rank rank = loadKinetoBytes(kShapesTrace, "shapes.json");
        bool fromEt = true;
        const auto mm = rank.opShapes(find(rank, "aten::mm"), &fromEt);
        QVERIFY(mm);
        QVERIFY(!fromEt);
        QCOMPARE(mm->dims, (std::vector<std::vector<std::int64_t>>{{64, 32}, {32, 128}}));
        QCOMPARE(mm->types, (std::vector<std::string>{"float", "float"}));
        QCOMPARE(mm->concrete, (std::vector<std::string>{"", ""}));
        QCOMPARE(mm->tensorBytes(0), 64.0 * 32 * 4);
        QCOMPARE(mm->dimsJson, std::string("[[64,32],[32,128]]"));
        QCOMPARE(mm->typesJson, std::string(R"(["float","float"])"));
        // A tensor list: no dims of its own, its nested lists kept in the JSON for writers.
        const auto cat = rank.opShapes(find(rank, "aten::cat"));
        QVERIFY(cat);
        QCOMPARE(cat->dims, (std::vector<std::vector<std::int64_t>>{{}, {}}));
        QCOMPARE(cat->dimsJson, std::string("[[[2,3],[2,3]],[]]"));
        QVERIFY(!cat->isTensor(0));
        // The text as written, for comparing without parsing.
        QCOMPARE(inputDimsText(rank.args(find(rank, "aten::cat"))),
                 std::string_view("[[[2, 3], [2, 3]], []]"));
        QVERIFY(!hasInputDims(rank.args(find(rank, "aten::add"))));
        QVERIFY(!rank.opShapes(find(rank, "aten::add")));
    }

    void opShapesFromAnAttachedExecutionTrace() {
        Rank rank = loadKinetoBytes(kShapesTrace, "shapes.json");
        const EtLinkStats st = attachExecutionTrace(rank, parseExecutionTrace(kShapesEt, "hand.et.json"));
        QCOMPARE(st.opsShaped, 1);
        bool fromEt = false;
        const auto add = rank.opShapes(find(rank, "aten::add"), &fromEt);
        QVERIFY(add);
        QVERIFY(fromEt);
        QCOMPARE(add->dims, (std::vector<std::vector<std::int64_t>>{{256, 256}, {256, 256}, {}}));
        QCOMPARE(add->types, (std::vector<std::string>{"float", "float", "Scalar"}));
        QCOMPARE(add->concrete, (std::vector<std::string>{"", "", "1"}));
        QCOMPARE(add->dimsJson, std::string("[[256,256],[256,256],[]]"));
        // An op with its own shapes keeps them.
        QVERIFY(rank.opShapes(find(rank, "aten::mm"), &fromEt));
        QVERIFY(!fromEt);
    }
};

QTEST_GUILESS_MAIN(TestTypedSideTables)
#include "test_TypedSideTables.moc"
