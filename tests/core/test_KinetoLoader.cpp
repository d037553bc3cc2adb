// Kineto loader on the real traces in ../shared/traces and on small hand-made files.
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

class TestKinetoLoader : public QObject {
    Q_OBJECT

private slots:
    void rankFromFileName_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("rank");
        QTest::newRow("rank-") << "/x/sampled_rank-1.json.gz" << 1;
        QTest::newRow("rankNofM") << "a100-nccl-metadata-rank0of2.json.gz" << 0;
        QTest::newRow("worker") << "worker7_step_12.1694128201553.pt.trace.json" << 7;
        QTest::newRow("rank_") << "trace_rank_12.json" << 12;
        QTest::newRow("none") << "trace.json" << -1;
        QTest::newRow("not a word match") << "frank3.json" << -1;
    }
    void rankFromFileName() {
        QFETCH(QString, path);
        QFETCH(int, rank);
        QCOMPARE(sl::rankFromFileName(path.toStdString()), rank);
    }

    void dlrmEightRanks() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("dlrm-8rank-v100/kineto")});
        QCOMPARE(set.ranks.size(), std::size_t(8));
        // Kernel counts per rank, counted independently with Python's json module.
        const std::int64_t kernels[8] = {245, 310, 246, 315, 251, 245, 246, 246};
        for (int i = 0; i < 8; ++i) {
            const Rank& r = set.ranks[static_cast<std::size_t>(i)];
            QCOMPARE(r.rank, i);
            QVERIFY(r.rankFromFile);
            QCOMPARE(r.worldSize, 8);
            QCOMPARE(r.deviceName(), std::string("Tesla V100-SXM2-32GB"));
            QCOMPARE(r.eventsByKind[int(EventKind::Kernel)], kernels[i]);
            QCOMPARE(r.eventsByKind[int(EventKind::GpuMemcpy)], 16);
            QCOMPARE(r.eventsByKind[int(EventKind::CpuOp)], 1633);
            QCOMPARE(r.collectives.size(), std::size_t(8));
            int allReduce = 0, sendRecv = 0;
            for (const auto& c : r.collectives) {
                allReduce += c.type == CollectiveType::AllReduce;
                sendRecv += c.type == CollectiveType::SendRecv;
                QVERIFY(c.kernel.valid());
                QCOMPARE(r.tracks[c.kernel.track].stream(), 84);
                QVERIFY(!c.hasMetadata); // 2023 format: no collective metadata
            }
            QCOMPARE(allReduce, 3);
            QCOMPARE(sendRecv, 5);
            QCOMPARE(countName(r, "cudaStreamWaitEvent", EventKind::Runtime), 44);
            QCOMPARE(countName(r, "ProfilerStep#", EventKind::UserAnnotation), 1);
            QCOMPARE(r.gpuOpsWithoutLaunch, (i == 1 || i == 3) ? 64 : 0);
            const Track* compute = gpuTrack(r, 7);
            QVERIFY(compute);
            // Sorted by start.
            for (std::size_t k = 1; k < compute->events.size(); ++k)
                QVERIFY(compute->events.start[k - 1] <= compute->events.start[k]);
        }
        QVERIFY(set.warnings.empty());
    }

    void launchLinksAreMutual() {
        SL_REQUIRE_TRACES();
        Rank r = loadKinetoFile(
            sltest::tracePath("dlrm-8rank-v100/kineto/worker0_step_12.1694128201545.pt.trace.json"));
        std::int64_t linked = 0;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t) {
            const auto& ev = r.tracks[t].events;
            if (!r.tracks[t].isGpu()) continue;
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                if (!isGpuOp(ev.kind[i])) continue;
                QVERIFY(ev.link[i] != kNoLink);
                EventRef launch = EventRef::unpack(ev.link[i]);
                const auto& cpu = r.tracks[launch.track].events;
                QCOMPARE(cpu.correlation[launch.index], ev.correlation[i]);
                QVERIFY(isRuntimeCall(cpu.kind[launch.index]));
                QVERIFY(cpu.start[launch.index] <= ev.start[i]);
                ++linked;
            }
        }
        QCOMPARE(linked, 245 + 16);
    }

    void modernCollectiveMetadata() {
        SL_REQUIRE_TRACES();
        Rank r = loadKinetoFile(sltest::tracePath("single-rank/a100-nccl-metadata-rank0of2.json.gz"));
        QCOMPARE(r.rank, 0);
        QCOMPARE(r.worldSize, 2);
        QCOMPARE(r.processGroups.size(), std::size_t(1));
        QCOMPARE(r.processGroups[0].ranks, (std::vector<std::int32_t>{0, 1}));
        QVERIFY(!r.collectives.empty());
        bool sawAllReduce = false;
        for (const auto& c : r.collectives) {
            QVERIFY(c.hasMetadata);
            QCOMPARE(c.groupSize, 2);
            QCOMPARE(c.processGroupRanks, (std::vector<std::int32_t>{0, 1}));
            if (c.type == CollectiveType::AllReduce && c.inNelems == 6637568) {
                sawAllReduce = true;
                QCOMPARE(c.bytes(r.strings), std::int64_t(6637568) * 4);
            }
        }
        QVERIFY(sawAllReduce);
        // Float timestamps keep their nanoseconds: this cpu_op starts at 4458676522690.655 us.
        bool found = false;
        for (const auto& t : r.tracks)
            for (std::size_t i = 0; i < t.events.size(); ++i)
                found = found || t.events.start[i] == 4458676522690655;
        QVERIFY(found);
        QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        QVERIFY(r.flowsByCategory.at("fwdbwd") > 0);
    }

    void cudaSyncIdentity() {
        SL_REQUIRE_TRACES();
        Rank r = loadKinetoFile(sltest::tracePath("single-rank/a100-cuda-sync-multistream.json.gz"));
        QCOMPARE(r.syncs.size(), std::size_t(5));
        int streamWaits = 0;
        for (const auto& s : r.syncs) {
            QVERIFY(s.event.valid());
            if (r.strings.str(s.syncKind) == "Stream Wait Event") {
                ++streamWaits;
                QCOMPARE(s.waitOnStream, 20);
                QCOMPARE(s.waitOnEventRecordCorrelation, 1385);
                QCOMPARE(s.stream, 24);
            }
        }
        QCOMPARE(streamWaits, 1);
    }

    void argsAreKeptAsJson() {
        SL_REQUIRE_TRACES();
        Rank r = loadKinetoFile(sltest::tracePath("single-rank/h100-cuda-sync-after-fix.json"));
        int checked = 0;
        for (std::uint32_t t = 0; t < r.tracks.size(); ++t)
            for (std::uint32_t i = 0; i < r.tracks[t].events.size(); ++i) {
                ArgsText full = r.fullArgs({t, i}); // read back from the plain file
                QVERIFY2(full.ok(), full.error.c_str());
                auto text = full.text;
                if (text.empty()) continue;
                auto j = nlohmann::json::parse(text); // throws if the captured text is not one object
                QVERIFY(j.is_object());
                ++checked;
            }
        QVERIFY(checked >= 7);
    }

    void everySharedTraceLoads_data() {
        QTest::addColumn<QString>("path");
        for (const char* p :
             {"single-rank/a100-cuda-sync-multistream.json.gz",
              "single-rank/a100-nccl-metadata-rank0of2.json.gz", "single-rank/a100-simple-add.json.gz",
              "single-rank/h100-cuda-sync-after-fix.json", "single-rank/h100-cuda-sync-before-fix.json",
              "single-rank/rtx2080ti-linear.json.gz", "sampled-2of128",
              "et-pairs/a100-simple-add-small.kineto.json.gz"})
            QTest::newRow(p) << QString(p);
    }
    void everySharedTraceLoads() {
        SL_REQUIRE_TRACES();
        QFETCH(QString, path);
        TraceSet set = loadTraceSet({sltest::tracePath(path.toUtf8().constData())});
        QVERIFY(!set.ranks.empty());
        for (const auto& r : set.ranks) {
            QVERIFY(r.eventCount() > 0);
            QVERIFY(r.lastEnd() > r.firstStart());
            QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        }
    }

    void sampledSetWarnsAboutMissingRanks() {
        SL_REQUIRE_TRACES();
        TraceSet set = loadTraceSet({sltest::tracePath("sampled-2of128")});
        QCOMPARE(set.ranks.size(), std::size_t(2));
        QCOMPARE(set.ranks[1].rank, 1);
        QCOMPARE(set.ranks[0].worldSize, 128);
        QCOMPARE(set.warnings.count(Warn::RanksMissing), std::int64_t(126));
    }

    void progressReportsAndCancels() {
        SL_REQUIRE_TRACES();
        std::int64_t last = -1, total = 0;
        int calls = 0;
        LoadOptions options;
        options.progress = [&](std::int64_t done, std::int64_t t) {
            last = done;
            total = t;
            ++calls;
            return true;
        };
        loadTraceSet({sltest::tracePath("single-rank/rtx2080ti-linear.json.gz")}, options);
        QVERIFY(calls > 2);
        QCOMPARE(last, total);
        options.progress = [](std::int64_t, std::int64_t) { return false; };
        QVERIFY_THROWS_EXCEPTION(
            LoadCancelled,
            loadTraceSet({sltest::tracePath("single-rank/rtx2080ti-linear.json.gz")}, options));
    }

    void handMadeVariants() {
        QTemporaryDir dir;
        // Old category spellings, string pids, legacy async flow carrying the correlation,
        // a ROCm launch, B/E pairs and an unknown category.
        auto path = sltest::writeFile(
            dir, "rank-3.json",
            minimalTrace(
                R"({"ph":"X","cat":"Runtime","name":"hipLaunchKernel","pid":"10","tid":1,"ts":100,"dur":5,"args":{}},)"
                R"({"ph":"s","cat":"async","id":77,"pid":10,"tid":1,"ts":100,"name":"launch"},)"
                R"({"ph":"X","cat":"Kernel","name":"k","pid":0,"tid":3,"ts":110,"dur":10,"args":{"stream":3,"device":0}},)"
                R"({"ph":"f","cat":"async","id":77,"pid":0,"tid":3,"ts":110,"name":"launch","bp":"e"},)"
                R"({"ph":"B","cat":"cpu_op","name":"outer","pid":10,"tid":1,"ts":90},)"
                R"({"ph":"E","pid":10,"tid":1,"ts":120},)"
                R"({"ph":"X","cat":"mystery","name":"m","pid":10,"tid":1,"ts":95,"dur":1})"));
        Rank r = loadKinetoFile(path, 5);
        QCOMPARE(r.rank, 3); // from the file name
        QCOMPARE(r.gpuOpsWithoutLaunch, 0);
        QCOMPARE(r.eventsByKind[int(EventKind::Runtime)], 1);
        QCOMPARE(r.eventsByKind[int(EventKind::CpuOp)], 1);
        QCOMPARE(r.unknownCategories.at("mystery"), 1);
        const Track* cpu = &r.tracks[0];
        QVERIFY(!cpu->isGpu());
        QCOMPARE(cpu->events.size(), std::size_t(3));
        QCOMPARE(cpu->events.depth[1], 1); // nested inside "outer"
        QCOMPARE(r.warnings.count(Warn::UnknownEventCategory), std::int64_t(1));
    }
    void badInput_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << "empty file";
        QTest::newRow("truncated")
            << minimalTrace(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})").left(60)
            << "truncated";
        QTest::newRow("not json") << QByteArray("hello world") << "JSON";
        QTest::newRow("no traceEvents") << QByteArray(R"({"schemaVersion":1})") << "no \"traceEvents\"";
        QTest::newRow("scalar root") << QByteArray("42") << "top level";
        QTest::newRow("ts string")
            << minimalTrace(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":"1","dur":2})")
            << "\"ts\" that is not a number";
        QTest::newRow("missing dur") << minimalTrace(
                                            R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1})")
                                     << "no \"dur\"";
        QTest::newRow("negative dur")
            << minimalTrace(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":-2})")
            << "negative";
        QTest::newRow("event not object") << minimalTrace("[1,2]") << "not an object";
        QTest::newRow("correlation string")
            << minimalTrace(
                   R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,"args":{"correlation":"x"}})")
            << "\"correlation\" is not a number";
        QTest::newRow("huge ts")
            << minimalTrace(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1e300,"dur":2})")
            << "out-of-range";
        QTest::newRow("trailing garbage") << minimalTrace("") + "xyz"
                                          << "JSON";
        QTest::newRow("gzip corrupt") << QByteArray("\x1f\x8b\x08\x00garbagegarbage", 18) << "gzip";
        QTest::newRow("ts beyond 4e15 us")
            << minimalTrace(
                   R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":4000000000000001,"dur":2})")
            << "out-of-range \"ts\"";
        QTest::newRow("dur beyond 1e12 us")
            << minimalTrace(
                   R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1000000000001})")
            << "out-of-range \"dur\"";
        QTest::newRow("utf-16") << QByteArray("{\0\"\0t\0", 6) << "UTF-16";
        QTest::newRow("invalid utf-8 offset") << minimalTrace("{\"ph\":\"X\",\"name\":\"a\xff\"}")
                                              << "invalid UTF-8 in the JSON text (at byte 53)";
        QTest::newRow("control char offset") << minimalTrace("{\"ph\":\"X\",\"name\":\"a\x01\"}")
                                             << "control character inside a string (at byte 53)";
        QTest::newRow("unclosed string")
            << QByteArray("{\"traceEvents\":[{\"name\":\"abc") << "never closed (at byte 24)";
        QTest::newRow("truncated at end")
            << QByteArray("{\"traceEvents\":[") << "ends inside an object or array (at byte 16)";
        QTest::newRow("whitespace only") << QByteArray(" \n ") << "only white space";
    }

    void acceptedOddities() {
        QTemporaryDir dir;
        QByteArray body =
            minimalTrace(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})");
        // A UTF-8 byte order mark, and a gzip member followed by zero padding, both load.
        Rank bom = loadKinetoBytes("\xef\xbb\xbf" + body.toStdString(), "bom.json");
        QCOMPARE(bom.eventCount(), std::int64_t(1));
        // Group sizes and ranks beyond 2^24 are dropped, not wrapped into int32.
        QByteArray pg =
            R"({"distributedInfo":{"rank":0,"pg_config":[{"ranks":[0,2147483647,-1,1]}]},"traceEvents":[]})";
        Rank r = loadKinetoBytes(pg.toStdString(), "pg.json");
        QCOMPARE(r.processGroups.size(), std::size_t(1));
        QCOMPARE(r.processGroups[0].ranks, (std::vector<std::int32_t>{0, 1}));
        QCOMPARE(r.worldSize, 2);
    }

    void memoryLimit() {
        QTemporaryDir dir;
        QByteArray body =
            minimalTrace(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})");
        auto path = sltest::writeFile(dir, "a.json", body);
        LoadOptions options;
        options.memoryLimitBytes = 10; // far less than 0.75 x the file
        try {
            loadTraceSet({path}, options);
            QFAIL("expected a LoadError");
        } catch (const LoadError& e) {
            QVERIFY2(QString(e.what()).contains("loading needs about"), e.what());
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path)), e.what());
        }
        options.memoryLimitBytes = -1; // no check
        QCOMPARE(loadTraceSet({path}, options).ranks.size(), std::size_t(1));
        options.memoryLimitBytes = 0; // MemAvailable: a small file fits
        QCOMPARE(loadTraceSet({path}, options).ranks.size(), std::size_t(1));
        QVERIFY(availableMemoryBytes() != 0);
    }
    // A thread's events out of order are sorted by start, longer first at the same start, and in
    // file order when both are equal (runs of ordered events are merged; many runs: a full sort).
    void eventsOutOfOrderAreSorted_data() {
        QTest::addColumn<int>("copies");
        QTest::newRow("few runs") << 1;
        QTest::newRow("more runs than merged") << 400;
    }
    void eventsOutOfOrderAreSorted() {
        QFETCH(int, copies);
        // (ts, dur, name) in file order; the expected order below.
        const std::vector<std::tuple<int, int, const char*>> events = {
            {50, 1, "e"}, {10, 5, "b"}, {30, 2, "d"}, {10, 9, "a"}, {10, 5, "c"}, {70, 1, "g"}, {60, 1, "f"}};
        QByteArray text;
        for (int c = 0; c < copies; ++c)
            for (const auto& [ts, dur, name] : events)
                text += QByteArray(text.isEmpty() ? "" : ",") +
                        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" + name +
                        "\",\"pid\":1,\"tid\":1,\"ts\":" + QByteArray::number(ts + c * 100) +
                        ",\"dur\":" + QByteArray::number(dur) + "}";
        Rank r = loadKinetoBytes(minimalTrace(text).toStdString(), "order.json");
        QCOMPARE(r.tracks.size(), std::size_t(1));
        const auto& ev = r.tracks[0].events;
        QCOMPARE(ev.size(), std::size_t(7 * copies));
        std::string names;
        for (std::size_t i = 0; i < ev.size(); ++i)
            names += r.strings.str(ev.name[i]);
        std::string expected;
        for (int c = 0; c < copies; ++c)
            expected += "abcdefg";
        QCOMPARE(QString::fromStdString(names), QString::fromStdString(expected));
    }

    // A file whose pieces do not parse ("B"/"E" pairs may span pieces) is parsed whole, which needs
    // about 3x its JSON: a budget that fits a load in pieces but not that gives its own error.
    void memoryLimitOfWholeParse() {
        QTemporaryDir dir;
        QByteArray events;
        for (int i = 0; i < 2000; ++i)
            events += QByteArray(i ? "," : "") + "{\"ph\":\"B\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":" +
                      QByteArray::number(i * 10) +
                      "},{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":" + QByteArray::number(i * 10 + 5) + "}";
        const QByteArray body = minimalTrace(events);
        auto path = sltest::writeFile(dir, "be.json", body);
        LoadOptions options;
        options.chunkBytes = 4096;
        options.memoryLimitBytes = body.size() * 2; // pieces: 0.75 x fits; whole: 3 x does not
        try {
            loadTraceSet({path}, options);
            QFAIL("expected a LoadError");
        } catch (const LoadError& e) {
            QVERIFY2(QString(e.what()).contains("must be parsed whole"), e.what());
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path)), e.what());
        }
        options.memoryLimitBytes = body.size() * 4;
        QCOMPARE(loadTraceSet({path}, options).ranks.front().eventCount(), std::int64_t(2000));
    }
    void badInput() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        auto path = sltest::writeFile(dir, "bad.json", content);
        try {
            loadTraceSet({path});
            QFAIL("expected a LoadError");
        } catch (const LoadError& e) {
            QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(QString::fromStdString(path) + ": "), qPrintable(msg));
            QVERIFY2(msg.contains(expected), qPrintable(msg));
            QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        }
    }

    void folderWithoutTraces() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "notes.txt", "hello");
        QVERIFY_THROWS_EXCEPTION(LoadError, loadTraceSet({dir.path().toStdString()}));
    }

    void duplicateRanksWarn() {
        QTemporaryDir dir;
        QByteArray body =
            R"({"distributedInfo":{"rank":0,"world_size":2},"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2}]})";
        auto a = sltest::writeFile(dir, "a.json", body);
        auto b = sltest::writeFile(dir, "b.json", body);
        TraceSet set = loadTraceSet({a, b});
        QCOMPARE(set.ranks.size(), std::size_t(2));
        QCOMPARE(set.ranks[1].rank, 1);
        QVERIFY(!set.warnings.empty());
        QVERIFY(set.warnings.front().kind == Warn::DuplicateRank);
    }
};

QTEST_GUILESS_MAIN(TestKinetoLoader)
#include "test_KinetoLoader.moc"
