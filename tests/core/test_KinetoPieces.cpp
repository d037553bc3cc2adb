// Kineto loader: a file cut into pieces and parsed on several threads gives the whole-file model.
#include "TestSupport.h"

#include "KinetoTestSupport.h"
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

using namespace sltest;

class TestKinetoPieces : public QObject {
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
};

QTEST_GUILESS_MAIN(TestKinetoPieces)
#include "test_KinetoPieces.moc"
