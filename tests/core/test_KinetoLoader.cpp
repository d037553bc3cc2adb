// Kineto loader on the real traces in ../shared/traces and on small hand-made files.
#include "TestSupport.h"

#include "ModelDifference.h"

#include "io/FileReader.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "trace/RuntimeApi.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <tuple>

using namespace sl;
using sltest::modelDifference;

namespace {

std::int64_t countName(const Rank& r, std::string_view prefix, EventKind kind) {
    std::int64_t n = 0;
    for (const auto& t : r.tracks)
        for (std::size_t i = 0; i < t.events.size(); ++i)
            if (t.events.kind[i] == kind &&
                r.strings.str(t.events.name[i]).substr(0, prefix.size()) == prefix)
                ++n;
    return n;
}

const Track* gpuTrack(const Rank& r, std::int64_t stream) {
    for (const auto& t : r.tracks)
        if (t.isGpu() && t.stream() == stream) return &t;
    return nullptr;
}

QByteArray minimalTrace(const QByteArray& events) {
    return "{\"schemaVersion\":1,\"traceEvents\":[" + events + "]}";
}

// The runtime call a GPU op is linked to (its launch), if any.
struct Launch {
    std::string_view name;
    EventKind kind;
};
std::optional<Launch> launchOf(const Rank& r, const Track& t, std::size_t i) {
    if (t.events.link[i] == kNoLink) return std::nullopt;
    EventRef ref = EventRef::unpack(t.events.link[i]);
    return Launch{r.name(ref), r.tracks[ref.track].events.kind[ref.index]};
}

// One GPU op by name: its track and index.
std::pair<const Track*, std::size_t> gpuOp(const Rank& r, std::string_view name) {
    for (const auto& t : r.tracks)
        for (std::size_t i = 0; t.isGpu() && i < t.events.size(); ++i)
            if (r.strings.str(t.events.name[i]) == name) return {&t, i};
    return {nullptr, 0};
}

// The message of the LoadError that loading content throws (empty when it loads).
QString loadErrorOf(const QByteArray& content, const std::string& name = "bad.json") {
    try {
        loadKinetoBytes(content.toStdString(), name);
    } catch (const LoadError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

// Loads text whole (one piece) and in pieces of pieceBytes on two threads.
struct WholeAndPieces {
    Rank whole, pieces;
    LoadReport report;
};
WholeAndPieces loadBothWays(const std::string& text, const std::string& name, std::int64_t pieceBytes) {
    WholeAndPieces out;
    LoadOptions whole;
    whole.chunkBytes = std::int64_t{1} << 40;
    LoadReport wholeReport;
    whole.report = &wholeReport;
    out.whole = loadKinetoBytes(text, name, 0, whole);
    if (wholeReport.pieces != 0) qFatal("the whole-file load was cut");
    LoadOptions cut;
    cut.chunkBytes = pieceBytes;
    cut.threads = 2;
    cut.report = &out.report;
    out.pieces = loadKinetoBytes(text, name, 0, cut);
    return out;
}

} // namespace

class TestKinetoLoader : public QObject {
    Q_OBJECT

private slots:
    // Chunked parsing (docs/Loader.md): a file cut into pieces and parsed on two threads gives the
    // model of the whole-file parse, exactly, on the real traces (plain files are read in blocks,
    // gzip ones inflated first).
    void piecesMatchWholeFile_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("rtx2080ti gzip") << "single-rank/rtx2080ti-linear.json.gz";
        QTest::newRow("a100 nccl metadata") << "single-rank/a100-nccl-metadata-rank0of2.json.gz";
        QTest::newRow("a100 cuda_sync") << "single-rank/a100-cuda-sync-multistream.json.gz";
        QTest::newRow("h100 plain") << "single-rank/h100-cuda-sync-after-fix.json";
        QTest::newRow("sampled rank") << "sampled-2of128/sampled_rank-1.json.gz";
    }
    void piecesMatchWholeFile() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        QFETCH(QString, file);
        std::string path = sltest::tracePath(file.toUtf8().constData());
        auto size = static_cast<std::int64_t>(readTraceFile(path).size());
        LoadOptions whole;
        whole.chunkBytes = std::int64_t{1} << 40;
        Rank a = loadKinetoFile(path, 0, whole);
        LoadOptions cut;
        cut.chunkBytes = std::max<std::int64_t>(size / 9, 256);
        cut.threads = 2;
        LoadReport report;
        cut.report = &report;
        Rank b = loadKinetoFile(path, 0, cut);
        QVERIFY2(report.pieces >= 4, qPrintable(QString::number(report.pieces)));
        QVERIFY(!report.reparsed);
        QVERIFY(a.eventCount() > 0);
        QCOMPARE(QString::fromStdString(modelDifference(a, b)), QString());
    }
    void piecesMatchWholeFileDlrmPlain() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        // A plain .json file: read in blocks by the chunked path (no mapping of the whole file).
        std::vector<std::string> files = expandTracePaths({sltest::tracePath("dlrm-8rank-v100/kineto")});
        LoadOptions whole;
        whole.chunkBytes = std::int64_t{1} << 40;
        Rank a = loadKinetoFile(files[3], 3, whole);
        LoadOptions cut;
        cut.chunkBytes = 64 * 1024;
        LoadReport report;
        cut.report = &report;
        Rank b = loadKinetoFile(files[3], 3, cut);
        QVERIFY2(report.pieces >= 10, qPrintable(QString::number(report.pieces)));
        QVERIFY(!report.reparsed);
        QCOMPARE(QString::fromStdString(modelDifference(a, b)), QString());
    }

    // The cutter reads the first few KB at each cut, then the whole window when they hold no newline
    // (the scan would start at a guess, maybe inside a string) or no event start: events longer and
    // shorter than those KB cut as with the whole window (none wrong, the model the whole file's).
    void cutsPastTheFirstKilobytes_data() {
        QTest::addColumn<int>("eventBytes");
        QTest::newRow("longer") << 6000;
        QTest::newRow("shorter") << 1500;
    }
    void cutsPastTheFirstKilobytes() {
        QFETCH(int, eventBytes);
        // Strings holding what looks like an event boundary to a scan that starts inside them.
        auto note = [](int bytes) {
            QByteArray text;
            while (text.size() < bytes)
                text += QByteArray(400, 'x') + "},{";
            return text;
        };
        QByteArray events;
        for (int i = 0; i < 60; ++i) {
            if (i > 0) events += ",\n";
            events += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op" + QByteArray::number(i) +
                      "\",\"pid\":1,\"tid\":1,\"ts\":" + QByteArray::number(10 * i) +
                      ",\"dur\":5,\"args\":{\"note\":\"" + note(eventBytes + 37 * i) + "\"}}";
        }
        WholeAndPieces r = loadBothWays(minimalTrace(events).toStdString(), "long.json", 12 * eventBytes);
        QVERIFY2(r.report.pieces >= 4, qPrintable(QString::number(r.report.pieces)));
        QCOMPARE(r.report.rejoined, 0);
        QVERIFY(!r.report.reparsed);
        QCOMPARE(QString::fromStdString(modelDifference(r.whole, r.pieces)), QString());
    }

    // Cuts at every place of events whose strings and args hold what a careless cutter takes for
    // event boundaries: '}', ']', "},{", escaped quotes and backslashes, nested args objects and
    // arrays of objects, string pids, metadata, flows, collectives and cuda_sync records.
    void pieceEdges() {
        const QByteArray events[] = {
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":\"Spans\",\"tid\":0,\"args\":{\"name\":\"spans "
            "}, {\"}}",
            "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main },{ "
            "\\\"thread\\\"\"}}",
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op }, "
            "{\\\"ph\\\":\\\"X\\\"\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":50,\"args\":{\"Input "
            "Dims\":[[1,2],[3]],\"list\":[{\"a\":\"}\"},{\"b\":\"]\"}],\"nested\":{\"x\":{\"y\":\"},{\"}}}}",
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "20,\"dur\":5,\"args\":{\"correlation\":7,\"note\":\"back\\\\slash \\\\\\\" quote ]}\"}}",
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce_RING_LL_Sum_float\",\"pid\":0,"
            "\"tid\":7,\"ts\":30,\"dur\":40,\"args\":{\"correlation\":7,\"stream\":7,\"device\":0,"
            "\"Collective name\":\"allreduce\",\"In msg nelems\":1024,\"Out msg nelems\":1024,\"Group "
            "size\":2,\"dtype\":\"Float\",\"Process Group Name\":\"0\",\"Process Group Ranks\":\"[0, 1]\"}}",
            "{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"launch\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":20}",
            "{\"ph\":\"f\",\"cat\":\"ac2g\",\"name\":\"launch\",\"id\":7,\"pid\":0,\"tid\":7,\"ts\":30,"
            "\"bp\":\"e\"}",
            "{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Wait "
            "Event\",\"pid\":0,\"tid\":7,\"ts\":75,\"dur\":1,\"args\":{\"cuda_sync_kind\":\"Stream Wait "
            "Event\",\"wait_on_stream\":9,\"stream\":7,\"device\":0}}",
            "{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler "
            "0\",\"pid\":\"Spans\",\"tid\":\"PyTorch Profiler\",\"ts\":0,\"dur\":100}",
            "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"name\":\"mark "
            "]\",\"pid\":1,\"tid\":2,\"ts\":60,\"s\":\"t\"}",
        };
        // One event per line (as JSON writers that put events on lines do), repeated with shifted
        // times so that cuts land at every offset of every event.
        QByteArray lines, compact;
        for (int copy = 0; copy < 6; ++copy) {
            for (const QByteArray& e : events) {
                QByteArray shifted = e;
                shifted.replace("\"ts\":", "\"ts\":" + QByteArray::number(copy * 1000) + "+");
                // "ts":1000+10 is not JSON: fold the sum back into one number.
                qsizetype at = 0;
                while ((at = shifted.indexOf('+', at)) > 0) {
                    qsizetype numStart = shifted.lastIndexOf(':', at) + 1;
                    qsizetype numEnd = at + 1;
                    while (numEnd < shifted.size() &&
                           std::isdigit(static_cast<unsigned char>(shifted[numEnd])))
                        ++numEnd;
                    qint64 sum = shifted.mid(numStart, at - numStart).toLongLong() +
                                 shifted.mid(at + 1, numEnd - at - 1).toLongLong();
                    shifted.replace(numStart, numEnd - numStart, QByteArray::number(sum));
                }
                lines += (lines.isEmpty() ? "" : ",\n") + shifted;
                compact += (compact.isEmpty() ? "" : ",") + shifted;
            }
        }
        const QByteArray head =
            "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"GPU ]},{\",\"numSms\":80}],"
            "\"distributedInfo\":{\"rank\":0,\"world_size\":2,\"pg_config\":[{\"pg_name\":\"0\",\"ranks\":[0,"
            "1]}]},"
            "\"traceEvents\":[";
        const QByteArray tail =
            "],\"traceName\":\"t },{ "
            "\\\"x\\\"\",\"displayTimeUnit\":\"ms\",\"baseTimeNanoseconds\":1700000000000000000}";
        int cutRuns = 0;
        for (std::int64_t pieceBytes = 40; pieceBytes < 700; pieceBytes += 3) {
            // With lines, every cut is exact: never a reparse.
            WholeAndPieces l = loadBothWays((head + lines + tail).toStdString(), "lines.json", pieceBytes);
            QVERIFY2(l.report.pieces >= 2 && !l.report.reparsed,
                     qPrintable(QString("piece bytes %1: %2 pieces, reparsed %3")
                                    .arg(pieceBytes)
                                    .arg(l.report.pieces)
                                    .arg(l.report.reparsed)));
            QCOMPARE(QString::fromStdString(modelDifference(l.whole, l.pieces)), QString());
            // On one line, a cut may land in a string; the pieces then fail and the whole file is
            // parsed again: the model is the same either way.
            WholeAndPieces c =
                loadBothWays((head + compact + tail).toStdString(), "compact.json", pieceBytes);
            QCOMPARE(QString::fromStdString(modelDifference(c.whole, c.pieces)), QString());
            if (c.report.pieces >= 2) ++cutRuns;
        }
        QVERIFY(cutRuns > 50); // most compact loads were really cut
        // The events themselves (hand-checked): 6 copies of 5 complete events on tracks and 1 instant;
        // the "Trace" span and metadata are not events; the flows recover nothing (ids are in args).
        WholeAndPieces ref = loadBothWays((head + lines + tail).toStdString(), "lines.json", 100);
        QCOMPARE(ref.pieces.eventCount(), std::int64_t(6 * 5));
        QCOMPARE(ref.pieces.collectives.size(), std::size_t(6));
        QCOMPARE(ref.pieces.syncs.size(), std::size_t(6));
        QCOMPARE(ref.pieces.devices.size(), std::size_t(1));
        QCOMPARE(ref.pieces.devices[0].name, std::string("GPU ]},{"));
        QCOMPARE(ref.pieces.clockBaseNs, std::int64_t(1700000000000000000));
        QCOMPARE(ref.pieces.worldSize, 2);
    }

    // A bad file parsed in pieces fails with the whole-file message and byte offset (the pieces
    // are given up and the whole file parsed again).
    void piecesKeepErrors_data() {
        QTest::addColumn<QByteArray>("bad");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative dur")
            << QByteArray(
                   "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":-1}")
            << "negative";
        QTest::newRow("invalid utf-8") << QByteArray("{\"ph\":\"X\",\"name\":\"a\xff\"}") << "invalid UTF-8";
        QTest::newRow("missing ts")
            << QByteArray("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"dur\":1}")
            << "has no \"ts\"";
        QTest::newRow("unclosed") << QByteArray("{\"ph\":\"X\",\"name\":\"b") << "JSON";
    }
    void piecesKeepErrors() {
        QFETCH(QByteArray, bad);
        QFETCH(QString, expected);
        QByteArray good =
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}";
        QByteArray events;
        for (int i = 0; i < 200; ++i)
            events += good + ",\n";
        events += bad;
        for (int i = 0; i < 50; ++i)
            events += ",\n" + good;
        std::string text = minimalTrace(events).toStdString();
        QString wholeMessage, pieceMessage;
        LoadOptions whole;
        whole.chunkBytes = std::int64_t{1} << 40;
        try {
            loadKinetoBytes(text, "bad.json", 0, whole);
        } catch (const LoadError& e) {
            wholeMessage = e.what();
        }
        LoadOptions cut;
        cut.chunkBytes = 1000;
        cut.threads = 2;
        LoadReport report;
        cut.report = &report;
        try {
            loadKinetoBytes(text, "bad.json", 0, cut);
        } catch (const LoadError& e) {
            pieceMessage = e.what();
        }
        QVERIFY2(wholeMessage.contains(expected) && wholeMessage.contains("(at byte "),
                 qPrintable(wholeMessage));
        QCOMPARE(pieceMessage, wholeMessage);
        QVERIFY(report.reparsed);
    }

    // What only the whole-file parse handles exactly ("B"/"E" pairs may span pieces) makes the
    // pieces give up: same model.
    void piecesGiveUpOnBeginEnd() {
        QByteArray events;
        for (int i = 0; i < 100; ++i)
            events +=
                QString("{\"ph\":\"B\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":%1},"
                        "{\"ph\":\"E\",\"cat\":\"cpu_op\",\"pid\":1,\"tid\":1,\"ts\":%2},")
                    .arg(i * 10)
                    .arg(i * 10 + 5)
                    .toUtf8() +
                "\n";
        events.chop(2);
        WholeAndPieces r = loadBothWays(minimalTrace(events).toStdString(), "be.json", 500);
        QVERIFY(r.report.reparsed);
        QCOMPARE(r.pieces.eventCount(), std::int64_t(100));
        QCOMPARE(QString::fromStdString(modelDifference(r.whole, r.pieces)), QString());
    }

    void piecesCancel() {
        QByteArray events;
        for (int i = 0; i < 2000; ++i)
            events += QString("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":%1,"
                              "\"dur\":1},")
                          .arg(i * 2)
                          .toUtf8() +
                      "\n";
        events.chop(2);
        LoadOptions cut;
        cut.chunkBytes = 4096;
        cut.threads = 2;
        int calls = 0;
        cut.progress = [&](std::int64_t, std::int64_t) { return ++calls < 3; };
        QVERIFY_THROWS_EXCEPTION(LoadCancelled,
                                 loadKinetoBytes(minimalTrace(events).toStdString(), "c.json", 0, cut));
        QCOMPARE(calls, 3);
    }

    // The parser is built for the baseline x86-64, yet simdjson picks SIMD kernels at run time.
    void parserDispatchesAtRunTime() {
#if defined(__x86_64__)
        __builtin_cpu_init();
        std::string active = simdjson::get_active_implementation()->name();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"))
            QVERIFY2(active == "haswell" || active == "icelake", active.c_str());
        else
            QVERIFY2(active != "unsupported", active.c_str());
#else
        QSKIP("x86-64 only");
#endif
    }

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
