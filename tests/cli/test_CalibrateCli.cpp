// sightline-cli calibrate: prints a knob config that --config accepts and that replays the trace.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace {

using Run = sltest::CliRun;

Run cli(const QStringList& args) {
    return sltest::runCli(args);
}

QString sample(const char* name) {
    return QString::fromStdString(sltest::samplePath(name));
}

} // namespace

class TestCalibrateCli : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        QTemporaryDir dir;
        Run r = cli({"calibrate", sample("04-dp2-tp2-pp2-2nodes")});
        QCOMPARE(r.code, 0);
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["comm.model"].toString(), QString("alpha-beta"));
        QCOMPARE(j["comm.gpus_per_node"].toInt(), 4);
        QVERIFY(std::abs(j["comm.all_reduce.intra_node_GBps"].toDouble() - 450) < 5);
        QVERIFY(j["calibration"].toObject()["check"].toObject()["error_pct"].toDouble() < 3);
        std::string cfg = sltest::writeFile(dir, "cal.json", r.out);
        Run s = cli(
            {"simulate", sample("04-dp2-tp2-pp2-2nodes"), "--config", QString::fromStdString(cfg), "--json"});
        QCOMPARE(s.code, 0);
        QJsonObject sj = QJsonDocument::fromJson(s.out).object();
        QVERIFY(sj["iteration"].toObject()["error_pct"].toDouble() < 3);
    }

    void realTraceWithoutSizes() {
        SL_REQUIRE_TRACES();
        Run r = cli({"calibrate", QString::fromStdString(sltest::tracePath("dlrm-8rank-v100/kineto"))});
        QCOMPARE(r.code, 0);
        QJsonObject cal = QJsonDocument::fromJson(r.out).object()["calibration"].toObject();
        QVERIFY(cal["collectives_without_bytes"].toInt() > 0);
        QVERIFY(!cal["warnings"].toArray().isEmpty());
    }

    void badInput() {
        Run r = cli({"calibrate"});
        QCOMPARE(r.code, 1);
        Run missing = cli({"calibrate", "/nonexistent/trace.json"});
        QCOMPARE(missing.code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCalibrateCli)
#include "test_CalibrateCli.moc"
