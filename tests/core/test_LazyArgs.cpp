// Lazy args (docs/Loader.md, "Lazy args"): a plain file's events keep the byte range of their args
// and Rank::fullArgs reads it back on demand. Checked against the eager load of the same bytes
// (loadKinetoBytes keeps every args object in memory) and against args written by hand.
#include "TestSupport.h"

#include "io/FileReader.h"
#include "io/KinetoLoader.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace sl;

namespace {

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

// The fields of an args object that stay in memory with lazy args (Rank::args), taken from the
// full object with nlohmann: the list is the one TraceSet.h documents.
nlohmann::json keptFields(const nlohmann::json& full) {
    static const char* keys[] = {"Input Dims", "Input type",         "Concrete Inputs",
                                 "Ev Idx",     "Record function id", "bytes",
                                 "grid",       "blocks per SM"};
    nlohmann::json out = nlohmann::json::object();
    for (const char* k : keys)
        if (full.contains(k)) out[k] = full[k];
    return out;
}

// Every event of lazy (a plain file) against eager (the same bytes in memory): the full args read
// back equal the eager text byte for byte, and the fields kept in memory are those of the list.
// Returns how many events carried args.
int compareLazyWithEager(const Rank& lazy, const Rank& eager) {
    if (!lazy.argsFile) qFatal("the plain file was not loaded with lazy args");
    if (eager.argsFile) qFatal("bytes in memory were loaded with lazy args");
    if (lazy.tracks.size() != eager.tracks.size()) qFatal("track counts differ");
    int withArgs = 0;
    for (std::uint32_t t = 0; t < lazy.tracks.size(); ++t) {
        if (lazy.tracks[t].events.size() != eager.tracks[t].events.size()) qFatal("event counts differ");
        for (std::uint32_t i = 0; i < lazy.tracks[t].events.size(); ++i) {
            const ArgsText full = lazy.fullArgs({t, i});
            if (!full.ok()) qFatal("%s", full.error.c_str());
            const std::string_view expected = eager.args({t, i});
            if (full.text != expected)
                qFatal("args of event %u of track %u differ: '%s' vs '%s'", i, t,
                       std::string(full.text).c_str(), std::string(expected).c_str());
            if (expected.empty()) continue;
            ++withArgs;
            const std::string_view kept = lazy.args({t, i});
            const nlohmann::json want = keptFields(nlohmann::json::parse(expected));
            const nlohmann::json got = kept.empty() ? nlohmann::json::object() : nlohmann::json::parse(kept);
            if (got != want)
                qFatal("kept args of event %u of track %u: '%s', expected %s", i, t,
                       std::string(kept).c_str(), want.dump().c_str());
        }
    }
    return withArgs;
}

} // namespace

class TestLazyArgs : public QObject {
    Q_OBJECT

private slots:
    // A real trace written as a plain file: whole-file parse and pieces of 1 MB (many cuts).
    void realTraceEqualsEager() {
        SL_REQUIRE_TRACES();
        TraceBuffer inflated = readTraceFile(sltest::tracePath("single-rank/rtx2080ti-linear.json.gz"));
        const std::string text(inflated.data(), inflated.size());
        QTemporaryDir dir;
        const std::string path = dir.filePath("rtx.json").toStdString();
        writeFile(path, text);
        Rank eager = loadKinetoBytes(text, path);
        for (std::int64_t chunk : {std::int64_t{1} << 40, std::int64_t{1} << 20}) {
            LoadOptions options;
            options.chunkBytes = chunk;
            LoadReport report;
            options.report = &report;
            Rank lazy = loadKinetoFile(path, 0, options);
            QCOMPARE(report.pieces > 1, chunk == std::int64_t{1} << 20);
            QVERIFY(!report.reparsed);
            // Events of the model with an args object, counted with Python's json over the file:
            // sum(1 for e in traceEvents if e["ph"] in ("X", "i", "I") and type(e.get("args"))
            // is dict and e.get("cat") != "Trace" and type(e["pid"]) is not str) == 61949.
            QCOMPARE(compareLazyWithEager(lazy, eager), 61949);
            // Only the kept fields are in memory: far less than the eager args text.
            QVERIFY(lazy.argsArena.size() * 3 < eager.argsArena.size());
        }
    }

    // Args written by hand, at every position against the cuts: escaped quotes and braces inside
    // strings, nested objects and arrays, UTF-8 text and \u escapes, white space inside the object.
    void handMadeArgsAtChunkEdges() {
        const std::vector<std::string> args = {
            "{\"note\": \"say \\\"hi\\\" } ] {\", \"External id\": 1}",
            "{\"nested\": {\"a\": [1, {\"b\": \"}\"}], \"c\": {\"d\": {}}}, \"Ev Idx\": 7}",
            "{\"text\": \"gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80\", \"esc\": "
            "\"\\u00e9\\ud83d\\ude00\"}",
            "{ \"Input Dims\" : [[2, 3], [ ]] ,\n \"Input type\": [\"float\", \"\"], \"x\": \"\\\\\"}",
            "{\"grid\": [4, 1, 1], \"blocks per SM\": 0.5, \"bytes\": 1024, \"Concrete Inputs\": [\"\", "
            "\"2\"]}",
            "{}",
        };
        std::string events;
        const int count = 120;
        for (int k = 0; k < count; ++k) {
            if (k) events += ",\n";
            events += "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op" + std::to_string(k % 7) +
                      "\", \"pid\": 1, \"tid\": 2, \"ts\": " + std::to_string(10 * k) +
                      ", \"dur\": 5, \"args\": " + args[static_cast<std::size_t>(k) % args.size()] + "}";
        }
        const std::string text = "{\"schemaVersion\": 1, \"traceEvents\": [" + events + "]}";
        QTemporaryDir dir;
        const std::string path = dir.filePath("edges.json").toStdString();
        writeFile(path, text);
        // Piece sizes from 150 to 600 bytes (an event is 150-220): cuts land at every place of
        // an event, its args included.
        int pieced = 0;
        for (std::int64_t chunk = 150; chunk <= 600; chunk += 7) {
            LoadOptions options;
            options.chunkBytes = chunk;
            options.threads = 2;
            LoadReport report;
            options.report = &report;
            Rank r = loadKinetoFile(path, 0, options);
            pieced += report.pieces > 1;
            QCOMPARE(r.tracks.size(), std::size_t{1});
            QCOMPARE(r.tracks[0].events.size(), std::size_t{count});
            for (std::uint32_t i = 0; i < count; ++i) {
                // Events are sorted by ts, which is 10 * their place in the file.
                const ArgsText full = r.fullArgs({0, i});
                QVERIFY2(full.ok(), full.error.c_str());
                QCOMPARE(q(full.text), q(args[i % args.size()]));
            }
        }
        QVERIFY(pieced > 50);
        // The same events written in reverse order, in pieces: the columns are sorted after the
        // merge, and each event's byte range moves with it.
        std::string reversed;
        for (int k = count - 1; k >= 0; --k) {
            if (k != count - 1) reversed += ",\n";
            reversed +=
                "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 2, \"ts\": " +
                std::to_string(10 * k) +
                ", \"dur\": 5, \"args\": " + args[static_cast<std::size_t>(k) % args.size()] + "}";
        }
        const std::string reversedPath = dir.filePath("reversed.json").toStdString();
        writeFile(reversedPath, "{\"traceEvents\": [" + reversed + "]}");
        for (std::int64_t chunk : {std::int64_t{1} << 40, std::int64_t{400}}) {
            LoadOptions options;
            options.chunkBytes = chunk;
            Rank back = loadKinetoFile(reversedPath, 0, options);
            QCOMPARE(back.tracks[0].events.size(), std::size_t{count});
            for (std::uint32_t i = 0; i < count; ++i) {
                QCOMPARE(back.tracks[0].events.start[i], TimeNs{10'000} * i);
                QCOMPARE(q(back.fullArgs({0, i}).text), q(args[i % args.size()]));
            }
        }
        // The kept fields, as text: the raw value tokens joined in file order.
        Rank r = loadKinetoFile(path);
        QCOMPARE(q(r.args({0, 0})), QString());
        QCOMPARE(q(r.args({0, 1})), q("{\"Ev Idx\":7}"));
        QCOMPARE(q(r.args({0, 3})), q("{\"Input Dims\":[[2, 3], [ ]],\"Input type\":[\"float\", \"\"]}"));
        QCOMPARE(
            q(r.args({0, 4})),
            q("{\"grid\":[4, 1, 1],\"blocks per SM\":0.5,\"bytes\":1024,\"Concrete Inputs\":[\"\", \"2\"]}"));
        QCOMPARE(q(r.args({0, 5})), QString());
        QCOMPARE(q(r.fullArgs({0, 5}).text), q("{}"));
    }

    // A file that changed or vanished after the load: a one-line error naming it, never a crash.
    void changedOrVanishedFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("gone.json").toStdString();
        const std::string text = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", "
                                 "\"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2, \"args\": {\"External id\": "
                                 "5}},\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, "
                                 "\"tid\": 1, \"ts\": 4, \"dur\": 2, \"args\": {\"External id\": 6}}]}";
        writeFile(path, text);
        Rank r = loadKinetoFile(path);
        QCOMPARE(q(r.fullArgs({0, 0}).text), q("{\"External id\": 5}"));

        // Rewritten with the same size: the stamp (modification time) tells.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::string changed = text;
        changed[changed.find("\"External id\": 6")] = ' ';
        writeFile(path, changed);
        std::filesystem::last_write_time(path,
                                         std::filesystem::last_write_time(path) + std::chrono::seconds(2));
        ArgsText after = r.fullArgs({0, 1});
        QVERIFY(!after.ok());
        QVERIFY(after.text.empty());
        QVERIFY2(after.error.find(path) == 0, after.error.c_str());
        QVERIFY2(after.error.find("changed since it was loaded") != std::string::npos, after.error.c_str());
        QVERIFY(after.error.find('\n') == std::string::npos);
        // What was read before stays (the cache), the rest fails cleanly.
        QCOMPARE(q(r.fullArgs({0, 0}).text), q("{\"External id\": 5}"));

        std::filesystem::remove(path);
        ArgsText gone = r.fullArgs({0, 1});
        QVERIFY(!gone.ok());
        QVERIFY2(gone.error.find(path) == 0, gone.error.c_str());
        QVERIFY2(gone.error.find("cannot open") != std::string::npos, gone.error.c_str());
        // The model's own fields never touch the file.
        QCOMPARE(r.tracks[0].events.size(), std::size_t{2});
    }

    // gzip files read their args back through inflate checkpoints (test_LazyArgsGzip checks them
    // in full); bytes in memory keep every args object: no file behind them, fullArgs is the
    // arena's text.
    void gzipLazyBytesEager() {
        SL_REQUIRE_TRACES();
        const std::string gz = sltest::tracePath("single-rank/a100-simple-add.json.gz");
        Rank r = loadKinetoFile(gz);
        QVERIFY(r.argsFile && r.argsFile->contents());
        TraceBuffer inflated = readTraceFile(gz);
        Rank eager = loadKinetoBytes(std::string_view(inflated.data(), inflated.size()), gz);
        QVERIFY(!eager.argsFile);
        int withArgs = 0;
        for (std::uint32_t t = 0; t < eager.tracks.size(); ++t)
            for (std::uint32_t i = 0; i < eager.tracks[t].events.size(); ++i) {
                const ArgsText full = eager.fullArgs({t, i});
                QVERIFY(full.ok());
                QCOMPARE(full.text, eager.args({t, i}));
                QCOMPARE(r.fullArgs({t, i}).text, full.text);
                withArgs += !full.text.empty();
            }
        QVERIFY(withArgs > 0);
    }
};

QTEST_GUILESS_MAIN(TestLazyArgs)
#include "test_LazyArgs.moc"
