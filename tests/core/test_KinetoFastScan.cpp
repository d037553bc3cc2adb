// The fast reader of a chunked load (io/KinetoFastScan.h, docs/Loader.md "Fast reader"): what it
// reads itself, what it hands to On-Demand, and that a load in pieces gives the whole-file model
// either way. (JSON text is written with escaped strings: Qt 6.4's moc misreads raw literals.)
#include "TestSupport.h"

#include "ModelDifference.h"

#include "io/KinetoFastScan.h"
#include "io/KinetoLoader.h"

#include <limits>
#include <string>

using namespace sl;
using namespace sl::detail;

namespace {

// The reader's steps over text, one letter each: e event, n end, u unhandled, m malformed; an
// unhandled step is followed by "@offset" of resumeAt() in text.
QString steps(const std::string& text) {
    std::string padded = text + std::string(kFastReadPadding, '\0');
    std::string_view view(padded.data(), text.size());
    FastEventReader reader(view, true);
    ScannedEvent event;
    QString out;
    for (int i = 0; i < 100; ++i) {
        switch (reader.next(event)) {
        case FastEventReader::Step::Event:
            out += 'e';
            continue;
        case FastEventReader::Step::End:
            return out + 'n';
        case FastEventReader::Step::Unhandled:
            return out + "u@" + QString::number(reader.resumeAt() - view.data());
        case FastEventReader::Step::Malformed:
            return out + 'm';
        }
    }
    return out + "...";
}

// The one event of "[" + event + "]" as the reader gives it (QFAIL-free: ph 0 when not read).
struct OneEvent {
    ScannedEvent event;
    std::string kept;
    bool read = false;
    std::string text; // keeps the views valid
};
OneEvent readOne(const std::string& event) {
    OneEvent out;
    out.text = "[" + event + "]" + std::string(kFastReadPadding, '\0');
    FastEventReader reader(std::string_view(out.text.data(), event.size() + 2), true);
    out.read = reader.next(out.event) == FastEventReader::Step::Event;
    out.kept = std::string(reader.kept());
    return out;
}

// A Kineto-style file (indented, one key group per line, as PyTorch writes it) of n copies of the
// events, with shifted times and correlation ids.
std::string kinetoFile(const std::vector<std::string>& events, int copies) {
    std::string out = "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n";
    bool first = true;
    for (int c = 0; c < copies; ++c)
        for (std::string e : events) {
            for (std::string key : {"\"ts\": ", "\"correlation\": "}) {
                std::size_t at = e.find(key);
                if (at == std::string::npos) continue;
                at += key.size();
                std::size_t end = e.find_first_not_of("0123456789", at);
                long long v = std::stoll(e.substr(at, end - at)) + c * 1000;
                e.replace(at, end - at, std::to_string(v));
            }
            out += (first ? "  " : ",\n  ") + e;
            first = false;
        }
    // Root fields after the events (the last piece's tail): read only if the array's end is found.
    return out + "\n  ] ,\n  \"traceName\": \"t\", \"baseTimeNanoseconds\": 1700000000000000000,\n  "
                 "\"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\", \"numSms\": 80}]\n}\n";
}

struct Loads {
    Rank whole, pieces;
    LoadReport report;
};
Loads loadBothWays(const std::string& text, std::int64_t pieceBytes) {
    Loads out;
    LoadOptions whole;
    whole.chunkBytes = std::int64_t{1} << 40;
    out.whole = loadKinetoBytes(text, "fast.json", 0, whole);
    LoadOptions cut;
    cut.chunkBytes = pieceBytes;
    cut.threads = 2;
    cut.report = &out.report;
    out.pieces = loadKinetoBytes(text, "fast.json", 0, cut);
    return out;
}

const std::vector<std::string> kCleanEvents = {
    "{\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 10,\n    "
    "\"ts\": 1000, \"dur\": 50,\n    \"args\": {\n      \"External id\": 3,\"Ev Idx\": 2, \"Input Dims\": "
    "[[64, 32], [32, 16]], \"Input type\": [\"float\", \"float\"]\n    }\n  }",
    "{\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, \"tid\": "
    "10,\n    \"ts\": 1010, \"dur\": 5,\n    \"args\": {\n      \"External id\": 3, \"cbid\": 211, "
    "\"correlation\": 77\n    }\n  }",
    "{\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"volta_sgemm_128x64_nn\", \"pid\": 0, \"tid\": "
    "7,\n "
    "   \"ts\": 1020.5, \"dur\": 30.25,\n    \"args\": {\n      \"queued\": 0, \"device\": 0, \"context\": "
    "1,\n      \"stream\": 7, \"correlation\": 77, \"registers per thread\": 118, \"blocks per SM\": "
    "0.9411765, \"grid\": [8, 8, 1], \"block\": [256, 1, 1]\n    }\n  }",
    "{\n    \"ph\": \"s\", \"id\": 77, \"pid\": 10, \"tid\": 10, \"ts\": 1010, \"cat\": \"ac2g\", \"name\": "
    "\"ac2g\"\n  }",
    "{\n    \"ph\": \"f\", \"id\": 77, \"pid\": 0, \"tid\": 7, \"ts\": 1020, \"cat\": \"ac2g\", \"name\": "
    "\"ac2g\", \"bp\": \"e\"\n  }",
    "{\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce_RING_LL_Sum_float\", "
    "\"pid\": 0, \"tid\": 7,\n    \"ts\": 1060, \"dur\": 40,\n    \"args\": {\"correlation\": 78, "
    "\"stream\": 7, \"device\": 0, \"Collective name\": \"allreduce\", \"In msg nelems\": 1024, \"Out msg "
    "nelems\": 1024, \"Group size\": 2, \"dtype\": \"Float\", \"Process Group Name\": \"0\", \"Process "
    "Group Ranks\": \"[0, 1]\"}\n  }",
    "{\n    \"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Wait Event\", \"pid\": 0, \"tid\": 7, "
    "\"ts\": 1101, \"dur\": 1, \"args\": {\"cuda_sync_kind\": \"Stream Wait Event\", "
    "\"wait_on_stream\": 9, \"wait_on_cuda_event_record_corr_id\": 70, \"stream\": 7, \"device\": 0}\n  }",
    "{\n    \"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 10, \"tid\": 10, \"args\": {\"name\": "
    "\"python3\"}\n  }",
    "{\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"mark\", \"pid\": 10, \"tid\": 11, "
    "\"ts\": 1005, \"s\": \"t\"\n  }",
};

} // namespace

class TestKinetoFastScan : public QObject {
    Q_OBJECT

private slots:
    void readerSteps_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty array") << " [ ] \n"
                                     << "n";
        QTest::newRow("two events, white space") << "[ {\"ph\":\"X\"} ,\n\t{ } ]"
                                                 << "een";
        QTest::newRow("missing comma") << "[{\"ph\":\"X\"} {\"ph\":\"X\"}]"
                                       << "em";
        QTest::newRow("trailing comma") << "[{\"ph\":\"X\"}, ]"
                                        << "em";
        QTest::newRow("comma at the end") << "[{\"ph\":\"X\"},"
                                          << "em";
        QTest::newRow("content after the array") << "[{\"ph\":\"X\"}] x"
                                                 << "em";
        QTest::newRow("not an array") << "{\"ph\":\"X\"}"
                                      << "m";
        QTest::newRow("escaped name goes to On-Demand") << "[{\"ph\":\"X\"},{\"name\":\"a\\\"b\"}]"
                                                        << "eu@12";
        QTest::newRow("escapes in skipped strings are read")
            << "[{\"args\":{\"note\":\"a\\\\b\\u00e9\\\"\"}}]"
            << "en";
        QTest::newRow("bad escape") << "[{\"x\":\"a\\qb\"}]"
                                    << "u@1";
        QTest::newRow("raw control character") << "[{\"x\":\"a\tb\"}]"
                                               << "u@1";
        QTest::newRow("leading zero") << "[{\"ts\":01}]"
                                      << "u@1";
        QTest::newRow("number then letters") << "[{\"x\":12abc}]"
                                             << "u@1";
        QTest::newRow("decimal correlation") << "[{\"args\":{\"correlation\":1.5}}]"
                                             << "u@1";
        QTest::newRow("true as pid") << "[{\"pid\":true}]"
                                     << "u@1";
        QTest::newRow("unclosed string") << "[{\"name\":\"abc"
                                         << "u@1";
        QTest::newRow("second args object") << "[{\"args\":{},\"args\":{}}]"
                                            << "u@1";
        QTest::newRow("args not an object is skipped") << "[{\"args\":[1,{\"a\":null}]}]"
                                                       << "en";
        QTest::newRow("literals") << "[{\"a\":true,\"b\":false,\"c\":null,\"d\":[]}]"
                                  << "en";
        QTest::newRow("bad literal") << "[{\"a\":nul}]"
                                     << "u@1";
        QTest::newRow("ts out of range") << "[{\"ts\":4000000000000000.001}]"
                                         << "u@1";
        QTest::newRow("negative dur") << "[{\"dur\":-1}]"
                                      << "u@1";
        QTest::newRow("deep nesting") << "[{\"a\":" + QString(300, '[') + QString(300, ']') + "}]"
                                      << "u@1";
    }
    void readerSteps() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(steps(text.toStdString()), expected);
    }

    void readsTheFieldsOnDemandReads() {
        OneEvent e =
            readOne("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":\"Spans\",\"tid\":\"0x1f\","
                    "\"ts\":1.2345,\"dur\":2.5e1,\"id\":18446744073709551615,\"args\":{\"device\":\"3\","
                    "\"stream\":null,\"correlation\":-9223372036854775808,\"grid\" : [ 8, 8,1 ] ,"
                    "\"Ev Idx\":4,\"unknown\":{\"x\":[1,2]}}}");
        QVERIFY(e.read);
        const EventFields& f = e.event.fields;
        QCOMPARE(f.ph, 'X');
        QCOMPARE(QString::fromStdString(std::string(f.name)), QString("k"));
        QCOMPARE(QString::fromStdString(std::string(f.cat)), QString("kernel"));
        QCOMPARE(f.ts, TimeNs(1235)); // the fourth decimal rounds
        QCOMPARE(f.dur, TimeNs(25000));
        QVERIFY(f.hasTs && f.hasDur && f.hasPid && f.hasTid && f.hasName);
        QCOMPARE(f.args.device, std::int64_t(3));
        QCOMPARE(f.args.stream, std::int64_t(-1));
        QCOMPARE(f.args.correlation, std::numeric_limits<std::int64_t>::min());
        // Ids in text order: strings resolved later, the flow id keeps its 64 bits.
        QCOMPARE(int(e.event.idCount), 3);
        QCOMPARE(int(e.event.ids[0].slot), int(IdToken::Pid));
        QVERIFY(e.event.ids[0].isString);
        QCOMPARE(QString::fromStdString(std::string(e.event.ids[0].text)), QString("Spans"));
        QCOMPARE(QString::fromStdString(std::string(e.event.ids[1].text)), QString("0x1f"));
        QCOMPARE(e.event.ids[2].number, std::int64_t(-1));
        // Kept fields exactly as written, in file order; the args range is the whole object.
        QCOMPARE(QString::fromStdString(e.kept), QString("\"grid\":[ 8, 8,1 ],\"Ev Idx\":4"));
        std::string_view args(f.argsText, f.argsSize);
        QVERIFY(args.front() == '{' && args.back() == '}');
        QVERIFY(args.find("\"unknown\"") != std::string_view::npos);
    }

    void timesAsTheGeneralParser_data() {
        QTest::addColumn<QString>("token");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("integer") << "1689180448563872" << qint64(1689180448563872000);
        QTest::newRow("decimals") << "4458676522690.655" << qint64(4458676522690655);
        QTest::newRow("round up") << "1.0005" << qint64(1001);
        QTest::newRow("round down") << "1.0004999" << qint64(1000);
        QTest::newRow("negative") << "-2.5" << qint64(-2500);
        QTest::newRow("zero") << "0" << qint64(0);
        QTest::newRow("exponent") << "1.5e3" << qint64(1500000);
        QTest::newRow("eight-digit runs") << "12345678.12345678" << qint64(12345678123);
    }
    void timesAsTheGeneralParser() {
        QFETCH(QString, token);
        QFETCH(qint64, ns);
        OneEvent e = readOne("{\"ts\":" + token.toStdString() + "}");
        QVERIFY(e.read);
        QCOMPARE(qint64(e.event.fields.ts), ns);
    }

    // A load in pieces (fast reader) equals the whole-file load (On-Demand), and the fast reader
    // really read the pieces: on a Kineto-formatted file, every event.
    void piecesEqualWholeFile() {
        const std::string text = kinetoFile(kCleanEvents, 300);
        for (std::int64_t pieceBytes : {std::int64_t{4096}, std::int64_t{10000}, std::int64_t{65536}}) {
            Loads l = loadBothWays(text, pieceBytes);
            QVERIFY(l.report.pieces >= 3);
            QVERIFY(!l.report.reparsed);
            QCOMPARE(QString::fromStdString(sltest::modelDifference(l.whole, l.pieces)), QString());
            // Every event of the file, the last piece's included (metadata rows count too).
            QCOMPARE(l.report.fastEvents, 300 * std::int64_t(kCleanEvents.size()));
            QCOMPARE(l.pieces.clockBaseNs, std::int64_t(1700000000000000000));
            QCOMPARE(l.pieces.devices.size(), std::size_t(1));
        }
    }

    // Events the fast reader hands over mid-piece: On-Demand reads the rest of that piece, and the
    // model stays the whole file's (synthetic ids, escaped names, decimal ids, duplicate keys).
    void handOverMidPieceKeepsTheModel() {
        std::vector<std::string> events = kCleanEvents;
        events.push_back(
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"say \\\"hi\\\" \\u00e9\", \"pid\": "
            "10, \"tid\": 10, \"ts\": 1200, \"dur\": 3}");
        events.push_back("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaMemcpyAsync\", \"pid\": "
                         "10, \"tid\": 10, \"ts\": 1210, \"dur\": 3, \"args\": {\"correlation\": 5.0}}");
        events.push_back(
            "{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"span\", \"pid\": \"Spans\", \"tid\": "
            "\"Profiler\", \"ts\": 1000, \"dur\": 300}");
        events.push_back("{\"ph\": \"X\", \"ph\": \"i\", \"cat\": \"cpu_op\", \"name\": \"twice\", \"name\": "
                         "\"second\", \"pid\": 10, \"tid\": 12, \"ts\": 1220, \"dur\": 1}");
        const std::string text = kinetoFile(events, 200);
        Loads l = loadBothWays(text, 8192);
        QVERIFY(l.report.pieces >= 3);
        QVERIFY(!l.report.reparsed);
        QCOMPARE(QString::fromStdString(sltest::modelDifference(l.whole, l.pieces)), QString());
        QVERIFY(l.report.fastEvents > 0);
        QVERIFY(l.report.fastEvents < 200 * std::int64_t(events.size()) / 2);
        // The hand-made names arrive unescaped, as On-Demand gives them.
        bool found = false;
        for (std::size_t i = 0; i < l.pieces.strings.size(); ++i)
            found = found || l.pieces.strings.str(static_cast<StringId>(i)) == "say \"hi\" \xc3\xa9";
        QVERIFY(found);
    }

    // A real trace (../shared) in pieces: the same model, nearly all of it read by the fast reader.
    void realTrace() {
        SL_REQUIRE_TRACES();
        const std::string path = sltest::tracePath("single-rank/rtx2080ti-linear.json.gz");
        LoadOptions whole;
        whole.chunkBytes = std::int64_t{1} << 40;
        Rank a = loadKinetoFile(path, 0, whole);
        LoadOptions cut;
        cut.chunkBytes = 512 * 1024;
        cut.threads = 2;
        LoadReport report;
        cut.report = &report;
        Rank b = loadKinetoFile(path, 0, cut);
        QCOMPARE(QString::fromStdString(sltest::modelDifference(a, b)), QString());
        QVERIFY2(report.fastEvents > a.eventCount() * 9 / 10,
                 qPrintable(QString("%1 of %2").arg(report.fastEvents).arg(a.eventCount())));
    }
};

QTEST_GUILESS_MAIN(TestKinetoFastScan)
#include "test_KinetoFastScan.moc"
