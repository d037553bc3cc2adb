// A .json.gz parsed in pieces as a producer thread inflates it (docs/Loader.md, "Gzip") gives the
// model of its inflated text parsed whole, column for column.
#include "TestSupport.h"

#include "ModelDifference.h"
#include "io/FileReader.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <QTemporaryDir>

#include <fstream>

using namespace sl;

namespace {

// The inflated text written as a plain file of the same name and loaded whole: the model a gzip
// load must give, lazy args included (the fields kept in memory, docs/Loader.md, "Lazy args").
Rank plainCopyLoaded(const TraceBuffer& inflated, const std::string& gz, const QTemporaryDir& dir) {
    const std::string plain = dir.filePath(QString::fromStdString(gz).section('/', -1)).toStdString();
    std::ofstream(plain, std::ios::binary) << std::string_view(inflated.data(), inflated.size());
    LoadOptions whole;
    whole.chunkBytes = std::int64_t{1} << 40;
    return loadKinetoFile(plain, 0, whole);
}

} // namespace

class TestKinetoGzipStream : public QObject {
    Q_OBJECT

private slots:
    // rtx2080ti-linear inflates to 21 MB: 21 inflate blocks of 1 MB, so events lie across block
    // boundaries, and pieces of 1 MB and 300 KB cut it in 21 and 70 places.
    void realTraceEqualsWholeParse() {
        SL_REQUIRE_TRACES();
        const std::string gz = sltest::tracePath("single-rank/rtx2080ti-linear.json.gz");
        TraceBuffer inflated = readTraceFile(gz);
        QVERIFY(inflated.size() > 20 * GzipBlocks::kBlockBytes);
        QTemporaryDir dir;
        Rank reference = plainCopyLoaded(inflated, gz, dir);
        for (std::int64_t chunk : {std::int64_t{1} << 20, std::int64_t{300'000}}) {
            for (int threads : {1, 2}) {
                LoadOptions options;
                options.chunkBytes = chunk;
                options.threads = threads;
                LoadReport report;
                options.report = &report;
                Rank streamed = loadKinetoFile(gz, 0, options);
                // Pieces of about chunk bytes: at least size / (chunk + 64 KB window) of them.
                QVERIFY2(report.pieces >=
                             static_cast<int>(inflated.size() / static_cast<std::size_t>(chunk + 65536)),
                         qPrintable(QString::number(report.pieces)));
                QVERIFY(!report.reparsed);
                QCOMPARE(streamed.fileBytes, static_cast<std::int64_t>(inflated.size()));
                // Args are read back through inflate checkpoints (tests/core/test_LazyArgsGzip.cpp).
                QVERIFY(streamed.argsFile && streamed.argsFile->contents());
                QCOMPARE(QString::fromStdString(sltest::modelDifference(reference, streamed)), QString());
            }
        }
    }

    // A gzip file that breaks off mid-stream fails with the whole-file read's message, and a small
    // one (less than two pieces) is parsed whole from the bytes already inflated.
    void truncatedAndSmallGzip() {
        SL_REQUIRE_TRACES();
        const std::string gz = sltest::tracePath("single-rank/rtx2080ti-linear.json.gz");
        std::ifstream src(gz, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(src)), std::istreambuf_iterator<char>());
        QTemporaryDir dir;
        const std::string cut = dir.filePath("cut.json.gz").toStdString();
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        LoadOptions options;
        options.chunkBytes = 1 << 20;
        QString message;
        try {
            loadKinetoFile(cut, 0, options);
        } catch (const LoadError& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(message.startsWith(QString::fromStdString(cut)), qPrintable(message));
        QVERIFY2(message.contains("truncated gzip data"), qPrintable(message));

        const std::string simple = sltest::tracePath("single-rank/a100-simple-add.json.gz");
        LoadReport report;
        LoadOptions defaults;
        defaults.report = &report;
        Rank r = loadKinetoFile(simple, 0, defaults);
        QCOMPARE(report.pieces, 0);
        TraceBuffer inflated = readTraceFile(simple);
        QCOMPARE(QString::fromStdString(sltest::modelDifference(plainCopyLoaded(inflated, simple, dir), r)),
                 QString());
    }
};

QTEST_GUILESS_MAIN(TestKinetoGzipStream)
#include "test_KinetoGzipStream.moc"
