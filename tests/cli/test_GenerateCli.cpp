// sightline-cli generate: writes loadable rank files; bad arguments exit 1 with a clear message.
#include "TestSupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cmath>

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(SIGHTLINE_CLI), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const QStringList kSmall = {"--layers", "1",     "--hidden", "512",     "--heads",
                            "8",        "--seq", "256",      "--vocab", "1024"};

} // namespace

class TestGenerateCli : public QObject {
    Q_OBJECT

private slots:
    void writesOneFilePerRank() {
        QTemporaryDir dir;
        Run r = cli(QStringList{"generate", "--out", dir.path(), "--dp", "2", "--tp", "2"} + kSmall);
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("wrote 4 ranks"));
        for (int i = 0; i < 4; ++i)
            QVERIFY(QFile::exists(dir.filePath(QString("rank-%1.json").arg(i))));
        Run info = cli({"info", "--compact", dir.path()});
        QCOMPARE(info.code, 0);
        QVERIFY(info.out.contains("\"rank_count\":4"));
        QVERIFY(info.out.contains("\"gpu_ops_without_launch\":0"));
        // info also says what the replay keeps as measured: nothing here (no pre-window ops).
        QVERIFY(info.out.contains("\"prewindow_ops\":0"));
        QVERIFY(info.out.contains("\"graph\":{"));
    }

    // The variant flags reach the generator: a faster GPU variant of the same job, predicted from
    // the plain one with compute.speedup=2 through the command line, within 2%.
    void variantsPredictedFromTheCommandLine() {
        QTemporaryDir a, b;
        const QStringList job = {"--dp",     "2",  "--backward-thread", "--item-syncs", "1",     "--quiet",
                                 "--layers", "2",  "--hidden",          "2048",         "--seq", "1024",
                                 "--heads",  "16", "--vocab",           "1024"};
        QCOMPARE(cli(QStringList{"generate", "--out", a.path()} + job).code, 0);
        QCOMPARE(cli(QStringList{"generate", "--out", b.path(), "--gpu-speedup", "2"} + job).code, 0);
        auto iteration = [](const Run& r) {
            return QJsonDocument::fromJson(r.out.toUtf8()).object()["iteration"].toObject();
        };
        Run predicted = cli({"simulate", a.path(), "--json", "--set", "compute.speedup=2"});
        Run measured = cli({"simulate", b.path(), "--json"});
        QCOMPARE(predicted.code, 0);
        const double p = iteration(predicted)["simulated_us"].toDouble();
        const double m = iteration(measured)["measured_us"].toDouble();
        const double ignored = iteration(predicted)["measured_us"].toDouble();
        QVERIFY2(std::abs(p - m) <= 0.02 * m, qPrintable(QString("%1 vs %2").arg(p).arg(m)));
        QVERIFY(std::abs(ignored - m) > 0.02 * m); // the faster GPU changed the job
        QVERIFY(cli(QStringList{"generate", "--out", a.path(), "--gpu-speedup", "0"} + kSmall).code == 1);
    }

    void gzipAndSeed() {
        QTemporaryDir a, b;
        QCOMPARE(
            cli(QStringList{"generate", "--out", a.path(), "--dp", "2", "--gzip", "--seed", "3", "--quiet"} +
                kSmall)
                .code,
            0);
        QVERIFY(QFile::exists(a.filePath("rank-1.json.gz")));
        QCOMPARE(
            cli(QStringList{"generate", "--out", b.path(), "--dp", "2", "--gzip", "--seed", "3", "--quiet"} +
                kSmall)
                .code,
            0);
        QFile fa(a.filePath("rank-1.json.gz")), fb(b.filePath("rank-1.json.gz"));
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        QCOMPARE(fa.readAll(), fb.readAll());
    }

    void badArguments_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no --out") << QStringList{"generate", "--dp", "2"} << "needs --out";
        QTest::newRow("dp 0") << QStringList{"generate", "--out", "x", "--dp", "0"} << "--dp";
        QTest::newRow("dp text") << QStringList{"generate", "--out", "x", "--dp", "two"}
                                 << "--dp needs an integer";
        QTest::newRow("gpu") << QStringList{"generate", "--out", "x", "--gpu", "v100"}
                             << "--gpu must be h100, a100 or mi300x";
        QTest::newRow("layers vs pp")
            << QStringList{"generate", "--out", "x", "--layers", "3", "--pp", "2"} << "multiple of --pp";
        QTest::newRow("stage layers vs layers")
            << QStringList{"generate", "--out", "x", "--layers", "4", "--pp", "2", "--stage-layers", "3,2"}
            << "the layers per stage must be --pp counts summing to --layers";
        QTest::newRow("stage layers text")
            << QStringList{"generate", "--out", "x", "--layers", "4", "--pp", "2", "--stage-layers", "3,x"}
            << "--stage-layers needs integers";
        QTest::newRow("straggler") << QStringList{"generate",         "--out", "x", "--dp", "2",
                                                  "--straggler-rank", "9"}
                                   << "--straggler-rank";
        QTest::newRow("unknown option")
            << QStringList{"generate", "--out", "x", "--frobnicate", "1"} << "unknown option --frobnicate";
        QTest::newRow("bandwidth") << QStringList{"generate", "--out", "x", "--inter-GBps", "fast"}
                                   << "--inter-GBps needs a number";
    }
    void badArguments() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        Run r = cli(args);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("usage error: "), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
    }

    void help() {
        Run r = cli({"generate", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("--straggler-rank"));
    }
};

QTEST_GUILESS_MAIN(TestGenerateCli)
#include "test_GenerateCli.moc"
