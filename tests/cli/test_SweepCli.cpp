// sightline-cli sweep: one knob over several values, knobs rejected with a clear message.
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

class TestSweepCli : public QObject {
    Q_OBJECT
private slots:
    void jsonPerValue() {
        Run r = cli({"sweep", sample("02-dp4"), "--set", "compute.speedup=1,2,4", "--set", "cpu.speedup=1",
                     "--json"});
        QCOMPARE(r.code, 0);
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["knob"].toString(), QString("compute.speedup"));
        QJsonArray pts = j["points"].toArray();
        QCOMPARE(pts.size(), 3);
        double base = j["baseline"].toObject()["iteration_us"].toDouble();
        QCOMPARE(pts[0].toObject()["iteration_us"].toDouble(), base); // speedup 1 == baseline
        double prev = base;
        for (const auto& p : pts) {
            QJsonObject o = p.toObject();
            QVERIFY(o["iteration_us"].toDouble() <= prev);
            prev = o["iteration_us"].toDouble();
            QVERIFY(o.contains("exposed_comm_us"));
            QJsonObject cp = o["critical_path"].toObject();
            QVERIFY(cp["length_us"].toDouble() > 0);
            QVERIFY(cp["by_kind"].toObject().contains("gpu_compute"));
        }
        QCOMPARE(pts[2].toObject()["value"].toString(), QString("4"));
        QVERIFY(pts[2].toObject()["change_pct"].toDouble() < -10);
    }

    // Each point's warnings come with their counters (docs/Diagnostics.md): data.workers on a trace
    // without DataLoader ops re-times nothing, once per point that sets it, never at the baseline.
    void warningCountersPerPoint() {
        Run r = cli({"sweep", sample("02-dp4"), "--set", "data.workers=0,2", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        auto keys = [](const QJsonObject& point) {
            QStringList out;
            for (const auto& s : point["warning_stats"].toArray())
                out << s.toObject()["key"].toString();
            return out;
        };
        QVERIFY(j["baseline"].toObject()["warning_stats"].isArray());
        QVERIFY(!keys(j["baseline"].toObject()).contains(QStringLiteral("data_knobs_no_loader")));
        const QJsonArray pts = j["points"].toArray();
        QCOMPARE(pts.size(), 2);
        QVERIFY(!keys(pts[0].toObject()).contains(QStringLiteral("data_knobs_no_loader")));
        QVERIFY2(keys(pts[1].toObject()).contains(QStringLiteral("data_knobs_no_loader")),
                 qPrintable(keys(pts[1].toObject()).join(QLatin1Char(','))));
        QVERIFY(j["graph_warning_stats"].isArray());
    }

    void tableAndOverlap() {
        Run r = cli({"sweep", sample("02-dp4"), "--set", "comm.overlap=true,false"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("(baseline)"));
        QVERIFY(r.out.contains("false"));
    }

    void badUsage() {
        Run none = cli({"sweep", sample("02-dp4")});
        QCOMPARE(none.code, 1);
        QVERIFY(none.err.contains("--set key=v1,v2"));
        Run one = cli({"sweep", sample("02-dp4"), "--set", "comm.overlap=false", "--json"}); // one value
        QCOMPARE(one.code, 0);
        QCOMPARE(QJsonDocument::fromJson(one.out).object()["points"].toArray().size(), 1);
        Run two =
            cli({"sweep", sample("02-dp4"), "--set", "compute.speedup=1,2", "--set", "comm.speedup=1,2"});
        QCOMPARE(two.code, 1);
        Run range = cli({"sweep", sample("02-dp4"), "--set", "dp.scale=1,0.5"});
        QCOMPARE(range.code, 1);
        QVERIFY(range.err.contains("dp.scale"));
        QVERIFY(range.err.contains("[1, 1e5]"));
        Run unknown = cli({"simulate", sample("02-dp4"), "--set", "comm.speed=2"});
        QCOMPARE(unknown.code, 1);
        QVERIFY(unknown.err.contains("valid keys"));
    }
};

QTEST_GUILESS_MAIN(TestSweepCli)
#include "test_SweepCli.moc"
