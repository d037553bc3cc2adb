// Lazy args of gzip traces (docs/Loader.md, "Lazy args"): a .json.gz load keeps each event's args
// as a range of the inflated text, read back through inflate checkpoints. Checked against the
// eager load of the same bytes (loadKinetoBytes keeps every args object in memory).
#include "TestSupport.h"

#include "GzipWriter.h"
#include "io/FileReader.h"
#include "io/GzipIndex.h"
#include "io/KinetoLoader.h"

#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <thread>

using namespace sl;

namespace {

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every event of lazy (a gzip file) read back against eager, in file order (as a reader paging
// through the file would; each checkpoint's span is inflated once). "" when all equal, else the
// first difference. withArgs: events that have an args object.
std::string compareWithEager(const Rank& lazy, const Rank& eager, int& withArgs) {
    if (!lazy.argsFile || !lazy.argsFile->contents()) return "not loaded with lazy gzip args";
    if (lazy.tracks.size() != eager.tracks.size()) return "track counts differ";
    std::vector<EventRef> events;
    for (std::uint32_t t = 0; t < lazy.tracks.size(); ++t) {
        if (lazy.tracks[t].events.size() != eager.tracks[t].events.size()) return "event counts differ";
        for (std::uint32_t i = 0; i < lazy.tracks[t].events.size(); ++i)
            events.push_back({t, i});
    }
    auto offset = [&](EventRef r) { return lazy.tracks[r.track].events.argsFileOffset[r.index]; };
    std::stable_sort(events.begin(), events.end(),
                     [&](EventRef a, EventRef b) { return offset(a) < offset(b); });
    withArgs = 0;
    for (EventRef r : events) {
        const ArgsText full = lazy.fullArgs(r);
        if (!full.ok()) return full.error;
        if (full.text != eager.args(r))
            return "args of event " + std::to_string(r.index) + " of track " + std::to_string(r.track) +
                   " differ: '" + std::string(full.text) + "' vs '" + std::string(eager.args(r)) + "'";
        withArgs += !full.text.empty();
    }
    return {};
}

// Hand-made events whose args hold what a cut or a member boundary must not break.
const std::vector<std::string>& handArgs() {
    static const std::vector<std::string> args = {
        "{\"note\": \"say \\\"hi\\\" } ] {\", \"External id\": 1}",
        "{\"nested\": {\"a\": [1, {\"b\": \"}\"}], \"c\": {\"d\": {}}}, \"Ev Idx\": 7}",
        "{\"text\": \"gr\xc3\xbc\xc3\x9f \xe2\x82\xac\", \"esc\": \"\\u00e9\\ud83d\\ude00\"}",
        "{ \"Input Dims\" : [[2, 3], [ ]] ,\n \"Input type\": [\"float\", \"\"], \"x\": \"\\\\\"}",
        "{}",
    };
    return args;
}
std::string handMadeTrace(int count, bool beginEnd = false) {
    std::string events;
    for (int k = 0; k < count; ++k) {
        if (k) events += ",\n";
        events += "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op" + std::to_string(k % 7) +
                  "\", \"pid\": 1, \"tid\": 2, \"ts\": " + std::to_string(10 * k) +
                  ", \"dur\": 5, \"args\": " + handArgs()[static_cast<std::size_t>(k) % handArgs().size()] +
                  "}";
    }
    // "B"/"E" pairs are left to the whole-file parse (docs/Loader.md, "Chunked parsing").
    if (beginEnd)
        events += ",\n{\"ph\": \"B\", \"name\": \"b\", \"pid\": 1, \"tid\": 3, \"ts\": 1},"
                  "{\"ph\": \"E\", \"pid\": 1, \"tid\": 3, \"ts\": 2}";
    return "{\"schemaVersion\": 1, \"traceEvents\": [" + events + "]}";
}
// text as three gzip members cut at fractions of it (inside events and their args).
std::string threeMembers(const std::string& text) {
    const std::size_t a = text.size() / 3 + 5, b = 2 * text.size() / 3 + 11;
    return sltest::gzipMember(text.substr(0, a), 6, 1) + sltest::gzipMember(text.substr(a, b - a), 0) +
           sltest::gzipMember(text.substr(b), 9);
}

// Every event's args of track 0 (events sorted by ts = their place in handMadeTrace).
std::string firstWrongHandArgs(const Rank& r, int count) {
    if (r.tracks.empty() || r.tracks[0].events.size() != static_cast<std::size_t>(count))
        return "wrong event count";
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(count); ++i) {
        const ArgsText full = r.fullArgs({0, i});
        if (!full.ok()) return full.error;
        if (full.text != handArgs()[i % handArgs().size()]) return "event " + std::to_string(i) + " differs";
    }
    return {};
}

} // namespace

class TestLazyArgsGzip : public QObject {
    Q_OBJECT

private slots:
    // A real .json.gz: in pieces (default, and 1 MB pieces on two threads) and whole.
    void realTraceEqualsEager() {
        SL_REQUIRE_TRACES();
        const std::string gz = sltest::tracePath("single-rank/rtx2080ti-linear.json.gz");
        TraceBuffer inflated = readTraceFile(gz);
        Rank eager = loadKinetoBytes(std::string_view(inflated.data(), inflated.size()), gz);
        for (std::int64_t chunk : {std::int64_t{0}, std::int64_t{1} << 20, std::int64_t{1} << 40}) {
            LoadOptions options;
            options.chunkBytes = chunk;
            options.threads = 2;
            LoadReport report;
            options.report = &report;
            Rank lazy = loadKinetoFile(gz, 0, options);
            QCOMPARE(report.pieces > 1, chunk < std::int64_t{1} << 40);
            QVERIFY(!report.reparsed);
            int withArgs = 0;
            QCOMPARE(QString::fromStdString(compareWithEager(lazy, eager, withArgs)), QString());
            QCOMPARE(withArgs, 61949); // as test_LazyArgs counts them in the plain copy
            QVERIFY(lazy.argsArena.size() * 3 < eager.argsArena.size());
            const auto* index = dynamic_cast<const GzipIndex*>(lazy.argsFile->contents());
            QVERIFY(index);
            QCOMPARE(index->size(), std::uint64_t{inflated.size()});
            // A checkpoint at the first block boundary 1 MB after the one before, in 21 MB of JSON.
            QVERIFY2(index->checkpoints() >= 10 && index->checkpoints() <= 22,
                     qPrintable(QString::number(index->checkpoints())));
            qInfo("%zu checkpoints, index %zu bytes, read-back memory %zu bytes", index->checkpoints(),
                  index->indexBytes(), lazy.argsFile->memoryBytes());
        }
    }

    // Three members cut inside events and args; pieces of 150 to 600 bytes cut everywhere else.
    void concatenatedMembers() {
        const int count = 60;
        const std::string text = handMadeTrace(count);
        QTemporaryDir dir;
        const std::string path = dir.filePath("members.json.gz").toStdString();
        writeFile(path, threeMembers(text));
        int pieced = 0;
        for (std::int64_t chunk = 150; chunk <= 600; chunk += 37) {
            LoadOptions options;
            options.chunkBytes = chunk;
            LoadReport report;
            options.report = &report;
            Rank r = loadKinetoFile(path, 0, options);
            pieced += report.pieces > 1;
            QVERIFY(r.argsFile && r.argsFile->contents());
            QCOMPARE(QString::fromStdString(firstWrongHandArgs(r, count)), QString());
        }
        QVERIFY(pieced > 5);
        // Too small for pieces: parsed whole from the bytes inflated, still read back lazily.
        Rank whole = loadKinetoFile(path);
        QVERIFY(whole.argsFile && whole.argsFile->contents());
        QCOMPARE(QString::fromStdString(firstWrongHandArgs(whole, count)), QString());
    }

    // Pieces that fail ("B"/"E" pairs) fall back to the whole-file read, which indexes again.
    void wholeFileFallback() {
        const int count = 40;
        QTemporaryDir dir;
        const std::string path = dir.filePath("be.json.gz").toStdString();
        writeFile(path, threeMembers(handMadeTrace(count, true)));
        LoadOptions options;
        options.chunkBytes = 300;
        LoadReport report;
        options.report = &report;
        Rank r = loadKinetoFile(path, 0, options);
        QVERIFY(report.reparsed);
        QVERIFY(r.argsFile && r.argsFile->contents());
        QCOMPARE(QString::fromStdString(firstWrongHandArgs(r, count)), QString());
    }

    // The file rewritten or deleted after the load: a one-line error naming it.
    void changedOrDeletedFile() {
        const int count = 30;
        const std::string gz = threeMembers(handMadeTrace(count));
        QTemporaryDir dir;
        const std::string path = dir.filePath("gone.json.gz").toStdString();
        writeFile(path, gz);
        Rank r = loadKinetoFile(path);
        QCOMPARE(q(r.fullArgs({0, 1}).text), q(handArgs()[1]));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        writeFile(path, gz); // same bytes, a new modification time
        std::filesystem::last_write_time(path,
                                         std::filesystem::last_write_time(path) + std::chrono::seconds(2));
        ArgsText after = r.fullArgs({0, 2});
        QVERIFY(!after.ok());
        QVERIFY(after.text.empty());
        QVERIFY2(after.error.find(path) == 0, after.error.c_str());
        QVERIFY2(after.error.find("changed since it was loaded") != std::string::npos, after.error.c_str());
        QVERIFY(after.error.find('\n') == std::string::npos);
        QCOMPARE(q(r.fullArgs({0, 1}).text), q(handArgs()[1])); // cached before the change
        std::filesystem::remove(path);
        ArgsText gone = r.fullArgs({0, 3});
        QVERIFY(!gone.ok());
        QVERIFY2(gone.error.find(path) == 0, gone.error.c_str());
        QVERIFY2(gone.error.find("cannot open") != std::string::npos, gone.error.c_str());
    }

    // Compressed bytes damaged in place after the load, the file's stamp kept (same size, inode
    // and modification time): every read-back fails with a one-line error, none crashes.
    void damagedAfterLoad() {
        const int count = 200;
        QTemporaryDir dir;
        const std::string path = dir.filePath("damaged.json.gz").toStdString();
        writeFile(path, sltest::gzipMember(handMadeTrace(count), 6, 1));
        Rank r = loadKinetoFile(path);
        const auto stamp = std::filesystem::last_write_time(path);
        std::string bytes = readFile(path);
        for (std::size_t i = bytes.size() / 4; i < bytes.size() / 4 + 64; ++i)
            bytes[i] = static_cast<char>(0xff ^ (i * 37));
        {
            std::fstream inPlace(path, std::ios::binary | std::ios::in | std::ios::out);
            inPlace.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        std::filesystem::last_write_time(path, stamp);
        int failed = 0;
        for (std::uint32_t i = 0; i < count; ++i) {
            const ArgsText full = r.fullArgs({0, i});
            if (full.ok()) continue;
            ++failed;
            QVERIFY2(full.error.find(path) == 0, full.error.c_str());
            QVERIFY2(full.error.find('\n') == std::string::npos, full.error.c_str());
        }
        // One checkpoint (the file is small): every read inflates through the damage.
        QVERIFY2(failed > count / 2, qPrintable(QString::number(failed)));
    }
};

QTEST_GUILESS_MAIN(TestLazyArgsGzip)
#include "test_LazyArgsGzip.moc"
