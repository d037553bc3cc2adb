// Random access into gzip through inflate checkpoints (io/GzipIndex.h, docs/Loader.md, "Lazy
// args"): every range read back equals the inflated text, across checkpoints, deflate blocks of
// every kind and concatenated members; damaged data gives an error, never a crash.
#include "TestSupport.h"

#include "GzipWriter.h"
#include "io/FileReader.h"
#include "io/GzipIndex.h"

#include <QTemporaryDir>

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <random>

using namespace sl;

namespace {

// JSON-like text that compresses like a trace: repeated keys, varying numbers and words.
std::string traceLikeText(std::size_t bytes) {
    std::mt19937 random(7);
    static const char* words[] = {"aten::mm",
                                  "cudaLaunchKernel",
                                  "ncclKernel_AllReduce",
                                  "Memcpy HtoD",
                                  "void at::native::elementwise_kernel<128, 4>",
                                  "\\\"quoted\\\" }{"};
    std::string text = "{\"traceEvents\":[";
    while (text.size() < bytes) {
        text += "{\"ph\":\"X\",\"name\":\"" + std::string(words[random() % 6]) +
                "\",\"ts\":" + std::to_string(random() % 100000000) +
                ",\"args\":{\"External id\":" + std::to_string(random() % 5000) + "}},\n";
    }
    text += "{}]}";
    return text;
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// An open file for GzipIndex::read, closed at the end of the scope.
struct OpenFile {
    explicit OpenFile(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
        if (fd < 0) qFatal("cannot open %s", path.c_str());
    }
    ~OpenFile() { ::close(fd); }
    int fd;
};

// The first range that reads back different from text ("" when none), or the read's error.
std::string firstWrongRange(const GzipIndex& index, int fd, const std::string& text,
                            const std::vector<std::pair<std::uint64_t, std::uint32_t>>& ranges) {
    for (auto [offset, length] : ranges) {
        if (offset + length > text.size()) continue;
        std::string got(length, '\0');
        std::string why;
        const std::string where = std::to_string(offset) + "+" + std::to_string(length);
        if (!index.read(fd, offset, length, got.data(), why)) return where + ": " + why;
        if (got != text.substr(offset, length)) return where + ": differs";
    }
    return {};
}

// Ranges around every checkpoint and boundary given, plus random ones (in random order, so the
// read-back's span cache is both used and missed).
std::vector<std::pair<std::uint64_t, std::uint32_t>>
rangesAround(const GzipIndex& index, const std::vector<std::uint64_t>& boundaries, std::uint64_t size,
             int randomCount) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> ranges;
    std::vector<std::uint64_t> places = boundaries;
    for (std::size_t k = 0; k < index.checkpoints(); ++k)
        places.push_back(index.checkpointAt(k));
    for (std::uint64_t at : places)
        for (std::uint64_t before : {0ul, 1ul, 3ul, 300ul})
            for (std::uint32_t length : {1u, 2u, 7u, 5000u})
                if (at >= before) ranges.emplace_back(at - before, length);
    std::mt19937_64 random(11);
    for (int i = 0; i < randomCount; ++i) {
        const std::uint32_t length = 1 + static_cast<std::uint32_t>(random() % 20000);
        if (size > length) ranges.emplace_back(random() % (size - length), length);
    }
    std::shuffle(ranges.begin(), ranges.end(), random);
    ranges.emplace_back(0, static_cast<std::uint32_t>(size)); // everything at once
    return ranges;
}

} // namespace

class TestGzipIndex : public QObject {
    Q_OBJECT

private slots:
    // Five members: small dynamic blocks (memLevel 1), stored blocks (level 0), a one-byte member,
    // default and fast levels; members end in the middle of what a range reads.
    void concatenatedMembers() {
        const std::string text = traceLikeText(300'000);
        const std::vector<std::uint64_t> cuts = {0, 1000, 70'001, 70'002, 200'000, text.size()};
        const int levels[][2] = {{6, 1}, {0, 8}, {9, 8}, {1, 1}, {6, 9}};
        std::string gz;
        for (std::size_t m = 0; m + 1 < cuts.size(); ++m)
            gz += sltest::gzipMember(std::string_view(text).substr(cuts[m], cuts[m + 1] - cuts[m]),
                                     levels[m][0], levels[m][1]);
        QTemporaryDir dir;
        const std::string path = dir.filePath("members.json.gz").toStdString();
        writeFile(path, gz);
        for (std::uint64_t spacing :
             {std::uint64_t{4096}, std::uint64_t{50'000}, GzipIndex::kDefaultSpacing}) {
            GzipIndex index(spacing);
            TraceBuffer inflated = readTraceFile(path, {}, kMaxUncompressedBytes, &index);
            QCOMPARE(std::string(inflated.data(), inflated.size()), text);
            QVERIFY(index.finished());
            QCOMPARE(index.size(), std::uint64_t{text.size()});
            QCOMPARE(index.checkpointAt(0), std::uint64_t{0});
            // A checkpoint at the first block boundary spacing bytes after the one before (the
            // blocks are short here: at most a few KB of output).
            // The first block boundary spacing bytes after the checkpoint before (the level 1,
            // memLevel 1 member alone has about 25 blocks of 4 KB).
            if (spacing == 4096)
                QVERIFY2(index.checkpoints() >= 20, qPrintable(QString::number(index.checkpoints())));
            OpenFile file(path);
            const auto ranges = rangesAround(index, cuts, text.size(), 400);
            QCOMPARE(QString::fromStdString(firstWrongRange(index, file.fd, text, ranges)), QString());
            QVERIFY(index.memoryBytes() > index.indexBytes()); // the last span read is held
        }
    }

    // A real trace with checkpoints every 64 KB: ranges across checkpoints and deflate blocks.
    void realTraceRanges() {
        SL_REQUIRE_TRACES();
        const std::string gz = sltest::tracePath("single-rank/rtx2080ti-linear.json.gz");
        GzipIndex index(64 * 1024);
        TraceBuffer inflated = readTraceFile(gz, {}, kMaxUncompressedBytes, &index);
        const std::string text(inflated.data(), inflated.size());
        // A block of gzip -6 holds about 1 MB of this JSON (16 K symbols, long matches): nearly
        // every block boundary is a checkpoint.
        QVERIFY2(index.checkpoints() >= 15, qPrintable(QString::number(index.checkpoints())));
        // Compressed windows: far less than 32 KB a checkpoint.
        QVERIFY2(index.indexBytes() < index.checkpoints() * 16 * 1024,
                 qPrintable(QString::number(index.indexBytes())));
        OpenFile file(gz);
        QCOMPARE(QString::fromStdString(
                     firstWrongRange(index, file.fd, text, rangesAround(index, {}, text.size(), 300))),
                 QString());
    }

    // The compressed bytes damaged or cut after indexing: reads fail with a reason, never crash.
    void damagedData() {
        const std::string text = traceLikeText(200'000);
        const std::string gz = sltest::gzipMember(text, 6, 1) + sltest::gzipMember(text, 6, 8);
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.json.gz").toStdString();
        writeFile(path, gz);
        GzipIndex index(8192);
        readTraceFile(path, {}, kMaxUncompressedBytes, &index);
        const std::string twice = text + text;
        const auto ranges = rangesAround(index, {text.size()}, twice.size(), 200);

        std::string damaged = gz;
        for (std::size_t i = gz.size() / 3; i < gz.size() / 3 + 400; ++i)
            damaged[i] = static_cast<char>(0xff ^ (i * 37));
        const std::string bad = dir.filePath("bad.json.gz").toStdString();
        writeFile(bad, damaged);
        const std::string cut = dir.filePath("cut.json.gz").toStdString();
        writeFile(cut, gz.substr(0, gz.size() / 2));
        for (const std::string& broken : {bad, cut}) {
            OpenFile file(broken);
            int failed = 0;
            for (auto [offset, length] : ranges) {
                if (offset + length > twice.size()) continue;
                std::string got(length, '\0');
                std::string why;
                if (!index.read(file.fd, offset, length, got.data(), why)) {
                    ++failed;
                    QVERIFY(!why.empty());
                    QVERIFY2(why.find('\n') == std::string::npos, why.c_str());
                }
            }
            QVERIFY2(failed > 10, qPrintable(QString::number(failed)));
        }
        // The file as indexed still reads back (no state left from the failures).
        OpenFile file(path);
        QCOMPARE(QString::fromStdString(firstWrongRange(index, file.fd, twice, ranges)), QString());
    }
};

QTEST_GUILESS_MAIN(TestGzipIndex)
#include "test_GzipIndex.moc"
