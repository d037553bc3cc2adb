// Runs sightline-cli on every entry of tests/data/bad (made by scripts/make-bad-corpus.py), on
// truncated and corrupted copies of the real traces made here at test time, and on special files.
// The contract (DESIGN.md, issue 2 and 8): exit 0, or exit 2 with exactly one stderr line
// "error: FILE: what" naming the file; never a signal, never a hang.
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

bool haveSimulate() {
    Outcome o = runCli({QStringLiteral("--help")});
    return o.finished && o.out.contains("simulate");
}

void addRows(const QStringList& paths, const QString& base, bool simulate) {
    for (const QString& path : paths) {
        QString name = QFileInfo(path).fileName();
        int expect = name.startsWith(QLatin1String("err-"))  ? 2
                     : name.startsWith(QLatin1String("ok-")) ? 0
                                                             : -1;
        QString rel = base.isEmpty() ? name : QDir(base).relativeFilePath(path);
        QTest::newRow(qPrintable("info " + rel))
            << QStringList{QStringLiteral("info"), path} << path << expect;
        if (simulate)
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
    bool simulate_ = false;
    QStringList generated_;

private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        simulate_ = haveSimulate();
        qInfo("sightline-cli simulate %s",
              simulate_ ? "found: corpus runs info and simulate" : "not built yet");
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
        addRows(entries, corpusDir(), simulate_);
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
        addRows(generated_, tmp_.path(), simulate_);
        if (generated_.isEmpty()) QTest::newRow("skipped") << QStringList{} << QString() << 0;
    }
    void realTraceDamage() {
        QFETCH(QStringList, args);
        QFETCH(QString, path);
        QFETCH(int, expect);
        if (args.isEmpty()) QSKIP("real traces not found (../shared/traces)");
        checkContract(args, path, expect);
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
            if (simulate_)
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
