// Runs sightline-cli on every entry of tests/data/bad (made by scripts/make-bad-corpus.py), on
// truncated and corrupted copies of the real traces made here at test time, and on special files.
// The contract (docs/ARCHITECTURE.md, "Command-line contract"): exit 0, or exit 2 with exactly one stderr
// line "error: FILE: what" naming the file; never a signal, never a hang.
//   err-*  must exit 2;  ok-*  must exit 0;  anything else may do either.
#include "TestSupport.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QProcess>

#include <sys/stat.h>
#include <sys/types.h>

#if defined(__SANITIZE_ADDRESS__)
#define SL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SL_SANITIZED 1
#endif
#endif

namespace {

#ifdef SL_SANITIZED
constexpr int kTimeoutMs = 60'000; // sanitizers slow the CLI down 3-10x
#else
constexpr int kTimeoutMs = 10'000;
#endif

QString corpusDir() {
    return QStringLiteral(SIGHTLINE_SOURCE_DIR "/tests/data/bad");
}

struct Outcome {
    bool finished = false;
    bool crashed = false;
    int exitCode = -1;
    QByteArray out, err;
    qint64 ms = 0;
};

Outcome runCli(const QStringList& args) {
    QProcess p;
    QElapsedTimer timer;
    timer.start();
    p.start(QStringLiteral(SIGHTLINE_CLI), args);
    Outcome o;
    if (!p.waitForStarted(kTimeoutMs)) return o;
    p.closeWriteChannel();
    o.finished = p.waitForFinished(kTimeoutMs);
    if (!o.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    o.ms = timer.elapsed();
    o.crashed = p.exitStatus() == QProcess::CrashExit;
    o.exitCode = p.exitCode();
    o.out = p.readAllStandardOutput();
    o.err = p.readAllStandardError();
    return o;
}

// Checks one run against the contract; expect: 0, 2 or -1 (either).
void checkContract(const QStringList& args, const QString& path, int expect) {
    Outcome o = runCli(args);
    const QString what = args.join(' ');
    QVERIFY2(o.finished,
             qPrintable(what + ": no answer within " + QString::number(kTimeoutMs) + " ms (killed)"));
    QVERIFY2(!o.crashed,
             qPrintable(what + ": crashed (signal); stderr: " + QString::fromUtf8(o.err.right(2000))));
    QVERIFY2(o.exitCode == 0 || o.exitCode == 2,
             qPrintable(what + ": exit code " + QString::number(o.exitCode) +
                        "; stderr: " + QString::fromUtf8(o.err.right(2000))));
    if (expect >= 0)
        QVERIFY2(o.exitCode == expect,
                 qPrintable(what + ": expected exit " + QString::number(expect) + ", got " +
                            QString::number(o.exitCode) + "; stderr: " + QString::fromUtf8(o.err.left(500))));
    if (o.exitCode == 2) {
        QByteArray err = o.err;
        QVERIFY2(err.endsWith('\n') && err.count('\n') == 1,
                 qPrintable(what + ": stderr is not exactly one line: " + QString::fromUtf8(err.left(1000))));
        QVERIFY2(err.startsWith("error: "), qPrintable(what + ": stderr does not start with 'error: ': " +
                                                       QString::fromUtf8(err.left(500))));
        QVERIFY2(err.contains(path.toUtf8()), qPrintable(what + ": the error does not name " + path + ": " +
                                                         QString::fromUtf8(err.left(500))));
    } else if (args.contains(QStringLiteral("--json")) || args.first() == QLatin1String("info")) {
        QJsonParseError pe{};
        QJsonDocument::fromJson(o.out, &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError,
                 qPrintable(what + ": exit 0 but stdout is not JSON: " + pe.errorString()));
    }
}

void addRows(const QStringList& paths, const QString& base) {
    for (const QString& path : paths) {
        QString name = QFileInfo(path).fileName();
        int expect = name.startsWith(QLatin1String("err-"))  ? 2
                     : name.startsWith(QLatin1String("ok-")) ? 0
                                                             : -1;
        QString rel = base.isEmpty() ? name : QDir(base).relativeFilePath(path);
        QTest::newRow(qPrintable("info " + rel))
            << QStringList{QStringLiteral("info"), path} << path << expect;
        QTest::newRow(qPrintable("simulate " + rel))
            << QStringList{QStringLiteral("simulate"), path, QStringLiteral("--json")} << path << expect;
    }
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

class TestBadInputCorpus : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QStringList generated_;

private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        // sightline-cli is a build dependency of the cli tests, so `simulate` is always there: every
        // entry runs through info and simulate, and a CLI that lost the command fails here instead of
        // silently dropping the simulate rows.
        const Outcome help = runCli({QStringLiteral("--help")});
        QVERIFY2(help.finished && help.exitCode == 0, "sightline-cli --help did not exit 0");
        QVERIFY2(help.out.contains("simulate"),
                 qPrintable("sightline-cli --help does not list the simulate command: " +
                            QString::fromUtf8(help.out.left(500))));
        QVERIFY2(QDir(corpusDir()).exists(), "tests/data/bad is missing: run scripts/make-bad-corpus.py");

        // Truncated and corrupted copies of real traces (data that must not be committed).
        if (!sltest::haveTraces()) return;
        const QString plain = sltest::tracesDir() + "/single-rank/h100-cuda-sync-after-fix.json";
        const QString gzipped = sltest::tracesDir() + "/single-rank/a100-cuda-sync-multistream.json.gz";
        if (QFile::exists(plain)) {
            QByteArray bytes = readAll(plain);
            for (int i = 1; i <= 16; ++i) {
                qsizetype off = bytes.size() * i / 17;
                generated_ << QString::fromStdString(
                    sltest::writeFile(tmp_, QString("err-real-trunc-%1.json").arg(off), bytes.left(off)));
            }
            QByteArray flipped = bytes;
            for (int i = 0; i < 12; ++i) {
                flipped = bytes;
                for (int k = 0; k < 3; ++k)
                    flipped[(i * 7919 + k * 104729) % flipped.size()] = "{}[]:,\"\\0\xff"[(i + k) % 10];
                generated_ << QString::fromStdString(
                    sltest::writeFile(tmp_, QString("real-flip-%1.json").arg(i), flipped));
            }
        }
        if (QFile::exists(gzipped)) {
            QByteArray bytes = readAll(gzipped);
            for (int i = 1; i <= 8; ++i) {
                qsizetype off = bytes.size() * i / 9;
                generated_ << QString::fromStdString(sltest::writeFile(
                    tmp_, QString("err-real-gz-trunc-%1.json.gz").arg(off), bytes.left(off)));
            }
            QByteArray flipped = bytes;
            flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x10);
            generated_ << QString::fromStdString(sltest::writeFile(tmp_, "real-gz-flip.json.gz", flipped));
        }
        // Special files: a FIFO (opening it would block forever), a character device.
        QString fifo = tmp_.filePath("err-fifo.json");
        if (::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0) generated_ << fifo;
    }

    void corpus_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("expect");
        QStringList entries;
        QDir dir(corpusDir());
        for (const QFileInfo& fi :
             dir.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            entries << fi.filePath();
        QVERIFY2(entries.size() > 100, "the corpus looks incomplete: run scripts/make-bad-corpus.py");
        addRows(entries, corpusDir());
    }
    void corpus() {
        QFETCH(QStringList, args);
        QFETCH(QString, path);
        QFETCH(int, expect);
        checkContract(args, path, expect);
    }

    void realTraceDamage_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("expect");
        addRows(generated_, tmp_.path());
        if (generated_.isEmpty()) QTest::newRow("skipped") << QStringList{} << QString() << 0;
    }
    void realTraceDamage() {
        QFETCH(QStringList, args);
        QFETCH(QString, path);
        QFETCH(int, expect);
        if (args.isEmpty()) QSKIP("real traces not found (../shared/traces)");
        checkContract(args, path, expect);
    }

    // ROCm-style traces made here: HIP stream handles as hex strings and ids as strings load; garbage
    // where an id belongs is refused with one line naming the file, the field and the value.
    void rocmIds_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("expect");
        QTest::addColumn<QString>("message");
        auto trace = [](const QByteArray& launchArgs, const QByteArray& kernelArgs) {
            return QByteArray(
                       R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"AMD Instinct MI250X"}],)"
                       R"("traceEvents":[)"
                       R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":100,"dur":30},)"
                       R"({"ph":"X","cat":"cuda_runtime","name":"hipExtModuleLaunchKernel","pid":100,"tid":100,)"
                       R"("ts":105,"dur":8,"args":)") +
                   launchArgs +
                   R"(},{"ph":"s","cat":"ac2g","id":5,"pid":100,"tid":100,"ts":105,"name":"ac2g"},)"
                   R"({"ph":"X","cat":"kernel","name":"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32","pid":0,"tid":1,)"
                   R"("ts":115,"dur":20,"args":)" +
                   kernelArgs +
                   R"(},{"ph":"f","cat":"ac2g","id":5,"pid":0,"tid":1,"ts":115,"name":"ac2g","bp":"e"},)"
                   R"({"ph":"X","cat":"cuda_runtime","name":"hipDeviceSynchronize","pid":100,"tid":100,)"
                   R"("ts":120,"dur":16,"args":{"correlation":6}}]})";
        };
        struct Case {
            const char* file;
            QByteArray launchArgs, kernelArgs;
            const char* message; // for err- files: what the one line must say
        };
        const Case cases[] = {
            {"ok-rocm-hex-stream.json", R"({"cid":61,"correlation":5,"stream":"0x0","grid":[256,1,1]})",
             R"({"device":0,"stream":1,"correlation":5,"kind":"Dispatch Kernel"})", ""},
            {"ok-rocm-string-ids.json", R"({"correlation":"5","stream":"0x55d1c4a3f2b0"})",
             R"({"device":"0","stream":"0x1","correlation":"0x5"})", ""},
            {"err-rocm-stream-garbage.json", R"({"correlation":5})",
             R"({"device":0,"stream":"default","correlation":5})",
             R"("stream" is not a number (nor a decimal or 0x hex string): "default")"},
            {"err-rocm-stream-bad-hex.json", R"({"correlation":5,"stream":"0xZZ"})",
             R"({"device":0,"stream":1,"correlation":5})", R"("stream" is not a number)"},
            {"err-rocm-device-garbage.json", R"({"correlation":5})",
             R"({"device":"gpu0","stream":1,"correlation":5})", R"("device" is not a number)"},
        };
        for (const auto& c : cases) {
            QString path =
                QString::fromStdString(sltest::writeFile(tmp_, c.file, trace(c.launchArgs, c.kernelArgs)));
            int expect = QByteArray(c.file).startsWith("err-") ? 2 : 0;
            QTest::newRow(qPrintable(QString("info ") + c.file))
                << QStringList{QStringLiteral("info"), path} << path << expect << QString(c.message);
            QTest::newRow(qPrintable(QString("simulate ") + c.file))
                << QStringList{QStringLiteral("simulate"), path, QStringLiteral("--json")} << path << expect
                << QString(c.message);
        }
    }
    void rocmIds() {
        QFETCH(QStringList, args);
        QFETCH(QString, path);
        QFETCH(int, expect);
        QFETCH(QString, message);
        checkContract(args, path, expect);
        if (message.isEmpty()) return;
        Outcome o = runCli(args);
        QVERIFY2(o.err.contains(message.toUtf8()), o.err.constData());
    }

    void specialPaths_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("expect");
        QStringList paths{QStringLiteral("/dev/null"), QStringLiteral("/dev/zero"),
                          QStringLiteral("/proc/self/status"), corpusDir() + "/does-not-exist.json",
                          QStringLiteral("/")};
        for (const QString& p : paths) {
            QTest::newRow(qPrintable("info " + p)) << QStringList{QStringLiteral("info"), p} << p << 2;
            QTest::newRow(qPrintable("simulate " + p))
                << QStringList{QStringLiteral("simulate"), p} << p << 2;
        }
        // Several paths at once: the bad one must be named.
        QString good = corpusDir() + "/ok-realistic.json";
        QString bad = corpusDir() + "/err-trunc-00512.json";
        QTest::newRow("info good+bad") << QStringList{QStringLiteral("info"), good, bad} << bad << 2;
        QTest::newRow("info good+good") << QStringList{QStringLiteral("info"), good, good} << good << 0;
    }
    void specialPaths() {
        QFETCH(QStringList, args);
        QFETCH(QString, path);
        QFETCH(int, expect);
        checkContract(args, path, expect);
    }
};

QTEST_GUILESS_MAIN(TestBadInputCorpus)
#include "test_BadInputCorpus.moc"
