// Nsight Systems exports through sightline-cli (docs/Formats.md): `info` names the format and the
// profiler with its version; `simulate --json` replays a real export within 1%; an export and a
// Kineto trace load as one set, each rank saying what it came from.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

QString nsysCliFixture(const char* name) {
    return QStringLiteral(SIGHTLINE_SOURCE_DIR "/tests/data/formats/nsys/") + name;
}

QJsonObject nsysCliJson(const QStringList& args) {
    const sltest::CliRun run = sltest::runCli(args);
    if (run.code != 0) qWarning("%s", run.err.constData());
    return run.code == 0 ? QJsonDocument::fromJson(run.out).object() : QJsonObject();
}

} // namespace

class TestNsysCli : public QObject {
    Q_OBJECT
private slots:
    void infoNamesFormatAndProfiler() {
        const QJsonObject j = nsysCliJson({"info", nsysCliFixture("fuser-report1.sqlite.gz")});
        const QJsonArray ranks = j.value("ranks").toArray();
        QCOMPARE(ranks.size(), 1);
        const QJsonObject r = ranks.first().toObject();
        QCOMPARE(r.value("format").toString(), QStringLiteral("nsys-sqlite"));
        QCOMPARE(r.value("profiler").toString(),
                 QStringLiteral("NVIDIA Nsight Systems 2025.1.1.110 (export schema 3.17.1)"));
        QCOMPARE(r.value("device").toString(), QStringLiteral("NVIDIA H200"));
    }

    void simulateReplaysWithinOnePercent() {
        const QJsonObject j =
            nsysCliJson({"simulate", nsysCliFixture("perlmutter-cloverleaf-cuda.sqlite.gz"), "--json"});
        const double error = j.value("iteration").toObject().value("error_pct").toDouble(-1);
        qInfo("cloverleaf replay error %.3f%%", error);
        QVERIFY(error >= 0 && error < 1.0);
    }

    void mixedSetSaysWhatEachRankCameFrom() {
        QTemporaryDir dir;
        sltest::writeFile(dir, "rank-1.json", sltest::tinyRankTrace(1, 2));
        QFile::copy(QStringLiteral(SIGHTLINE_SOURCE_DIR "/tests/data/bad/ok-nsys-minimal.sqlite"),
                    dir.filePath("rank-0.sqlite"));
        const QJsonObject j = nsysCliJson({"info", dir.path()});
        QStringList formats;
        for (const auto& r : j.value("ranks").toArray())
            formats << r.toObject().value("format").toString();
        QCOMPARE(formats, (QStringList{"nsys-sqlite", "kineto"}));
    }
};

QTEST_GUILESS_MAIN(TestNsysCli)
#include "test_NsysCli.moc"
