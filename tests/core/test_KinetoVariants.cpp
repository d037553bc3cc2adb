// Kineto loader: the variants of the format (CUDA and HIP runtime names, ROCm, newer CUDA, ids as
// strings, hex or null) on small hand-made files.
#include "TestSupport.h"

#include "KinetoTestSupport.h"

#include "io/FileReader.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "trace/RuntimeApi.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <tuple>

using namespace sl;

using namespace sltest;

class TestKinetoVariants : public QObject {
    Q_OBJECT

private slots:
    // Names of runtime / driver calls, CUDA and HIP alike (trace/RuntimeApi.h).
    void runtimeApiNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("api");
        QTest::addColumn<bool>("async");
        QTest::addColumn<bool>("hip");
        auto row = [](const char* name, const char* api, bool async, bool hip) {
            QTest::newRow(name) << name << api << async << hip;
        };
        for (const char* n :
             {"hipLaunchKernel", "hipExtLaunchKernel", "hipExtModuleLaunchKernel", "hipModuleLaunchKernel",
              "hipHccModuleLaunchKernel", "hipLaunchCooperativeKernel",
              "hipLaunchCooperativeKernelMultiDevice", "hipExtLaunchMultiKernelMultiDevice",
              "hipModuleLaunchCooperativeKernel", "hipLaunchKernelExC", "hipDrvLaunchKernelEx",
              "hipLaunchByPtr", "hipLaunchKernel_spt"})
            row(n, "kernel_launch", false, true);
        for (const char* n :
             {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchKernel_ptsz",
              "cudaLaunchCooperativeKernel", "cudaLaunch", "cuLaunchKernel", "cuLaunchKernelEx"})
            row(n, "kernel_launch", false, false);
        row("hipGraphLaunch", "graph_launch", false, true);
        row("cudaGraphLaunch", "graph_launch", false, false);
        row("cudaGraphLaunch_v10000", "graph_launch", false, false);
        row("cudaLaunchKernelExC_v11060", "kernel_launch", false, false);
        row("cudaStreamWaitEvent_v3020", "stream_wait_event", false, false);
        row("cudaStreamSynchronize_ptsz_v7000", "stream_synchronize", false, false);
        row("cudaMemcpyAsync_ptsz_v7000", "memcpy", true, false);
        row("cudaEventRecordWithFlags_v11010", "event_record", false, false);
        row("cuGraphLaunch", "graph_launch", false, false);
        for (const char* n : {"hipMemcpy", "hipMemcpyWithStream", "hipMemcpyDtoH", "hipMemcpyHtoD",
                              "hipMemcpy2D", "hipMemcpyPeer", "hipMemcpyToSymbol"})
            row(n, "memcpy", false, true);
        for (const char* n : {"hipMemcpyAsync", "hipMemcpyDtoHAsync", "hipMemcpyHtoDAsync",
                              "hipMemcpy2DAsync", "hipMemcpyPeerAsync", "hipMemcpyAsync_spt"})
            row(n, "memcpy", true, true);
        row("cudaMemcpy", "memcpy", false, false);
        row("cudaMemcpyAsync", "memcpy", true, false);
        row("cuMemcpyHtoDAsync_v2", "memcpy", true, false);
        for (const char* n : {"hipMemset", "hipMemsetD32", "hipMemsetD8"})
            row(n, "memset", false, true);
        for (const char* n : {"hipMemsetAsync", "hipMemsetD32Async", "hipMemset2DAsync"})
            row(n, "memset", true, true);
        row("cudaMemsetAsync", "memset", true, false);
        row("hipEventRecord", "event_record", false, true);
        row("hipEventRecordWithFlags", "event_record", false, true);
        row("cudaEventRecord", "event_record", false, false);
        row("hipStreamWaitEvent", "stream_wait_event", false, true);
        row("cudaStreamWaitEvent", "stream_wait_event", false, false);
        row("cuStreamWaitEvent", "stream_wait_event", false, false);
        row("hipDeviceSynchronize", "device_synchronize", false, true);
        row("hipCtxSynchronize", "device_synchronize", false, true);
        row("cudaDeviceSynchronize", "device_synchronize", false, false);
        row("cuCtxSynchronize", "device_synchronize", false, false);
        row("hipStreamSynchronize", "stream_synchronize", false, true);
        row("cudaStreamSynchronize", "stream_synchronize", false, false);
        row("hipEventSynchronize", "event_synchronize", false, true);
        row("cudaEventSynchronize", "event_synchronize", false, false);
        for (const char* n : {"hipMalloc", "hipFree", "hipGetDevice", "hipStreamCreate", "hipKernelNameRef",
                              "hipGraphInstantiate", "cudaLaunchHostFunc", "cudaMemPrefetchAsync",
                              "cudaGetDevice", "cudaStreamGetCaptureInfo_v2", "cudaStreamWaitEventX",
                              "cudaDeviceSynchronize_vx", "aten::mm", "cudaxyz", "hip", ""})
            row(n[0] ? n : "(empty)", "other", false, false);
    }
    void runtimeApiNames() {
        QFETCH(QString, name);
        QFETCH(QString, api);
        QFETCH(bool, async);
        QFETCH(bool, hip);
        std::string n = name == "(empty)" ? std::string() : name.toStdString();
        RuntimeApiInfo info = runtimeApiInfo(n);
        QCOMPARE(
            QString::fromUtf8(runtimeApiName(info.api).data(), qsizetype(runtimeApiName(info.api).size())),
            api);
        QCOMPARE(info.async, async);
        if (info.api != RuntimeApi::Other) QCOMPARE(info.hip, hip);
        QCOMPARE(launchesGpuWork(info.api),
                 api == "kernel_launch" || api == "graph_launch" || api == "memcpy" || api == "memset");
        QCOMPARE(waitsForGpu(info), api.endsWith("_synchronize") || (api == "memcpy" && !async));
    }

    // A ROCm trace as Kineto with roctracer writes it: HIP calls under "cuda_runtime" with the HIP
    // stream handle as a hex string, GPU work on (device, queue), ac2g flows, every launch API.
    void rocmRoctracerVariant() {
        QByteArray events =
            R"j({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":100,"dur":200},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipExtModuleLaunchKernel","pid":100,"tid":100,"ts":110,"dur":8,)j"
            R"j("args":{"kernel":"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32","cid":61,"correlation":5,"stream":"0x0","grid":[256,1,1],"block":[256,1,1],"shared memory":0}},)j"
            R"j({"ph":"s","cat":"ac2g","id":5,"pid":100,"tid":100,"ts":110,"name":"ac2g"},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":100,"tid":100,"ts":120,"dur":6,)j"
            R"j("args":{"kernel":"void at::native::vectorized_elementwise_kernel<4>","cid":36,"correlation":6,"stream":"0x55d1c4a3f2b0"}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipMemcpyAsync","pid":100,"tid":100,"ts":130,"dur":5,)j"
            R"j("args":{"stream":"0x55d1c4a3f2b0","cid":80,"correlation":7,"src":"0x7f0000001000","dst":"0x7ef000000000","size":"4096","kind":"1"}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipEventRecord","pid":100,"tid":100,"ts":140,"dur":2,"args":{"cid":20,"correlation":8}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipStreamWaitEvent","pid":100,"tid":100,"ts":145,"dur":2,"args":{"cid":21,"correlation":9}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipMemsetAsync","pid":100,"tid":100,"ts":150,"dur":3,"args":{"cid":90,"correlation":10}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipGraphLaunch","pid":100,"tid":100,"ts":160,"dur":9,"args":{"cid":95,"correlation":11}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipLaunchCooperativeKernel","pid":100,"tid":100,"ts":170,"dur":4,"args":{"cid":37,"correlation":12,"stream":"0x0"}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipModuleLaunchKernel","pid":100,"tid":100,"ts":175,"dur":4,"args":{"cid":38,"correlation":13,"stream":"0x0"}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipExtLaunchKernel","pid":100,"tid":100,"ts":180,"dur":4,"args":{"cid":39,"correlation":14,"stream":"0x0"}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipMemcpy","pid":100,"tid":100,"ts":185,"dur":40,"args":{"cid":79,"correlation":15}},)j"
            R"j({"ph":"X","cat":"cuda_runtime","name":"hipDeviceSynchronize","pid":100,"tid":100,"ts":230,"dur":30,"args":{"cid":40,"correlation":16}},)j"
            R"j({"ph":"X","cat":"kernel","name":"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32","pid":2,"tid":1,"ts":125,"dur":20,)j"
            R"j("args":{"device":2,"stream":1,"correlation":5,"kind":"Dispatch Kernel","grid":[256,1,1],"block":[256,1,1]}},)j"
            R"j({"ph":"f","cat":"ac2g","id":5,"pid":2,"tid":1,"ts":125,"name":"ac2g","bp":"e"},)j"
            R"j({"ph":"X","cat":"kernel","name":"void at::native::vectorized_elementwise_kernel<4>","pid":2,"tid":3,"ts":128,"dur":4,)j"
            R"j("args":{"device":2,"stream":3,"correlation":6,"kind":"Dispatch Kernel"}},)j"
            R"j({"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Host -> Device)","pid":2,"tid":3,"ts":136,"dur":3,)j"
            R"j("args":{"device":2,"stream":3,"correlation":7,"kind":"HtoD","bytes":4096}},)j"
            R"j({"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":2,"tid":3,"ts":155,"dur":1,)j"
            R"j("args":{"device":2,"stream":3,"correlation":10,"kind":"Device"}},)j"
            R"j({"ph":"X","cat":"kernel","name":"graph_kernel_a","pid":2,"tid":1,"ts":165,"dur":2,"args":{"device":2,"stream":1,"correlation":11}},)j"
            R"j({"ph":"X","cat":"kernel","name":"graph_kernel_b","pid":2,"tid":1,"ts":168,"dur":2,"args":{"device":2,"stream":1,"correlation":11}},)j"
            R"j({"ph":"X","cat":"kernel","name":"coop_kernel","pid":2,"tid":1,"ts":176,"dur":1,"args":{"device":2,"stream":1,"correlation":12}},)j"
            R"j({"ph":"X","cat":"kernel","name":"module_kernel","pid":2,"tid":1,"ts":180,"dur":1,"args":{"device":2,"stream":1,"correlation":13}},)j"
            R"j({"ph":"X","cat":"kernel","name":"ext_kernel","pid":2,"tid":1,"ts":185,"dur":1,"args":{"device":2,"stream":1,"correlation":14}},)j"
            R"j({"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Host)","pid":2,"tid":1,"ts":190,"dur":30,"args":{"device":2,"stream":1,"correlation":15}})j";
        Rank r = loadKinetoBytes(minimalTrace(events).toStdString(), "rocm-mi250.json");
        QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        QCOMPARE(r.eventsByKind[int(EventKind::Runtime)], 12);
        QCOMPARE(r.eventsByKind[int(EventKind::Kernel)], 7);
        QCOMPARE(r.eventsByKind[int(EventKind::GpuMemcpy)], 2);
        QCOMPARE(r.eventsByKind[int(EventKind::GpuMemset)], 1);
        QVERIFY(r.unknownCategories.empty());
        // GPU tracks keyed by (device, stream) from args.
        const Track* s1 = gpuTrack(r, 1);
        const Track* s3 = gpuTrack(r, 3);
        QVERIFY(s1 && s3);
        QCOMPARE(s1->device(), 2);
        QCOMPARE(s1->events.size(), std::size_t(7));
        QCOMPARE(s3->events.size(), std::size_t(3));
        // Every GPU op is linked to the HIP call that launched it, and that call is a launch API.
        struct Expect {
            const char* op;
            const char* call;
            RuntimeApi api;
        };
        const Expect expected[] = {
            {"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32", "hipExtModuleLaunchKernel", RuntimeApi::KernelLaunch},
            {"void at::native::vectorized_elementwise_kernel<4>", "hipLaunchKernel",
             RuntimeApi::KernelLaunch},
            {"Memcpy HtoD (Host -> Device)", "hipMemcpyAsync", RuntimeApi::Memcpy},
            {"Memset (Device)", "hipMemsetAsync", RuntimeApi::Memset},
            {"graph_kernel_a", "hipGraphLaunch", RuntimeApi::GraphLaunch},
            {"graph_kernel_b", "hipGraphLaunch", RuntimeApi::GraphLaunch},
            {"coop_kernel", "hipLaunchCooperativeKernel", RuntimeApi::KernelLaunch},
            {"module_kernel", "hipModuleLaunchKernel", RuntimeApi::KernelLaunch},
            {"ext_kernel", "hipExtLaunchKernel", RuntimeApi::KernelLaunch},
            {"Memcpy DtoH (Device -> Host)", "hipMemcpy", RuntimeApi::Memcpy},
        };
        for (const auto& e : expected) {
            auto [track, i] = gpuOp(r, e.op);
            QVERIFY2(track, e.op);
            auto launch = launchOf(r, *track, i);
            QVERIFY2(launch, e.op);
            QCOMPARE(launch->name, std::string_view(e.call));
            QVERIFY(isRuntimeCall(launch->kind));
            QCOMPARE(runtimeApi(launch->name), e.api);
        }
        QVERIFY(waitsForGpu(runtimeApiInfo("hipMemcpy")));
        QVERIFY(!waitsForGpu(runtimeApiInfo("hipMemcpyAsync")));
        // The HIP stream handle of a launch is kept in its args text, untouched.
        bool sawHandle = false;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
            for (std::uint32_t i = 0; i < r.tracks[t].events.size(); ++i)
                sawHandle = sawHandle || r.args({t, i}).find("0x55d1c4a3f2b0") != std::string_view::npos;
        QVERIFY(sawHandle);
    }

    // Kineto with rocprofiler-sdk: "device" / "stream" as numbers plus "hsa_queue", 64-bit stream
    // handles beyond int64, and ids written as strings by converters (decimal and hex).
    void rocmStringAndHexIds() {
        QByteArray events =
            R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":"0x10","tid":"7","ts":100,"dur":5,"args":{"correlation":"0x2a"}},)"
            R"({"ph":"X","cat":"kernel","name":"k_hex","pid":0,"tid":0,"ts":110,"dur":10,)"
            R"("args":{"device":"0","stream":"0x0","hsa_queue":139874,"correlation":"42"}},)"
            R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":16,"tid":7,"ts":130,"dur":5,"args":{"correlation":43}},)"
            R"({"ph":"X","cat":"kernel","name":"k_u64","pid":0,"tid":5,"ts":140,"dur":10,)"
            R"("args":{"device":0,"stream":18446744073709551615,"correlation":43}},)"
            R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":16,"tid":7,"ts":160,"dur":5,"args":{"correlation":44,"stream":null}},)"
            R"({"ph":"X","cat":"kernel","name":"k_dec","pid":0,"tid":9,"ts":170,"dur":10,"args":{"device":"0","stream":"12","correlation":"0X2C"}})";
        Rank r = loadKinetoBytes(minimalTrace(events).toStdString(), "rocm-ids.json");
        QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        // One CPU thread: pid "0x10" and 16 are the same process, tid "7" and 7 the same thread.
        int cpuTracks = 0;
        for (const auto& t : r.tracks)
            if (!t.isGpu()) {
                ++cpuTracks;
                QCOMPARE(t.pid, 16);
                QCOMPARE(t.tid, 7);
                QCOMPARE(t.events.size(), std::size_t(3));
            }
        QCOMPARE(cpuTracks, 1);
        QVERIFY(gpuTrack(r, 0));  // "stream": "0x0"
        QVERIFY(gpuTrack(r, 12)); // "stream": "12"
        QCOMPARE(gpuTrack(r, 0)->device(), 0);
        // A stream handle beyond int64 keeps its 64 bits; the negative id falls back to the tid.
        QVERIFY(gpuTrack(r, 5));
        for (const char* k : {"k_hex", "k_u64", "k_dec"}) {
            auto [track, i] = gpuOp(r, k);
            QVERIFY2(track, k);
            QVERIFY2(launchOf(r, *track, i), k);
        }
    }

    // Newer Kineto on CUDA 12: versioned API names, cuda_event records on the GPU stream (linked to
    // their cudaEventRecord), cuda_sync waits naming the event id.
    void newerCudaVariant() {
        QByteArray events =
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernelExC_v11060","pid":1,"tid":1,"ts":100,"dur":5,"args":{"correlation":9}},)"
            R"({"ph":"X","cat":"kernel","name":"producer","pid":0,"tid":7,"ts":106,"dur":20,"args":{"device":0,"stream":7,"correlation":9}},)"
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaEventRecord","pid":1,"tid":1,"ts":110,"dur":2,"args":{"correlation":10}},)"
            R"({"ph":"X","cat":"cuda_event","name":"cudaEvent","pid":0,"tid":7,"ts":126,"dur":0,)"
            R"("args":{"event_id":3,"stream":7,"correlation":10,"device":0,"context":1}},)"
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaStreamWaitEvent_v3020","pid":1,"tid":1,"ts":115,"dur":2,"args":{"correlation":11}},)"
            R"({"ph":"X","cat":"cuda_sync","name":"Stream Wait Event","pid":0,"tid":20,"ts":115,"dur":0,)"
            R"("args":{"cuda_sync_kind":"Stream Wait Event","wait_on_stream":7,"wait_on_cuda_event_record_corr_id":10,)"
            R"("wait_on_cuda_event_id":3,"stream":20,"correlation":11,"device":0,"context":1}},)"
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":120,"dur":5,"args":{"correlation":12}},)"
            R"({"ph":"X","cat":"kernel","name":"consumer","pid":0,"tid":20,"ts":127,"dur":5,"args":{"device":0,"stream":20,"correlation":12}})";
        Rank r = loadKinetoBytes(minimalTrace(events).toStdString(), "cuda12.json");
        QVERIFY(r.unknownCategories.empty());
        QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        QCOMPARE(r.eventsByKind[int(EventKind::GpuEvent)], 1);
        int cpuTracks = 0;
        for (const auto& t : r.tracks)
            cpuTracks += t.isGpu() ? 0 : 1;
        QCOMPARE(cpuTracks, 1); // the cuda_event does not make a CPU thread of (device, stream)
        const Track* s7 = gpuTrack(r, 7);
        QVERIFY(s7);
        QCOMPARE(s7->events.size(), std::size_t(2));
        QCOMPARE(s7->events.kind[1], EventKind::GpuEvent);
        QVERIFY(!isGpuOp(s7->events.kind[1]));
        auto record = launchOf(r, *s7, 1);
        QVERIFY(record);
        QCOMPARE(record->name, std::string_view("cudaEventRecord"));
        QCOMPARE(runtimeApi(record->name), RuntimeApi::EventRecord);
        QCOMPARE(r.syncs.size(), std::size_t(1));
        QCOMPARE(r.syncs[0].waitOnCudaEventId, 3);
        QCOMPARE(r.syncs[0].waitOnEventRecordCorrelation, 10);
        QCOMPARE(r.syncs[0].waitOnStream, 7);
        QCOMPARE(r.syncs[0].stream, 20);
        auto [producer, pi] = gpuOp(r, "producer");
        QVERIFY(producer);
        QCOMPARE(runtimeApi(launchOf(r, *producer, pi)->name), RuntimeApi::KernelLaunch);
        QCOMPARE(eventKindName(EventKind::GpuEvent), std::string_view("cuda_event"));
    }

    // Old traces carry the correlation only on the flow: a hex string flow id links too.
    void hexFlowIdsLink() {
        QByteArray events =
            R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":100,"dur":5},)"
            R"({"ph":"s","cat":"ac2g","id":"0x4d","pid":1,"tid":1,"ts":100,"name":"ac2g"},)"
            R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":3,"ts":110,"dur":10},)"
            R"({"ph":"f","cat":"ac2g","id":77,"pid":0,"tid":3,"ts":110,"name":"ac2g","bp":"e"})";
        Rank r = loadKinetoBytes(minimalTrace(events).toStdString(), "flows.json");
        QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        auto [track, i] = gpuOp(r, "k");
        QVERIFY(track);
        QCOMPARE(track->events.correlation[i], 77);
        QVERIFY(launchOf(r, *track, i));
    }

    // null where an id belongs means absent: the op goes on its (pid, tid) row.
    void nullIdsAreAbsent() {
        Rank r = loadKinetoBytes(
            minimalTrace(
                R"({"ph":"X","cat":"kernel","name":"k","pid":3,"tid":9,"ts":1,"dur":2,"args":{"device":null,"stream":null,"correlation":null}})")
                .toStdString(),
            "nulls.json");
        const Track* t = gpuTrack(r, 9);
        QVERIFY(t);
        QCOMPARE(t->device(), 3);
        QCOMPARE(t->events.correlation[0], -1);
    }

    // Two runtime calls with one correlation id: the first is the launch, the rest is said once.
    void reusedCorrelationWarnsOnce() {
        QByteArray events;
        for (int i = 0; i < 3; ++i)
            events += R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":)" +
                      QByteArray::number(100 + 10 * i) + R"(,"dur":5,"args":{"correlation":7}},)";
        events +=
            R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":3,"ts":112,"dur":10,"args":{"correlation":7}})";
        Rank r = loadKinetoBytes(minimalTrace(events).toStdString(), "dup.json");
        auto [track, i] = gpuOp(r, "k");
        QVERIFY(track);
        EventRef launch = EventRef::unpack(track->events.link[i]);
        QCOMPARE(r.tracks[launch.track].events.start[launch.index], TimeNs(100'000));
        // Said once, counting both calls.
        QCOMPARE(r.warnings.stats().size(), std::size_t(1));
        QCOMPARE(r.warnings.stats().front().occurrences, std::int64_t(1));
        QCOMPARE(r.warnings.count(Warn::CorrelationIdReused), std::int64_t(2));
    }

    // Names alike in length and in their first and last 8 bytes (the loader's name cache keys on
    // those) keep their own names, alternating or not.
    void namesAlikeAtTheEndsStayApart() {
        QByteArray events;
        std::vector<std::string> names;
        for (int i = 0; i < 600; ++i) {
            names.push_back("aten::prefix_" + std::to_string(100 + (i * 7) % 300) + "_suffix::op");
            events += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" +
                      QByteArray::fromStdString(names.back()) +
                      "\",\"pid\":1,\"tid\":1,\"ts\":" + QByteArray::number(10 * i) + ",\"dur\":5},";
        }
        events.chop(1);
        for (std::int64_t chunk : {std::int64_t{0}, std::int64_t{4000}}) {
            LoadOptions options;
            options.chunkBytes = chunk;
            Rank r = loadKinetoBytes(minimalTrace(events).toStdString(), "alike.json", 0, options);
            QCOMPARE(r.tracks.size(), std::size_t{1});
            const auto& ev = r.tracks[0].events;
            QCOMPARE(ev.size(), names.size());
            for (std::size_t i = 0; i < names.size(); ++i)
                QCOMPARE(std::string(r.strings.str(ev.name[i])), names[i]);
        }
    }

    // Launch linking finds each op's call however the ids are spread: consecutive (a slot per id),
    // across a page of ids, huge, or one per thousand (a map); calls on two threads, ops in order.
    void launchesLinkWhateverTheIds_data() {
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("step");
        QTest::newRow("consecutive") << qint64(1) << qint64(1);
        QTest::newRow("across pages") << qint64(1000) << qint64(4);
        QTest::newRow("huge") << (qint64(1) << 62) << qint64(7);
        QTest::newRow("spread thin") << qint64(5) << qint64(100'003);
    }
    void launchesLinkWhateverTheIds() {
        QFETCH(qint64, first);
        QFETCH(qint64, step);
        constexpr int kCalls = 400;
        QByteArray events;
        for (int i = 0; i < kCalls; ++i) {
            const QByteArray id = QByteArray::number(first + step * i);
            // Escaped strings, not raw ones: moc mis-reads raw strings with unbalanced braces.
            events += "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
                      "\"tid\":" +
                      QByteArray::number(1 + i % 2) + ",\"ts\":" + QByteArray::number(100 + 10 * i) +
                      ",\"dur\":2,\"args\":{\"correlation\":" + id + "}},";
            events += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k" + QByteArray::number(i) +
                      "\",\"pid\":0,\"tid\":7,\"ts\":" + QByteArray::number(105 + 10 * i) +
                      ",\"dur\":3,\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + id + "}},";
        }
        events.chop(1);
        Rank r = loadKinetoBytes(minimalTrace(events).toStdString(), "ids.json");
        QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        for (int i = 0; i < kCalls; ++i) {
            auto [track, k] = gpuOp(r, "k" + std::to_string(i));
            QVERIFY(track);
            const EventRef launch = EventRef::unpack(track->events.link[k]);
            QVERIFY(launch.valid());
            const auto& calls = r.tracks[launch.track].events;
            QCOMPARE(calls.correlation[launch.index], first + step * i);
            QCOMPARE(calls.link[launch.index], (EventRef{static_cast<std::uint32_t>(track - r.tracks.data()),
                                                         static_cast<std::uint32_t>(k)}
                                                    .packed()));
        }
    }

    // Garbage where an integer id belongs: one line naming the file, the field and the value.
    void garbageIds_data() {
        QTest::addColumn<QByteArray>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("stream word")
            << QByteArray(R"({"stream":"default","correlation":1})")
            << R"("stream" is not a number (nor a decimal or 0x hex string): "default")";
        QTest::newRow("stream 0x only") << QByteArray(R"({"stream":"0x"})") << R"("stream" is not a number)";
        QTest::newRow("stream hex 17 digits")
            << QByteArray(R"({"stream":"0x1ffffffffffffffff"})") << R"("stream" is not a number)";
        QTest::newRow("stream empty") << QByteArray(R"({"stream":""})") << R"("stream" is not a number)";
        QTest::newRow("stream array") << QByteArray(R"({"stream":[1]})") << R"("stream" is not a number)";
        QTest::newRow("stream nan") << QByteArray(R"({"stream":nan})") << R"("stream" is not a number)";
        QTest::newRow("stream nul") << QByteArray(R"({"stream":nul})") << R"("stream" is not a number)";
        QTest::newRow("device word") << QByteArray(R"({"device":"gpu0"})") << R"("device" is not a number)";
        QTest::newRow("correlation bad hex")
            << QByteArray(R"({"correlation":"0xZZ"})") << R"("correlation" is not a number)";
        QTest::newRow("wait_on_stream word")
            << QByteArray(R"({"wait_on_stream":"s7"})") << R"("wait_on_stream" is not a number)";
        QTest::newRow("newline in value") << QByteArray(R"({"stream":"a\nb"})") << R"(: "a?b")";
        QTest::newRow("long value") << "{\"stream\":\"" + QByteArray(300, 'z') + "\"}"
                                    << "zzz...\"";
    }
    void garbageIds() {
        QFETCH(QByteArray, args);
        QFETCH(QString, expected);
        QByteArray content = minimalTrace(
            R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,"args":)" + args + "}");
        QString msg = loadErrorOf(content, "rocm-bad.json");
        QVERIFY2(msg.startsWith("rocm-bad.json: "), qPrintable(msg));
        QVERIFY2(msg.contains(expected), qPrintable(msg));
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        QVERIFY2(msg.size() < 300, qPrintable(msg));
    }
};

QTEST_GUILESS_MAIN(TestKinetoVariants)
#include "test_KinetoVariants.moc"
