// rocprofv3 JSON (io/rocprof): the real file of tests/data/formats (AMD-AGI/TraceLens, one process of
// an 8 x MI350X run, GPU side only) counted against its own records read here with nlohmann::json,
// not through the loader; a hand-made file with HIP API records for the launch links; hostile inputs.
#include "FormatsTestSupport.h"
#include "TestSupport.h"

#include "io/LoadError.h"
#include "io/rocprof/RocprofLoader.h"
#include "trace/RuntimeApi.h"

#include <nlohmann/json.hpp>

#include <map>

using namespace sl;

namespace {

using sltest::formatsFile;

bool hasWarning(const Rank& r, Warn w) {
    return r.warnings.has(w);
}

// A process with one GPU, HIP calls on one thread: two kernel launches, an async copy, a marker range.
nlohmann::json handMadeProcess() {
    using nlohmann::json;
    json strings = {{"buffer_records", json::array()},
                    {"marker_api", json::array({{{"key", 9}, {"value", "train_step"}}})}};
    auto kind = [&](const char* name, std::vector<std::string> ops) {
        strings["buffer_records"].push_back({{"kind", name}, {"operations", ops}});
    };
    kind("NONE", {});
    kind("HIP_RUNTIME_API", {"hipApiName", "hipLaunchKernel", "hipMemcpyAsync", "hipStreamSynchronize"});
    kind("MARKER_CORE_API", {"roctxMarkA", "roctxRangePushA", "roctxRangePop"});
    kind("MEMORY_COPY", {"MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_HOST", "MEMORY_COPY_HOST_TO_DEVICE"});
    kind("KERNEL_DISPATCH", {"KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE"});
    auto corr = [](int c) { return json{{"internal", c}, {"external", 0}}; };
    auto hip = [&](int op, int c, long s, long e) {
        return json{{"size", 64},
                    {"kind", 1},
                    {"operation", op},
                    {"thread_id", 77},
                    {"correlation_id", corr(c)},
                    {"start_timestamp", s},
                    {"end_timestamp", e}};
    };
    auto dispatch = [&](int c, int kernel, long s, long e) {
        return json{{"kind", 4},
                    {"operation", 2},
                    {"thread_id", 77},
                    {"correlation_id", corr(c)},
                    {"start_timestamp", s},
                    {"end_timestamp", e},
                    {"dispatch_info",
                     {{"agent_id", {{"handle", 11}}},
                      {"queue_id", {{"handle", 3}}},
                      {"kernel_id", kernel},
                      {"dispatch_id", c},
                      {"workgroup_size", {{"x", 256}, {"y", 1}, {"z", 1}}},
                      {"grid_size", {{"x", 1024}, {"y", 2}, {"z", 1}}}}}};
    };
    json records = {
        {"kernel_dispatch", {dispatch(1, 5, 1'000'100, 1'050'000), dispatch(2, 6, 1'050'500, 1'090'000)}},
        {"memory_copy",
         {{{"kind", 3},
           {"operation", 2},
           {"thread_id", 77},
           {"correlation_id", corr(3)},
           {"start_timestamp", 1'090'500},
           {"end_timestamp", 1'095'000},
           {"src_agent_id", {{"handle", 10}}},
           {"dst_agent_id", {{"handle", 11}}},
           {"bytes", 4096}}}},
        {"hip_api",
         {hip(1, 1, 1'000'000, 1'000'020), hip(1, 2, 1'000'030, 1'000'045), hip(2, 3, 1'000'050, 1'000'070),
          hip(3, 4, 1'000'080, 1'095'100)}},
        {"marker_api",
         {{{"kind", 2},
           {"operation", 1},
           {"thread_id", 77},
           {"correlation_id", corr(9)},
           {"start_timestamp", 999'000},
           {"end_timestamp", 1'095'200}}}}};
    return json{{"metadata", {{"pid", 4242}}},
                {"agents",
                 {{{"id", {{"handle", 10}}}, {"type", 1}, {"name", "CPU"}},
                  {{"id", {{"handle", 11}}},
                   {"type", 2},
                   {"logical_node_type_id", 0},
                   {"product_name", "AMD Instinct MI300X"},
                   {"cu_count", 304}}}},
                {"strings", strings},
                {"kernel_symbols",
                 {{{"kernel_id", 5}, {"formatted_kernel_name", "gemm_kernel"}},
                  {{"kernel_id", 6},
                   {"formatted_kernel_name",
                    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"}}}},
                {"buffer_records", records}};
}

std::string handMadeFile() {
    return nlohmann::json{{"rocprofiler-sdk-tool", {handMadeProcess()}}}.dump();
}

} // namespace

class TestRocprofLoader : public QObject {
    Q_OBJECT
private slots:
    void detectsByContent() {
        QVERIFY(looksLikeRocprofJson(R"({"rocprofiler-sdk-tool":[)"));
        QVERIFY(looksLikeRocprofJson(" \n{ \"rocprofiler-sdk-tool\" : ["));
        QVERIFY(!looksLikeRocprofJson(R"({"traceEvents":[)"));
        QVERIFY(!looksLikeRocprofJson(R"({"schemaVersion":1,"rocprofiler-sdk-tool":[)"));
        QVERIFY(!looksLikeRocprofJson(""));
        QVERIFY(isRocprofFile(formatsFile("rocprof/908_results.json.gz")));
        QVERIFY(!isRocprofFile(sltest::samplePath("02-dp4/rank-0.json.gz")));
    }

    // Counts of the real file against its records read independently.
    void realFileCounts() {
        const std::string path = formatsFile("rocprof/908_results.json.gz");
        const nlohmann::json doc = nlohmann::json::parse(sltest::readWholeFile(path));
        const auto& process = doc["rocprofiler-sdk-tool"][0];
        std::map<std::int64_t, std::string> symbols;
        for (const auto& s : process["kernel_symbols"])
            symbols[s["kernel_id"].get<std::int64_t>()] = s["formatted_kernel_name"].get<std::string>();
        std::map<std::int64_t, std::int64_t> perQueue;
        std::int64_t rccl = 0;
        const auto& dispatches = process["buffer_records"]["kernel_dispatch"];
        for (const auto& d : dispatches) {
            ++perQueue[d["dispatch_info"]["queue_id"]["handle"].get<std::int64_t>()];
            const std::string& name = symbols[d["dispatch_info"]["kernel_id"].get<std::int64_t>()];
            if (name.starts_with("ncclDevKernel") || name.starts_with("ncclKernel")) ++rccl;
        }
        QCOMPARE(static_cast<std::int64_t>(dispatches.size()), 43915); // as the issue states
        QCOMPARE(rccl, 1310);

        const std::vector<Rank> ranks = loadRocprofFile(path);
        QCOMPARE(ranks.size(), std::size_t{1});
        const Rank& r = ranks.front();
        QCOMPARE(r.backend, std::string("rocprofv3"));
        QCOMPARE(r.eventCount(), static_cast<std::int64_t>(dispatches.size()));
        QCOMPARE(r.eventsByKind[static_cast<std::size_t>(EventKind::Kernel)],
                 static_cast<std::int64_t>(dispatches.size()));
        QCOMPARE(static_cast<std::int64_t>(r.collectives.size()), rccl);
        std::map<std::int64_t, std::int64_t> loadedPerQueue;
        for (const auto& t : r.tracks) {
            QVERIFY(t.isGpu()); // no host records: no CPU thread
            QCOMPARE(t.device(), std::int64_t{0});
            loadedPerQueue[t.stream()] = static_cast<std::int64_t>(t.events.size());
        }
        QVERIFY(loadedPerQueue == perQueue);
        QCOMPARE(r.deviceName(), std::string("AMD Instinct MI350X"));
        // The first dispatch keeps its time, name and correlation.
        const auto& first = dispatches[0];
        const auto queue = first["dispatch_info"]["queue_id"]["handle"].get<std::int64_t>();
        for (const auto& t : r.tracks) {
            if (t.stream() != queue) continue;
            const TimeNs start = first["start_timestamp"].get<TimeNs>();
            QCOMPARE(t.events.start.front(), start);
            QCOMPARE(t.events.end(0), first["end_timestamp"].get<TimeNs>());
            QCOMPARE(t.events.correlation.front(), first["correlation_id"]["internal"].get<std::int64_t>());
            QCOMPARE(std::string(r.strings.str(t.events.name.front())),
                     symbols[first["dispatch_info"]["kernel_id"].get<std::int64_t>()]);
        }
        QCOMPARE(r.gpuOpsWithoutLaunch, static_cast<std::int64_t>(dispatches.size()));
        QVERIFY(hasWarning(r, Warn::GpuOnlyRank));
    }

    // HIP API records: every GPU op links to the call with its correlation id, and back.
    void launchLinksFollowCorrelationIds() {
        const std::vector<Rank> ranks = loadRocprofBytes(handMadeFile(), "hand-made.json");
        QCOMPARE(ranks.size(), std::size_t{1});
        const Rank& r = ranks.front();
        QVERIFY(!hasWarning(r, Warn::GpuOnlyRank));
        QCOMPARE(r.gpuOpsWithoutLaunch, std::int64_t{0});
        int linked = 0;
        for (std::uint32_t ti = 0; ti < r.tracks.size(); ++ti) {
            const Track& t = r.tracks[ti];
            if (!t.isGpu()) continue;
            for (std::uint32_t i = 0; i < t.events.size(); ++i) {
                QVERIFY(t.events.link[i] != kNoLink);
                const EventRef call = EventRef::unpack(t.events.link[i]);
                const Track& ct = r.tracks[call.track];
                QCOMPARE(ct.events.correlation[call.index], t.events.correlation[i]);
                QCOMPARE(ct.events.link[call.index], (EventRef{ti, i}.packed()));
                QVERIFY(isRuntimeCall(ct.events.kind[call.index]));
                ++linked;
            }
        }
        QCOMPARE(linked, 3);
        QCOMPARE(r.eventsByKind[static_cast<std::size_t>(EventKind::Runtime)], std::int64_t{4});
        QCOMPARE(r.eventsByKind[static_cast<std::size_t>(EventKind::GpuMemcpy)], std::int64_t{1});
        QCOMPARE(r.eventsByKind[static_cast<std::size_t>(EventKind::UserAnnotation)], std::int64_t{1});
        QCOMPARE(r.collectives.size(), std::size_t{1});
        QCOMPARE(r.collectives.front().type, CollectiveType::AllReduce);
        // The marker's message, the grid in blocks (HSA gives work-items), the copy's bytes.
        bool marker = false, grid = false, bytes = false;
        for (std::uint32_t ti = 0; ti < r.tracks.size(); ++ti)
            for (std::uint32_t i = 0; i < r.tracks[ti].events.size(); ++i) {
                const EventRef ref{ti, i};
                marker = marker || r.name(ref) == "train_step";
                if (const KernelLaunch* k = r.kernelLaunch(ref); k && k->gridBlocks == 8.0f) grid = true;
                bytes = bytes || r.args(ref).find("\"bytes\":4096") != std::string_view::npos;
            }
        QVERIFY(marker);
        QVERIFY(grid);
        QVERIFY(bytes);
        QCOMPARE(r.devices.size(), std::size_t{1});
        QCOMPARE(r.devices.front().numSms, 304);
    }

    // Processes without GPU work are no rank; each process with some is one.
    void oneRankPerProcessWithGpuWork() {
        nlohmann::json idle = handMadeProcess();
        idle["buffer_records"]["kernel_dispatch"] = nlohmann::json::array();
        idle["buffer_records"]["memory_copy"] = nlohmann::json::array();
        const std::string text =
            nlohmann::json{{"rocprofiler-sdk-tool", {handMadeProcess(), idle, handMadeProcess()}}}.dump();
        const std::vector<Rank> ranks = loadRocprofBytes(text, "three-processes.json", 4);
        QCOMPARE(ranks.size(), std::size_t{2});
        QCOMPARE(ranks[0].rank, 4);
        QCOMPARE(ranks[1].rank, 5);
    }

    // Each hostile input: a LoadError of one line naming the file.
    void hostileInputs_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        const QByteArray good = QByteArray::fromStdString(handMadeFile());
        QTest::newRow("kineto json") << QByteArray(R"({"traceEvents":[]})") << "not rocprofv3 JSON";
        QTest::newRow("truncated") << good.left(good.size() / 2) << "invalid JSON";
        QTest::newRow("root not an array") << QByteArray(R"({"rocprofiler-sdk-tool":{}})") << "not an array";
        QTest::newRow("no gpu work") << QByteArray(R"({"rocprofiler-sdk-tool":[]})")
                                     << "no process with GPU work";
        nlohmann::json p = handMadeProcess();
        p["buffer_records"]["kernel_dispatch"][0].erase("end_timestamp");
        QTest::newRow("no end") << QByteArray::fromStdString(
                                       nlohmann::json{{"rocprofiler-sdk-tool", {p}}}.dump())
                                << "lacks start_timestamp / end_timestamp";
        p = handMadeProcess();
        p["buffer_records"]["kernel_dispatch"][0]["end_timestamp"] = 5;
        QTest::newRow("ends before start")
            << QByteArray::fromStdString(nlohmann::json{{"rocprofiler-sdk-tool", {p}}}.dump())
            << "ends before it starts";
        p = handMadeProcess();
        p["buffer_records"]["kernel_dispatch"][0]["dispatch_info"]["agent_id"]["handle"] = 99;
        QTest::newRow("unknown agent")
            << QByteArray::fromStdString(nlohmann::json{{"rocprofiler-sdk-tool", {p}}}.dump())
            << "names agent 99";
        p = handMadeProcess();
        p.erase("buffer_records");
        QTest::newRow("no records") << QByteArray::fromStdString(
                                           nlohmann::json{{"rocprofiler-sdk-tool", {p}}}.dump())
                                    << "no \"buffer_records\"";
    }
    void hostileInputs() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        sltest::verifyOneLineLoadError([&] { loadRocprofBytes(bytes.toStdString(), "hostile.json"); },
                                       "hostile.json", says);
    }
};

QTEST_GUILESS_MAIN(TestRocprofLoader)
#include "test_RocprofLoader.moc"
